"""Decomposition, waits and shanten (foundation issue), expectations worked out by hand."""

import random

from companion.hand import (
    decompose,
    is_complete,
    is_seven_pairs,
    is_thirteen_orphans,
    shanten,
    wait_shapes,
    waits,
)
from companion.tiles import parse_tiles, to_counts


def counts(text):
    return to_counts(parse_tiles(text))


def kinds(text):
    return [t.kind for t in parse_tiles(text)]


def test_three_identical_sequences_also_read_as_three_triplets():
    ds = decompose(counts("111222333m45677p"))
    assert {str(d) for d in ds} == {"111m 222m 333m 456p 77p", "123m 123m 123m 456p 77p"}


def test_called_melds_reduce_the_sets_needed():
    assert decompose(counts("123m55p"), n_melds=3)
    assert not decompose(counts("123m55p"), n_melds=2)


def test_seven_pairs_and_four_of_a_kind():
    assert is_seven_pairs(counts("1133557799m1133p"))
    assert not is_seven_pairs(counts("1111m335577p99s11z"))  # four 1m are not two pairs


def test_thirteen_orphans():
    assert is_thirteen_orphans(counts("19m19p19s12345677z"))
    assert not is_thirteen_orphans(counts("19m19p19s12345678m"[:-2] + "z"))


def test_wait_shapes_by_position():
    # 23m + 4m -> ryanmen; 12m + 3m -> penchan; 13m + 2m -> kanchan; 789m with 7 -> penchan
    d = decompose(counts("234m456p789s111z55s"))[0]
    assert ("ryanmen", 0) in wait_shapes(d, kinds("4m")[0])
    assert ("kanchan", 0) in wait_shapes(d, kinds("3m")[0])
    d = decompose(counts("123m456p789s111z55s"))[0]
    assert [s for s, _ in wait_shapes(d, kinds("3m")[0])] == ["penchan"]
    assert [s for s, _ in wait_shapes(d, kinds("7s")[0])] == ["penchan"]
    assert [s for s, _ in wait_shapes(d, kinds("1z")[0])] == ["shanpon"]
    assert [s for s, _ in wait_shapes(d, kinds("5s")[0])] == ["tanki"]


def test_ambiguous_wait_offers_every_reading():
    # 3345m + 3m: the 3m completes the pair (tanki on 3m with 345m) or the sequence (ryanmen 45m)
    readings = set()
    for d in decompose(counts("33345m456p789s111z")):
        readings.update(name for name, _ in wait_shapes(d, kinds("3m")[0]))
    assert readings == {"tanki", "ryanmen"}


def test_nine_gates_waits_on_all_nine():
    assert waits(counts("1112345678999m")) == kinds("123456789m")


def test_thirteen_sided_kokushi_wait():
    assert waits(counts("19m19p19s1234567z")) == kinds("19m19p19s1234567z")


def test_no_wait_on_a_tile_all_four_in_hand():
    # 1111m + three sets: the only shape is 111m + tanki on a fifth 1m, so there is no wait (karaten)
    assert waits(counts("1111m234p567s789s")) == []
    assert waits(counts("111m234p567s789s5z")) == kinds("5z")


def test_shanten_known_values():
    assert shanten(counts("123m456p789s1122z")) == 0
    # no set, no partial, no pair: standard 8, kokushi 13 - 6 orphans = 7, seven pairs 6 - 0 = 6
    assert shanten(counts("147m258p369s1234z")) == 6
    assert shanten(counts("1133557799m113p")) == 0  # chiitoitsu tenpai
    assert shanten(counts("123m456p789s1z2z3z4z")) == 2  # three sets, four loose honours: 8 - 6
    assert shanten(counts("123m456p789s1234z"), n_melds=0) == 2


def test_shanten_agrees_with_waits_on_random_near_complete_hands():
    rng = random.Random(7)
    checked = 0
    for _ in range(400):
        c = [0] * 34
        for _ in range(4):
            if rng.random() < 0.5:
                k = rng.randrange(3) * 9 + rng.randrange(7)
                for j in range(3):
                    c[k + j] += 1
            else:
                c[rng.randrange(34)] += 3
        c[rng.randrange(34)] += 2
        if max(c) > 4:
            continue
        assert is_complete(c) and shanten(c) == -1
        drop = rng.choice([k for k in range(34) if c[k]])
        c[drop] -= 1
        assert drop in waits(c) and shanten(c) == 0
        checked += 1
    assert checked > 200


def test_the_suit_split_table_is_never_seen_half_built(monkeypatch):
    # the web server scores in several threads; the split table is built on first use, and a thread that
    # saw it half built took complete hands for incomplete ones (a flaky "not a complete hand" in the
    # classical preview). Building must not touch the published table, and threads that all start on a
    # fresh table must all read complete hands as complete.
    import sys
    import threading

    from companion import hand

    monkeypatch.setattr(hand, "_SPLITS", {})
    built = hand._build_splits()
    assert hand._SPLITS == {} and len(built) == 21743  # the count the suit_splits docstring gives

    monkeypatch.setattr(hand, "_SPLITS", {})
    hand._decompose.cache_clear()  # else the answer is remembered and the table never asked
    counts = to_counts(parse_tiles("234m567p678s77z111z"))
    found: list[int] = []
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, inside the build too
    try:
        threads = [threading.Thread(target=lambda: found.append(len(decompose(counts)))) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert found == [1] * 8
