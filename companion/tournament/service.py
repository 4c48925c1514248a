"""What the web layer calls: create tournaments, seat rounds, add penalties, read the view.

Seating a round creates one game per table through ``companion.table.service.create_game``,
with the tournament's rules and the players' names in seat order (East first), and then stores
the round with those game ids. A retry with the same ``client_id`` returns the stored round.
If the server dies between creating the games and storing the round, those games stay in the
games list unreferenced and the retry seats the round afresh: no round is ever stored twice.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.errors import CompanionError, InvalidRequestError
from companion.table import game as table_game
from companion.table import service as table_service
from companion.table.rules import NOT_OVERRIDES, table_rules
from companion.table.store import Store
from companion.tournament import seating, standings
from companion.tournament.model import (
    MAX_ROUNDS,
    TournamentState,
    check_player,
    fold,
    new_record,
    unique_names,
)
from companion.tournament.store import TournamentStateError, TournamentStore

# one seating at a time per tournament in this process, so that a double tap does not create
# two sets of games before one of them is stored (the store refuses the second round anyway)
_SEAT_LOCKS: dict[tuple[str, str], threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def _lock(path: Path, tid: str) -> threading.Lock:
    with _LOCKS_GUARD:
        return _SEAT_LOCKS.setdefault((str(path), tid), threading.Lock())


class Tournaments:
    """Tournaments and their games in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.games = Store(self.path)
        self.store = TournamentStore(self.path)

    # ----- reading -------------------------------------------------------------------------
    def state(self, tid: str) -> TournamentState:
        return fold(*self.store.load(tid))

    def game_states(self, st: TournamentState) -> dict[str, dict | None]:
        out: dict[str, dict | None] = {}
        for rnd in st.rounds:
            for t in rnd["tables"]:
                try:
                    out[t["game_id"]] = table_service.game_state(self.games, t["game_id"])
                except CompanionError:
                    # gone, or no longer readable: shown as missing rather than breaking the standings
                    out[t["game_id"]] = None
        return out

    def view(self, tid: str) -> dict:
        """Everything the scorekeeper page shows (see the README's tournament section)."""
        st = self.state(tid)
        games = self.game_states(st)
        rows = standings.compute([p.to_dict() for p in st.players.values()], st.rounds, games,
                                 st.penalties, st.rounds_total)
        rounds = []
        for rnd in st.rounds:
            tables = standings.table_results(rnd, games)
            for t in tables:
                for seat in t["seats"]:
                    seat["player_name"] = st.players[seat["player"]].name
            done = sum(t["finished"] for t in tables)
            rounds.append({"round": rnd["round"], "mode": rnd.get("mode", "planned"),
                           "seated_at": rnd.get("at"), "tables": tables, "tables_finished": done,
                           "finished": done == len(tables)})
        current = next((r for r in rounds if not r["finished"]), rounds[-1] if rounds else None)
        rec = st.record
        return {
            "id": st.id, "name": rec["name"], "preset": rec["preset"], "overrides": rec["overrides"],
            "rules": rec["rules"], "rounds_total": st.rounds_total, "seating": rec["seating"],
            "created": rec["created"],
            "players": [p.to_dict() for p in st.players.values()],
            "rounds": rounds,
            "progress": {"rounds_seated": len(rounds), "rounds_total": st.rounds_total,
                         "current_round": current["round"] if current else None,
                         "tables_finished": current["tables_finished"] if current else 0,
                         "tables_total": len(current["tables"]) if current else 0,
                         "complete": len(rounds) == st.rounds_total and all(r["finished"] for r in rounds),
                         "next_round": st.next_round if st.next_round <= st.rounds_total else None,
                         "next_round_swiss": st.is_swiss(st.next_round)},
            "standings": rows,
            "penalties": st.penalties,
            "plan": self._upcoming(st),
            "clock": _clock(st),
            "meetings": _meeting_summary(st),
        }

    def table_now(self, tid: str, number: int) -> dict:
        """What the tablet of table ``number`` should show: its game of the latest seated round."""
        st = self.state(tid)
        out = {"tournament": st.id, "name": st.record["name"], "table": number, "round": None,
               "game_id": None, "finished": False, "seats": [], "rounds_total": st.rounds_total}
        if not st.rounds:
            return out
        rnd = st.rounds[-1]
        table = next((t for t in rnd["tables"] if t["table"] == number), None)
        out["round"] = rnd["round"]
        if table is None:
            return out  # fewer tables this round (players withdrew)
        games = self.game_states(st)
        result = standings.table_results({"tables": [table]}, games)[0]
        out.update(game_id=table["game_id"], finished=result["finished"], missing=result["missing"],
                   seats=[{"player": s["player"], "name": st.players[s["player"]].name, "wind": s["wind"]}
                          for s in result["seats"]])
        return out

    def list(self) -> list[dict]:
        out = []
        for rec in self.store.list():
            st = self.state(rec["id"])  # the log; the record's "updated" comes with the listing
            out.append({"id": st.id, "name": rec["name"], "preset": rec["preset"], "created": rec["created"],
                        "updated": rec["updated"], "players": len(st.active_ids()),
                        "rounds_total": st.rounds_total, "rounds_seated": len(st.rounds)})
        return out

    def _upcoming(self, st: TournamentState) -> dict | None:
        """The stored plan for the rounds not seated yet, if it still fits the active players."""
        plan = st.plan
        if plan is None:
            return None
        first = st.next_round
        rounds = [{"round": plan["from_round"] + i, "tables": [{"table": t + 1, "seats": seats}
                                                                for t, seats in enumerate(r)]}
                  for i, r in enumerate(plan["rounds"]) if first <= plan["from_round"] + i <= st.rounds_total]
        fits = sorted({p for r in plan["rounds"] for t in r for p in t}) == sorted(st.active_ids())
        return {"from_round": plan["from_round"], "valid": fits, "repeat_meetings": plan["repeat_meetings"],
                "kept_apart_meetings": plan.get("avoided_meetings", 0),
                "max_meetings": plan["max_meetings"], "wind_spread": plan["wind_spread"],
                "rounds": rounds if fits else []}

    # ----- writing -------------------------------------------------------------------------
    def create(self, body: dict) -> tuple[dict, bool]:
        """Check and store a new tournament and its seating plan; returns ``(view, duplicate)``."""
        record = new_record(body)
        client_id = body.get("client_id")
        if client_id is not None and (not isinstance(client_id, str) or not 1 <= len(client_id) <= 200):
            raise InvalidRequestError('"client_id" must be a string of 1-200 characters')
        rec, dup = self.store.create(record, client_id)
        if not dup:
            st = fold(rec, [])
            plan = self._plan_entry(st)
            if plan is not None:
                self.store.append(rec["id"], [plan], f"plan-{rec['id']}-1")
        return self.view(rec["id"]), dup

    def _planned_until(self, st: TournamentState) -> int:
        s = st.record["seating"]
        return min(s["swiss_from"] - 1, st.rounds_total) if s["mode"] == "swiss" else st.rounds_total

    def _plan_entry(self, st: TournamentState) -> dict | None:
        first, last = st.next_round, self._planned_until(st)
        if first > last:
            return None
        plan = seating.plan_rounds(st.active_ids(), last - first + 1,
                                   seed=f"{st.record['seating']['seed']}:{first}",
                                   history=st.seated_history(), avoid=st.apart_pairs())
        return {"type": "plan", "from_round": first, **plan.to_dict()}

    def seat_next_round(self, tid: str, client_id: str, *, force: bool = False) -> tuple[dict, bool]:
        """Seat the next round and create its games; returns ``(round entry, duplicate)``."""
        with _lock(self.path, tid):
            st = self.state(tid)
            done = _retried(st, client_id, "round")
            if done is not None:
                return done, True
            rnd = st.next_round
            if rnd > st.rounds_total:
                raise TournamentStateError(f"all {st.rounds_total} rounds are seated already")
            seating.check_player_count(len(st.active_ids()))
            if st.rounds:
                games = self.game_states(st)
                open_tables = [t["table"] for t in standings.table_results(st.rounds[-1], games)
                               if not t["finished"]]
                swiss = st.is_swiss(rnd)
                if open_tables and (swiss or not force):
                    tables = ", ".join(str(t) for t in open_tables)
                    hint = ("a Swiss round is seated by the standings, so it waits for every table"
                            if swiss else 'finish them, or send "force": true to seat the next round now')
                    raise TournamentStateError(
                        f"round {len(st.rounds)} is still being played at table(s) {tables}; {hint}")
            entries: list[dict] = []
            if st.is_swiss(rnd):
                view_rows = self.view(tid)["standings"]
                active = set(st.active_ids())
                ranked = [r["player"] for r in view_rows if r["player"] in active]
                plan = seating.swiss_round(ranked, seed=st.record["seating"]["seed"],
                                           history=st.seated_history())
                tables = plan.rounds[0]
                mode = "swiss"
            else:
                current = self._upcoming(st)
                if current is None or not current["valid"] or not current["rounds"] \
                        or current["rounds"][0]["round"] != rnd:
                    entry = self._plan_entry(st)
                    entries.append(entry)
                    tables = entry["rounds"][0]
                else:
                    tables = [t["seats"] for t in current["rounds"][0]["tables"]]
                mode = "planned"
            rec = st.record
            overrides = _game_overrides(rec)
            created = []
            for seats in tables:
                names = [st.players[p].name for p in seats]
                game = table_service.create_game(self.games, rec["preset"], overrides, names)
                created.append(game["id"])
            entries.append({"type": "round", "round": rnd, "mode": mode,
                            "tables": [{"table": i + 1, "game_id": g, "seats": s}
                                       for i, (g, s) in enumerate(zip(created, tables, strict=True))]})
            stored, dup = self.store.append(tid, entries, client_id, unique_round=rnd)
            return stored[-1], dup

    def cancel_round(self, tid: str, rnd: int, reason: object, client_id: str) -> tuple[dict, bool]:
        """Take back the last seated round while none of its games has an event yet."""
        with _lock(self.path, tid):
            st = self.state(tid)
            done = _retried(st, client_id, "round_cancelled")
            if done is not None:
                return done, True
            if not st.rounds or st.rounds[-1]["round"] != rnd:
                last = st.rounds[-1]["round"] if st.rounds else None
                raise TournamentStateError(f"only the last seated round ({last}) can be taken back, not {rnd!r}")
            if not isinstance(reason, str) or not reason.strip():
                raise InvalidRequestError('taking a round back needs a "reason" (it stays in the log)')
            games = self.game_states(st)
            started = [t["table"] for t in st.rounds[-1]["tables"]
                       if games.get(t["game_id"]) and games[t["game_id"]]["history"]]
            if started:
                raise TournamentStateError(
                    f"round {rnd} has started at table(s) {', '.join(map(str, started))}; it cannot be taken back")
            stored, dup = self.store.append(tid, [{"type": "round_cancelled", "round": rnd,
                                                   "reason": reason.strip()}], client_id)
            return stored[-1], dup

    def set_rounds(self, tid: str, rounds: object, reason: object, client_id: str) -> tuple[dict, bool]:
        """Play fewer or more rounds than planned (never fewer than are seated already)."""
        st = self.state(tid)
        done = _retried(st, client_id, "rounds_changed")
        if done is not None:
            return done, True
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise InvalidRequestError(f'"rounds" must be the number of rounds (1-{MAX_ROUNDS}), not {rounds!r}')
        if rounds < len(st.rounds):
            raise TournamentStateError(f"{len(st.rounds)} rounds are seated already; the tournament cannot "
                                       f"have fewer than that")
        if reason is not None and not isinstance(reason, str):
            raise InvalidRequestError('"reason" must be text')
        entry = {"type": "rounds_changed", "rounds": rounds, "reason": (reason or "").strip() or None}
        stored, dup = self.store.append(tid, [entry], client_id)
        return stored[-1], dup

    def enter_result(self, tid: str, rnd: int, number: int, points: object, client_id: str) -> dict:
        """A table played on paper (no tablet, or a broken one): its final points by seat wind,
        stored in the table's game as a correction from the start points plus an end, so uma,
        oka and placements come from the table rules as for every other game.

        The same points again (a retry, or the sheet entered twice) change nothing. Other points
        correct the sheet: one more correction by the difference, so the log keeps both results
        and placements, uma and standings follow the corrected points (a game that has ended
        takes corrections and ranks its current points)."""
        st = self.state(tid)
        seated = next((r for r in st.rounds if r["round"] == rnd), None)
        if seated is None:
            raise InvalidRequestError(f"round {rnd!r} is not seated")
        table = next((t for t in seated["tables"] if t["table"] == number), None)
        if table is None:
            raise InvalidRequestError(f"round {rnd} has no table {number!r}")
        game_id = table["game_id"]
        record, events = self.games.load(game_id)  # once: the state, and which client_ids it has stored
        game = table_game.fold(record, events).to_dict()
        paper = standings.on_paper(game)
        sent = any(e.get("client_id") in (f"{client_id}#points", f"{client_id}#end") for e in events)
        if paper and sent:
            # a retry after a lost answer (or a crash between two events): finish what is there
            return self._end_paper(game_id, game, client_id)
        if game["history"] and not paper:
            raise TournamentStateError(f"table {number} has entered hands on its tablet; correct the "
                                       "result there (a correction event), not with a paper result")
        start = game["rules"]["start_points"]
        _check_sheet(points, start)
        names = game["players"]
        if not paper:
            # every seat is named, also at 0, so that the correction itself marks the paper result
            deltas = {names[i]: points[w] - start for i, w in enumerate("ESWN")}
            table_service.append_event(self.games, game_id, {
                "type": "correction", "deltas": deltas, "reason": standings.PAPER_REASON}, f"{client_id}#points", 1)
            return table_service.append_event(self.games, game_id, {"type": "end"}, f"{client_id}#end", 2)
        # a corrected sheet: the difference from the points the game holds now
        deltas = {names[i]: points[w] - game["scores"][names[i]] for i, w in enumerate("ESWN")}
        if any(deltas.values()):
            sheet = ", ".join(f"{w} {points[w]:,}" for w in "ESWN")
            game = table_service.append_event(self.games, game_id, {
                "type": "correction", "deltas": deltas, "reason": f"{standings.CORRECTED_REASON} to {sheet}"},
                f"{client_id}#points", game["next_seq"])
        return self._end_paper(game_id, game, client_id)

    def _end_paper(self, game_id: str, game: dict, client_id: str) -> dict:
        if game["finished"]:
            return game
        return table_service.append_event(self.games, game_id, {"type": "end"}, f"{client_id}#end",
                                          game["next_seq"])

    def start_clock(self, tid: str, minutes: object, client_id: str) -> tuple[dict, bool]:
        """Start the round clock for the current round (``minutes`` 0 stops it)."""
        st = self.state(tid)
        done = _retried(st, client_id, "clock")
        if done is not None:
            return done, True
        if isinstance(minutes, bool) or not isinstance(minutes, int | float) or not 0 <= minutes <= 600:
            raise InvalidRequestError(f'"minutes" must be the playing time in minutes (0-600; 0 stops the clock), '
                                      f"not {minutes!r}")
        current = st.rounds[-1]["round"] if st.rounds else None
        stored, dup = self.store.append(tid, [{"type": "clock", "round": current, "minutes": minutes}], client_id)
        return stored[-1], dup

    def add_player(self, tid: str, body: dict, client_id: str) -> tuple[dict, bool]:
        """A late entry or a substitute; they are seated from the next round on."""
        player = check_player({k: v for k, v in body.items() if k != "client_id"}, "the player")
        with _lock(self.path, tid):  # the new id is the count of players so far plus one
            st = self.state(tid)
            done = _retried(st, client_id, "player_added")
            if done is not None:
                return done, True
            unique_names([p.name for p in st.players.values()] + [player["name"]])
            player = {"id": f"p{len(st.players) + 1}", **player}
            stored, dup = self.store.append(tid, [{"type": "player_added", "player": player}], client_id)
            return stored[-1], dup

    def withdraw_player(self, tid: str, pid: str, reason: object, client_id: str,
                        *, back: bool = False) -> tuple[dict, bool]:
        st = self.state(tid)
        done = _retried(st, client_id, "player_withdrawn", "player_returned")
        if done is not None:
            return done, True
        p = st.player(pid)
        if not back and not p.active:
            raise TournamentStateError(f"{p.name} has withdrawn already")
        if back and p.active:
            raise TournamentStateError(f"{p.name} is playing; there is nothing to take back")
        if reason is not None and not isinstance(reason, str):
            raise InvalidRequestError('"reason" must be text')
        entry = {"type": "player_returned" if back else "player_withdrawn", "player": p.id,
                 "reason": (reason or "").strip() or None}
        stored, dup = self.store.append(tid, [entry], client_id)
        return stored[-1], dup

    def add_penalty(self, tid: str, body: dict) -> tuple[dict, bool]:
        """``{"player", "points", "reason", "client_id"}`` deducts points; ``{"cancel": seq,
        "reason", "client_id"}`` takes an earlier penalty back (both stay in the log)."""
        client_id = body.get("client_id")
        if not isinstance(client_id, str) or not 1 <= len(client_id) <= 200:
            raise InvalidRequestError('"client_id" must be a string (1-200 characters) unique to this entry')
        st = self.state(tid)
        done = _retried(st, client_id, "penalty", "penalty_cancelled")
        if done is not None:
            return done, True
        reason = body.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidRequestError('a penalty needs a "reason" (it is shown in the log)')
        if "cancel" in body:
            target = body["cancel"]
            pen = next((p for p in st.penalties if p["seq"] == target), None)
            if pen is None:
                raise InvalidRequestError(f'"cancel" must be the seq of a penalty, not {target!r}')
            if pen["cancelled"]:
                raise TournamentStateError(f"penalty {target} is cancelled already")
            entry = {"type": "penalty_cancelled", "target_seq": target, "reason": reason.strip()}
        else:
            unknown = sorted(set(body) - {"player", "points", "reason", "client_id"})
            if unknown:
                raise InvalidRequestError(f"unknown key(s) {', '.join(unknown)}; a penalty has player, points, reason")
            p = st.player(body.get("player"))
            points = body.get("points")
            if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
                raise InvalidRequestError(
                    f'"points" must be the whole number of points to deduct (e.g. 10000), not {points!r}')
            entry = {"type": "penalty", "player": p.id, "points": points, "reason": reason.strip()}
        stored, dup = self.store.append(tid, [entry], client_id)
        return stored[-1], dup


