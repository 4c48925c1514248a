"""Fu (minipoints) of one reading.

Seed 000 ("Punkteermittlung"): base 20; a closed hand won on a discard starts at 30
(+10); seven pairs are 25 flat; 2 fu for the winning tile's role (middle of a chi,
the end of a one-sided chi, completing the pair); triplets 2 (open simple) up to
32 (concealed kan of terminals/honours): concealed twice open, terminals/honours
twice simples, kans four times triplets; a pair of a dragon, the seat or the round
wind adds fu. The common rules this page leaves implicit: tsumo +2 except with
pinfu (pinfu tsumo is 20, pinfu ron 30); an open hand that would be 20 fu is 30.
The double-wind pair is ``double_wind_pair_fu`` (4 in seed 003, "4 Fu statt 2 Fu").
"""

from __future__ import annotations

from companion.rules.riichi.context import (
    CHI,
    CHIITOI,
    DRAGONS,
    KAN,
    KOKUSHI,
    PAIR_TEXT,
    SET_TEXT,
    Reading,
    Situation,
)

_TH = tuple(k >= 27 or k % 9 in (0, 8) for k in range(34))

_NAMES = {
    "base": ("Base", "Grundwert"),
    "menzen_ron": ("Closed hand won on a discard", "Verdeckte Hand per Ron"),
    "tsumo": ("Self-draw", "Tsumo"),
    "wait_kanchan": ("Closed wait (kanchan)", "Mittlerer Stein einer Straße (Kanchan)"),
    "wait_penchan": ("Edge wait (penchan)", "Randstein einer Straße (Penchan)"),
    "wait_tanki": ("Pair wait (tanki)", "Fehlender Stein im Paar (Tanki)"),
    "pair": ("Value pair", "Wertvolles Paar"),
    "double_wind_pair": ("Pair of the double wind", "Doppelwindpaar"),
    "open_pinfu": ("Open hand without fu", "Offene Hand ohne Fu"),
    "chiitoitsu": ("Seven pairs", "Sieben Paare"),
    "set": ("Set", "Set"),
}
_SET_NAMES = {
    (False, False): ("Open triplet", "Offener Drilling"),
    (False, True): ("Concealed triplet", "Verdeckter Drilling"),
    (True, False): ("Open kan", "Offener Vierling"),
    (True, True): ("Concealed kan", "Verdeckter Vierling"),
}


_ITEMS: dict[tuple, dict] = {}


def _item(key: str, fu: int, tiles: str | None = None, names: tuple[str, str] | None = None) -> dict:
    """A fresh fu item (a copy of a memoised one: the same few hundred items recur in every hand)."""
    memo = _ITEMS.get((key, fu, tiles, names))
    if memo is None:
        name, name_de = names or _NAMES[key]
        memo = {"id": key, "name": name, "name_de": name_de, "fu": fu}
        if tiles:
            memo["tiles"] = tiles
            memo["name"] = f"{name} {tiles}"
            memo["name_de"] = f"{name_de} {tiles}"
        _ITEMS[key, fu, tiles, names] = memo
    return memo.copy()


def count_fu(h: Reading, s: Situation, pinfu: bool, details: list | None = None) -> int:
    """Unrounded fu; with ``details`` given, append one item per source."""
    if h.shape == CHIITOI:
        if details is not None:
            details.append(_item("chiitoitsu", 25))
        return 25
    if h.shape == KOKUSHI:
        return 0
    closed = s.closed
    fu = 20
    if details is not None:
        details.append(_item("base", 20))
    if closed and not s.tsumo:
        fu += 10
        if details is not None:
            details.append(_item("menzen_ron", 10))
    if pinfu:
        return fu
    if s.tsumo:
        fu += 2
        if details is not None:
            details.append(_item("tsumo", 2))
    if h.wait in ("kanchan", "penchan", "tanki"):
        fu += 2
        if details is not None:
            details.append(_item("wait_" + h.wait, 2))
    for shape, first, concealed in h.sets:
        if shape == CHI:
            continue
        value = 2 << (_TH[first] + concealed + 2 * (shape == KAN))
        fu += value
        if details is not None:
            details.append(_item("set", value, SET_TEXT[shape, first], _SET_NAMES[shape == KAN, bool(concealed)]))
    pair = h.pair
    pair_fu = 0
    if pair in DRAGONS:
        pair_fu = 2
    elif pair == s.seat and pair == s.round:
        pair_fu = s.opts.double_wind_pair_fu
    elif pair == s.seat or pair == s.round:
        pair_fu = 2
    if pair_fu:
        fu += pair_fu
        if details is not None:
            key = "double_wind_pair" if pair == s.seat == s.round else "pair"
            details.append(_item(key, pair_fu, PAIR_TEXT[pair]))
    if fu == 20 and not closed:
        # an open hand with a pinfu shape won on a discard has no fu at all: it counts 30
        fu = 30
        if details is not None:
            details.append(_item("open_pinfu", 10))
    return fu
