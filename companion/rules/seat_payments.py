"""Who pays whom, as the signed point change of each seat wind (``payments_by_seat``).

Every family reports a win the same way: ``{"E": -32, "S": 96, "W": -32, "N": -32}``,
the winner's gain equal to what the others lose, so the four changes add up to 0.

>>> payments_by_seat("S", {"E": 64, "W": 32, "N": 32})
{'E': -64, 'S': 128, 'W': -32, 'N': -32}
>>> net_by_seat([("S", "E", 100), ("E", "W", 40)])
{'E': 60, 'S': -100, 'W': 40, 'N': 0}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.tiles import WIND_LETTERS

SEATS = tuple(WIND_LETTERS)


def plain_number(x: float) -> int | float:
    """Whole amounts as ints (a table unit may be a fraction, so amounts may be floats)."""
    return int(x) if float(x).is_integer() else float(x)


def net_by_seat(transfers: Iterable[tuple[str, str, float]]) -> dict[str, int | float]:
    """The signed change of every seat after ``(payer, receiver, amount)`` transfers."""
    out: dict[str, float] = dict.fromkeys(SEATS, 0)
    for payer, receiver, amount in transfers:
        out[payer] -= amount
        out[receiver] += amount
    return {s: plain_number(v) for s, v in out.items()}


def payments_by_seat(winner: str, paid: Mapping[str, float]) -> dict[str, int | float]:
    """Each payer in ``paid`` loses what it pays; the winner gains the sum."""
    return net_by_seat((seat, winner, amount) for seat, amount in paid.items())
