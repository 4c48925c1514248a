"""Bad requests get a clear error with a stable code (issue 2: invalid_tiles, invalid_request,
not_complete, no_yaku, unknown_rules), never a traceback."""

from __future__ import annotations

import pytest
from riichi_random import mangle
from test_riichi_helpers import error_code, req, sc

from companion import score as top_level_score
from companion.errors import CompanionError

PLAIN = "234m678m345p789s11s"


def message(request: dict) -> str:
    with pytest.raises(CompanionError) as info:
        top_level_score(request)
    return str(info.value)


def test_dispatch_through_companion_score():
    assert top_level_score(req(PLAIN, "2m"))["han"] == 1


def test_not_complete():
    assert error_code(req("234m678m345p789s12s", "2s")) == "not_complete"


def test_no_yaku():
    assert error_code(req(PLAIN, "1s")) == "no_yaku"


def test_unknown_request_key_is_named():
    r = req(PLAIN, "2m")
    r["flowers"] = ["1f"]
    assert error_code(r) == "invalid_request" and "flowers" in message(r)


def test_unknown_rule_option_and_preset():
    assert error_code(req(PLAIN, "2m", rules={"preset": "tenhou", "aka": 3})) == "unknown_rules"
    assert "'aka'" in message(req(PLAIN, "2m", rules={"preset": "tenhou", "aka": 3}))
    assert error_code(req(PLAIN, "2m", rules="nosuchrules")) == "unknown_rules"


@pytest.mark.parametrize(("option", "value"), [
    ("kazoe", "maybe"), ("renhou", 3), ("double_wind_pair_fu", 3), ("red_fives", 5), ("kiriage", "yes"),
    ("double_yakuman", 1),
])
def test_bad_option_values(option, value):
    assert error_code(req(PLAIN, "2m", rules={"preset": "tenhou", option: value})) == "invalid_request"


def test_unknown_double_yakuman_id():
    assert error_code(req(PLAIN, "2m", rules={"preset": "tenhou", "double_yakuman": ["daisangen"]})) == "unknown_rules"


def test_hand_size_must_match_melds():
    assert error_code(req(PLAIN[:-1] + "1z", "2m", melds=[("pon", "555z")])) == "invalid_request"
    assert "has 14 tiles; with 1 meld the concealed part including the winning tile has 11" \
        in message(req(PLAIN, "2m", melds=[("pon", "555z")]))


def test_win_tile_must_be_in_the_hand():
    assert error_code(req(PLAIN, "9m")) == "invalid_request"
    assert error_code(req(PLAIN, "0m", rules="tenhou")) == "invalid_request"  # no red 5m in the hand


def test_win_tile_missing():
    r = req(PLAIN, "2m")
    del r["win_tile"]
    assert error_code(r) == "invalid_request"


def test_malformed_tiles():
    assert error_code(req("234m678m345p789s11q", "2m")) == "invalid_tiles"
    assert error_code(req("234m678m345p789s18z", "2m")) == "invalid_tiles"


def test_meld_must_form_its_type():
    assert error_code(req("678m345p789s11s", "1s", melds=[("chi", "135m")])) == "invalid_tiles"
    assert error_code(req("678m345p789s11s", "1s", melds=[("pon", "123m")])) == "invalid_tiles"
    assert error_code(req("678m345p789s11s", "1s", melds=[("minkan", "222m")])) == "invalid_tiles"
    assert error_code(req("678m345p789s11s", "1s", melds=[("chi", "123z")])) == "invalid_tiles"
    assert error_code(req("678m345p789s11s", "1s", melds=[("kong", "2222m")])) == "invalid_request"


def test_ankan_may_show_face_down_tiles():
    r = sc("678m345p789s11s", "1s", melds=[("ankan", "x22mx")], riichi=True)
    assert r["han"] == 1 and any(i["fu"] == 16 for i in r["fu_details"])


def test_more_than_four_copies_across_hand_melds_and_indicators():
    r = req("678m345p789s11s", "1s", melds=[("ankan", "2222m")], riichi=True, dora_indicators=["2m"])
    assert error_code(r) == "invalid_tiles" and "2m appears 5 times" in message(r)


def test_red_fives_beyond_the_rules():
    assert error_code(req("234m678m340p789s11s", "1s", rules="ema2016", riichi=True)) == "invalid_tiles"
    # tenhou has one red five per suit
    r = req("234m678m300p789s11s", "1s", rules={"preset": "tenhou"}, riichi=True, dora_indicators=["1s"])
    assert error_code(r) == "invalid_tiles"


def test_red_fives_are_counted_per_suit_across_hand_melds_and_indicators():
    # tenhou plays one red five per suit (seed 000 leaves the number to the rules): a red 5p in the
    # hand and another in a called pon are two of the one there is
    two_in_p = req("234m678m406p11s", "1s", melds=[("pon", "055p")])
    assert error_code(two_in_p) == "invalid_tiles" and "2 red fives 0p" in message(two_in_p)
    # one per suit, spread over hand and meld: three red fives, 3 dora (open tanyao in tenhou)
    spread = sc("234m670m406p22s", "2s", melds=[("pon", "055s")])
    assert spread["dora"]["aka"] == 3
    # a red five lying as an indicator is one of its suit's too
    as_indicator = sc("234m670m456p22s", "2s", melds=[("pon", "055s")], dora_indicators=["0p"])
    assert as_indicator["dora"]["aka"] == 2
    too_many = req("234m670m456p22s", "2s", melds=[("pon", "055s")], dora_indicators=["0m"])
    assert error_code(too_many) == "invalid_tiles" and "2 red fives 0m" in message(too_many)


