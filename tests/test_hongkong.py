"""Hong Kong fan table (seed 004): every item with a hand that has it and a near miss without it.

Expected values are seed 004's descriptions counted by hand; fan values not printed in
the seed text are the standard modern Hong Kong table (the same values the independent
npm package hk-mahjong uses, see tests/test_hongkong_differential.py).
"""

from __future__ import annotations

import pytest

import companion
from companion.errors import (
    BelowMinimumError,
    InvalidRequestError,
    InvalidTilesError,
    NotCompleteError,
    UnknownRulesError,
)
from companion.rules import hongkong

NO_MIN = {"preset": "hongkong", "min_fan": 0}


def hk(hand: str, rules: dict | str | None = None, **kw) -> dict:
    request = {"rules": rules if rules is not None else dict(NO_MIN), "hand": hand}
    request.setdefault("seat_wind", "S")
    request.setdefault("round_wind", "E")
    request.update(kw)
    if not request.get("tsumo") and "discarder" not in request and not request.get("flower_win"):
        request["discarder"] = "W"
    if "win_tile" not in request:
        request["win_tile"] = hand[-2:] if hand[-2].isdigit() else None
    return hongkong.score(request)


def ids(result: dict) -> list[str]:
    return [y["id"] for y in result["yaku"]]


def fan_of(result: dict, item: str) -> int:
    return next(y["fan"] for y in result["yaku"] if y["id"] == item)


PLAIN = "123m456m789m234p55s"  # four chows, two suits, no honours


# ---- 1 fan items ---------------------------------------------------------------------------------

def test_self_drawn_is_one_fan_and_a_discard_is_not():
    # seed 004: "Gewinn mit einem selbstgezogenen Stein"
    assert fan_of(hk(PLAIN, tsumo=True), "self_drawn") == 1
    assert "self_drawn" not in ids(hk(PLAIN))


def test_all_chows_needs_four_chows():
    # seed 004: "Die Hand besteht aus vier Folgen und einem beliebigen Paar"
    assert fan_of(hk(PLAIN), "all_chows") == 1
    assert "all_chows" not in ids(hk("123m456m789m222p55s"))


def test_seat_flower_and_season_by_number():
    # seed 004: own flower/season by seat, East 1, South 2, West 3, North 4; both may count
    r = hk(PLAIN, flowers=["2f", "6f"])  # South: flower 2 and season 2
    assert fan_of(r, "seat_flower") == 1 and fan_of(r, "seat_season") == 1
    miss = hk(PLAIN, flowers=["3f", "5f"])  # West's flower, East's season
    assert "seat_flower" not in ids(miss) and "seat_season" not in ids(miss)


def test_no_flowers_only_when_bonus_tiles_are_played():
    # seed 004: "keine Glücksziegel gezogen ... angenommen nur wenn die Glücksziegel eingesetzt werden"
    assert fan_of(hk(PLAIN, flowers=[]), "no_flowers") == 1
    assert "no_flowers" not in ids(hk(PLAIN, flowers=["3f"]))
    assert "no_flowers" not in ids(hk(PLAIN, rules={**NO_MIN, "bonus_tiles": False}))


def test_concealed_hand_and_a_concealed_kong_opens_it():
    # seed 004: "Keine Beanspruchung inklusive verdeckter Kongs"; mostly not counted with bonus tiles
    on = {**NO_MIN, "concealed_hand": "on"}
    assert fan_of(hk(PLAIN, rules=on), "concealed_hand") == 1
    kong = hk("123m456m789m55s", rules=on, melds=[{"type": "ankan", "tiles": "2222p"}])
    assert "concealed_hand" not in ids(kong)
    assert "concealed_hand" not in ids(hk(PLAIN))  # default: bonus tiles in play
    assert "concealed_hand" in ids(hk(PLAIN, rules={**NO_MIN, "bonus_tiles": False}))


def test_concealed_hand_requiring_self_draw_option():
    # seed 004: "In einigen Spielen wird der Gewinn mit einem selbstgezogenen Stein auch benötigt"
    rules = {**NO_MIN, "concealed_hand": "on", "concealed_requires_tsumo": True}
    assert "concealed_hand" not in ids(hk(PLAIN, rules=rules))
    assert ids(hk(PLAIN, rules=rules, tsumo=True))[:2] == ["self_drawn", "concealed_hand"]


