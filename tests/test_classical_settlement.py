"""Seed 002's settlement ("Jeder Spieler beginnt eine Partie mit 0 Punkten ..."): the Mahjongg player
collects his value from each player, then the three others pay each other the differences of their hand
values; East (the dealer) pays and receives double throughout. All figures below are worked by hand."""

from __future__ import annotations

import io
import json
import random
import sys

import pytest

from companion import score as companion_score
from companion.cli import main as cli_main
from companion.errors import InvalidRequestError, InvalidTilesError
from companion.rules.classical import dealer_stays, score_table, settle, transfers


def test_seed_example_south_collects_1216():
    # seed 002: "gewinnt der Spieler also 1216 Punkte - von Westen und Norden jeweils 304 und von Osten 608"
    assert settle({"E": 0, "S": 304, "W": 0, "N": 0}, "S") == {"E": -608, "S": 1216, "W": -304, "N": -304}


def test_seed_example_east_with_200_collects_1200():
    # seed 002: "Wenn man als Ostwind Mahjongg macht, erhält man von jedem der drei Mitspieler das Doppelte des
    # Wertes der Hand, erhält also, wenn die Hand z.B. einen Wert von 200 hat, 1200 Punkte."
    assert settle({"E": 200, "S": 0, "W": 0, "N": 0}, "E") == {"E": 1200, "S": -400, "W": -400, "N": -400}


def test_east_wins_and_the_others_settle_their_differences_single():
    # East 200 wins: 400 from each. S 50, W 20, N 20: W and N each pay S 30; W and N are level.
    # E +1200; S -400 +30 +30 = -340; W -400 -30 = -430; N -430.
    assert settle({"E": 200, "S": 50, "W": 20, "N": 20}, "E") == {"E": 1200, "S": -340, "W": -430, "N": -430}


def test_east_loses_with_the_highest_losing_hand_and_receives_double():
    # South 304 wins: E pays 608, W and N 304. Losers E 100, W 40, N 0:
    # W pays E (100-40)*2 = 120, N pays E 100*2 = 200, N pays W 40.
    # E -608 +120 +200 = -288; W -304 -120 +40 = -384; N -304 -200 -40 = -544; S +1216.
    assert settle({"E": 100, "S": 304, "W": 40, "N": 0}, "S") == {"E": -288, "S": 1216, "W": -384, "N": -544}


def test_east_loses_between_two_others_pays_and_receives_double():
    # West 100 wins: E pays 200, S and N 100 -> W +400. Losers E 30, S 50, N 10:
    # E pays S (50-30)*2 = 40, N pays E (30-10)*2 = 40, N pays S 40.
    # E -200 -40 +40 = -200; S -100 +40 +40 = -20; N -100 -40 -40 = -180.
    values = {"E": 30, "S": 50, "W": 100, "N": 10}
    assert settle(values, "W") == {"E": -200, "S": -20, "W": 400, "N": -180}
    assert {(t["from"], t["to"], t["amount"], t["reason"]) for t in transfers(values, "W")} == {
        ("E", "W", 200, "mahjong"), ("S", "W", 100, "mahjong"), ("N", "W", 100, "mahjong"),
        ("E", "S", 40, "difference"), ("N", "E", 40, "difference"), ("N", "S", 40, "difference")}


def test_the_winner_pays_nobody_even_with_a_lower_value_than_a_loser():
    # seed 002: "Der Spieler, der Mahjongg macht, zahlt dabei üblicherweise nicht an die anderen Spieler."
    # N wins with 20: E pays 40, S and W 20. S holds 500 but settles only with E and W: E pays S 1000,
    # W pays S 500, E and W are level. S: -20 +1000 +500 = 1480; E -40 -1000 = -1040; W -20 -500 = -520; N +80.
    assert settle({"E": 0, "S": 500, "W": 0, "N": 20}, "N") == {"E": -1040, "S": 1480, "W": -520, "N": 80}


def test_another_seat_as_dealer():
    # the table helper may name the dealer: with South as dealer (east="S"), South pays double.
    assert settle({"E": 0, "S": 0, "W": 304, "N": 0}, "W", east="S") == {"E": -304, "S": -608, "W": 1216,
                                                                          "N": -304}


def test_changes_always_sum_to_zero():
    rng = random.Random(2)
    for _ in range(500):
        values = {s: rng.choice([0, 4, 16, 36, 304, 1000, 3000]) for s in "ESWN"}
        winner = rng.choice("ESWN")
        assert sum(settle(values, winner).values()) == 0


def test_drawn_hand_moves_nothing():
    # seed 002: the hand "endet ... unentschieden" when the live wall is used up
    assert settle({"E": 40, "S": 8, "W": 0, "N": 16}, None) == {"E": 0, "S": 0, "W": 0, "N": 0}


