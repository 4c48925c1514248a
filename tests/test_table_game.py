"""Riichi table flows from the seeds; every expected number is worked out in the comments.

Seats at the start: Ann East (first dealer), Bob South, Cid West, Dan North.
"""

import pytest

from companion.errors import TableError
from companion.table.game import fold, preview

P = ["Ann", "Bob", "Cid", "Dan"]


def game(preset="ryanzou", **overrides):
    return {"id": "t", "preset": preset, "overrides": overrides, "players": P, "created": "2026-01-01T00:00:00Z"}


def ron(winner, discarder, han, fu=30):
    return {"type": "win", "winners": [{"player": winner, "han": han, "fu": fu}], "discarder": discarder}


def tsumo(winner, han, fu=30):
    return {"type": "win", "winners": [{"player": winner, "han": han, "fu": fu}], "discarder": None}


def draw(*tenpai):
    return {"type": "draw", "tenpai": list(tenpai)}


def riichi(p):
    return {"type": "riichi", "player": p}


def fix(reason="test setup", **deltas):
    return {"type": "correction", "deltas": deltas, "reason": reason}


def noten_draws(n):
    """n exhaustive draws with nobody tenpai: no payments, the deal passes each time."""
    return [draw() for _ in range(n)]


def s(g, events):
    return fold(g, events).to_dict()


# ----- seed 000: payments, honba, tenpai payments -------------------------------------------------

def test_seed_000_worked_example_2_han_52_fu():
    # seed 000: 2 han 52 fu -> 60 fu -> 960 base; East tsumo 2000 all, East ron 5800, South ron 3900
    st = s(game(), [tsumo("Ann", 2, 52)])
    assert st["scores"] == {"Ann": 31000, "Bob": 23000, "Cid": 23000, "Dan": 23000}
    st = s(game(), [ron("Ann", "Cid", 2, 52)])
    assert st["scores"]["Ann"] == 30800 and st["scores"]["Cid"] == 19200
    # West tsumo: South and North 1000 each, East 2000
    st = s(game(), [tsumo("Cid", 2, 52)])
    assert st["scores"] == {"Ann": 23000, "Bob": 24000, "Cid": 29000, "Dan": 24000}


@pytest.mark.parametrize("tenpai, expected", [
    # seed 000: 3000 in total from noten to tenpai
    (["Bob"], {"Ann": 24000, "Bob": 28000, "Cid": 24000, "Dan": 24000}),   # +3000 / -1000 x3
    (["Bob", "Cid"], {"Ann": 23500, "Bob": 26500, "Cid": 26500, "Dan": 23500}),  # +1500 x2 / -1500 x2
    (["Bob", "Cid", "Dan"], {"Ann": 22000, "Bob": 26000, "Cid": 26000, "Dan": 26000}),  # +1000 x3 / -3000
    ([], {p: 25000 for p in P}),
    (P, {p: 25000 for p in P}),
])
def test_tenpai_payments_3000_split(tenpai, expected):
    assert s(game(), [draw(*tenpai)])["scores"] == expected


def test_draw_adds_a_counter_and_dealer_tenpai_keeps_the_deal():
    # seed 003 "Renchan: Durch Oya-Sieg/-Tenpai"; seed 000: the counter rises after every draw
    st = s(game(), [draw("Ann")])
    assert (st["round"], st["honba"], st["dealer"]) == ("E1", 1, "Ann")
    st = s(game(), [draw("Bob")])
    assert (st["round"], st["honba"], st["dealer"]) == ("E2", 1, "Bob")


def test_no_renchan_on_dealer_tenpai_when_switched_off():
    st = s(game(renchan_on_dealer_tenpai=False), [draw("Ann")])
    assert (st["round"], st["honba"]) == ("E2", 1)


def test_honba_is_paid_on_ron_and_tsumo_and_reset_by_a_non_dealer_win():
    # two dealer-tenpai draws: E1 with 2 honba (Ann +3000 -1000 ... see below)
    events = [draw("Ann"), draw("Ann")]  # Ann +3000 each time: 31000; others 23000
    st = s(game(), events + [ron("Bob", "Cid", 3, 30)])
    # 3 han 30 fu non-dealer ron: 30*2^5 = 960 * 4 = 3840 -> 3900, plus 2 x 300
    assert st["scores"]["Bob"] == 23000 + 4500 and st["scores"]["Cid"] == 23000 - 4500
    assert (st["round"], st["honba"]) == ("E2", 0)
    st = s(game(), events + [tsumo("Bob", 1, 30)])
    # 1 han 30 fu: base 240; dealer pays 480 -> 500, others 240 -> 300, each plus 2 x 100
    assert st["scores"] == {"Ann": 31000 - 700, "Bob": 23000 + 1700, "Cid": 23000 - 500, "Dan": 23000 - 500}


def test_dealer_win_is_renchan_with_a_counter():
    st = s(game(), [ron("Ann", "Bob", 1, 30)])
    # dealer 1 han 30 fu ron: 240 * 6 = 1440 -> 1500
    assert st["scores"]["Ann"] == 26500 and (st["round"], st["honba"], st["dealer"]) == ("E1", 1, "Ann")


def test_round_progression_and_seat_winds_through_a_hanchan():
    g = game("ema2016")  # no extra rounds, no busting
    labels = []
    for n in range(8):
        st = s(g, noten_draws(n))
        labels.append(st["round"])
        assert not st["finished"]
    assert labels == ["E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4"]
    st = s(g, noten_draws(5))  # S2: Bob deals, so Bob is East and Ann is North
    assert st["seat_winds"] == {"Ann": "N", "Bob": "E", "Cid": "S", "Dan": "W"}
    assert st["round_name"] == "South 2"
    st = s(g, noten_draws(8))
    assert st["finished"] and st["end_reason"] == "complete"
    # every draw adds a counter: South 4, the last hand, was played with 7
    assert (st["round"], st["honba"]) == ("S4", 7)


