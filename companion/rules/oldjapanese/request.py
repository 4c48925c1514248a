"""A scoring request read into the facts the old Japanese scorer needs.

Every check that concerns the request itself (tile counts, contradicting flags,
things the book does not know) happens here, so that scoring only ever sees a
consistent winning situation.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import InvalidRequestError, InvalidTilesError
from companion.tiles import (
    BACK,
    FIRST_FLOWER,
    NUM_KINDS,
    WIND_LETTERS,
    Tile,
    dora_from_indicator,
    parse_tile,
    parse_tiles,
    to_counts,
)

MELD_TYPES = ("chi", "pon", "minkan", "kakan", "ankan")
# flags of the shared request format that this book has (ch. 3 XII, ch. 5 I.9-10, II.7, IV.1-2)
FLAGS = ("riichi", "double_riichi", "haitei", "houtei", "tenhou", "chiihou")
# flags of the shared format that the book does not know; true is refused rather than ignored
FOREIGN_FLAGS = ("ippatsu", "rinshan", "chankan", "renhou")


@dataclass(frozen=True)
class Meld:
    """A called set (or a concealed kong laid out): ``first`` is the lowest kind."""

    type: str
    first: int
    text: str

    @property
    def is_chi(self) -> bool:
        return self.type == "chi"

    @property
    def is_kan(self) -> bool:
        return self.type in ("minkan", "kakan", "ankan")

    @property
    def concealed(self) -> bool:
        # ch. 3 VI: a kong added to a called pong is open; only the kong of four drawn tiles is concealed
        return self.type == "ankan"


@dataclass(frozen=True)
class Win:
    """One winning situation: concealed counts include the winning tile."""

    counts: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_kind: int
    tsumo: bool
    seat: str
    round_wind: str
    discarder: str | None
    riichi: bool
    double_riichi: bool
    haitei: bool
    houtei: bool
    tenhou: bool
    chiihou: bool
    dora: tuple[int, ...]
    flowers: tuple[int, ...]
    riichi_sticks: int

    @property
    def concealed_hand(self) -> bool:
        """No set was called (a concealed kong keeps the hand concealed)."""
        return all(m.concealed for m in self.melds)

    @property
    def east(self) -> bool:
        return self.seat == "E"


def _bool(request: dict, key: str) -> bool:
    value = request.get(key, False)
    if not isinstance(value, bool):
        raise InvalidRequestError(f'"{key}" must be true or false, got {value!r}')
    return value


def _wind(request: dict, key: str, default: str | None) -> str | None:
    value = request.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or value.upper() not in WIND_LETTERS:
        raise InvalidRequestError(f'"{key}" must be one of E, S, W, N, got {value!r}')
    return value.upper()


def _tile_list(value: object, key: str) -> list[Tile]:
    """A list of tile strings, or one mpsz string."""
    if value is None:
        return []
    if isinstance(value, str):
        return parse_tiles(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [t for v in value for t in parse_tiles(v)]
    raise InvalidRequestError(f'"{key}" must be a list of tiles like ["1f", "3f"] or an mpsz string')


def _meld(raw: object, index: int) -> tuple[Meld, list[Tile]]:
    where = f"melds[{index}]"
    if not isinstance(raw, dict) or "type" not in raw or "tiles" not in raw:
        raise InvalidRequestError(f'{where} must be an object {{"type": "chi|pon|minkan|kakan|ankan", "tiles": "..."}}')
    kind = raw["type"]
    if kind not in MELD_TYPES:
        raise InvalidRequestError(f"{where}: unknown meld type {kind!r}; use one of {', '.join(MELD_TYPES)}")
    tiles = parse_tiles(raw["tiles"]) if isinstance(raw["tiles"], str) else None
    if tiles is None:
        raise InvalidRequestError(f"{where}: tiles must be an mpsz string such as \"123m\"")
    kinds = sorted(t.kind for t in tiles)
    if any(k >= NUM_KINDS for k in kinds):
        raise InvalidTilesError(f"{where}: {raw['tiles']!r} holds a flower, season or face-down tile")
    text = raw["tiles"]
    if kind == "chi":
        ok = (len(kinds) == 3 and kinds[0] < 27 and kinds[1] == kinds[0] + 1 and kinds[2] == kinds[0] + 2
              and kinds[0] // 9 == kinds[2] // 9)
        if not ok:
            raise InvalidRequestError(f"{where}: a chi is three consecutive numbers of one suit, got {text!r}")
    else:
        size = 3 if kind == "pon" else 4
        if len(kinds) != size or len(set(kinds)) != 1:
            raise InvalidRequestError(f"{where}: a {kind} is {size} identical tiles, got {text!r}")
    return Meld(kind, kinds[0], text), tiles


def read_request(request: dict) -> Win:
    """Check a request and turn it into a :class:`Win`; raises a CompanionError naming the problem."""
    if not isinstance(request, dict):
        raise InvalidRequestError("a scoring request must be a JSON object")
    if "hand" not in request:
        raise InvalidRequestError('the request needs "hand": the concealed tiles including the winning tile')
    hand = request["hand"]
    if not isinstance(hand, str):
        raise InvalidRequestError('"hand" must be an mpsz string such as "123m456p789s1122z"')
    hand_tiles = parse_tiles(hand)
    if any(t.kind == BACK for t in hand_tiles):
        raise InvalidTilesError("a face-down tile (x) cannot be scored: every tile of the hand must be known")
    flowers = [t for t in hand_tiles if t.is_flower]
    hand_tiles = [t for t in hand_tiles if not t.is_flower]

    raw_melds = request.get("melds") or []
    if not isinstance(raw_melds, list):
        raise InvalidRequestError('"melds" must be a list of {"type": ..., "tiles": ...} objects')
    melds: list[Meld] = []
    all_tiles = list(hand_tiles)
    for i, raw in enumerate(raw_melds):
        meld, tiles = _meld(raw, i)
        melds.append(meld)
        all_tiles.extend(tiles)
    if len(melds) > 4:
        raise InvalidRequestError(f"a hand has at most 4 sets, got {len(melds)} melds")

    expected = 14 - 3 * len(melds)
    if len(hand_tiles) != expected:
        raise InvalidRequestError(
            f"with {len(melds)} meld(s) the hand must hold {expected} tiles including the winning tile, "
            f"got {len(hand_tiles)} in {hand!r}"
        )

    if "win_tile" not in request:
        raise InvalidRequestError('the request needs "win_tile": the tile that completed the hand')
    if not isinstance(request["win_tile"], str):
        raise InvalidRequestError('"win_tile" must be one tile such as "5p"')
    win = parse_tile(request["win_tile"])
    if win.kind >= NUM_KINDS:
        raise InvalidTilesError(f"the winning tile cannot be {win}: flowers and seasons are set aside, not won on")
    if win.kind not in {t.kind for t in hand_tiles}:
        raise InvalidRequestError(f"the winning tile {win} must be among the hand's tiles ({hand!r})")

    extra_flowers = _tile_list(request.get("flowers"), "flowers")
    if any(not t.is_flower for t in extra_flowers):
        raise InvalidTilesError('"flowers" may hold only 1f-8f (flowers 1-4, seasons 1-4)')
    flowers += extra_flowers
    flower_kinds = [t.kind for t in flowers]
    if len(set(flower_kinds)) != len(flower_kinds):
        raise InvalidTilesError("each flower and season exists only once in a set")

    indicators: list[Tile] = []
    dora: list[int] = []
    raw_dora = request.get("dora_indicators")
    if raw_dora:
        indicators = _tile_list(raw_dora, "dora_indicators")
        for t in indicators:
            if t.kind >= NUM_KINDS:
                raise InvalidTilesError(f"{t} cannot be a dora indicator")
            dora.append(dora_from_indicator(t.kind))
    if request.get("ura_indicators"):
        raise InvalidRequestError("the old Japanese rule book has no ura dora (ura_indicators)")

    # indicators are physical tiles too: together with the hand no kind may exceed four
    total = to_counts(all_tiles + indicators)
    for kind, n in enumerate(total):
        if n > 4:
            raise InvalidTilesError(f"{Tile(kind)} appears {n} times in hand, melds and dora indicators; a set has 4")

    tsumo = _bool(request, "tsumo")
    flags = {name: _bool(request, name) for name in FLAGS}
    for name in FOREIGN_FLAGS:
        if _bool(request, name):
            raise InvalidRequestError(f'"{name}" is not part of the old Japanese rule book (seed 001)')
    seat = _wind(request, "seat_wind", "E")
    round_wind = _wind(request, "round_wind", "E")
    discarder = _wind(request, "discarder", None)
    sticks = request.get("riichi_sticks", 0)
    if isinstance(sticks, bool) or not isinstance(sticks, int) or sticks < 0:
        raise InvalidRequestError(f'"riichi_sticks" must be a whole number >= 0, got {sticks!r}')
    honba = request.get("honba", 0)
    if isinstance(honba, bool) or not isinstance(honba, int) or honba < 0:
        raise InvalidRequestError(f'"honba" must be a whole number >= 0, got {honba!r}')

    closed = all(m.concealed for m in melds)
    if tsumo:
        if discarder is not None:
            raise InvalidRequestError('a self-drawn win has no "discarder"')
    else:
        if discarder is None:
            raise InvalidRequestError('a win on a discard needs "discarder": the seat wind (E, S, W, N) who discarded')
        if discarder == seat:
            raise InvalidRequestError(f"the discarder {discarder} cannot be the winner's own seat")
    if flags["double_riichi"]:
        flags["riichi"] = True
    if flags["riichi"] and not closed:
        raise InvalidRequestError("riichi needs a concealed hand (ch. 3 XII): this hand has called sets")
    if flags["haitei"] and not tsumo:
        raise InvalidRequestError("haitei is a win on the last drawn tile, so it needs tsumo")
    if flags["houtei"] and tsumo:
        raise InvalidRequestError("houtei is a win on the last discard, so it cannot be tsumo")
    if flags["tenhou"] and not (seat == "E" and tsumo and not melds):
        raise InvalidRequestError("tenhou (Himmels Hand) is East's dealt hand: seat E, tsumo, no melds")
    if flags["chiihou"] and not (seat != "E" and not tsumo and discarder == "E" and not melds):
        raise InvalidRequestError(
            "chiihou (Erden Hand) is a non-East player winning on East's first discard: ron from E, no melds"
        )
    return Win(
        counts=tuple(to_counts(hand_tiles)),
        melds=tuple(melds),
        win_kind=win.kind,
        tsumo=tsumo,
        seat=seat or "E",
        round_wind=round_wind or "E",
        discarder=discarder,
        dora=tuple(dora),
        flowers=tuple(sorted(flower_kinds)),
        riichi_sticks=sticks,
        **flags,
    )


def flower_number(kind: int) -> int:
    """1-4: the seat a flower or season belongs to (1 = East ... 4 = North), ch. 8 II.1."""
    return (kind - FIRST_FLOWER) % 4 + 1
