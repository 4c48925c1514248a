"""House-rule options of the old Japanese rule book (seed 001), as one frozen object.

The book itself asks players to agree beforehand on several points (open
"Nur Einfache", "Vier kleine Winde", "Nur Ecksteine", "Nur Grüne", how strict
"Neun Tore" is, how to round); each such point is an option here, its default
the book's main text.

>>> parse_options({"preset": "oldjapanese", "min_doubles": 0, "rounding": "none"}).min_doubles
0
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.options import options_from_rules, require_types_of_defaults

PRESET = "oldjapanese"

# method1: exact value, each payment to the nearest 100 (ch. 4 V.1)
# method2: points up to the next 10 first, each payment to the nearest 100 (ch. 4 V.2)
# none:    points up to the next 10, payments unrounded, as the example game of ch. 6 does
# exact:   nothing rounded, as the illustrations of ch. 4 IV (46 points -> 184 -> 736)
ROUNDING_METHODS = ("method1", "method2", "none", "exact")


@dataclass(frozen=True)
class Options:
    """Every rule choice the scorer makes; see the README section "Old Japanese"."""

    # "Li fan shibari" (ch. 3 XIII): doubles needed to win; dora never count
    min_doubles: int = 1
    # ch. 3 XIII rule 1: a double that only the winning tile brings does not allow the win
    double_before_last_tile: bool = True
    rounding: str = "method2"  # ch. 4 V: "Die zweite ist beliebter"
    dora: bool = True  # ch. 3 XIV
    # ch. 5 I.4: "Gewöhnlich darf Nur Einfache aus offenen und verdeckten Steinen bestehen"
    open_tanyao: bool = True
    # ch. 3 XIII names only the dora as not counting; own flowers do
    flowers_count_for_minimum: bool = True
    # the garbled points table of ch. 4 I.2e gives 2 for an own-wind pair and 4 next to it:
    # read as 4 for a pair of the wind that is both seat and round wind
    double_wind_pair_points: int = 4
    # ch. 5 II.5: a concealed four of a kind may stand as two of the seven pairs
    seven_pairs_with_four: bool = True
    # optional limit hands the book says not everybody plays
    little_four_winds: bool = False  # ch. 5 IV.7 "Nach Absprache"
    all_terminals: bool = True  # ch. 5 IV.4 "nicht von allen Mah-Jongg Spielern anerkannt"
    all_green: bool = True  # ch. 5 IV.10
    four_kongs: bool = False  # ch. 8 I.4 "nicht allgemein gebräuchlich"
    # ch. 5 IV.9: the waiting hand must be 1112345678999 of one suit (false: any 14 with that core)
    nine_gates_strict: bool = True

    def __post_init__(self) -> None:
        require_types_of_defaults(self, _CHOICES)


_CHOICES = {"rounding": ROUNDING_METHODS, "double_wind_pair_points": (2, 4)}


def parse_options(rules: object) -> Options:
    """Options from a request's ``rules`` value (``"oldjapanese"`` or a dict with ``preset``)."""
    return options_from_rules(rules, Options, preset=PRESET, family="old Japanese")
