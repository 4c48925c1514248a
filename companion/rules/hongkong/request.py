"""Reading a scoring request into tiles, called sets, flowers and seats.

Nothing here is Hong Kong specific: the classical and old Japanese families
read the same request keys (``hand``, ``melds``, ``win_tile``, ``flowers``,
``seat_wind``, ``round_wind``, ``discarder``) and settle with the same
``payments_by_seat`` shape, so this module is a candidate for a shared place.
"""

from __future__ import annotations

from dataclasses import dataclass

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
KONG_TYPES = ("minkan", "kakan", "ankan")


@dataclass(frozen=True)
class Meld:
    """A set laid out on the table: ``kind`` is the first tile of a chi or the tile of a pon/kong."""

    type: str
    kind: int

    @property
    def is_kong(self) -> bool:
        return self.type in KONG_TYPES

    @property
    def is_chi(self) -> bool:
        return self.type == "chi"

    def kinds(self) -> list[int]:
        if self.is_chi:
            return [self.kind, self.kind + 1, self.kind + 2]
        return [self.kind] * (4 if self.is_kong else 3)


@dataclass(frozen=True)
class ParsedHand:
    """The tiles of a request, checked for consistency."""

    concealed: tuple[int, ...]  # 34 counts of the concealed part, winning tile included
    melds: tuple[Meld, ...]
    win_tile: int
    flowers: frozenset[int]  # 1..8: flowers 1-4 then seasons 1-4
    all_counts: tuple[int, ...]  # concealed plus melds, 34 counts


def seat_letter(value: object, key: str, default: str | None = None) -> str:
    """A seat or round wind as one of ``E S W N``."""
    if value is None:
        if default is None:
            raise InvalidRequestError(f'"{key}" is required: one of E, S, W, N')
        return default
    if not isinstance(value, str) or value.upper() not in tuple(WIND_LETTERS):
        raise InvalidRequestError(f'"{key}" must be one of E, S, W, N, got {value!r}')
    return value.upper()


def parse_melds(raw: object) -> list[Meld]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidRequestError('"melds" must be a list of {"type": ..., "tiles": ...} objects')
    melds = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or "type" not in item or "tiles" not in item:
            raise InvalidRequestError(f'melds[{i}] must be an object with "type" and "tiles"')
        mtype = item["type"]
        if mtype not in MELD_TYPES:
            raise InvalidRequestError(f"melds[{i}].type {mtype!r} is not one of {', '.join(MELD_TYPES)}")
        tiles = parse_tiles(item["tiles"])
        kinds = sorted(t.kind for t in tiles)
        if any(k >= NUM_KINDS for k in kinds):
            raise InvalidTilesError(f"melds[{i}] {item['tiles']!r}: flowers and face-down tiles cannot be in a set")
        if mtype == "chi":
            ok = (len(kinds) == 3 and kinds[0] < 27 and kinds[0] % 9 <= 6
                  and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2])
            if not ok:
                raise InvalidTilesError(f"melds[{i}] {item['tiles']!r} is not a chi (three consecutive tiles of a suit)")
        else:
            size = 4 if mtype in KONG_TYPES else 3
            if len(kinds) != size or len(set(kinds)) != 1:
                raise InvalidTilesError(f"melds[{i}] {item['tiles']!r} is not a {mtype} ({size} equal tiles)")
        melds.append(Meld(mtype, kinds[0]))
    if len(melds) > 4:
        raise InvalidRequestError(f"a hand has at most 4 called sets, got {len(melds)}")
    return melds


def parse_flowers(raw: object) -> frozenset[int]:
    """Flowers as numbers 1..8 (``1f``-``4f`` flowers 1-4, ``5f``-``8f`` seasons 1-4)."""
    if raw is None:
        return frozenset()
    if isinstance(raw, str):
        tiles = parse_tiles(raw)
    elif isinstance(raw, list):
        tiles = []
        for item in raw:
            if not isinstance(item, str):
                raise InvalidRequestError(f'"flowers" entries must be tiles like "1f", got {item!r}')
            tiles.extend(parse_tiles(item))
    else:
        raise InvalidRequestError('"flowers" must be a list of tiles such as ["1f", "6f"]')
    numbers = []
    for t in tiles:
        if not t.is_flower:
            raise InvalidTilesError(f"{t} is not a flower or season (use 1f-8f)")
        numbers.append(t.kind - FIRST_FLOWER + 1)
    if len(set(numbers)) != len(numbers):
        raise InvalidTilesError("each flower and season exists once; the list repeats one")
    return frozenset(numbers)


def parse_hand(request: dict, *, allow_incomplete_count: bool = False) -> ParsedHand:
    """Tiles, sets and flowers of a request, with the copy count checked across all of them."""
    if "hand" not in request:
        raise InvalidRequestError('"hand" (the concealed tiles including the winning tile) is required')
    tiles = parse_tiles(request["hand"])
    if any(t.kind >= NUM_KINDS for t in tiles):
        raise InvalidTilesError('"hand" holds only playing tiles; put flowers and seasons under "flowers"')
    melds = parse_melds(request.get("melds"))
    concealed = to_counts(tiles)
    total = list(concealed)
    for m in melds:
        for k in m.kinds():
            total[k] += 1
    for k, n in enumerate(total):
        if n > 4:
            raise InvalidTilesError(
                f"{Tile(k)} appears {n} times in hand and melds together, but a set has only 4 of it"
            )
    expected = 14 - 3 * len(melds)
    if len(tiles) != expected and not allow_incomplete_count:
        raise InvalidRequestError(
            f'"hand" has {len(tiles)} tiles; with {len(melds)} called sets it needs {expected} '
            "(the winning tile included)"
        )
    raw_win = request.get("win_tile")
    if raw_win is None:
        if not tiles:
            if allow_incomplete_count:  # a win by bonus tiles alone has no winning tile
                return ParsedHand(tuple(concealed), tuple(melds), -1, parse_flowers(request.get("flowers")),
                                  tuple(total))
            raise InvalidRequestError('"win_tile" is required')
        win = tiles[-1].kind  # convention: the last tile written is the one that completed the hand
    else:
        win = parse_tile(raw_win).kind
        if win >= NUM_KINDS:
            raise InvalidTilesError(f"win_tile {raw_win!r} must be a playing tile")
        if concealed[win] == 0 and not allow_incomplete_count:
            raise InvalidRequestError(f"win_tile {raw_win} is not in the hand {format_tiles(tiles)}")
    return ParsedHand(tuple(concealed), tuple(melds), win, parse_flowers(request.get("flowers")), tuple(total))


def _plain(x: float) -> int | float:
    return int(x) if float(x).is_integer() else float(x)


def payments_by_seat(winner: str, paid: dict[str, float]) -> dict[str, int | float]:
    """Signed change per seat wind: each payer loses what it pays, the winner gains the sum."""
    out: dict[str, float] = {s: 0 for s in WIND_LETTERS}
    for seat, amount in paid.items():
        out[seat] -= amount
        out[winner] += amount
    return {s: _plain(v) for s, v in out.items()}


def plain_number(x: float) -> int | float:
    """Whole amounts as ints, quarters (half-responsibility of one unit) as floats."""
    return _plain(x)