def test_east_only_game_ends_after_east_4():
    st = s(game("ema2016", length="east"), noten_draws(4))
    assert st["finished"] and st["end_reason"] == "complete"
    # the finished game shows the hand it ended with
    assert (st["round"], st["dealer"]) == ("E4", "Dan")


def test_finished_game_shows_the_counters_of_its_last_hand():
    # E1: Bob wins (non-dealer): E2 with 0 counters; E2 and E3 noten draws: E4 with 2 counters
    events = [ron("Bob", "Cid", 1), draw(), draw()]
    running = s(game("ema2016", length="east"), events)
    assert (running["round"], running["honba"], running["finished"]) == ("E4", 2, False)
    # E4 ends with a draw: the game is over, and it shows East 4 as played, with 2 counters (not
    # the 3 the next deal would have had)
    st = s(game("ema2016", length="east"), events + [draw()])
    assert st["finished"]
    assert (st["round"], st["round_name"], st["honba"]) == ("E4", "East 4", 2)
    assert st["hands"][-1]["honba"] == 2


# ----- riichi ---------------------------------------------------------------------------------------

def test_riichi_costs_1000_and_the_winner_takes_the_sticks():
    st = s(game(), [riichi("Bob"), riichi("Cid"), ron("Bob", "Dan", 1, 30)])
    # 1 han 30 fu non-dealer ron 960 -> 1000, plus both sticks
    assert st["scores"] == {"Ann": 25000, "Bob": 24000 + 1000 + 2000, "Cid": 24000, "Dan": 24000}
    assert st["riichi_sticks"] == 0


def test_sticks_stay_on_the_table_after_a_draw():
    st = s(game(), [riichi("Bob"), draw("Bob")])
    assert st["riichi_sticks"] == 1 and st["riichi_declared"] == []
    st = s(game(), [riichi("Bob"), draw("Bob"), ron("Cid", "Ann", 1, 30)])
    # 960 -> 1000, plus one counter 300, plus the stick 1000
    assert st["scores"]["Cid"] == 25000 - 1000 + 1000 + 300 + 1000


def test_riichi_twice_in_one_hand_is_refused():
    with pytest.raises(TableError, match="already declared riichi"):
        fold(game(), [riichi("Bob"), riichi("Bob")])


def test_riichi_below_1000_is_refused_where_the_rules_forbid_it():
    with pytest.raises(TableError, match="riichi needs at least 1000"):
        fold(game("mleague"), [fix(Bob=-24500), riichi("Bob")])
    # EMA 2016 has no busting and lets a player go below zero with riichi
    assert s(game("ema2016"), [fix(Bob=-29500), riichi("Bob")])["scores"]["Bob"] == -500


def test_riichi_player_must_be_tenpai_at_a_draw():
    with pytest.raises(TableError, match="Cid declared riichi"):
        fold(game(), [riichi("Cid"), draw("Bob")])


# ----- bad events -----------------------------------------------------------------------------------

@pytest.mark.parametrize("event, text", [
    (ron("Eve", "Bob", 1), "unknown winner 'Eve'"),
    (ron("Bob", "Bob", 1), "own discard"),
    (ron("Bob", "Cid", 0), "han must be"),
    (ron("Bob", "Cid", 2, 150), "fu must be"),
    (ron("Bob", "Cid", 1, 25), "seven pairs"),
    (ron("Bob", "Cid", 2, 20), "only possible for a tsumo"),
    ({"type": "win", "winners": [{"player": "Bob"}], "discarder": "Cid"}, "han and fu"),
    ({"type": "win", "winners": [], "discarder": "Cid"}, "winners"),
    ({"type": "win", "winners": [{"player": "Bob", "han": 1, "fu": 30}]}, "null for tsumo"),
    ({"type": "flip_table"}, "unknown event type"),
    ({"type": "abortive", "kind": "sanchahou"}, "not used under these rules"),
    ({"type": "abortive", "kind": "suucha_riichi"}, "all four players"),
    ({"type": "correction", "deltas": {"Bob": 100}}, "reason"),
    ({"type": "win", "winners": [{"player": "Bob", "han": 1, "fu": 30},
                                 {"player": "Cid", "han": 1, "fu": 30}], "discarder": None}, "exactly one winner"),
])
def test_impossible_events_are_refused_with_a_reason(event, text):
    with pytest.raises(TableError, match=text):
        fold(game(), [event])


@pytest.mark.parametrize("han, fu", [(2, 33), (1, 35), (3, 51), (1, 105), (2, 15), (1, 120), (1, 112)])
def test_fu_are_an_even_count_from_20_to_110_or_25(han, fu):
    # a hand's fu are 20 plus even parts, rounded up to tens (seed 000: "52 fu -> 60 fu"); only seven pairs
    # have 25; a hand has at most 110 (108 counted). An odd count or one out of range is refused, not rounded,
    # on ron and tsumo alike
    with pytest.raises(TableError, match=r"even number from 20 to 110.*25 \(seven pairs\)"):
        fold(game(), [ron("Bob", "Cid", han, fu)])
    with pytest.raises(TableError, match="even number"):
        fold(game(), [tsumo("Bob", han, fu)])


def test_an_even_fu_count_is_rounded_up_to_tens():
    # 1 han 22 fu non-dealer ron counts as 30 fu: 30 x 2^3 = 240 base x 4 = 960 -> 1000
    assert s(game(), [ron("Bob", "Cid", 1, 22)])["scores"]["Bob"] == 26000


def test_25_and_110_fu_are_accepted():
    # 2 han 25 fu non-dealer ron: 25 x 2^4 = 400 base x 4 = 1600
    assert s(game(), [ron("Bob", "Cid", 2, 25)])["scores"]["Bob"] == 26600
    # 1 han 110 fu non-dealer ron: 110 x 2^3 = 880 base x 4 = 3520 -> 3600
    assert s(game(), [ron("Bob", "Cid", 1, 110)])["scores"]["Bob"] == 28600


