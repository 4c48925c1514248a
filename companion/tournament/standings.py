"""Standings: a fold over the finished games of the seated rounds and the penalty log.

A player's ``total`` is the sum of their final scores (the table's ``placements[].score``: final
points minus the return points, plus uma and oka, minus chombo penalties the table rules apply
after uma - EMA 2016's -20,000), minus the tournament penalties that are not cancelled. Games
still being played do not count yet; their tables show as unfinished in the round progress.

Ties are broken, in this order, by

1. the average placement (lower is better: 1st + 4th beats 2nd + 4th at equal points); averaged
   so that, while a round is being played, a player whose game is still running is compared fairly
   with one whose game has ended (no game yet counts as 2.5, the average of 1-4),
2. head-to-head among the players still tied: +1 for each game in which one of them finished
   above another of them at the same table, -1 for each below,
3. raw points: the sum of final table points before uma and oka,

and players equal in all of these share the rank (1, 2, 2, 4).
"""

from __future__ import annotations

from itertools import groupby

TIE_BREAKS = ("total", "placements", "head_to_head", "raw_points")


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(x, 1)


# the reason of the correction a paper result becomes (service.enter_result); also how it is recognised
PAPER_REASON = "final points entered from the score sheet"
# the reason of each later correction of that sheet, followed by the corrected points
CORRECTED_REASON = "final points corrected from the score sheet"


def on_paper(state: dict | None) -> bool:
    """Whether a table's game holds a result from the score sheet and nothing entered at the table: its
    scorekeeper may enter a corrected sheet (service.enter_result)."""
    history = (state or {}).get("history") or []
    reasons = [(h.get("event") or {}).get("reason") or "" for h in history if h.get("type") == "correction"]
    return (PAPER_REASON in reasons
            and all(h.get("type") in ("correction", "end") for h in history)
            and all(r == PAPER_REASON or r.startswith(CORRECTED_REASON) for r in reasons))


def table_results(rnd: dict, games: dict[str, dict | None]) -> list[dict]:
    """Per table of one round: game id, seats, finished, and each seat's result once finished;
    ``paper``: its result came from the score sheet (and may be corrected so)."""
    out = []
    for t in rnd["tables"]:
        state = games.get(t["game_id"])
        finished = bool(state and state.get("finished"))
        seats = []
        by_name = {p["player"]: p for p in (state or {}).get("placements", [])}
        names = (state or {}).get("players") or [None] * 4
        for i, pid in enumerate(t["seats"]):
            pl = by_name.get(names[i]) if state else None
            seats.append({"player": pid, "wind": "ESWN"[i], "name": names[i],
                          "points": state["scores"].get(names[i]) if state else None,
                          "result": pl if finished else None})
        out.append({"table": t["table"], "game_id": t["game_id"], "finished": finished,
                    "started": bool(state and state.get("history")), "paper": on_paper(state),
                    "missing": state is None, "round_label": (state or {}).get("round"),
                    "seats": seats})
    return out


def compute(players: list[dict], rounds: list[dict], games: dict[str, dict | None],
            penalties: list[dict], rounds_total: int) -> list[dict]:
    """Standing rows, best first.

    ``players``: ``{"id", "name", "club", "country", "ema_id", "active"}``; ``rounds``: the
    ``round`` log entries; ``games``: game id -> ``GameState.to_dict()`` (None if missing);
    ``penalties``: ``{"player", "points", "cancelled"}``."""
    rows: dict[str, dict] = {}
    for p in players:
        rows[p["id"]] = {"rank": 0, "shared": False, "player": p["id"], "name": p["name"],
                         "club": p.get("club"), "country": p.get("country"), "ema_id": p.get("ema_id"),
                         "withdrawn": not p.get("active", True), "total": 0, "games": 0,
                         "placements_sum": 0, "ranks": [0, 0, 0, 0], "raw_points": 0,
                         "chombo": 0, "penalties": 0, "round_scores": [None] * rounds_total,
                         "head_to_head": 0, "decided_by": None}
    # per finished game: [(player id, rank)] for head-to-head
    tables: list[list[tuple[str, int]]] = []
    for rnd in rounds:
        for t in table_results(rnd, games):
            if not t["finished"]:
                continue
            seen = []
            for seat in t["seats"]:
                row, res = rows.get(seat["player"]), seat["result"]
                if row is None or res is None:
                    continue
                row["total"] += res["score"]
                row["games"] += 1
                row["placements_sum"] += res["rank"]
                row["ranks"][min(res["rank"], 4) - 1] += 1
                row["raw_points"] += res["points"]
                row["chombo"] += res.get("penalty") or 0
                i = rnd["round"] - 1
                if 0 <= i < rounds_total:
                    row["round_scores"][i] = _num((row["round_scores"][i] or 0) + res["score"])
                seen.append((seat["player"], res["rank"]))
            tables.append(seen)
    for pen in penalties:
        if not pen.get("cancelled") and pen["player"] in rows:
            rows[pen["player"]]["penalties"] += pen["points"]
            rows[pen["player"]]["total"] -= pen["points"]
    for row in rows.values():
        for k in ("total", "raw_points", "chombo", "penalties"):
            row[k] = _num(row[k])

    # total and placements first; head-to-head only means something among players tied on both
    for r in rows.values():
        r["placement_average"] = round(r["placements_sum"] / r["games"], 3) if r["games"] else 2.5
    order = sorted(rows.values(), key=lambda r: (-r["total"], r["placement_average"], r["name"].casefold()))
    ranked: list[dict] = []
    for _, grp in groupby(order, key=lambda r: (r["total"], r["placement_average"])):
        group = list(grp)
        if len(group) > 1:
            ids = {r["player"] for r in group}
            h2h = dict.fromkeys(ids, 0)
            for seen in tables:
                inside = [(pid, rank) for pid, rank in seen if pid in ids]
                for a, ra in inside:
                    for b, rb in inside:
                        if a != b and ra != rb:
                            h2h[a] += 1 if ra < rb else -1
            for r in group:
                r["head_to_head"] = h2h[r["player"]]
            group.sort(key=lambda r: (-r["head_to_head"], -r["raw_points"], r["name"].casefold()))
        ranked.extend(group)

    def key(r: dict) -> tuple:
        return (r["total"], r["placement_average"], r["head_to_head"], r["raw_points"])

    for i, r in enumerate(ranked):
        if i and key(r) == key(ranked[i - 1]):
            r["rank"], r["shared"] = ranked[i - 1]["rank"], True
            ranked[i - 1]["shared"] = True
            r["decided_by"] = "tied"
        else:
            r["rank"] = i + 1
            if i:
                prev = key(ranked[i - 1])
                r["decided_by"] = next(name for name, a, b in zip(TIE_BREAKS, prev, key(r), strict=True) if a != b)
    return ranked
