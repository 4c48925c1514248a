"""Reading a classical scoring request: rule options and one player's hand.

The request format is the one shared by every family (``hand``, ``melds``,
``win_tile``, ``tsumo``, ``seat_wind``, ``round_wind``, ``flowers``,
``discarder``, flags); classical adds ``won`` (false scores a losing hand) and
``others`` (the three losing hands, read by :mod:`.settlement`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from companion.errors import InvalidRequestError, InvalidTilesError, UnknownRulesError
from companion.tiles import FIRST_FLOWER, NUM_KINDS, WIND_LETTERS, Tile, parse_tile, parse_tiles, suit_of

from .tables import DEFAULT_LIMIT, LIMITS

PRESET = "classical"

# Flags of the shared request format that have a row in seed 002's doubles table.
FLAGS = ("rinshan", "haitei", "houtei", "chankan")
# Riichi-only keys: accepted when they say "nothing" (false/0/empty), so one client can send one
# shape of request for every family, but refused when they would change a riichi score.
_RIICHI_ONLY = ("riichi", "double_riichi", "ippatsu", "tenhou", "chiihou", "renhou", "honba", "riichi_sticks",
                "dora_indicators", "ura_indicators")
_MELD_TYPES = ("chi", "pon", "minkan", "kakan", "ankan")


@dataclass(frozen=True)
class Options:
    """House rules of a classical table. ``limit`` None plays without a limit; ``flowers`` False plays
    without flower and season tiles (a Gravon table option); ``loser_hand_doubles`` lets a losing hand
    also count Nur Trumpf / Unreines / Reines Farbenspiel, which common practice keeps for the winner."""

    limit: int | None = DEFAULT_LIMIT
    flowers: bool = True
    loser_hand_doubles: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


def parse_options(rules: object) -> Options:
    if rules is None or rules == PRESET:
        return Options()
    if not isinstance(rules, dict):
        raise InvalidRequestError('"rules" must be "classical" or an object {"preset": "classical", ...}')
    unknown = sorted(k for k in rules if k not in ("preset", "limit", "flowers", "loser_hand_doubles"))
    if unknown:
        raise UnknownRulesError(
            f"unknown classical rule option(s): {', '.join(unknown)}; known: limit, flowers, loser_hand_doubles"
        )
    kwargs: dict = {}
    if "limit" in rules:
        limit = rules["limit"]
        if isinstance(limit, bool) or limit not in LIMITS:
            raise InvalidRequestError(
                f"classical limit must be 1000, 3000, 5000, 10000 or null (no limit), got {limit!r}"
            )
        kwargs["limit"] = limit
    for key in ("flowers", "loser_hand_doubles"):
        if key in rules:
            if not isinstance(rules[key], bool):
                raise InvalidRequestError(f"classical option {key} must be true or false, got {rules[key]!r}")
            kwargs[key] = rules[key]
    return Options(**kwargs)


@dataclass(frozen=True)
class Meld:
    """A set laid out on the table. ``kind`` is the first tile's kind."""

    type: str
    kind: int
    tiles: tuple[Tile, ...]

    @property
    def is_kan(self) -> bool:
        return self.type in ("minkan", "kakan", "ankan")

    @property
    def is_open(self) -> bool:
        # seed 002: a declared concealed kan lies "halbverdeckt" and still counts as concealed
        return self.type != "ankan"


@dataclass
class Hand:
    """One player's hand as the scorer needs it."""

    seat: str
    round_wind: str
    won: bool
    concealed: list[Tile]
    melds: list[Meld] = field(default_factory=list)
    win_tile: Tile | None = None
    tsumo: bool = False
    flowers: list[int] = field(default_factory=list)  # kinds 34-41
    discarder: str | None = None
    flags: dict[str, bool] = field(default_factory=dict)

    def all_tiles(self) -> list[Tile]:
        return self.concealed + [t for m in self.melds for t in m.tiles]


def _wind(request: dict, key: str, default: str | None) -> str | None:
    value = request.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or value.upper() not in WIND_LETTERS or len(value) != 1:
        raise InvalidRequestError(f'"{key}" must be one of E, S, W, N, got {value!r}')
    return value.upper()


