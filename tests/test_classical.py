"""Classical Chinese scoring as Gravon plays it (seed 002_994f5d56ddccda77.txt).

Every row of the base-points table ("Basispunkte") and of the doubles table
("verdoppeln") has a hand that scores it and a near miss that does not. The
expected figures are read off the seed's tables and added up by hand.
"""

from __future__ import annotations

import pytest

from companion import score as companion_score
from companion.errors import (
    CompanionError,
    InvalidRequestError,
    InvalidTilesError,
    NotCompleteError,
    UnknownRulesError,
)
from companion.rules.classical import DOUBLES, POINTS, score


def play(hand: str, win: str | None = None, *, melds: tuple[tuple[str, str], ...] = (), seat: str = "W",
         round_wind: str = "S", rules: object = "classical", **extra: object) -> dict:
    """Score a request; West in the South round by default, so that East/dealer rows stay quiet."""
    request: dict = {"rules": rules, "hand": hand, "seat_wind": seat, "round_wind": round_wind,
                     "melds": [{"type": t, "tiles": s} for t, s in melds], **extra}
    if win is not None:
        request["win_tile"] = win
    return score(request)


def items(result: dict, row_id: str) -> list[dict]:
    return [i for i in result["items"] if i["id"] == row_id]


def ids(result: dict) -> set[str]:
    return {i["id"] for i in result["items"]}


# open chi melds keep "Verdeckte Hand" and the pattern doubles out of the base hands below
OPEN_CHI = (("chi", "678m"),)


# --- the tables themselves (seed 002, both tables) ---------------------------------------------------

def test_points_table_has_every_row_of_seed_002_with_its_figures():
    # seed 002, table "Bezeichnung | Punkte | offen | (halb-)verdeckt"
    expected = {
        "Mahjongg": (20, None),
        "Chi": (0, 0),
        "Pong aus Mittelziegeln": (2, 4),
        "Pong aus Randziegeln, Drachen oder Winden": (4, 8),
        "Kan aus Mittelziegeln": (8, 16),
        "Kan aus Randziegeln, Drachen oder Winden": (16, 32),
        "Paar aus Drachen, Platz- oder Rundenwinden": (2, None),
        "Blumen- oder Jahreszeitenziegel": (4, None),
        "Nur Chis plus Schlußpaar": (20, None),
        "Mahjongg mit selbstgezogenem Ziegel": (2, None),
        "Schlußziegel vervollständigt Schlußpaar": (2, None),
        "Schlußziegel einzig möglicher Ziegel für Chi": (2, None),
    }
    assert {row.name_de: (row.open, row.concealed) for row in POINTS} == expected
    assert all(row.id and row.name for row in POINTS)


def test_doubles_table_has_every_row_of_seed_002_with_its_figures():
    # seed 002, table "Bezeichnung | verdoppeln"; "letzer" is the seed's own spelling
    expected = {
        "Jeder Pong oder Kan aus Drachen oder Winden": 1,
        "Jeder Pong oder Kan aus Platzwinden": 1,
        "Jeder Pong oder Kan aus Rundenwinden": 1,
        "Jeder Kan": 1,
        "Jeder Blumen- oder Jahreszeitenziegel des Platzwindes": 1,
        "Jeder Blumen- oder Jahreszeitenziegel des Rundenwindes": 1,
        "Alle 4 Blumenziegel": 1,
        "Alle 4 Jahreszeitenziegel": 1,
        "Alle 8 Blumen- und Jahreszeiten": 1,
        "Verdeckte Hand": 1,
        "Vollständig verdeckte Hand": 2,
        "Nur Pongs und/oder Kans und Schlußpaar": 1,
        "Nur Trumpf": 3,
        "Unreines Farbenspiel": 1,
        "Reines Farbenspiel": 3,
        "Schlußziegel von Toter Mauer": 1,
        "Schlußziegel letzter Ziegel von der Mauer": 1,
        "Schlußziegel letzer abgelegter Ziegel": 1,
        "Beraubung des Kan": 1,
    }
    assert {row.name_de: row.doubles for row in DOUBLES} == expected
    assert len({row.id for row in DOUBLES} | {row.id for row in POINTS}) == len(DOUBLES) + len(POINTS)


