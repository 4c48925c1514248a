"""Old Japanese rule book (seed 001): worked examples, payments, rounding, limits,
chombo, flowers, options and errors.

Expected figures come from the book's text (chapter and section cited in each
test) or are added up by hand in the comments; hands for the book's abstract
examples ("36 points and 3 doubles") are built so that their points and doubles
are exactly those, and the hand count is written out next to them.
"""

from __future__ import annotations

import pytest

from companion import score as companion_score
from companion.errors import (
    BelowMinimumError,
    InvalidRequestError,
    InvalidTilesError,
    NotCompleteError,
    UnknownRulesError,
)
from companion.rules import oldjapanese
from companion.rules.oldjapanese import chombo_payments, hand_value
from companion.rules.oldjapanese.settlement import round_payment

# ch. 6: "ohne 'Li Fan Shibari' ... und ohne Trumpfstein"; payments there are not rounded to 100
CH6 = {"preset": "oldjapanese", "min_doubles": 0, "dora": False, "rounding": "none"}


def score(request: dict) -> dict:
    """Score through the public entry point; requests without rules name this family's preset."""
    return companion_score({"rules": "oldjapanese", **request})


def rules(**options: object) -> dict:
    return {"preset": "oldjapanese", **options}


def melds(*specs: str) -> list[dict]:
    """"pon:777z" -> {"type": "pon", "tiles": "777z"}."""
    return [{"type": s.split(":")[0], "tiles": s.split(":")[1]} for s in specs]


def ids(result: dict) -> list[str]:
    return [i["id"] for i in result["items"]]


def test_preset_is_registered_and_dispatched():
    assert oldjapanese.PRESETS == ("oldjapanese",)
    r = companion_score({"rules": "oldjapanese", "hand": "123m456p789s234s55m", "win_tile": "4s",
                         "tsumo": True, "seat_wind": "S"})
    assert r["rules"] == "oldjapanese"


# --- chapter 4 IV/V: the worked payment examples --------------------------------------------------

# West, concealed, riichi; 234m 234p 234s 666p 55s, 3m from South completes the 2-4m kanchan.
# points: 20 base + 10 concealed ron + 4 concealed pong of simples (666p) + 2 kanchan on a discard = 36
# doubles: riichi 1 + all simples 1 + three similar sequences 1 = 3
WEST_RON = {"hand": "234m234p234s666p55s", "win_tile": "3m", "riichi": True, "seat_wind": "W",
            "discarder": "S", "dora_indicators": ["1z"]}
# West, open red-dragon pong; 111m 234m 678m 99m, 3m drawn into the 2-4m kanchan.
# points: 20 + 4 (open honour pong) + 8 (concealed terminal pong) + 4 (kanchan drawn) = 36
# doubles: lucky set (red dragons) 1 + one suit with honours 2 = 3
WEST_TSUMO = {"hand": "111m234m678m99m", "melds": melds("pon:777z"), "win_tile": "3m", "tsumo": True,
              "seat_wind": "W"}


def test_ch4_method1_discarder_pays_1152_rounded_to_1200():
    # seed 001 ch. 4 V.1: 36 points, 3 doubles -> 288; South pays 288 x 4 = 1152 -> 1200
    r = score({**WEST_RON, "rules": rules(rounding="method1")})
    assert (r["points"], r["doubles"], r["value"]) == (36, 3, 288)
    assert r["payments"] == {"discarder": 1200}
    assert r["payments_by_seat"] == {"E": 0, "S": -1200, "W": 1200, "N": 0}
    assert r["total_gain"] == 1200


def test_ch4_method1_self_draw_pays_300_300_600():
    # seed 001 ch. 4 V.1: South 300 (288), North 300 (288), East 600 (576)
    r = score({**WEST_TSUMO, "rules": rules(rounding="method1")})
    assert (r["points"], r["doubles"], r["value"]) == (36, 3, 288)
    assert r["payments"] == {"dealer": 600, "each_non_dealer": 300}
    assert r["payments_by_seat"] == {"E": -600, "S": -300, "W": 1200, "N": -300}


