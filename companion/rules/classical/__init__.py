"""Classical Chinese mahjong as Gravon plays it (seed 002): points, doubles, limit, settlement.

Every player's hand has a value: base points ("Basispunkte") doubled once per
double ("Verdoppler"), cut to the table's limit. The winner collects his value
from each player and the three others settle their differences; East pays and
receives double.

>>> r = score({"rules": "classical", "hand": "234m567p678s77z", "melds": [{"type": "pon", "tiles": "111z"}],
...            "win_tile": "7z", "tsumo": True, "seat_wind": "S", "round_wind": "E", "flowers": ["2f", "4f"]})
>>> r["points"], r["doubles"], r["value"], r["payments_by_seat"]
(38, 3, 304, {'E': -608, 'S': 1216, 'W': -304, 'N': -304})
"""

from __future__ import annotations

from companion.errors import InvalidRequestError

from .request import Options, parse_hand, parse_options
from .scoring import score_hand
from .settlement import (
    SEATS,
    dealer_stays,
    score_table,
    settle,
    transfers,
    winner_only_by_seat,
    winner_payments,
)
from .tables import DOUBLES, LIMITS, POINTS

PRESETS: tuple[str, ...] = ("classical",)

INDICATOR_KEYS: tuple[str, ...] = ()  # no dora: indicators that say something are refused (request._RIICHI_ONLY)

__all__ = ["INDICATOR_KEYS", "PRESETS", "score", "settle", "score_table", "transfers", "dealer_stays", "Options", "POINTS", "DOUBLES", "LIMITS"]

_WINNER_ONLY_NOTE = (
    "only the winner's collection: the three other players also settle their hand values among "
    'themselves (seed 002); give their hands under "others" to include that'
)


def score(request: dict) -> dict:
    """Score one hand; with ``"others": {seat: hand, ...}`` score the whole table and settle it.

    Result: ``points`` (before doubling), ``doubles``, ``raw_value``, ``value`` (after the limit),
    ``limit`` (the limit if it cut the value, else null), ``items``, ``sets``, ``pair``, ``payments``,
    ``payments_by_seat``, ``settlement`` (``"full"``, ``"winner_only"`` or ``"none"``)."""
    if not isinstance(request, dict):
        raise InvalidRequestError("a scoring request must be a JSON object")
    rules = request.get("rules", "classical")
    options = parse_options(rules)
    others = request.get("others")
    if others is not None:
        return _score_with_others(request, others, rules)
    hand = parse_hand(request, options)
    result = {"rules": "classical", "options": options.to_dict(), **score_hand(hand, options)}
    if hand.won:
        result["payments"] = winner_payments(result["value"], hand.seat_wind)
        result["payments_by_seat"] = winner_only_by_seat(result["value"], hand.seat_wind)
        result["settlement"] = "winner_only"
        result["note"] = _WINNER_ONLY_NOTE
    else:
        result["payments"] = None
        result["payments_by_seat"] = None
        result["settlement"] = "none"
        result["note"] = ("a losing hand pays or receives only in the table's settlement: pass the four values to "
                          'settle(), or give the losing hands under "others" in the winner\'s request')
    return result


def _score_with_others(request: dict, others: object, rules: object) -> dict:
    if request.get("won", True) is not True:
        raise InvalidRequestError('"others" belongs in the winner\'s request; this one says "won": false')
    seat = request.get("seat_wind", "E")
    if seat not in SEATS:
        raise InvalidRequestError(f'"seat_wind" must be one of E, S, W, N, got {seat!r}')
    expected = sorted(s for s in SEATS if s != seat)
    if not isinstance(others, dict) or sorted(others) != expected:
        got = sorted(others) if isinstance(others, dict) else others
        raise InvalidRequestError(
            f'"others" must give the hands of exactly the other three seats {", ".join(expected)}; got {got!r}'
        )
    own = {k: v for k, v in request.items() if k != "others"}
    table = score_table({seat: own, **others}, seat, rules)
    result = {"rules": "classical", "options": table["options"], **table["by_seat"][seat]}
    result["payments"] = winner_payments(result["value"], seat)
    result["payments_by_seat"] = table["payments_by_seat"]
    result["transfers"] = table["transfers"]
    result["table"] = {
        s: {k: table["by_seat"][s][k] for k in ("won", "points", "doubles", "raw_value", "value", "limit", "items")}
        for s in SEATS
    }
    result["settlement"] = "full"
    return result