def test_seat_wind_pung():
    # seed 004: "Drilling oder Vierling des Platzwinds"
    hand = "123m456m789m222z55s"
    assert fan_of(hk(hand, seat_wind="S", round_wind="E"), "seat_wind") == 1
    assert "seat_wind" not in ids(hk(hand, seat_wind="W", round_wind="E", discarder="N"))


def test_round_wind_pung_and_double_wind():
    # seed 004: "Drilling oder Vierling des Rundenwinds"
    hand = "123m456m789m111z55s"
    r = hk(hand, seat_wind="S", round_wind="E")
    assert fan_of(r, "round_wind") == 1 and "seat_wind" not in ids(r)
    assert "round_wind" not in ids(hk(hand, seat_wind="S", round_wind="S"))
    both = hk(hand, seat_wind="E", round_wind="E", discarder="S")
    assert fan_of(both, "seat_wind") == 1 and fan_of(both, "round_wind") == 1


def test_dragon_pung_counts_per_dragon():
    # seed 004: "Drilling oder Vierling eines Drachen ... Doppelzählung mit zwei ... gestattet"
    assert fan_of(hk("123m456m789m555z55s"), "dragon_pung") == 1
    assert fan_of(hk("123m456m555z666z55s"), "dragon_pung") == 2
    assert "dragon_pung" not in ids(hk("123m456m789m234p55z"))  # a dragon pair is no set


def test_robbing_the_kong():
    # seed 004: win with the tile an opponent adds to his pung
    assert fan_of(hk(PLAIN, chankan=True), "robbing_kong") == 1
    assert "robbing_kong" not in ids(hk(PLAIN))


def test_last_tile_on_draw_and_discard_and_the_self_draw_only_option():
    # seed 004: "Gewinn mit dem allerletzten Stein ... In einigen Spielen nur beim selbstgezogenen Stein"
    drawn = hk(PLAIN, tsumo=True, haitei=True)
    assert fan_of(drawn, "last_tile") == 1 and "self_drawn" in ids(drawn)
    claimable = {**NO_MIN, "last_discard_claimable": True}
    assert fan_of(hk(PLAIN, rules=claimable, houtei=True), "last_tile") == 1
    assert "last_tile" not in ids(hk(PLAIN, rules={**claimable, "last_tile_tsumo_only": True}, houtei=True))


def test_the_last_discard_cannot_be_claimed_by_default():
    # seed 004: "Beanspruchung vom letzten Abwurf im Spiel ist nicht gestattet"
    with pytest.raises(InvalidRequestError, match="last discard"):
        hk(PLAIN, houtei=True)
    assert "last_tile" not in ids(hk(PLAIN, tsumo=True))


def test_kong_replacement_adds_self_draw():
    # seed 004: "Gewinn mit dem Ersatzziegel nach einem Kong ... Eigener Zug wird dazugerechnet"
    melds = [{"type": "minkan", "tiles": "2222p"}]
    r = hk("123m456m789m55s", melds=melds, tsumo=True, rinshan=True)
    assert fan_of(r, "kong_replacement") == 1 and fan_of(r, "self_drawn") == 1
    assert "kong_replacement" not in ids(hk("123m456m789m55s", melds=melds, tsumo=True))


def test_mixed_terminals_and_honours_adds_all_pungs():
    # seed 004: "ausschließlich aus Hauptziegeln ... Drillinghand wird dazugerechnet"
    r = hk("111m999p111s22z", melds=[{"type": "pon", "tiles": "111z"}])  # concealed it would be a limit
    assert fan_of(r, "mixed_orphans") == 1 and fan_of(r, "all_pungs") == 3
    assert "mixed_orphans" not in ids(hk("111m999p789s111z22z"))


# ---- 2 and 3 fan ---------------------------------------------------------------------------------