# --- seed 002's worked example --------------------------------------------------------------------------

def test_seed_002_worked_example_38_points_3_doubles_304_winner_collects_1216():
    # Seed 002: East round, South wins with three chis, an open pong of East winds and a pair of red dragons,
    # the second red dragon drawn from the live wall; flowers 2 and 4 laid out. 38 points, 3 doubles -> 304;
    # the winner collects 1216: 304 from West and North each, 608 from East.
    # The seed names no chis; any three chis without a waiting bonus give the same figures.
    r = companion_score({"rules": "classical", "hand": "234m567p678s77z", "melds": [{"type": "pon", "tiles": "111z"}],
                         "win_tile": "7z", "tsumo": True, "seat_wind": "S", "round_wind": "E",
                         "flowers": ["2f", "4f"]})
    assert (r["points"], r["doubles"], r["value"]) == (38, 3, 304)
    # 20 Mahjongg + 4 open wind pong + 2 dragon pair + 2x4 flowers + 2 self-drawn + 2 final tile completes pair
    assert sorted((i["id"], i.get("points", 0)) for i in r["items"] if "points" in i) == sorted([
        ("mahjong", 20), ("pong_terminals_honors", 4), ("pair_dragons_winds", 2), ("flower", 4), ("flower", 4),
        ("self_drawn", 2), ("pair_wait", 2)])
    # doubles: wind pong, round wind pong (East in the East round), flower 2 = South's own flower
    assert sorted(i["id"] for i in r["items"] if "doubles" in i) == ["dragon_wind_set", "round_wind_set",
                                                                      "seat_flower"]
    assert r["payments_by_seat"] == {"E": -608, "S": 1216, "W": -304, "N": -304}
    assert r["payments"] == {"dealer": 608, "each_non_dealer": 304}
    assert r["settlement"] == "winner_only" and "others" in r["note"]


# --- base points, row by row -----------------------------------------------------------------------------

def test_mahjong_20_points_only_for_the_winner():
    # seed 002 points table: "Mahjongg 20"
    won = play("234p456s33m222s", "3m", melds=OPEN_CHI)
    assert items(won, "mahjong") == [{"id": "mahjong", "name": "Mahjong", "name_de": "Mahjongg", "points": 20}]
    lost = score({"rules": "classical", "hand": "234p456s3m222s", "melds": [{"type": "chi", "tiles": "678m"}],
                  "won": False})
    assert not items(lost, "mahjong")


def test_chi_scores_nothing():
    # seed 002: "Chis bringen dabei keine Punkte an sich"; 20 Mahjongg + 20 only chis, the pair of 3m and the
    # two-sided wait (23p on 1p/4p) score nothing
    r = play("234p456s33m678s", "4p", melds=OPEN_CHI)
    assert r["points"] == 40 and not items(r, "chi")
    # near miss: the same hand with a pong of simples instead of 678s gets that pong's points
    r = play("234p456s33m666s", "4p", melds=OPEN_CHI)
    assert r["points"] == 20 + 4  # concealed pong 4, no only-chis


def test_pong_of_simples_2_open_4_concealed():
    # seed 002: "Pong aus Mittelziegeln 2 / 4"
    open_ = play("234p456s33m", "3m", melds=OPEN_CHI + (("pon", "555p"),))
    assert [(i["points"], i["concealed"]) for i in items(open_, "pong_simples")] == [(2, False)]
    concealed = play("234p456s33m555p", "3m", melds=OPEN_CHI)
    assert [(i["points"], i["concealed"]) for i in items(concealed, "pong_simples")] == [(4, True)]
    # a pong completed by a discarded final tile was revealed by the call: open
    called = play("234p456s33m555p", "5p", melds=OPEN_CHI)
    assert [(i["points"], i["concealed"]) for i in items(called, "pong_simples")] == [(2, False)]
    drawn = play("234p456s33m555p", "5p", melds=OPEN_CHI, tsumo=True)
    assert [(i["points"], i["concealed"]) for i in items(drawn, "pong_simples")] == [(4, True)]
    # near miss: 345p is a chi, no pong
    assert not items(play("234p456s33m345p", "3m", melds=OPEN_CHI), "pong_simples")