def test_ch4_method2_rounds_36_up_to_40_and_discarder_pays_1300():
    # seed 001 ch. 4 V.2: 36 -> 40, x 2^3 = 320; 320 x 4 = 1280 -> 1300
    r = score({**WEST_RON, "rules": rules(rounding="method2")})
    assert (r["points"], r["points_rounded"], r["value"]) == (36, 40, 320)
    assert r["payments"] == {"discarder": 1300}


def test_ch4_method2_self_draw_pays_300_300_600():
    # seed 001 ch. 4 V.2: South and North 300 (320), East 600 (640)
    r = score({**WEST_TSUMO, "rules": rules(rounding="method2")})
    assert r["value"] == 320
    assert r["payments_by_seat"] == {"E": -600, "S": -300, "W": 1200, "N": -300}


def test_default_rounding_is_method2_the_more_popular():
    # seed 001 ch. 4 V: "Die zweite ist beliebter"
    assert score(WEST_RON)["payments"] == {"discarder": 1300}


def test_ch4_east_40_points_3_doubles_tsumo_640_from_each():
    # seed 001 ch. 4 IV.1a: 40 x 2 x 2 x 2 = 320; East receives 640 from each, 1920 in all.
    # East, open 777z and 222m, concealed 111m 456m, wins on the 5z (white) pair by drawing:
    # 20 + 4 (open honour pong) + 2 (open simple pong) + 8 (concealed terminal pong)
    #    + 2 (pair of dragons) + 4 (pair wait, drawn) = 40; lucky set 1 + one suit with honours 2 = 3
    r = score({"rules": rules(rounding="none"), "hand": "111m456m55z", "melds": melds("pon:777z", "pon:222m"),
               "win_tile": "5z", "tsumo": True, "seat_wind": "E"})
    assert (r["points"], r["doubles"], r["value"]) == (40, 3, 320)
    assert r["payments"] == {"each_non_dealer": 640}
    assert r["payments_by_seat"] == {"E": 1920, "S": -640, "W": -640, "N": -640}
    assert r["total_gain"] == 1920


def test_ch4_east_ron_discarder_pays_all_1920():
    # seed 001 ch. 4 IV.1b: the discarder pays the whole 1920, the others nothing.
    # East, concealed: 222p 888s 345m 456s 66p, 4m from South fills the 3-5m kanchan:
    # 20 + 10 (concealed ron) + 4 + 4 (two concealed simple pongs) + 2 (kanchan, discard) = 40;
    # riichi 1 + all simples 1 + one dora (indicator 3s -> 4s) 1 = 3
    r = score({"rules": rules(rounding="none"), "hand": "222p66p345m456s888s", "win_tile": "4m",
               "riichi": True, "seat_wind": "E", "discarder": "S", "dora_indicators": ["3s"]})
    assert (r["points"], r["doubles"], r["value"]) == (40, 3, 320)
    assert r["payments"] == {"discarder": 1920}
    assert r["payments_by_seat"] == {"E": 1920, "S": -1920, "W": 0, "N": 0}


def test_ch4_south_46_points_2_doubles_unrounded_184_and_368():
    # seed 001 ch. 4 IV.2a (before rounding): 46 x 4 = 184; West and North 184, East 368.
    # South: open kong 9999m, concealed 222m 345m 678m, red-dragon pair, 4m drawn into 3-5m:
    # 20 + 16 (open terminal kong) + 4 (concealed simple pong) + 2 (dragon pair) + 4 (kanchan drawn) = 46;
    # one suit with honours = 2
    r = score({"rules": rules(rounding="exact"), "hand": "222m345m678m77z", "melds": melds("minkan:9999m"),
               "win_tile": "4m", "tsumo": True, "seat_wind": "S"})
    assert (r["points"], r["doubles"], r["value"]) == (46, 2, 184)
    assert r["payments_by_seat"] == {"E": -368, "S": 736, "W": -184, "N": -184}


def test_ch4_south_ron_east_discards_and_pays_736():
    # seed 001 ch. 4 IV.2b: East discarded, pays the whole 736.
    # South, concealed: 111p 555s 345m 678m 66z, 4m from East into the 3-5m kanchan:
    # 20 + 10 + 8 (concealed terminal pong) + 4 (concealed simple pong) + 2 (dragon pair) + 2 = 46;
    # riichi 1 + dora 1 (indicator 7m -> 8m) = 2
    r = score({"rules": rules(rounding="exact"), "hand": "111p555s345m678m66z", "win_tile": "4m",
               "riichi": True, "seat_wind": "S", "discarder": "E", "dora_indicators": ["7m"]})
    assert (r["points"], r["doubles"], r["value"]) == (46, 2, 184)
    assert r["payments"] == {"discarder": 736}


