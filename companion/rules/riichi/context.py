"""The analysed hand that yaku and fu are read from.

Two levels, built once each so that no yaku ever re-analyses the tiles:

* :class:`Situation` - one per request: flags, winds, and the tile facts that do
  not depend on how the hand is split (flush, simples, greens, kan count ...); it is
  the checked request itself (``request.Request``), filled in while checking.
* :class:`Reading` - one per interpretation: a decomposition (or seven pairs /
  thirteen orphans) together with one reading of where the winning tile sits.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.hand import is_thirteen_orphans, suit_splits
from companion.rules.riichi.request import CHI, KAN, PON, Request
from companion.tiles import GREEN, NUM_KINDS, RED, WHITE

STANDARD, CHIITOI, KOKUSHI = 0, 1, 2
DRAGONS = frozenset((WHITE, GREEN, RED))
_TERMINAL_OR_HONOR = tuple(k >= 27 or k % 9 in (0, 8) for k in range(NUM_KINDS))


Situation = Request
"""The checked request is the situation: flags, winds, melds as ``sets``, ``full`` counts and tile facts."""


class Reading:
    """One interpretation of the hand: its sets (melds included, each ``(CHI|PON|KAN, first kind,
    concealed)``), pair, wait, and what yaku look at: chi firsts, triplet kinds, concealed triplets,
    whether a triplet is of honours, whether every set and the pair touch a terminal or honour
    (with at least one chi, as chanta and junchan need)."""

    # its fields (mypyc compiles this into a native class with exactly these, setup.py)
    shape: int
    sets: tuple
    chis: tuple
    pons: tuple
    pair: int
    pairs: tuple
    wait: str
    ankou: int
    outside: bool
    honor_pon: bool

    def __init__(self, shape: int, sets: tuple, pair: int, wait: str, chis: tuple = (), pons: tuple = (),
                 ankou: int = 0, outside: bool = False, honor_pon: bool = False, pairs: tuple = ()) -> None:
        self.shape = shape
        self.sets = sets
        self.pair = pair
        self.wait = wait
        self.chis = chis
        self.pons = pons
        self.ankou = ankou
        self.outside = outside
        self.honor_pon = honor_pon
        self.pairs = pairs


def _sets_part(base: int, sets: tuple) -> tuple:
    """(concealed sets, chi firsts, triplet kinds, all sets touch a terminal) of one suit's sets."""
    absolute = []
    chis = []
    pons = []
    outside = True
    for kind, pos in sets:
        if kind == "chi":
            absolute.append((CHI, base + pos, True))
            chis.append(base + pos)
            outside = outside and pos in (0, 6)
        else:
            absolute.append((PON, base + pos, True))
            pons.append(base + pos)
            outside = outside and pos in (0, 8)
    return (tuple(absolute), tuple(chis), tuple(pons), outside)


# The same sets turn up in many suit patterns (with each possible pair, or none), so a new pattern
# is mostly put together from sets read before.
_SETS_PARTS: tuple[dict, dict, dict] = ({}, {}, {})


