"""Mahjong Companion: recognise, score and keep the table for mahjong played with real tiles.

>>> result = score({"rules": "ema2016", "hand": "123m456p789s11z222z", "win_tile": "2z",
...                 "tsumo": True, "riichi": True, "seat_wind": "S"})   # doctest: +SKIP
"""

from __future__ import annotations

from companion.errors import CompanionError

__all__ = ["score", "CompanionError"]
__version__ = "0.1.0"


def score(request: dict) -> dict:
    """Score one hand under the rules named in ``request["rules"]`` (default ``ema2016``).

    Raises a :class:`CompanionError` subclass whose ``code`` says what was wrong."""
    from companion.rules import score as _score

    return _score(request)
