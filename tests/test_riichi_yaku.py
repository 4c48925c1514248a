"""Every yaku with a hand that has it and a near miss that does not.

Han values: seed 000 ("Yaku") for the standard list (closed/open), common practice for the
rest; the hands are worked out by hand in the comments. Rules "tenhou" unless said otherwise;
seat South, round East (so East is no value wind and South is the seat wind).
"""

from __future__ import annotations

from test_riichi_helpers import error_code, han_of, ids, req, sc

# 234m 678m 345p 789s + pair 1s: all chi, worthless pair; won on 1s it is a pair wait (no pinfu)
PLAIN = "234m678m345p789s11s"


# ---- situational yaku (seed 000 "Die wichtigsten Ansage-basierten Yaku") ----------------------

def test_riichi_is_one_han():
    r = sc(PLAIN, "1s", riichi=True)
    assert ids(r) == ["riichi"] and r["han"] == 1


def test_without_riichi_the_same_hand_has_no_yaku():
    assert error_code(req(PLAIN, "1s")) == "no_yaku"


def test_double_riichi_is_two_han_and_replaces_riichi():
    r = sc(PLAIN, "1s", double_riichi=True)
    assert ids(r) == ["double_riichi"] and r["han"] == 2


def test_ippatsu_adds_one_han_to_riichi():
    assert ids(sc(PLAIN, "1s", riichi=True, ippatsu=True)) == ["riichi", "ippatsu"]


def test_ippatsu_not_scored_when_the_rules_switch_it_off():
    r = sc(PLAIN, "1s", rules={"preset": "tenhou", "ippatsu": False}, riichi=True, ippatsu=True)
    assert ids(r) == ["riichi"]


def test_menzen_tsumo_needs_a_closed_hand():
    assert ids(sc(PLAIN, "1s", tsumo=True)) == ["menzen_tsumo"]
    # near miss: the same tiles with 234m called as chi have no yaku on tsumo
    assert error_code(req("678m345p789s11s", "1s", melds=[("chi", "234m")], tsumo=True)) == "no_yaku"


def test_haitei_on_tsumo_houtei_on_ron():
    assert ids(sc(PLAIN, "1s", tsumo=True, haitei=True)) == ["menzen_tsumo", "haitei"]
    assert ids(sc(PLAIN, "1s", houtei=True)) == ["houtei"]


def test_rinshan_after_a_kan():
    # 2222m concealed kan, 678m 345p 789s, pair 1s; tsumo on the replacement tile
    r = sc("678m345p789s11s", "1s", melds=[("ankan", "2222m")], tsumo=True, rinshan=True)
    assert ids(r) == ["menzen_tsumo", "rinshan"]


def test_chankan_on_a_robbed_kan():
    # won on 2m (two-sided 34m): pinfu plus chankan
    assert ids(sc(PLAIN, "2m", chankan=True)) == ["pinfu", "chankan"]


# ---- pinfu, tanyao, value honours ---------------------------------------------------------------

def test_pinfu_all_chi_worthless_pair_two_sided_wait():
    r = sc(PLAIN, "2m")  # 234m completed from 34m: two-sided
    assert ids(r) == ["pinfu"] and r["fu"] == 30


def test_pinfu_near_misses_pair_wait_and_value_pair():
    assert error_code(req(PLAIN, "1s")) == "no_yaku"  # pair wait
    # the pair is the white dragon: gives fu, so no pinfu, and nothing else
    assert error_code(req("234m678m345p789s55z", "2m")) == "no_yaku"


def test_pinfu_kanchan_reading_loses_pinfu_but_two_sided_reading_is_chosen():
    # 345m6m: 6m completes 456m two-sided (pinfu) or ... the engine must find the pinfu reading
    r = sc("345m456m345p789s11s", "6m")
    assert "pinfu" in ids(r)


def test_tanyao_all_simples():
    r = sc("234m678m345p567s22p", "2p")  # pair wait, so no pinfu
    assert ids(r) == ["tanyao"]


def test_tanyao_near_miss_a_terminal():
    assert error_code(req("234m678m345p789s22p", "2p")) == "no_yaku"


def test_open_tanyao_only_with_kuitan():
    hand, melds = "678m345p567s22p", [("chi", "234m")]
    assert ids(sc(hand, "2p", melds=melds)) == ["tanyao"]
    assert error_code(req(hand, "2p", rules={"preset": "tenhou", "open_tanyao": False}, melds=melds)) == "no_yaku"


def test_dragon_triplets_one_han_each():
    for tiles, yid in (("555z", "yakuhai_haku"), ("666z", "yakuhai_hatsu"), ("777z", "yakuhai_chun")):
        assert ids(sc("234m678m345p11s", "1s", melds=[("pon", tiles)])) == [yid]


def test_seat_and_round_wind_double_wind_counts_twice():
    # seed 000: "falls Runden- und Platzwind übereinstimmen, zählen beide"
    r = sc("234m678m345p11s", "1s", melds=[("pon", "222z")], seat_wind="S", round_wind="S")
    assert ids(r) == ["yakuhai_seat_wind", "yakuhai_round_wind"] and r["han"] == 2
    r = sc("234m678m345p11s", "1s", melds=[("pon", "111z")], seat_wind="S", round_wind="E")
    assert ids(r) == ["yakuhai_round_wind"]


