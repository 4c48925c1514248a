"""The riichi engine's per-suit memoised split gives exactly the splits of the shared hand
analysis (companion.hand.decompose), which is the independent implementation here."""

from __future__ import annotations

import random

from companion.hand import decompose
from companion.rules.riichi.context import CHI, PON, split


def _random_complete(rng: random.Random, n_sets: int) -> list[int]:
    while True:
        counts = [0] * 34
        for _ in range(n_sets):
            if rng.random() < 0.5:
                suit = rng.randrange(3)
                first = 9 * suit + rng.randrange(7)
                for k in (first, first + 1, first + 2):
                    counts[k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def _theirs(counts: list[int], n_melds: int) -> set:
    return {(d.pair, tuple(sorted((CHI if kind == "chi" else PON, first) for kind, first in d.sets)))
            for d in decompose(counts, n_melds)}


def _ours(counts: list[int]) -> set:
    return {(pair, tuple(sorted((shape, first) for shape, first, _ in sets))) for pair, sets in split(counts)}


def test_split_matches_hand_decompose_on_random_complete_hands():
    rng = random.Random(20161)
    for i in range(3000):
        n_sets = 4 - i % 5 if i % 5 else 4  # 4, 3, 2, 1 sets: hands with melds called
        counts = _random_complete(rng, n_sets)
        assert _ours(counts) == _theirs(counts, 4 - n_sets), counts


def test_split_matches_on_random_incomplete_hands():
    rng = random.Random(7)
    for _ in range(2000):
        counts = [0] * 34
        for _ in range(14):
            k = rng.randrange(34) if rng.random() < 0.3 else rng.randrange(9)  # crowd one suit
            if counts[k] < 4:
                counts[k] += 1
        n = sum(counts)
        if n % 3 != 2:
            continue
        assert _ours(counts) == _theirs(counts, 4 - (n - 2) // 3), counts


def test_many_readings_of_a_pure_suit():
    counts = [0] * 34
    for k, c in enumerate((3, 3, 3, 3, 2)):  # 11122233344455m: triplets or runs in several ways
        counts[k] = c
    assert _ours(counts) == _theirs(counts, 0) and len(_ours(counts)) >= 2


def test_hand_row_gates_never_hide_a_yaku_that_holds():
    # the scorer skips a "hand" row whose gate (a condition on the memoised facts) fails; a gate
    # that is too strict would silently drop the yaku, so every predicate is asked directly on
    # random hands (the differential test's, biased towards the rare yaku) and must agree
    import riichi_random

    from companion.errors import CompanionError
    from companion.rules.riichi.context import readings
    from companion.rules.riichi.options import resolve_rules
    from companion.rules.riichi.request import parse_request
    from companion.rules.riichi.yaku_table import all_yaku

    gated = [y for y in all_yaku() if y.gate is not None]
    assert {y.id for y in gated} >= {"chuuren", "junsei_chuuren", "ryuuiisou"}
    held = dict.fromkeys((y.id for y in gated), 0)
    for request in riichi_random.random_requests(6000, 23):
        for rules in ("ryanzou", request["rules"]):  # ryanzou has the pinzu bonus yaku switched on
            try:
                r = parse_request(dict(request, rules=rules), resolve_rules(rules))
            except CompanionError:
                continue
            for h in readings(r):
                for y in gated:
                    if y.test(h, r):
                        held[y.id] += 1
                        assert y.gate(r), (y.id, request)
    # the hands reach the gated yaku at all (else this test would prove nothing)
    assert held["chuuren"] and held["ryuuiisou"]
