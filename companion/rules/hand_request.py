"""The request keys every rule family reads the same way, read once.

A scoring request names one player's tiles and seat: ``hand`` (the concealed
tiles, the winning tile included), ``melds`` (``[{"type": "chi|pon|minkan|kakan|ankan",
"tiles": "..."}]``), ``win_tile``, ``tsumo``, ``flowers`` (``1f``-``4f`` flowers 1-4,
``5f``-``8f`` seasons 1-4), ``seat_wind``, ``round_wind``, ``discarder`` (``E S W N``)
and true/false flags. :func:`read_hand_request` checks all of that, copies
across hand, melds and indicator tiles included, and gives an immutable
:class:`HandInput`; each family then adds only what its own rule book has
(which flags exist, what contradicts what, extra keys).

>>> h = read_hand_request({"hand": "123m456p789s22z", "melds": [{"type": "pon", "tiles": "555z"}],
...                        "win_tile": "2z", "tsumo": True, "seat_wind": "s"}, flags=("haitei",))
>>> h.seat_wind, h.win_kind, [m.type for m in h.melds], h.is_concealed, h.flag("haitei")
('S', 28, ['pon'], False, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from companion.errors import InvalidRequestError, InvalidTilesError
from companion.tiles import (
    FIRST_FLOWER,
    NUM_KINDS,
    WIND_LETTERS,
    Tile,
    format_tiles,
    parse_tile,
    parse_tiles,
    to_counts,
)

MELD_TYPES = ("chi", "pon", "minkan", "kakan", "ankan")
KAN_TYPES = ("minkan", "kakan", "ankan")
SEATS = tuple(WIND_LETTERS)
MAX_MELDS = 4


@dataclass(frozen=True)
class Meld:
    """A set laid out on the table; ``first`` is its lowest tile kind (the tile of a pon or kan)."""

    type: str
    first: int
    tiles: tuple[Tile, ...]

    @property
    def is_chi(self) -> bool:
        return self.type == "chi"

    @property
    def is_pon(self) -> bool:
        return self.type == "pon"

    @property
    def is_kan(self) -> bool:
        return self.type in KAN_TYPES

    @property
    def is_open(self) -> bool:
        # a kan of four self-drawn tiles is laid out only for the replacement tile: it stays concealed
        return self.type != "ankan"

    def kinds(self) -> tuple[int, ...]:
        if self.is_chi:
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,) * (4 if self.is_kan else 3)


@dataclass(frozen=True)
class HandInput:
    """One player's checked part of a request.

    ``tiles`` are the concealed tiles as written (flowers set aside), ``counts`` the
    same as 34 counts; ``flowers`` are tile kinds 34-41, sorted; ``win_tile`` is None
    only for a hand that has none (a losing hand, a win by bonus tiles alone)."""

    tiles: tuple[Tile, ...]
    counts: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile | None
    tsumo: bool
    seat_wind: str | None
    round_wind: str | None
    discarder: str | None
    flowers: tuple[int, ...]
    flags: frozenset[str]  # the names of the flags given as true
    indicators: tuple[tuple[str, tuple[Tile, ...]], ...]  # (key, its tiles), e.g. ("dora_indicators", ...)
    won: bool = True

    @property
    def win_kind(self) -> int:
        """The winning tile's kind, -1 when there is none."""
        return -1 if self.win_tile is None else self.win_tile.kind

    @property
    def is_concealed(self) -> bool:
        """No set was called from a discard (a concealed kan keeps the hand concealed)."""
        return not any(m.is_open for m in self.melds)

    @property
    def flower_numbers(self) -> frozenset[int]:
        """Flowers as numbers 1-8: flowers 1-4, then seasons 1-4."""
        return frozenset(k - FIRST_FLOWER + 1 for k in self.flowers)

    def flag(self, name: str) -> bool:
        return name in self.flags

    def indicator_tiles(self, key: str) -> tuple[Tile, ...]:
        return next((tiles for k, tiles in self.indicators if k == key), ())

    def meld_tiles(self) -> list[Tile]:
        return [t for m in self.melds for t in m.tiles]

    def all_tiles(self) -> list[Tile]:
        """Concealed and meld tiles (no flowers, no indicators)."""
        return list(self.tiles) + self.meld_tiles()

    @cached_property
    def all_counts(self) -> tuple[int, ...]:
        """34 counts of concealed and meld tiles together."""
        total = list(self.counts)
        for m in self.melds:
            for k in m.kinds():
                total[k] += 1
        return tuple(total)