def test_guest_wind_triplet_is_no_yaku():
    assert error_code(req("234m678m345p11s", "1s", melds=[("pon", "444z")])) == "no_yaku"


# ---- sequences --------------------------------------------------------------------------------

def test_iipeikou_closed_only():
    assert ids(sc("223344m678m345p11s", "1s")) == ["iipeikou"]
    assert error_code(req("234m678m345p11s", "1s", melds=[("chi", "234m")])) == "no_yaku"


def test_ryanpeikou_beats_the_seven_pairs_reading():
    # 223344m 667788p 11s: ryanpeikou 3 han (ron, pair wait: 30 + 2 = 32 -> 40 fu) beats
    # chiitoitsu 2 han 25 fu; iipeikou is not counted beside it
    r = sc("223344m667788p11s", "1s")
    assert ids(r) == ["ryanpeikou"] and r["fu"] == 40 and r["payments"] == {"discarder": 5200}


def test_sanshoku_two_han_closed_one_open():
    assert ids(sc("123m123p123s456m99s", "9s")) == ["sanshoku"]
    assert han_of(sc("123m123s456m99s", "9s", melds=[("chi", "123p")]), "sanshoku") == 1


def test_sanshoku_near_miss():
    assert error_code(req("123m123p234s456m99s", "9s")) == "no_yaku"


def test_ittsu_two_han_closed_one_open():
    assert ids(sc("123456789m234p99s", "9s")) == ["ittsu"]
    assert han_of(sc("123456m234p99s", "9s", melds=[("chi", "789m")]), "ittsu") == 1
    assert error_code(req("123456678m234p99s", "9s")) == "no_yaku"


# ---- terminals and honours in every set -------------------------------------------------------

def test_chanta_needs_an_honour_and_a_chi():
    # the East triplet is no value wind for seat South in the South round
    r = sc("123m789p789s111z99s", "9s", round_wind="S")
    assert ids(r) == ["chanta"] and r["han"] == 2
    assert error_code(req("234m789p789s111z99s", "9s", round_wind="S")) == "no_yaku"


def test_junchan_terminals_everywhere_no_honours():
    r = sc("123m789p789s111s99m", "9m")
    assert ids(r) == ["junchan"] and r["han"] == 3
    assert han_of(sc("789p789s111s99m", "9m", melds=[("chi", "123m")]), "junchan") == 2


# ---- triplets -----------------------------------------------------------------------------------

def test_toitoi():
    r = sc("666s999m11p", "1p", melds=[("pon", "222m"), ("pon", "444p")])
    assert ids(r) == ["toitoi"]


def test_sanankou_and_the_ron_completed_triplet_is_open():
    assert ids(sc("222m444p666s789m11p", "1p")) == ["sanankou"]  # pair wait: three concealed triplets
    # won on 6s by ron: 666s counts as open, only two concealed triplets remain -> no yaku
    assert error_code(req("222m444p666s789m11p", "6s")) == "no_yaku"
    # the same on tsumo keeps the triplet concealed
    assert ids(sc("222m444p666s789m11p", "6s", tsumo=True)) == ["menzen_tsumo", "sanankou"]


def test_sanshoku_doukou():
    r = sc("222m222s789m11p", "1p", melds=[("pon", "222p")])
    assert ids(r) == ["sanshoku_doukou"]
    assert error_code(req("222m333s789m11p", "1p", melds=[("pon", "222p")])) == "no_yaku"


def test_sankantsu():
    r = sc("789m11p", "1p", melds=[("minkan", "2222m"), ("minkan", "4444p"), ("minkan", "6666s")])
    assert ids(r) == ["sankantsu"]


def test_shousangen_with_its_dragon_triplets():
    r = sc("555z666z77z123m456p", "4p")
    assert ids(r) == ["yakuhai_haku", "yakuhai_hatsu", "shousangen"] and r["han"] == 4
    # near miss: the pair is a wind
    assert ids(sc("555z666z44z123m456p", "4p")) == ["yakuhai_haku", "yakuhai_hatsu"]


def test_honroutou_with_triplets_and_with_seven_pairs():
    r = sc("999p111s999s11z", "1z", melds=[("pon", "111m")], round_wind="S")
    assert {"honroutou", "toitoi", "sanankou"} <= set(ids(r))
    assert ids(sc("1199m1199p11s1122z", "2z")) == ["chiitoitsu", "honroutou"]


def test_chiitoitsu_25_fu_and_four_of_a_kind_is_not_two_pairs():
    r = sc("1133m5577p22s4466z", "4z")
    assert ids(r) == ["chiitoitsu"] and r["fu"] == 25
    assert r["payments"] == {"discarder": 1600}  # 25 * 16 * 4 = 1600
    assert error_code(req("1111m5577p22s4466z", "4z")) == "not_complete"


# ---- flushes ------------------------------------------------------------------------------------

def test_honitsu_three_closed_two_open():
    assert ids(sc("123m456m678m111z99m", "9m", round_wind="S")) == ["honitsu"]
    assert han_of(sc("456m678m111z99m", "9m", melds=[("chi", "123m")], round_wind="S"), "honitsu") == 2


def test_chinitsu_six_closed_five_open_and_not_honitsu():
    r = sc("123m456m678m99m", "9m", melds=[("pon", "222m")])
    assert ids(r) == ["chinitsu"] and han_of(r, "chinitsu") == 5
    assert han_of(sc("123m456m678m222m99m", "9m"), "chinitsu") == 6