def test_full_set_of_flowers_replaces_the_own_flower():
    # seed 004: full set; "Die Platzblume im entsprechenden Set wird nicht dazugerechnet"
    r = hk(PLAIN, flowers=["1f", "2f", "3f", "4f", "6f"])
    assert fan_of(r, "flower_set") == 2 and "seat_flower" not in ids(r) and fan_of(r, "seat_season") == 1
    assert "flower_set" not in ids(hk(PLAIN, flowers=["1f", "2f", "3f", "5f"]))


def test_full_set_of_seasons():
    # seed 004: the seasons' set scores like the flowers' set
    assert fan_of(hk(PLAIN, flowers=["5f", "6f", "7f", "8f"]), "season_set") == 2
    assert "season_set" not in ids(hk(PLAIN, flowers=["5f", "6f", "7f", "4f"]))


def test_half_flush():
    # seed 004: "nur aus einer Grundfarbe und den Honors"
    assert fan_of(hk("123m456m789m111m77z"), "half_flush") == 3
    assert "half_flush" not in ids(hk("123m456m789m111p77z"))


def test_all_pungs_with_kongs_allowed():
    # seed 004: "vier Drillingen und einem Paar. Vierlinge sind auch zulässig"
    r = hk("222m555p777s99s", melds=[{"type": "minkan", "tiles": "3333m"}])
    assert fan_of(r, "all_pungs") == 3
    assert "all_pungs" not in ids(hk("222m555p789s99s", melds=[{"type": "pon", "tiles": "333m"}]))


def test_seven_bonus_tiles_declared_is_three_fan_without_self_draw():
    # seed 004: seven bonus tiles, win declared at once; "definitiv 3 Fan", self-draw not added
    seven = ["1f", "2f", "3f", "4f", "5f", "6f", "7f"]
    r = hk("1235m", flowers=seven, flower_win=True, tsumo=True)
    assert ids(r) == ["seven_flowers"] and r["fan"] == 3
    assert r["payments"] == {"each": 4}  # counts as self-drawn: 2^3 / 2 from each
    # completing the hand instead: the set, the remaining own flower and the self-draw count
    normal = hk("123m456m789m555z55m", rules="hongkong", flowers=seven, tsumo=True)
    assert "seven_flowers" not in ids(normal)
    assert {"flower_set", "seat_season", "self_drawn"} <= set(ids(normal))


def test_seven_flowers_kong_replacement_by_agreement():
    # seed 004: "Nach Verabredung darf Gewinn mit dem Kong-Ersatzziegel dazugerechnet werden"
    seven = ["1f", "2f", "3f", "4f", "5f", "6f", "7f"]
    rules = {**NO_MIN, "seven_flowers_kong_replacement": True}
    assert hk("1235m", rules=rules, flowers=seven, flower_win=True, tsumo=True, rinshan=True)["fan"] == 4
    assert hk("1235m", flowers=seven, flower_win=True, tsumo=True, rinshan=True)["fan"] == 3


def test_little_three_dragons_does_not_count_the_dragons_again():
    # seed 004: two dragon sets and the third dragon's pair; "Die Drachen werden nicht dazugerechnet"
    r = hk("123m456m555z666z77z")
    assert fan_of(r, "little_three_dragons") == 5 and "dragon_pung" not in ids(r)
    assert "little_three_dragons" not in ids(hk("123m456m555z666z77s"))


def test_full_flush():
    # seed 004: "ausschließlich aus einer Grundfarbe"
    assert fan_of(hk("123p456p789p222p55p"), "full_flush") == 7
    assert "full_flush" not in ids(hk("123p456p789p222p55z"))


def test_big_three_dragons_is_eight_fan():
    # seed 004: sets of all three dragons; the dragons are not counted again
    r = hk("123m555z666z777z99m")
    assert fan_of(r, "big_three_dragons") == 8 and "dragon_pung" not in ids(r)
    assert "big_three_dragons" not in ids(hk("123m555z666z777m99m"))


# ---- limit hands ---------------------------------------------------------------------------------

def limit_of(result: dict) -> str | None:
    return result["limit"]


