"""Tiles and mpsz notation.

A tile is a small immutable value: ``Tile(kind, red)``. Kinds are plain ints so
that hand analysis can work on 34-slot count arrays without conversions:

* 0-8 ``1m``-``9m`` (characters), 9-17 ``1p``-``9p`` (circles), 18-26 ``1s``-``9s`` (bamboo)
* 27-33 ``1z``-``7z``: East, South, West, North, White, Green, Red
* 34-41 ``1f``-``8f``: flowers 1-4 then seasons 1-4
* 42 ``x``: a face-down tile (its back)

>>> [str(t) for t in parse_tiles("406p x 3f")]
['4p', '0p', '6p', 'x', '3f']
>>> format_tiles(parse_tiles("1m2m3m 0p 77z"))
'123m0p77z'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from companion.errors import InvalidTilesError

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
FIRST_FLOWER = 34
BACK = 42
NUM_KINDS = 34

SUITS = "mpsz"
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
WIND_LETTERS = "ESWN"


class Tile(NamedTuple):
    """One physical tile: its kind (0-42) and whether it is a red five."""

    kind: int
    red: bool = False

    def __str__(self) -> str:
        if self.kind == BACK:
            return "x"
        suit, number = _suit_number(self.kind)
        return f"{0 if self.red else number}{suit}"

    @property
    def is_flower(self) -> bool:
        return FIRST_FLOWER <= self.kind < BACK

    @property
    def is_back(self) -> bool:
        return self.kind == BACK


def _suit_number(kind: int) -> tuple[str, int]:
    if kind < 27:
        return "mps"[kind // 9], kind % 9 + 1
    if kind < 34:
        return "z", kind - 26
    return "f", kind - 33


def suit_of(kind: int) -> str:
    """``'m' 'p' 's' 'z'`` for the 34 kinds, ``'f'`` for flowers and seasons."""
    return _suit_number(kind)[0]


def number_of(kind: int) -> int:
    """The printed number 1-9 of a suited kind (honours: 1-7 in z order)."""
    return _suit_number(kind)[1]


def is_honor(kind: int) -> bool:
    return 27 <= kind < 34


def is_terminal(kind: int) -> bool:
    return kind < 27 and kind % 9 in (0, 8)


def is_terminal_or_honor(kind: int) -> bool:
    return is_honor(kind) or is_terminal(kind)


def is_simple(kind: int) -> bool:
    return kind < 27 and kind % 9 not in (0, 8)


TERMINALS_AND_HONORS = tuple(k for k in range(NUM_KINDS) if is_terminal_or_honor(k))
GREEN_KINDS = frozenset({19, 20, 21, 23, 25, GREEN})  # 2s 3s 4s 6s 8s and the green dragon


def dora_from_indicator(kind: int) -> int:
    """The dora that an indicator points to: next number in the suit (9 -> 1),
    winds E->S->W->N->E, dragons White->Green->Red->White."""
    if kind < 27:
        return kind - 8 if kind % 9 == 8 else kind + 1
    if kind <= NORTH:
        return EAST if kind == NORTH else kind + 1
    if kind <= RED:
        return WHITE if kind == RED else kind + 1
    raise InvalidTilesError(f"{Tile(kind)} cannot be a dora indicator")


def wind_kind(letter: str) -> int:
    """``'E'`` -> the East tile kind, etc."""
    try:
        return EAST + WIND_LETTERS.index(letter.upper())
    except (ValueError, AttributeError):
        raise InvalidTilesError(f"unknown wind {letter!r}: use one of E, S, W, N") from None


_TOKEN = re.compile(r"\s+|x|([0-9]+)([mpszf])")


def parse_tiles(text: str, *, max_red_per_suit: int = 1, max_copies: int = 4) -> list[Tile]:
    """Parse mpsz notation into tiles, keeping their order.

    Digits are followed by their suit letter (``123m``); ``0`` is the red five of
    m/p/s; ``1z``-``7z`` are the honours; ``1f``-``8f`` flowers and seasons; ``x``
    is a face-down tile.  Spaces are ignored.
    """
    if not isinstance(text, str):
        raise InvalidTilesError(f"tiles must be a string in mpsz notation, got {type(text).__name__}")
    tiles: list[Tile] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            end = pos
            while end < len(text) and text[end].isdigit():
                end += 1
            if end == len(text):
                raise InvalidTilesError(
                    f"digits at position {pos + 1} of {text!r} have no suit letter (m, p, s, z or f) after them"
                )
            raise InvalidTilesError(
                f"unexpected character {text[end]!r} at position {end + 1} of {text!r}: "
                "write tiles as digits followed by m, p, s, z or f (e.g. 123m), or x for a face-down tile"
            )
        if m.group(0) == "x":
            tiles.append(Tile(BACK))
        elif m.group(1):
            digits, suit = m.group(1), m.group(2)
            for offset, d in enumerate(digits):
                tiles.append(_make(int(d), suit, text, m.start() + offset))
        pos = m.end()
    _check_counts(tiles, text, max_red_per_suit, max_copies)
    return tiles


def _make(number: int, suit: str, text: str, pos: int) -> Tile:
    where = f"at position {pos + 1} of {text!r}"
    if number == 0:
        if suit not in "mps":
            raise InvalidTilesError(f"0{suit} {where}: only m, p and s have a red five (0)")
        return Tile(_SUIT_BASE[suit] + 4, True)
    if number > _SUIT_SIZE[suit]:
        raise InvalidTilesError(f"{number}{suit} {where} does not exist: {suit} goes up to {_SUIT_SIZE[suit]}")
    return Tile(_SUIT_BASE[suit] + number - 1)


def _check_counts(tiles: list[Tile], text: str, max_red_per_suit: int, max_copies: int) -> None:
    counts: dict[int, int] = {}
    reds: dict[int, int] = {}
    for t in tiles:
        if t.kind == BACK:
            continue
        counts[t.kind] = counts.get(t.kind, 0) + 1
        if t.red:
            reds[t.kind] = reds.get(t.kind, 0) + 1
    limit_flowers = 1
    for kind, n in counts.items():
        limit = limit_flowers if kind >= FIRST_FLOWER else max_copies
        if n > limit:
            raise InvalidTilesError(
                f"{Tile(kind)} appears {n} times in {text!r}, but a set has only {limit} of it"
            )
    for kind, n in reds.items():
        if n > max_red_per_suit:
            raise InvalidTilesError(
                f"{n} red fives {Tile(kind, True)} in {text!r}, but these rules allow {max_red_per_suit} per suit"
            )


def parse_tile(text: str) -> Tile:
    """Exactly one tile, e.g. ``"5m"``, ``"0p"``, ``"7z"``."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise InvalidTilesError(f"expected exactly one tile, got {len(tiles)} in {text!r}")
    return tiles[0]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Compact mpsz: runs of one suit share their letter (``123m0p77z``)."""
    out: list[str] = []
    run_suit = ""
    for t in tiles:
        s = str(t)
        suit = s[-1]
        if suit == "x":
            if run_suit:
                out.append(run_suit)
            out.append("x")
            run_suit = ""
            continue
        if run_suit and suit != run_suit:
            out.append(run_suit)
        out.append(s[:-1])
        run_suit = suit
    if run_suit:
        out.append(run_suit)
    return "".join(out)


def to_counts(tiles: Iterable[Tile]) -> list[int]:
    """34 counts; red fives count as fives, flowers and backs are left out."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        if t.kind < NUM_KINDS:
            counts[t.kind] += 1
    return counts


