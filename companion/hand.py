"""Hand analysis shared by every rule family.

Everything works on the concealed part of a hand as 34 counts (see
``companion.tiles.to_counts``); melds that were called are fixed elsewhere and
only enter as ``n_melds``, the number of sets the concealed part no longer has
to provide.

>>> from companion.tiles import parse_tiles, to_counts
>>> [str(d) for d in decompose(to_counts(parse_tiles("111222333m45677p")))]
['123m 123m 123m 456p 77p', '111m 222m 333m 456p 77p']
>>> waits(to_counts(parse_tiles("1112345678999m")))  # nine gates waits on all nine
[0, 1, 2, 3, 4, 5, 6, 7, 8]
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from itertools import product
from typing import NamedTuple

from companion.tiles import NUM_KINDS, TERMINALS_AND_HONORS, Tile, format_tiles

Set = tuple[str, int]  # ("chi", first kind) or ("pon", kind)


class Decomposition(NamedTuple):
    """A standard hand split: the pair's kind and the concealed sets, sorted."""

    pair: int
    sets: tuple[Set, ...]

    def __str__(self) -> str:
        parts = []
        for kind, first in self.sets:
            tiles = [first, first + 1, first + 2] if kind == "chi" else [first] * 3
            parts.append(format_tiles(Tile(k) for k in tiles))
        parts.append(format_tiles([Tile(self.pair)] * 2))
        return " ".join(parts)


def decompose(counts: list[int] | tuple[int, ...], n_melds: int = 0) -> list[Decomposition]:
    """Every way to split the counts into ``4 - n_melds`` sets and one pair."""
    key = tuple(counts)
    if len(key) != NUM_KINDS:
        raise ValueError(f"expected 34 counts, got {len(key)}")
    if sum(key) != 3 * (4 - n_melds) + 2:
        return []
    return list(_decompose(key))


@lru_cache(maxsize=65536)
def _decompose(counts: tuple[int, ...]) -> tuple[Decomposition, ...]:
    honors = []
    honor_pair = -1
    for kind in range(27, NUM_KINDS):
        c = counts[kind]
        if c == 3:
            honors.append(("pon", kind))
        elif c == 2 and honor_pair < 0:
            honor_pair = kind
        elif c:
            return ()
    per_suit = []
    for base in (0, 9, 18):
        options = suit_splits(counts[base:base + 9])
        if not options:
            return ()
        per_suit.append([(pair + base if pair >= 0 else -1, tuple((kind, first + base) for kind, first in sets))
                         for pair, sets in options])
    result = []
    for combo in product(*per_suit):
        pairs = [pair for pair, _ in combo if pair >= 0]
        if honor_pair >= 0:
            pairs.append(honor_pair)
        if len(pairs) != 1:
            continue
        sets = tuple(sorted((s for _, part in combo for s in part), key=_set_order)) + tuple(honors)
        result.append(Decomposition(pairs[0], sets))
    return tuple(sorted(set(result), key=lambda d: (d.pair, [_set_order(s) for s in d.sets])))


def _set_order(s: Set) -> tuple[int, str]:
    return (s[1], s[0])


def suit_splits(counts: tuple[int, ...]) -> tuple[tuple[int, tuple[Set, ...]], ...]:
    """Every way to cover one suit's nine counts exactly with at most four sets and at most one pair.

    Each split is ``(pair position or -1, sets)`` with positions 0-8 within the suit; the sets are
    ordered by position, a triplet before a run at the same position, and the splits by pair
    position, then by their sets in that order. Every rule family splits hands suit by suit
    through this table, which holds all 21,743 suit patterns that split at all (built on first
    use, about 20 ms); anything else (e.g. five copies of a tile) is split on the spot.

    >>> suit_splits((3, 1, 1, 0, 0, 0, 0, 0, 0))  # 11 + 123
    ((0, (('chi', 0),)),)
    >>> suit_splits((3, 1, 1, 1, 0, 0, 0, 0, 0))  # 111 + 234
    ((-1, (('pon', 0), ('chi', 1))),)
    """
    table = _SPLITS or _splits_table()
    found = table.get(counts)
    if found is None:
        if len(counts) != 9 or max(counts) <= 4:
            return ()
        rest = sum(counts) % 3
        found = tuple((pair, sets) for pair in ([-1] if rest == 0 else range(9) if rest == 2 else [])
                      if pair < 0 or counts[pair] >= 2
                      for sets in _suit_sets(counts if pair < 0 else
                                             counts[:pair] + (counts[pair] - 2,) + counts[pair + 1:]))
    return found


