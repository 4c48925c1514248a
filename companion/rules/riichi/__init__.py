"""Riichi (Japanese) mahjong scoring.

``score(request)`` takes the request format of the README's scoring section and
returns han, fu, yaku, fu details, limit and payments. Rule sets are
:class:`RiichiOptions`; the presets are TOML data in ``presets/``.

>>> r = score({"rules": "ema2016", "hand": "234m456p678s34588s", "win_tile": "5s", "seat_wind": "S"})
>>> r["han"], r["fu"], r["payments"]
(2, 30, {'discarder': 2000})
"""

from __future__ import annotations

import warnings

from companion import native
from companion.rules.riichi.options import OPTION_NAMES, PRESETS, RiichiOptions, resolve_rules
from companion.rules.riichi.scoring import score

_edited = native.stale()
if _edited:  # Python imports the compiled module, not the edited source beside it
    warnings.warn(f"{', '.join(_edited)} changed since the riichi engine was compiled; the compiled "
                  f"(old) code runs until you rebuild: {native.REBUILD}", RuntimeWarning, stacklevel=2)

INDICATOR_KEYS = ("dora_indicators", "ura_indicators")  # the request's indicator lists these rules read

__all__ = ["INDICATOR_KEYS", "PRESETS", "OPTION_NAMES", "RiichiOptions", "resolve_rules", "score"]
