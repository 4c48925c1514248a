"""Hong Kong (Cantonese) scoring: fan, limits and payments as seed 004 describes them.

>>> r = score({"rules": "hongkong", "hand": "123m456m789m22255z", "win_tile": "5z",
...            "tsumo": True, "seat_wind": "S", "round_wind": "E", "flowers": ["2f"]})
>>> r["fan"], [y["id"] for y in r["yaku"]], r["payments"], r["payments_by_seat"]
(6, ['self_drawn', 'seat_flower', 'half_flush', 'seat_wind'], {'each': 32}, {'E': -32, 'S': 96, 'W': -32, 'N': -32})
"""

from __future__ import annotations

from companion.errors import BelowMinimumError, InvalidRequestError, NotCompleteError
from companion.rules.hongkong.fan import ITEMS, Evaluation, Scored, Situation, evaluate, hit
from companion.rules.hongkong.options import HongKongOptions, options_from_rules
from companion.rules.hongkong.payments import HALF_DOUBLING, false_win_penalty, settle, table_amount
from companion.rules.hongkong.request import ParsedHand, parse_flowers, parse_hand, seat_letter

PRESETS: tuple[str, ...] = ("hongkong",)

__all__ = [
    "HALF_DOUBLING",
    "ITEMS",
    "PRESETS",
    "HongKongOptions",
    "false_win_penalty",
    "options_from_rules",
    "score",
    "table_amount",
]

RESPONSIBILITY_CASES = ("third_dragon", "fourth_meld", "kong_replacement")


def _flag(request: dict, *names: str) -> bool:
    value = False
    for name in names:
        raw = request.get(name, False)
        if not isinstance(raw, bool):
            raise InvalidRequestError(f'"{name}" must be true or false, got {raw!r}')
        value = value or raw
    return value


def _situation(request: dict, hand: ParsedHand, seat: str, round_wind: str) -> Situation:
    tsumo = _flag(request, "tsumo")
    chankan = _flag(request, "chankan")
    rinshan = _flag(request, "rinshan")
    double_rinshan = _flag(request, "double_rinshan")
    haitei = _flag(request, "haitei")
    houtei = _flag(request, "houtei")
    # the shared flags name the situation; seed 004 names the hands: a dealer's win on his
    # first 14 tiles (tenhou), a non-dealer's win on the dealer's first discard (renhou), a
    # non-dealer's self-draw on his first draw (chiihou)
    heavenly = _flag(request, "tenhou", "heavenly_hand")
    earthly = _flag(request, "renhou", "earthly_hand")
    human = _flag(request, "chiihou", "human_hand")
    kongs = sum(1 for m in hand.melds if m.is_kong)
    if chankan and tsumo:
        raise InvalidRequestError("robbing a kong (chankan) is a win on another player's tile: tsumo must be false")
    if (rinshan or double_rinshan) and not tsumo:
        raise InvalidRequestError("a win on a kong replacement tile (rinshan) is self-drawn: set tsumo true")
    if rinshan and kongs < 1:
        raise InvalidRequestError("rinshan needs a kong among the melds")
    if double_rinshan and kongs < 2:
        raise InvalidRequestError("double_rinshan needs two kongs among the melds")
    if haitei and not tsumo:
        raise InvalidRequestError("haitei is a self-drawn win on the last tile: set tsumo true (houtei is the discard)")
    if houtei and tsumo:
        raise InvalidRequestError("houtei is a win on the last discard: tsumo must be false (haitei is self-drawn)")
    if (heavenly or earthly or human) and hand.melds:
        raise InvalidRequestError("heavenly, earthly and human hands are won with no called or declared sets")
    if heavenly and (seat != "E" or not tsumo):
        raise InvalidRequestError("the heavenly hand (tenhou) is the dealer's (East) self-drawn win")
    if human and (seat == "E" or not tsumo):
        raise InvalidRequestError("the human hand (chiihou) is a non-dealer's self-drawn win on the first draw")
    if earthly and (seat == "E" or tsumo or request.get("discarder", "E") != "E"):
        raise InvalidRequestError("the earthly hand (renhou) is a non-dealer's win on the dealer's (East) first discard")
    return Situation(
        tsumo=tsumo, seat=seat, round=round_wind, chankan=chankan, rinshan=rinshan,
        double_rinshan=double_rinshan, last_tile=haitei or houtei,
        heavenly=heavenly, earthly=earthly, human=human,
    )


