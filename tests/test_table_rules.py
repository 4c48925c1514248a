"""Table rules from the presets' [table] sections and the family defaults."""

import pytest

from companion.errors import UnknownRulesError
from companion.table.rules import ABORTIVE_KINDS, table_rules


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