def sort_key(t: Tile) -> tuple[int, int]:
    return (t.kind, 0 if t.red else 1)


_HONOR_EN = ("East", "South", "West", "North", "White Dragon", "Green Dragon", "Red Dragon")
_HONOR_DE = ("Ost", "Süd", "West", "Nord", "Weißer Drache", "Grüner Drache", "Roter Drache")
_SUIT_EN = {"m": "Characters", "p": "Circles", "s": "Bamboo"}
_SUIT_DE = {"m": "Zeichen", "p": "Kreise", "s": "Bambus"}
_FLOWER_EN = ("Flower 1 (Plum)", "Flower 2 (Orchid)", "Flower 3 (Chrysanthemum)", "Flower 4 (Bamboo)",
              "Season 1 (Spring)", "Season 2 (Summer)", "Season 3 (Autumn)", "Season 4 (Winter)")
_FLOWER_DE = ("Blume 1 (Pflaume)", "Blume 2 (Orchidee)", "Blume 3 (Chrysantheme)", "Blume 4 (Bambus)",
              "Jahreszeit 1 (Frühling)", "Jahreszeit 2 (Sommer)", "Jahreszeit 3 (Herbst)",
              "Jahreszeit 4 (Winter)")


def tile_name(t: Tile, lang: str = "en") -> str:
    """A readable name, English or German (``"Red 5 Circles"``, ``"rote 5 Kreise"``)."""
    de = lang == "de"
    if t.kind == BACK:
        return "Rückseite" if de else "Face-down tile"
    if t.kind >= FIRST_FLOWER:
        return (_FLOWER_DE if de else _FLOWER_EN)[t.kind - FIRST_FLOWER]
    if t.kind >= 27:
        return (_HONOR_DE if de else _HONOR_EN)[t.kind - 27]
    suit, number = _suit_number(t.kind)
    if de:
        return f"{'rote ' if t.red else ''}{number} {_SUIT_DE[suit]}"
    return f"{'Red ' if t.red else ''}{number} {_SUIT_EN[suit]}"


