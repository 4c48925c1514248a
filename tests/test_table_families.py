"""The table for Hong Kong (seed 004), classical (seed 002) and old Japanese (seed 001) games,
and the scored-hand path through ``companion.score``.

Seats at the start: Ann East (first dealer), Bob South, Cid West, Dan North.
"""

import pytest

import companion
from companion.errors import TableError
from companion.table.game import fold

P = ["Ann", "Bob", "Cid", "Dan"]


def game(preset, **overrides):
    return {"id": "f", "preset": preset, "overrides": overrides, "players": P}


def s(g, events):
    return fold(g, events).to_dict()


def paid(winner, by_seat, discarder=None):
    return {"type": "win", "discarder": discarder, "winners": [{"player": winner, "payments_by_seat": by_seat}]}


# South (the player after the dealer) wins 40 from East, 10 from each other: never the dealer
SOUTH_WINS = {"E": -20, "S": 40, "W": -10, "N": -10}


# ----- Hong Kong -------------------------------------------------------------------------------------

def test_hong_kong_payments_by_seat_follow_the_seat_winds():
    st = s(game("hongkong"), [paid("Bob", SOUTH_WINS)])
    assert st["scores"] == {"Ann": -20, "Bob": 40, "Cid": -10, "Dan": -10}
    # seed 004: the dealer keeps the deal only when he wins; Bob deals now and sits East
    assert st["round"] == "E2" and st["dealer"] == "Bob" and st["seat_winds"]["Bob"] == "E"
    st = s(game("hongkong"), [paid("Bob", SOUTH_WINS), paid("Bob", {"E": 60, "S": -20, "W": -20, "N": -20})])
    assert st["scores"]["Bob"] == 100 and st["round"] == "E2"  # dealer win: he keeps the deal
    assert st["honba"] == 0 and st["riichi_sticks"] == 0


def test_hong_kong_draw_keeps_the_dealer_by_default_and_the_last_hand_always():
    assert s(game("hongkong"), [{"type": "draw"}])["round"] == "E1"
    g = game("hongkong", dealer_keeps_on_draw=False)
    assert s(g, [{"type": "draw"}])["round"] == "E2"
    # seed 004: a draw in the very last hand (North 4) replays it with the same dealer
    st = s(g, [{"type": "draw"}] * 16)
    assert st["round"] == "N4" and not st["finished"]
    st = s(g, [{"type": "draw"}] * 15 + [paid("Ann", SOUTH_WINS)])  # N4: Dan deals, Ann is South
    assert st["finished"] and st["end_reason"] == "complete"


def test_hong_kong_has_no_riichi():
    with pytest.raises(TableError, match="no riichi"):
        fold(game("hongkong"), [{"type": "riichi", "player": "Ann"}])


def test_payments_by_seat_must_balance_and_favour_the_winner():
    with pytest.raises(TableError, match="add up to 0"):
        fold(game("hongkong"), [paid("Bob", {"E": -20, "S": 40, "W": -10, "N": 0})])
    with pytest.raises(TableError, match="must gain"):
        fold(game("hongkong"), [paid("Bob", {"E": 20, "S": -40, "W": 10, "N": 10})])
    with pytest.raises(TableError, match='"E", "S", "W", "N"'):
        fold(game("hongkong"), [paid("Bob", {"S": 40, "E": -40})])


def test_hong_kong_false_win_every_other_player_gets_the_same_and_the_dealer_stays():
    # seed 004: "Der Täter muss jedem anderen Mitspieler den Höchstbetrag ... zahlen ... Der Dealer bleibt"
    st = s(game("hongkong"), [{"type": "chombo", "player": "Bob"}])
    sc = st["scores"]
    assert sc["Ann"] == sc["Cid"] == sc["Dan"] > 0 and sc["Bob"] == -3 * sc["Ann"]
    assert st["round"] == "E1"


# ----- classical (Gravon) ----------------------------------------------------------------------------

def test_classical_seed_002_worked_example_winner_collects_1216():
    # seed 002: South's hand is worth 304; West and North pay 304 each, East 608
    win = {"type": "win", "discarder": None,
           "winners": [{"player": "Bob", "values_by_seat": {"E": 0, "S": 304, "W": 0, "N": 0}}]}
    st = s(game("classical"), [win])
    assert st["scores"] == {"Ann": -608, "Bob": 1216, "Cid": -304, "Dan": -304}


def test_classical_losers_settle_their_differences_with_east_double():
    # winner South 304 collects 608/304/304; then E(100) gets (100-20)*2 = 160 from W(20) and
    # 100*2 = 200 from N(0); W gets 20 from N.  E: -608+160+200 = -248; W: -304-160+20 = -444;
    # N: -304-200-20 = -524
    win = {"type": "win", "discarder": "Cid",
           "winners": [{"player": "Bob", "values_by_seat": {"E": 100, "S": 304, "W": 20, "N": 0}}]}
    st = s(game("classical"), [win])
    assert st["scores"] == {"Ann": -248, "Bob": 1216, "Cid": -444, "Dan": -524}