def test_red_fives_count_as_dora_where_allowed():
    r = sc("234m678m340p789s11s", "1s", rules="tenhou", riichi=True)
    assert r["dora"]["aka"] == 1 and r["han"] == 2


@pytest.mark.parametrize("flags", [
    {"tenhou": True},                                  # tenhou by a non-dealer
    {"tenhou": True, "seat_wind": "E"},                # tenhou on a ron
    {"chiihou": True},                                 # chiihou on a ron
    {"renhou": True, "tsumo": True},                   # renhou on a tsumo
    {"ippatsu": True},                                 # ippatsu without riichi
    {"rinshan": True, "tsumo": True},                  # rinshan without a kan
    {"chankan": True, "tsumo": True},                  # chankan on a tsumo
    {"haitei": True},                                  # haitei on a ron
    {"houtei": True, "tsumo": True},                   # houtei on a tsumo
    {"tenhou": True, "seat_wind": "E", "tsumo": True, "riichi": True},
    {"ura_indicators": ["1m"]},                        # ura without riichi
    {"discarder": "S"},                                # the winner as discarder
])
def test_contradicting_flags(flags):
    assert error_code(req(PLAIN, "2m", **flags)) == "invalid_request"


def test_rinshan_with_ron_and_with_haitei():
    melds = [("ankan", "2222m")]
    assert error_code(req("678m345p789s11s", "1s", melds=melds, rinshan=True)) == "invalid_request"
    assert error_code(req("678m345p789s11s", "1s", melds=melds, rinshan=True, tsumo=True, haitei=True)) \
        == "invalid_request"


def test_riichi_with_an_open_meld():
    assert error_code(req("678m345p789s11s", "1s", melds=[("chi", "234m")], riichi=True)) == "invalid_request"


@pytest.mark.parametrize(("key", "value"), [
    ("tsumo", "yes"), ("honba", -1), ("riichi_sticks", 1.5), ("seat_wind", "X"), ("melds", "234m"),
    ("dora_indicators", 5),
])
def test_wrong_types(key, value):
    r = req(PLAIN, "2m")
    r[key] = value
    assert error_code(r) == "invalid_request"


def test_a_request_must_be_an_object():
    with pytest.raises(CompanionError) as info:
        top_level_score(["not", "a", "dict"])
    assert info.value.code == "invalid_request"


def test_no_kan_dora_rule_limits_indicators():
    r = req(PLAIN, "2m", rules={"preset": "tenhou", "kan_dora": False}, dora_indicators=["1m", "2m"])
    assert error_code(r) == "invalid_request"


def test_dora_ura_and_kan_dora_indicators():
    # indicators 1m and 3p point at 2m and 4p (one each in the hand); ura 8s points at 9s (one)
    r = sc(PLAIN, "1s", riichi=True, dora_indicators=["1m", "3p"], ura_indicators=["8s"])
    assert (r["dora"]["dora"], r["dora"]["ura"]) == (2, 1) and r["han"] == 1 + 3


def test_ura_dora_off_by_option():
    r = sc(PLAIN, "1s", rules={"preset": "tenhou", "ura_dora": False}, riichi=True, ura_indicators=["8s"])
    assert r["dora"]["ura"] == 0 and r["han"] == 1


def test_dora_wraps_nine_to_one_north_to_east_red_to_white():
    # seed 000 "Bonussteine": 9 points at 1, North at East, and the dragons cycle
    r = sc("123m678m345p789s11z", "1z", riichi=True, round_wind="S", dora_indicators=["9m", "4z"])
    assert r["dora"]["dora"] == 1 + 2
    r = sc("234m678m345p789s55z", "5z", riichi=True, dora_indicators=["7z"])
    assert r["dora"]["dora"] == 2


def test_red_five_inside_a_called_chi_counts_as_aka():
    r = sc("678m345p555z11s", "1s", rules="tenhou", melds=[("chi", "406p")])
    assert r["dora"]["aka"] == 1 and r["han"] == 1 + 1  # haku + one red five


def test_mangled_requests_give_companion_errors_never_tracebacks():
    # brief: bad input gets a clear error, never a traceback. Mutate valid requests at random
    # (fixed seed) and accept only a result or a CompanionError.
    import random

    rng = random.Random(2016)
    junk = [None, 0, -3, 1.5, True, "", "x", "0z", "99m", "123", [], {}, ["1m", 2], {"type": "pon"},
            [{"type": "pon", "tiles": "555z"}], [{"type": "ankan", "tiles": "xxxx"}], "E", "Q", "1f", "0m"]
    keys = ["rules", "hand", "melds", "win_tile", "tsumo", "riichi", "seat_wind", "round_wind", "honba",
            "dora_indicators", "ura_indicators", "discarder", "tenhou", "chankan"]
    base = [req(PLAIN, "2m"), req("678m345p555z11s", "1s", melds=[("chi", "406p")]),
            req("111m333p555s777m99p", "9p", rules="ryanzou")]
    for _ in range(1500):
        r = mangle(rng, rng.choice(base), keys, junk)
        try:
            top_level_score(r)
        except CompanionError:
            pass
