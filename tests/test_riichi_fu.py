"""Fu rules, each with a hand computed by hand.

Seed 000 ("Punkteermittlung"): base 20, closed ron 30, seven pairs 25, 2 fu for a closed /
edge / pair wait, triplets 2-32 (concealed x2, terminals/honours x2, kans x4), value pair fu.
Common practice where the page is silent: tsumo +2 except pinfu; pinfu tsumo 20, ron 30;
an open hand that would have 20 fu counts 30; rounding up to 10.
"""

from __future__ import annotations

import pytest
from test_riichi_helpers import sc


def fu_items(r: dict) -> dict:
    out: dict = {}
    for item in r["fu_details"]:
        key = item["id"] if "tiles" not in item else f"{item['id']}:{item['tiles']}"
        out[key] = out.get(key, 0) + item["fu"]
    return out


def test_pinfu_tsumo_is_20_fu():
    r = sc("234m678m345p789s11s", "2m", tsumo=True)
    assert r["fu"] == 20 and fu_items(r) == {"base": 20}


def test_pinfu_ron_is_30_fu():
    r = sc("234m678m345p789s11s", "2m")
    assert r["fu"] == 30 and fu_items(r) == {"base": 20, "menzen_ron": 10}


def test_seven_pairs_25_fu_flat():
    r = sc("1133m5577p22s4466z", "4z", tsumo=True)
    assert r["fu"] == 25 and fu_items(r) == {"chiitoitsu": 25}


def test_open_pinfu_shape_ron_counts_30():
    # open 234m chi, the rest chi, worthless pair, two-sided ron: 20 fu -> raised to 30
    r = sc("678m345p567s22p", "5s", melds=[("chi", "234m")])
    assert r["fu"] == 30 and fu_items(r) == {"base": 20, "open_pinfu": 10}


def test_open_tsumo_without_other_fu_is_22_rounded_to_30():
    r = sc("678m345p567s22p", "5s", melds=[("chi", "234m")], tsumo=True)
    assert r["fu_raw"] == 22 and r["fu"] == 30


@pytest.mark.parametrize(("hand", "win", "wait"), [
    ("234m678m345p789s11s", "8s", "kanchan"),   # 79s waited on the middle tile
    ("234m678m345p11123s", "3s", "penchan"),    # 12s waited on 3s only
    ("234m678m345p789s11s", "1s", "tanki"),     # the single 1s waited for its pair
])
def test_wait_fu_two_for_closed_edge_and_pair_waits(hand, win, wait):
    r = sc(hand, win, riichi=True)
    assert r["wait"] == wait
    # closed ron 30 + wait 2 = 32 -> 40
    assert fu_items(r).get(f"wait_{wait}") == 2 and r["fu_raw"] == 32 and r["fu"] == 40


def test_tsumo_adds_two_fu_without_pinfu():
    r = sc("234m678m345p789s11s", "1s", tsumo=True)  # pair wait: 20 + 2 tsumo + 2 wait = 24 -> 30
    assert fu_items(r) == {"base": 20, "tsumo": 2, "wait_tanki": 2} and r["fu"] == 30


@pytest.mark.parametrize(("meld", "tiles", "fu"), [
    ("pon", "222m", 2),       # open simple triplet
    ("pon", "111m", 4),       # open terminal triplet
    ("minkan", "2222m", 8),   # open simple kan
    ("kakan", "4444s", 8),    # a pon extended to a kan is an open kan
    ("minkan", "9999m", 16),  # open terminal kan
    ("ankan", "2222m", 16),   # concealed simple kan
    ("ankan", "1111z", 32),   # concealed honour kan
])
def test_triplet_and_kan_fu(meld, tiles, fu):
    # the white dragon triplet is the yaku; the meld under test adds its fu
    r = sc("678m345p555z11s", "1s", melds=[(meld, tiles)], round_wind="S")
    key = "set:" + tiles
    assert fu_items(r)[key] == fu


def test_concealed_triplets_4_and_8():
    r = sc("222m999p345p789s55p", "5p", riichi=True)
    assert fu_items(r)["set:222m"] == 4 and fu_items(r)["set:999p"] == 8


def test_ron_completed_triplet_counts_as_open():
    # 222m 999p concealed; 555s completed by the discard: open simple triplet 2 fu (not 4)
    r = sc("222m999p555s789s11p", "5s", riichi=True)
    assert fu_items(r)["set:555s"] == 2 and fu_items(r)["set:222m"] == 4


def test_dragon_pair_two_fu():
    r = sc("234m678m345p789s77z", "7z", riichi=True)
    assert fu_items(r)["pair:77z"] == 2


def test_double_wind_pair_4_fu_or_2_by_option():
    # seat East, round East, pair of East: seed 003 "Doppelwindpaar: 4 Fu statt 2 Fu"
    r = sc("234m678m345p789s11z", "1z", rules="ryanzou", seat_wind="E", round_wind="E", riichi=True)
    assert fu_items(r)["double_wind_pair:11z"] == 4
    r = sc("234m678m345p789s11z", "1z", rules="wrc", seat_wind="E", round_wind="E", riichi=True)
    assert fu_items(r)["double_wind_pair:11z"] == 2


def test_guest_wind_pair_no_fu():
    r = sc("234m678m345p789s44z", "4z", riichi=True)
    assert "pair:44z" not in fu_items(r)


def test_the_reading_that_pays_most_is_chosen():
    # seed 000 ("BGA Realisation"): the hand with the most points counts.
    # 111222333m as triplets: tsumo 1 + sanankou 2 = 3 han, 20 + 2 tsumo + 2 pair wait + 8 + 4 + 4 = 40 fu
    # 111222333m as three 123m chi: tsumo 1 + iipeikou 1 = 2 han, 20 + 2 + 2 = 24 -> 30 fu
    r = sc("111222333m456p99s", "9s", tsumo=True)
    assert set(r["yaku"][i]["id"] for i in range(len(r["yaku"]))) == {"menzen_tsumo", "sanankou"}
    assert (r["han"], r["fu"]) == (3, 40)
