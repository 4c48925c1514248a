"""A tournament as a fold over its creation record and log.

The record (``new_record``) fixes the name, the rules every game is played with, the number of
rounds and how rounds are seated; the initial players are in it with ids ``p1``, ``p2`` ...
Log entries (JSON objects with ``type``):

- ``{"type": "player_added", "player": {"id", "name", "club", "country", "ema_id"}}``
- ``{"type": "player_withdrawn", "player": "p7", "reason": "..."}`` - keeps past results
- ``{"type": "plan", "from_round": 3, "rounds": [[["p1", ...] x tables] ...], "repeat_meetings": 0, ...}``
- ``{"type": "round", "round": 3, "mode": "planned" | "swiss", "tables": [{"table": 1,
  "game_id": "...", "seats": ["p4", "p9", "p2", "p13"]}]}`` - seats in order East, South, West, North
- ``{"type": "round_cancelled", "round": 3, "reason": "..."}`` - a round seated by mistake, before
  any of its games had an event; its games stay in the games list, unused
- ``{"type": "rounds_changed", "rounds": 4, "reason": "running late"}`` - fewer or more rounds
- ``{"type": "clock", "round": 2, "minutes": 90}`` - the round clock starts at the entry's time
  (``"minutes": 0`` stops it)
- ``{"type": "penalty", "player": "p2", "points": 10000, "reason": "late"}`` - points are deducted
- ``{"type": "penalty_cancelled", "target_seq": 12, "reason": "..."}``
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.errors import InvalidRequestError
from companion.table.rules import table_rules
from companion.tournament.store import TournamentError

SEATING_MODES = ("planned", "swiss")
KEEP_APART = (None, "club", "country")  # planned rounds keep players of one club/country apart
MAX_NAME = 40
MAX_PLAYERS = 400
MAX_ROUNDS = 30


def _text(value: object, what: str, *, required: bool = False, limit: int = MAX_NAME) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip() and not required):
        if required:
            raise InvalidRequestError(f"{what} is missing")
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequestError(f"{what} must be a non-empty string")
    value = " ".join(value.split())
    if len(value) > limit:
        raise InvalidRequestError(f"{what} is longer than {limit} characters")
    return value


def check_player(data: object, where: str) -> dict:
    """A player as given by the scorekeeper: a name, or ``{name, club?, country?, ema_id?}``."""
    if isinstance(data, str):
        data = {"name": data}
    if not isinstance(data, dict):
        raise InvalidRequestError(f"{where} must be a name or an object with a name")
    unknown = sorted(set(data) - {"name", "club", "country", "ema_id"})
    if unknown:
        raise InvalidRequestError(f"{where}: unknown key(s) {', '.join(unknown)}; "
                                  "a player has name, club, country, ema_id")
    ema = data.get("ema_id")
    if isinstance(ema, int) and not isinstance(ema, bool):
        data = {**data, "ema_id": str(ema)}  # a spreadsheet paste may turn the number into a number
    return {"name": _text(data.get("name"), f"{where}: name", required=True),
            "club": _text(data.get("club"), f"{where}: club", limit=80),
            "country": _text(data.get("country"), f"{where}: country", limit=40),
            "ema_id": _text(data.get("ema_id"), f"{where}: ema_id", limit=20)}


def new_record(body: dict) -> dict:
    """Check a create request and turn it into the record to store (without ``id``)."""
    if not isinstance(body, dict):
        raise InvalidRequestError("a tournament must be a JSON object")
    known = {"name", "rules", "preset", "overrides", "players", "rounds", "seating", "swiss_from",
             "seed", "keep_apart", "client_id"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise InvalidRequestError(f"unknown key(s) {', '.join(unknown)}; expected {', '.join(sorted(known))}")
    name = _text(body.get("name"), '"name"', required=True, limit=120)
    preset = body.get("rules", body.get("preset", "ema2016"))
    overrides = body.get("overrides") or {}
    if not isinstance(preset, str):
        raise InvalidRequestError('"rules" must be a preset name such as "ema2016"')
    if not isinstance(overrides, dict):
        raise InvalidRequestError('"overrides" must be an object of table rule names and values')
    rules = table_rules(preset, overrides)  # refuses unknown presets and overrides, naming them
    rounds = body.get("rounds")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidRequestError(f'"rounds" must be the number of rounds (1-{MAX_ROUNDS}), not {rounds!r}')
    mode = body.get("seating", "planned")
    if mode not in SEATING_MODES:
        raise InvalidRequestError(f'"seating" must be "planned" or "swiss", not {mode!r}')
    swiss_from = body.get("swiss_from")
    if mode == "swiss":
        swiss_from = 2 if swiss_from is None else swiss_from
        if isinstance(swiss_from, bool) or not isinstance(swiss_from, int) or not 2 <= swiss_from <= rounds + 1:
            raise InvalidRequestError(
                f'"swiss_from" must be the first round seated by standings (2-{rounds}), not {swiss_from!r}')
    elif swiss_from is not None:
        raise InvalidRequestError('"swiss_from" only goes with "seating": "swiss"')
    keep_apart = body.get("keep_apart")
    if keep_apart not in KEEP_APART:
        raise InvalidRequestError(f'"keep_apart" must be "club", "country" or null, not {keep_apart!r}')
    seed = body.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int | str) or len(str(seed)) > 40:
        raise InvalidRequestError('"seed" must be a number or a short string')
    players = body.get("players")
    if not isinstance(players, list) or not players:
        raise InvalidRequestError('"players" must be a list of names or {name, club, country, ema_id}')
    if len(players) > MAX_PLAYERS:
        raise InvalidRequestError(f"at most {MAX_PLAYERS} players")
    checked = [check_player(p, f"player {i + 1}") for i, p in enumerate(players)]
    unique_names([p["name"] for p in checked])
    from companion.tournament.seating import check_player_count

    check_player_count(len(checked))
    return {"name": name, "preset": preset, "overrides": overrides, "rules": rules.to_dict(),
            "rounds": rounds, "seating": {"mode": mode, "swiss_from": swiss_from, "seed": seed,
                        "keep_apart": keep_apart},
            "players": [{"id": f"p{i + 1}", **p} for i, p in enumerate(checked)]}


def unique_names(names: list[str]) -> None:
    """Refuse two players of the same name (case and spacing aside): tablets show names, and a
    game refuses two equal names at one table."""
    seen: dict[str, str] = {}
    for n in names:
        key = n.casefold()
        if key in seen:
            raise InvalidRequestError(f"two players are called {n!r}; add an initial or a club to tell them apart")
        seen[key] = n


@dataclass
class Player:
    id: str
    name: str
    club: str | None = None
    country: str | None = None
    ema_id: str | None = None
    active: bool = True
    joined_round: int = 1  # the first round they could be seated in
    withdrawn_after: int | None = None  # rounds seated when they withdrew
    withdraw_reason: str | None = None

    def to_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "club": self.club, "country": self.country,
                "ema_id": self.ema_id, "active": self.active, "joined_round": self.joined_round,
                "withdrawn_after_round": self.withdrawn_after, "withdraw_reason": self.withdraw_reason}


@dataclass
class TournamentState:
    record: dict
    players: dict[str, Player] = field(default_factory=dict)
    rounds: list[dict] = field(default_factory=list)
    plan: dict | None = None
    penalties: list[dict] = field(default_factory=list)
    log: list[dict] = field(default_factory=list)
    rounds_changed: int | None = None
    clock: dict | None = None

    @property
    def id(self) -> str:
        return self.record["id"]

    @property
    def rounds_total(self) -> int:
        return self.rounds_changed if self.rounds_changed is not None else self.record["rounds"]

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    def active_ids(self) -> list[str]:
        return [p.id for p in self.players.values() if p.active]

    def player(self, pid: object) -> Player:
        if isinstance(pid, str) and pid in self.players:
            return self.players[pid]
        if isinstance(pid, str):  # the scorekeeper may type the name
            for p in self.players.values():
                if p.name.casefold() == " ".join(pid.split()).casefold():
                    return p
        raise InvalidRequestError(f"unknown player {pid!r}; give a player id (p1, p2 ...) or exact name")

    def is_swiss(self, rnd: int) -> bool:
        s = self.record["seating"]
        return s["mode"] == "swiss" and rnd >= s["swiss_from"]

    def apart_pairs(self) -> list[tuple[str, str]]:
        """Active players of the same club (or country) when the seating keeps them apart."""
        key = self.record["seating"].get("keep_apart")
        if not key:
            return []
        groups: dict[str, list[str]] = {}
        for p in self.players.values():
            value = getattr(p, key)
            if p.active and value:
                groups.setdefault(value.casefold(), []).append(p.id)
        return [(a, b) for ids in groups.values() for i, a in enumerate(ids) for b in ids[i + 1:]]

    def seated_history(self) -> list[list[list[str]]]:
        return [[t["seats"] for t in r["tables"]] for r in self.rounds]


def fold(record: dict, log: list[dict]) -> TournamentState:
    """Replay the log on the record."""
    st = TournamentState(record=record, log=log)
    for p in record["players"]:
        st.players[p["id"]] = Player(**{k: p.get(k) for k in ("id", "name", "club", "country", "ema_id")})
    cancelled: dict[int, dict] = {}
    for e in log:
        kind = e.get("type")
        if kind == "player_added":
            p = e["player"]
            st.players[p["id"]] = Player(**{k: p.get(k) for k in ("id", "name", "club", "country", "ema_id")},
                                         joined_round=len(st.rounds) + 1)
        elif kind == "player_withdrawn":
            p = st.players[e["player"]]
            p.active, p.withdrawn_after, p.withdraw_reason = False, len(st.rounds), e.get("reason")
        elif kind == "player_returned":
            p = st.players[e["player"]]
            p.active, p.withdrawn_after, p.withdraw_reason = True, None, None
        elif kind == "plan":
            st.plan = e
        elif kind == "round":
            st.rounds.append(e)
        elif kind == "round_cancelled":
            st.rounds = [r for r in st.rounds if r["round"] != e["round"]]
        elif kind == "clock":
            st.clock = e if e.get("minutes") else None
        elif kind == "rounds_changed":
            st.rounds_changed = e["rounds"]
        elif kind == "penalty":
            st.penalties.append({"seq": e["seq"], "player": e["player"], "points": e["points"],
                                 "reason": e["reason"], "round": len(st.rounds) or None, "at": e.get("at"),
                                 "cancelled": False, "cancel_reason": None})
        elif kind == "penalty_cancelled":
            cancelled[e["target_seq"]] = e
        else:
            raise TournamentError(f"log entry {e.get('seq')} has an unknown type {kind!r}")
    for pen in st.penalties:
        if pen["seq"] in cancelled:
            pen["cancelled"] = True
            pen["cancel_reason"] = cancelled[pen["seq"]].get("reason")
    return st