def flower_number(kind: int) -> int:
    """1-4: the seat a flower or season belongs to (1 East, 2 South, 3 West, 4 North)."""
    return (kind - FIRST_FLOWER) % 4 + 1


def wind_letter(value: object, key: str, default: str | None = None) -> str | None:
    """A seat or round wind given as ``E S W N`` (any case); ``default`` when absent (None)."""
    if value is None:
        return default
    if not isinstance(value, str) or value.upper() not in SEATS:
        raise InvalidRequestError(f'"{key}" must be one of E, S, W, N, got {value!r}')
    return value.upper()


def read_wind(request: Mapping, key: str, default: str | None = None) -> str | None:
    return wind_letter(request.get(key), key, default)


def read_flag(request: Mapping, key: str) -> bool:
    """A true/false key, false when absent; anything but a JSON boolean is refused."""
    value = request.get(key, False)
    if not isinstance(value, bool):
        raise InvalidRequestError(f'"{key}" must be true or false, got {value!r}')
    return value


def read_count(request: Mapping, key: str) -> int:
    """A whole number 0 or more (honba, sticks), 0 when absent."""
    value = request.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidRequestError(f'"{key}" must be a whole number >= 0, got {value!r}')
    return value


def read_tile_list(value: object, key: str, who: str = "") -> list[Tile]:
    """Tiles given as one mpsz string or a list of mpsz strings (``["1f", "3f"]``); None is none."""
    if value is None:
        return []
    if isinstance(value, str):
        return parse_tiles(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [t for v in value for t in parse_tiles(v)]
    raise InvalidRequestError(f'{who}"{key}" must be a list of tiles like ["1f", "3f"] or an mpsz string, '
                              f"got {value!r}")


def read_flowers(value: object, extra: Iterable[Tile] = (), who: str = "") -> tuple[int, ...]:
    """Flower and season kinds (34-41) of ``flowers``, plus any set aside from ``hand`` (``extra``)."""
    tiles = read_tile_list(value, "flowers", who)
    bad = [str(t) for t in tiles if not t.is_flower]
    if bad:
        raise InvalidTilesError(f'{who}"flowers" may hold only 1f-8f (flowers 1-4, seasons 1-4), got {", ".join(bad)}')
    kinds = [t.kind for t in tiles] + [t.kind for t in extra]
    twice = sorted({k for k in kinds if kinds.count(k) > 1})
    if twice:
        names = ", ".join(str(Tile(k)) for k in twice)
        raise InvalidTilesError(f'{who}"flowers" names the same flower or season twice ({names}); each exists once')
    return tuple(sorted(kinds))


def read_meld(raw: object, index: int, who: str = "") -> Meld:
    """One entry of ``melds``: its type must match its tiles."""
    where = f"{who}melds[{index}]"
    if not isinstance(raw, dict) or "type" not in raw or "tiles" not in raw:
        raise InvalidRequestError(f'{where} must be an object {{"type": "chi|pon|minkan|kakan|ankan", "tiles": "..."}}')
    mtype = raw["type"]
    if mtype not in MELD_TYPES:
        raise InvalidRequestError(f"{where}: unknown meld type {mtype!r}; use one of {', '.join(MELD_TYPES)}")
    text = raw["tiles"]
    if not isinstance(text, str):
        raise InvalidTilesError(f'{where}: "tiles" must be mpsz text such as "123m", got {text!r}')
    tiles = parse_tiles(text)
    kinds = sorted(t.kind for t in tiles)
    if any(k >= NUM_KINDS for k in kinds):
        raise InvalidTilesError(f"{where}: {text!r} holds a flower, season or face-down tile; "
                                "melds are suit or honour tiles")
    if mtype == "chi":
        first = kinds[0] if kinds else 0
        if len(kinds) != 3 or first >= 27 or first % 9 > 6 or kinds != [first, first + 1, first + 2]:
            raise InvalidTilesError(f"{where}: a chi is three consecutive tiles of one suit, got {text!r}")
    else:
        size = 3 if mtype == "pon" else 4
        if len(kinds) != size or len(set(kinds)) != 1:
            raise InvalidTilesError(f"{where}: a {mtype} is {size} identical tiles, got {text!r}")
    return Meld(mtype, kinds[0], tuple(tiles))


def read_melds(value: object, who: str = "") -> list[Meld]:
    """``melds`` as a list; absent, null or an empty value ("", {}) means no melds."""
    if value is None or value in ("", {}):
        return []
    if not isinstance(value, list):
        raise InvalidRequestError(f'{who}"melds" must be a list of {{"type": ..., "tiles": ...}} objects, '
                                  f"got {value!r}")
    melds = [read_meld(raw, i, who) for i, raw in enumerate(value)]
    if len(melds) > MAX_MELDS:
        raise InvalidRequestError(f"{who}a hand has at most {MAX_MELDS} melds, got {len(melds)}")
    return melds


def check_copies(tiles: Iterable[Tile], where: str, who: str = "") -> None:
    """No kind more than four times, no flower or season twice, among ``tiles`` (``where`` names them)."""
    counts: dict[int, int] = {}
    for t in tiles:
        counts[t.kind] = counts.get(t.kind, 0) + 1
    for kind, n in sorted(counts.items()):
        limit = 1 if kind >= FIRST_FLOWER else 4
        if n > limit:
            raise InvalidTilesError(f"{who}{Tile(kind)} appears {n} times in {where}, but a set has only {limit} of it")


def check_discarder(discarder: str | None, *, seat: str | None, tsumo: bool, required: bool) -> None:
    """A discarder only for a win on a discard, never the winner himself; ``required`` on every such win."""
    if tsumo:
        if discarder is not None:
            raise InvalidRequestError('"discarder" is for a won discard; a self-drawn win ("tsumo": true) has none')
        return
    if discarder is None:
        if required:
            raise InvalidRequestError('a win on a discard needs "discarder": the seat wind (E, S, W, N) that discarded')
        return
    if discarder == seat:
        raise InvalidRequestError(f"the discarder {discarder} cannot be the winner's own seat: nobody wins on his "
                                  "own discard")


def read_hand_request(
    request: Mapping,
    *,
    flags: Sequence[str] = (),
    won: bool = True,
    win_tile_required: bool = True,
    check_count: bool = True,
    flowers_in_hand: bool = False,
    indicator_keys: Sequence[str] = (),
    seat_default: str | None = "E",
    round_default: str | None = "E",
    who: str = "",
) -> HandInput:
    """Check the shared keys of one player's request; raise a CompanionError that names the problem.

    ``flags`` are the true/false keys this family knows (``tsumo`` is always read).
    ``won`` False reads a losing hand: 13 tiles and no winning tile. ``win_tile_required``
    False takes the last tile written in ``hand`` when ``win_tile`` is absent.
    ``check_count`` False accepts any number of tiles and a winning tile outside the
    hand (a win declared by bonus tiles alone). ``flowers_in_hand`` sets flowers written
    in ``hand`` aside instead of refusing them. ``indicator_keys`` are lists of tiles
    that lie on the table too (dora indicators), so they count toward the copies.
    ``who`` starts every message, e.g. ``"seat S: "`` when a table names four hands.
    """
    if not isinstance(request, Mapping):
        raise InvalidRequestError(f"{who}a hand must be a JSON object with at least \"hand\"")
    if "hand" not in request:
        raise InvalidRequestError(f'{who}"hand" is missing: the concealed tiles'
                                  + (", the winning tile included" if won else ""))
    text = request["hand"]
    if not isinstance(text, str):
        raise InvalidTilesError(f'{who}"hand" must be mpsz text such as "123m456p789s1122z", got {text!r}')
    tiles = parse_tiles(text)
    if any(t.is_back for t in tiles):
        raise InvalidTilesError(f"{who}a face-down tile (x) cannot be scored; name every tile of the hand")
    set_aside = [t for t in tiles if t.is_flower]
    if set_aside and not flowers_in_hand:
        raise InvalidTilesError(f'{who}"hand" holds only playing tiles; put flowers and seasons under "flowers"')
    tiles = [t for t in tiles if not t.is_flower]
    melds = read_melds(request.get("melds"), who)
    flowers = read_flowers(request.get("flowers"), set_aside, who)
    indicators = tuple((key, tuple(_indicator_tiles(request.get(key), key, who))) for key in indicator_keys)

    on_table = [t for _, shown in indicators for t in shown]
    named = [key for key, shown in indicators if shown]
    where = f"the hand, its melds and {' and '.join(named)} together" if named else "the hand and its melds together"
    check_copies(tiles + [t for m in melds for t in m.tiles] + on_table, where, who)

    expected = (14 if won else 13) - 3 * len(melds)
    if check_count and len(tiles) != expected:
        raise InvalidRequestError(
            f'{who}"hand" has {len(tiles)} tiles with {len(melds)} meld(s): a {"winning" if won else "losing"} hand '
            f'has {14 if won else 13} tiles counting each meld as 3, so "hand" needs {expected}'
            + (" (the winning tile included)" if won else "")
        )

    seat = read_wind(request, "seat_wind", seat_default)
    round_wind = read_wind(request, "round_wind", round_default)
    discarder = read_wind(request, "discarder")
    tsumo = read_flag(request, "tsumo")
    given = frozenset(name for name in flags if read_flag(request, name))
    win = _win_tile(request.get("win_tile"), tiles, required=win_tile_required, in_hand=check_count,
                    who=who) if won else None
    return HandInput(
        tiles=tuple(tiles), counts=tuple(to_counts(tiles)), melds=tuple(melds), win_tile=win, tsumo=tsumo,
        seat_wind=seat, round_wind=round_wind, discarder=discarder, flowers=flowers, flags=given,
        indicators=indicators, won=won,
    )


def _indicator_tiles(value: object, key: str, who: str) -> list[Tile]:
    tiles = read_tile_list(value, key, who)
    for t in tiles:
        if t.kind >= NUM_KINDS:
            raise InvalidTilesError(f'{who}{t} cannot be in "{key}": indicators are suit or honour tiles')
    return tiles


def _win_tile(value: object, tiles: list[Tile], *, required: bool, in_hand: bool, who: str) -> Tile | None:
    if value is None or value == "":
        if required:
            raise InvalidRequestError(f'{who}"win_tile" is missing: the tile that completed the hand '
                                      '(also counted in "hand")')
        # a win by bonus tiles alone may have no tiles at all; otherwise the last tile written won
        return tiles[-1] if tiles else None
    if not isinstance(value, str):
        raise InvalidTilesError(f'{who}"win_tile" must be one tile such as "5p", got {value!r}')
    win = parse_tile(value)
    if win.kind >= NUM_KINDS:
        raise InvalidTilesError(f'{who}"win_tile" cannot be {win}: flowers, seasons and face-down tiles '
                                "are not won on")
    if in_hand and all(t.kind != win.kind for t in tiles):
        raise InvalidRequestError(f'{who}the winning tile {win} ("win_tile") must also be in "hand": it is not '
                                  f"among the hand's tiles {format_tiles(tiles)}")
    return win