def _bool(request: dict, key: str) -> bool:
    value = request.get(key, False)
    if not isinstance(value, bool):
        raise InvalidRequestError(f'"{key}" must be true or false, got {value!r}')
    return value


def _parse_meld(raw: object, index: int) -> Meld:
    where = f"melds[{index}]"
    if not isinstance(raw, dict) or "type" not in raw or "tiles" not in raw:
        raise InvalidRequestError(f'{where} must be an object {{"type": "chi|pon|minkan|kakan|ankan", "tiles": "..."}}')
    kind = raw["type"]
    if kind not in _MELD_TYPES:
        raise InvalidRequestError(f"{where}: unknown meld type {kind!r}; use one of {', '.join(_MELD_TYPES)}")
    tiles = parse_tiles(raw["tiles"])
    kinds = sorted(t.kind for t in tiles)
    if any(k >= NUM_KINDS for k in kinds):
        raise InvalidTilesError(f"{where}: {raw['tiles']!r} holds a flower or face-down tile; melds are suit or honour tiles")
    if kind == "chi":
        ok = len(kinds) == 3 and suit_of(kinds[0]) != "z" and kinds[0] // 9 == kinds[2] // 9 and kinds == [
            kinds[0], kinds[0] + 1, kinds[0] + 2]
        if not ok:
            raise InvalidRequestError(f"{where}: a chi is three consecutive tiles of one suit, got {raw['tiles']!r}")
    else:
        size = 3 if kind == "pon" else 4
        if len(kinds) != size or len(set(kinds)) != 1:
            raise InvalidRequestError(f"{where}: a {kind} is {size} identical tiles, got {raw['tiles']!r}")
    return Meld(kind, kinds[0], tuple(tiles))


def _parse_flowers(raw: object, options: Options) -> list[int]:
    if raw is None:
        return []
    if isinstance(raw, str):
        tiles = parse_tiles(raw)
    elif isinstance(raw, list) and all(isinstance(x, str) for x in raw):
        tiles = [parse_tile(x) for x in raw]
    else:
        raise InvalidRequestError('"flowers" must be a list like ["2f", "6f"] (1f-4f flowers, 5f-8f seasons)')
    kinds = [t.kind for t in tiles]
    bad = [str(t) for t in tiles if not t.is_flower]
    if bad:
        raise InvalidTilesError(f'"flowers" may hold only 1f-8f, got {", ".join(bad)}')
    if len(set(kinds)) != len(kinds):
        raise InvalidTilesError('"flowers" names the same flower or season twice; each exists once')
    if kinds and not options.flowers:
        raise InvalidRequestError('these rules are played without flowers ("flowers": false) but the hand has some')
    return sorted(kinds)


def check_copies(tiles: list[Tile], who: str = "the hand") -> None:
    """No kind more than four times (flowers once) across everything a request names."""
    counts: dict[int, int] = {}
    for t in tiles:
        counts[t.kind] = counts.get(t.kind, 0) + 1
    for kind, n in sorted(counts.items()):
        limit = 1 if kind >= FIRST_FLOWER else 4
        if n > limit:
            raise InvalidTilesError(f"{Tile(kind)} appears {n} times in {who}, but a set has only {limit} of it")


