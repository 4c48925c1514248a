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


def _template(key: str, fu: int, tiles: str | None = None, names: tuple[str, str] | None = None) -> dict:
    name, name_de = names or _NAMES[key]
    item = {"id": key, "name": name, "name_de": name_de, "fu": fu}
    if tiles:
        item["tiles"] = tiles
        item["name"] = f"{name} {tiles}"
        item["name_de"] = f"{name_de} {tiles}"
    return item


# Every fu item a hand can show is one of a few hundred, built here once; a result gets copies.
_BASE = _template("base", 20)
_MENZEN_RON = _template("menzen_ron", 10)
_TSUMO = _template("tsumo", 2)
_CHIITOITSU = _template("chiitoitsu", 25)
_OPEN_PINFU = _template("open_pinfu", 10)
_WAIT = {w: _template("wait_" + w, 2) for w in ("kanchan", "penchan", "tanki")}
_SET_FU: dict[tuple[int, int, bool], int] = {}
"""Fu of a set as a reading lists it, ``(CHI|PON|KAN, first kind, concealed)``; 0 for a chi."""
_SET_ITEM: dict[tuple[int, int, bool], dict] = {}
for (_shape, _first), _text in SET_TEXT.items():
    for _concealed in (False, True):
        if _shape == CHI:
            _SET_FU[_shape, _first, _concealed] = 0
            continue
        _value = 2 << (_TH[_first] + _concealed + 2 * (_shape == KAN))
        _SET_FU[_shape, _first, _concealed] = _value
        _SET_ITEM[_shape, _first, _concealed] = _template("set", _value, _text, _SET_NAMES[_shape == KAN, _concealed])
_PAIR_ITEM = {(key, fu, k): _template(key, fu, PAIR_TEXT[k])
              for k in range(27, 34) for key in ("pair", "double_wind_pair") for fu in (2, 4)}


def count_fu(h: Reading, s: Situation, pinfu: bool, details: list | None = None) -> int:
    """Unrounded fu; with ``details`` given, append one item per source."""
    if details is None:
        details = []
    if h.shape == CHIITOI:
        details.append(_CHIITOITSU.copy())
        return 25
    if h.shape == KOKUSHI:
        return 0
    closed = s.closed
    fu = 20
    details.append(_BASE.copy())
    if closed and not s.tsumo:
        fu += 10
        details.append(_MENZEN_RON.copy())
    if pinfu:
        return fu
    if s.tsumo:
        fu += 2
        details.append(_TSUMO.copy())
    wait = h.wait
    if wait == "kanchan" or wait == "penchan" or wait == "tanki":
        fu += 2
        details.append(_WAIT[wait].copy())
    set_fu = _SET_FU
    for st in h.sets:
        value = set_fu[st]
        if value:
            fu += value
            details.append(_SET_ITEM[st].copy())
    pair = h.pair
    if pair >= 27:
        pair_fu = 0
        if pair in DRAGONS:
            pair_fu = 2
        elif pair == s.seat and pair == s.round:
            pair_fu = s.opts.double_wind_pair_fu
        elif pair == s.seat or pair == s.round:
            pair_fu = 2
        if pair_fu:
            fu += pair_fu
            key = "double_wind_pair" if pair == s.seat == s.round else "pair"
            details.append(_PAIR_ITEM[key, pair_fu, pair].copy())
    if fu == 20 and not closed:
        # an open hand with a pinfu shape won on a discard has no fu at all: it counts 30
        fu = 30
        details.append(_OPEN_PINFU.copy())
    return fu