def test_pong_of_terminals_dragons_winds_4_open_8_concealed():
    # seed 002: "Pong aus Randziegeln, Drachen oder Winden 4 / 8"
    r = play("234p33m999s", "3m", melds=OPEN_CHI + (("pon", "444z"),))
    assert sorted((i["tiles"], i["points"]) for i in items(r, "pong_terminals_honors")) == [("444z", 4),
                                                                                            ("999s", 8)]
    # near miss: 888s is a pong of simples
    r = play("234p456s33m888s", "3m", melds=OPEN_CHI)
    assert not items(r, "pong_terminals_honors") and items(r, "pong_simples")


def test_kan_of_simples_8_open_16_concealed():
    # seed 002: "Kan aus Mittelziegeln 8 / 16"; a declared concealed kan is "halbverdeckt" and counts concealed
    for meld, points in (("minkan", 8), ("kakan", 8), ("ankan", 16)):
        r = play("234p456s33m", "3m", melds=OPEN_CHI + ((meld, "5555p"),))
        assert [i["points"] for i in items(r, "kan_simples")] == [points], meld
    # near miss: four alike in the concealed hand, never declared, are no kan (seed 002) - here 5555p + 67p
    r = play("234s33m555567p", "3m", melds=OPEN_CHI)
    assert not items(r, "kan_simples")


def test_kan_of_terminals_dragons_winds_16_open_32_concealed():
    # seed 002: "Kan aus Randziegeln, Drachen oder Winden 16 / 32"
    r = play("234p456s33m", "3m", melds=OPEN_CHI + (("minkan", "9999p"),))
    assert [i["points"] for i in items(r, "kan_terminals_honors")] == [16]
    r = play("234p456s33m", "3m", melds=OPEN_CHI + (("ankan", "7777z"),))
    assert [i["points"] for i in items(r, "kan_terminals_honors")] == [32]
    # near miss: 8888p is a kan of simples
    r = play("234p456s33m", "3m", melds=OPEN_CHI + (("minkan", "8888p"),))
    assert not items(r, "kan_terminals_honors") and items(r, "kan_simples")


@pytest.mark.parametrize("pair, seat, round_wind, points", [
    ("55z", "W", "S", 2),  # white dragons
    ("33z", "W", "S", 2),  # West is the seat wind
    ("22z", "W", "S", 2),  # South is the round wind
    ("11z", "E", "E", 2),  # seat and round wind at once: still the one row, 2 points
    ("44z", "W", "S", 0),  # near miss: North is neither seat nor round wind
    ("33m", "W", "S", 0),  # near miss: a suit pair
])
def test_pair_of_dragons_seat_or_round_wind_2_points(pair, seat, round_wind, points):
    # seed 002: "Paar aus Drachen, Platz- oder Rundenwinden 2"
    r = play(f"234p456s345m{pair}", "4s", melds=OPEN_CHI, seat=seat, round_wind=round_wind)
    assert sum(i["points"] for i in items(r, "pair_dragons_winds")) == points


def test_each_flower_or_season_4_points():
    # seed 002: "Blumen- oder Jahreszeitenziegel 4"
    r = play("234p456s345m33m", "4s", melds=OPEN_CHI, flowers=["1f", "7f"])
    assert [(i["tiles"], i["points"]) for i in items(r, "flower")] == [("1f", 4), ("7f", 4)]
    # near miss: no flowers laid out
    assert not items(play("234p456s345m33m", "4s", melds=OPEN_CHI), "flower")


