"""Yakuman, their double forms per option, stacking, and the first-turn wins (tenhou, chiihou,
renhou). Rules "tenhou" (every yakuman single, different yakuman add up) unless said otherwise.
"""

from __future__ import annotations

import pytest
from test_riichi_helpers import error_code, ids, req, sc

KOKUSHI = "19m19p19s1234567z"


def test_kokushi_single_wait():
    # 13 tiles 1m 9m ... 6z 6z (pair of green) + 7z: the win was one of 13 singles -> single wait
    r = sc("19m19p19s12345667z", "7z")
    assert ids(r) == ["kokushi"] and r["yakuman"] == 1 and r["payments"] == {"discarder": 32000}


def test_kokushi_13_sided_counts_double_only_where_the_rules_say_so():
    # before the win the 13 orphans were all different: the 13-sided wait
    assert ids(sc(KOKUSHI + "1m", "1m")) == ["kokushi_13"]
    assert sc(KOKUSHI + "1m", "1m")["yakuman"] == 1                       # tenhou: single
    assert sc(KOKUSHI + "1m", "1m", rules="mahjongsoul")["yakuman"] == 2  # double
    assert sc(KOKUSHI + "1m", "1m", rules="mahjongsoul")["payments"] == {"discarder": 64000}


def test_suuankou_on_tsumo_and_single_wait():
    assert ids(sc("111m333p555s777m99p", "1m", tsumo=True)) == ["suuankou"]
    r = sc("111m333p555s777m99p", "9p", rules="mahjongsoul")
    assert ids(r) == ["suuankou_tanki"] and r["yakuman"] == 2


def test_suuankou_near_miss_ron_on_a_triplet_is_sanankou_toitoi():
    r = sc("111m333p555s777m99p", "1m")
    assert r["yakuman"] == 0 and {"sanankou", "toitoi"} <= set(ids(r))


def test_daisangen():
    assert ids(sc("555z666z777z123m99p", "9p")) == ["daisangen"]


def test_shousuushii_and_daisuushii():
    assert ids(sc("111z222z333z44z123m", "1m")) == ["shousuushii"]
    r = sc("111z222z333z444z11m", "1m", rules="ema2016")  # EMA: big four winds is the one double
    assert ids(r) == ["daisuushii"] and r["yakuman"] == 2


def test_tsuuiisou_all_honours_and_seven_honour_pairs():
    assert ids(sc("222z444z666z77z", "7z", melds=[("pon", "111z")])) == ["tsuuiisou"]
    assert ids(sc("11223344556677z", "7z")) == ["tsuuiisou"]


def test_chinroutou_all_terminals():
    r = sc("999m111p999p11s", "1s", melds=[("pon", "111m")])
    assert ids(r) == ["chinroutou"]


def test_ryuuiisou_with_and_without_green_dragon_by_option():
    assert ids(sc("234s234s666s888s66z", "6z")) == ["ryuuiisou"]
    assert ids(sc("234s234s666s888s22s", "2s")) == ["ryuuiisou"]
    r = sc("234s234s666s888s22s", "2s", rules={"preset": "tenhou", "ryuuiisou_needs_hatsu": True})
    assert r["yakuman"] == 0 and "chinitsu" in ids(r)


def test_chuuren_and_the_nine_sided_wait():
    # 1112345678999m + 5m: the 13 tiles before the win were the pure nine gates
    r = sc("11123455678999m", "5m", rules="mahjongsoul")
    assert ids(r) == ["junsei_chuuren"] and r["yakuman"] == 2
    # the same 14 tiles won on 6m: before the win 1112345578999 -> ordinary nine gates
    assert ids(sc("11123455678999m", "6m")) == ["chuuren"]


def test_chuuren_near_miss_open_hand():
    r = sc("11145678999m", "9m", melds=[("chi", "123m")])
    assert r["yakuman"] == 0 and "chinitsu" in ids(r)