def parse_hand(request: dict, options: Options, *, seat: str | None = None, won: bool | None = None,
               round_wind: str | None = None) -> Hand:
    """Validate one player's part of a request. ``seat``/``won``/``round_wind`` are imposed by a
    table request (the others' hands) and must agree with what the part says itself."""
    if not isinstance(request, dict):
        raise InvalidRequestError("a hand must be a JSON object with at least \"hand\"")
    for key in _RIICHI_ONLY:
        if request.get(key):
            raise InvalidRequestError(f'"{key}" is a riichi rule; classical (Gravon) scoring has no such thing')
    own_seat = _wind(request, "seat_wind", None)
    if seat is not None and own_seat is not None and own_seat != seat:
        raise InvalidRequestError(f'the hand given for seat {seat} says "seat_wind": "{own_seat}"')
    seat = seat or own_seat or "E"
    own_round = _wind(request, "round_wind", None)
    if round_wind is not None and own_round is not None and own_round != round_wind:
        raise InvalidRequestError(f"seat {seat}'s hand says round wind {own_round}, the table says {round_wind}")
    round_wind = round_wind or own_round or "E"
    own_won = request.get("won", True if won is None else won)
    if not isinstance(own_won, bool):
        raise InvalidRequestError(f'"won" must be true or false, got {own_won!r}')
    if won is not None and own_won != won:
        raise InvalidRequestError(f"seat {seat}'s hand says \"won\": {str(own_won).lower()}, but the winner is another seat"
                                  if not won else f"seat {seat} is the winner but its hand says \"won\": false")
    if "hand" not in request:
        raise InvalidRequestError(f'seat {seat}: "hand" (the concealed tiles) is missing')
    concealed = parse_tiles(request["hand"])
    if any(t.is_flower for t in concealed):
        raise InvalidRequestError(f'seat {seat}: put flowers and seasons in "flowers", not in "hand"')
    if any(t.is_back for t in concealed):
        raise InvalidTilesError(f"seat {seat}: a face-down tile (x) cannot be scored; name every tile")
    raw_melds = request.get("melds") or []
    if not isinstance(raw_melds, list):
        raise InvalidRequestError('"melds" must be a list of {"type": ..., "tiles": ...}')
    melds = [_parse_meld(m, i) for i, m in enumerate(raw_melds)]
    flowers = _parse_flowers(request.get("flowers"), options)
    tiles_in_sets = len(concealed) + 3 * len(melds)  # a kan stands for a set of three plus its replacement
    expected = 14 if own_won else 13
    if tiles_in_sets != expected:
        raise InvalidRequestError(
            f"seat {seat}: {'a winning' if own_won else 'a losing'} hand has {expected} tiles counting each meld as 3, "
            f"got {len(concealed)} in \"hand\" and {len(melds)} meld(s) = {tiles_in_sets}"
        )
    hand = Hand(seat=seat, round_wind=round_wind, won=own_won, concealed=concealed, melds=melds, flowers=flowers)
    check_copies(hand.all_tiles(), f"seat {seat}'s hand")
    tsumo = _bool(request, "tsumo")
    flags = {f: _bool(request, f) for f in FLAGS}
    discarder = _wind(request, "discarder", None)
    if not own_won:
        if tsumo or any(flags.values()) or discarder:
            raise InvalidRequestError(f"seat {seat}: tsumo, discarder and the win flags belong to the winning hand only")
        return hand
    if "win_tile" not in request or request["win_tile"] in (None, ""):
        raise InvalidRequestError(f'seat {seat}: "win_tile" (the final tile, also counted in "hand") is missing')
    win = parse_tile(request["win_tile"])
    if all(t.kind != win.kind for t in concealed):
        raise InvalidRequestError(f'seat {seat}: the win tile {win} must also be in "hand" (the concealed tiles)')
    if tsumo and discarder:
        raise InvalidRequestError('"discarder" is for a won discard; a self-drawn win ("tsumo": true) has none')
    if discarder == seat:
        raise InvalidRequestError(f"seat {seat} cannot win on its own discard")
    if flags["rinshan"] or flags["haitei"]:
        if not tsumo:
            raise InvalidRequestError('"rinshan" and "haitei" are about a drawn final tile: set "tsumo": true')
        if flags["rinshan"] and flags["haitei"]:
            raise InvalidRequestError('the final tile is either from the dead wall ("rinshan") or the last of the '
                                      'live wall ("haitei"), not both')
    if flags["rinshan"] and not (any(m.is_kan for m in melds) or flowers):
        raise InvalidRequestError('"rinshan": a replacement tile is drawn only after a kan or a flower, and the hand '
                                  'has neither')
    if (flags["houtei"] or flags["chankan"]) and tsumo:
        raise InvalidRequestError('"houtei" and "chankan" are about a called final tile: "tsumo" must be false')
    hand.win_tile = win
    hand.tsumo = tsumo
    hand.discarder = discarder
    hand.flags = flags
    return hand
