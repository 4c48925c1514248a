"""Scoring one winning hand by the old Japanese rule book (seed 001).

Every reading of the hand is valued (points, doubles, limit); the best one that
satisfies "Li fan shibari" is the score.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.errors import BelowMinimumError, NotCompleteError
from companion.hand import waits
from companion.rules.oldjapanese.doubles import Context, double_items, is_pinfu
from companion.rules.oldjapanese.limit_hands import limit_items
from companion.rules.oldjapanese.options import PRESET, Options, parse_options
from companion.rules.oldjapanese.points import point_items
from companion.rules.oldjapanese.readings import Reading, all_counts, readings
from companion.rules.oldjapanese.request import Win, read_request
from companion.rules.oldjapanese.settlement import LIMITS, hand_value, payments, round_points
from companion.tiles import Tile, format_tiles


@dataclass(frozen=True)
class Valued:
    reading: Reading
    points_items: list[dict]
    doubles_items: list[dict]
    limit_items: list[dict]
    points: int
    points_rounded: int
    doubles: int
    doubles_for_minimum: int
    value: int
    limit: str | None

    @property
    def rank(self) -> tuple[int, int, int]:
        return (self.value, self.doubles, self.points)

    def meets(self, minimum: int) -> bool:
        return bool(self.limit_items) or self.doubles_for_minimum >= minimum


def value_reading(reading: Reading, win: Win, options: Options) -> Valued:
    ctx = Context(win, reading, options)
    pts = point_items(reading, win, options, pinfu=is_pinfu(ctx))
    limits = limit_items(ctx)
    dbl = double_items(ctx)
    points = sum(i["points"] for i in pts)
    rounded = round_points(points, options.rounding)
    doubles = sum(i["doubles"] for i in dbl)
    for_min = sum(i["doubles"] for i in dbl if i.get("counts_for_minimum", True))
    value, limit = hand_value(rounded, doubles, bool(limits))
    if limits:
        dbl = []  # a limit hand is paid as such; its ordinary doubles no longer matter
        doubles = for_min = 0
    return Valued(reading, pts, dbl, limits, points, rounded, doubles, for_min, value, limit)


def valuations(win: Win, options: Options) -> list[Valued]:
    found = readings(win, seven_pairs_with_four=options.seven_pairs_with_four)
    return [value_reading(r, win, options) for r in found]


def _describe(win: Win) -> str:
    tiles = format_tiles(Tile(k) for k, n in enumerate(win.counts) for _ in range(n))
    melds = f" with {len(win.melds)} meld(s)" if win.melds else ""
    return f"{tiles}{melds}"


def best(win: Win, options: Options) -> Valued:
    """The best reading that may win; raises when none is complete or none reaches the minimum."""
    found = valuations(win, options)
    if not found:
        raise NotCompleteError(
            f"the hand {_describe(win)} is not complete: it is neither four sets and a pair, "
            "seven pairs nor thirteen orphans"
        )
    allowed = [v for v in found if v.meets(options.min_doubles)]
    if not allowed:
        top = max(found, key=lambda v: (v.doubles_for_minimum, v.rank))
        raise BelowMinimumError(
            f"the hand has {top.doubles_for_minimum} double(s) that count toward the minimum "
            f"(dora do not count), but these rules need at least {options.min_doubles} "
            f"(\"Li fan shibari\", seed 001 ch. 3 XIII)"
        )
    choice = max(allowed, key=lambda v: v.rank)
    if options.double_before_last_tile and options.min_doubles > 0 and not choice.limit_items:
        _check_double_before_last_tile(win, options)
    return choice


def _check_double_before_last_tile(win: Win, options: Options) -> None:
    """Ch. 3 XIII rule 1: a win is refused when the needed double comes only with this winning tile,
    i.e. some other tile that completes the same waiting hand would leave it below the minimum."""
    waiting = list(win.counts)
    waiting[win.win_kind] -= 1
    visible = all_counts(win)
    for kind in waits(waiting, len(win.melds)):
        if kind == win.win_kind or visible[kind] >= 4:
            continue
        counts = list(waiting)
        counts[kind] += 1
        other = replace(win, counts=tuple(counts), win_kind=kind)
        values = valuations(other, options)
        if values and not any(v.meets(options.min_doubles) for v in values):
            top = max(values, key=lambda v: v.doubles_for_minimum)
            raise BelowMinimumError(
                f"the double(s) of this hand come only with the winning tile {Tile(win.win_kind)}: "
                f"won with {Tile(kind)} the same hand would have {top.doubles_for_minimum}, "
                f"below the minimum of {options.min_doubles} (\"Li fan shibari\", seed 001 ch. 3 XIII: "
                "a double gained only by the last tile does not allow the win)"
            )


def score(request: dict) -> dict:
    """Score a request whose ``rules`` name the ``oldjapanese`` preset.

    >>> r = score({"rules": "oldjapanese", "hand": "234m234p234s666p55s", "win_tile": "3m",
    ...            "riichi": True, "seat_wind": "W", "discarder": "S", "dora_indicators": []})
    >>> r["points"], r["doubles"], r["value"], r["payments"]
    (36, 3, 320, {'discarder': 1300})
    """
    options = parse_options(request.get("rules") if isinstance(request, dict) else None)
    win = read_request(request)
    chosen = best(win, options)
    pay, by_seat = payments(chosen.value, winner=win.seat, tsumo=win.tsumo, discarder=win.discarder,
                            rounding=options.rounding)
    gain = by_seat[win.seat]
    r = chosen.reading
    return {
        "rules": PRESET,
        "shape": r.shape,
        "sets": [{"tiles": str(g), "kind": g.kind, "kan": g.kan, "concealed": g.concealed} for g in r.groups],
        "pair": format_tiles([Tile(r.pair)] * 2) if r.pair is not None else None,
        "wait": r.wait,
        "points": chosen.points,
        "points_rounded": chosen.points_rounded,
        "doubles": chosen.doubles,
        "doubles_for_minimum": chosen.doubles_for_minimum,
        "value": chosen.value,
        "limit": chosen.limit,
        "limit_name_de": LIMITS[chosen.limit][0] if chosen.limit else None,
        "items": chosen.points_items + chosen.doubles_items + chosen.limit_items,
        "payments": pay,
        "payments_by_seat": by_seat,
        "riichi_sticks": win.riichi_sticks,
        "total_gain": gain + 1000 * win.riichi_sticks,
        "winner": win.seat,
        "tsumo": win.tsumo,
        "discarder": win.discarder,
        "rounding": options.rounding,
    }