def test_thirteen_orphans_is_a_limit_and_a_near_miss_is_not_complete():
    # seed 004: "Eine verdeckte Hand mit allen 13 Hauptziegeln ... und einem beliebigen doppelt"
    r = hk("19m19p19s12345677z")
    assert limit_of(r) == "thirteen_orphans" and r["fan"] == 8
    with pytest.raises(NotCompleteError):
        hk("29m19p19s12345677z")


def test_all_terminals_is_a_limit():
    # seed 004: "ausschließlich aus Randziegeln (1 und 9)"
    pon = [{"type": "pon", "tiles": "999p"}]  # called, so that no four concealed pungs limit interferes
    assert limit_of(hk("111m999m111p11s", melds=pon)) == "all_terminals"
    assert limit_of(hk("111m999m111p11z", melds=pon)) is None


def test_all_honours_is_a_limit():
    # seed 004: "ausschließlich aus den Honors"
    pon = [{"type": "pon", "tiles": "666z"}]
    assert limit_of(hk("111z222z555z77z", melds=pon, seat_wind="W", discarder="N")) == "all_honors"
    miss = hk("111m222z555z44z", melds=pon, seat_wind="W", discarder="N")
    assert "all_honors" not in ids(miss) and miss["fan_raw"] == 3 + 3 + 1 + 2 + 1  # flush, pungs, orphans, dragons, no flowers


def test_eight_bonus_tiles_win_at_once():
    # seed 004: all eight bonus tiles, win declared "ungeachtet von Vollständigkeit", self-drawn
    eight = [f"{i}f" for i in range(1, 9)]
    r = hk("1235m", rules="hongkong", flowers=eight, tsumo=True)
    assert limit_of(r) == "eight_flowers" and r["payments"] == {"each": 128}
    assert hk("1235m", rules={**NO_MIN, "eight_flowers": 8}, flowers=eight)["fan"] == 8
    assert limit_of(hk(PLAIN, flowers=eight[:7])) is None


def test_four_concealed_pungs_by_self_draw_or_pair_wait():
    # seed 004: four concealed pungs; a two-pair wait only by self-draw, a pair wait also on a discard
    hand = "111m333m555p777s99s"
    assert limit_of(hk(hand, tsumo=True, win_tile="7s")) == "four_concealed_pungs"
    assert limit_of(hk(hand, win_tile="9s")) == "four_concealed_pungs"
    assert limit_of(hk(hand, win_tile="7s")) is None  # discard completing a pung: an open pung
    # a called pung makes it an ordinary all-pungs hand
    assert limit_of(hk("111m333m555p99s", melds=[{"type": "pon", "tiles": "777s"}], tsumo=True)) is None


def test_eighteen_arhats_four_kongs():
    # seed 004: "vier Vierlingen und einem Paar"
    kongs = [{"type": "minkan", "tiles": "1111m"}, {"type": "ankan", "tiles": "2222p"},
             {"type": "kakan", "tiles": "3333s"}, {"type": "minkan", "tiles": "4444s"}]
    assert limit_of(hk("99m", melds=kongs)) == "eighteen_arhats"
    three = kongs[:3] + [{"type": "pon", "tiles": "444s"}]
    assert limit_of(hk("99m", melds=three)) is None


def test_little_four_winds_limit_and_six_fan_variant():
    # seed 004: three wind sets and a wind pair; "in manchen Spielen nur 6 Fan ... Unreine Farbhand
    # und ggf. Drillinghand dazugerechnet"
    hand = "111z222z333z44z"
    melds = [{"type": "pon", "tiles": "555m"}]
    assert limit_of(hk(hand, melds=melds)) == "little_four_winds"
    six = hk(hand, rules={**NO_MIN, "little_four_winds": 6}, melds=melds, flowers=["3f"])
    assert fan_of(six, "little_four_winds") == 6 and fan_of(six, "half_flush") == 3
    assert fan_of(six, "all_pungs") == 3 and six["fan_raw"] == 12 and six["fan"] == 8
    assert "little_four_winds" not in ids(hk("111z222z333z44m", melds=melds))