def test_one_han_20_fu_tsumo_only_where_the_club_counts_it():
    # seed 003: "Tsumo nomi kann als 1 han 20 fu (200/400 oder 400 all) gezählt werden"
    st = s(game("ryanzou"), [tsumo("Bob", 1, 20)])
    assert st["scores"] == {"Ann": 24600, "Bob": 25800, "Cid": 24800, "Dan": 24800}
    with pytest.raises(TableError, match="1 han 20 fu"):
        fold(game("tenhou"), [tsumo("Bob", 1, 20)])


def test_no_event_but_undo_or_correction_after_the_end():
    events = [{"type": "end"}]
    with pytest.raises(TableError, match="has ended"):
        fold(game(), events + [riichi("Ann")])
    assert s(game(), events + [fix(Ann=100)])["scores"]["Ann"] == 25100


# ----- points entry ---------------------------------------------------------------------------------

def test_points_entry_for_ron_and_both_kinds_of_tsumo():
    events = [draw("Ann")]  # 1 honba; Ann 28000, others 24000
    st = s(game(), events + [{"type": "win", "winners": [{"player": "Cid", "points": 8000}], "discarder": "Bob"}])
    assert st["scores"]["Cid"] == 24000 + 8300 and st["scores"]["Bob"] == 24000 - 8300
    st = s(game(), events + [{"type": "win", "discarder": None,
                              "winners": [{"player": "Cid", "points": {"dealer": 4000, "non_dealer": 2000}}]}])
    assert st["scores"] == {"Ann": 28000 - 4100, "Bob": 24000 - 2100, "Cid": 24000 + 8300, "Dan": 24000 - 2100}
    st = s(game(), events + [{"type": "win", "discarder": None, "winners": [{"player": "Ann", "points": 4000}]}])
    assert st["scores"] == {"Ann": 28000 + 12300, "Bob": 24000 - 4100, "Cid": 24000 - 4100, "Dan": 24000 - 4100}
    with pytest.raises(TableError, match="non_dealer"):
        fold(game(), events + [{"type": "win", "discarder": None, "winners": [{"player": "Cid", "points": 8000}]}])


def test_yakuman_entry():
    st = s(game(), [{"type": "win", "winners": [{"player": "Ann", "yakuman": 1}], "discarder": "Dan"}])
    assert st["scores"]["Ann"] == 25000 + 48000 and st["scores"]["Dan"] == 25000 - 48000


# ----- multiple ron (seed 003) ----------------------------------------------------------------------

def _double_ron_setup():
    # E1: Cid riichi, draw with only Cid tenpai: Cid 24000+3000 = 27000, others 24000; Ann noten so
    # the deal passes to Bob (E2, 1 honba, 1 stick). E2: Ann and Bob declare riichi (3 sticks).
    return [riichi("Cid"), draw("Cid"), riichi("Ann"), riichi("Bob")]


DOUBLE_RON = {"type": "win", "discarder": "Dan",
              "winners": [{"player": "Bob", "han": 1, "fu": 30}, {"player": "Ann", "han": 2, "fu": 30}]}


def test_double_ron_seed_003_head_bump_decides_sticks_own_stick_back_both_get_honba():
    st = s(game("ryanzou"), _double_ron_setup() + [DOUBLE_RON])
    # Ann is first after Dan, so head bump gives her the remaining (Cid's) stick.
    # Ann, 2 han 30 fu non-dealer: 480*4 = 1920 -> 2000, +300 honba, +1000 own stick, +1000 Cid's
    # Bob (dealer), 1 han 30 fu: 240*6 = 1440 -> 1500, +300 honba, +1000 own stick
    # Dan pays 2300 + 1800 = 4100
    assert st["scores"] == {"Ann": 23000 + 4300, "Bob": 23000 + 2800, "Cid": 27000, "Dan": 24000 - 4100}
    assert sum(st["scores"].values()) == 100000
    # the dealer won too: renchan for Bob with 2 honba (seed 003 "bei mehreren Rons bekommt Oya Renchan")
    assert (st["round"], st["dealer"], st["honba"], st["riichi_sticks"]) == ("E2", "Bob", 2, 0)


def test_double_ron_with_sticks_and_honba_by_head_bump():
    g = game("ryanzou", sticks_on_multiple_ron="head_bump", honba_on_multiple_ron="head_bump")
    st = s(g, _double_ron_setup() + [DOUBLE_RON])
    # Ann: 2000 + 300 + all 3 sticks; Bob: 1500 only; Dan pays 2300 + 1500
    assert st["scores"] == {"Ann": 23000 + 5300, "Bob": 23000 + 1500, "Cid": 27000, "Dan": 24000 - 3800}


def test_head_bump_rules_allow_only_the_first_winner():
    with pytest.raises(TableError, match="head bump.*Ann"):
        fold(game("wrc"), _double_ron_setup() + [DOUBLE_RON])


TRIPLE_RON = {"type": "win", "discarder": "Dan", "winners": [
    {"player": "Ann", "han": 1, "fu": 30}, {"player": "Bob", "han": 1, "fu": 30}, {"player": "Cid", "han": 1, "fu": 30}]}


def test_triple_ron_is_an_abortive_draw_where_sanchahou_is_used():
    with pytest.raises(TableError, match="sanchahou"):
        fold(game("tenhou"), [TRIPLE_RON])
    st = s(game("tenhou"), [{"type": "abortive", "kind": "sanchahou"}])
    assert (st["round"], st["honba"]) == ("E1", 1)


def test_triple_ron_is_paid_three_times_under_ema():
    st = s(game("ema2016"), [TRIPLE_RON])
    # Ann dealer 1500; Bob 1000; Cid 1000 -> Dan pays 3500
    assert st["scores"] == {"Ann": 31500, "Bob": 31000, "Cid": 31000, "Dan": 30000 - 3500}