def _check_sheet(points: object, start: int) -> None:
    """Final points by seat wind as a score sheet gives them: every seat, whole numbers, 4 x start."""
    if not isinstance(points, dict) or set(points) != set("ESWN"):
        raise InvalidRequestError('"points" must give the final points for each of "E", "S", "W", "N"')
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in points.values()):
        raise InvalidRequestError("final points must be whole numbers")
    if sum(points.values()) != 4 * start:
        raise InvalidRequestError(f"the final points add up to {sum(points.values()):,}, not "
                                  f"4 x {start:,} = {4 * start:,}; check the score sheet")


def _retried(st: TournamentState, client_id: str, *kinds: str) -> dict | None:
    """The entry an earlier request with this ``client_id`` stored, if any (a retry)."""
    for e in st.log:
        if e.get("client_id") == client_id:
            if e.get("type") not in kinds:
                raise InvalidRequestError(f"client_id {client_id!r} was used for a {e.get('type')} entry; "
                                          "send a new one for a new request")
            return e
    return None


def _clock(st: TournamentState) -> dict | None:
    """The round clock as the projector shows it; ``now`` lets a screen correct its own clock."""
    c = st.clock
    if c is None:
        return None
    started = datetime.fromisoformat(c["at"].replace("Z", "+00:00"))
    ends = started + timedelta(minutes=c["minutes"])
    now = datetime.now(UTC)
    return {"round": c.get("round"), "minutes": c["minutes"], "started": c["at"], "ends": _iso(ends),
            "now": _iso(now), "remaining_seconds": max(0, int((ends - now).total_seconds()))}


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds").replace("+00:00", "Z")


def _game_overrides(record: dict) -> dict:
    """The tournament's overrides, plus whatever the preset file has changed since the tournament
    was created: every round is played under the rules the tournament started with."""
    frozen = record.get("rules") or {}
    now = table_rules(record["preset"]).to_dict()
    changed = {k: v for k, v in frozen.items()
               if k not in NOT_OVERRIDES and k in now and now[k] != v}
    return {**changed, **record["overrides"]}


def _meeting_summary(st: TournamentState) -> dict:
    """Repeat meetings and wind counts of the rounds seated so far (withdrawn players included)."""
    seen = seating.summarise(list(st.players), [], st.seated_history())
    return {"repeat_meetings": seen.repeat_meetings, "max_meetings": seen.max_meetings,
            "winds": {pid: dict(zip("ESWN", w, strict=True)) for pid, w in seen.winds.items()}}