@pytest.mark.parametrize(("amount", "rounded"), [(137, 100), (1472, 1500), (349, 300), (350, 400),
                                                  (1152, 1200), (1280, 1300), (576, 600), (640, 600)])
def test_payments_round_to_nearest_hundred_half_up(amount, rounded):
    # seed 001 ch. 4 V: "Beispiele: 137 = 100; 1472 = 1500; 349 = 300; 350 = 400"
    assert round_payment(amount, "method1") == rounded
    assert round_payment(amount, "method2") == rounded
    assert round_payment(amount, "none") == amount


# --- chapter 6: the example game's four endings (no Li fan shibari, no dora, unrounded payments) --

EAST_HAND = {"hand": "12p3p88p555678s", "melds": melds("chi:234m"), "win_tile": "3p", "seat_wind": "E"}
SOUTH_HAND = {"hand": "555m55p234s", "melds": melds("chi:789m", "pon:111m"), "win_tile": "2s", "seat_wind": "S"}
NORTH_HAND = {"hand": "567s66z", "melds": melds("pon:999s", "pon:333z", "chi:678p"), "win_tile": "7s",
              "seat_wind": "N"}


def test_ch6_east_wins_tsumo_28_points_to_30_each_pays_60():
    # seed 001 ch. 6 III.1a: 20 + 4 (5s pong concealed) + 4 (one-sided wait, drawn) = 28 -> 30,
    # no doubles, East doubles: every player pays 60
    r = score({**EAST_HAND, "tsumo": True, "rules": CH6})
    assert (r["points"], r["points_rounded"], r["doubles"], r["value"]) == (28, 30, 0, 30)
    assert r["wait"] == "penchan"
    assert r["payments_by_seat"] == {"E": 180, "S": -60, "W": -60, "N": -60}


def test_ch6_east_wins_ron_26_points_discarder_pays_180():
    # seed 001 ch. 6 III.1b: 26 -> 30; the discarder pays for all, 60 x 3 = 180
    r = score({**EAST_HAND, "discarder": "W", "rules": CH6})
    assert (r["points"], r["value"]) == (26, 30)
    assert r["payments"] == {"discarder": 180}
    assert r["payments_by_seat"] == {"E": 180, "S": 0, "W": -180, "N": 0}


def test_ch6_south_wins_tsumo_30_points_west_north_30_east_60():
    # seed 001 ch. 6 III.2a: 20 + 4 (5m pong concealed) + 4 (1m pong open) + 2 (double-sided, drawn) = 30
    r = score({**SOUTH_HAND, "tsumo": True, "rules": CH6})
    assert (r["points"], r["value"]) == (30, 30)
    assert r["payments_by_seat"] == {"E": -60, "S": 120, "W": -30, "N": -30}


def test_ch6_south_wins_ron_28_points_discarder_pays_120():
    # seed 001 ch. 6 III.2b: 28 -> 30; the discarder pays 120
    r = score({**SOUTH_HAND, "discarder": "N", "rules": CH6})
    assert (r["points"], r["value"]) == (28, 30)
    assert r["payments"] == {"discarder": 120}


def test_ch6_west_a_8s_drawn_32_points_to_40():
    # seed 001 ch. 6 III.3a: 20 + 4 (open North pong) + 4 (8s pong, concealed) + 4 (triplet wait drawn)
    # = 32 -> 40; South and North 40, East 80
    r = score({"hand": "567m456p99p888s", "melds": melds("pon:444z"), "win_tile": "8s", "tsumo": True,
               "seat_wind": "W", "rules": CH6})
    assert (r["points"], r["value"]) == (32, 40)
    assert r["payments_by_seat"] == {"E": -80, "S": -40, "W": 160, "N": -40}


