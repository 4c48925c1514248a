"""House rules of Hong Kong play as one frozen options object (seed 004).

Where seed 004 says "nach Verabredung" or "in manchen Spielen", the common
reading is the default and the other readings are options; a club's rules are
data, never a code fork.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.errors import InvalidRequestError
from companion.rules.options import (
    option_names,
    require_bool,
    require_choice,
    require_positive,
    require_whole,
)
from companion.rules.options import options_from_rules as read_options

# per-hand value: "limit" (scores the cap), a fixed number of fan, or "none" (not recognised)
HandValue = int | str

# the hands whose value differs between sources (seed 004 notes each variant)
OVERRIDABLE = (
    "little_four_winds",  # limit; "in manchen Spielen nur 6 Fan"
    "big_four_winds",
    "eighteen_arhats",  # four kongs
    "nine_gates",
    "heavenly_hand",
    "earthly_hand",
    "human_hand",  # "als Limithand, 3 Fan oder gar nicht"
    "eight_flowers",  # "in manchen Spielen nur als 8 Fan"
    "four_concealed_pungs",
)


@dataclass(frozen=True)
class HongKongOptions:
    """All house rules; ``HongKongOptions()`` is common modern Hong Kong play."""

    min_fan: int = 3  # "3-Fan-Pflicht"; fan from flowers and seasons do not count toward it
    cap: int = 8  # "üblicherweise 8 oder 10 Fan"; 13 is the absolute maximum
    payment: Literal["full", "half"] = "full"  # "Laak-Laak" 2^fan, or "Boon-Laak" half doubling from 4 fan
    base: float = 1  # the table's unit; clubs multiply the table ("verdoppelt oder halbiert")
    discard_pays: Literal["all", "half"] = "all"  # discarder pays everything, or S/2 with S/4 from each other
    false_win: Literal["self_draw", "discard"] = "self_draw"  # which limit amount the offender pays each player
    bonus_tiles: bool = True  # flowers and seasons in play
    concealed_hand: Literal["auto", "on", "off"] = "auto"  # "auto": only when bonus tiles are not in play
    concealed_requires_tsumo: bool = False  # "in einigen Spielen wird ... eigener Zug auch benötigt"
    last_tile_tsumo_only: bool = False  # "in einigen Spielen nur beim selbstgezogenen Stein"
    # "Beanspruchung vom letzten Abwurf im Spiel ist nicht gestattet": no win on the last discard
    # (houtei) unless a table agrees otherwise
    last_discard_claimable: bool = False
    seven_flowers_kong_replacement: bool = False  # "nach Verabredung darf ... dazugerechnet werden"
    all_pungs: int = 3
    little_four_winds: HandValue = "limit"
    big_four_winds: HandValue = "limit"
    eighteen_arhats: HandValue = "limit"
    nine_gates: HandValue = "limit"
    heavenly_hand: HandValue = "limit"
    earthly_hand: HandValue = "limit"
    human_hand: HandValue = "limit"
    eight_flowers: HandValue = "limit"
    four_concealed_pungs: HandValue = "limit"

    def __post_init__(self) -> None:
        require_choice("cap", self.cap, (8, 10, 13), "8, 10 or 13 fan")
        require_whole("min_fan", self.min_fan, 0, self.cap, "the cap")
        require_choice("payment", self.payment, ("full", "half"))
        require_choice("discard_pays", self.discard_pays, ("all", "half"))
        require_choice("false_win", self.false_win, ("self_draw", "discard"))
        require_choice("concealed_hand", self.concealed_hand, ("auto", "on", "off"))
        require_positive("base", self.base)
        for name in ("bonus_tiles", "concealed_requires_tsumo", "last_tile_tsumo_only", "last_discard_claimable",
                     "seven_flowers_kong_replacement"):
            require_bool(name, getattr(self, name))
        require_whole("all_pungs", self.all_pungs)
        for name in OVERRIDABLE:
            value = getattr(self, name)
            ok = value in ("limit", "none") or (isinstance(value, int) and not isinstance(value, bool) and value >= 0)
            if not ok:
                raise InvalidRequestError(f'rules option {name} must be "limit", "none" or a number of fan, '
                                          f"got {value!r}")

    def concealed_counts(self) -> bool:
        if self.concealed_hand == "auto":
            # seed 004: concealed hand "meistens nicht angenommen wenn die Glücksziegel eingesetzt werden"
            return not self.bonus_tiles
        return self.concealed_hand == "on"


OPTION_NAMES = option_names(HongKongOptions)


def options_from_rules(rules: object) -> HongKongOptions:
    """``"hongkong"`` or ``{"preset": "hongkong", <option>: value, ...}`` -> options."""
    return read_options(rules, HongKongOptions, preset="hongkong", family="Hong Kong")
