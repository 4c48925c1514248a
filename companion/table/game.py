"""A game at the table as a fold over its events.

The state is never edited in place: ``fold(game, events)`` replays the append-only event
list from the start, and an ``undo`` is an event of its own that takes an earlier event out
of the replay (undoing an undo brings it back). Every event is checked against the state it
meets, so an event that does not fit raises ``TableError`` saying why.

``game`` is the creation record ``{"id", "preset", "overrides", "players": [4 names], "created"}``
(the store adds ``"rules"``, the resolved table rules at creation, which then win over the
preset file); the first player starts as East, then South, West and North. Events are JSON objects:

- ``{"type": "riichi", "player": "Ann"}``
- ``{"type": "win", "winners": [{"player": "Ann", "han": 3, "fu": 30}], "discarder": "Bob"}``;
  ``"discarder": null`` for tsumo. A winner is ``{player, han, fu}``, ``{player, yakuman: n}``,
  ``{player, points}`` (ron: what the discarder pays; tsumo: an int is "N all" for a dealer,
  ``{"dealer": N, "non_dealer": M}`` for a non-dealer; counters are added by the table),
  ``{player, request}`` (scored by ``companion.score``; seat/round wind, tsumo, honba and sticks
  are filled in), or for the other families ``{player, payments_by_seat: {"E": +n, ...}}``
  (classical also ``{player, values_by_seat}``). Optional ``"pao": {"player": winner, "liable": name}``
  (with ``"yakuman": k`` for the liable part of a hand of several yakuman, see ``_pao_yakuman``).
- ``{"type": "draw", "tenpai": ["Ann", "Cid"]}``; ``{"type": "nagashi", "players": ["Dan"]}``
- ``{"type": "abortive", "kind": "kyuushu_kyuuhai"}`` (or suufon_renda, suucha_riichi, suukaikan,
  sanchahou); ``{"type": "chombo", "player": "Bob"}``
- ``{"type": "correction", "deltas": {"Ann": 1000, "Bob": -1000}, "reason": "stick paid twice"}``
- ``{"type": "undo", "target_seq": 7}``; ``{"type": "end"}`` (manual end, e.g. a time limit)

Example::

    >>> g = {"id": "g1", "preset": "ryanzou", "overrides": {}, "players": ["A", "B", "C", "D"]}
    >>> s = fold(g, [{"type": "win", "winners": [{"player": "B", "han": 3, "fu": 30}], "discarder": "A"}])
    >>> s.to_dict()["scores"]
    {'A': 21100, 'B': 28900, 'C': 25000, 'D': 25000}
"""

from __future__ import annotations

import copy
import importlib
from dataclasses import dataclass, field

from companion.errors import CompanionError, TableError
from companion.rules import red_fives
from companion.rules.riichi.points import base_points, payments
from companion.table.rules import NOT_OVERRIDES, TableRules, table_rules

WINDS = "ESWN"
WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
EVENT_TYPES = ("riichi", "win", "draw", "nagashi", "abortive", "chombo", "correction", "undo", "end")
# events that may still come after the game has ended
_AFTER_END = ("undo", "correction")
# the yakuman a pao (liability) is for, by the scorer's yaku ids: seed 003 "Verantwortlichkeit
# zählt für Daisangen und Daisuushii"; the other presets' rules name the same two
PAO_YAKUMAN = ("daisangen", "daisuushii")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: object) -> bool:
    # Hong Kong tables can pay quarter units (half of a half-doubling amount)
    return (_is_int(x) or isinstance(x, float)) and x == x and abs(x) != float("inf")