def _discarder(request: dict, seat: str) -> str:
    if request.get("discarder") is None:
        raise InvalidRequestError('a win on a discard needs "discarder" (the seat wind that discarded)')
    discarder = seat_letter(request.get("discarder"), "discarder")
    if discarder == seat:
        raise InvalidRequestError("the discarder cannot be the winner")
    return discarder


def _responsible(request: dict, hand: ParsedHand, sit: Situation, seat: str) -> str | None:
    """The seat that pays a self-drawn win alone (seed 004's three cases), or None."""
    raw = request.get("responsible")
    if raw is None:
        return None
    who = seat_letter(raw, "responsible")
    case = request.get("responsibility")
    if case not in RESPONSIBILITY_CASES:
        raise InvalidRequestError(
            f'"responsibility" must say which case makes {who} responsible: one of {", ".join(RESPONSIBILITY_CASES)}'
        )
    if who == seat:
        raise InvalidRequestError("the winner cannot be responsible for his own win")
    called = [m for m in hand.melds if m.type != "ankan"]
    if case == "third_dragon" and sum(1 for m in called if not m.is_chi and m.kind in (31, 32, 33)) < 1:
        raise InvalidRequestError("third_dragon: the hand has no dragon set called from a discard")
    if case == "third_dragon" and sum(1 for m in hand.melds if not m.is_chi and m.kind in (31, 32, 33)) < 3:
        raise InvalidRequestError("third_dragon: the melds do not hold three dragon sets")
    if case == "fourth_meld" and len(called) < 4:
        raise InvalidRequestError("fourth_meld: the hand does not have four sets called from discards")
    if case == "kong_replacement" and not (sit.rinshan or sit.double_rinshan):
        raise InvalidRequestError("kong_replacement: the win must be on a kong replacement tile (rinshan)")
    if case == "kong_replacement" and not any(m.type == "minkan" for m in hand.melds):
        raise InvalidRequestError("kong_replacement: the hand has no kong made from a discard (minkan)")
    # on a discard the discarder pays as usual; the responsibility of seed 004 covers self-drawn wins
    return who if sit.tsumo else None


def _flower_hand(hand: ParsedHand, options: HongKongOptions, request: dict) -> list[Scored] | None:
    """Seven or eight bonus tiles declared as a win without completing the hand."""
    if not options.bonus_tiles:
        return None
    n = len(hand.flowers)
    if n == 8 and options.eight_flowers != "none":
        value = None if options.eight_flowers == "limit" else int(options.eight_flowers)
        return [Scored(ITEMS["eight_flowers"], value)]
    if n == 7 and _flag(request, "flower_win"):
        # "definitiv 3 Fan wert", self-draw not added; the kong replacement may be by agreement
        out = [hit("seven_flowers")]
        if options.seven_flowers_kong_replacement and _flag(request, "rinshan"):
            out.append(hit("kong_replacement"))
        return out
    if _flag(request, "flower_win"):
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
    seat = seat_letter(request.get("seat_wind"), "seat_wind", "E")
    round_wind = seat_letter(request.get("round_wind"), "round_wind", "E")

    if _flag(request, "false_win"):
        return false_win_penalty(seat, options)

    # with seven or eight bonus tiles a player may declare a win whatever his tiles (seed 004)
    flower_win = _flag(request, "flower_win") or len(parse_flowers(request.get("flowers"))) == 8
    hand = parse_hand(request, allow_incomplete_count=flower_win)
    if hand.flowers and not options.bonus_tiles:
        raise InvalidRequestError("these rules play without flowers and seasons (bonus_tiles false)")

    flower_items = _flower_hand(hand, options, request)
    if flower_items is not None and (_flag(request, "flower_win") or sum(hand.concealed) + 3 * len(hand.melds) != 14):
        # won by the bonus tiles alone: it counts as a self-drawn win (seed 004)
        sit = Situation(tsumo=True, seat=seat, round=round_wind)
        evaluation = Evaluation(tuple(flower_items), "bonus tiles")
        best_normal = responsible = None
    else:
        sit = _situation(request, hand, seat, round_wind)
        if not sit.tsumo:
            _discarder(request, seat)  # a missing discarder is a bad request, whatever the tiles
        responsible = _responsible(request, hand, sit, seat)
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
        discarder = _discarder(request, seat)
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