# ----- chombo -----------------------------------------------------------------------------------------

def test_chombo_as_reverse_mangan_tsumo_and_replay():
    # seed 003: "Sofortiges Rückwärts-Mangan-Tsumo + Runde wiederholt"
    events = [draw("Ann"), riichi("Cid"), {"type": "chombo", "player": "Bob"}]
    st = s(game("ryanzou"), events)
    # before: Ann 28000, others 24000; Cid's stick goes back; Bob pays dealer 4000 and 2000 each other
    assert st["scores"] == {"Ann": 32000, "Bob": 16000, "Cid": 26000, "Dan": 26000}
    assert (st["round"], st["honba"], st["riichi_sticks"]) == ("E1", 1, 0)
    st = s(game("ryanzou"), [{"type": "chombo", "player": "Ann"}])
    assert st["scores"] == {"Ann": 13000, "Bob": 29000, "Cid": 29000, "Dan": 29000}
    assert st["round"] == "E1"


def test_chombo_as_ema_penalty_after_uma():
    st = s(game("ema2016"), [{"type": "chombo", "player": "Bob"}, {"type": "end"}])
    assert st["scores"] == {p: 30000 for p in P}
    by = {x["player"]: x for x in st["placements"]}
    # all tied at 30000 and EMA shares ties: every uma is (15+5-5-15)/4 = 0; Bob -20,000 after uma
    assert by["Bob"]["score"] == -20000 and by["Ann"]["score"] == 0
    assert by["Bob"]["rank"] == 1 and by["Bob"]["penalty"] == 20000


def test_bust_by_chombo_ends_the_game():
    # seed 003 "Tobi/Bust ... (auch falls durch Chombo)"
    st = s(game("ryanzou"), [fix(Bob=-19000), {"type": "chombo", "player": "Bob"}])
    assert st["scores"]["Bob"] == -2000 and st["finished"] and st["end_reason"] == "bust"


# ----- nagashi mangan ---------------------------------------------------------------------------------

def test_nagashi_mangan_counts_as_mangan_tsumo():
    st = s(game(), [{"type": "nagashi", "players": ["Dan"]}])
    assert st["scores"] == {"Ann": 21000, "Bob": 23000, "Cid": 23000, "Dan": 33000}
    # seed 003: "Nagashi Mangan von Ko beendet Dealership"
    assert (st["round"], st["honba"]) == ("E2", 0)


def test_two_nagashi_cancel_between_them_and_dealer_keeps():
    st = s(game(), [riichi("Bob"), {"type": "nagashi", "players": ["Dan", "Ann"]}])
    # Ann (dealer) collects 4000 from Bob and Cid only; Dan 2000 from Bob and Cid only;
    # the stick goes to the nagashi player nearest East: Ann
    assert st["scores"] == {"Ann": 25000 + 8000 + 1000, "Bob": 24000 - 6000, "Cid": 25000 - 6000,
                            "Dan": 25000 + 4000}
    assert (st["round"], st["honba"]) == ("E1", 1)  # "Oya Nagashi -> Renchan"


def test_nagashi_not_used_under_wrc():
    with pytest.raises(TableError, match="nagashi"):
        fold(game("wrc"), [{"type": "nagashi", "players": ["Dan"]}])


# ----- abortive draws ---------------------------------------------------------------------------------

def test_abortive_draw_repeats_the_hand_with_a_counter_and_keeps_sticks():
    events = [riichi(p) for p in P] + [{"type": "abortive", "kind": "suucha_riichi"}]
    st = s(game(), events)
    assert (st["round"], st["honba"], st["riichi_sticks"]) == ("E1", 1, 4)
    assert st["scores"] == {p: 24000 for p in P}


def test_ema_has_no_abortive_draws():
    with pytest.raises(TableError, match="no abortive draws"):
        fold(game("ema2016"), [{"type": "abortive", "kind": "kyuushu_kyuuhai"}])


# ----- busting ----------------------------------------------------------------------------------------

def test_bust_below_zero_ends_the_game_but_zero_does_not():
    # dealer yakuman ron: 48,000 from Bob leaves him at -23,000
    yakuman = {"type": "win", "winners": [{"player": "Ann", "yakuman": 1}], "discarder": "Bob"}
    st = s(game("ryanzou"), [yakuman])
    assert st["finished"] and st["end_reason"] == "bust"
    assert not s(game("mleague"), [yakuman])["finished"]
    # exactly 0 is not below zero: Bob at 3900 pays a 3900 ron
    st = s(game("ryanzou"), [fix(Bob=-21100), ron("Cid", "Bob", 3, 30)])
    assert st["scores"]["Bob"] == 0 and not st["finished"]


# ----- agari-yame / tenpai-yame -----------------------------------------------------------------------

def _to_all_last_east(preset="ryanzou", **ov):
    return game(preset, length="east", **ov), noten_draws(3)  # E4, Dan deals, 3 honba


def test_agari_yame_lets_the_last_dealer_end_the_game():
    g, events = _to_all_last_east()
    st = s(g, events + [ron("Dan", "Bob", 1, 30)])
    assert not st["finished"] and st["yame_available"] == "agari"
    assert (st["round"], st["honba"]) == ("E4", 4)
    st = s(g, events + [ron("Dan", "Bob", 1, 30), {"type": "end"}])
    assert st["finished"] and st["end_reason"] == "agari_yame"
    # playing on instead: the option lapses with the next hand's first event
    st = s(g, events + [ron("Dan", "Bob", 1, 30), riichi("Bob")])
    assert st["yame_available"] is None and not st["finished"]