def test_classical_east_stays_unless_another_player_wins():
    # seed 002: "Der Geber wechselt nur dann, wenn ein anderer Spieler als Osten Mahjongg machen konnte"
    assert s(game("classical"), [{"type": "draw"}])["round"] == "E1"
    east_wins = {"E": 60, "S": -20, "W": -20, "N": -20}
    assert s(game("classical"), [paid("Ann", east_wins)])["round"] == "E1"
    # the player after the dealer (South) wins every hand, so the deal passes each time
    passes = [paid(P[(i + 1) % 4], SOUTH_WINS) for i in range(16)]
    st = s(game("classical"), passes)
    # four wind rounds of four deals each; the sixteenth pass ends the game
    assert st["finished"] and st["end_reason"] == "complete"
    st = s(game("classical"), passes[:15])
    assert st["round"] == "N4" and not st["finished"]


# ----- old Japanese (seed 001) ----------------------------------------------------------------------

def test_old_japanese_win_with_riichi_stick_and_east_staying_on_a_draw():
    g = game("oldjapanese")
    # seed 001 ch. 4 V: West wins 288 on South's discard, South pays 1200 (method 1)
    ev = [{"type": "riichi", "player": "Cid"},
          paid("Cid", {"E": 0, "S": -1200, "W": 1200, "N": 0}, discarder="Bob")]
    st = s(g, ev)
    assert st["scores"] == {"Ann": 27000, "Bob": 25800, "Cid": 28200, "Dan": 27000}
    assert st["round"] == "E2"
    # ch. 3 VIII: after a draw East stays ("Ren chowa"), marked by a counter that pays nothing
    st = s(g, [{"type": "draw"}])
    assert (st["round"], st["honba"], st["scores"]["Ann"]) == ("E1", 1, 27000)


def test_old_japanese_false_win_costs_the_simple_limit_and_moves_east_on():
    g = game("oldjapanese")
    # seed 001 ch. 8 III.1: East pays each 4000; the deal then passes (ch. 8 I)
    st = s(g, [{"type": "chombo", "player": "Ann"}])
    assert st["scores"] == {"Ann": 15000, "Bob": 31000, "Cid": 31000, "Dan": 31000}
    assert (st["round"], st["dealer"]) == ("E2", "Bob")
    # South pays East 4000 and the others 2000; East stays
    st = s(g, [{"type": "chombo", "player": "Bob"}])
    assert st["scores"] == {"Ann": 31000, "Bob": 19000, "Cid": 29000, "Dan": 29000}
    assert (st["round"], st["honba"]) == ("E1", 1)


def test_old_japanese_final_scores_rounded_to_thousands_and_winner_bonus():
    # seed 001 ch. 4 VI: round to thousands (400 down, 500 up), 12,000 to the winner.
    # Ann 30400 -> 30000, Bob 23900 -> 24000, Cid 26700 -> 27000, Dan 27000.
    ev = [{"type": "correction", "deltas": {"Ann": 3400, "Bob": -3100, "Cid": -300}, "reason": "t"},
          {"type": "end"}]
    pl = {x["player"]: (x["rank"], x["points"], x["score"]) for x in s(game("oldjapanese"), ev)["placements"]}
    # scores against 30,000: Ann 0 + 12000; Cid and Dan tie (shared) at -3000; Bob -6000
    assert pl == {"Ann": (1, 30000, 12000), "Cid": (2, 27000, -3000), "Dan": (2, 27000, -3000),
                  "Bob": (4, 24000, -6000)}


# ----- scored hands through companion.score ----------------------------------------------------------

def test_request_is_filled_from_the_table_state(monkeypatch):
    seen = {}

    def fake_score(req):
        seen.update(req)
        return {"han": 3, "fu": 30, "yakuman": 0, "limit": None, "payments": {"discarder": 3900 + 300 * req["honba"]}}

    monkeypatch.setattr(companion, "score", fake_score)
    ev = [{"type": "draw", "tenpai": ["Bob"]},  # E2, Bob deals, 1 honba
          {"type": "riichi", "player": "Dan"},
          {"type": "win", "discarder": "Ann", "winners": [{"player": "Dan", "request": {"hand": "x"}}]}]
    st = fold({"id": "r", "preset": "tenhou", "overrides": {}, "players": P}, ev).to_dict()
    assert seen["seat_wind"] == "W" and seen["round_wind"] == "E" and seen["tsumo"] is False
    assert seen["honba"] == 1 and seen["riichi_sticks"] == 1 and seen["riichi"] is True
    assert seen["rules"] == "tenhou"
    # Dan: 24000 - 1000 + 4200 + 1000 stick
    assert st["scores"]["Dan"] == 28200 and st["history"][-1]["detail"]["winners"][0]["han"] == 3