@dataclass
class GameState:
    """The state after a fold. ``to_dict()`` is what the API returns."""

    game: dict
    rules: TableRules
    players: list[str]
    scores: list[int]
    hand_index: int = 0  # dealer passes so far: round wind = hand_index // 4, dealer seat = % 4
    honba: int = 0
    sticks: int = 0
    riichi: list[bool] = field(default_factory=lambda: [False] * 4)
    finished: bool = False
    end_reason: str | None = None
    extension: bool = False
    yame_available: str | None = None
    penalties: list[int] = field(default_factory=lambda: [0] * 4)
    history: list[dict] = field(default_factory=list)
    hands: list[dict] = field(default_factory=list)
    current_hand: dict | None = None
    played_index: int = 0  # hand_index of the last hand played, shown once the game is over
    played_honba: int = 0  # and its honba (``honba`` has already moved on to the next deal)
    next_seq: int = 1

    # ----- where everybody sits -------------------------------------------------------------
    @property
    def dealer(self) -> int:
        return self.hand_index % 4

    @property
    def round_wind(self) -> str:
        return WINDS[(self.hand_index // 4) % 4]

    @property
    def round_label(self) -> str:
        return f"{self.round_wind}{self.dealer + 1}"

    def seat_wind(self, p: int) -> str:
        return WINDS[(p - self.dealer) % 4]

    def at_seat(self, wind: str) -> int:
        return (self.dealer + WINDS.index(wind)) % 4

    def player(self, name: object, what: str = "player") -> int:
        if not isinstance(name, str) or name not in self.players:
            raise TableError(f"unknown {what} {name!r}; the players are {', '.join(self.players)}")
        return self.players.index(name)

    # ----- ranking ---------------------------------------------------------------------------
    def _order(self, scores: list[int]) -> list[int]:
        # seat order = the seat at the start of the game (seed 003: closer to East ranks higher)
        return sorted(range(4), key=lambda p: (-scores[p], p))

    def _is_top(self, p: int) -> bool:
        if self.rules.tie == "share":
            return self.scores[p] >= max(self.scores)
        return self._order(self.scores)[0] == p

    def placements(self) -> list[dict]:
        """Ranks, final points and the score after uma/oka (and chombo penalties), in points.

        Until the game has ended this is the standing as if it ended now, without leftover sticks."""
        r = self.rules
        pts = list(self.scores)
        odd = [0] * 4  # the points of a shared stick split that do not divide evenly
        if self.finished and self.sticks and r.leftover_sticks == "first_place":
            # decided here, not at the end, so that a later correction moves them with first place
            if r.tie == "share":
                top = [p for p in range(4) if pts[p] == max(pts)]
            else:
                top = self._order(pts)[:1]
            # players tied for first split the sticks evenly; what does not divide (1000 among
            # three leaves 1) goes a point each to the tied players in seat order from the first
            # dealer, the order that breaks ties elsewhere, so the final points still add up.
            # Those odd points do not break the tie: the tied players keep sharing the rank.
            each, rest = divmod(self.sticks * 1000, len(top))
            for i, p in enumerate(top):
                pts[p] += each
                odd[p] = 1 if i < rest else 0
        if r.final_rounding:
            # seed 001 VI: up to 400 rounds down, from 500 up, to whole thousands (which swallows
            # the odd points too)
            unit = r.final_rounding
            pts = [((x + unit // 2) // unit) * unit for x in pts]
            odd = [0] * 4
        order = self._order(pts)
        groups: list[list[int]] = []
        for p in order:
            if groups and r.tie == "share" and pts[groups[-1][0]] == pts[p]:
                groups[-1].append(p)
            else:
                groups.append([p])
        out = []
        pos = 0
        for g in groups:
            uma_k = sum(r.uma[pos:pos + len(g)]) / len(g)
            oka = r.oka / len(g) if pos == 0 else 0
            for p in g:
                uma = _num(uma_k * 1000)
                points = pts[p] + odd[p]
                score = _num(points - r.return_points + uma_k * 1000 + oka - self.penalties[p])
                out.append({"player": self.players[p], "rank": pos + 1, "points": points, "uma": uma,
                            "oka": _num(oka), "penalty": self.penalties[p], "score": score})
            pos += len(g)
        return out

    # ----- output ------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        names = self.players
        hand = self.current_hand
        # once the game is over, show where it ended rather than the deal it would move on to,
        # with that hand's counters
        idx = self.played_index if self.finished else self.hand_index
        honba = self.played_honba if self.finished else self.honba
        dealer, wind = idx % 4, WINDS[(idx // 4) % 4]
        return {
            "id": self.game.get("id"),
            "preset": self.rules.preset,
            "family": self.rules.family,
            "rules": self.rules.to_dict(),
            # how many red fives the hands here count (0: a red five in a photo of the set is scored as a plain five)
            "red_fives": red_fives(self.rules.scoring_rules),
            "players": list(names),
            "scores": {names[p]: self.scores[p] for p in range(4)},
            "seat_winds": {names[p]: WINDS[(p - dealer) % 4] for p in range(4)},
            "dealer": names[dealer],
            "round": f"{wind}{dealer + 1}",
            "round_name": f"{WIND_NAMES[wind]} {dealer + 1}",
            "round_wind": wind,
            "extra_round": self.extension,
            "honba": honba,
            "riichi_sticks": self.sticks,
            "riichi_declared": [names[p] for p in range(4) if self.riichi[p]],
            "finished": self.finished,
            "end_reason": self.end_reason,
            "yame_available": self.yame_available,
            "placements": self.placements(),
            "chombo_penalties": {names[p]: self.penalties[p] for p in range(4)},
            "history": self.history,
            "hands": self.hands + ([hand] if hand and hand["events"] else []),
            "next_seq": self.next_seq,
        }


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(x, 1)


# ----- the fold -------------------------------------------------------------------------------

def _active_flags(events: list[dict]) -> dict[int, bool]:
    """Which events count after all undos; checks every undo's target on the way."""
    by_seq = {e["seq"]: e for e in events}
    active = {e["seq"]: True for e in events}

    def set_active(seq: int, value: bool) -> None:
        active[seq] = value
        ev = by_seq[seq]
        if ev.get("type") == "undo":
            # an undo that counts hides its target; one that is itself undone gives it back
            set_active(ev["target_seq"], not value)

    for ev in events:
        if ev.get("type") != "undo":
            continue
        seq, target = ev["seq"], ev.get("target_seq")
        if not _is_int(target) or target not in by_seq or target >= seq:
            raise TableError(f"undo: target_seq must be the seq of an earlier event, not {target!r}")
        if not active[target]:
            raise TableError(f"undo: event {target} is already undone")
        set_active(target, False)
    return active


def _normalise(events: list[dict]) -> list[dict]:
    out = []
    for i, ev in enumerate(events):
        if not isinstance(ev, dict):
            raise TableError(f"event {i + 1} must be a JSON object")
        if "seq" not in ev:
            ev = {**ev, "seq": i + 1}
        elif ev["seq"] != i + 1:
            raise TableError(f"events must be numbered 1, 2, 3 ...; event {i + 1} has seq {ev['seq']!r}")
        out.append(ev)
    return out


def new_state(game: dict) -> GameState:
    """The state before the first event (checks the creation record)."""
    if not isinstance(game, dict):
        raise TableError("game must be an object with preset, overrides and players")
    players = game.get("players")
    if (not isinstance(players, list) or len(players) != 4
            or not all(isinstance(p, str) and p.strip() for p in players)):
        raise TableError("a game needs exactly four player names")
    if len(set(players)) != 4:
        raise TableError("the four player names must be different")
    frozen = game.get("rules")
    if frozen is not None:
        # rules stored with the game win over the preset file as it is today
        if not isinstance(frozen, dict):
            raise TableError("the game's rules must be an object")
        rules = table_rules(game.get("preset", ""),
                            {k: v for k, v in frozen.items() if k not in NOT_OVERRIDES}, stored=True)
    else:
        rules = table_rules(game.get("preset", ""), game.get("overrides") or None)
    st = GameState(game=game, rules=rules, players=list(players), scores=[rules.start_points] * 4)
    st.current_hand = _open_hand(st)
    return st


def fold(game: dict, events: list[dict]) -> GameState:
    """Replay ``events`` (in seq order, 1-based; missing ``seq`` = position) on a new game."""
    st = new_state(game)
    events = _normalise(events)
    active = _active_flags(events)
    for ev in events:
        if active[ev["seq"]]:
            try:
                _apply(st, ev)
            except CompanionError as e:
                if len(events) > 1 and ev is not events[-1]:
                    raise type(e)(f"event {ev['seq']} ({ev.get('type')}): {e}") from e
                raise
        else:
            _record_undone(st, ev, undone_by=_undone_by(events, ev["seq"], active))
        st.next_seq = ev["seq"] + 1
    return st


def _undone_by(events: list[dict], seq: int, active: dict[int, bool]) -> int | None:
    for ev in reversed(events):
        if ev.get("type") == "undo" and ev.get("target_seq") == seq and active[ev["seq"]]:
            return ev["seq"]
    return None


def preview(game: dict, events: list[dict], event: dict) -> dict:
    """The point changes by player that ``event`` would cause, without storing anything.

    Raises ``TableError`` (or another ``CompanionError``) if the event would be refused."""
    st = fold(game, events)
    ev = {**event, "seq": st.next_seq}
    before = list(st.scores)
    if ev.get("type") == "undo":
        after = fold(game, _normalise(events) + [ev])
        return {st.players[p]: after.scores[p] - before[p] for p in range(4)}
    _apply(st, ev)
    return {st.players[p]: st.scores[p] - before[p] for p in range(4)}


def preview_detail(game: dict, events: list[dict], event: dict) -> dict:
    """Like ``preview``, with what the page may show before confirming: ``deltas`` by player,
    ``detail`` (per winner: han/fu or yakuman, limit, gain, sticks ...) and ``after`` (round,
    dealer, honba, sticks, finished, end_reason, yame_available once the event is applied)."""
    st = fold(game, _normalise(events) + [{**event, "seq": len(events) + 1}])
    before = fold(game, events)
    after = st.to_dict()
    entry = st.history[-1] if st.history else {}
    return {"deltas": {st.players[p]: st.scores[p] - before.scores[p] for p in range(4)},
            "detail": entry.get("detail"),
            "after": {k: after[k] for k in ("round", "round_name", "dealer", "honba", "riichi_sticks",
                                            "finished", "end_reason", "yame_available")}}


# ----- applying one event ----------------------------------------------------------------------

def _open_hand(st: GameState) -> dict:
    return {"round": st.round_label, "honba": st.honba, "dealer": st.players[st.dealer],
            "events": [], "deltas": {n: 0 for n in st.players}, "result": None}


def _record(st: GameState, ev: dict, deltas: list[int], detail: dict | None = None) -> None:
    names = st.players
    d = {names[p]: deltas[p] for p in range(4)}
    entry = {"seq": ev["seq"], "type": ev.get("type"), "event": _public(ev),
             "round": st.round_label, "honba": st.honba,
             "deltas": d, "undone": False, "undone_by": None}
    if detail:
        entry["detail"] = detail
    st.history.append(entry)
    # a correction after the end belongs to the last hand
    hand = st.current_hand if st.current_hand is not None else (st.hands[-1] if st.hands else None)
    if hand is None:
        return
    hand["events"].append(ev["seq"])
    for n in names:
        hand["deltas"][n] += d[n]


def _record_undone(st: GameState, ev: dict, undone_by: int | None) -> None:
    # show what the undone event did at its place, computed on a throw-away copy
    deltas = None
    try:
        trial = copy.deepcopy(st)
        before = list(trial.scores)
        _apply(trial, ev)
        deltas = {st.players[p]: trial.scores[p] - before[p] for p in range(4)}
    except CompanionError:
        pass
    entry = {"seq": ev["seq"], "type": ev.get("type"), "event": _public(ev), "round": st.round_label,
             "honba": st.honba, "deltas": deltas, "undone": True, "undone_by": undone_by}
    if ev.get("type") == "undo":
        entry["target_seq"] = ev.get("target_seq")
    st.history.append(entry)


def _public(ev: dict) -> dict:
    return {k: v for k, v in ev.items() if k not in ("seq", "client_id")}


def _apply(st: GameState, ev: dict) -> None:
    kind = ev.get("type")
    if kind not in EVENT_TYPES:
        raise TableError(f"unknown event type {kind!r}; known: {', '.join(EVENT_TYPES)}")
    if st.finished and kind not in _AFTER_END:
        raise TableError(f"the game has ended ({st.end_reason}); only undo and correction are possible")
    if kind not in ("end", "undo", "correction"):
        st.yame_available = None  # the last dealer played on instead of ending the game
    {"riichi": _riichi, "win": _win, "draw": _draw, "nagashi": _nagashi, "abortive": _abortive,
     "chombo": _chombo, "correction": _correction, "undo": _undo, "end": _end}[kind](st, ev)


def _riichi(st: GameState, ev: dict) -> None:
    r = st.rules
    if not r.riichi:
        raise TableError(f"there is no riichi in the {r.family} rules")
    p = st.player(ev.get("player"))
    if st.riichi[p]:
        raise TableError(f"{st.players[p]} has already declared riichi this hand")
    if r.riichi_needs_1000 and st.scores[p] < 1000:
        raise TableError(f"{st.players[p]} has {st.scores[p]} points; riichi needs at least 1000 under these rules")
    st.riichi[p] = True
    st.scores[p] -= 1000
    st.sticks += 1
    deltas = [0] * 4
    deltas[p] = -1000
    _record(st, ev, deltas)


# ----- wins ----------------------------------------------------------------------------------

def _win(st: GameState, ev: dict) -> None:
    r = st.rules
    winners = ev.get("winners")
    if not isinstance(winners, list) or not winners or not all(isinstance(w, dict) for w in winners):
        raise TableError('a win needs "winners": a list of {"player": ..., and han/fu, points or request}')
    idx = [st.player(w.get("player"), "winner") for w in winners]
    if len(set(idx)) != len(idx):
        raise TableError("a player is listed twice among the winners")
    if "discarder" not in ev and ev.get("tsumo") is not True:
        # a forgotten discarder must not turn a ron into a tsumo silently
        raise TableError('a win needs "discarder": the player who discarded, or null for tsumo')
    disc_name = ev.get("discarder")
    tsumo = disc_name is None
    disc = None if tsumo else st.player(disc_name, "discarder")
    if tsumo and len(winners) > 1:
        raise TableError("a tsumo has exactly one winner; for ron name the discarder")
    if disc is not None and disc in idx:
        raise TableError(f"{st.players[disc]} cannot win by ron on his own discard")
    order = sorted(range(len(idx)), key=lambda i: (idx[i] - disc) % 4 if disc is not None else 0)
    if len(idx) > 1:
        first = st.players[idx[order[0]]]
        if r.multiple_ron == "head_bump":
            raise TableError(f"head bump: only one player wins on a discard; under these rules it is {first}, "
                             f"the first after {st.players[disc]}")
        if len(idx) == 3 and "sanchahou" in r.abortive_draws:
            raise TableError("three players ron on one discard: under these rules that is the abortive "
                             "draw sanchahou, not a win")
    deltas = [0] * 4
    detail = []
    pao = ev.get("pao")
    pao_winner = pao_liable = None
    if pao is not None:
        if not r.pao:
            raise TableError("pao (liability) is not used under these rules")
        if not isinstance(pao, dict):
            raise TableError('pao must be {"player": winner, "liable": name} (optional "yakuman": n)')
        pao_liable = st.player(pao.get("liable"), "liable player")
        pao_winner = st.player(pao["player"], "pao winner") if "player" in pao else idx[0]
        if pao_winner not in idx:
            raise TableError(f"pao names {st.players[pao_winner]}, who is not a winner")
        if pao_liable == pao_winner:
            raise TableError("the winner cannot be liable for his own hand")
    for rank, i in enumerate(order):
        w, entry = idx[i], winners[i]
        gets_honba = rank == 0 or r.honba_on_multiple_ron == "all"
        if r.family == "riichi":
            pay, info = _riichi_payments(st, w, entry, tsumo, st.honba if gets_honba else 0,
                                         sticks=st.sticks if rank == 0 else 0)
            liable = pao_liable if pao_winner == w else None
            # a liable discarder pays the whole ron anyway: nothing to split
            part = _pao_yakuman(st, entry, info, pao, liable) if liable not in (None, disc) else None
            d = _riichi_deltas(st, w, disc, pay, tsumo, liable,
                               st.honba * r.honba_value if gets_honba else 0, part)
        else:
            d, info = _family_deltas(st, w, entry, disc, tsumo)
        for p in range(4):
            deltas[p] += d[p]
        detail.append({"player": st.players[w], "gain": d[w], **info})
    # riichi sticks: head bump decides; seed 003 gives riichi winners their own stick back first
    pool = st.sticks
    stick_gain = [0] * 4
    if r.sticks_on_multiple_ron == "own_back" and len(idx) > 1:
        for w in idx:
            if st.riichi[w] and pool:
                stick_gain[w] += 1000
                pool -= 1
    stick_gain[idx[order[0]]] += pool * 1000
    for p in range(4):
        deltas[p] += stick_gain[p]
    for item in detail:
        item["sticks"] = stick_gain[st.players.index(item["player"])]
    for p in range(4):
        st.scores[p] += deltas[p]
    st.sticks = 0
    _record(st, ev, deltas, {"winners": detail, "tsumo": tsumo})
    dealer_won = st.dealer in idx
    _end_hand(st, "win", dealer_keeps=dealer_won, yame="agari" if dealer_won else None)


def _check_han_fu(st: GameState, entry: dict, tsumo: bool) -> tuple[int, str | None]:
    r = st.rules
    if "yakuman" in entry and entry["yakuman"]:
        y = entry["yakuman"]
        if not _is_int(y) or not 1 <= y <= 6:
            raise TableError(f"yakuman must be a multiplier from 1 to 6, not {y!r}")
        return base_points(0, 0, y)
    han, fu = entry.get("han"), entry.get("fu")
    if not _is_int(han) or han < 1:
        raise TableError(f"han must be a whole number of at least 1, not {han!r}")
    if han > 13 * 6:
        raise TableError(f"{han} han is not possible")
    if han >= 5:
        return base_points(han, 30, kiriage=r.kiriage, kazoe=r.kazoe)
    # a hand's fu are 20 plus even parts (rounded up to tens here: seed 000's "52 fu -> 60 fu"),
    # seven pairs keep their 25; an odd count (33, 35, 105 ...) is a miscount, not a value to round
    if not _is_int(fu) or not (fu == 25 or (20 <= fu <= 110 and fu % 2 == 0)):
        raise TableError(f"fu must be an even number from 20 to 110 (rounded up to tens: 52 counts as 60) or "
                         f"25 (seven pairs) for {han} han, not {fu!r}")
    if fu == 25 and han < 2:
        raise TableError("25 fu is seven pairs, which has at least 2 han")
    if fu == 20 and not tsumo:
        raise TableError("20 fu is only possible for a tsumo (a closed ron has at least 30 fu)")
    if fu == 20 and han < 2 and not r.allow_1han_20fu_tsumo:
        raise TableError("1 han 20 fu is not possible (pinfu tsumo has 2 han)")
    return base_points(han, fu, kiriage=r.kiriage, kazoe=r.kazoe)


def _riichi_payments(st: GameState, w: int, entry: dict, tsumo: bool, honba: int,
                     sticks: int) -> tuple[dict, dict]:
    """Payments in the engine's format (honba included) and what to show about the hand."""
    r = st.rules
    dealer = w == st.dealer
    if "request" in entry:
        req = _fill_request(st, w, entry["request"], tsumo, honba, sticks)
        result = _engine(req)
        pay = result.get("payments")
        if not isinstance(pay, dict):
            raise TableError("the scoring engine gave no payments for this hand")
        info = {k: result[k] for k in ("han", "fu", "yakuman", "limit", "yaku") if k in result}
        return pay, info
    if "points" in entry:
        return _points_payments(entry["points"], dealer, tsumo, honba, r.honba_value), {"points": entry["points"]}
    if "han" in entry or "yakuman" in entry:
        base, limit = _check_han_fu(st, entry, tsumo)
        info = {"han": entry.get("han"), "fu": entry.get("fu"), "yakuman": entry.get("yakuman", 0),
                "limit": limit}
        return payments(base, dealer, tsumo, honba, r.honba_value), info
    raise TableError(f"winner {st.players[w]}: give han and fu, yakuman, points or a scoring request")


def _points_payments(points: object, dealer: bool, tsumo: bool, honba: int, honba_value: int) -> dict:
    def ok(x: object) -> bool:
        return _is_int(x) and x > 0 and x % 100 == 0

    if not tsumo:
        if not ok(points):
            raise TableError(f"points for a ron must be a positive multiple of 100, not {points!r}")
        return {"discarder": points + honba * honba_value}
    per = honba * honba_value // 3
    if dealer:
        each = points.get("non_dealer") if isinstance(points, dict) else points
        if not ok(each):
            raise TableError(f'points for a dealer tsumo are what each pays ("2000 all" = 2000), not {points!r}')
        return {"each_non_dealer": each + per}
    if not isinstance(points, dict) or not ok(points.get("dealer")) or not ok(points.get("non_dealer")):
        raise TableError('points for a non-dealer tsumo must be {"dealer": N, "non_dealer": M} '
                         f"(e.g. 2000/1000), not {points!r}")
    return {"dealer": points["dealer"] + per, "each_non_dealer": points["non_dealer"] + per}


def _pao_yakuman(st: GameState, entry: dict, info: dict, pao: dict, liable: int) -> int | None:
    """How many of the hand's yakuman the liable player answers for; ``None`` for the whole hand.

    Seed 003: "bei mehreren Yakuman zählt es nur für die, die man direkt zu verantworten hat", so
    in a hand of several yakuman only daisangen or daisuushii (``PAO_YAKUMAN``) are his, counted
    as the scorer counts them (a double daisuushii is 2 where the preset doubles it). A hand entered
    as ``{"yakuman": n}`` with n > 1 does not say which of them those are, so pao there needs
    ``"yakuman": k`` in the pao object, which also names the part where a table holds someone
    liable for another yakuman (suukantsu at some tables). One yakuman, or a hand that is not a
    yakuman (rinshan pao), stays a pao on the whole hand."""
    total = info.get("yakuman") or 0
    given = pao.get("yakuman")
    if given is not None:
        if not total:
            raise TableError('pao "yakuman" is the part of a yakuman hand the liable player answers '
                             "for; enter the hand as yakuman or score it from its tiles")
        if not _is_int(given) or not 1 <= given <= total:
            raise TableError(f'pao "yakuman" must be a whole number from 1 to {total} (the hand\'s '
                             f"yakuman), not {given!r}")
        part = given
    elif total <= 1:
        return None
    elif "request" in entry:
        part = min(total, sum(y.get("yakuman") or 0 for y in info.get("yaku") or ()
                              if isinstance(y, dict) and y.get("id") in PAO_YAKUMAN))
        if not part:
            raise TableError(f"pao is for {' or '.join(PAO_YAKUMAN)}, and this hand has neither; give "
                             'the number of yakuman the liable player answers for as pao "yakuman"')
    else:
        raise TableError(f"{total} yakuman: say how many of them {st.players[liable]} answers for, "
                         'as pao "yakuman" (1 for daisangen beside another yakuman, 2 for a double '
                         "daisuushii), or score the hand from its tiles")
    return None if part >= total else part


def _riichi_deltas(st: GameState, w: int, disc: int | None, pay: dict, tsumo: bool,
                   liable: int | None, honba_total: int, pao_part: int | None = None) -> list[int]:
    """Point changes for one winner; ``pao_part`` is the liable player's yakuman in a hand of
    more (``_pao_yakuman``), ``None`` when he answers for the whole hand."""
    d = [0] * 4
    # what the liable part alone is worth, by payer, without counters: yakuman pay in whole
    # multiples, so the rest of the hand is the engine's payments less this
    part = payments(base_points(0, 0, pao_part)[0], w == st.dealer, tsumo, 0) if pao_part else None
    if tsumo:
        for p in range(4):
            if p == w:
                continue
            if "each_non_dealer" not in pay:
                raise TableError("tsumo payments need each_non_dealer")
            amount = pay["dealer"] if p == st.dealer and "dealer" in pay else pay["each_non_dealer"]
            if part is not None:
                # seed 003, several yakuman on tsumo: the liable player pays his yakuman in full;
                # the other yakuman and the counters are paid by all as in a normal tsumo
                own = part["dealer"] if p == st.dealer and "dealer" in part else part["each_non_dealer"]
                d[liable] -= own
                amount -= own
            d[p] -= amount
        total = -sum(d)
        if liable is not None and part is None:
            # pao on tsumo: the liable player pays everything, counters included (seed 003)
            d = [0] * 4
            d[liable] = -total
        d[w] += total
        return d
    if "discarder" not in pay:
        raise TableError("ron payments need a discarder amount")
    amount = pay["discarder"]
    if liable is not None and liable != disc:
        # pao on ron: half the hand each; the discarder alone pays the counters (seed 003). With
        # several yakuman the halves are of the liable player's yakuman only; the discarder pays
        # the other yakuman in full too
        hand = part["discarder"] if part is not None else amount - honba_total
        half = hand // 2
        d[liable] -= half
        d[disc] -= amount - half
    else:
        d[disc] -= amount
    d[w] += amount
    return d


def _fill_request(st: GameState, w: int, request: object, tsumo: bool, honba: int, sticks: int) -> dict:
    if not isinstance(request, dict):
        raise TableError("request must be a scoring request object")
    req = dict(request)
    if "tsumo" in req and bool(req["tsumo"]) != tsumo:
        said = "tsumo" if tsumo else "ron"
        raise TableError(f"the request says tsumo={req['tsumo']} but the win event says {said}")
    req["tsumo"] = tsumo
    # the table's rules value every hand, house scoring rules included; a request may name the
    # game's preset (as a client that does not know the house rules does), but no other rules
    given = req.get("rules", st.rules.preset)
    if given != st.rules.preset and given != st.rules.scoring_rules:
        raise TableError(f"this game scores hands under {st.rules.preset!r}"
                         f"{' with its house rules' if st.rules.scoring else ''}; the request names other rules")
    req["rules"] = st.rules.scoring_rules
    req["seat_wind"] = st.seat_wind(w)
    req["round_wind"] = st.round_wind
    if st.rules.family == "riichi":
        req["honba"] = honba
        req["riichi_sticks"] = sticks
        if st.riichi[w]:
            req.setdefault("riichi", True)
    return req


def _engine(req: dict) -> dict:
    try:
        companion = importlib.import_module("companion")
        result = companion.score(req)
    except CompanionError:
        raise  # the engine's own message (invalid tiles, no yaku ...) says it best
    except (ImportError, AttributeError) as e:
        raise TableError("the scoring engine for these rules is not available yet; "
                         "enter the hand as han/fu or points") from e
    except Exception as e:  # a table must stay usable whatever the engine does
        raise TableError(f"the scoring engine failed on this hand ({type(e).__name__}: {e}); "
                         "enter it as han/fu or points") from e
    if not isinstance(result, dict):
        raise TableError("the scoring engine gave no result")
    return result


def _family_deltas(st: GameState, w: int, entry: dict, disc: int | None,
                   tsumo: bool) -> tuple[list[int], dict]:
    if "payments_by_seat" in entry:
        pbs, info = entry["payments_by_seat"], {}
    elif "values_by_seat" in entry:
        if st.rules.family != "classical":
            raise TableError("values_by_seat is the classical settlement; use payments_by_seat")
        pbs = _classical_settle(entry["values_by_seat"], st.seat_wind(w))
        info = {"values_by_seat": entry["values_by_seat"]}
    elif "request" in entry:
        req = _fill_request(st, w, entry["request"], tsumo, 0, 0)
        if disc is not None:
            req["discarder"] = st.seat_wind(disc)
        result = _engine(req)
        pbs = result.get("payments_by_seat")
        info = {k: result[k] for k in ("fan", "points", "doubles", "value") if k in result}
    else:
        raise TableError(f"winner {st.players[w]}: give payments_by_seat or a scoring request")
    if not isinstance(pbs, dict) or set(pbs) != set(WINDS) or not all(_is_number(v) for v in pbs.values()):
        raise TableError('payments_by_seat must give a number for each of "E", "S", "W", "N"')
    if abs(sum(pbs.values())) > 1e-9:
        raise TableError(f"payments_by_seat must add up to 0, these add up to {sum(pbs.values())}")
    if pbs[st.seat_wind(w)] <= 0:
        raise TableError(f"the winner {st.players[w]} must gain points in payments_by_seat")
    d = [0] * 4
    for wind, v in pbs.items():
        d[st.at_seat(wind)] += v
    info["payments_by_seat"] = dict(pbs)
    return d, info


def _classical_settle(values: object, winner: str) -> dict:
    """Seed 002 settlement; the classical package's ``settle`` is used when it exists."""
    if not isinstance(values, dict) or set(values) != set(WINDS) or not all(
            _is_int(v) and v >= 0 for v in values.values()):
        raise TableError('values_by_seat must give a hand value (0 or more) for each of "E", "S", "W", "N"')
    try:
        mod = importlib.import_module("companion.rules.classical")
        settle = getattr(mod, "settle", None)
    except ImportError:
        settle = None
    if settle is not None:
        return settle(dict(values), winner, "E")
    pay = dict.fromkeys(WINDS, 0)
    # the winner collects his value from everybody, East paying or collecting double
    for s in WINDS:
        if s != winner:
            amount = values[winner] * (2 if "E" in (s, winner) else 1)
            pay[s] -= amount
            pay[winner] += amount
    # the three others settle their differences, East double
    losers = [s for s in WINDS if s != winner]
    for i, a in enumerate(losers):
        for b in losers[i + 1:]:
            diff = (values[a] - values[b]) * (2 if "E" in (a, b) else 1)
            pay[a] += diff
            pay[b] -= diff
    return pay


# ----- draws, nagashi, abortive draws, chombo ---------------------------------------------------

def _names(st: GameState, value: object, key: str) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise TableError(f"{key} must be a list of player names")
    idx = [st.player(n) for n in value]
    if len(set(idx)) != len(idx):
        raise TableError(f"a player is listed twice in {key}")
    return idx


def _draw(st: GameState, ev: dict) -> None:
    r = st.rules
    tenpai = _names(st, ev.get("tenpai"), "tenpai")
    deltas = [0] * 4
    if r.family == "riichi":
        for p in range(4):
            if st.riichi[p] and p not in tenpai:
                raise TableError(f"{st.players[p]} declared riichi and so must be in the tenpai list "
                                 "(a noten riichi is a chombo)")
        k = len(tenpai)
        if 0 < k < 4:
            # seed 000: 3000 in total flow from noten to tenpai (1000/1500/3000 splits)
            for p in range(4):
                deltas[p] = r.tenpai_payment // k if p in tenpai else -(r.tenpai_payment // (4 - k))
        dealer_tenpai = st.dealer in tenpai
        keeps = dealer_tenpai and r.renchan_on_dealer_tenpai
        yame = "tenpai" if dealer_tenpai else None
    else:
        keeps = r.dealer_keeps_on_draw or (r.family == "hongkong" and _is_last_regular(st))
        yame = None
    for p in range(4):
        st.scores[p] += deltas[p]
    _record(st, ev, deltas, {"tenpai": [st.players[p] for p in tenpai]})
    _end_hand(st, "draw", dealer_keeps=keeps, yame=yame, honba_up=True)


def _nagashi(st: GameState, ev: dict) -> None:
    r = st.rules
    if not r.nagashi_mangan:
        raise TableError("nagashi mangan is not used under these rules")
    who = _names(st, ev.get("players"), "players")
    if not who:
        raise TableError("nagashi needs the players who made it")
    deltas = [0] * 4
    per = st.honba * r.honba_value // 3
    # each counts as a mangan tsumo; payments between nagashi players cancel (seed 003)
    for w in who:
        for p in range(4):
            if p == w or p in who:
                continue
            amount = (4000 if st.dealer in (p, w) else 2000) + per
            deltas[p] -= amount
            deltas[w] += amount
    # sticks: nearest to the current East; own riichi stick back first under seed 003's rule
    pool = st.sticks
    if r.sticks_on_multiple_ron == "own_back":
        for w in who:
            if st.riichi[w] and pool:
                deltas[w] += 1000
                pool -= 1
    first = min(who, key=lambda p: (p - st.dealer) % 4)
    deltas[first] += pool * 1000
    st.sticks = 0
    for p in range(4):
        st.scores[p] += deltas[p]
    _record(st, ev, deltas)
    _end_hand(st, "nagashi", dealer_keeps=st.dealer in who, yame="agari" if st.dealer in who else None)


def _abortive(st: GameState, ev: dict) -> None:
    kind = ev.get("kind")
    allowed = st.rules.abortive_draws
    if kind not in allowed:
        if not allowed:
            raise TableError("there are no abortive draws under these rules")
        raise TableError(f"abortive draw {kind!r} is not used under these rules; allowed: {', '.join(allowed)}")
    if kind == "suucha_riichi" and not all(st.riichi):
        raise TableError("suucha riichi needs all four players to have declared riichi this hand")
    _record(st, ev, [0] * 4, {"kind": kind})
    # the hand is replayed by the same dealer with one more counter; sticks stay on the table
    _end_hand(st, "abortive", dealer_keeps=True, yame=None, honba_up=True)


def _chombo(st: GameState, ev: dict) -> None:
    r = st.rules
    p = st.player(ev.get("player"))
    deltas = [0] * 4
    pbs = ev.get("payments_by_seat")
    if pbs is None and r.family == "hongkong":
        # seed 004: the offender pays each player a limit hand; the family engine knows the table
        pbs = _engine({"rules": r.preset, "false_win": True, "seat_wind": st.seat_wind(p),
                       "round_wind": st.round_wind}).get("payments_by_seat")
    if pbs is not None:
        if not isinstance(pbs, dict) or set(pbs) != set(WINDS) or not all(_is_number(v) for v in pbs.values()) \
                or abs(sum(pbs.values())) > 1e-9:
            raise TableError('payments_by_seat must give numbers for "E", "S", "W", "N" adding up to 0')
        for wind, v in pbs.items():
            deltas[st.at_seat(wind)] += v
    elif r.family == "classical":
        raise TableError("a classical false win needs payments_by_seat (the penalty the table agreed on)")
    fixed_penalty = pbs is None and r.chombo == "penalty"
    if pbs is None and r.chombo == "reverse_mangan":
        # seed 003: an immediate mangan tsumo in reverse (dealer 4000 to each; else 4000/2000)
        for q in range(4):
            if q != p:
                amount = 4000 if st.dealer in (p, q) else 2000
                deltas[q] += amount
                deltas[p] -= amount
    elif fixed_penalty:
        st.penalties[p] += r.chombo_penalty
    # riichi: the hand is replayed and its riichi sticks go back to their owners; seed 001 calls
    # it a drawn hand instead, so there the sticks wait for the next winner
    for q in range(4):
        if st.riichi[q] and r.family == "riichi":
            deltas[q] += 1000
            st.sticks -= 1
        st.riichi[q] = False
    for q in range(4):
        st.scores[q] += deltas[q]
    _record(st, ev, deltas, {"penalty": r.chombo_penalty if fixed_penalty else 0})
    _close_hand(st, "chombo")
    if _bust(st):  # seed 003: tobi counts after a chombo too
        return
    if r.chombo_dealer_passes and p == st.dealer:
        # seed 001 VIII.1: a false win by East moves the deal on
        st.hand_index += 1
        st.honba = 0
        if _check_end_of_rounds(st):
            return
    elif r.family != "riichi" and r.honba:
        st.honba += 1  # seed 001: a drawn hand with East staying is an "Osten-Sonderspiel"
    st.current_hand = _open_hand(st)


def _correction(st: GameState, ev: dict) -> None:
    deltas_in = ev.get("deltas")
    reason = ev.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise TableError("a correction needs a reason")
    if not isinstance(deltas_in, dict) or not deltas_in:
        raise TableError('a correction needs "deltas": {player: points}')
    deltas = [0] * 4
    for name, v in deltas_in.items():
        p = st.player(name)
        if not _is_int(v):
            raise TableError(f"correction for {name}: points must be a whole number, not {v!r}")
        deltas[p] += v
    for p in range(4):
        st.scores[p] += deltas[p]
    _record(st, ev, deltas)


def _undo(st: GameState, ev: dict) -> None:
    # the target was already left out of the replay; the undo itself stays visible
    st.history.append({"seq": ev["seq"], "type": "undo", "event": _public(ev), "round": st.round_label,
                       "honba": st.honba, "deltas": dict.fromkeys(st.players, 0), "undone": False,
                       "undone_by": None, "target_seq": ev.get("target_seq")})


def _end(st: GameState, ev: dict) -> None:
    _record(st, ev, [0] * 4)
    reason = f"{st.yame_available}_yame" if st.yame_available else "manual"
    _close_hand(st, None)
    _finish(st, reason)


# ----- hand and game progression ---------------------------------------------------------------

def _winds(st: GameState) -> int:
    return {"east": 1, "east_south": 2, "full": 4}[st.rules.length]


def _is_last_regular(st: GameState) -> bool:
    return st.hand_index == 4 * _winds(st) - 1


def _sudden_death_now(st: GameState) -> bool:
    """Is the hand being played a sudden-death hand of the extra rounds?"""
    if not st.extension:
        return False
    first_extra = 4 * _winds(st)
    if st.rules.extra_rounds == "sudden_death":
        return True
    return st.hand_index >= first_extra + 4  # west_then_sudden_death: the second extra wind


def _close_hand(st: GameState, result: str | None) -> None:
    hand = st.current_hand
    hand["result"] = result
    st.played_index = st.hand_index
    st.played_honba = st.honba
    st.hands.append(hand)
    st.current_hand = None


def _finish(st: GameState, reason: str) -> None:
    st.finished = True
    st.end_reason = reason
    st.yame_available = None


def _bust(st: GameState) -> bool:
    if st.rules.bust_below_zero and min(st.scores) < 0:
        _finish(st, "bust")
        return True
    return False


def _end_hand(st: GameState, result: str, *, dealer_keeps: bool, yame: str | None,
              honba_up: bool = False) -> None:
    r = st.rules
    st.riichi = [False] * 4
    st.yame_available = None
    _close_hand(st, result)
    all_last = _is_last_regular(st) or _sudden_death_now(st)
    if _bust(st):
        return
    if all_last and dealer_keeps and yame and (
            (yame == "agari" and r.agari_yame) or (yame == "tenpai" and r.tenpai_yame)):
        if not r.yame_only_if_top or st._is_top(st.dealer):
            # an automatic stop needs the target too when the game would go into extra rounds
            if r.yame_automatic and (r.extra_rounds == "none" or st.scores[st.dealer] >= r.target):
                _finish(st, f"{yame}_yame")
                return
            st.yame_available = yame
    in_sudden_death = _sudden_death_now(st)
    if r.family == "riichi":
        st.honba = st.honba + 1 if (dealer_keeps or honba_up) else 0
    elif r.honba:
        st.honba = st.honba + 1 if dealer_keeps else 0
    if not dealer_keeps:
        st.hand_index += 1
    if in_sudden_death and max(st.scores) >= r.target:
        # Tenhou reading: a dealer who keeps the deal without leading plays on
        if not (r.extra_rounds == "sudden_death" and dealer_keeps and not st._is_top(st.dealer)):
            st.yame_available = None
            _finish(st, "sudden_death")
            return
    if _check_end_of_rounds(st):
        return
    st.current_hand = _open_hand(st)


def _check_end_of_rounds(st: GameState) -> bool:
    """After the deal has moved on: has the game run out of rounds? Finishes it if so."""
    r = st.rules
    last = 4 * _winds(st) - 1
    if st.hand_index <= last:
        return False
    if r.extra_rounds == "none" or r.family != "riichi":
        _finish(st, "complete")
        return True
    if st.hand_index == last + 1 and not st.extension:
        if max(st.scores) >= r.target:
            _finish(st, "complete")
            return True
        st.extension = True
        return False
    extra = 4 if r.extra_rounds == "sudden_death" else 8
    if r.extra_rounds == "west_then_sudden_death" and st.hand_index == last + 5:
        # seed 003: after West 4 the North round is sudden death, unless someone is at the target
        if max(st.scores) >= r.target:
            _finish(st, "complete")
            return True
    if st.hand_index > last + extra:
        _finish(st, "extra_rounds_exhausted")
        return True
    return False