@cache
def _suit_sets(counts: tuple[int, ...]) -> tuple[tuple[Set, ...], ...]:
    """All ways to cover one suit's 9 counts completely with sets (positions 0-8), any number of sets."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return ((),)
    out: list[tuple[Set, ...]] = []
    c = list(counts)
    if c[first] >= 3:
        c[first] -= 3
        out.extend((("pon", first),) + rest for rest in _suit_sets(tuple(c)))
        c[first] += 3
    if first <= 6 and c[first + 1] and c[first + 2]:
        c[first] -= 1
        c[first + 1] -= 1
        c[first + 2] -= 1
        out.extend((("chi", first),) + rest for rest in _suit_sets(tuple(c)))
    return tuple(out)


_SPLITS: dict[tuple[int, ...], tuple] = {}
_SPLITS_LOCK = threading.Lock()


def _splits_table() -> dict[tuple[int, ...], tuple]:
    """The table of :func:`suit_splits`, built once. The web server scores in several threads: the table
    is published only when complete (a half-built one would make complete hands look incomplete)."""
    global _SPLITS
    with _SPLITS_LOCK:
        if not _SPLITS:
            _SPLITS = _build_splits()
    return _SPLITS


_SET_KINDS: tuple[Set, ...] = tuple(s for p in range(9) for s in (("pon", p), ("chi", p)) if s[0] == "pon" or p < 7)


def _build_splits() -> dict[tuple[int, ...], tuple]:
    """All splits of all suit patterns, by construction: every multiset of at most four sets
    (each copy of a tile used at most four times), with and without a pair."""
    table: dict[tuple[int, ...], list] = {}
    counts = [0] * 9
    chosen: list[Set] = []

    def grow(start: int) -> None:
        sets = tuple(chosen)
        table.setdefault(tuple(counts), []).append((-1, sets))
        for i in range(9):
            if counts[i] <= 2:
                counts[i] += 2
                table.setdefault(tuple(counts), []).append((i, sets))
                counts[i] -= 2
        if len(chosen) == 4:
            return
        # sets are added in table order only, so that each multiset is built once and listed sorted
        for j in range(start, len(_SET_KINDS)):
            kind, p = _SET_KINDS[j]
            if kind == "pon":
                if counts[p] > 1:
                    continue
                counts[p] += 3
                chosen.append(_SET_KINDS[j])
                grow(j)
                chosen.pop()
                counts[p] -= 3
            elif counts[p] < 4 and counts[p + 1] < 4 and counts[p + 2] < 4:
                counts[p] += 1
                counts[p + 1] += 1
                counts[p + 2] += 1
                chosen.append(_SET_KINDS[j])
                grow(j)
                chosen.pop()
                counts[p] -= 1
                counts[p + 1] -= 1
                counts[p + 2] -= 1

    grow(0)
    order = {s: i for i, s in enumerate(_SET_KINDS)}
    out = {}
    for key, splits in table.items():
        if len(splits) > 1:
            splits.sort(key=lambda split: (split[0], [order[s] for s in split[1]]))
        out[key] = tuple(splits)
    return out


def is_seven_pairs(counts: list[int] | tuple[int, ...]) -> bool:
    """Seven distinct pairs (four of a kind is not two pairs)."""
    return sum(counts) == 14 and all(c in (0, 2) for c in counts)


def is_thirteen_orphans(counts: list[int] | tuple[int, ...]) -> bool:
    return sum(counts) == 14 and all(counts[k] >= 1 for k in TERMINALS_AND_HONORS) and all(
        counts[k] == 0 for k in range(NUM_KINDS) if k not in TERMINALS_AND_HONORS
    )


def is_complete(counts: list[int] | tuple[int, ...], n_melds: int = 0) -> bool:
    """Standard shape, or (with no called melds) seven pairs or thirteen orphans."""
    if decompose(counts, n_melds):
        return True
    return n_melds == 0 and (is_seven_pairs(counts) or is_thirteen_orphans(counts))


def wait_shapes(decomposition: Decomposition, win_kind: int) -> list[tuple[str, int]]:
    """Where the winning tile can sit in this split, each as (wait name, set index or -1 for the pair).

    A scorer picks the reading that pays best (e.g. kanchan over ryanmen for fu,
    ryanmen for pinfu)."""
    shapes: list[tuple[str, int]] = []
    if decomposition.pair == win_kind:
        shapes.append(("tanki", -1))
    for i, (kind, first) in enumerate(decomposition.sets):
        if kind == "pon":
            if first == win_kind:
                shapes.append(("shanpon", i))
        elif first <= win_kind <= first + 2:
            if win_kind == first + 1:
                shapes.append(("kanchan", i))
            elif (win_kind == first + 2 and first % 9 == 0) or (win_kind == first and first % 9 == 6):
                shapes.append(("penchan", i))
            else:
                shapes.append(("ryanmen", i))
    # identical sets give identical readings; keep one of each
    seen: set[tuple[str, Set]] = set()
    unique = []
    for name, i in shapes:
        key = (name, decomposition.sets[i] if i >= 0 else ("pair", win_kind))
        if key not in seen:
            seen.add(key)
            unique.append((name, i))
    return unique


def waits(counts: list[int] | tuple[int, ...], n_melds: int = 0) -> list[int]:
    """The kinds that complete the hand (a kind whose four copies are all in the hand is no wait)."""
    work = list(counts)
    result = []
    for kind in range(NUM_KINDS):
        if work[kind] >= 4:
            continue
        work[kind] += 1
        if is_complete(work, n_melds):
            result.append(kind)
        work[kind] -= 1
    return result


def is_tenpai(counts: list[int] | tuple[int, ...], n_melds: int = 0) -> bool:
    return bool(waits(counts, n_melds))


def shanten(counts: list[int] | tuple[int, ...], n_melds: int = 0) -> int:
    """Tiles away from tenpai: 0 = tenpai, -1 = complete; the best of all hand shapes."""
    best = shanten_standard(counts, n_melds)
    if n_melds == 0:
        best = min(best, shanten_chiitoi(counts), shanten_kokushi(counts))
    return best


def shanten_chiitoi(counts: list[int] | tuple[int, ...]) -> int:
    pairs = sum(1 for c in counts if c >= 2)
    kinds = sum(1 for c in counts if c)
    return 6 - pairs + max(0, 7 - kinds)


def shanten_kokushi(counts: list[int] | tuple[int, ...]) -> int:
    present = [counts[k] for k in TERMINALS_AND_HONORS]
    return 13 - sum(1 for c in present if c) - (1 if any(c >= 2 for c in present) else 0)


def shanten_standard(counts: list[int] | tuple[int, ...], n_melds: int = 0) -> int:
    """8 - 2*sets - partial sets - pair, with sets + partials capped at the sets still needed."""
    needed = 4 - n_melds
    groups = [_suit_blocks(tuple(counts[b:b + 9]), True) for b in (0, 9, 18)]
    groups.append(_honor_blocks(tuple(counts[27:34])))
    best = 2 * needed
    # combine per-suit (sets, partials, pair) options; each list is small and Pareto-pruned
    combos = {(0, 0, 0)}
    for options in groups:
        combos = _prune({(m + m2, t + t2, p + p2) for m, t, p in combos for m2, t2, p2 in options if p + p2 <= 1})
    for m, t, p in combos:
        m = min(m, needed)
        t = min(t, needed - m)
        best = min(best, 2 * needed - 2 * m - t - p)
    return best


def _prune(options: set[tuple[int, int, int]]) -> set[tuple[int, int, int]]:
    return {o for o in options if not any(q != o and q[0] >= o[0] and q[1] >= o[1] and q[2] >= o[2] for q in options)}


@cache
def _suit_blocks(counts: tuple[int, ...], suited: bool) -> frozenset[tuple[int, int, int]]:
    """Pareto-best (sets, partial sets, pair) choices for one suit."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return frozenset({(0, 0, 0)})
    out: set[tuple[int, int, int]] = set()
    c = list(counts)

    def take(removals: list[int], add: tuple[int, int, int]) -> None:
        for i in removals:
            c[i] -= 1
        for m, t, p in _suit_blocks(tuple(c), suited):
            if p + add[2] <= 1:
                out.add((m + add[0], t + add[1], p + add[2]))
        for i in removals:
            c[i] += 1

    take([first], (0, 0, 0))  # leave it isolated
    if c[first] >= 3:
        take([first] * 3, (1, 0, 0))
    if c[first] >= 2:
        take([first] * 2, (0, 0, 1))
        take([first] * 2, (0, 1, 0))
    if suited:
        if first <= 6 and c[first + 1] and c[first + 2]:
            take([first, first + 1, first + 2], (1, 0, 0))
        if first <= 7 and c[first + 1]:
            take([first, first + 1], (0, 1, 0))
        if first <= 6 and c[first + 2]:
            take([first, first + 2], (0, 1, 0))
    return frozenset(_prune(out))


def _honor_blocks(counts: tuple[int, ...]) -> frozenset[tuple[int, int, int]]:
    return _suit_blocks(counts, False)
