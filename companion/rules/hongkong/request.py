"""What a Hong Kong request says beyond the shared keys (seed 004).

The tiles, melds, flowers and seats are read by :mod:`companion.rules.hand_request`.
Here: the situation flags and the hand names seed 004 gives them, the checks
between them, who discarded, and who is responsible for a self-drawn win.
"""

from __future__ import annotations

from companion.errors import InvalidRequestError
from companion.rules.hand_request import (
    HandInput,
    check_discarder,
    read_flag,
    read_flowers,
    read_hand_request,
    wind_letter,
)
from companion.rules.hongkong.fan import Situation
from companion.tiles import DRAGONS

RESPONSIBILITY_CASES = ("third_dragon", "fourth_meld", "kong_replacement")


def flag(request: dict, *names: str) -> bool:
    """True if any of ``names`` (a flag and its aliases) is given as true."""
    return any([read_flag(request, name) for name in names])


def read_hand(request: dict) -> HandInput:
    """The tiles of a request; with seven or eight bonus tiles a win may be declared whatever the tiles
    (seed 004), so then neither their number nor the winning tile's place is checked."""
    bonus_win = flag(request, "flower_win") or len(read_flowers(request.get("flowers"))) == 8
    return read_hand_request(request, win_tile_required=False, check_count=not bonus_win)


def read_situation(request: dict, hand: HandInput, seat: str, round_wind: str) -> Situation:
    tsumo = hand.tsumo
    chankan = flag(request, "chankan")
    rinshan = flag(request, "rinshan")
    double_rinshan = flag(request, "double_rinshan")
    haitei = flag(request, "haitei")
    houtei = flag(request, "houtei")
    # the shared flags name the situation; seed 004 names the hands: a dealer's win on his
    # first 14 tiles (tenhou), a non-dealer's win on the dealer's first discard (renhou), a
    # non-dealer's self-draw on his first draw (chiihou)
    heavenly = flag(request, "tenhou", "heavenly_hand")
    earthly = flag(request, "renhou", "earthly_hand")
    human = flag(request, "chiihou", "human_hand")
    kongs = sum(1 for m in hand.melds if m.is_kan)
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
    if earthly and (seat == "E" or tsumo or (hand.discarder or "E") != "E"):
        raise InvalidRequestError("the earthly hand (renhou) is a non-dealer's win on the dealer's (East) first discard")
    return Situation(
        tsumo=tsumo, seat=seat, round=round_wind, chankan=chankan, rinshan=rinshan,
        double_rinshan=double_rinshan, last_tile=haitei or houtei,
        heavenly=heavenly, earthly=earthly, human=human,
    )


def read_discarder(hand: HandInput, seat: str) -> str:
    """The seat that discarded the winning tile; a win on a discard must name it."""
    check_discarder(hand.discarder, seat=seat, tsumo=False, required=True)
    assert hand.discarder is not None
    return hand.discarder


def read_responsible(request: dict, hand: HandInput, sit: Situation, seat: str) -> str | None:
    """The seat that pays a self-drawn win alone (seed 004's three cases), or None."""
    who = wind_letter(request.get("responsible"), "responsible")
    if who is None:
        return None
    case = request.get("responsibility")
    if case not in RESPONSIBILITY_CASES:
        raise InvalidRequestError(
            f'"responsibility" must say which case makes {who} responsible: one of {", ".join(RESPONSIBILITY_CASES)}'
        )
    if who == seat:
        raise InvalidRequestError("the winner cannot be responsible for his own win")
    called = [m for m in hand.melds if m.is_open]
    if case == "third_dragon" and sum(1 for m in called if not m.is_chi and m.first in DRAGONS) < 1:
        raise InvalidRequestError("third_dragon: the hand has no dragon set called from a discard")
    if case == "third_dragon" and sum(1 for m in hand.melds if not m.is_chi and m.first in DRAGONS) < 3:
        raise InvalidRequestError("third_dragon: the melds do not hold three dragon sets")
    if case == "fourth_meld" and len(called) < 4:
        raise InvalidRequestError("fourth_meld: the hand does not have four sets called from discards")
    if case == "kong_replacement" and not (sit.rinshan or sit.double_rinshan):
        raise InvalidRequestError("kong_replacement: the win must be on a kong replacement tile (rinshan)")
    if case == "kong_replacement" and not any(m.type == "minkan" for m in hand.melds):
        raise InvalidRequestError("kong_replacement: the hand has no kong made from a discard (minkan)")
    # on a discard the discarder pays as usual; the responsibility of seed 004 covers self-drawn wins
    return who if sit.tsumo else None