def test_tenpai_yame_after_a_tenpai_draw_of_the_last_dealer():
    g, events = _to_all_last_east()
    assert s(g, events + [draw("Dan")])["yame_available"] == "tenpai"
    assert s(g, events + [draw("Dan", "Ann")])["yame_available"] == "tenpai"
    assert s(g, events + [draw("Ann")])["yame_available"] is None


def test_automatic_agari_yame_only_for_a_leading_dealer_at_target():
    g, events = _to_all_last_east("tenhou")
    # Dan mangan ron: 12,000 (+900 honba) -> 37,900, leading and above 30,000: the game ends
    st = s(g, events + [ron("Dan", "Bob", 5)])
    assert st["finished"] and st["end_reason"] == "agari_yame"
    # Dan 1 han 30 fu: 1500 + 900 -> 27,400 while Cid has 30,000: play on
    st = s(g, [fix(Cid=5000)] + events + [ron("Dan", "Bob", 1, 30)])
    assert not st["finished"] and st["round"] == "E4"


# ----- extra rounds -----------------------------------------------------------------------------------

def test_enchousen_west_in_full_then_north_sudden_death():
    # seed 003: nobody at 30,000 after South 4 -> West is played in full, then North as sudden death
    g = game("ryanzou")
    st = s(g, noten_draws(8))
    assert not st["finished"] and st["round"] == "W1" and st["extra_round"]
    # Bob wins a mangan ron in W1 (Ann deals): 8000 + 8 x 300 honba -> 35,400
    st = s(g, noten_draws(8) + [ron("Bob", "Cid", 5)])
    assert not st["finished"] and st["round"] == "W2"  # West is played in full
    st = s(g, noten_draws(8) + [ron("Bob", "Cid", 5)] + noten_draws(3))
    assert st["finished"] and st["end_reason"] == "complete"
    st = s(g, noten_draws(12))
    assert not st["finished"] and st["round"] == "N1"
    st = s(g, noten_draws(12) + [ron("Bob", "Cid", 5)])
    assert st["finished"] and st["end_reason"] == "sudden_death"
    st = s(g, noten_draws(16))
    assert st["finished"] and st["end_reason"] == "extra_rounds_exhausted"


def test_tenhou_west_round_is_sudden_death():
    g = game("tenhou")
    st = s(g, noten_draws(8))
    assert st["round"] == "W1" and not st["finished"]
    st = s(g, noten_draws(8) + [ron("Bob", "Cid", 5)])
    assert st["finished"] and st["end_reason"] == "sudden_death"
    st = s(g, noten_draws(12))
    assert st["finished"] and st["end_reason"] == "extra_rounds_exhausted"


def test_no_extra_round_when_someone_reached_the_target():
    st = s(game("ryanzou"), [ron("Bob", "Cid", 5)] + noten_draws(7))
    # Bob mangan 8000 in E1 -> 33,000 and the deal passes; seven draws later South 4 is over
    assert st["finished"] and st["end_reason"] == "complete"


# ----- uma / oka / ties / leftover sticks ----------------------------------------------------------------

END = {"type": "end"}


def _placements(g, events):
    return {x["player"]: (x["rank"], x["score"]) for x in s(g, events + [END])["placements"]}


def test_uma_oka_ties_broken_by_seat_order():
    # final Ann 25000, Bob 25000, Cid 30000, Dan 20000; seed 003 ranks Ann above Bob (closer to East)
    ev = [fix(Cid=5000, Dan=-5000)]
    # Cid: 30000-30000 +15000 +20000 oka = 35000; Ann: -5000 +5000 = 0; Bob: -5000 -5000;
    # Dan: -10000 -15000
    assert _placements(game("ryanzou"), ev) == {"Cid": (1, 35000), "Ann": (2, 0), "Bob": (3, -10000),
                                                 "Dan": (4, -25000)}


def test_uma_oka_ties_shared_with_averaged_uma():
    ev = [fix(Cid=5000, Dan=-5000)]
    # Ann and Bob share rank 2: uma (5 + -5) / 2 = 0 each
    assert _placements(game("ryanzou", tie="share"), ev) == {
        "Cid": (1, 35000), "Ann": (2, -5000), "Bob": (2, -5000), "Dan": (4, -25000)}
    # Ann and Bob tie for first at 30,000: uma (15+5)/2 = 10 and half the oka each;
    # Cid and Dan at 20,000 share third: uma (-5-15)/2 = -10
    ev = [fix(Ann=5000, Bob=5000, Cid=-5000, Dan=-5000)]
    assert _placements(game("ryanzou", tie="share"), ev) == {
        "Ann": (1, 20000), "Bob": (1, 20000), "Cid": (3, -20000), "Dan": (3, -20000)}


def test_leftover_sticks_go_to_first_place_or_are_lost():
    # seed 003: "Übrig gebliebene Riichi-Sticks am Ende des Spiels gehen an den/die Sieger*in"
    st = s(game("ryanzou"), [riichi("Bob"), END])
    first = st["placements"][0]
    # Ann, Cid, Dan tie at 25000; seat order makes Ann first; she gets Bob's stick
    assert first["player"] == "Ann" and first["points"] == 26000
    assert first["score"] == 26000 - 30000 + 15000 + 20000
    st = s(game("ryanzou", leftover_sticks="lost"), [riichi("Bob"), END])
    assert st["placements"][0]["points"] == 25000
    assert sum(x["points"] for x in st["placements"]) == 99000


