"""Every preset difference and every rule option, shown on hands.

Preset facts: ema2016 (EMA Riichi Competition Rules 2016), wrc (World Riichi Championship
Rules 2015), mleague, tenhou, mahjongsoul (their published ranked rules), ryanzou (seed 003).
"""

from __future__ import annotations

import pytest
from test_riichi_helpers import error_code, ids, req, sc

from companion.rules.riichi import PRESETS, resolve_rules
from companion.rules.riichi.options import DOUBLE_YAKUMAN_USUAL, OPTION_NAMES, describe

# 234m 234m 567p 678s 55s, ron on 6s (two-sided): riichi 1 + pinfu 1 + tanyao 1 + iipeikou 1 = 4 han 30 fu
FOUR_30 = "223344m567p678s55s"


def test_all_six_presets_load():
    assert PRESETS == ("ema2016", "wrc", "mleague", "tenhou", "mahjongsoul", "ryanzou")
    for name in PRESETS:
        opts = resolve_rules(name)
        assert opts.preset == name and set(describe(opts)) == set(OPTION_NAMES)


@pytest.mark.parametrize(("name", "expected"), [
    ("ema2016", dict(red_fives=0, kazoe="sanbaiman", kiriage=False, yakuman_stacking=False,
                     double_yakuman=("daisuushii",), renhou="yakuman", open_tanyao=True)),
    ("wrc", dict(red_fives=0, kazoe="sanbaiman", kiriage=False, double_yakuman=(), renhou="5han",
                 double_wind_pair_fu=2)),
    ("mleague", dict(red_fives=3, kazoe="yakuman", kiriage=True, double_yakuman=(), renhou="none",
                     yakuman_stacking=False)),
    ("tenhou", dict(red_fives=3, kazoe="yakuman", kiriage=False, double_yakuman=(), yakuman_stacking=True,
                    double_wind_pair_fu=4, renhou="none")),
    ("mahjongsoul", dict(red_fives=3, kazoe="yakuman", kiriage=False, double_yakuman=DOUBLE_YAKUMAN_USUAL)),
    # seed 003, line by line
    ("ryanzou", dict(open_tanyao=True, double_wind_pair_fu=4, kiriage=False, kazoe="yakuman", renhou="yakuman",
                     yakuman_stacking=True, daichiishin=True, double_riichi_last_tile_yakuman=True,
                     pinzu_bonus_yaku=True, ryuuiisou_needs_hatsu=False, tenhou_free_win_tile=True,
                     ippatsu=True, ura_dora=True, kan_dora=True, honba_value=300)),
])
def test_preset_contents(name, expected):
    opts = resolve_rules(name)
    assert {k: getattr(opts, k) for k in expected} == expected


def test_ryanzou_double_yakuman_list_from_seed_003():
    assert set(resolve_rules("ryanzou").double_yakuman) == {
        "daisuushii", "suuankou_tanki", "junsei_chuuren", "kokushi_13", "suukan_kaihou", "daichiishin"}


def test_kiriage_mleague_rounds_4_han_30_fu_up_tenhou_does_not():
    # 30 * 2^6 = 1920 base; non-dealer ron 4 * 1920 = 7680 -> 7700, or mangan 8000 with kiriage
    assert sc(FOUR_30, "6s", rules="tenhou", riichi=True)["payments"] == {"discarder": 7700}
    r = sc(FOUR_30, "6s", rules="mleague", riichi=True)
    assert r["payments"] == {"discarder": 8000} and r["limit"] == "mangan"
    assert sc(FOUR_30, "6s", rules={"preset": "tenhou", "kiriage": True}, riichi=True)["limit"] == "mangan"


def test_red_fives_rejected_in_ema_and_wrc_counted_in_tenhou():
    hand = "223344m067p678s55s"
    assert error_code(req(hand, "6s", rules="ema2016", riichi=True)) == "invalid_tiles"
    assert error_code(req(hand, "6s", rules="wrc", riichi=True)) == "invalid_tiles"
    assert sc(hand, "6s", rules="tenhou", riichi=True)["han"] == 5
    assert sc(hand, "6s", rules={"preset": "ema2016", "red_fives": True}, riichi=True)["han"] == 5


def test_four_red_fives_means_two_in_circles():
    hand = "223344m567p678s00p"  # a pair of red 5p
    assert error_code(req(hand, "6s", rules="tenhou", riichi=True)) == "invalid_tiles"
    assert sc(hand, "6s", rules={"preset": "tenhou", "red_fives": 4}, riichi=True)["dora"]["aka"] == 2


def test_renhou_in_ema_and_mleague():
    assert ids(sc("234m678m345p789s11s", "2m", rules="ema2016", renhou=True)) == ["renhou"]
    assert ids(sc("234m678m345p789s11s", "2m", rules="mleague", renhou=True)) == ["pinfu"]


