"""Table rules from the presets' [table] sections and the family defaults."""

import dataclasses

import pytest

from companion.errors import UnknownRulesError
from companion.table.rules import ABORTIVE_KINDS, NOT_OVERRIDES, TableRules, table_rules


def test_ryanzou_preset_has_the_club_table_rules():
    # seed 003 "Gameplay": uma +15/+5/-5/-15, oka +20 with 25,000 start and 30,000 target,
    # seat order breaks ties, head bump decides sticks / own stick back / both get honba,
    # tobi, agari-yame and tenpai-yame, West then North sudden death, no sanchahou.
    r = table_rules("ryanzou")
    assert (r.start_points, r.return_points, r.oka) == (25000, 30000, 20000)
    assert r.uma == (15, 5, -5, -15)
    assert r.tie == "seat_order"
    assert (r.multiple_ron, r.sticks_on_multiple_ron, r.honba_on_multiple_ron) == ("allow", "own_back", "all")
    assert r.bust_below_zero and r.agari_yame and r.tenpai_yame and not r.yame_automatic
    assert r.extra_rounds == "west_then_sudden_death"
    assert r.chombo == "reverse_mangan"
    assert "sanchahou" not in r.abortive_draws and "suukaikan" in r.abortive_draws
    assert r.honba_value == 300 and r.tenpai_payment == 3000  # seed 000 / seed 003 "Honba"


def test_ema2016_chombo_is_a_penalty_after_uma_and_no_abortive_draws():
    r = table_rules("ema2016")
    assert r.chombo == "penalty" and r.chombo_penalty == 20000
    assert r.abortive_draws == ()
    assert r.oka == 0  # 30,000 start and target


@pytest.mark.parametrize("preset", ["ema2016", "wrc", "mleague", "tenhou", "mahjongsoul", "ryanzou"])
def test_every_riichi_preset_has_a_valid_table_section(preset):
    r = table_rules(preset)
    assert r.family == "riichi" and r.preset == preset
    assert sum(r.uma) == 0
    assert set(r.abortive_draws) <= set(ABORTIVE_KINDS)


def test_overrides_replace_single_fields():
    r = table_rules("ryanzou", {"length": "east", "uma": [20, 10, -10, -20], "tie": "share"})
    assert r.length == "east" and r.uma == (20, 10, -10, -20) and r.tie == "share"
    assert r.start_points == 25000


def test_unknown_override_is_named():
    with pytest.raises(UnknownRulesError, match="bogus_rule"):
        table_rules("wrc", {"bogus_rule": 1})


@pytest.mark.parametrize("overrides, text", [
    ({"start_points": "25000"}, "whole number"),
    ({"bust_below_zero": 1}, "true or false"),
    ({"tie": "coin_flip"}, "share, seat_order"),
    ({"uma": [15, 5, -5, -10]}, "add up to 0"),
    ({"abortive_draws": ["nine_gates"]}, "nine_gates"),
    ({"family": "hongkong"}, "cannot be overridden"),
    ({"tenpai_payment": 1000}, "split evenly"),
    ({"honba_value": 100}, "split evenly"),
])
def test_bad_override_values_are_refused(overrides, text):
    with pytest.raises(UnknownRulesError, match=text):
        table_rules("tenhou", overrides)


# ----- amounts: each whole-number rule has a range ---------------------------------------------

WHOLE_NUMBER_RULES = [f.name for f in dataclasses.fields(TableRules) if type(f.default) is int]


def test_the_whole_number_rules_are_the_amounts_checked_below():
    # a new amount must get a range (and a line in the tests below) before it can be overridden
    assert sorted(WHOLE_NUMBER_RULES) == ["chombo_penalty", "final_rounding", "honba_value", "return_points",
                                          "start_points", "target_points", "tenpai_payment"]


@pytest.mark.parametrize("name", WHOLE_NUMBER_RULES)
@pytest.mark.parametrize("value", [-6, -30000, 6 * 10**6, 6 * 10**30])
def test_negative_or_huge_amounts_are_refused_naming_the_rule_and_its_range(name, value):
    # -6 and the multiples of 6 split evenly, so only the range can refuse them
    with pytest.raises(UnknownRulesError, match=rf"'{name}' must be from \d"):
        table_rules("tenhou", {name: value})