def test_only_chis_plus_final_pair_20_points():
    # seed 002: "Nur Chis plus Schlußpaar 20 - nur für Mahjongg-Spieler: 4 Chis und 1 Paar"
    r = play("234p456s345m33m", "4s", melds=OPEN_CHI)
    assert [i["points"] for i in items(r, "only_chis")] == [20]
    # near miss: three chis and a pong
    assert not items(play("234p456s555m33m", "4s", melds=OPEN_CHI), "only_chis")
    # a losing hand of chis never has it (winner only)
    lost = score({"rules": "classical", "hand": "234p456s345m3m", "melds": [{"type": "chi", "tiles": "678m"}],
                  "won": False})
    assert not items(lost, "only_chis")


def test_mahjong_on_a_self_drawn_tile_2_points():
    # seed 002: "Mahjongg mit selbstgezogenem Ziegel 2 - egal ob von Toter oder Lebender Mauer"
    assert [i["points"] for i in items(play("234p456s345m33m", "4s", melds=OPEN_CHI, tsumo=True),
                                       "self_drawn")] == [2]
    # near miss: won on a discard
    assert not items(play("234p456s345m33m", "4s", melds=OPEN_CHI, discarder="N"), "self_drawn")


def test_final_tile_completes_the_pair_2_points():
    # seed 002: "Schlußziegel vervollständigt Schlußpaar 2"
    assert [i["points"] for i in items(play("234p456s345m33m", "3m", melds=OPEN_CHI), "pair_wait")] == [2]
    # near miss: 2p completes 234p from 34p, which could also have waited on 5p
    r = play("234p456s345m33m", "2p", melds=OPEN_CHI)
    assert not items(r, "pair_wait") and not items(r, "only_possible_tile")


@pytest.mark.parametrize("hand, win, scored", [
    ("123p456s345m33m", "3p", True),   # seed's example: the 3 in a chi 1-2-3
    ("567p456s345m33m", "6p", True),   # seed's example: the 6 in a chi 5-6-7
    ("789p456s345m33m", "7p", True),   # the 7 in 7-8-9, the mirror of 1-2-3
    ("123p456s345m33m", "1p", False),  # near miss: 23p waited on 1p and 4p
    ("567p456s345m33m", "5p", False),  # near miss: 67p waited on 5p and 8p
])
def test_final_tile_the_only_possible_tile_for_a_chi_2_points(hand, win, scored):
    # seed 002: "Schlußziegel einzig möglicher Ziegel für Chi 2 - z.B. die 3 in einem Chi 1-2-3 oder die 6 in
    # einem Chi 5-6-7"
    r = play(hand, win, melds=OPEN_CHI)
    assert [i["points"] for i in items(r, "only_possible_tile")] == ([2] if scored else [])


def test_best_reading_of_the_final_tile_is_taken():
    # 3m in 33m 345m reads as the pair (2 points) or as the edge of 345m (nothing): the scorer takes 2
    r = play("234p456s345m33m", "3m", melds=OPEN_CHI)
    assert r["points"] == 20 + 20 + 2 and r["wait"] == "tanki"


# --- doubles, row by row ----------------------------------------------------------------------------------

def doubles_of(result: dict, row_id: str) -> int:
    return sum(i["doubles"] for i in items(result, row_id))


def test_each_pong_or_kan_of_dragons_or_winds_one_double():
    # seed 002: "Jeder Pong oder Kan aus Drachen oder Winden 1x"
    r = play("234p456s33m", "3m", melds=OPEN_CHI + (("pon", "555z"),))
    assert doubles_of(r, "dragon_wind_set") == 1
    # the seed's note: a kan of red dragons brings 2 doubles (1 for the kan, 1 for the dragons)
    r = play("234p456s33m", "3m", melds=OPEN_CHI + (("minkan", "7777z"),))
    assert doubles_of(r, "dragon_wind_set") + doubles_of(r, "kan") == 2 and r["doubles"] == 2
    # near miss: a pong of terminals is no trump set here
    assert not items(play("234p456s33m", "3m", melds=OPEN_CHI + (("pon", "111p"),)), "dragon_wind_set")


