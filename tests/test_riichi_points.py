"""Base points, limits and payments: seed 000 ("Punkteermittlung") and the usual limit table."""

from __future__ import annotations

import pytest
from test_riichi_helpers import sc

from companion.rules.riichi.points import base_points, payments, total_from_payments


def test_seed000_worked_example_2_han_52_fu_is_960_base():
    # seed 000: 52 fu round up to 60; 60 * 2^(2+2) = 960
    assert base_points(2, 52) == (960, None)


def test_seed000_worked_example_payments():
    # seed 000: East tsumo: everyone pays 2*960 = 1920 -> 2000; West tsumo: East 2000, others 960 -> 1000;
    # East ron: 6*960 = 5760 -> 5800; South ron: 4*960 = 3840 -> 3900
    assert payments(960, dealer=True, tsumo=True) == {"each_non_dealer": 2000}
    assert payments(960, dealer=False, tsumo=True) == {"dealer": 2000, "each_non_dealer": 1000}
    assert payments(960, dealer=True, tsumo=False) == {"discarder": 5800}
    assert payments(960, dealer=False, tsumo=False) == {"discarder": 3900}


# 111m 999p concealed terminal triplets (8 + 8), 444s concealed simple triplet (4), 678s won on 6s
# (two-sided, 0), pair 22z = South: the round wind for the dealer, the seat wind for South (2).
# Closed ron: 30 + 22 = 52 fu; the only yaku is sanankou (2 han) -> the seed 000 example exactly.
_HAND_52 = "111m999p444s678s22z"


def test_seed000_example_as_a_real_hand_dealer_ron_5800():
    r = sc(_HAND_52, "6s", seat_wind="E", round_wind="S")
    assert (r["han"], r["fu_raw"], r["fu"]) == (2, 52, 60)
    assert r["payments"] == {"discarder": 5800}


def test_seed000_example_as_a_real_hand_non_dealer_ron_3900():
    r = sc(_HAND_52, "6s", seat_wind="S", round_wind="E")
    assert (r["han"], r["fu_raw"], r["fu"]) == (2, 52, 60)
    assert r["payments"] == {"discarder": 3900}


@pytest.mark.parametrize(("han", "fu", "base", "limit"), [
    (1, 30, 240, None),        # 30 * 2^3
    (3, 70, 2000, "mangan"),   # 70 * 32 = 2240 -> capped at 2000
    (4, 40, 2000, "mangan"),   # 40 * 64 = 2560 -> capped
    (5, 20, 2000, "mangan"),   # 5 han never looks at fu
    (6, 30, 3000, "haneman"), (7, 30, 3000, "haneman"),
    (8, 30, 4000, "baiman"), (10, 30, 4000, "baiman"),
    (11, 30, 6000, "sanbaiman"), (12, 30, 6000, "sanbaiman"),
])
def test_limit_table(han, fu, base, limit):
    assert base_points(han, fu) == (base, limit)


def test_13_han_is_kazoe_yakuman_or_sanbaiman_by_option():
    assert base_points(13, 30, kazoe="yakuman") == (8000, "yakuman")
    assert base_points(13, 30, kazoe="sanbaiman") == (6000, "sanbaiman")
    assert base_points(13, 30, kazoe="none") == (6000, "sanbaiman")


def test_kiriage_rounds_1920_up_to_mangan_only_with_the_option():
    # 4 han 30 fu = 30 * 64 = 1920; 3 han 60 fu = 60 * 32 = 1920
    assert base_points(4, 30) == (1920, None)
    assert base_points(4, 30, kiriage=True) == (2000, "mangan")
    assert base_points(3, 60, kiriage=True) == (2000, "mangan")
    assert base_points(3, 50, kiriage=True) == (1600, None)  # 50 * 32


def test_yakuman_multipliers():
    assert base_points(0, 0, 1) == (8000, "yakuman")
    assert base_points(0, 0, 2) == (16000, "double_yakuman")
    assert base_points(0, 0, 3) == (24000, "triple_yakuman")
    assert base_points(0, 0, 5) == (40000, "5x_yakuman")


def test_seven_pairs_keep_25_fu():
    # 2 han 25 fu: 25 * 16 = 400 (no rounding to 30)
    assert base_points(2, 25) == (400, None)


def test_honba_300_each_on_ron_100_from_each_on_tsumo():
    # seed 000: each counter adds 300 in total
    assert payments(1000, dealer=False, tsumo=False, honba=2) == {"discarder": 4000 + 600}
    assert payments(1000, dealer=False, tsumo=True, honba=2) == {"dealer": 2000 + 200, "each_non_dealer": 1000 + 200}
    assert payments(1000, dealer=True, tsumo=True, honba=1) == {"each_non_dealer": 2000 + 100}


def test_total_from_payments():
    assert total_from_payments({"discarder": 3900}, dealer=False) == 3900
    assert total_from_payments({"each_non_dealer": 2000}, dealer=True) == 6000
    assert total_from_payments({"dealer": 2000, "each_non_dealer": 1000}, dealer=False) == 4000


def test_total_gain_adds_riichi_sticks_and_honba():
    # pinfu tsumo, non-dealer: 2 han 20 fu = 20 * 16 = 320 base -> 700 dealer, 400 others (1500);
    # 1 honba adds 100 each (300); 2 sticks on the table add 2000
    r = sc("234m678m345p789s11s", "2m", tsumo=True, honba=1, riichi_sticks=2)
    assert r["payments"] == {"dealer": 800, "each_non_dealer": 500}
    assert r["total_gain"] == 800 + 2 * 500 + 2000


def test_payments_by_seat_on_tsumo_and_on_ron_with_discarder():
    r = sc("234m678m345p789s11s", "2m", tsumo=True)  # South wins: 700 from East, 400 from West and North
    assert r["payments_by_seat"] == {"E": -700, "S": 1500, "W": -400, "N": -400}
    r = sc("234m678m345p789s11s", "2m", discarder="W")  # pinfu ron 30 fu 1 han: 30*8*4 = 960 -> 1000
    assert r["payments_by_seat"] == {"E": 0, "S": 1000, "W": -1000, "N": 0}
