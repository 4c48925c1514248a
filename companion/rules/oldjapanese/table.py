"""Table rules of the old Japanese book that a scoreboard needs besides the
score of a hand: who deals next (ch. 3 VIII, ch. 8 I) and the final account
(ch. 2 I, ch. 4 VI).

>>> dealer_stays("E"), dealer_stays("S"), dealer_stays(None)
(True, False, True)
>>> final_account({"E": 31400, "S": 22600, "W": 27500, "N": 26500})
{'E': 13000, 'S': -7000, 'W': -2000, 'N': -3000}
"""

from __future__ import annotations

from companion.errors import InvalidRequestError
from companion.tiles import WIND_LETTERS

# ch. 2 I: every player holds 27,000 in sticks but counts as if he had 30,000
STICKS_AT_START = 27000
ASSUMED_START = 30000
RIICHI_STICK = 1000  # ch. 3 XII


def _seat(seat: object, what: str) -> str:
    if not isinstance(seat, str) or seat.upper() not in WIND_LETTERS:
        raise InvalidRequestError(f"{what} must be a seat wind E, S, W or N, got {seat!r}")
    return seat.upper()


def dealer_stays(winner: str | None, *, chombo_by: str | None = None) -> bool:
    """Whether East deals again: after East's win or a drawn game ("Ren chowa", ch. 3 VIII), but not
    after a drawn game caused by East's false win (ch. 8 I.7)."""
    if chombo_by is not None:
        return _seat(chombo_by, "chombo_by") != "E"
    if winner is None:
        return True
    return _seat(winner, "winner") == "E"


def round_to_thousand(points: int) -> int:
    """Ch. 4 VI: up to 400 is rounded down, from 500 up to the next thousand."""
    return (points + 500) // 1000 * 1000


def final_account(sticks: dict[str, int]) -> dict[str, int]:
    """Each player's result at the end of the whole game (ch. 4 VI).

    ``sticks`` are the points each seat holds in sticks (27,000 at the start).
    Each is rounded to thousands and compared with the 30,000 everybody assumed;
    the 4 x 3,000 difference goes to the player with the most points as the
    "Belohnung des Gewinners".  The book names one winner; on a tie for the top
    the reward is shared equally (our reading)."""
    if not isinstance(sticks, dict) or sorted(sticks) != sorted(WIND_LETTERS):
        raise InvalidRequestError("final_account needs the points of all four seats E, S, W, N")
    for seat, value in sticks.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRequestError(f"the points of {seat} must be a whole number, got {value!r}")
    rounded = {seat: round_to_thousand(sticks[seat]) for seat in WIND_LETTERS}
    result = {seat: rounded[seat] - ASSUMED_START for seat in WIND_LETTERS}
    best = max(rounded.values())
    top = [seat for seat in WIND_LETTERS if rounded[seat] == best]
    reward = 4 * (ASSUMED_START - STICKS_AT_START)
    for seat in top:
        result[seat] += reward // len(top)
    return result