def test_leftover_stick_shared_by_three_tied_players_loses_no_point():
    # EMA 2016, East only: Dan riichi, E1 draw with only Dan tenpai (Dan +3000, the others -1000
    # each): Ann, Bob, Cid 29000, Dan 32000, one stick on the table. E2-E4 noten draws end the
    # game; a correction then ties Ann, Bob and Cid at 30000 for first (Dan 29000).
    events = [riichi("Dan"), draw("Dan")] + noten_draws(3)
    events.append(fix(Dan=-3000, Ann=1000, Bob=1000, Cid=1000))
    st = s(game("ema2016", length="east"), events)
    assert st["finished"] and st["riichi_sticks"] == 1
    # 1000 / 3 = 333 each, and the point left over goes to the first of them in seat order: Ann
    got = {x["player"]: (x["rank"], x["points"], x["score"]) for x in st["placements"]}
    # the three still share first place: uma (15 + 5 - 5) / 3 = 5 each, no oka (30000 start)
    assert got == {"Ann": (1, 30334, 30334 - 30000 + 5000), "Bob": (1, 30333, 30333 - 30000 + 5000),
                   "Cid": (1, 30333, 30333 - 30000 + 5000), "Dan": (4, 29000, 29000 - 30000 - 15000)}
    assert sum(x["points"] for x in st["placements"]) == 4 * 30000
    assert sum(x["score"] for x in st["placements"]) == 0


# ----- pao --------------------------------------------------------------------------------------------

def test_pao_on_tsumo_liable_player_pays_everything():
    ev = [draw("Bob"), {"type": "win", "discarder": None, "pao": {"player": "Cid", "liable": "Dan"},
                        "winners": [{"player": "Cid", "yakuman": 1}]}]
    st = s(game(), ev)
    # after the draw (Ann noten): Bob 28000, others 24000; E2 with 1 honba, Bob deals.
    # Cid non-dealer yakuman tsumo: 16000 + 8000 + 8000 = 32000, +300 honba, all from Dan
    assert st["scores"] == {"Ann": 24000, "Bob": 28000, "Cid": 24000 + 32300, "Dan": 24000 - 32300}


def test_pao_on_ron_half_each_and_the_discarder_pays_the_counters():
    ev = [draw("Bob"), {"type": "win", "discarder": "Ann", "pao": {"player": "Cid", "liable": "Dan"},
                        "winners": [{"player": "Cid", "yakuman": 1}]}]
    st = s(game(), ev)
    # 32000 split 16000 / 16000; Ann (discarder) also pays the 300
    assert st["scores"] == {"Ann": 24000 - 16300, "Bob": 28000, "Cid": 24000 + 32300, "Dan": 24000 - 16000}


# Bob (South in East 1) has called pon on white, green and red and waits on a pair of honours:
# daisangen + tsuuiisou, two yakuman where they add up (ryanzou, tenhou: 64000 for a non-dealer).
# Dan fed the third dragon, so he is liable for daisangen only.
DAISANGEN_TSUUIISOU = {"hand": "111z22z", "win_tile": "2z",
                       "melds": [{"type": "pon", "tiles": t} for t in ("555z", "666z", "777z")]}
PAO_DAN = {"player": "Bob", "liable": "Dan"}


def pao_win(entry, discarder, pao=PAO_DAN):
    return {"type": "win", "winners": [{"player": "Bob", **entry}], "discarder": discarder, "pao": pao}


def test_pao_for_daisangen_beside_tsuuiisou_on_tsumo_seed_003():
    # seed 003: "Bei normalem Tsumo zahlt die verantwortliche Person die betreffende Yakuman
    # vollständig, die anderen Yakumanzahlungen und Honba werden normal von allen aufgeteilt."
    # Daisangen (32000) all from Dan; tsuuiisou as a non-dealer yakuman tsumo: Ann (dealer) 16000,
    # Cid 8000, Dan 8000
    st = s(game("ryanzou"), [pao_win({"request": DAISANGEN_TSUUIISOU}, None)])
    assert st["scores"] == {"Ann": 25000 - 16000, "Bob": 25000 + 64000, "Cid": 25000 - 8000,
                            "Dan": 25000 - 32000 - 8000}


def test_pao_for_daisangen_beside_tsuuiisou_on_ron_seed_003():
    # seed 003: "Bei Ron zahlt die verantwortliche Person die Hälfte der betreffenden Yakuman und
    # die Person, die den Gewinnstein ausgespielt hat, zahlt die Hälfte dieser Yakuman, den vollen
    # Rest der anderen Yakuman und Honba." Cid deals in: Dan 16000, Cid 16000 + 32000
    st = s(game("ryanzou"), [pao_win({"request": DAISANGEN_TSUUIISOU}, "Cid")])
    assert st["scores"] == {"Ann": 25000, "Bob": 25000 + 64000, "Cid": 25000 - 48000, "Dan": 25000 - 16000}


def test_pao_with_several_yakuman_shares_the_counters_on_tsumo_and_the_discarder_pays_them_on_ron():
    # E1 draw with only Ann (dealer) tenpai: Ann 28000, the others 24000; East 1 again, 1 counter
    ev = [draw("Ann")]
    st = s(game("ryanzou"), ev + [pao_win({"request": DAISANGEN_TSUUIISOU}, None)])
    # tsumo: the 300 split 100 each as in a normal tsumo, Dan's daisangen without counters
    assert st["scores"] == {"Ann": 28000 - 16100, "Bob": 24000 + 64300, "Cid": 24000 - 8100,
                            "Dan": 24000 - 32000 - 8100}
    st = s(game("ryanzou"), ev + [pao_win({"request": DAISANGEN_TSUUIISOU}, "Cid")])
    # ron: Cid pays half of daisangen, tsuuiisou and the 300; Dan half of daisangen
    assert st["scores"] == {"Ann": 28000, "Bob": 24000 + 64300, "Cid": 24000 - 16000 - 32000 - 300,
                            "Dan": 24000 - 16000}