@pytest.mark.parametrize("overrides, text", [
    # QA: a negative tenpai payment made the tenpai player pay; a negative honba took from the winner
    ({"tenpai_payment": -3000, "honba_value": -300}, "'tenpai_payment' must be from 0 to 30,000"),
    ({"honba_value": -300}, "'honba_value' must be from 0 to 3,000"),
    ({"honba_value": 3003}, "'honba_value' must be from 0 to 3,000"),
    ({"tenpai_payment": 30006}, "'tenpai_payment' must be from 0 to 30,000"),
    ({"start_points": -5}, "'start_points' must be from 0 to 1,000,000"),
    ({"start_points": 0}, "'start_points' must be from 1 to 1,000,000 in riichi games"),
    ({"start_points": 10**30}, "'start_points' must be from 0 to 1,000,000"),
    ({"start_points": 1_000_100, "return_points": 1_000_100}, "'start_points' must be from 0 to 1,000,000"),
    ({"chombo_penalty": -1}, "'chombo_penalty' must be from 0 to 1,000,000"),
    ({"target_points": -1}, "'target_points' must be from 0 to 1,000,000"),
    ({"final_rounding": -1000}, "'final_rounding' must be from 0 to 10,000"),
    ({"return_points": -1}, "'return_points' must be from 0 to 1,000,000"),
    # oka = 4 x (return - start) is a bonus for first place, never a charge on it
    ({"start_points": 35000}, r"'return_points' \(30,000\) must not be below 'start_points' \(35,000\)"),
    ({"return_points": 20000}, r"'return_points' \(20,000\) must not be below 'start_points' \(25,000\)"),
    # uma rewards a better rank
    ({"uma": [-15, -5, 5, 15]}, "must not increase from first to fourth place"),
    ({"uma": [15, -5, 5, -15]}, "must not increase from first to fourth place"),
    ({"uma": [1001, 0, 0, -1001]}, "'uma' must be four numbers from -1,000 to 1,000"),
    ({"uma": [float("inf"), 0, 0, float("-inf")]}, "'uma' must be four numbers from -1,000 to 1,000"),
    ({"uma": [float("nan"), 0, 0, 0]}, "'uma' must be four numbers from -1,000 to 1,000"),
])
def test_meaningless_amounts_are_refused(overrides, text):
    with pytest.raises(UnknownRulesError, match=text):
        table_rules("tenhou", overrides)


@pytest.mark.parametrize("preset, overrides", [
    ("tenhou", {"tenpai_payment": 0, "honba_value": 0, "chombo_penalty": 0, "final_rounding": 0}),
    ("tenhou", {"tenpai_payment": 30000, "honba_value": 3000, "final_rounding": 10000}),
    ("tenhou", {"honba_value": 1500}),                     # "1500 per counter" tables
    ("tenhou", {"start_points": 1, "return_points": 1, "target_points": 1}),
    ("tenhou", {"start_points": 1_000_000, "return_points": 1_000_000, "chombo_penalty": 1_000_000}),
    ("tenhou", {"start_points": 30000}),                   # oka 0
    ("tenhou", {"uma": [0, 0, 0, 0]}),
    ("tenhou", {"uma": [20, 0, 0, -20]}),                  # ranks may get the same uma
    ("tenhou", {"uma": [1000, 0, 0, -1000]}),
    ("tenhou", {"uma": [12.5, 2.5, -2.5, -12.5]}),
    ("hongkong", {"start_points": 0}),                     # a running tally starts at 0
    ("classical", {"start_points": 2000, "return_points": 2000}),
])
def test_amounts_at_the_ends_of_their_ranges_are_accepted(preset, overrides):
    r = table_rules(preset, overrides)
    for name, value in overrides.items():
        assert getattr(r, name) == (tuple(value) if name == "uma" else value)


@pytest.mark.parametrize("preset", ["ema2016", "wrc", "mleague", "tenhou", "mahjongsoul", "ryanzou",
                                    "hongkong", "classical", "oldjapanese"])
def test_the_rules_a_game_keeps_pass_the_checks_again(preset):
    # a stored game's rules are read back as overrides (game.new_state), so every preset's must pass
    r = table_rules(preset)
    kept = {k: v for k, v in r.to_dict().items() if k not in NOT_OVERRIDES}
    assert table_rules(preset, kept) == r


def test_unknown_preset_is_refused():
    with pytest.raises(UnknownRulesError, match="unknown rules preset 'nope'"):
        table_rules("nope")


def test_old_japanese_defaults_follow_seed_001():
    # seed 001 ch. 1 I / ch. 4 VI: 27,000 in sticks counted as 30,000; the 12,000 go to the winner
    r = table_rules("oldjapanese")
    assert (r.start_points, r.return_points, r.oka) == (27000, 30000, 12000)
    assert r.riichi and r.final_rounding == 1000 and r.dealer_keeps_on_draw and r.chombo_dealer_passes


def test_hong_kong_and_classical_have_no_riichi_and_four_winds():
    for fam in ("hongkong", "classical"):
        r = table_rules(fam)
        assert r.family == fam and not r.riichi and r.length == "full" and r.start_points == 0


# ----- house rules for scoring hands (the "scoring" table rule) ------------------------------------