def test_each_pong_or_kan_of_the_seat_wind_one_more_double():
    # seed 002: "Jeder Pong oder Kan aus Platzwinden 1x" - added to the wind double
    r = play("234p456s33m", "3m", melds=OPEN_CHI + (("pon", "333z"),), seat="W", round_wind="S")
    assert doubles_of(r, "seat_wind_set") == 1 and r["doubles"] == 2
    # near miss: North is not West's seat wind
    r = play("234p456s33m", "3m", melds=OPEN_CHI + (("pon", "444z"),), seat="W", round_wind="S")
    assert not items(r, "seat_wind_set") and r["doubles"] == 1


def test_each_pong_or_kan_of_the_round_wind_one_more_double():
    # seed 002: "Jeder Pong oder Kan aus Rundenwinden 1x"
    r = play("234p456s33m", "3m", melds=OPEN_CHI + (("pon", "222z"),), seat="W", round_wind="S")
    assert doubles_of(r, "round_wind_set") == 1 and r["doubles"] == 2
    # East's own wind in the East round: wind + seat wind + round wind = 3 doubles
    r = play("234p456s33m", "3m", melds=OPEN_CHI + (("pon", "111z"),), seat="E", round_wind="E")
    assert r["doubles"] == 3
    # near miss: not the round wind
    assert not items(play("234p456s33m", "3m", melds=OPEN_CHI + (("pon", "444z"),)), "round_wind_set")


def test_each_kan_one_double():
    # seed 002: "Jeder Kan 1x"
    r = play("234p33m", "3m", melds=OPEN_CHI + (("minkan", "5555m"), ("ankan", "2222s")))
    assert doubles_of(r, "kan") == 2
    # near miss: a pong
    assert not items(play("234p456s33m", "3m", melds=OPEN_CHI + (("pon", "555m"),)), "kan")


@pytest.mark.parametrize("flowers, seat, round_wind, seat_d, round_d", [
    (["3f"], "W", "S", 1, 0),        # flower 3 belongs to West
    (["3f", "7f"], "W", "S", 2, 0),  # flower 3 and season 3: one double each
    (["2f"], "W", "S", 0, 1),        # flower 2 belongs to South, the round wind
    (["1f"], "E", "E", 1, 1),        # the seed's note: seat and round wind at once, two doubles
    (["4f", "8f"], "W", "S", 0, 0),  # near miss: North's flower and season
])
def test_flowers_of_the_seat_and_round_wind_one_double_each(flowers, seat, round_wind, seat_d, round_d):
    # seed 002: "Jeder Blumen- oder Jahreszeitenziegel des Platzwindes / des Rundenwindes 1x"; numbers 1-4
    # belong to East, South, West, North
    r = play("234p456s345m33m", "4s", melds=OPEN_CHI, seat=seat, round_wind=round_wind, flowers=flowers)
    assert (doubles_of(r, "seat_flower"), doubles_of(r, "round_flower")) == (seat_d, round_d)


@pytest.mark.parametrize("flowers, expected", [
    (["1f", "2f", "3f", "4f"], {"all_flowers"}),
    (["5f", "6f", "7f", "8f"], {"all_seasons"}),
    (["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"], {"all_flowers", "all_seasons", "all_bonus_tiles"}),
    (["1f", "2f", "3f", "5f"], set()),                               # near miss: three flowers and a season
    (["1f", "2f", "3f", "4f", "5f", "6f", "7f"], {"all_flowers"}),  # near miss for all 8: seven
])
def test_all_four_flowers_all_four_seasons_all_eight(flowers, expected):
    # seed 002: "Alle 4 Blumenziegel 1x", "Alle 4 Jahreszeitenziegel 1x", "Alle 8 Blumen- und Jahreszeiten 1x";
    # the rows are separate, so all eight bring all three
    r = play("234p456s345m33m", "4s", melds=OPEN_CHI, flowers=flowers)
    assert ids(r) & {"all_flowers", "all_seasons", "all_bonus_tiles"} == expected


