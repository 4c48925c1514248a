"""Hong Kong (Cantonese) scoring: fan, limits and payments as seed 004 describes them.

>>> r = score({"rules": "hongkong", "hand": "123m456m789m22255z", "win_tile": "5z",
...            "tsumo": True, "seat_wind": "S", "round_wind": "E", "flowers": ["2f"]})
>>> r["fan"], [y["id"] for y in r["yaku"]], r["payments"], r["payments_by_seat"]
(6, ['self_drawn', 'seat_flower', 'half_flush', 'seat_wind'], {'each': 32}, {'E': -32, 'S': 96, 'W': -32, 'N': -32})
"""

from __future__ import annotations

from companion.errors import BelowMinimumError, InvalidRequestError, NotCompleteError
from companion.rules.hand_request import HandInput, wind_letter
from companion.rules.hongkong.fan import ITEMS, Evaluation, Scored, Situation, evaluate, hit
from companion.rules.hongkong.options import HongKongOptions, options_from_rules
from companion.rules.hongkong.payments import HALF_DOUBLING, false_win_penalty, settle, table_amount
from companion.rules.hongkong.request import flag, read_discarder, read_hand, read_responsible, read_situation

PRESETS: tuple[str, ...] = ("hongkong",)
INDICATOR_KEYS: tuple[str, ...] = ()  # no dora: the request's indicator lists are not read

__all__ = [
    "INDICATOR_KEYS",
    "HALF_DOUBLING",
    "ITEMS",
    "PRESETS",
    "HongKongOptions",
    "false_win_penalty",
    "options_from_rules",
    "score",
    "table_amount",
]


def _flower_hand(hand: HandInput, options: HongKongOptions, request: dict) -> list[Scored] | None:
    """Seven or eight bonus tiles declared as a win without completing the hand."""
    if not options.bonus_tiles:
        return None
    n = len(hand.flowers)
    if n == 8 and options.eight_flowers != "none":
        value = None if options.eight_flowers == "limit" else int(options.eight_flowers)
        return [Scored(ITEMS["eight_flowers"], value)]
    if n == 7 and flag(request, "flower_win"):
        # "definitiv 3 Fan wert", self-draw not added; the kong replacement may be by agreement
        out = [hit("seven_flowers")]
        if options.seven_flowers_kong_replacement and flag(request, "rinshan"):
            out.append(hit("kong_replacement"))
        return out
    if flag(request, "flower_win"):
        raise InvalidRequestError(f"a win by bonus tiles needs seven or eight of them, got {n}")
    return None


def _item_dicts(scored: list[Scored] | tuple[Scored, ...], cap: int) -> list[dict]:
    out = []
    for s in scored:
        entry = {"id": s.item.id, "name": s.item.name, "name_de": s.item.name_de,
                 "fan": cap if s.fan is None else s.fan}
        if s.fan is None:
            entry["limit"] = True
        if s.item.bonus:
            entry["bonus"] = True
        if s.count > 1:
            entry["count"] = s.count
        out.append(entry)
    return out


def score(request: dict) -> dict:
    """Score one Hong Kong win; see the module docstring for an example."""
    if not isinstance(request, dict):
        raise InvalidRequestError("a scoring request must be a JSON object")
    rules = request.get("rules", "hongkong")
    options = options_from_rules(rules)
    seat = wind_letter(request.get("seat_wind"), "seat_wind", "E")
    round_wind = wind_letter(request.get("round_wind"), "round_wind", "E")

    if flag(request, "false_win"):
        return false_win_penalty(seat, options)

    hand = read_hand(request)
    if hand.flowers and not options.bonus_tiles:
        raise InvalidRequestError("these rules play without flowers and seasons (bonus_tiles false)")

    flower_items = _flower_hand(hand, options, request)
    if flower_items is not None and (flag(request, "flower_win") or sum(hand.counts) + 3 * len(hand.melds) != 14):
        # won by the bonus tiles alone: it counts as a self-drawn win (seed 004)
        sit = Situation(tsumo=True, seat=seat, round=round_wind)
        evaluation = Evaluation(tuple(flower_items), "bonus tiles")
        best_normal = responsible = None
    else:
        sit = read_situation(request, hand, seat, round_wind)
        if sit.last_tile and not sit.tsumo and not options.last_discard_claimable:
            raise InvalidRequestError(
                "houtei: seed 004 does not allow claiming the last discard of the hand "
                "(rules option last_discard_claimable true if your table does)"
            )
        if not sit.tsumo:
            read_discarder(hand, seat)  # a missing discarder is a bad request, whatever the tiles
        responsible = read_responsible(request, hand, sit, seat)
        best_normal = evaluate(hand, sit, options)
        if best_normal is None:
            raise NotCompleteError(
                "the tiles do not form a winning hand: Hong Kong needs four sets and a pair "
                "(or thirteen orphans)"
            )
        evaluation = best_normal
        if flower_items is not None:  # eight flowers next to a complete hand: the better one counts
            alt = Evaluation(tuple(flower_items), "bonus tiles")
            if alt.key(options) > evaluation.key(options):
                evaluation, sit = alt, Situation(tsumo=True, seat=seat, round=round_wind)
                responsible = None

    discarder = None
    if not sit.tsumo:
        discarder = read_discarder(hand, seat)
    limit_items = evaluation.limit_items
    if limit_items:
        fan = options.cap
        limit: str | None = limit_items[0].item.id
        shown = limit_items
    else:
        fan = min(evaluation.raw_fan, options.cap)
        limit = "cap" if evaluation.raw_fan >= options.cap else None
        shown = list(evaluation.scored)
        is_flower_hand = any(s.item.id == "seven_flowers" for s in shown)
        if evaluation.fan_toward_minimum < options.min_fan and not is_flower_hand:
            bonus = evaluation.raw_fan - evaluation.fan_toward_minimum
            extra = f" (plus {bonus} from flowers and seasons, which do not count toward it)" if bonus else ""
            raise BelowMinimumError(
                f"the hand is worth {evaluation.fan_toward_minimum} fan{extra}; "
                f"these rules need at least {options.min_fan}"
            )

    payments, by_seat = settle(
        fan, options, winner=seat, tsumo=sit.tsumo, discarder=discarder, responsible=responsible,
        pays_as_self_draw=sit.chankan,
    )
    items = _item_dicts(shown, options.cap)
    return {
        "rules": "hongkong",
        "fan": fan,
        "fan_raw": options.cap if limit_items else evaluation.raw_fan,
        "fan_toward_minimum": options.cap if limit_items else evaluation.fan_toward_minimum,
        "min_fan": options.min_fan,
        "cap": options.cap,
        "limit": limit,
        "yaku": items,
        "items": items,
        "decomposition": evaluation.decomposition,
        "payments": payments,
        "payments_by_seat": by_seat,
        "total_gain": by_seat[seat],
        "responsible": responsible,
    }