def test_ch6_west_b_8s_discarded_28_points_discarder_pays_120():
    # seed 001 ch. 6 III.3b: 20 + 4 + 2 (8s pong, now open) + 2 (triplet wait, discard) = 28 -> 30; 30 x 4
    r = score({"hand": "567m456p99p888s", "melds": melds("pon:444z"), "win_tile": "8s", "discarder": "E",
               "seat_wind": "W", "rules": CH6})
    assert (r["points"], r["value"]) == (28, 30)
    assert r["payments"] == {"discarder": 120}
    items = {i["id"]: i["points"] for i in r["items"]}
    assert items["open_pon_simples"] == 2 and items["wait_shanpon"] == 2


def test_ch6_west_c_9p_drawn_is_42_points():
    # seed 001 ch. 6 III.3c: 20 + 4 + 8 (9p pong concealed) + 10 (terminal triplet wait drawn) = 42.
    # The book then says "abgerundet auf 40", which contradicts its own rule (ch. 4 V.2: points are
    # rounded UP to the next ten) and its own 32 -> 40 two lines above; we follow the rule: 42 -> 50.
    r = score({"hand": "567m456p999p88s", "melds": melds("pon:444z"), "win_tile": "9p", "tsumo": True,
               "seat_wind": "W", "rules": CH6})
    assert r["points"] == 42
    assert r["points_rounded"] == 50
    assert r["payments_by_seat"] == {"E": -100, "S": -50, "W": 200, "N": -50}


def test_ch6_west_d_9p_discarded_32_points_to_40():
    # seed 001 ch. 6 III.3d: 20 + 4 + 4 (9p pong, open) + 4 (terminal triplet wait, discard) = 32 -> 40;
    # on a discard the discarder pays 40 x 4 (ch. 4 III c)
    r = score({"hand": "567m456p999p88s", "melds": melds("pon:444z"), "win_tile": "9p", "discarder": "S",
               "seat_wind": "W", "rules": CH6})
    assert (r["points"], r["value"]) == (32, 40)
    assert r["payments"] == {"discarder": 160}


def test_ch6_north_wins_tsumo_32_points_south_west_40_east_80():
    # seed 001 ch. 6 III.4a: 20 + 4 (9s pong open) + 4 (West pong open) + 2 (green dragon pair)
    # + 2 (double-sided, drawn) = 32 -> 40
    r = score({**NORTH_HAND, "tsumo": True, "rules": CH6})
    assert (r["points"], r["value"]) == (32, 40)
    assert r["payments_by_seat"] == {"E": -80, "S": -40, "W": -40, "N": 160}


def test_ch6_north_wins_ron_30_points_discarder_pays_120():
    # seed 001 ch. 6 III.4b: 30 x 4 = 120
    r = score({**NORTH_HAND, "discarder": "W", "rules": CH6})
    assert (r["points"], r["value"]) == (30, 30)
    assert r["payments"] == {"discarder": 120}


# --- limits (ch. 4 VII) -----------------------------------------------------------------------

@pytest.mark.parametrize(("points", "doubles", "value", "limit"), [
    (30, 6, 1920, None),  # 30 x 64 stays below the simple limit
    (40, 6, 2000, "mangan"),  # 2560 is capped: "mehr als 40 Gesamtpunkte und sechs Verdoppelungen"
    (70, 5, 2000, "mangan"),  # 2240 capped as well
    (20, 7, 2000, "mangan"),  # seven doubles: the simple limit "ungeachtet der Gesamtpunktzahl"
    (20, 8, 3000, "haneman"), (20, 9, 3000, "haneman"),
    (20, 10, 4000, "baiman"), (20, 12, 4000, "baiman"),
    (20, 13, 6000, "sanbaiman"), (20, 20, 6000, "sanbaiman"),
])
def test_limits_by_doubles(points, doubles, value, limit):
    # seed 001 ch. 4 VII.1-4
    assert hand_value(points, doubles) == (value, limit)


def test_limit_hand_is_8000_four_times_the_simple_limit():
    # seed 001 ch. 4 VII.5
    assert hand_value(20, 0, limit_hand=True) == (8000, "yakuman")


def test_limit_payment_east_pays_double():
    # ch. 4 VII.1 "in der üblichen Weise ausgezahlt": South tsumo with a limit hand (big three dragons)
    r = score({"hand": "555z666z777z234m99p", "win_tile": "3m", "tsumo": True, "seat_wind": "S"})
    assert r["limit"] == "yakuman" and r["value"] == 8000
    assert r["payments_by_seat"] == {"E": -16000, "S": 32000, "W": -8000, "N": -8000}