def test_scoring_house_rules_are_kept_and_become_the_requests_rules():
    r = table_rules("ema2016", {"scoring": {"open_tanyao": False}})
    assert r.scoring == {"open_tanyao": False}
    assert r.scoring_rules == {"preset": "ema2016", "open_tanyao": False}
    assert r.to_dict()["scoring"] == {"open_tanyao": False}
    # the page scores a photo with the same rules value the table uses
    assert r.to_dict()["scoring_rules"] == {"preset": "ema2016", "open_tanyao": False}
    # no house rules: the bare preset name, as every request without a table sends it
    assert table_rules("hongkong").scoring_rules == "hongkong"


@pytest.mark.parametrize("preset, scoring, text", [
    ("ema2016", {"open_tanyoa": False}, "open_tanyoa"),          # a typo is named
    ("ema2016", {"kazoe": "sometimes"}, "kazoe"),               # a value the option does not have
    ("hongkong", {"min_fan": -1}, "min_fan"),
    ("hongkong", {"open_tanyao": True}, "open_tanyao"),         # a riichi option in a Hong Kong game
    ("classical", {"limit": 7}, "limit"),
    ("oldjapanese", {"rounding": "dice"}, "rounding"),
    ("ema2016", {"preset": "wrc"}, "preset is the game's"),
    ("ema2016", ["open_tanyao"], "object"),
])
def test_scoring_house_rules_are_checked_when_the_game_is_made(preset, scoring, text):
    with pytest.raises(UnknownRulesError, match=text):
        table_rules(preset, {"scoring": scoring})


def test_riichi_scoring_limits_carry_over_to_han_fu_entry():
    # seed 003 plays without kiriage; a club that rounds 4 han 30 fu up to mangan says so once
    r = table_rules("ryanzou", {"scoring": {"kiriage": True}})
    assert r.kiriage is True and r.scoring == {"kiriage": True}
    # an explicit table override wins over the scoring section
    assert table_rules("ryanzou", {"scoring": {"kiriage": True}, "kiriage": False}).kiriage is False


def test_a_game_stored_with_rules_out_of_todays_ranges_still_opens_and_plays():
    # the ranges came after games were stored: one made with a negative tenpai payment (its rules frozen
    # with it) still folds as it was made, while a new game with that override is refused
    from companion.table.game import fold
    from companion.table.rules import table_rules

    frozen = {**table_rules("ema2016").to_dict(), "tenpai_payment": -3000, "uma": [-15, -5, 5, 15]}
    game = {"preset": "ema2016", "overrides": {}, "players": ["Ann", "Bob", "Cid", "Dan"], "rules": frozen}
    st = fold(game, [{"type": "draw", "tenpai": ["Bob"]}]).to_dict()
    assert st["scores"] == {"Ann": 31000, "Bob": 27000, "Cid": 31000, "Dan": 31000}
    with pytest.raises(UnknownRulesError, match="tenpai_payment"):
        fold({**game, "rules": None, "overrides": {"tenpai_payment": -3000}}, [])


@pytest.mark.parametrize("preset, scoring, counted", [
    ("ema2016", {}, 0),  # "EMA 2016 plays without them" (its preset file; the EMA rules name no red fives)
    ("wrc", {}, 0),
    ("mleague", {}, 3), ("ryanzou", {}, 3),  # seed 003 "Akadora": 3 by default
    ("ema2016", {"red_fives": 3}, 3),  # a house rule of the table
    ("hongkong", {}, 0), ("classical", {}, 0), ("oldjapanese", {}, 0),  # those books count no red fives
])
def test_the_game_state_says_how_many_red_fives_its_hands_count(preset, scoring, counted):
    # the photo page scores a red five read in a photo as a plain five where the table's rules count none
    from companion.table.game import fold

    game = {"id": "g", "preset": preset, "overrides": {"scoring": scoring} if scoring else {},
            "players": ["A", "B", "C", "D"]}
    assert fold(game, []).to_dict()["red_fives"] == counted


def test_a_request_with_red_fives_is_written_with_plain_ones():
    from companion.rules import plain_fives

    request = {"hand": "406p11z", "win_tile": "0p", "melds": [{"type": "chi", "tiles": "067s"}],
               "dora_indicators": ["0m", "1z"], "ura_indicators": "0s", "tsumo": True, "honba": 0}
    plain, changed = plain_fives(request)
    assert plain == {"hand": "456p11z", "win_tile": "5p", "melds": [{"type": "chi", "tiles": "567s"}],
                     "dora_indicators": ["5m", "1z"], "ura_indicators": "5s", "tsumo": True, "honba": 0}
    assert changed == 4  # 0p in the hand (the winning tile is that one), 0s in the chi, 0m and 0s as indicators
    assert request["hand"] == "406p11z"  # (a copy)
