"""Seating quality, counted independently of the generator: pairs met, winds, partitions.

No seed text covers tournaments; the targets are the usual ones of riichi tournaments (EMA
style): nobody meets anybody twice where that is possible, and everybody sits each wind about
equally often. For 16 players and 5 rounds a perfect plan exists (the affine plane of order 4:
16 points, 5 parallel classes of 4 lines of 4 points, any two points on exactly one line).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from companion.errors import InvalidRequestError
from companion.tournament.seating import plan_rounds, swiss_round


def pair_counts(rounds: list) -> Counter:
    met: Counter = Counter()
    for rnd in rounds:
        for table in rnd:
            for a, b in combinations(table, 2):
                met[frozenset((a, b))] += 1
    return met


def wind_counts(rounds: list) -> dict:
    winds: dict = {}
    for rnd in rounds:
        for table in rnd:
            for seat, p in enumerate(table):
                winds.setdefault(p, [0, 0, 0, 0])[seat] += 1
    return winds


def assert_partitions(rounds: list, players: list) -> None:
    for rnd in rounds:
        assert all(len(table) == 4 for table in rnd)
        assert sorted(p for table in rnd for p in table) == sorted(players)


def test_16_players_5_rounds_nobody_meets_twice() -> None:
    players = [f"p{i}" for i in range(1, 17)]
    plan = plan_rounds(players, 5, seed=7)
    assert_partitions(plan.rounds, players)
    met = pair_counts(plan.rounds)
    # 5 rounds x 4 tables x 6 pairs = 120 = C(16, 2): every pair meets exactly once
    assert len(met) == 120 and max(met.values()) == 1
    assert plan.repeat_meetings == 0


def test_16_players_5_rounds_winds_balanced() -> None:
    plan = plan_rounds(list(range(16)), 5, seed=3)
    for counts in wind_counts(plan.rounds).values():
        # five games on four winds: one wind twice, the others once
        assert sorted(counts) == [1, 1, 1, 2]
    assert plan.wind_spread == 1


def test_20_players_4_rounds_no_repeats_and_every_wind_once() -> None:
    players = list(range(20))
    plan = plan_rounds(players, 4, seed=11)
    assert_partitions(plan.rounds, players)
    assert max(pair_counts(plan.rounds).values()) == 1
    for counts in wind_counts(plan.rounds).values():
        assert counts == [1, 1, 1, 1]


@pytest.mark.parametrize(("n", "rounds"), [(24, 5), (40, 7), (64, 8)])
def test_larger_fields_no_repeats_winds_within_one(n: int, rounds: int) -> None:
    plan = plan_rounds(list(range(n)), rounds, seed=1)
    assert_partitions(plan.rounds, list(range(n)))
    assert max(pair_counts(plan.rounds).values()) == 1
    for counts in wind_counts(plan.rounds).values():
        assert max(counts) - min(counts) <= 1


def test_same_seed_same_plan_other_seed_other_plan() -> None:
    a = plan_rounds(list(range(20)), 4, seed="club")
    b = plan_rounds(list(range(20)), 4, seed="club")
    c = plan_rounds(list(range(20)), 4, seed="other")
    assert a.rounds == b.rounds
    assert a.rounds != c.rounds


def test_reported_repeats_match_an_independent_count_when_repeats_are_forced() -> None:
    # 8 players, 3 rounds: each meets 3 x 3 = 9 others but there are only 7, so repeats must occur
    plan = plan_rounds(list(range(8)), 3, seed=2)
    met = pair_counts(plan.rounds)
    assert plan.repeat_meetings == sum(m - 1 for m in met.values()) > 0
    assert plan.max_meetings == max(met.values())


def test_replan_after_a_withdrawal_avoids_pairs_met_before() -> None:
    # 28 players played 2 rounds; 4 withdraw; 24 go on for 3 more rounds
    first = plan_rounds(list(range(28)), 2, seed=5)
    active = list(range(24))
    rest = plan_rounds(active, 3, seed=5, history=first.rounds)
    assert_partitions(rest.rounds, active)
    met = pair_counts(first.rounds + rest.rounds)
    assert max(met[frozenset(p)] for p in combinations(active, 2)) <= 1
    assert rest.repeat_meetings == 0


def test_player_count_must_fill_tables_of_four() -> None:
    with pytest.raises(InvalidRequestError, match="18 active players .* add 2 players .* withdraw 2"):
        plan_rounds(list(range(18)), 4)
    with pytest.raises(InvalidRequestError, match="at least 4"):
        plan_rounds([1, 2], 1)


def test_swiss_puts_the_top_four_together() -> None:
    ranked = [f"p{i}" for i in range(1, 13)]
    plan = swiss_round(ranked)
    tables = [sorted(t) for t in plan.rounds[0]]
    assert tables == [sorted(ranked[0:4]), sorted(ranked[4:8]), sorted(ranked[8:12])]


def test_swiss_seat_order_evens_out_winds_against_history() -> None:
    # everyone at table 1 sat East, South, West, North in that order before; now each moves on
    history = [[["a", "b", "c", "d"]], [["b", "c", "d", "a"]], [["c", "d", "a", "b"]]]
    plan = swiss_round(["a", "b", "c", "d"], history=history)
    # a sat E, N, W -> needs S; b sat S, E, N -> needs W; c: W, S, E -> N; d: N, W, S -> E
    assert plan.rounds[0][0] == ["d", "a", "b", "c"]


def test_keeping_clubs_apart_never_costs_a_repeat_meeting() -> None:
    # 16 players, 4 clubs of 4, 5 rounds: a perfect plan meets every pair once, club pairs
    # included (4 clubs x 6 pairs = 24); avoiding them would force repeats, so they meet
    players = list(range(16))
    avoid = [(a, b) for a, b in combinations(players, 2) if a % 4 == b % 4]
    plan = plan_rounds(players, 5, seed=1, avoid=avoid)
    assert max(pair_counts(plan.rounds).values()) == 1
    assert plan.avoided_meetings == 24
    # with 4 rounds they can all be kept apart, and are
    plan = plan_rounds(players, 4, seed=1, avoid=avoid)
    met = pair_counts(plan.rounds)
    assert max(met.values()) == 1 and all(met[frozenset(p)] == 0 for p in avoid)