def test_suukantsu_and_suukan_kaihou_in_ryanzou():
    melds = [("ankan", "1111m"), ("minkan", "2222p"), ("minkan", "3333s"), ("minkan", "4444z")]
    assert ids(sc("55z", "5z", melds=melds)) == ["suukantsu"]
    # seed 003: "Suukantsu mit Rinshan Kaihou (Suukankaihou)" is a double yakuman
    r = sc("55z", "5z", rules="ryanzou", melds=melds, tsumo=True, rinshan=True)
    assert ids(r) == ["suukan_kaihou"] and r["yakuman"] == 2
    assert sc("55z", "5z", rules="tenhou", melds=melds, tsumo=True, rinshan=True)["yakuman"] == 1


def test_tenhou_and_chiihou():
    r = sc("234m678m345p789s11s", "1s", seat_wind="E", tsumo=True, tenhou=True)
    assert ids(r) == ["tenhou"] and r["payments"] == {"each_non_dealer": 16000}
    r = sc("234m678m345p789s11s", "1s", tsumo=True, chiihou=True)
    assert ids(r) == ["chiihou"] and r["payments"] == {"dealer": 16000, "each_non_dealer": 8000}


@pytest.mark.parametrize(("rules", "yaku", "han", "payment"), [
    ("ryanzou", ["renhou"], 13, 32000),           # seed 003: renhou is a yakuman
    ("wrc", ["pinfu", "renhou"], 6, 12000),       # 5 han + pinfu = haneman 3000 * 4
    ({"preset": "tenhou", "renhou": "mangan"}, ["renhou"], 5, 8000),
])
def test_renhou_per_option(rules, yaku, han, payment):
    r = sc("234m678m345p789s11s", "2m", rules=rules, renhou=True)
    assert ids(r) == yaku and r["han"] == han and r["payments"] == {"discarder": payment}


def test_renhou_as_mangan_gives_way_to_a_bigger_hand():
    # chinitsu alone is 6 han (haneman), more than the mangan of renhou: the hand scores without renhou
    r = sc("12233445566799m", "1m", rules={"preset": "tenhou", "renhou": "mangan"}, renhou=True)
    assert "renhou" not in ids(r) and r["han"] >= 6


def test_renhou_off_in_tenhou_rules():
    assert error_code(req("234m678m345p789s11s", "1s", renhou=True)) == "no_yaku"


def test_yakuman_stacking_on_and_off():
    hand, melds = "666z777z222z11z", [("pon", "555z")]  # daisangen + tsuuiisou
    r = sc(hand, "1z", melds=melds)
    assert set(ids(r)) == {"daisangen", "tsuuiisou"} and r["yakuman"] == 2
    r = sc(hand, "1z", melds=melds, rules="ema2016")  # EMA 2016: yakuman are not cumulative
    assert r["yakuman"] == 1 and len(ids(r)) == 1


def test_kazoe_yakuman_or_sanbaiman():
    # 123m 123m 456m 789m 55m won on 6m (two-sided): riichi 1 + ippatsu 1 + tsumo 1 + pinfu 1
    # + iipeikou 1 + ittsu 2 + chinitsu 6 = 13 han without any dora
    hand = "112233456789m55m"
    r = sc(hand, "6m", rules="tenhou", riichi=True, ippatsu=True, tsumo=True)
    assert r["han"] == 13 and r["yakuman"] == 0 and r["limit"] == "yakuman" and r["kazoe"]
    assert r["payments"] == {"dealer": 16000, "each_non_dealer": 8000}
    r = sc(hand, "6m", rules="ema2016", riichi=True, ippatsu=True, tsumo=True)
    assert r["limit"] == "sanbaiman" and r["payments"] == {"dealer": 12000, "each_non_dealer": 6000}


def test_real_yakuman_preferred_over_equal_kazoe():
    # 333444555666s 77s: read as four concealed triplets (suuankou) or as chi (chinitsu ...);
    # both are worth 8000 base with enough dora: the yakuman reading is the one shown
    r = sc("33344455566677s", "3s", riichi=True, tsumo=True, dora_indicators=["2s"])
    assert ids(r) == ["suuankou"]