def _suit_parts(base: int, counts: tuple[int, ...]) -> tuple[tuple, ...]:
    """Ways to cover one suit: (pair kind or -1, concealed sets, chi firsts, triplet kinds, all sets
    touch a terminal), from the shared table :func:`companion.hand.suit_splits`.

    Memoised per suit (in ``_PARTS``) in the form the readings need, so a new hand mostly hits
    suits seen before: this is what makes a cold hand cheap compared with splitting all 34 counts
    at once."""
    memo = _SETS_PARTS[base // 9]
    out = []
    for pair, sets in suit_splits(counts):
        part = memo.get(sets)
        if part is None:
            if len(memo) > 50000:
                memo.clear()
            part = memo[sets] = _sets_part(base, sets)
        out.append((base + pair if pair >= 0 else -1, *part))
    return tuple(out)


_PARTS: tuple[dict, dict, dict] = ({}, {}, {})
_HONOR_PARTS: dict[tuple[int, ...], tuple] = {}


def _honor_part(counts: tuple[int, ...]) -> tuple:
    """(pair kind or -1, triplet sets, triplet kinds) of the honours, or () if they cannot be split."""
    sets = []
    pair = -1
    for i, c in enumerate(counts):
        if c == 3:
            sets.append((PON, 27 + i, True))
        elif c == 2:
            if pair >= 0:
                return ()
            pair = 27 + i
        elif c:
            return ()
    return (pair, tuple(sets), tuple(k for _, k, _ in sets))


def _combine(suits: tuple[tuple[int, ...], ...]) -> list[tuple]:
    """(pair, sets, chis, pons, all sets outside, honour triplet) for every split of the counts
    given per suit (m, p, s: 9 each; z: 7)."""
    key = suits[3]
    honors = _HONOR_PARTS.get(key)
    if honors is None:
        honors = _HONOR_PARTS[key] = _honor_part(key)
    if not honors:
        return []
    parts = []
    for suit in (0, 1, 2):
        key = suits[suit]
        cache = _PARTS[suit]
        found = cache.get(key)
        if found is None:
            if len(cache) > 50000:
                cache.clear()
            found = cache[key] = _suit_parts(9 * suit, key)
        if not found:
            return []
        parts.append(found)
    pair, honor_sets, honor_pons = honors
    honor = bool(honor_sets)
    parts_m, parts_p, parts_s = parts
    # a suit's splits all have a pair or all have none (its tile count says which): one pair in all
    if (parts_m[0][0] >= 0) + (parts_p[0][0] >= 0) + (parts_s[0][0] >= 0) + (pair >= 0) != 1:
        return []
    if len(parts_m) == 1 and len(parts_p) == 1 and len(parts_s) == 1:  # the usual case: one split
        (pm, sm, cm, om, xm), (pp, sp, cp, op, xp), (ps, ss, cs, os_, xs) = parts_m[0], parts_p[0], parts_s[0]
        return [(max(pm, pp, ps, pair), sm + sp + ss + honor_sets, cm + cp + cs, om + op + os_ + honor_pons,
                 xm and xp and xs, honor)]
    out = []
    for pm, sm, cm, om, xm in parts_m:
        for pp, sp, cp, op, xp in parts_p:
            for ps, ss, cs, os_, xs in parts_s:
                out.append((max(pm, pp, ps, pair), sm + sp + ss + honor_sets, cm + cp + cs,
                            om + op + os_ + honor_pons, xm and xp and xs, honor))
    return out


def split(counts: list[int]) -> list[tuple[int, tuple]]:
    """All (pair, concealed sets) splits of the counts; the same splits as
    :func:`companion.hand.decompose` (a test checks that), sets sorted by kind."""
    suits = (tuple(counts[:9]), tuple(counts[9:18]), tuple(counts[18:27]), tuple(counts[27:34]))
    return [(c[0], c[1]) for c in _combine(suits)]


def _waits(pair: int, sets: tuple, win: int) -> list[tuple[str, int]]:
    """Where the winning tile can sit: (wait, index of the set or -1 for the pair); equal sets read once."""
    shapes = []
    if pair == win:
        shapes.append(("tanki", -1))
    seen = []
    for i, (shape, first, _) in enumerate(sets):
        if first > win or first < win - 2:
            continue
        if shape == PON:
            if first == win and first not in seen:
                seen.append(first)
                shapes.append(("shanpon", i))
        elif -first - 1 not in seen:
            seen.append(-first - 1)
            if win == first + 1:
                shapes.append(("kanchan", i))
            elif (win == first + 2 and first % 9 == 0) or (win == first and first % 9 == 6):
                shapes.append(("penchan", i))
            else:
                shapes.append(("ryanmen", i))
    return shapes


def readings(s: Situation) -> Iterator[Reading]:
    """Every interpretation of the concealed tiles with the winning tile ``s.win``."""
    counts = s.counts
    win = s.win
    ron = not s.tsumo
    melds = s.sets
    m_chis: tuple = ()
    m_pons: tuple = ()
    m_ankou = 0
    m_outside = True
    m_honor = False
    for shape, first, concealed in melds:
        if shape == CHI:
            m_chis += (first,)
            m_outside = m_outside and first % 9 in (0, 6)
        else:
            m_pons += (first,)
            m_ankou += concealed
            if first >= 27:
                m_honor = True
            else:
                m_outside = m_outside and first % 9 in (0, 8)
    for pair, sets, chis, pons, outside, honor in _combine(s.suits):
        if melds:
            chis += m_chis
            pons += m_pons
            outside = outside and m_outside
            honor = honor or m_honor
        outside = outside and bool(chis) and _TERMINAL_OR_HONOR[pair]
        ankou = len(pons) - len(m_pons) + m_ankou
        for wait, index in _waits(pair, sets, win):
            if wait == "shanpon" and ron:
                # a triplet completed by a discard counts as open (fu, sanankou, suuankou)
                listed = list(sets)
                listed[index] = (PON, win, False)
                yield Reading(STANDARD, tuple(listed) + melds, pair, wait, chis, pons, ankou - 1, outside, honor)
            else:
                yield Reading(STANDARD, sets + melds, pair, wait, chis, pons, ankou, outside, honor)
    if s.n_melds == 0:
        present = s.present
        n_kinds = present.bit_count()
        # 14 tiles of 7 kinds are seven pairs exactly when no kind has more than two
        if n_kinds == 7 and max(counts) == 2:
            yield Reading(CHIITOI, (), -1, "tanki", pairs=tuple(k for k in range(NUM_KINDS) if counts[k]))
        if n_kinds == 13 and not present & ~_TH_MASK and is_thirteen_orphans(counts):
            yield Reading(KOKUSHI, (), -1, "kokushi")


_TH_MASK = sum(1 << k for k in range(NUM_KINDS) if _TERMINAL_OR_HONOR[k])


def _text(kinds: list[int]) -> str:
    from companion.tiles import Tile, format_tiles

    return format_tiles(Tile(k) for k in kinds)


SET_TEXT = {(shape, k): _text([k, k + 1, k + 2] if shape == CHI else [k] * (3 if shape == PON else 4))
            for shape in (CHI, PON, KAN) for k in range(NUM_KINDS) if shape != CHI or (k < 27 and k % 9 < 7)}
PAIR_TEXT = tuple(_text([k, k]) for k in range(NUM_KINDS))
_SET_LABEL = {(shape, k, concealed): text if concealed else f"({text})"
              for (shape, k), text in SET_TEXT.items() for concealed in (False, True)}


def describe_reading(h: Reading) -> str:
    """``123m 456p (789s) 111z 22z``: open melds in brackets, kans as four tiles."""
    if h.shape == KOKUSHI:
        return "thirteen orphans"
    if h.shape == CHIITOI:
        return " ".join(PAIR_TEXT[k] for k in h.pairs)
    label = _SET_LABEL
    return " ".join([label[st] for st in h.sets]) + " " + PAIR_TEXT[h.pair]


__all__ = ["STANDARD", "CHIITOI", "KOKUSHI", "CHI", "PON", "KAN", "Situation", "Reading", "readings",
           "describe_reading", "DRAGONS"]
