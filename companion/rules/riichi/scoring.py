"""The riichi scorer: every reading of the hand, its yaku and fu, the best one, dora, points.

Seed 000 ("BGA Realisation"): the interpretation with the most points is the one
that counts. Equal points go to a real yakuman before a counted one, then to more han,
then to more fu.
"""

from __future__ import annotations

from operator import itemgetter

from companion.errors import NotCompleteError, NoYakuError
from companion.hand import shanten
from companion.rules.riichi import points
from companion.rules.riichi.context import Reading, Situation, describe_reading, readings
from companion.rules.riichi.fu import count_fu
from companion.rules.riichi.options import RiichiOptions, resolve_rules
from companion.rules.riichi.request import Request, parse_request
from companion.rules.riichi.yaku_basic import PINFU as _PINFU
from companion.rules.riichi.yaku_table import grouped_table
from companion.tiles import EAST, WIND_LETTERS, Tile, dora_from_indicator

_table_order = itemgetter(3)
_DORA_ITEMS = (("dora", "Dora", "Dora"), ("ura_dora", "Ura dora", "Ura-Dora"), ("aka_dora", "Red fives", "Rote Fünfen"))
_TILE_TEXT = tuple(str(Tile(k)) for k in range(34))
_DORA_OF = tuple(dora_from_indicator(k) for k in range(34))
_WAIT_NAMES = {"ryanmen", "kanchan", "penchan", "shanpon", "tanki", "kokushi"}


class _Best:
    """The best reading so far and everything its result needs."""

    # its fields (mypyc compiles this into a native class with exactly these, setup.py)
    key: tuple
    reading: Reading
    rows: list
    han: int
    fu: int
    yakuman: int
    base: int
    limit: str | None
    dora_used: bool
    kazoe: bool
    win: int
    fu_details: list


def _dora_counts(r: Request, s: Situation) -> tuple[int, int, int]:
    full = s.full
    dora = 0
    for k in r.dora:
        dora += full[_DORA_OF[k]]
    ura = 0
    if r.ura and r.riichi and r.options.ura_dora:
        for k in r.ura:
            ura += full[_DORA_OF[k]]
    return dora, ura, r.aka


def _evaluate(h: Reading, s: Situation, groups: tuple, fixed: list, dora_han: int, opts: RiichiOptions,
              best: _Best | None):
    """Score one reading; ``fixed`` are the rows of this shape that hold whatever the reading."""
    rows = fixed
    extra = False
    pinfu = False
    if len(h.chis) >= 2:
        found = [row for row in groups[1] if row[4](h, s)]
        if found:
            rows = rows + found
            extra = True
            pinfu = any(row[0] is _PINFU for row in found)
    if len(h.pons) >= 3:
        found = [row for row in groups[2] if row[4](h, s)]
        if found:
            rows = rows + found
            extra = True
    if h.honor_pon:
        found = [row for row in groups[3] if row[4](h, s)]
        if found:
            rows = rows + found
            extra = True
    if h.outside:
        found = [row for row in groups[4] if row[4](h, s)]
        if found:
            rows = rows + found
            extra = True
    if not rows:
        return best
    if extra:
        rows.sort(key=_table_order)  # results list yaku in table order, whichever group found them
    han = 0
    mult = 0
    special = False
    for row in rows:
        han += row[1]
        mult += row[2]
        special = special or row[0].standalone
    kazoe = False
    if mult:
        pinfu = False
        rows = [row for row in rows if row[2]]
        if not opts.yakuman_stacking:
            rows = [max(rows, key=_multiplier)]
        mult = sum(row[2] for row in rows)
        han = 13 * mult
        details: list = []
        fu = count_fu(h, s, False, details)
        base, limit = points.base_points(0, fu, mult)
        dora_used = False
    else:
        details = []
        fu = count_fu(h, s, pinfu, details)
        if special:
            rows, han, base, limit, dora_used = _standalone(rows, fu, dora_han, opts)
        else:
            han += dora_han
            base, limit = points.base_points(han, fu, 0, kiriage=opts.kiriage, kazoe=opts.kazoe)
            dora_used = True
        kazoe = han >= 13
    # equal points: a real yakuman before a counted one, then more han, then more fu
    key = (base, mult, han, fu)
    if best is not None and key <= best.key:
        return best
    b = _Best()
    b.key, b.reading, b.rows, b.han, b.fu, b.yakuman = key, h, rows, han, fu, mult
    b.base, b.limit, b.dora_used, b.kazoe, b.win, b.fu_details = base, limit, dora_used, kazoe, s.win, details
    return b


def _standalone(rows: list, fu: int, dora_han: int, opts: RiichiOptions) -> tuple:
    """Renhou as mangan: a mangan on its own, or the hand without it if that pays more."""
    alone = [row for row in rows if row[0].standalone]
    others = [row for row in rows if not row[0].standalone]
    if others:
        o_han = sum(row[1] for row in others) + dora_han
        o_base, o_limit = points.base_points(o_han, fu, 0, kiriage=opts.kiriage, kazoe=opts.kazoe)
        if o_base > 2000:
            return others, o_han, o_base, o_limit, True
    return alone, 5, 2000, "mangan", False


def _multiplier(row: tuple) -> int:
    return row[2]