@pytest.mark.parametrize("values, winner", [
    ({"E": 1, "S": 2, "W": 3}, "E"),
    ({"E": 1, "S": 2, "W": 3, "N": -4}, "E"),
    ({"E": 1, "S": 2, "W": 3, "N": 4}, "X"),
    ({"E": 1, "S": 2.5, "W": 3, "N": 4}, "E"),
])
def test_bad_settlement_input_is_explained(values, winner):
    with pytest.raises(InvalidRequestError):
        settle(values, winner)


# --- four hands scored and settled in one call --------------------------------------------------------

# East round. South wins with seed 002's example hand (304). East: concealed 555z (8, 1x), concealed 999p (8),
# open 333p (2) -> 18 x 2 = 36. West: pair 66z (2), concealed 777m (4), flower 3 = West's own (4, 1x)
# -> 10 x 2 = 20. North: nothing -> 0.
WINNER = {"hand": "234m567p678s77z", "melds": [{"type": "pon", "tiles": "111z"}], "win_tile": "7z", "tsumo": True,
          "seat_wind": "S", "round_wind": "E", "flowers": ["2f", "4f"]}
OTHERS = {
    "E": {"hand": "555z999p18m49s", "melds": [{"type": "pon", "tiles": "333p"}]},
    "W": {"hand": "66z777m14p25s9m", "melds": [{"type": "chi", "tiles": "123s"}], "flowers": ["3f"]},
    "N": {"hand": "1p5p9s2z3z4z6m9m3m5m2p8p2s"},
}
# S collects 608 + 304 + 304 = 1216. Differences: W pays E (36-20)*2 = 32, N pays E 36*2 = 72, N pays W 20.
# E -608 +32 +72 = -504; W -304 -32 +20 = -316; N -304 -72 -20 = -396.
EXPECTED = {"E": -504, "S": 1216, "W": -316, "N": -396}


def test_score_table_values_every_hand_and_settles():
    table = score_table({"S": WINNER, **OTHERS}, "S")
    assert table["values_by_seat"] == {"E": 36, "S": 304, "W": 20, "N": 0}
    assert (table["by_seat"]["E"]["points"], table["by_seat"]["E"]["doubles"]) == (18, 1)
    assert (table["by_seat"]["W"]["points"], table["by_seat"]["W"]["doubles"]) == (10, 1)
    assert table["payments_by_seat"] == EXPECTED


def test_others_key_in_a_request_settles_the_whole_table():
    r = companion_score({"rules": "classical", **WINNER, "others": OTHERS})
    assert (r["points"], r["doubles"], r["value"]) == (38, 3, 304)
    assert r["payments_by_seat"] == EXPECTED and r["settlement"] == "full"
    assert {s: r["table"][s]["value"] for s in "ESWN"} == {"E": 36, "S": 304, "W": 20, "N": 0}
    assert sum(t["amount"] for t in r["transfers"] if t["to"] == "S") == 1216


def test_others_must_name_the_three_other_seats():
    with pytest.raises(InvalidRequestError, match="E, N, W"):
        companion_score({"rules": "classical", **WINNER, "others": {"E": OTHERS["E"], "W": OTHERS["W"]}})


def test_tiles_across_the_four_hands_are_counted_together():
    # the winner holds 77z; a fifth red dragon cannot be in North's hand
    others = {**OTHERS, "N": {"hand": "777z9s2z3z4z6m9m3m5m2p8p"}}
    with pytest.raises(InvalidTilesError, match="four hands together"):
        companion_score({"rules": "classical", **WINNER, "others": others})
    others = {**OTHERS, "N": {**OTHERS["N"], "flowers": ["2f"]}}  # flower 2 is the winner's
    with pytest.raises(InvalidTilesError, match="flowers"):
        companion_score({"rules": "classical", **WINNER, "others": others})


def test_a_loser_cannot_claim_to_have_won():
    others = {**OTHERS, "E": {**OTHERS["E"], "won": True}}
    with pytest.raises(InvalidRequestError, match="winner is another seat"):
        companion_score({"rules": "classical", **WINNER, "others": others})


def test_others_through_the_cli_json_mode(monkeypatch, capsys):
    request = {"rules": "classical", **WINNER, "others": OTHERS}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(request)))
    assert cli_main(["score", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["payments_by_seat"] == EXPECTED


@pytest.mark.parametrize("winner, stays", [("E", True), (None, True), ("S", False), ("N", False)])
def test_east_deals_again_only_after_his_own_win_or_a_draw(winner, stays):
    # seed 002: "Der Geber (Platzwind Osten) wechselt nur dann, wenn ein anderer Spieler als Osten Mahjongg
    # machen konnte."
    assert dealer_stays(winner) is stays