def test_eight_doubles_reach_haneman_3000():
    # South, concealed tsumo, one suit only: 111m 123m 456m 789m 55m, 5m drawn
    # doubles: concealed self-drawn 1 + one suit only 4 + three consecutive sequences (concealed) 2
    #          + riichi 1 = 8 -> 3000 (ch. 4 VII.2)
    r = score({"hand": "111m123m456m789m55m", "win_tile": "5m", "tsumo": True, "riichi": True,
               "seat_wind": "S"})
    assert r["doubles"] == 8
    assert (r["value"], r["limit"]) == (3000, "haneman")


# --- chombo and flowers (ch. 8) ---------------------------------------------------------------

def test_chombo_by_east_pays_4000_to_each():
    # seed 001 ch. 8 III.1: "Ist er Osten, zahlt er jedem Spieler 4000 Punkte"
    assert chombo_payments("E") == {"E": -12000, "S": 4000, "W": 4000, "N": 4000}


def test_chombo_by_non_east_pays_east_4000_others_2000():
    # seed 001 ch. 8 III.1: "zahlt er Osten 4000 Punkte und den anderen Spielern je 2000 Punkte"
    assert chombo_payments("W", "oldjapanese") == {"E": 4000, "S": 2000, "W": -8000, "N": 2000}
    assert sum(chombo_payments("N").values()) == 0


def test_chombo_rejects_bad_seat_and_bad_options():
    with pytest.raises(InvalidRequestError, match="seat wind"):
        chombo_payments("X")
    with pytest.raises(UnknownRulesError, match="penalty"):
        chombo_payments("S", {"preset": "oldjapanese", "penalty": 1})


def test_each_flower_or_season_is_4_points_own_one_doubles():
    # seed 001 ch. 8 II.4a/b: 4 points for every flower and season, a double for the own ones.
    # South (number 2) holds 1f (flower of East), 2f (own flower), 6f (own season):
    # open hand 123m 456p 789s + pon 555p, pair 22s won on a discard (tanki 2):
    # 20 + 2 (open simple pong) + 2 (pair wait) + 3 x 4 = 36; doubles 2
    r = score({"rules": rules(rounding="exact"), "hand": "123m456p789s22s", "melds": melds("pon:555p"),
               "win_tile": "2s", "discarder": "E", "seat_wind": "S", "flowers": ["1f", "2f", "6f"]})
    flowers = [i for i in r["items"] if i["id"] == "flower"]
    assert [i["points"] for i in flowers] == [4, 4, 4]
    assert r["points"] == 36
    assert sorted(i["id"] for i in r["items"] if "doubles" in i) == ["own_flower", "own_season"]
    assert r["value"] == 36 * 4


def test_foreign_flower_alone_brings_no_double():
    # near miss of the own flower: 3f belongs to West, not to South
    r = score({"rules": rules(min_doubles=0), "hand": "123m456p789s22s", "melds": melds("pon:555p"),
               "win_tile": "2s", "discarder": "E", "seat_wind": "S", "flowers": ["3f"]})
    assert r["doubles"] == 0


def test_flowers_written_in_the_hand_count_too():
    r = score({"rules": rules(min_doubles=0), "hand": "123m456p789s22s 4f", "melds": melds("pon:555p"),
               "win_tile": "2s", "discarder": "E", "seat_wind": "N"})
    assert "own_flower" in ids(r)


def test_bouquet_of_four_flowers_is_a_limit_hand():
    # seed 001 ch. 8 II.4c
    r = score({"rules": rules(min_doubles=0), "hand": "123m456p789s22s", "melds": melds("pon:555p"),
               "win_tile": "2s", "discarder": "E", "seat_wind": "S", "flowers": ["1f", "2f", "3f", "4f"]})
    assert "bouquet" in ids(r) and r["value"] == 8000