def _fixed_rows(h: Reading, s: Situation, groups: tuple) -> list:
    """The rows of this hand shape that hold whatever the reading: the situation rows, memoised
    per ``s.facts`` (few combinations of flags and tile facts recur), and the hand rows whose
    gate (a condition on the facts) passes, memoised alike."""
    memo = groups[6]
    entry = memo.get(s.facts)
    if entry is None:
        if len(memo) > 4096:
            memo.clear()
        entry = memo[s.facts] = ([row for row in groups[0] if row[4](h, s)],
                                 tuple(row for row in groups[5] if row[0].gate is None or row[0].gate(s)))
    fixed, hand_rows = entry
    if hand_rows:
        found = [row for row in hand_rows if row[4](h, s)]
        if found:
            fixed = sorted(fixed + found, key=_table_order)
    return fixed


def score_request(r: Request) -> dict:
    """Score a checked request (see :func:`score` for the format)."""
    opts = r.options
    s = r
    table = grouped_table(opts)
    is_open = not s.closed
    dora, ura, aka = _dora_counts(r, s)
    dora_han = dora + ura + aka
    wins = [r.win]
    if r.tenhou and opts.tenhou_free_win_tile:
        wins = [k for k in range(34) if r.counts[k]]
    best = None
    complete = False
    for win in wins:
        s.win = win
        shape = -1  # readings come grouped by shape: the fixed rows change only with it
        for h in readings(s):
            complete = True
            if h.shape != shape:
                shape = h.shape
                groups = table[shape, is_open]
                fixed = _fixed_rows(h, s, groups)
            best = _evaluate(h, s, groups, fixed, dora_han, opts, best)
    if not complete:
        n = shanten(r.counts, len(r.melds))
        raise NotCompleteError(
            f"the tiles do not form a winning hand (4 sets and a pair, seven pairs or thirteen orphans); "
            f"they are {n + 1} tile{'s' if n else ''} away from one" if n >= 0 else
            "the tiles do not form a winning hand")
    if best is None:
        raise NoYakuError("the hand is complete but has no yaku (dora and red fives are no yaku)")
    return _result(r, s, best, (dora, ura, aka))


def _result(r: Request, s: Situation, b: _Best, dora: tuple[int, int, int]) -> dict:
    opts = r.options
    s.win = b.win
    yaku = [row[5].copy() for row in b.rows]
    if b.dora_used and (dora[0] or dora[1] or dora[2]):
        for (key, name, name_de), n in zip(_DORA_ITEMS, dora, strict=True):
            if n:
                yaku.append({"id": key, "name": name, "name_de": name_de, "han": n})
    fu = b.fu
    base = b.base
    pay, gained, by_seat = _payments(r, base, opts.honba_value)
    total_gain = gained + 1000 * r.riichi_sticks
    limit = b.limit
    wait = b.reading.wait
    result = {
        "han": b.han,
        "fu": points.round_fu(fu),
        "yakuman": b.yakuman,
        "limit": limit,
        "yaku": yaku,
        "fu_details": b.fu_details,
        "payments": pay,
        "total_gain": total_gain,
        "base_points": base,
        "fu_raw": fu,
        "dora": {"dora": dora[0], "ura": dora[1], "aka": dora[2], "counted": b.dora_used},
        "kazoe": b.kazoe and not b.yakuman and limit == "yakuman",
        "decomposition": describe_reading(b.reading),
        "wait": wait if wait in _WAIT_NAMES else None,
        "win_tile": _TILE_TEXT[b.win],
        "dealer": r.dealer,
        "rules": opts.preset,
    }
    if by_seat is not None:
        by_seat[_SEAT_LETTER[r.seat]] = total_gain
        result["payments_by_seat"] = by_seat
    return result


_SEAT_LETTER = {EAST + i: w for i, w in enumerate(WIND_LETTERS)}


def _payments(r: Request, base: int, honba_value: int) -> tuple[dict, int, dict | None]:
    """``points.payments`` in the result format, what the winner collects from the others, and the
    point change per seat wind (a ron only when the discarder is known; the winner's own entry is
    filled in by the caller, sticks included)."""
    pay = points.payments(base, r.dealer, r.tsumo, r.honba, honba_value)
    if not r.tsumo:
        gained = pay["discarder"]
        if r.discarder is None:
            return pay, gained, None
        seats = {"E": 0, "S": 0, "W": 0, "N": 0}
        seats[_SEAT_LETTER[r.discarder]] = -gained
        return pay, gained, seats
    each = pay["each_non_dealer"]
    if r.dealer:
        return pay, 3 * each, {"E": 0, "S": -each, "W": -each, "N": -each}
    seats = {"E": -pay["dealer"], "S": -each, "W": -each, "N": -each}
    seats[_SEAT_LETTER[r.seat]] = 0
    return pay, pay["dealer"] + 2 * each, seats


def score(request: object) -> dict:
    """Score one riichi hand (request and result format: README, section "Scoring").

    >>> res = score({"rules": "tenhou", "hand": "123m456p789s11z222z", "win_tile": "2z", "seat_wind": "S",
    ...              "round_wind": "S", "tsumo": True})
    >>> [y["id"] for y in res["yaku"]], res["han"], res["fu"], res["payments"]
    (['menzen_tsumo', 'yakuhai_seat_wind', 'yakuhai_round_wind'], 3, 30, {'dealer': 2000, 'each_non_dealer': 1000})
    """
    opts = resolve_rules(request.get("rules") if isinstance(request, dict) else None)
    return score_request(parse_request(request, opts))


__all__ = ["score", "score_request"]