def test_family_request_gets_the_discarder_seat(monkeypatch):
    seen = {}

    def fake_score(req):
        seen.update(req)
        return {"fan": 3, "payments_by_seat": {"E": 0, "S": 0, "W": 32, "N": -32}}

    monkeypatch.setattr(companion, "score", fake_score)
    st = s(game("hongkong"), [{"type": "win", "discarder": "Dan", "winners": [{"player": "Cid", "request": {}}]}])
    assert seen["discarder"] == "N" and seen["seat_wind"] == "W" and seen["rules"] == "hongkong"
    assert st["scores"]["Cid"] == 32


def test_request_contradicting_the_event_is_refused():
    ev = {"type": "win", "discarder": "Ann", "winners": [{"player": "Dan", "request": {"tsumo": True}}]}
    with pytest.raises(TableError, match="tsumo"):
        fold(game("ryanzou"), [ev])


def test_real_riichi_engine_hand():
    # 123m 456p 789s 234s + white pair, riichi, ron on the white (tanki): 1 han;
    # fu 20 + 10 closed ron + 2 tanki = 32 -> 40; non-dealer 40*2^3 = 320 * 4 = 1280 -> 1300
    ev = [{"type": "riichi", "player": "Bob"},
          {"type": "win", "discarder": "Cid", "winners": [
              {"player": "Bob", "request": {"hand": "123m456p789s234s55z", "win_tile": "5z"}}]}]
    st = s(game("ryanzou"), ev)
    assert st["scores"] == {"Ann": 25000, "Bob": 24000 + 1300 + 1000, "Cid": 25000 - 1300, "Dan": 25000}


def test_house_rules_for_scoring_apply_to_every_hand_of_the_game():
    # chi 234m called, 567p 345s 678s 88p concealed, Bob (South) wins on Cid's 5p (two-sided wait):
    # all simples and nothing else. EMA 2016 allows open tanyao (kuitan): 1 han; fu 20, an open hand
    # without fu counts 30; non-dealer ron 30 * 2^3 * 4 = 960 -> 1000 from Cid
    win = {"type": "win", "discarder": "Cid", "winners": [
        {"player": "Bob", "request": {"hand": "567p345678s88p", "win_tile": "5p",
                                      "melds": [{"type": "chi", "tiles": "234m"}]}}]}
    st = s(game("ema2016"), [win])
    assert st["scores"]["Bob"] - st["scores"]["Cid"] == 2000
    # the same game with the house rule "no open tanyao": the hand has no yaku at this table
    with pytest.raises(companion.errors.NoYakuError):
        fold(game("ema2016", scoring={"open_tanyao": False}), [win])
    # a request naming other rules than the game's is refused, not silently rescored
    other = {"type": "win", "discarder": "Cid", "winners": [
        {"player": "Bob", "request": dict(win["winners"][0]["request"], rules="wrc")}]}
    with pytest.raises(TableError, match="ema2016"):
        fold(game("ema2016"), [other])


def test_hong_kong_minimum_fan_is_a_house_rule_of_the_game():
    # seed 004 "3-Fan-Pflicht": a self-drawn plain hand (1 fan: self-draw) does not count ...
    win = {"type": "win", "discarder": None, "winners": [{"player": "Bob", "request": {"hand": "123m456m789m222p55s"}}]}
    with pytest.raises(companion.errors.BelowMinimumError):
        fold(game("hongkong"), [win])
    # ... unless the table plays without a minimum ("nach Verabredung"): 1 fan, Bob gains
    st = s(game("hongkong", scoring={"min_fan": 0}), [win])
    assert st["scores"]["Bob"] > 0 and sum(st["scores"].values()) == 0


def test_hong_kong_second_claim_loses_to_the_first_in_turn_unless_agreed():
    # seed 004: several winners only by agreement, otherwise the player nearest after the discarder
    two = {"type": "win", "discarder": "Ann", "winners": [
        {"player": "Dan", "payments_by_seat": {"E": -32, "S": 0, "W": 0, "N": 32}},
        {"player": "Cid", "payments_by_seat": {"E": -16, "S": 0, "W": 16, "N": 0}}]}
    with pytest.raises(TableError, match="Cid"):
        fold(game("hongkong"), [two])
    st = s(game("hongkong", multiple_ron="allow"), [two])
    assert st["scores"] == {"Ann": -48, "Bob": 0, "Cid": 16, "Dan": 32}


def test_engine_failure_becomes_a_clear_table_error(monkeypatch):
    def broken(req):
        raise KeyError("payments")

    monkeypatch.setattr(companion, "score", broken)
    ev = {"type": "win", "discarder": "Ann", "winners": [{"player": "Dan", "request": {}}]}
    with pytest.raises(TableError, match="han/fu or points"):
        fold(game("ryanzou"), [ev])


def test_engine_input_errors_keep_their_own_code():
    ev = {"type": "win", "discarder": "Ann", "winners": [{"player": "Dan", "request": {"hand": "123q"}}]}
    with pytest.raises(companion.errors.CompanionError) as e:
        fold(game("ryanzou"), [ev])
    assert e.value.code == "invalid_tiles"