def test_mleague_caps_stacked_yakuman_at_one():
    hand, melds = "666z777z222z11z", [("pon", "555z")]
    assert sc(hand, "1z", melds=melds, rules="mleague")["yakuman"] == 1
    assert sc(hand, "1z", melds=melds, rules="mahjongsoul")["yakuman"] == 2


def test_double_yakuman_override_true_means_the_usual_four():
    assert resolve_rules({"preset": "tenhou", "double_yakuman": True}).double_yakuman == DOUBLE_YAKUMAN_USUAL
    assert resolve_rules({"preset": "mahjongsoul", "double_yakuman": False}).double_yakuman == ()
    r = sc("111m333p555s777m99p", "9p", rules={"preset": "tenhou", "double_yakuman": ["suuankou_tanki"]})
    assert r["yakuman"] == 2


def test_honba_value_option():
    r = sc("234m678m345p789s11s", "2m", rules={"preset": "tenhou", "honba_value": 600}, honba=1)
    assert r["payments"] == {"discarder": 1000 + 600}


# ---- ryanzou local yaku (seed 003 "Local Yaku") ---------------------------------------------------

def test_uupin_kaihou_rinshan_on_5p():
    # 678m 345p 789s 11s + concealed kan 2222m; the replacement tile 5p completes 34p
    kw = dict(melds=[("ankan", "2222m")], tsumo=True, rinshan=True)
    assert ids(sc("678m345p789s11s", "5p", rules="ryanzou", **kw)) == ["menzen_tsumo", "rinshan", "uupin_kaihou"]
    assert ids(sc("678m345p789s11s", "5p", rules="tenhou", **kw)) == ["menzen_tsumo", "rinshan"]
    # near miss: rinshan on another tile
    assert "uupin_kaihou" not in ids(sc("678m345p789s11s", "8m", rules="ryanzou", **kw))


def test_iipin_mouyue_haitei_on_1p():
    r = sc("234m678m123p789s11s", "1p", rules="ryanzou", tsumo=True, haitei=True)
    assert "iipin_mouyue" in ids(r)
    assert "iipin_mouyue" not in ids(sc("234m678m123p789s11s", "1p", rules="ryanzou", tsumo=True))


def test_chuupin_raoyui_houtei_on_9p():
    r = sc("234m678m789p789s11s", "9p", rules="ryanzou", houtei=True)
    assert ids(r) == ["pinfu", "houtei", "chuupin_raoyui"]
    assert ids(sc("234m678m789p789s11s", "9p", rules="tenhou", houtei=True)) == ["pinfu", "houtei"]


def test_ryanzou_chankan_on_2s():
    r = sc("234m678m345p234s11s", "2s", rules="ryanzou", chankan=True)
    assert "ryanzou_chankan" in ids(r)
    assert "ryanzou_chankan" not in ids(sc("234m678m345p234s11s", "2s", rules="tenhou", chankan=True))


def test_daichiishin_double_yakuman_in_ryanzou():
    # seed 003: "Daichiishin/Große 7 Sterne: Doppel-Yakuman"; elsewhere seven honour pairs are tsuuiisou
    r = sc("11223344556677z", "7z", rules="ryanzou")
    assert ids(r) == ["daichiishin"] and r["yakuman"] == 2
    assert ids(sc("11223344556677z", "7z", rules="tenhou")) == ["tsuuiisou"]


def test_ishino_uenimo_sannen_double_riichi_on_the_last_tile():
    # seed 003: "Doppel-Riichi + Haitei/Houtei = Yakuman"
    r = sc("234m678m345p789s11s", "1s", rules="ryanzou", double_riichi=True, tsumo=True, haitei=True)
    assert ids(r) == ["ishino_uenimo_sannen"] and r["yakuman"] == 1
    r = sc("234m678m345p789s11s", "1s", rules="ryanzou", double_riichi=True, houtei=True)
    assert ids(r) == ["ishino_uenimo_sannen"]
    r = sc("234m678m345p789s11s", "1s", rules="tenhou", double_riichi=True, houtei=True)
    assert r["yakuman"] == 0 and ids(r) == ["double_riichi", "houtei"]


def test_tenhou_any_tile_may_be_the_winning_tile_in_ryanzou():
    # seed 003: with tenhou the dealer may treat any tile as the drawn one, e.g. suuankou tanki
    kw = dict(seat_wind="E", tsumo=True, tenhou=True)
    r = sc("111m333p555s777m99p", "1m", rules="ryanzou", **kw)
    assert set(ids(r)) == {"tenhou", "suuankou_tanki"} and r["yakuman"] == 3
    r = sc("111m333p555s777m99p", "1m", rules="tenhou", **kw)
    assert set(ids(r)) == {"tenhou", "suuankou"} and r["yakuman"] == 2