def test_pao_for_a_double_daisuushii_beside_tsuuiisou_counts_it_as_the_scorer_does():
    # ryanzou counts daisuushii double ("Doppel-Yakuman für: Daisuushii"): with tsuuiisou 3 yakuman,
    # 96000 for Bob; Dan answers for 2 of them (64000)
    hand = {"hand": "55z", "win_tile": "5z",
            "melds": [{"type": "pon", "tiles": t} for t in ("111z", "222z", "333z", "444z")]}
    st = s(game("ryanzou"), [pao_win({"request": hand}, None)])
    # tsumo: Dan 64000 + 8000 of tsuuiisou, Ann 16000, Cid 8000
    assert st["scores"] == {"Ann": 25000 - 16000, "Bob": 25000 + 96000, "Cid": 25000 - 8000,
                            "Dan": 25000 - 72000}
    st = s(game("ryanzou"), [pao_win({"request": hand}, "Cid")])
    # ron: Dan half of 64000, Cid the other half and the 32000 of tsuuiisou
    assert st["scores"] == {"Ann": 25000, "Bob": 25000 + 96000, "Cid": 25000 - 64000, "Dan": 25000 - 32000}


@pytest.mark.parametrize("preset, split", [
    # tenhou adds different yakuman up, and its rule text says nothing of pao on several: same split
    ("tenhou", True),
    # EMA 2016 "Yakuman are not cumulative" and M-League pays one: the hand is daisangen alone,
    # 32000, and the liable player pays all of it on tsumo as before
    ("ema2016", False),
    ("mleague", False),
])
def test_pao_on_several_yakuman_under_the_other_presets(preset, split):
    start = fold(game(preset), []).rules.start_points
    st = s(game(preset), [pao_win({"request": DAISANGEN_TSUUIISOU}, None)])
    if split:
        expected = {"Ann": -16000, "Bob": 64000, "Cid": -8000, "Dan": -40000}
    else:
        expected = {"Ann": 0, "Bob": 32000, "Cid": 0, "Dan": -32000}
    assert st["scores"] == {p: start + expected[p] for p in P}


def test_pao_on_a_single_yakuman_request_stays_on_the_whole_hand():
    # daisangen alone (the three dragon pons, 234m completed by 4m, a pair of east): 32000; seed 003
    # for one yakuman: tsumo all from the liable player, ron half each
    hand = {"hand": "11z234m", "win_tile": "4m",
            "melds": [{"type": "pon", "tiles": t} for t in ("555z", "666z", "777z")]}
    st = s(game("ryanzou"), [pao_win({"request": hand}, None)])
    assert st["scores"] == {"Ann": 25000, "Bob": 25000 + 32000, "Cid": 25000, "Dan": 25000 - 32000}
    st = s(game("ryanzou"), [pao_win({"request": hand}, "Cid")])
    assert st["scores"] == {"Ann": 25000, "Bob": 25000 + 32000, "Cid": 25000 - 16000, "Dan": 25000 - 16000}


def test_pao_on_a_yakuman_count_above_1_needs_the_liable_part():
    # {"yakuman": 2} does not say whether Dan answers for one of them or both
    with pytest.raises(TableError, match='pao "yakuman"'):
        fold(game("ryanzou"), [pao_win({"yakuman": 2}, None)])
    # told: 1 of the 2 -> as the scored daisangen + tsuuiisou above
    st = s(game("ryanzou"), [pao_win({"yakuman": 2}, None, {**PAO_DAN, "yakuman": 1})])
    assert st["scores"] == {"Ann": 25000 - 16000, "Bob": 25000 + 64000, "Cid": 25000 - 8000,
                            "Dan": 25000 - 40000}
    st = s(game("ryanzou"), [pao_win({"yakuman": 2}, "Cid", {**PAO_DAN, "yakuman": 1})])
    assert st["scores"] == {"Ann": 25000, "Bob": 25000 + 64000, "Cid": 25000 - 48000, "Dan": 25000 - 16000}
    # both (a double daisuushii): the whole hand, as for one yakuman
    st = s(game("ryanzou"), [pao_win({"yakuman": 2}, None, {**PAO_DAN, "yakuman": 2})])
    assert st["scores"]["Dan"] == 25000 - 64000 and st["scores"]["Ann"] == 25000
    for bad in (0, 3, "1"):
        with pytest.raises(TableError, match="from 1 to 2"):
            fold(game("ryanzou"), [pao_win({"yakuman": 2}, None, {**PAO_DAN, "yakuman": bad})])
    with pytest.raises(TableError, match="yakuman hand"):
        fold(game("ryanzou"), [pao_win({"han": 3, "fu": 30}, None, {**PAO_DAN, "yakuman": 1})])


def test_pao_needs_a_winner_and_another_liable_player():
    bad = {"type": "win", "discarder": "Ann", "pao": {"player": "Cid", "liable": "Cid"},
           "winners": [{"player": "Cid", "yakuman": 1}]}
    with pytest.raises(TableError, match="own hand"):
        fold(game(), [bad])


# ----- undo, history, preview -------------------------------------------------------------------------

def test_undo_is_an_event_and_the_history_shows_both():
    ev = [riichi("Bob"), ron("Bob", "Cid", 1, 30), {"type": "undo", "target_seq": 2}]
    st = s(game(), ev)
    assert st["scores"] == {"Ann": 25000, "Bob": 24000, "Cid": 25000, "Dan": 25000}
    assert st["riichi_declared"] == ["Bob"] and st["round"] == "E1"
    h = st["history"]
    assert [(e["seq"], e["type"], e["undone"]) for e in h] == [(1, "riichi", False), (2, "win", True),
                                                               (3, "undo", False)]
    assert h[1]["undone_by"] == 3 and h[1]["deltas"]["Bob"] == 2000 and h[2]["target_seq"] == 2
    assert st["next_seq"] == 4
    # undoing the undo brings the win back
    st = s(game(), ev + [{"type": "undo", "target_seq": 3}])
    assert st["scores"]["Bob"] == 26000 and st["round"] == "E2"


def test_undo_of_an_undone_or_later_event_is_refused():
    ev = [riichi("Bob"), {"type": "undo", "target_seq": 1}]
    with pytest.raises(TableError, match="already undone"):
        fold(game(), ev + [{"type": "undo", "target_seq": 1}])
    with pytest.raises(TableError, match="earlier event"):
        fold(game(), ev + [{"type": "undo", "target_seq": 9}])