def test_big_four_winds():
    # seed 004: sets of all four winds
    assert limit_of(hk("111z222z333z444z55m")) == "big_four_winds"
    miss = hk("111z222z333z555m44z")
    assert "big_four_winds" not in ids(miss) and limit_of(miss) == "little_four_winds"


def test_nine_gates_only_concealed():
    # seed 004: concealed 1112345678999 of one suit plus any tile of that suit
    assert limit_of(hk("11123455678999m")) == "nine_gates"
    opened = hk("23455678999m", melds=[{"type": "pon", "tiles": "111m"}])
    assert "nine_gates" not in ids(opened) and opened["fan_raw"] == 7 + 1  # full flush, no flowers


def test_double_kong_replacement():
    # seed 004: win on the replacement tile after two kongs in a row
    melds = [{"type": "minkan", "tiles": "2222p"}, {"type": "ankan", "tiles": "3333s"}]
    assert limit_of(hk("123m456m55s", melds=melds, tsumo=True, rinshan=True, double_rinshan=True)) == \
        "double_kong_replacement"
    assert limit_of(hk("123m456m55s", melds=melds, tsumo=True, rinshan=True)) is None


def test_heavenly_earthly_and_human_hands():
    # seed 004: dealer's 14 original tiles; non-dealer on the dealer's first discard; non-dealer's first draw
    assert limit_of(hk(PLAIN, seat_wind="E", tsumo=True, tenhou=True)) == "heavenly_hand"
    assert limit_of(hk(PLAIN, seat_wind="S", discarder="E", renhou=True)) == "earthly_hand"
    assert limit_of(hk(PLAIN, seat_wind="S", tsumo=True, chiihou=True)) == "human_hand"
    assert limit_of(hk(PLAIN, seat_wind="S", tsumo=True)) is None
    with pytest.raises(InvalidRequestError):
        hk(PLAIN, seat_wind="S", tsumo=True, tenhou=True)  # only the dealer


def test_human_hand_variants():
    # seed 004: "als Limithand, 3 Fan oder gar nicht"
    three = hk(PLAIN, rules={**NO_MIN, "human_hand": 3}, tsumo=True, chiihou=True)
    assert fan_of(three, "human_hand") == 3 and three["limit"] is None
    assert "human_hand" not in ids(hk(PLAIN, rules={**NO_MIN, "human_hand": "none"}, tsumo=True, chiihou=True))


@pytest.mark.parametrize("option,value", [("eighteen_arhats", 3), ("nine_gates", 3), ("heavenly_hand", 3),
                                          ("earthly_hand", 3), ("big_four_winds", 3)])
def test_per_hand_overrides(option, value):
    # seed 004 notes differing sources; an override replaces the limit by a fixed fan value
    rules = {**NO_MIN, "cap": 13, option: value}
    requests = {
        "eighteen_arhats": dict(hand="99m", melds=[{"type": "minkan", "tiles": t} for t in
                                                    ("1111m", "2222p", "3333s", "4444s")], win_tile="9m"),
        "nine_gates": dict(hand="11123455678999m"),
        "heavenly_hand": dict(hand=PLAIN, seat_wind="E", tsumo=True, tenhou=True),
        "earthly_hand": dict(hand=PLAIN, seat_wind="S", discarder="E", renhou=True),
        "big_four_winds": dict(hand="111z222z333z55m", melds=[{"type": "pon", "tiles": "444z"}]),
    }
    r = hk(rules=rules, **requests[option])
    assert fan_of(r, option) == value and r["limit"] is None


# ---- minimum, cap, errors ------------------------------------------------------------------------

def test_minimum_three_fan_and_bonus_fan_do_not_count():
    # seed 004: "3-Fan-Pflicht"; issue 5: bonus-tile fan do not count toward the minimum
    with pytest.raises(BelowMinimumError) as err:
        hk("123m456m789m222p55s", rules="hongkong", tsumo=True, flowers=["2f", "6f"])  # 1 + 2 bonus
    assert "1 fan" in str(err.value) and "3" in str(err.value) and err.value.code == "below_minimum"
    with pytest.raises(BelowMinimumError):  # self-draw + dragon = 2, the seat flower does not help
        hk("123m456m789m555z55s", rules="hongkong", tsumo=True, flowers=["2f"], seat_wind="S")
    # self-draw + dragon + round wind = 3 reaches it; the seat flower adds on top
    r = hk("123m456m555z111z55s", rules="hongkong", tsumo=True, flowers=["2f"], seat_wind="S")
    assert (r["fan_toward_minimum"], r["fan"]) == (3, 4)


