"""Exports of a tournament view: everything as JSON, and three CSV tables.

- ``standings``: one row per player with total, tie-break values and per-round scores (points).
- ``games``: one row per seat of every seated game (round, table, wind, player, rank, points,
  uma, oka, chombo penalty, score); unfinished games have empty result cells.
- ``ema``: the results list a tournament sends to the EMA ranking: rank, name, EMA number,
  country, club, total and per-round scores in thousands with one decimal (e.g. ``38.4``), the
  way EMA result pages print riichi scores (tables that start at 0 points keep their tallies).
"""

from __future__ import annotations

import csv
import io

from companion.errors import InvalidRequestError

EXPORT_FORMAT = "mahjong-companion-tournament"
CSV_KINDS = ("standings", "games", "ema")


def to_json(view: dict) -> dict:
    """The whole tournament: record, players, rounds with every seat's result, standings, penalties."""
    return {"format": EXPORT_FORMAT, "version": 1,
            "tournament": {k: view[k] for k in ("id", "name", "preset", "overrides", "rules",
                                                "rounds_total", "seating", "created")},
            "players": view["players"], "rounds": view["rounds"], "standings": view["standings"],
            "penalties": view["penalties"], "progress": view["progress"]}


def _score_text(x: float | None, per_thousand: bool) -> str:
    if x is None:
        return ""
    if per_thousand:
        return f"{x / 1000:.1f}"
    return str(int(x)) if float(x).is_integer() else str(x)


def _cell(x: object) -> object:
    if x is None:
        return ""
    if isinstance(x, bool):
        return "yes" if x else "no"
    return x


def to_csv(view: dict, kind: str = "standings") -> str:
    """One CSV table (header row first, comma separated, UTF-8 text)."""
    if kind not in CSV_KINDS:
        raise InvalidRequestError(f'"kind" must be one of {", ".join(CSV_KINDS)}, not {kind!r}')
    n = view["rounds_total"]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if kind == "standings":
        w.writerow(["rank", "player_id", "name", "club", "country", "total", "games", "placements_sum",
                    "placement_average", "firsts", "seconds", "thirds", "fourths", "head_to_head", "raw_points", "chombo",
                    "penalties", "withdrawn"] + [f"round_{i + 1}" for i in range(n)])
        for r in view["standings"]:
            w.writerow([_cell(x) for x in [r["rank"], r["player"], r["name"], r["club"], r["country"],
                                           r["total"], r["games"], r["placements_sum"],
                                           r["placement_average"], *r["ranks"],
                                           r["head_to_head"], r["raw_points"], r["chombo"],
                                           r["penalties"], r["withdrawn"], *r["round_scores"]]])
    elif kind == "games":
        w.writerow(["round", "table", "game_id", "finished", "wind", "player_id", "name", "rank",
                    "points", "uma", "oka", "chombo", "score"])
        for rnd in view["rounds"]:
            for t in rnd["tables"]:
                for s in t["seats"]:
                    res = s["result"] or {}
                    w.writerow([_cell(x) for x in [rnd["round"], t["table"], t["game_id"], t["finished"],
                                                   s["wind"], s["player"], s["player_name"], res.get("rank"),
                                                   res.get("points", s["points"] if t["finished"] else None),
                                                   res.get("uma"), res.get("oka"), res.get("penalty"),
                                                   res.get("score")]])
    else:
        # riichi scores are printed in thousands; the point tallies of Hong Kong and classical
        # tables (which start at 0) are small numbers already and stay as they are
        thousands = view["rules"].get("start_points", 0) >= 1000
        w.writerow(["rank", "name", "ema_id", "country", "club", "total"] + [f"R{i + 1}" for i in range(n)])
        for r in view["standings"]:
            w.writerow([r["rank"], r["name"], r["ema_id"] or "", r["country"] or "", r["club"] or "",
                        _score_text(r["total"], thousands)] + [_score_text(s, thousands) for s in r["round_scores"]])
    return buf.getvalue()