def test_concealed_hand_one_double_on_a_called_final_tile():
    # seed 002: "Verdeckte Hand 1x - Keine offene Figur, Schlußziegel gerufen"
    r = play("234p456s345m678m33m", "4s", discarder="N")
    assert doubles_of(r, "concealed_hand") == 1 and not items(r, "fully_concealed_hand")
    # a declared concealed kan is still concealed ("halbverdeckt")
    r = play("234p456s345m33m", "4s", melds=(("ankan", "2222z"),))
    assert doubles_of(r, "concealed_hand") == 1
    # near miss: one open set
    assert not items(play("234p456s345m33m", "4s", melds=OPEN_CHI), "concealed_hand")


def test_fully_concealed_hand_two_doubles_on_a_drawn_final_tile():
    # seed 002: "Vollständig verdeckte Hand 2x - Keine offene Figur, Schlußziegel von der Mauer"
    r = play("234p456s345m678m33m", "4s", tsumo=True)
    assert doubles_of(r, "fully_concealed_hand") == 2 and not items(r, "concealed_hand")
    # near miss: drawn, but with an open chi
    assert not items(play("234p456s345m33m", "4s", melds=OPEN_CHI, tsumo=True), "fully_concealed_hand")


def test_only_pongs_and_kans_plus_final_pair_one_double():
    # seed 002: "Nur Pongs und/oder Kans und Schlußpaar 1x"
    r = play("222p33m", "3m", melds=(("pon", "888s"), ("minkan", "5555m"), ("pon", "666p")))
    assert doubles_of(r, "all_pongs") == 1
    # near miss: one chi among them
    assert not items(play("234p33m", "3m", melds=(("pon", "888s"), ("minkan", "5555m"), ("pon", "666p"))),
                     "all_pongs")


def test_only_trumps_three_doubles():
    # seed 002: "Nur Trumpf 3x - als Trumpf gelten Drachen, Winde sowie die Farbziegel 1 und 9"
    r = play("999p11s", "1s", melds=(("pon", "111m"), ("pon", "555z"), ("pon", "444z")))
    assert doubles_of(r, "all_trumps") == 3
    # near miss: one pong of eights
    assert not items(play("888p11s", "1s", melds=(("pon", "111m"), ("pon", "555z"), ("pon", "444z"))),
                     "all_trumps")


def test_impure_one_suit_hand_one_double():
    # seed 002: "Unreines Farbenspiel 1x - Alle Farbziegel der gleichen Farbe, mit Drachen und/oder Winden"
    r = play("234s456s55z", "5z", melds=(("chi", "678s"), ("pon", "111s")))
    assert doubles_of(r, "half_flush") == 1 and not items(r, "full_flush")
    # near miss: a second suit
    assert not items(play("234s456s55z", "5z", melds=(("chi", "678m"), ("pon", "111s"))), "half_flush")


def test_pure_one_suit_hand_three_doubles():
    # seed 002: "Reines Farbenspiel 3x - Nur Farbziegel der gleichen Farbe, ohne Drachen und Winde"
    r = play("234s456s99s", "9s", melds=(("chi", "678s"), ("pon", "111s")))
    assert doubles_of(r, "full_flush") == 3 and not items(r, "half_flush")
    # near miss: a dragon pair makes it the impure one
    assert not items(play("234s456s55z", "5z", melds=(("chi", "678s"), ("pon", "111s"))), "full_flush")


