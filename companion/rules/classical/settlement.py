"""Seed 002's settlement between all four players, and scoring a whole table at once.

First the Mahjongg player collects his hand's value from each of the others;
then the three others pay each other the differences of their hand values, the
lower hand paying the higher. East (the dealer) pays and receives double in
every one of these payments. The winner pays nobody.
"""

from __future__ import annotations

from companion.errors import InvalidRequestError
from companion.rules.hand_request import check_copies
from companion.rules.seat_payments import net_by_seat, payments_by_seat
from companion.tiles import Tile

from .request import parse_hand, parse_options
from .scoring import score_hand

SEATS = ("E", "S", "W", "N")


def _check_seat(seat: object, what: str) -> str:
    if seat not in SEATS:
        raise InvalidRequestError(f"{what} must be one of E, S, W, N, got {seat!r}")
    return seat  # type: ignore[return-value]


def _check_values(values_by_seat: dict) -> dict[str, int]:
    if not isinstance(values_by_seat, dict) or sorted(values_by_seat) != sorted(SEATS):
        keys = sorted(values_by_seat) if isinstance(values_by_seat, dict) else values_by_seat
        raise InvalidRequestError(f"hand values are needed for exactly the seats E, S, W, N; got {keys!r}")
    for seat, value in values_by_seat.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidRequestError(f"the hand value of seat {seat} must be a whole number >= 0, got {value!r}")
    return dict(values_by_seat)


def transfers(values_by_seat: dict[str, int], winner: str | None, east: str = "E") -> list[dict]:
    """Every payment of the settlement as ``{"from", "to", "amount", "reason"}``, reason ``"mahjong"``
    (a loser paying the winner) or ``"difference"`` (between two losers). A drawn hand
    (``winner`` None) is not scored at Gravon: the hand simply ends ("endet ... unentschieden")."""
    values = _check_values(values_by_seat)
    east = _check_seat(east, "east")
    if winner is None:
        return []
    winner = _check_seat(winner, "winner")
    out = []
    losers = [s for s in SEATS if s != winner]
    for seat in losers:
        factor = 2 if east in (seat, winner) else 1
        out.append({"from": seat, "to": winner, "amount": values[winner] * factor, "reason": "mahjong"})
    for i, a in enumerate(losers):
        for b in losers[i + 1:]:
            if values[a] == values[b]:
                continue
            high, low = (a, b) if values[a] > values[b] else (b, a)
            factor = 2 if east in (a, b) else 1
            out.append({"from": low, "to": high, "amount": (values[high] - values[low]) * factor,
                        "reason": "difference"})
    return out


def settle(values_by_seat: dict, winner: str, east: str = "E") -> dict[str, int | float]:
    """Signed point change of each seat for one hand; the changes sum to zero.

    >>> settle({"E": 0, "S": 304, "W": 0, "N": 0}, "S")  # seed 002's example: South collects 1216
    {'E': -608, 'S': 1216, 'W': -304, 'N': -304}
    """
    return net_by_seat((t["from"], t["to"], t["amount"]) for t in transfers(values_by_seat, winner, east))


def dealer_stays(winner: str | None, east: str = "E") -> bool:
    """Whether East deals again: seed 002, "Der Geber ... wechselt nur dann, wenn ein anderer Spieler als
    Osten Mahjongg machen konnte" - so East stays after his own win and after a drawn hand."""
    east = _check_seat(east, "east")
    return winner is None or _check_seat(winner, "winner") == east


def winner_payments(value: int, winner: str, east: str = "E") -> dict:
    """What the winner alone collects, in the shared ``payments`` shape."""
    if winner == east:
        return {"each_non_dealer": 2 * value}
    return {"dealer": 2 * value, "each_non_dealer": value}


def winner_only_by_seat(value: int, winner: str, east: str = "E") -> dict[str, int | float]:
    return payments_by_seat(winner, {seat: value * (2 if east in (seat, winner) else 1)
                                     for seat in SEATS if seat != winner})


def score_table(requests_by_seat: dict[str, dict], winner: str, rules: object = "classical") -> dict:
    """Score all four hands of a finished hand and settle them.

    ``requests_by_seat`` maps E/S/W/N to each player's part of a request (``hand``, ``melds``,
    ``flowers``; the winner's also ``win_tile``, ``tsumo`` and flags). The seat keys are the seat winds,
    so East is the dealer; the round wind is the winner's ``round_wind``."""
    winner = _check_seat(winner, "winner")
    if not isinstance(requests_by_seat, dict) or sorted(requests_by_seat) != sorted(SEATS):
        keys = sorted(requests_by_seat) if isinstance(requests_by_seat, dict) else requests_by_seat
        raise InvalidRequestError(f"a table needs the hands of exactly the seats E, S, W, N; got {keys!r}")
    options = parse_options(rules)
    for seat, part in requests_by_seat.items():
        if isinstance(part, dict) and "others" in part and seat != winner:
            raise InvalidRequestError(f'the hand of seat {seat} cannot itself have "others"')
        if isinstance(part, dict) and "rules" in part and part["rules"] != rules:
            raise InvalidRequestError(f"seat {seat}'s hand names other rules than the table; leave \"rules\" out there")
    hands = {winner: parse_hand(requests_by_seat[winner], options, seat=winner, won=True)}
    round_wind = hands[winner].round_wind
    for seat in SEATS:
        if seat != winner:
            hands[seat] = parse_hand(requests_by_seat[seat], options, seat=seat, won=False, round_wind=round_wind)
    check_copies([t for seat in SEATS for t in hands[seat].all_tiles()], "the four hands together")
    check_copies([Tile(k) for seat in SEATS for k in hands[seat].flowers], "the four hands' flowers together")
    results = {seat: score_hand(hands[seat], options) for seat in SEATS}
    values = {seat: results[seat]["value"] for seat in SEATS}
    return {
        "winner": winner,
        "round_wind": round_wind,
        "options": options.to_dict(),
        "by_seat": results,
        "values_by_seat": values,
        "transfers": transfers(values, winner),
        "payments_by_seat": settle(values, winner),
    }