def test_cap_limits_the_sum():
    # seed 004: hands limited to 8 or 10 fan by agreement, 13 at most
    hand = "123p456p789p555z55p"  # half flush 3 + dragon 1 (+ no flowers 1) = 5
    r = hk(hand, tsumo=True, haitei=True)  # + self-draw + last tile = 7
    assert r["fan"] == 7 and r["limit"] is None
    full = hk("123p456p789p222p55p", tsumo=True, haitei=True)  # full flush 7 + 1 + 1 + no flowers 1 = 10
    assert full["fan"] == 8 and full["limit"] == "cap" and full["fan_raw"] == 10
    assert hk("123p456p789p222p55p", rules={**NO_MIN, "cap": 10}, tsumo=True, haitei=True)["fan"] == 10


def test_not_complete():
    with pytest.raises(NotCompleteError) as err:
        hk("123m456m789m234p56s")
    assert err.value.code == "not_complete"


def test_seven_pairs_is_not_a_hong_kong_hand():
    # seed 004 lists no seven-pairs hand: only four sets and a pair, or thirteen orphans
    with pytest.raises(NotCompleteError):
        hk("1122m3344p5566s77z")


def test_too_many_copies():
    with pytest.raises(InvalidTilesError) as err:
        hk("11123m456m789m55s", melds=[{"type": "pon", "tiles": "111m"}])
    assert err.value.code == "invalid_tiles" and "1m" in str(err.value)


def test_unknown_option_is_named():
    with pytest.raises(UnknownRulesError) as err:
        hk(PLAIN, rules={"preset": "hongkong", "minfan": 2, "colour": 1})
    assert "minfan" in str(err.value) and "colour" in str(err.value)


@pytest.mark.parametrize("rules", [{"preset": "hongkong", "cap": 9}, {"preset": "hongkong", "payment": "triple"},
                                   {"preset": "hongkong", "discard_pays": "none"},
                                   {"preset": "hongkong", "nine_gates": "double"}])
def test_bad_option_values_are_explained(rules):
    with pytest.raises(InvalidRequestError):
        hk(PLAIN, rules=rules)


def test_ron_needs_the_discarder():
    with pytest.raises(InvalidRequestError) as err:
        hongkong.score({"rules": "hongkong", "hand": "123m456m789m555z55s", "seat_wind": "S"})
    assert "discarder" in str(err.value)


def test_dispatch_through_companion_score():
    r = companion.score({"rules": "hongkong", "hand": "123m456m789m555z55m", "seat_wind": "S",
                         "tsumo": True, "win_tile": "5m", "flowers": ["2f"]})
    # self-draw 1 + seat flower 1 + half flush 3 + dragon 1 = 6 fan; 2^6 = 64, S/2 from each
    assert r["fan"] == 6 and r["payments"] == {"each": 32} and r["total_gain"] == 96


def test_eight_flowers_need_no_tiles_at_all():
    # seed 004: "ungeachtet von Vollständigkeit ... ohne den Ersatzziegel zu ziehen"; counts as self-drawn
    r = hongkong.score({"rules": "hongkong", "hand": "", "seat_wind": "N",
                        "flowers": [f"{i}f" for i in range(1, 9)]})
    assert r["limit"] == "eight_flowers" and r["payments_by_seat"] == {"E": -128, "S": -128, "W": -128, "N": 384}


def test_responsible_seat_is_checked_before_the_minimum():
    with pytest.raises(InvalidRequestError) as err:
        hk(PLAIN, rules="hongkong", tsumo=True, responsible="Q", responsibility="fourth_meld")
    assert "responsible" in str(err.value)


def test_another_preset_is_refused_by_this_family():
    with pytest.raises(UnknownRulesError):
        hk(PLAIN, rules={"preset": "wrc"})