@pytest.mark.parametrize("flag, row_id, extra", [
    ("rinshan", "dead_wall_tile", {"tsumo": True}),
    ("haitei", "last_wall_tile", {"tsumo": True}),
    ("houtei", "last_discard", {}),
    ("chankan", "robbing_kan", {}),
])
def test_final_tile_situations_one_double_each(flag, row_id, extra):
    # seed 002: "Schlußziegel von Toter Mauer", "... letzter Ziegel von der Mauer", "... letzer abgelegter
    # Ziegel", "Beraubung des Kan": 1x each
    melds = OPEN_CHI + (("minkan", "5555p"),)
    r = play("234p456s33m", "3m", melds=melds, **extra, **{flag: True})
    assert doubles_of(r, row_id) == 1
    # near miss: the same hand without the flag
    assert not items(play("234p456s33m", "3m", melds=melds, **extra), row_id)


# --- whole hands added up by hand -------------------------------------------------------------------------

def test_limit_cuts_the_value_and_can_be_chosen():
    # East in the East round draws the pair tile to 111z 555z 666z 777z 99m, all concealed.
    # Points: 20 + 4 concealed honour pongs x 8 + 2 self-drawn + 2 pair = 56.
    # Doubles: East pong 3 (wind, seat, round) + 3 dragon pongs + fully concealed 2 + only pongs 1
    #          + only trumps 3 + impure one-suit 1 = 13; 56 * 2**13 = 458752.
    hand = "111z555z666z777z99m"
    r = play(hand, "9m", seat="E", round_wind="E", tsumo=True)
    assert (r["points"], r["doubles"], r["raw_value"]) == (56, 13, 458752)
    assert (r["value"], r["limit"]) == (3000, 3000)  # seed 002: most tables agree on 3000 (the default)
    for limit in (1000, 5000, 10000):
        r = play(hand, "9m", seat="E", round_wind="E", tsumo=True, rules={"preset": "classical", "limit": limit})
        assert (r["value"], r["limit"]) == (limit, limit)
    r = play(hand, "9m", seat="E", round_wind="E", tsumo=True, rules={"preset": "classical", "limit": None})
    assert (r["value"], r["limit"]) == (458752, None)
    assert r["payments_by_seat"] == {"E": 6 * 458752, "S": -2 * 458752, "W": -2 * 458752, "N": -2 * 458752}


def test_value_below_the_limit_is_not_cut():
    # 40 points (only chis) x 2 (concealed hand) = 80 < 1000
    r = play("234p456s345m678m33m", "4s", rules={"preset": "classical", "limit": 1000})
    assert (r["points"], r["doubles"], r["value"], r["limit"]) == (40, 1, 80, None)


# --- losing hands --------------------------------------------------------------------------------------

def test_losing_hand_scores_sets_pairs_flowers_and_their_doubles_only():
    # seed 002 values every player's hand; a losing hand has no Mahjongg, no final tile and no hand-pattern
    # doubles. West in the South round, 13 tiles: concealed 777z pong (8, 1x dragons), open pon 222z
    # (4, wind 1x + round wind 1x), concealed 555s pong (4), pair 33z (West = seat wind, 2), loose 9s 1m,
    # season 7 (= 3, West: 4 points, 1x).  Points 8+4+4+2+4 = 22, doubles 4 -> 352.
    r = score({"rules": "classical", "hand": "777z555s33z9s1m", "melds": [{"type": "pon", "tiles": "222z"}],
               "won": False, "seat_wind": "W", "round_wind": "S", "flowers": ["7f"]})
    assert (r["points"], r["doubles"], r["value"]) == (22, 4, 352)
    assert not ids(r) & {"mahjong", "concealed_hand", "all_pongs", "half_flush", "all_trumps"}
    assert r["payments_by_seat"] is None and r["settlement"] == "none"


def test_losing_hand_pattern_doubles_only_with_the_option():
    # all bamboo: 111s 222s 345s 678s + 9s. Without the option: 8 + 4 = 12 points, no doubles.
    base = {"rules": "classical", "hand": "111s222s345s678s9s", "won": False, "seat_wind": "N", "round_wind": "E"}
    assert (score(base)["points"], score(base)["doubles"]) == (12, 0)
    r = score({**base, "rules": {"preset": "classical", "loser_hand_doubles": True}})
    assert (r["doubles"], r["value"]) == (3, 96) and items(r, "full_flush")


