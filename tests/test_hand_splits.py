"""The suit split table behind ``companion.hand.decompose`` (foundation issue: "all decompositions
into 4 sets + pair"), checked against a brute-force splitter written here independently: take the
lowest tile left, use it in a triplet or a run, recurse."""

from __future__ import annotations

import random
from functools import cache

from companion.hand import decompose, suit_splits


@cache
def _brute_sets(counts: tuple[int, ...], suited: bool = True) -> frozenset[tuple[tuple[str, int], ...]]:
    """Every multiset of sets (sorted tuples) that covers the counts exactly."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return frozenset({()})
    out = set()
    if counts[first] >= 3:
        rest = list(counts)
        rest[first] -= 3
        out |= {tuple(sorted((("pon", first),) + s)) for s in _brute_sets(tuple(rest), suited)}
    if suited and first % 9 <= 6 and first + 2 < len(counts) and counts[first + 1] and counts[first + 2]:
        rest = list(counts)
        for k in (first, first + 1, first + 2):
            rest[k] -= 1
        out |= {tuple(sorted((("chi", first),) + s)) for s in _brute_sets(tuple(rest), suited)}
    return frozenset(out)


def _brute_suit(counts: tuple[int, ...]) -> set:
    found = {(-1, s) for s in _brute_sets(counts)}
    for i in range(9):
        if counts[i] >= 2:
            rest = counts[:i] + (counts[i] - 2,) + counts[i + 1:]
            found |= {(i, s) for s in _brute_sets(rest)}
    return {(pair, sets) for pair, sets in found if len(sets) <= 4}


def _as_set(splits) -> set:
    return {(pair, tuple(sorted(sets))) for pair, sets in splits}


def _random_suit(rng: random.Random) -> tuple[int, ...]:
    counts = [0] * 9
    for _ in range(rng.randrange(15)):
        k = rng.randrange(9)
        if counts[k] < 4:
            counts[k] += 1
    return tuple(counts)


def test_suit_splits_match_brute_force_on_random_suits():
    rng = random.Random(2024)
    for _ in range(20000):
        counts = _random_suit(rng)
        assert _as_set(suit_splits(counts)) == _brute_suit(counts), counts


def test_suit_splits_of_a_dense_suit():
    # 11122233344m: pair 44 with 111 222 333 or with 123 123 123; or pair 11 with 123 234 234
    assert suit_splits((3, 3, 3, 2, 0, 0, 0, 0, 0)) == (
        (0, (("chi", 0), ("chi", 1), ("chi", 1))),
        (3, (("pon", 0), ("pon", 1), ("pon", 2))),
        (3, (("chi", 0), ("chi", 0), ("chi", 0))),
    )


def test_suit_splits_list_each_split_once_in_order():
    # dense suits with several splits: no split twice, pairs ascending, sets by position (triplet first)
    for counts in [(4, 4, 4, 0, 0, 0, 0, 0, 0), (3, 1, 1, 1, 1, 1, 1, 1, 4), (2, 2, 2, 2, 2, 2, 2, 0, 0)]:
        splits = suit_splits(counts)
        assert len(splits) == len(set(splits))
        assert [pair for pair, _ in splits] == sorted(pair for pair, _ in splits)
        for _, sets in splits:
            assert list(sets) == sorted(sets, key=lambda s: (s[1], s[0] != "pon"))


def test_five_copies_still_split_on_the_spot():
    # not a real hand, but the analysis must not lose it: 11111 = 11 + 111
    assert _as_set(suit_splits((5, 0, 0, 0, 0, 0, 0, 0, 0))) == {(0, (("pon", 0),))}


def _brute_hand(counts: list[int], n_sets: int) -> set:
    out = set()
    for pair in range(34):
        if counts[pair] >= 2:
            rest = list(counts)
            rest[pair] -= 2
            parts = [_brute_sets(tuple(rest[b:b + 9])) for b in (0, 9, 18)] + [_brute_sets(tuple(rest[27:]), False)]
            if all(parts):
                for m in parts[0]:
                    for p in parts[1]:
                        for s in parts[2]:
                            for z in parts[3]:
                                sets = [(k, f) for k, f in m] + [(k, f + 9) for k, f in p] + \
                                       [(k, f + 18) for k, f in s] + [(k, f + 27) for k, f in z]
                                if len(sets) == n_sets:
                                    out.add((pair, tuple(sorted(sets))))
    return out


def test_decompose_matches_brute_force_on_random_hands():
    rng = random.Random(77)
    for i in range(3000):
        n_sets = 4 - i % 4
        counts = [0] * 34
        for _ in range(n_sets):
            if rng.random() < 0.5:
                first = 9 * rng.randrange(3) + rng.randrange(7)
                for k in (first, first + 1, first + 2):
                    counts[k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) > 4:
            continue
        ours = {(d.pair, tuple(sorted(d.sets))) for d in decompose(counts, 4 - n_sets)}
        assert ours == _brute_hand(counts, n_sets), counts
