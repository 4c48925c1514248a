"""Reading and checking a riichi scoring request.

Everything a scorer at a real table can get wrong is caught here, before any
hand analysis, with a message that says what is wrong: unknown keys, tile
counts, melds that are no melds, a winning tile that is not in the hand, more
than four copies of a tile, red fives the rules do not have, and flags that
contradict each other (tenhou on a ron, ippatsu without riichi, ...).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, cast

from companion.errors import InvalidRequestError, InvalidTilesError
from companion.rules.riichi.options import RiichiOptions, red_limits
from companion.tiles import BACK, EAST, GREEN_KINDS, NUM_KINDS, WIND_LETTERS, Tile, format_tiles, parse_tiles

FLAGS = ("riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei",
         "tenhou", "chiihou", "renhou")
REQUEST_KEYS = frozenset(("rules", "hand", "melds", "win_tile", "tsumo", "seat_wind", "round_wind",
                          "honba", "riichi_sticks", "dora_indicators", "ura_indicators", "discarder")
                         + FLAGS)
MELD_TYPES = ("chi", "pon", "minkan", "kakan", "ankan")
CHI, PON, KAN = 0, 1, 2


class Meld:
    """A called (or concealed-kan) set: its shape, first kind, whether it keeps the hand closed."""

    # its fields (mypyc compiles this into a native class with exactly these, setup.py)
    type: str
    shape: int
    first: int
    tiles: tuple[int, ...]
    concealed: bool
    reds: int
    set: tuple[int, int, bool]

    def __init__(self, type_: str, shape: int, first: int, tiles: tuple[int, ...]) -> None:
        self.type = type_
        self.shape = shape
        self.first = first
        self.tiles = tiles  # tile ints (kind, plus RED_BIT for a red five)
        self.concealed = type_ == "ankan"
        self.reds = 0 if max(tiles) < RED_BIT else sum(1 for v in tiles if v >= RED_BIT)
        self.set = (shape, first, self.concealed)  # as a reading lists its sets


class Request:
    """A checked request: plain ints and bools, ready for the scorer, with the tile facts that
    every reading of the hand shares (this object is the scorer's ``Situation``).

    ``facts`` gathers everything a ``situation`` yaku row may read (the flags as given, kan count,
    and the tile facts), so that the rows that hold can be memoised per facts."""

    # its fields (mypyc compiles this into a native class with exactly these, setup.py)
    options: RiichiOptions
    opts: RiichiOptions
    full: list[int] | tuple[int, ...]
    sets: tuple
    n_melds: int
    n_kans: int
    all_simple: bool
    all_th: bool
    has_honor: bool
    n_suits: int
    all_green: bool
    all_honor: bool
    all_terminal: bool
    counts: tuple[int, ...]
    suits: tuple[tuple[int, ...], ...]
    present: int
    facts: tuple
    melds: list[Meld]
    win: int
    win_red: bool
    tsumo: bool
    seat: int
    round: int
    dealer: bool
    honba: int
    riichi_sticks: int
    dora: tuple[int, ...]
    ura: tuple[int, ...]
    aka: int
    closed: bool
    discarder: int | None
    riichi: bool
    double_riichi: bool
    ippatsu: bool
    rinshan: bool
    chankan: bool
    haitei: bool
    houtei: bool
    tenhou: bool
    chiihou: bool
    renhou: bool


def _flag(request: dict, key: str) -> bool:
    value = request.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise InvalidRequestError(f'"{key}" must be true or false, got {value!r}')
    return value


def _count(request: dict, key: str) -> int:
    value = request.get(key, 0)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidRequestError(f'"{key}" must be a whole number 0 or more, got {value!r}')
    return value


def _wind(request: dict, key: str) -> int:
    """A wind that is not plainly E/S/W/N: lower case is fine, null is East (a seat or round wind's
    default; a null discarder never gets here), anything else is an error."""
    value = request.get(key)
    if value is None:
        return EAST
    if not isinstance(value, str) or value.upper() not in WIND_LETTERS or len(value) != 1:
        raise InvalidRequestError(f'"{key}" must be one of E, S, W, N, got {value!r}')
    return EAST + WIND_LETTERS.index(value.upper())


_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
_DIGITS = {str(d): d for d in range(10)}
RED_BIT = 64  # a tile as an int: its kind, plus RED_BIT for a red five


@lru_cache(maxsize=8192)
def _fast_tiles(text: str) -> tuple[int, ...] | None:
    """The common case (digits and m/p/s/z, at most 4 copies) as ints without regex or objects;
    ``None`` sends anything else to the full parser, which also words the errors."""
    out: list[int] = []
    pending: list[int] = []
    for ch in text:
        d = _DIGITS.get(ch)
        if d is not None:
            pending.append(d)
            continue
        base = _SUIT_BASE.get(ch)
        if base is None:
            if ch == " ":
                continue
            return None
        for d in pending:
            if d == 0:
                if base == 27:
                    return None
                out.append(base + 4 + RED_BIT)
            elif base == 27 and d > 7:
                return None
            else:
                out.append(base + d - 1)
        pending.clear()
    if pending:
        return None
    return tuple(out)


def _hand_info(tiles: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...], int, int, int]:
    """The number of tiles, their counts per suit (m, p, s: 9 each; z: 7), the bit mask of kinds
    present, the number of red fives, and the red fives per suit (4 bits each: m, p, s)."""
    counts = [0] * NUM_KINDS
    present = 0  # bit k set: kind k is somewhere in the hand (melds are added later)
    aka = 0
    reds_per_suit = 0
    for v in tiles:
        if v >= RED_BIT:
            aka += 1
            v -= RED_BIT
            reds_per_suit += 1 << 4 * (v // 9)
        counts[v] += 1
        present |= 1 << v
    return (len(tiles), (tuple(counts[:9]), tuple(counts[9:18]), tuple(counts[18:27]), tuple(counts[27:])), present,
            aka, reds_per_suit)


# A hand in mpsz is a few suit groups ("336688m", "056677p", "77s"). A new hand is almost always made
# of groups seen before, so each group is read once and the hand is put together from the pieces.
_GROUP = re.compile(r"[0-9]+[mpsz]| +|.", re.S)
_NO_TILES = ((0,) * 9, (0,) * 9, (0,) * 9, (0,) * 7)
_GROUPS: dict[str, tuple | None] = {}


def _group(token: str) -> tuple | None:
    """(suit index, number of tiles, counts of that suit, present mask, red fives) of one group;
    suit -1 for spaces; ``None`` if the full parser has to look at it (and word the error)."""
    if token[0] == " ":
        return (-1, 0, (), 0, 0)
    suit = "mpsz".find(token[-1])
    if suit < 0 or len(token) < 2:
        return None
    size = 7 if suit == 3 else 9
    base = 9 * suit
    counts = [0] * size
    aka = 0
    for ch in token[:-1]:
        d = ord(ch) - 48
        if d == 0:
            if suit == 3:
                return None
            counts[4] += 1
            aka += 1
        elif d > size:
            return None
        else:
            counts[d - 1] += 1
    present = 0
    for i in range(size):
        if counts[i]:
            present |= 1 << (base + i)
    return (suit, len(token) - 1, tuple(counts), present, aka)


def _fast_hand(text: str) -> tuple[int, tuple[tuple[int, ...], ...], int, int, int] | None:
    """The hand as :func:`_hand_info` gives it, put together from memoised suit groups."""
    groups = _GROUPS
    n = 0
    suits = list(_NO_TILES)
    seen = 0
    present = 0
    aka = 0
    reds_per_suit = 0
    for token in _GROUP.findall(text):
        info = groups.get(token)
        if info is None:
            if token in groups:
                return None
            if len(groups) > 100_000:
                groups.clear()
            info = groups[token] = _group(token)
            if info is None:
                return None
        suit, size, counts, bits, reds = info
        if suit < 0:
            continue
        if seen >> suit & 1:  # the same suit written twice ("1m2m3m")
            counts = tuple(a + b for a, b in zip(suits[suit], counts, strict=True))
        seen |= 1 << suit
        suits[suit] = counts
        n += size
        present |= bits
        if reds:
            aka += reds
            reds_per_suit += reds << 4 * suit
    return n, tuple(suits), present, aka, reds_per_suit


def _tiles(value: object, what: str, backs: bool = False) -> tuple[int, ...]:
    """mpsz text, or a list of mpsz texts, as tile ints (copies are checked for the whole request later)."""
    if type(value) is str:
        fast = _fast_tiles(value)
        if fast is not None:
            return fast
    elif isinstance(value, list | tuple):
        try:
            value = " ".join(value)
        except TypeError:
            raise InvalidRequestError(f"{what} must be mpsz text or a list of mpsz texts") from None
        fast = _fast_tiles(value)
        if fast is not None:
            return fast
    else:
        raise InvalidRequestError(f"{what} must be tiles in mpsz notation (e.g. \"123m0p55z\"), got {value!r}")
    try:
        tiles = parse_tiles(value, max_red_per_suit=4, max_copies=4)
    except InvalidTilesError as exc:
        raise InvalidTilesError(f"{what}: {exc}") from None
    for t in tiles:
        if t.is_flower:
            raise InvalidTilesError(f"{what}: riichi is played without flowers and seasons ({t})")
        if t.is_back and not backs:
            raise InvalidTilesError(f"{what}: a face-down tile (x) cannot be scored here; name every tile")
    return tuple(t.kind + (RED_BIT if t.red else 0) for t in tiles)


def _show(tiles: tuple[int, ...] | list[int]) -> str:
    return format_tiles(Tile(v & 63, v >= RED_BIT) if v & 63 != BACK else Tile(BACK) for v in tiles)


_MELDS: dict[tuple[object, object], Meld] = {}


def _parse_meld(raw: object, index: int) -> Meld:
    """A checked meld; a (type, tiles) pair read before is looked up (a Meld is never changed)."""
    if type(raw) is dict:
        key = (raw.get("type"), raw.get("tiles"))
        if type(key[1]) is not str or type(key[0]) is not str:  # only text is looked up (and hashable)
            return _read_meld(raw, index)
        meld = _MELDS.get(key) if len(raw) == 2 else None
        if meld is not None:
            return meld
        meld = _read_meld(raw, index)
        if len(_MELDS) > 20_000:
            _MELDS.clear()
        _MELDS[key] = meld
        return meld
    return _read_meld(raw, index)


def _read_meld(raw: object, index: int) -> Meld:
    if type(raw) is not dict:
        raise InvalidRequestError(f'melds[{index}] must be an object {{"type": ..., "tiles": ...}}')
    type_ = raw.get("type")
    if len(raw) != 2 or type_ not in MELD_TYPES or "tiles" not in raw:
        _meld_shape_error(raw, index)
    text = raw["tiles"]
    tiles = _fast_tiles(text) if type(text) is str else None
    if tiles is None:
        tiles = _tiles(text, f"melds[{index}] ({type_})", backs=type_ == "ankan")
    kinds = sorted(tiles) if tiles and max(tiles) < RED_BIT else sorted([v & 63 for v in tiles])
    if not kinds:
        raise InvalidTilesError(f"melds[{index}]: {type_} has no tiles")
    if kinds[-1] == BACK:
        tiles, kinds = _ankan_backs(tiles, kinds, text, index)
    if type_ == "chi":
        first = kinds[0]
        if len(kinds) != 3 or first >= 27 or first % 9 > 6 or kinds[1] != first + 1 or kinds[2] != first + 2:
            raise InvalidTilesError(f"melds[{index}]: chi {raw['tiles']!r} is not three consecutive tiles "
                                    "of one suit")
        return Meld(type_, CHI, first, tiles)
    size = 3 if type_ == "pon" else 4
    if len(kinds) != size or kinds[0] != kinds[-1]:
        raise InvalidTilesError(f"melds[{index}]: {type_} {raw['tiles']!r} must be {size} identical tiles")
    return Meld(cast(str, type_), PON if size == 3 else KAN, kinds[0], tiles)


def _meld_shape_error(raw: dict, index: int) -> None:
    where = f"melds[{index}]"
    unknown = sorted(set(raw) - {"type", "tiles"})
    if unknown:
        raise InvalidRequestError(f"{where}: unknown key{'s' if len(unknown) > 1 else ''} "
                                  f"{', '.join(map(repr, unknown))}; a meld has \"type\" and \"tiles\"")
    if raw.get("type") not in MELD_TYPES:
        raise InvalidRequestError(f"{where}: type must be one of {', '.join(MELD_TYPES)}, got {raw.get('type')!r}")
    raise InvalidRequestError(f'{where}: "tiles" is missing')


def _ankan_backs(tiles: tuple[int, ...], kinds: list[int], shown: str,
                 index: int) -> tuple[tuple[int, ...], list[int]]:
    """A concealed kan is usually shown with its two outer tiles face down."""
    faces = [v for v in tiles if v & 63 != BACK]
    if len(tiles) != 4 or not faces or len({v & 63 for v in faces}) != 1:
        raise InvalidTilesError(f"melds[{index}]: ankan {shown!r} must be four tiles of one kind "
                                "(face-down tiles x allowed if at least one face is shown)")
    kind = faces[0] & 63
    return tuple(faces) + (kind,) * (4 - len(faces)), [kind] * 4


def parse_request(request: object, options: RiichiOptions) -> Request:
    """Check a request against the contract and these rules; raise a CompanionError on any problem."""
    if not isinstance(request, dict):
        raise InvalidRequestError("a scoring request must be a JSON object")
    if not request.keys() <= REQUEST_KEYS:
        unknown = sorted(k for k in request if k not in REQUEST_KEYS)
        hint = " (riichi has no flowers)" if "flowers" in unknown else ""
        raise InvalidRequestError(f"unknown request key{'s' if len(unknown) > 1 else ''} "
                                  f"{', '.join(map(repr, unknown))}{hint}; known: {', '.join(sorted(REQUEST_KEYS))}")
    r = Request()
    r.options = r.opts = options
    get = request.get
    tsumo = get("tsumo", False)
    flags: tuple[Any, ...]  # checked below: any JSON value until then
    if tsumo is False and request.keys().isdisjoint(_FLAG_SET):  # most requests name no situation flag
        flags = _NO_FLAGS
    elif tsumo is True and request.keys().isdisjoint(_FLAG_SET):
        flags = _TSUMO_ONLY
    else:
        flags = (get("riichi", False), get("double_riichi", False), get("ippatsu", False), get("rinshan", False),
                 get("chankan", False), get("haitei", False), get("houtei", False), get("tenhou", False),
                 get("chiihou", False), get("renhou", False), tsumo)
        for flag in flags:
            if flag is not False and flag is not True:
                flags = _flags(request)  # names the bad one
                break
    (r.riichi, r.double_riichi, r.ippatsu, r.rinshan, r.chankan, r.haitei, r.houtei, r.tenhou, r.chiihou,
     r.renhou, r.tsumo) = flags
    seat = get("seat_wind", "E")
    r.seat = _WIND_KIND[seat] if type(seat) is str and seat in _WIND_KIND else _wind(request, "seat_wind")
    rnd = get("round_wind", "E")
    r.round = _WIND_KIND[rnd] if type(rnd) is str and rnd in _WIND_KIND else _wind(request, "round_wind")
    r.dealer = r.seat == EAST
    value = get("honba", 0)
    r.honba = value if type(value) is int and value >= 0 else _count(request, "honba")
    value = get("riichi_sticks", 0)
    r.riichi_sticks = value if type(value) is int and value >= 0 else _count(request, "riichi_sticks")
    by = get("discarder")
    r.discarder = None if by is None else _WIND_KIND[by] if type(by) is str and by in _WIND_KIND \
        else _wind(request, "discarder")

    if "hand" not in request:
        raise InvalidRequestError('"hand" is missing: the concealed tiles including the winning tile')
    text = request["hand"]
    info = _fast_hand(text) if type(text) is str else None
    if info is None:
        info = _hand_info(_tiles(text, "hand"))
    n_tiles, suits, present, aka, reds_per_suit = info
    concealed = suits[0] + suits[1] + suits[2] + suits[3]
    raw_melds = get("melds") or []
    if type(raw_melds) is not list:
        raise InvalidRequestError('"melds" must be a list of {"type": ..., "tiles": ...}')
    if len(raw_melds) > 4:
        raise InvalidRequestError(f"a hand has at most 4 melds, got {len(raw_melds)}")
    melds = [_parse_meld(m, i) for i, m in enumerate(raw_melds)]
    r.melds = melds
    expected = 14 - 3 * len(melds)
    if n_tiles != expected:
        with_melds = f"with {len(melds)} meld{'s' if len(melds) != 1 else ''}" if melds else "without melds"
        raise InvalidRequestError(f"hand {_show(_tiles(text, 'hand'))!r} has {n_tiles} tiles; {with_melds} the "
                                  f"concealed part including the winning tile has {expected}")

    if "win_tile" not in request:
        raise InvalidRequestError('"win_tile" is missing: which tile completed the hand')
    value = request["win_tile"]
    win = _ONE_TILE.get(value) if type(value) is str else None
    if win is None:
        win_tiles = _tiles(value, "win_tile")
        if len(win_tiles) != 1:
            raise InvalidRequestError(f"win_tile must be exactly one tile, got {request['win_tile']!r}")
        win = win_tiles[0]
    kind = win & 63
    # counts hold a red five as a five; a red winning tile needs a red five of its suit in the hand
    if not concealed[kind] or (win >= RED_BIT and not reds_per_suit >> 4 * (kind // 9) & 15):
        raise InvalidRequestError(f"the winning tile {_show((win,))} is not in the hand "
                                  f"{_show(_tiles(text, 'hand'))}: \"hand\" holds the concealed tiles including "
                                  "the winning tile")
    r.win = kind
    r.win_red = win >= RED_BIT

    dora = _indicators(get("dora_indicators"), "dora_indicators")
    ura = _indicators(get("ura_indicators"), "ura_indicators")
    if (len(dora) > 1 or len(ura) > 1) and (len(dora) > 5 or len(ura) > 5 or not options.kan_dora):
        _check_indicators(dora, ura, options)  # only an error gets here: it words it

    full: tuple[int, ...] | list[int] = concealed
    n_kans = 0
    closed = True
    if melds:
        grown = list(concealed)
        for m in melds:
            closed = closed and m.concealed
            first = m.first
            if m.shape == CHI:
                present |= _MELD_BITS[first]
                grown[first] += 1
                grown[first + 1] += 1
                grown[first + 2] += 1
            else:
                present |= _BIT[first]
                grown[first] += 3
                if m.shape == KAN:
                    grown[first] += 1
                    n_kans += 1
            aka += m.reds
        full = grown
    counts = full
    if dora or ura:
        with_ind = list(full)
        for v in dora:
            with_ind[v & 63] += 1
        for v in ura:
            with_ind[v & 63] += 1
        counts = with_ind
    ind_reds = sum(v >= RED_BIT for v in dora + ura) if (dora or ura) and max(dora + ura) >= RED_BIT else 0
    # one red five is within every rule set that has red fives at all: only more need the full check
    if (aka or ind_reds) and (aka + ind_reds > 1 or not options.red_fives) or max(counts) > 4:
        _check_copies(reds_per_suit, melds, dora, ura, list(counts), options)
    r.counts = concealed
    r.suits = suits
    r.full = full
    r.present = present
    r.sets = tuple([m.set for m in melds]) if melds else ()
    r.n_melds = len(melds)
    r.n_kans = n_kans
    r.all_simple = not present & _TH_MASK
    r.all_th = not present & ~_TH_MASK
    r.has_honor = bool(present & _HONOR_MASK)
    r.n_suits = bool(present & 0x1FF) + bool(present & 0x3FE00) + bool(present & 0x7FC0000)
    r.all_green = not present & ~_GREEN_MASK
    r.all_honor = not present & ~_HONOR_MASK
    r.all_terminal = not present & ~_TERMINAL_MASK
    r.facts = (flags, n_kans, r.all_simple, r.all_th, r.n_suits, r.has_honor, r.all_honor, r.all_terminal,
               r.all_green)
    r.aka = aka  # red fives among the indicators are no dora of the hand
    r.dora = tuple([v & 63 for v in dora]) if ind_reds else dora
    r.ura = tuple([v & 63 for v in ura]) if ind_reds else ura
    r.closed = closed
    if True in flags[:10]:
        _check_flags(r, bool(melds), n_kans > 0)
    elif ura or r.discarder is not None:  # no flag set: only these two can contradict
        if ura:
            raise InvalidRequestError(_URA_WITHOUT_RIICHI)
        _check_discarder(r)
    return r


def _indicators(value: object, what: str) -> tuple[int, ...]:
    """Dora or ura indicators: a list of tile texts (or one mpsz text), usually one tile each."""
    if not value:
        return ()
    if type(value) is list:
        try:
            out = tuple(map(_ONE_TILE.get, value))  # the usual form: one tile per text
        except TypeError:  # an unhashable item: the full reader names it
            return _tiles(value, what)
        if None not in out:
            return cast(tuple[int, ...], out)
    return _tiles(value, what)


_BIT = tuple(1 << k for k in range(NUM_KINDS))
_TH_MASK = sum(1 << k for k in range(NUM_KINDS) if k >= 27 or k % 9 in (0, 8))
_HONOR_MASK = sum(1 << k for k in range(27, NUM_KINDS))
_TERMINAL_MASK = _TH_MASK & ~_HONOR_MASK
_GREEN_MASK = sum(1 << k for k in GREEN_KINDS)
_MELD_BITS = tuple(7 << k if k < 32 else 0 for k in range(NUM_KINDS))
_ALL_FLAGS = (*FLAGS, "tsumo")
_FLAG_SET = frozenset(FLAGS)
_NO_FLAGS = (False,) * 11
_TSUMO_ONLY = (False,) * 10 + (True,)
_WIND_KIND = {w: EAST + i for i, w in enumerate(WIND_LETTERS)}
_ONE_TILE = {f"{d}{suit}": base + (4 + RED_BIT if d == 0 else d - 1) for suit, base in _SUIT_BASE.items()
             for d in range(10 if suit != "z" else 8) if suit != "z" or d > 0}
"""One tile in mpsz (``"0p"`` a red five) as a tile int: the usual winning tile and indicator."""


def _flags(request: dict) -> tuple[bool, ...]:
    """The flags read one by one, so that an error names the bad one."""
    return tuple(_flag(request, key) for key in _ALL_FLAGS)


def _check_indicators(dora: tuple[int, ...], ura: tuple[int, ...], options: RiichiOptions) -> None:
    for what, ind in (("dora_indicators", dora), ("ura_indicators", ura)):
        if len(ind) > 5:
            raise InvalidRequestError(f"{what}: at most 5 indicators (one plus one per kan), got {len(ind)}")
        if len(ind) > 1 and not options.kan_dora:
            raise InvalidRequestError(f"{what}: these rules use no kan dora, so at most one indicator")


def _check_copies(hand_reds: int, melds: list[Meld], dora: tuple[int, ...], ura: tuple[int, ...],
                  counts: list[int], options: RiichiOptions) -> None:
    """More than 4 copies anywhere, or red fives these rules do not have (``hand_reds``: the hand's
    red fives per suit as :func:`_hand_info` gives them)."""
    if max(counts) > 4:
        k = next(k for k in range(NUM_KINDS) if counts[k] > 4)
        raise InvalidTilesError(f"{Tile(k)} appears {counts[k]} times in hand, melds and indicators together, "
                                "but a set has only 4 of it")
    reds = [hand_reds & 15, hand_reds >> 4 & 15, hand_reds >> 8 & 15]
    for group in (*(m.tiles for m in melds), dora, ura):
        if group and max(group) >= RED_BIT:
            for v in group:
                if v >= RED_BIT:
                    reds[(v & 63) // 9] += 1
    if reds[0] <= 1 and reds[2] <= 1 and sum(reds) <= options.red_fives and reds[1] <= (2 if options.red_fives == 4
                                                                                          else 1):
        return  # the common case: as many red fives as these rules have, or fewer
    limits = red_limits(options)
    for suit, (n, most) in enumerate(zip(reds, limits, strict=True)):
        if n > most:
            red = Tile(9 * suit + 4, True)
            if options.red_fives == 0:
                raise InvalidTilesError(f"red five {red}: the rules {options.preset} play without red fives "
                                        "(write 5 instead of 0, or set the option red_fives)")
            raise InvalidTilesError(f"{n} red fives {red}, but the rules {options.preset} have {most} of them")
    if sum(reds) > options.red_fives:
        raise InvalidTilesError(f"{sum(reds)} red fives, but the rules {options.preset} have {options.red_fives}")


_URA_WITHOUT_RIICHI = "contradicting flags: ura dora indicators are only turned over for a riichi hand"


def _check_discarder(r: Request) -> None:
    if r.tsumo:
        raise InvalidRequestError("contradicting flags: a discarder was given for a tsumo")
    if r.discarder == r.seat:
        raise InvalidRequestError("contradicting flags: the winner cannot be the discarder")


def _check_flags(r: Request, has_melds: bool, has_kan: bool) -> None:
    def bad(message: str) -> InvalidRequestError:
        return InvalidRequestError(f"contradicting flags: {message}")

    if r.double_riichi:
        r.riichi = True  # double riichi is a riichi (ura dora, ippatsu)
    if r.riichi and not r.closed:
        raise bad("riichi needs a closed hand (only concealed kans may be melded)")
    if r.ippatsu and not r.riichi:
        raise bad("ippatsu without riichi")
    if r.ura and not r.riichi:
        raise InvalidRequestError(_URA_WITHOUT_RIICHI)
    if r.rinshan:
        if not r.tsumo:
            raise bad("rinshan (win on the kan replacement tile) is always a tsumo, not a ron")
        if not has_kan:
            raise bad("rinshan needs a kan among the melds")
        if r.haitei:
            raise bad("rinshan and haitei: the replacement tile is not the last tile of the wall")
        if r.ippatsu:
            raise bad("rinshan and ippatsu: the riichi player's own kan ends the ippatsu chance")
    if r.chankan and r.tsumo:
        raise bad("chankan (robbing a kan) is a ron, not a tsumo")
    if r.chankan and r.houtei:
        raise bad("chankan and houtei: a robbed kan tile is not the last discard")
    if r.haitei and not r.tsumo:
        raise bad("haitei is won by tsumo on the last wall tile; use houtei for a ron on the last discard")
    if r.houtei and r.tsumo:
        raise bad("houtei is a ron on the last discard; use haitei for a tsumo on the last tile")
    if r.discarder is not None:
        _check_discarder(r)
    if not (r.tenhou or r.chiihou or r.renhou):
        return
    first_turn = [f for f in ("tenhou", "chiihou", "renhou") if getattr(r, f)]
    if len(first_turn) > 1:
        raise bad(" and ".join(first_turn) + " exclude each other")
    name = first_turn[0]
    others = [f for f in ("riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei") if getattr(r, f)]
    if others:
        raise bad(f"{name} is a win before the first draw or discard, so {', '.join(others)} cannot apply")
    if has_melds:
        raise bad(f"{name} is impossible with melds")
    if name == "tenhou" and not (r.dealer and r.tsumo):
        raise bad("tenhou is the dealer's (seat East) tsumo on the first draw")
    if name == "chiihou" and (r.dealer or not r.tsumo):
        raise bad("chiihou is a non-dealer's tsumo on the first draw")
    if name == "renhou" and (r.dealer or r.tsumo):
        raise bad("renhou is a non-dealer's ron before the first own draw")