def test_losing_hand_four_undeclared_alike_are_a_concealed_pong_not_a_kan():
    # seed 002: a kan counts only when declared with its replacement tile
    r = score({"rules": "classical", "hand": "5555m26m1234p89s1z", "won": False, "seat_wind": "S"})
    assert [i["id"] for i in r["items"]] == ["pong_simples"] and r["points"] == 4


# --- errors --------------------------------------------------------------------------------------------

def test_incomplete_hand_is_not_complete():
    with pytest.raises(NotCompleteError) as e:
        play("234p456s345m678m19m", "9m")
    assert e.value.code == "not_complete" and "four sets" in str(e.value)


def test_seven_pairs_is_no_mahjong_on_gravon():
    # seed 002: "Auf Gravon sind derzeit noch keine Spezialhände möglich"
    with pytest.raises(NotCompleteError, match="special hand"):
        play("11m22m33p44p55s66s77z", "7z")


def test_too_many_copies_is_invalid_tiles():
    with pytest.raises(InvalidTilesError) as e:
        play("1111m23p456s33m", "3m", melds=(("pon", "111m"),))  # five 1m
    assert e.value.code == "invalid_tiles" and "1m" in str(e.value)
    with pytest.raises(InvalidTilesError, match="same flower"):
        play("234p456s345m33m", "4s", melds=OPEN_CHI, flowers=["1f", "1f"])
    with pytest.raises(InvalidTilesError, match="1f-8f"):
        play("234p456s345m33m", "4s", melds=OPEN_CHI, flowers=["1m"])


@pytest.mark.parametrize("rules, error, words", [
    ({"preset": "classical", "limt": 3000}, UnknownRulesError, "limt"),
    ({"preset": "classical", "limit": 2000}, InvalidRequestError, "1000, 3000, 5000, 10000"),
    ({"preset": "classical", "flowers": "yes"}, InvalidRequestError, "flowers"),
])
def test_bad_rule_options_are_named(rules, error, words):
    with pytest.raises(error, match=words):
        play("234p456s345m33m", "4s", melds=OPEN_CHI, rules=rules)


@pytest.mark.parametrize("extra, words", [
    ({"riichi": True}, "riichi"),
    ({"tsumo": True, "discarder": "N"}, "discarder"),
    ({"discarder": "W"}, "own discard"),
    ({"rinshan": True}, "tsumo"),
    ({"houtei": True, "tsumo": True}, "called"),
    ({"seat_wind": "X"}, "E, S, W, N"),
])
def test_contradictory_requests_are_explained(extra, words):
    with pytest.raises(InvalidRequestError, match=words):
        play("234p456s345m33m", "4s", melds=OPEN_CHI, **extra)


def test_win_tile_missing_or_not_in_the_hand():
    with pytest.raises(InvalidRequestError, match="win_tile"):
        play("234p456s345m33m", None, melds=OPEN_CHI)
    with pytest.raises(InvalidRequestError, match="must also be in"):
        play("234p456s345m33m", "7z", melds=OPEN_CHI)


def test_wrong_number_of_tiles_is_explained():
    with pytest.raises(InvalidRequestError, match="14 tiles"):
        play("234p456s345m3m", "3m", melds=OPEN_CHI)


def test_playing_without_flowers_refuses_flowers():
    with pytest.raises(InvalidRequestError, match="without flowers"):
        play("234p456s345m33m", "4s", melds=OPEN_CHI, flowers=["1f"],
             rules={"preset": "classical", "flowers": False})


def test_dispatch_through_companion_score_and_errors_are_companion_errors():
    r = companion_score({"rules": {"preset": "classical", "limit": None}, "hand": "234p456s345m33m", "win_tile": "4s",
                         "melds": [{"type": "chi", "tiles": "678m"}]})
    assert r["value"] == 40 and r["options"]["limit"] is None
    with pytest.raises(CompanionError):
        companion_score({"rules": "classical", "hand": "234p"})