def test_all_four_seasons_are_a_bouquet_too_but_mixed_four_are_not():
    base = {"rules": rules(min_doubles=0), "hand": "123m456p789s22s", "melds": melds("pon:555p"),
            "win_tile": "2s", "discarder": "E", "seat_wind": "S"}
    assert score({**base, "flowers": ["5f", "6f", "7f", "8f"]})["limit"] == "yakuman"
    assert score({**base, "flowers": ["1f", "2f", "3f", "8f"]})["limit"] is None


# --- the minimum of one double ("Li fan shibari", ch. 3 XIII) -----------------------------------

def test_below_minimum_names_doubles_and_minimum():
    # open hand without any double
    with pytest.raises(BelowMinimumError, match=r"0 double.*at least 1") as info:
        score({"hand": "123m456p789s22s", "melds": melds("pon:555p"), "win_tile": "2s", "discarder": "E",
               "seat_wind": "S"})
    assert info.value.code == "below_minimum"


def test_dora_never_count_for_the_minimum():
    # ch. 3 XIII: "Sie dürfen die Verdoppelung durch einen Trumpfstein nicht als Erlaubnis zum Ausmachen benützen"
    req = {"hand": "123m456p789s22s", "melds": melds("pon:555p"), "win_tile": "2s", "discarder": "E",
           "seat_wind": "S", "dora_indicators": ["4p"]}
    with pytest.raises(BelowMinimumError, match="dora do not count"):
        score(req)
    r = score({**req, "rules": rules(min_doubles=0)})
    assert r["doubles"] == 4 and r["doubles_for_minimum"] == 0  # three 5p in the pong, one in 456p


def test_concealed_hand_may_win_by_drawing_the_last_tile():
    # ch. 3 XIII: a concealed hand may win when it draws the tile (the concealed self-drawn double)
    r = score({"hand": "123m456p789s22s555p", "win_tile": "2s", "tsumo": True, "seat_wind": "S"})
    assert "menzen_tsumo" in ids(r)
    with pytest.raises(BelowMinimumError):
        score({"hand": "123m456p789s22s555p", "win_tile": "2s", "discarder": "N", "seat_wind": "S"})


def test_double_only_from_the_last_tile_does_not_allow_the_win():
    # ch. 3 XIII rule 1: open hand waiting on red dragons or 5p (two pairs); the lucky set comes only
    # if the last tile is the red dragon, so the win is refused; min_doubles 0 lifts the rule
    req = {"hand": "123m456p55p77z7z", "melds": melds("chi:789s"), "win_tile": "7z", "discarder": "E",
           "seat_wind": "S"}
    with pytest.raises(BelowMinimumError, match="only with the winning tile"):
        score(req)
    assert score({**req, "rules": rules(double_before_last_tile=False)})["doubles"] == 1
    assert score({**req, "rules": rules(min_doubles=0)})["doubles"] == 1


def test_double_already_there_allows_the_win_on_any_tile():
    # near miss: the red-dragon pong is already complete; both waits (2s/5s) keep the double
    r = score({"hand": "123m777z55p34s2s", "melds": melds("chi:789s"), "win_tile": "2s", "discarder": "E",
               "seat_wind": "S"})
    assert r["doubles"] == 1


# --- options and errors ------------------------------------------------------------------------

def test_unknown_option_is_named():
    with pytest.raises(UnknownRulesError, match="fan_minimum"):
        score({**WEST_RON, "rules": {"preset": "oldjapanese", "fan_minimum": 3}})


def test_bad_option_values_are_refused():
    with pytest.raises(InvalidRequestError, match="rounding"):
        score({**WEST_RON, "rules": rules(rounding="up")})
    with pytest.raises(InvalidRequestError, match="min_doubles"):
        score({**WEST_RON, "rules": rules(min_doubles="one")})


def test_not_complete_hand_is_refused():
    with pytest.raises(NotCompleteError, match="not complete"):
        score({"hand": "123m456p789s22s569p", "win_tile": "9p", "tsumo": True})


def test_too_many_copies_are_refused():
    with pytest.raises(InvalidTilesError, match="5 times"):
        score({"hand": "11111m456p789s22s55p", "win_tile": "1m", "tsumo": True})
    # four in a meld and one more in the hand
    with pytest.raises(InvalidTilesError, match="5p appears 5 times"):
        score({"hand": "123m456p789s22s", "melds": melds("minkan:5555p"), "win_tile": "2s", "tsumo": True})


