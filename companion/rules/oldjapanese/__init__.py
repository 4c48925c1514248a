"""The old Japanese rule book (seed 001, "Mah-Jongg Spieleanleitung"): points
and doubles, East pays and receives double, the discarder pays everything.

>>> from companion import score
>>> score({"rules": "oldjapanese", "hand": "111m234m678m99m", "melds": [{"type": "pon", "tiles": "777z"}],
...        "win_tile": "3m", "tsumo": True, "seat_wind": "W"})["payments_by_seat"]
{'E': -600, 'S': -300, 'W': 1200, 'N': -300}
"""

from __future__ import annotations

from companion.rules.oldjapanese.options import ROUNDING_METHODS, Options, parse_options
from companion.rules.oldjapanese.request import INDICATOR_KEYS
from companion.rules.oldjapanese.scoring import score
from companion.rules.oldjapanese.settlement import chombo_payments, hand_value
from companion.rules.oldjapanese.table import dealer_stays, final_account

PRESETS: tuple[str, ...] = ("oldjapanese",)

__all__ = ["INDICATOR_KEYS", "PRESETS", "ROUNDING_METHODS", "Options", "chombo_payments", "dealer_stays", "final_account",
           "hand_value", "parse_options", "score"]
