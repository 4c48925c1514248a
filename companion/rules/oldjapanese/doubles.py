"""The doubles of chapter 5 (I: one double, II: two, III: four), the bonus
tiles ("Trumpfstein", ch. 3 XIV) and the own flowers and seasons (ch. 8 II.4b).

Each entry of ``DOUBLES`` is one named picture ("Bild") with its test; a test
returns how many doubles the hand earns with it (0 = not there).  Lucky sets,
dora and own flowers can occur several times and produce one item each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.rules.hand_request import flower_number
from companion.rules.oldjapanese.options import Options
from companion.rules.oldjapanese.readings import Reading
from companion.rules.oldjapanese.request import Win
from companion.tiles import (
    DRAGONS,
    FIRST_FLOWER,
    WIND_LETTERS,
    WINDS,
    Tile,
    is_honor,
    is_simple,
    is_terminal,
    is_terminal_or_honor,
)


@dataclass(frozen=True)
class Context:
    win: Win
    reading: Reading
    options: Options

    @property
    def standard(self) -> bool:
        return self.reading.shape == "standard"

    @property
    def kinds(self) -> list[int]:
        return [k for k, c in enumerate(self.reading.counts) if c]

    @property
    def seat_kind(self) -> int:
        return WINDS[WIND_LETTERS.index(self.win.seat)]

    @property
    def round_kind(self) -> int:
        return WINDS[WIND_LETTERS.index(self.win.round_wind)]

    def value_honor(self, kind: int) -> bool:
        """Dragons, own wind and round wind make lucky sets (ch. 5 I.7)."""
        return kind in DRAGONS or kind in (self.seat_kind, self.round_kind)

    def each_part_has(self, test: Callable[[int], bool]) -> bool:
        """Every set and the pair contains a tile that passes ``test``."""
        if not self.standard:
            return False
        assert self.reading.pair is not None
        return test(self.reading.pair) and all(any(test(k) for k in g.tiles) for g in self.reading.groups)

    def suits(self) -> set[int]:
        return {k // 9 for k in self.kinds if k < 27}


def _menzen_tsumo(c: Context) -> int:
    return 1 if c.win.concealed_hand and c.win.tsumo else 0


def is_pinfu(c: Context) -> bool:
    r = c.reading
    return (c.standard and c.win.concealed_hand and len(r.chis) == 4 and r.wait == "ryanmen"
            and r.pair is not None and not c.value_honor(r.pair))


def _pinfu(c: Context) -> int:
    return 1 if is_pinfu(c) else 0


def _riichi(c: Context) -> int:
    return 1 if c.win.riichi and not c.win.double_riichi else 0


def _double_riichi(c: Context) -> int:
    return 2 if c.win.double_riichi else 0


def _tanyao(c: Context) -> int:
    if not (c.win.concealed_hand or c.options.open_tanyao):
        return 0
    return 1 if all(is_simple(k) for k in c.kinds) else 0


def _chanta(c: Context) -> int:
    # a hand of pongs only is "Nur Eck- und Ehrensteine" instead (ch. 5 III.2), so a sequence is needed
    if not c.reading.chis or not any(is_honor(k) for k in c.kinds):
        return 0
    return 1 if c.each_part_has(is_terminal_or_honor) else 0


def _sanshoku(c: Context) -> int:
    firsts = {(g.first // 9, g.first % 9) for g in c.reading.chis}
    return 1 if any(all((s, n) in firsts for s in range(3)) for n in range(7)) else 0


def _haitei(c: Context) -> int:
    return 1 if c.win.haitei else 0


def _houtei(c: Context) -> int:
    return 1 if c.win.houtei else 0


def _junchan(c: Context) -> int:
    if not c.reading.chis or any(is_honor(k) for k in c.kinds):
        return 0
    return 2 if c.each_part_has(is_terminal) else 0


def _toitoi(c: Context) -> int:
    return 2 if c.standard and len(c.reading.pons) == 4 else 0


def concealed_pons(c: Context) -> int:
    return sum(1 for g in c.reading.pons if g.concealed)


def _sanankou(c: Context) -> int:
    return 2 if concealed_pons(c) >= 3 else 0


def _honitsu(c: Context) -> int:
    return 2 if len(c.suits()) == 1 and any(is_honor(k) for k in c.kinds) else 0


def _chiitoitsu(c: Context) -> int:
    return 2 if c.reading.shape == "seven_pairs" else 0


def _ittsu(c: Context) -> int:
    firsts = {g.first for g in c.reading.chis}
    if any(all(s * 9 + n in firsts for n in (0, 3, 6)) for s in range(3)):
        # ch. 5 II.6: "Wenn das Bild allerdings einen offenen Satz enthält, bekommt man nur eine Verdoppelung"
        return 2 if c.win.concealed_hand else 1
    return 0


def _shousangen(c: Context) -> int:
    r = c.reading
    dragon_pons = sum(1 for g in r.pons if g.first in DRAGONS)
    # the two lucky sets are scored separately (ch. 5 III.1: "an sich zwei")
    return 2 if c.standard and dragon_pons == 2 and r.pair in DRAGONS else 0


def _honroto(c: Context) -> int:
    if not all(is_terminal_or_honor(k) for k in c.kinds):
        return 0
    has_honor = any(is_honor(k) for k in c.kinds)
    has_terminal = any(is_terminal(k) for k in c.kinds)
    if not has_terminal:
        return 0  # all honours: a limit hand
    if not has_honor and c.options.all_terminals:
        return 0  # all terminals: a limit hand
    return 2


def _chinitsu(c: Context) -> int:
    return 4 if len(c.suits()) == 1 and not any(is_honor(k) for k in c.kinds) else 0


Test = Callable[[Context], int]

# (id, English name, German name as the book writes it, test); ordered as chapter 5
DOUBLES: tuple[tuple[str, str, str, Test], ...] = (
    ("menzen_tsumo", "Concealed self-drawn hand", "Voll verdecktes Bild", _menzen_tsumo),
    ("pinfu", "No-points hand", "Null Punkte Hand", _pinfu),
    ("riichi", "Riichi", "Riichi", _riichi),
    ("tanyao", "All simples", "Nur Einfache", _tanyao),
    ("chanta", "Terminal or honour in each set", "Eck- und Ehrensteine in jedem Satz und Schlusspaar", _chanta),
    ("sanshoku", "Three similar sequences", "Drei gleiche Folgen", _sanshoku),
    ("haitei", "Win on the last drawn tile", "Ausmachen mit dem letzten gezogenen Stein", _haitei),
    ("houtei", "Win on the last discard", "Ausmachen mit dem letzten abgelegten Stein", _houtei),
    ("junchan", "Terminal in each set", "Ecksteine in jedem Satz und Schlusspaar", _junchan),
    ("toitoi", "Four triplets", "Vier Drillinge", _toitoi),
    ("sanankou", "Three concealed triplets", "Drei verdeckte Drillinge", _sanankou),
    ("honitsu", "One suit with honours", "Einfaches Farbenspiel", _honitsu),
    ("chiitoitsu", "Seven pairs", "Sieben Paare", _chiitoitsu),
    ("ittsu", "Three consecutive sequences", "Drei durchgehende Folgen", _ittsu),
    ("double_riichi", "Double riichi", "Doppel-Riichi", _double_riichi),
    ("shousangen", "Little three dragons", "Drei kleine Drachen", _shousangen),
    ("honroto", "All terminals and honours", "Nur Eck- und Ehrensteine", _honroto),
    ("chinitsu", "One suit only", "Reines Farbenspiel", _chinitsu),
)

# a more valuable picture replaces a smaller one of the same kind
_REPLACES = {"chinitsu": "honitsu", "junchan": "chanta"}


def _double(id_: str, name: str, name_de: str, doubles: int, **extra: object) -> dict:
    return {"id": id_, "name": name, "name_de": name_de, "doubles": doubles, **extra}


def lucky_set_items(c: Context) -> list[dict]:
    """One double per pong of dragons, own wind, round wind; two for the double wind (ch. 3 X, ch. 5 I.7)."""
    out = []
    for g in c.reading.pons:
        tiles = str(g)
        if g.first in DRAGONS:
            out.append(_double("fanpai_dragon", "Lucky set: dragons", "Glückssatz (Drachen)", 1, tiles=tiles))
        if g.first == c.seat_kind:
            out.append(_double("fanpai_seat_wind", "Lucky set: own wind", "Glückssatz (Eigene Richtung)", 1,
                               tiles=tiles))
        if g.first == c.round_kind:
            out.append(_double("fanpai_round_wind", "Lucky set: round wind", "Glückssatz (Rundenwind)", 1,
                               tiles=tiles))
    return out


def dora_items(c: Context) -> list[dict]:
    """One double per bonus tile in the hand (ch. 3 XIV); never counted for the minimum."""
    if not c.options.dora:
        return []
    out = []
    for dora in c.win.dora:
        n = c.reading.counts[dora]
        if n:
            out.append(_double("dora", "Bonus tile", "Trumpfstein", n, tiles=str(Tile(dora)), counts_for_minimum=False))
    return out


def flower_double_items(c: Context) -> list[dict]:
    """Own flower and own season: one double each (ch. 8 II.4b)."""
    seat_number = WIND_LETTERS.index(c.win.seat) + 1
    out = []
    for kind in c.win.flowers:
        if flower_number(kind) == seat_number:
            season = kind >= FIRST_FLOWER + 4
            out.append(_double(
                "own_season" if season else "own_flower",
                "Own season" if season else "Own flower",
                "Eigene Jahreszeit" if season else "Eigene Blume",
                1, tiles=str(Tile(kind)), counts_for_minimum=c.options.flowers_count_for_minimum,
            ))
    return out


def double_items(c: Context) -> list[dict]:
    """Every double the reading earns, each as ``{id, name, name_de, doubles}``."""
    found = {}
    for id_, name, name_de, test in DOUBLES:
        n = test(c)
        if n:
            found[id_] = _double(id_, name, name_de, n)
    for bigger, smaller in _REPLACES.items():
        if bigger in found:
            found.pop(smaller, None)
    items = list(found.values())
    items.extend(lucky_set_items(c))
    items.extend(flower_double_items(c))
    items.extend(dora_items(c))
    return items