def test_ron_needs_a_discarder_other_than_the_winner():
    with pytest.raises(InvalidRequestError, match="discarder"):
        score({"hand": "123m456p789s234s55m", "win_tile": "4s", "riichi": True})
    with pytest.raises(InvalidRequestError, match="discarder"):
        score({"hand": "123m456p789s234s55m", "win_tile": "4s", "riichi": True, "discarder": "E"})


def test_riichi_with_an_open_hand_is_refused():
    with pytest.raises(InvalidRequestError, match="concealed"):
        score({"hand": "123m456p789s22s", "melds": melds("pon:555p"), "win_tile": "2s", "tsumo": True,
               "riichi": True})


def test_flags_the_book_does_not_have_are_refused():
    with pytest.raises(InvalidRequestError, match="ippatsu"):
        score({**WEST_RON, "ippatsu": True})


def test_wrong_number_of_tiles_is_refused():
    with pytest.raises(InvalidRequestError, match="14 tiles"):
        score({"hand": "123m456p789s22s", "win_tile": "2s", "tsumo": True})


def test_win_tile_must_be_in_the_hand():
    with pytest.raises(InvalidRequestError, match="among the hand"):
        score({**WEST_RON, "win_tile": "9m"})


def test_riichi_sticks_go_to_the_winner():
    # ch. 3 XII: the 1000-point riichi sticks go to the winner
    r = score({**WEST_RON, "riichi_sticks": 2})
    assert r["total_gain"] == 1300 + 2000
    assert sum(r["payments_by_seat"].values()) == 0


# --- table rules: dealer and final account ----------------------------------------------------

def test_east_deals_again_after_own_win_or_a_draw():
    # seed 001 ch. 3 VIII: "Falls allerdings Osten Hulla sagt, oder niemand ausmacht, bleibt derselbe Spieler Osten"
    from companion.rules.oldjapanese import dealer_stays

    assert dealer_stays("E") and dealer_stays(None)
    assert not dealer_stays("S") and not dealer_stays("N")


def test_east_moves_on_after_his_own_false_win():
    # seed 001 ch. 8 I.7: "Sollte die falsche Hullameldung von Osten gemacht worden sein, rückt Osten ... weiter"
    from companion.rules.oldjapanese import dealer_stays

    assert not dealer_stays(None, chombo_by="E")
    assert dealer_stays(None, chombo_by="W")


def test_final_account_rounds_to_thousands_and_rewards_the_top():
    # seed 001 ch. 4 VI: up to 400 down, from 500 up; each assumed 30,000 but held 27,000, the 12,000
    # difference goes to the player with the most points.
    # E 35,400 -> 35,000 -> +5,000 + 12,000; S 25,500 -> 26,000 -> -4,000; W 20,100 -> -10,000; N 27,000 -> -3,000
    from companion.rules.oldjapanese import final_account

    assert final_account({"E": 35400, "S": 25500, "W": 20100, "N": 27000}) == {
        "E": 17000, "S": -4000, "W": -10000, "N": -3000}


def test_final_account_shares_the_reward_on_a_tie_and_needs_four_seats():
    from companion.rules.oldjapanese import final_account

    assert final_account({"E": 32000, "S": 32000, "W": 22000, "N": 22000}) == {
        "E": 8000, "S": 8000, "W": -8000, "N": -8000}
    with pytest.raises(InvalidRequestError, match="four seats"):
        final_account({"E": 27000})


def test_own_flower_double_counts_for_the_minimum_unless_switched_off():
    # ch. 3 XIII excludes only the dora from "Li fan shibari"; own flowers count by default
    req = {"hand": "123m456p789s22s", "melds": melds("pon:555p"), "win_tile": "2s", "discarder": "E",
           "seat_wind": "S", "flowers": ["2f"]}
    assert score(req)["doubles_for_minimum"] == 1
    with pytest.raises(BelowMinimumError):
        score({**req, "rules": rules(flowers_count_for_minimum=False)})


def test_honba_sticks_are_only_a_counter():
    # ch. 3 VIII: East's 100-point sticks mark the extra games and are taken back; nobody pays them
    assert score({**WEST_RON, "honba": 3})["payments"] == score(WEST_RON)["payments"]