def test_undo_that_would_break_a_later_event_is_refused():
    # without the second correction Bob could not afford the later riichi
    ev = [fix(Bob=-24500), fix(Bob=1000), riichi("Bob")]
    with pytest.raises(TableError, match="riichi needs at least 1000"):
        fold(game(), ev + [{"type": "undo", "target_seq": 2}])


def test_preview_shows_payments_without_applying():
    ev = [draw("Ann")]
    d = preview(game(), ev, ron("Bob", "Cid", 3, 30))
    assert d == {"Ann": 0, "Bob": 4200, "Cid": -4200, "Dan": 0}
    assert s(game(), ev)["next_seq"] == 2
    with pytest.raises(TableError):
        preview(game(), ev, ron("Bob", "Bob", 3, 30))


def test_hand_summary_lists_every_hand_with_its_deltas():
    st = s(game(), [riichi("Bob"), ron("Bob", "Cid", 1, 30), draw("Cid"), END])
    hands = st["hands"]
    assert [h["round"] for h in hands] == ["E1", "E2", "E3"]
    assert hands[0]["deltas"] == {"Ann": 0, "Bob": 1000, "Cid": -1000, "Dan": 0}
    assert hands[0]["result"] == "win" and hands[1]["result"] == "draw"


def test_events_must_be_numbered_in_order():
    with pytest.raises(TableError, match="numbered"):
        fold(game(), [{**riichi("Bob"), "seq": 2}])


def test_players_must_be_four_different_names():
    with pytest.raises(TableError, match="four"):
        fold({"preset": "wrc", "players": ["A", "B", "C"]}, [])
    with pytest.raises(TableError, match="different"):
        fold({"preset": "wrc", "players": ["A", "B", "C", "A"]}, [])


# ----- invariants over many random games -------------------------------------------------------------

HANS = [1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 8, 13]


def _random_event(rng, players):
    kind = rng.choice(["riichi", "riichi", "ron", "ron", "tsumo", "draw", "abortive", "chombo", "nagashi",
                       "double", "undo"])
    a, b, c = rng.sample(players, 3)
    if kind == "riichi":
        return riichi(a)
    if kind == "ron":
        return ron(a, b, rng.choice(HANS), rng.choice([30, 40, 50, 70]))
    if kind == "double":
        return {"type": "win", "discarder": c, "winners": [{"player": a, "han": rng.choice(HANS), "fu": 30},
                                                           {"player": b, "han": rng.choice(HANS), "fu": 40}]}
    if kind == "tsumo":
        return tsumo(a, rng.choice(HANS), rng.choice([20, 30, 40]))
    if kind == "draw":
        return draw(*rng.sample(players, rng.randint(0, 4)))
    if kind == "abortive":
        return {"type": "abortive", "kind": rng.choice(["kyuushu_kyuuhai", "suufon_renda", "suukaikan"])}
    if kind == "nagashi":
        return {"type": "nagashi", "players": rng.sample(players, rng.randint(1, 2))}
    if kind == "undo":
        return {"type": "undo", "target_seq": rng.randint(1, 60)}
    return {"type": "chombo", "player": a}


@pytest.mark.parametrize("preset", ["ryanzou", "tenhou", "ema2016", "mleague"])
def test_points_are_conserved_and_final_scores_add_up(preset):
    # every point a player loses is on the table or with another player: sum(scores) +
    # 1000 x sticks stays 4 x start (EMA chombo penalties are outside the table points); at the
    # end, with leftover sticks to first place, the scores after uma and oka add up to minus the
    # chombo penalties.
    import random

    rng = random.Random(preset)
    g = game(preset)
    start = fold(g, []).rules.start_points
    finished = 0
    for _ in range(30):
        events = []
        for _ in range(200):
            ev = _random_event(rng, P)
            try:
                st = fold(g, events + [ev])
            except TableError:
                continue
            events.append(ev)
            assert sum(st.scores) + 1000 * st.sticks == 4 * start
            assert st.honba >= 0 and st.sticks >= 0
            if st.finished:
                break
        st = fold(g, events + ([] if st.finished else [END]))
        d = st.to_dict()
        finished += 1
        total = sum(x["score"] for x in d["placements"])
        assert abs(total + sum(st.penalties)) < 1e-6, (preset, d["placements"])
        assert sorted(x["rank"] for x in d["placements"])[0] == 1
    assert finished == 30


def test_preview_detail_names_the_limit_and_the_next_deal():
    from companion.table.game import preview_detail

    out = preview_detail(game(), [draw("Ann")], ron("Bob", "Cid", 6))
    # 6 han: haneman, non-dealer ron 12000 + 300
    assert out["deltas"] == {"Ann": 0, "Bob": 12300, "Cid": -12300, "Dan": 0}
    assert out["detail"]["winners"][0]["limit"] == "haneman"
    assert out["after"]["round"] == "E2" and out["after"]["honba"] == 0


def test_han_fu_entry_follows_the_presets_kiriage_and_kazoe():
    # mleague [scoring]: kiriage mangan, so 4 han 30 fu non-dealer ron is 8000 instead of 7700
    assert s(game("mleague"), [ron("Bob", "Cid", 4, 30)])["scores"]["Bob"] == 33000
    assert s(game("ryanzou"), [ron("Bob", "Cid", 4, 30)])["scores"]["Bob"] == 32700
    # 13 han: kazoe yakuman (32000) at ryanzou, sanbaiman (24000) under EMA 2016
    assert s(game("ryanzou"), [ron("Bob", "Cid", 13)])["scores"]["Bob"] == 57000
    assert s(game("ema2016"), [ron("Bob", "Cid", 13)])["scores"]["Bob"] == 54000
