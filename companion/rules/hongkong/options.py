"""House rules of Hong Kong play as one frozen options object (seed 004).

Where seed 004 says "nach Verabredung" or "in manchen Spielen", the common
reading is the default and the other readings are options; a club's rules are
data, never a code fork.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

from companion.errors import InvalidRequestError, UnknownRulesError

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
        if self.cap not in (8, 10, 13):
            raise InvalidRequestError(f"cap must be 8, 10 or 13 fan, got {self.cap!r}")
        if not isinstance(self.min_fan, int) or isinstance(self.min_fan, bool) or not 0 <= self.min_fan <= self.cap:
            raise InvalidRequestError(f"min_fan must be a whole number from 0 to the cap ({self.cap}), got {self.min_fan!r}")
        _choice("payment", self.payment, ("full", "half"))
        _choice("discard_pays", self.discard_pays, ("all", "half"))
        _choice("false_win", self.false_win, ("self_draw", "discard"))
        _choice("concealed_hand", self.concealed_hand, ("auto", "on", "off"))
        if isinstance(self.base, bool) or not isinstance(self.base, int | float) or self.base <= 0:
            raise InvalidRequestError(f"base must be a positive number, got {self.base!r}")
        for name in ("bonus_tiles", "concealed_requires_tsumo", "last_tile_tsumo_only",
                     "seven_flowers_kong_replacement"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRequestError(f"{name} must be true or false, got {getattr(self, name)!r}")
        if isinstance(self.all_pungs, bool) or not isinstance(self.all_pungs, int) or self.all_pungs < 0:
            raise InvalidRequestError(f"all_pungs must be a number of fan, got {self.all_pungs!r}")
        for name in OVERRIDABLE:
            value = getattr(self, name)
            ok = value in ("limit", "none") or (isinstance(value, int) and not isinstance(value, bool) and value >= 0)
            if not ok:
                raise InvalidRequestError(f'{name} must be "limit", "none" or a number of fan, got {value!r}')

    def concealed_counts(self) -> bool:
        if self.concealed_hand == "auto":
            # seed 004: concealed hand "meistens nicht angenommen wenn die Glücksziegel eingesetzt werden"
            return not self.bonus_tiles
        return self.concealed_hand == "on"


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise InvalidRequestError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")


OPTION_NAMES = tuple(f.name for f in fields(HongKongOptions))


def options_from_rules(rules: object) -> HongKongOptions:
    """``"hongkong"`` or ``{"preset": "hongkong", <option>: value, ...}`` -> options."""
    if rules is None or isinstance(rules, str):
        return HongKongOptions()
    if not isinstance(rules, dict):
        raise InvalidRequestError('"rules" must be "hongkong" or an object with "preset" and options')
    if rules.get("preset", "hongkong") != "hongkong":
        raise UnknownRulesError(f"the Hong Kong family scores the preset 'hongkong', not {rules.get('preset')!r}")
    given = {k: v for k, v in rules.items() if k != "preset"}
    unknown = sorted(k for k in given if k not in OPTION_NAMES)
    if unknown:
        raise UnknownRulesError(
            f"unknown Hong Kong rule option(s): {', '.join(unknown)}; known: {', '.join(OPTION_NAMES)}"
        )
    return HongKongOptions(**given)