# Unicode Mahjong Tiles block U+1F000: winds, dragons, characters, bamboo, circles, flowers, seasons, back.
_GLYPH_BASE = {"m": 0x1F007, "s": 0x1F010, "p": 0x1F019}
_HONOR_GLYPHS = (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004)


def tile_glyph(t: Tile) -> str:
    """The Unicode Mahjong Tiles character (a red five has no glyph of its own)."""
    if t.kind == BACK:
        return chr(0x1F02B)
    if t.kind >= FIRST_FLOWER:
        return chr(0x1F022 + t.kind - FIRST_FLOWER)
    if t.kind >= 27:
        return chr(_HONOR_GLYPHS[t.kind - 27])
    suit, number = _suit_number(t.kind)
    return chr(_GLYPH_BASE[suit] + number - 1)


ALL_CLASSES: list[str] = (
    [str(Tile(k)) for k in range(NUM_KINDS)]
    + ["0m", "0p", "0s"]
    + [str(Tile(k)) for k in range(FIRST_FLOWER, BACK)]
    + ["x"]
)


def align(pred: list[str], truth: list[str]) -> tuple[int, list[tuple[str, str]]]:
    """Levenshtein alignment of tiles as read (``pred``) with the tiles as they are (``truth``), codes in reading
    order: how many positions match, and the substituted (truth, pred) pairs, "-" for a tile missed or one too many.
    A missed or extra tile costs one error and does not shift the rest (training/evaluate.py, the page's first
    readings: companion.kept)."""
    n, m = len(truth), len(pred)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (truth[i - 1] != pred[j - 1]))
    i, j, hits, subs = n, m, 0, []
    while i > 0 and j > 0:
        if d[i][j] == d[i - 1][j - 1] + (truth[i - 1] != pred[j - 1]):
            if truth[i - 1] == pred[j - 1]:
                hits += 1
            else:
                subs.append((truth[i - 1], pred[j - 1]))
            i, j = i - 1, j - 1
        elif d[i][j] == d[i - 1][j] + 1:
            subs.append((truth[i - 1], "-"))
            i -= 1
        else:
            subs.append(("-", pred[j - 1]))
            j -= 1
    subs += [(truth[k], "-") for k in range(i)] + [("-", pred[k]) for k in range(j)]
    return hits, subs
