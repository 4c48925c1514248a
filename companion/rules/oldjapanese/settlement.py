"""From points and doubles to the value ("Endpunktzahl"), the limits, rounding
and who pays whom (ch. 4 II-V and VII, ch. 8 III.1).

>>> hand_value(40, 3)
(320, None)
>>> payments(288, winner="W", tsumo=False, discarder="S", rounding="method1")[0]
{'discarder': 1200}
"""

from __future__ import annotations

from companion.errors import InvalidRequestError
from companion.rules.seat_payments import SEATS, net_by_seat, payments_by_seat

MANGAN = 2000
# (limit id, German name, value); ch. 4 VII.1-5
LIMITS = {
    "mangan": ("Das einfache Limit (Man gan)", 2000),
    "haneman": ("Das acht-doppel Limit (Hane man gan)", 3000),
    "baiman": ("Das doppel Limit (Ni-bai man gan)", 4000),
    "sanbaiman": ("Das dreier Limit (San-bai man gan)", 6000),
    "yakuman": ("Das Limit für eine Limit-Hand (Yaku man gan)", 8000),
}


def round_points(points: int, rounding: str) -> int:
    """Method 2 (and the example game of ch. 6) first rounds the points up to the next ten."""
    if rounding in ("method2", "none"):
        return -(-points // 10) * 10
    return points


def round_payment(amount: int, rounding: str) -> int:
    """Each payment to the nearest hundred, 50 rounding up (ch. 4 V: 349 -> 300, 350 -> 400)."""
    if rounding in ("method1", "method2"):
        return (amount + 50) // 100 * 100
    return amount


def limit_for(doubles: int) -> str | None:
    """The limit that the number of doubles alone reaches (ch. 4 VII.1-4)."""
    if doubles >= 13:
        return "sanbaiman"
    if doubles >= 10:
        return "baiman"
    if doubles >= 8:
        return "haneman"
    if doubles >= 7:
        return "mangan"
    return None


def hand_value(points: int, doubles: int, limit_hand: bool = False) -> tuple[int, str | None]:
    """The value after doubling and limits, and the limit's id (None below the limit).

    The book puts the simple limit at "more than 40 points and six doubles"; that
    is the first count whose doubling passes 2000, so the limit is read as a cap of
    2000 on every value below eight doubles."""
    if limit_hand:
        return LIMITS["yakuman"][1], "yakuman"
    limit = limit_for(doubles)
    if limit:
        return LIMITS[limit][1], limit
    value = points * 2 ** doubles
    if value >= MANGAN:
        return MANGAN, "mangan"
    return value, None


def payments(value: int, *, winner: str, tsumo: bool, discarder: str | None,
             rounding: str) -> tuple[dict, dict[str, int | float]]:
    """The result's ``payments`` and the signed change of every seat.

    East pays and receives double; the discarder pays what all three would have
    paid (ch. 4 III)."""
    if tsumo:
        shares = {seat: value * (2 if "E" in (seat, winner) else 1) for seat in SEATS if seat != winner}
        paid = {seat: round_payment(amount, rounding) for seat, amount in shares.items()}
        by_seat = payments_by_seat(winner, paid)
        if winner == "E":
            result = {"each_non_dealer": paid["S"]}
        else:
            others = [s for s in SEATS if s not in ("E", winner)]
            result = {"dealer": paid["E"], "each_non_dealer": paid[others[0]]}
        return result, by_seat
    if discarder is None or discarder == winner:
        raise InvalidRequestError("a win on a discard needs a discarder other than the winner")
    total = value * (6 if winner == "E" else 4)
    amount = round_payment(total, rounding)
    return {"discarder": amount}, payments_by_seat(winner, {discarder: amount})


def chombo_payments(offender_seat: str, options: object = None) -> dict[str, int | float]:
    """A false win (ch. 8 III.1): the offender pays the simple limit as if each had won it.

    East pays 4000 to each player; anyone else pays East 4000 and the others 2000.
    ``options`` (a rules value or :class:`Options`) is accepted so that a table can
    pass its rules; the book's penalty does not depend on them.

    >>> chombo_payments("S")
    {'E': 4000, 'S': -8000, 'W': 2000, 'N': 2000}
    """
    from companion.rules.oldjapanese.options import Options, parse_options

    if not isinstance(options, Options):
        parse_options(options)
    if not isinstance(offender_seat, str) or offender_seat.upper() not in SEATS:
        raise InvalidRequestError(f"the chombo offender must be a seat wind E, S, W or N, got {offender_seat!r}")
    offender = offender_seat.upper()
    return net_by_seat((offender, seat, MANGAN * (2 if "E" in (seat, offender) else 1))
                       for seat in SEATS if seat != offender)
