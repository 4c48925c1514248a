"""Every item of the old Japanese tables (seed 001): each points entry, wait,
double and limit hand with a hand that has it and a near miss that does not.

Table points are from ch. 4 I.2e / I.3 (tables 1 and 2), doubles from ch. 5
I-III, limit hands from ch. 5 IV, ch. 8 I.4 and II.4c.  Unless a test says
otherwise South wins in the East round, with no minimum and no dora, so that
only the item under test changes.
"""

from __future__ import annotations

import pytest

from companion import score as companion_score
from companion.errors import InvalidRequestError, NotCompleteError

FREE = {"preset": "oldjapanese", "min_doubles": 0, "dora": False, "rounding": "exact"}


def score(request: dict) -> dict:
    return companion_score({"rules": FREE, "seat_wind": "S", "round_wind": "E", **request})


def melds(*specs: str) -> list[dict]:
    return [{"type": s.split(":")[0], "tiles": s.split(":")[1]} for s in specs]


def ron(hand: str, win: str, *meld_specs: str, **extra: object) -> dict:
    return {"hand": hand, "win_tile": win, "melds": melds(*meld_specs), "discarder": "N", **extra}


def tsumo(hand: str, win: str, *meld_specs: str, **extra: object) -> dict:
    return {"hand": hand, "win_tile": win, "melds": melds(*meld_specs), "tsumo": True, **extra}


def items(result: dict, key: str) -> dict[str, int]:
    """id -> summed points or doubles of the items that have ``key``."""
    out: dict[str, int] = {}
    for i in result["items"]:
        if key in i:
            out[i["id"]] = out.get(i["id"], 0) + i[key]
    return out


def ids(result: dict) -> set[str]:
    return {i["id"] for i in result["items"]}


# --- points of the sets (ch. 4 I.2e) ---------------------------------------------------------

OPEN_FRAME = "123m456m789s22s"  # three concealed sequences and the pair; the fourth set is a meld


@pytest.mark.parametrize(("meld", "item", "points"), [
    ("pon:555p", "open_pon_simples", 2),
    ("pon:111p", "open_pon_terminals", 4),
    ("pon:777z", "open_pon_honors", 4),
    ("minkan:5555p", "open_kan_simples", 8),
    ("kakan:9999p", "open_kan_terminals", 16),  # ch. 3 VI: a pong extended by a drawn tile is an open kong
    ("minkan:4444z", "open_kan_honors", 16),
    ("ankan:5555p", "concealed_kan_simples", 16),
    ("ankan:1111p", "concealed_kan_terminals", 32),
    ("ankan:6666z", "concealed_kan_honors", 32),
    ("chi:234p", "chi", 0),
])
def test_set_points_of_melds(meld, item, points):
    r = score(ron(OPEN_FRAME, "2s", meld))
    assert items(r, "points")[item] == points


@pytest.mark.parametrize(("pong", "item", "points"), [
    ("555p", "concealed_pon_simples", 4),
    ("111p", "concealed_pon_terminals", 8),
    ("444z", "concealed_pon_honors", 8),
])
def test_set_points_of_concealed_pongs(pong, item, points):
    r = score(ron("123m456m22s" + pong, "2s", "chi:789s"))
    assert items(r, "points")[item] == points


def test_pong_completed_by_a_discard_is_open():
    # near miss of the concealed pong (ch. 6 III.3b: "8-Bambus, aufgenommen (Einfache, offen) 2")
    r = score(ron("123m456m22s555p", "5p", "chi:789s"))
    assert items(r, "points")["open_pon_simples"] == 2
    assert "concealed_pon_simples" not in ids(r)
    drawn = score(tsumo("123m456m22s555p", "5p", "chi:789s"))
    assert items(drawn, "points")["concealed_pon_simples"] == 4


def test_base_points_and_concealed_ron_bonus():
    # ch. 4 I.1: 20 for winning; +10 only for a concealed hand won on a discard
    concealed_ron = score(ron("123m456p789s234s55m", "3s"))
    assert items(concealed_ron, "points")["base"] == 20
    assert items(concealed_ron, "points")["concealed_ron"] == 10
    # near misses: drawn (the double replaces the 10), and open
    assert "concealed_ron" not in ids(score(tsumo("123m456p789s234s55m", "3s")))
    assert "concealed_ron" not in ids(score(ron(OPEN_FRAME, "2s", "chi:234p")))


# --- the pair (ch. 4 I.2d; ch. 6 III.4 gives 2 for a dragon pair) ------------------------------

@pytest.mark.parametrize(("pair", "seat", "item", "points"), [
    ("55z", "S", "pair_dragons", 2),
    ("22z", "S", "pair_seat_wind", 2),
    ("11z", "S", "pair_round_wind", 2),
    ("11z", "E", "pair_double_wind", 4),
    ("44z", "S", "pair", 0),  # an ordinary wind: no points
    ("55m", "S", "pair", 0),
])
def test_pair_points(pair, seat, item, points):
    r = score(ron("123m456m789s" + pair, pair[1] + "z" if pair.endswith("z") else "5m", "chi:234p",
                  seat_wind=seat))
    assert items(r, "points")[item] == points


def test_double_wind_pair_option_2():
    r = companion_score({"rules": {**FREE, "double_wind_pair_points": 2}, "seat_wind": "E", "round_wind": "E",
                         **ron("123m456m789s11z", "1z", "chi:234p")})
    assert items(r, "points")["pair_double_wind"] == 2


# --- the waits (ch. 4 I.3, table 2): (discarded, drawn) ----------------------------------------

@pytest.mark.parametrize(("hand", "win", "item", "discarded", "drawn"), [
    ("234m678m789s22s", "4m", "wait_ryanmen", 0, 2),
    ("234m678m789s22s", "3m", "wait_kanchan", 2, 4),
    ("123m678m789s22s", "3m", "wait_penchan", 2, 4),
    ("123m678m789s22s", "2s", "wait_tanki", 2, 4),
    ("123m678m555s22s", "5s", "wait_shanpon", 2, 4),
    ("123m678m999s22s", "9s", "wait_shanpon_th", 4, 10),
    ("123m678m555z22s", "5z", "wait_shanpon_th", 4, 10),
])
def test_wait_points_discarded_and_drawn(hand, win, item, discarded, drawn):
    assert items(score(ron(hand, win, "chi:789p")), "points")[item] == discarded
    assert items(score(tsumo(hand, win, "chi:789p")), "points")[item] == drawn


def test_wait_reading_that_pays_more_is_chosen():
    # 23444m + 4m: a pair wait (2 points) or the end of 2-3-4 (0 points); the pair wait pays more
    r = score(ron("23444m678m789s", "4m", "chi:789p"))
    assert r["wait"] == "tanki"
    assert items(r, "points")["wait_tanki"] == 2


def test_no_points_hand_gets_no_points_for_drawing():
    # ch. 5 I.2: "die zwei Zusatzpunkte für das Abheben ausnahmsweise nicht gegeben"
    r = score(tsumo("123m456p789s234s55m", "4s"))
    assert items(r, "points")["wait_ryanmen"] == 0
    assert r["points"] == 20


def test_seven_pairs_total_is_40():
    # ch. 5 II.5: "Die Gesamtpunktzahl dieses Bildes beträgt grundsätzlich 40 Punkte"
    for request in (ron("1122m3344p5566s77z", "7z"), tsumo("1122m3344p5566s77z", "7z")):
        assert score(request)["points"] == 40


# --- doubles of chapter 5 ---------------------------------------------------------------------

DOUBLE_CASES = [
    # (id, doubles, hand that has it, near miss)
    ("menzen_tsumo", 1, tsumo("123m456p789s22s555p", "2s"), ron("123m456p789s22s555p", "2s")),
    ("menzen_tsumo", 1, tsumo("123m456p789s22s555p", "2s"), tsumo(OPEN_FRAME, "2s", "pon:555p")),
    ("pinfu", 1, ron("123m456p789s234s55m", "4s"), ron("123m456p789s234s55m", "3s")),  # kanchan
    ("pinfu", 1, ron("123m456p789s234s44z", "4s"), ron("123m456p789s234s77z", "4s")),  # dragon pair
    ("pinfu", 1, ron("123m456p789s234s55m", "4s"), ron("123m789s234s55m", "4s", "chi:456p")),  # open
    ("riichi", 1, ron("123m456p789s234s55m", "4s", riichi=True), ron("123m456p789s234s55m", "4s")),
    ("double_riichi", 2, ron("123m456p789s234s55m", "4s", double_riichi=True),
     ron("123m456p789s234s55m", "4s", riichi=True)),
    ("tanyao", 1, ron("234m456p678s234s55m", "4s"), ron("123m456p678s234s55m", "4s")),
    ("tanyao", 1, ron("234m678s234s55m", "4s", "chi:456p"), ron("234m678s234s55m", "4s", "chi:789p")),
    ("chanta", 1, ron("123m789p99s", "9s", "pon:777z", "chi:123s"), ron("234m789p99s", "9s", "pon:777z", "chi:123s")),
    ("sanshoku", 1, ron("123m123p123s456s99m", "9m"), ron("123m123p234s456s99m", "9m")),
    ("haitei", 1, tsumo(OPEN_FRAME, "2s", "pon:555p", haitei=True), tsumo(OPEN_FRAME, "2s", "pon:555p")),
    ("houtei", 1, ron(OPEN_FRAME, "2s", "pon:555p", houtei=True), ron(OPEN_FRAME, "2s", "pon:555p")),
    ("junchan", 2, ron("123m789m123p99s", "9s", "chi:789s"), ron("123m678m123p99s", "9s", "chi:789s")),
    ("toitoi", 2, ron("888s999p33p", "3p", "pon:222m", "pon:555p"), ron("888s789p33p", "3p", "pon:222m", "pon:555p")),
    ("sanankou", 2, ron("222m555p888s234s99m", "9m"), ron("222m555p888s234s99m", "8s")),  # 888s opened
    ("honitsu", 2, ron("123m456m678m11z", "1z", "pon:777z"), ron("123m456m678p11z", "1z", "pon:777z")),
    ("chiitoitsu", 2, ron("1122m3344p5566s77z", "7z"), ron("123m456p789s234s55m", "4s")),
    ("ittsu", 2, ron("123m456m789m234p55s", "5s"), ron("123m456m789p234p55s", "5s")),
    ("ittsu", 1, ron("123m456m789m55s", "5s", "chi:234p"), ron("123m456m789p55s", "5s", "chi:234p")),
    ("shousangen", 2, ron("555z666z77z123m456p", "7z"), ron("555z666z11z123m456p", "1z")),
    ("honroto", 2, ron("111z999s77z", "7z", "pon:111m", "pon:999p"), ron("111z789s77z", "7z", "pon:111m", "pon:999p")),
    ("honroto", 2, ron("11m99m11p99p11s11z77z", "7z"), ron("11m99m11p99p11s11z22s", "2s")),
    ("chinitsu", 4, ron("123m456m678m99m", "9m", "chi:234m"), ron("123m456m678m11z", "1z", "chi:234m")),
]


@pytest.mark.parametrize(("item", "doubles", "hit", "miss"), DOUBLE_CASES,
                         ids=[f"{c[0]}-{n}" for n, c in enumerate(DOUBLE_CASES)])
def test_double_present_and_near_miss(item, doubles, hit, miss):
    assert items(score(hit), "doubles").get(item) == doubles
    assert item not in ids(score(miss))


def test_double_riichi_replaces_riichi():
    r = score(ron("123m456p789s234s55m", "4s", double_riichi=True))
    assert "riichi" not in ids(r)


def test_open_tanyao_can_be_switched_off():
    # ch. 5 I.4: "allerdings gestatten manche Spieler keine offenen Sätze"
    request = {"rules": {**FREE, "open_tanyao": False}, "seat_wind": "S",
               **ron("234m678s234s55m", "4s", "chi:456p")}
    assert "tanyao" not in ids(companion_score(request))


def test_bigger_pictures_replace_smaller_ones():
    # one suit only replaces one suit with honours; terminal in each set replaces terminal or honour
    assert "honitsu" not in ids(score(ron("123m456m678m99m", "9m", "chi:234m")))
    assert "chanta" not in ids(score(ron("123m789m123p99s", "9s", "chi:789s")))


def test_sanankou_on_a_drawn_third_pong():
    assert items(score(tsumo("222m555p888s234s99m", "8s")), "doubles")["sanankou"] == 2


def test_seven_pairs_with_a_concealed_four_of_a_kind():
    # ch. 5 II.5: a concealed kong (not declared) may stand as two of the pairs
    assert "chiitoitsu" in ids(score(ron("1111m3344p5566s77z", "7z")))
    with pytest.raises(NotCompleteError):
        companion_score({"rules": {**FREE, "seven_pairs_with_four": False}, **ron("1111m3344p5566s77z", "7z")})


def test_little_three_dragons_is_four_doubles_with_its_lucky_sets():
    # ch. 5 III.1: "an sich zwei. Für die beiden Glückssätze gibt es jeweils eine zusätzliche Verdoppelung"
    assert score(ron("555z666z77z123m456p", "7z"))["doubles"] == 4


def test_all_terminals_and_honours_come_with_four_triplets():
    # ch. 5 III.2: 2 doubles, "gleichzeitig Vier Drillinge" 2 more; plus the round-wind (East) lucky set
    r = score(ron("111z999s77z", "7z", "pon:111m", "pon:999p"))
    assert {k: v for k, v in items(r, "doubles").items()} == {"honroto": 2, "toitoi": 2, "fanpai_round_wind": 1}


# --- lucky sets (ch. 3 X, ch. 5 I.7) and dora (ch. 3 XIV) --------------------------------------

def test_lucky_set_of_dragons_but_not_a_dragon_pair():
    assert items(score(ron(OPEN_FRAME, "2s", "pon:777z")), "doubles") == {"fanpai_dragon": 1}
    assert "fanpai_dragon" not in ids(score(ron("123m456m789s77z", "7z", "chi:234p")))


def test_lucky_set_of_own_wind_and_round_wind_but_not_an_ordinary_wind():
    assert items(score(ron(OPEN_FRAME, "2s", "pon:222z")), "doubles") == {"fanpai_seat_wind": 1}
    south_round = score(ron(OPEN_FRAME, "2s", "pon:222z", seat_wind="W", round_wind="S"))
    assert items(south_round, "doubles") == {"fanpai_round_wind": 1}
    assert items(score(ron(OPEN_FRAME, "2s", "pon:444z")), "doubles") == {}


def test_double_wind_pong_brings_two_doubles():
    # ch. 3 X: "Eine für den Eigenen Wind und eine für den Rundenwind"
    r = score(ron(OPEN_FRAME, "2s", "pon:111z", seat_wind="E"))
    assert items(r, "doubles") == {"fanpai_seat_wind": 1, "fanpai_round_wind": 1}


def test_each_dora_tile_is_a_double():
    # ch. 3 XIV: indicator 4p -> 5p; the pong of 5p holds three: "für einen Pong aus Trumpfsteinen drei"
    request = {"rules": {**FREE, "dora": True}, "seat_wind": "S",
               **ron(OPEN_FRAME, "2s", "pon:555p", dora_indicators=["4p"])}
    assert items(companion_score(request), "doubles") == {"dora": 3}
    # near miss: dora switched off (the example game of ch. 6 is played without)
    assert "dora" not in ids(score(ron(OPEN_FRAME, "2s", "pon:555p", dora_indicators=["4p"])))


@pytest.mark.parametrize(("indicator", "dora_tile"), [("9m", "1m"), ("4z", "1z"), ("7z", "5z"), ("5z", "6z")])
def test_dora_follows_the_indicator(indicator, dora_tile):
    # ch. 3 XIV: 9 -> 1, N -> E, Red -> White, White -> Green
    pong = dora_tile[0] * 3 + dora_tile[1]
    request = {"rules": {**FREE, "dora": True}, "seat_wind": "S",
               **ron("234m456m789s22s", "2s", f"pon:{pong}", dora_indicators=[indicator])}
    assert items(companion_score(request), "doubles")["dora"] == 3


# --- limit hands (ch. 5 IV, ch. 8) -------------------------------------------------------------

LIMIT_CASES = [
    ("daisangen", ron("555z666z777z234m99p", "3m"), ron("555z666z77z123m456p", "7z")),
    ("chinroto", ron("111p999p11s", "1s", "pon:111m", "pon:999m"), ron("111p999p11z", "1z", "pon:111m", "pon:999m")),
    ("tsuuiisou", ron("333z555z77z", "7z", "pon:111z", "pon:222z"), ron("333z999m77z", "7z", "pon:111z", "pon:222z")),
    ("suuankou", tsumo("222m555p888s999p11z", "8s"), ron("222m555p888s999p11z", "8s")),
    ("suuankou", ron("222m555p888s999p11z", "1z"), ron("222m555p888s999p11z", "8s")),
    ("daisuushii", ron("333z444z55m", "5m", "pon:111z", "pon:222z"), ron("333z44z123m", "4z", "pon:111z", "pon:222z")),
    ("kokushi", ron("119m19p19s1234567z", "1m"), ron("11m19p19s12345677z", "7z")),
    ("chuuren", ron("11123455678999m", "5m"), ron("11123456789999m", "1m")),
    ("ryuuiisou", ron("234s234s666s888s66z", "6z"), ron("234s234s666s888s44s", "4s")),
]


@pytest.mark.parametrize(("item", "hit", "miss"), LIMIT_CASES, ids=[f"{c[0]}-{n}" for n, c in enumerate(LIMIT_CASES)])
def test_limit_hand_and_near_miss(item, hit, miss):
    r = score(hit)
    assert item in ids(r)
    assert (r["value"], r["limit"]) == (8000, "yakuman")
    try:
        m = score(miss)
    except NotCompleteError:
        return
    assert item not in ids(m)
    assert m["limit"] != "yakuman"


def test_suuankou_near_miss_is_three_concealed_triplets_and_four_triplets():
    # ch. 5 IV.6: won with a discard into two pairs, it is "Drei verdeckte Drillinge" and "Vier Drillinge"
    r = score(ron("222m555p888s999p11z", "8s"))
    assert items(r, "doubles") == {"sanankou": 2, "toitoi": 2}


def test_tenhou_and_its_near_miss():
    r = score(tsumo("123m456p789s234s55m", "5m", tenhou=True, seat_wind="E"))
    assert "tenhou" in ids(r) and r["value"] == 8000
    with pytest.raises(InvalidRequestError, match="East"):
        score(tsumo("123m456p789s234s55m", "5m", tenhou=True, seat_wind="S"))


def test_chiihou_is_a_win_on_easts_first_discard():
    # ch. 5 IV.2: "dass ein Spieler mit dem ersten von Osten abgelegten Stein ausmacht"
    r = score({**ron("123m456p789s234s55m", "5m", chiihou=True), "discarder": "E"})
    assert "chiihou" in ids(r) and r["value"] == 8000
    with pytest.raises(InvalidRequestError, match="East's first discard"):
        score(tsumo("123m456p789s234s55m", "5m", chiihou=True))


def test_all_terminals_can_be_refused_then_it_is_terminals_and_honours_style():
    # ch. 5 IV.4: "nicht von allen Mah-Jongg Spielern anerkannt"
    request = {"rules": {**FREE, "all_terminals": False}, "seat_wind": "S",
               **ron("111p999p11s", "1s", "pon:111m", "pon:999m")}
    r = companion_score(request)
    assert r["limit"] is None
    assert items(r, "doubles") == {"honroto": 2, "toitoi": 2}


def test_little_four_winds_only_by_agreement():
    # ch. 5 IV.7: "Nach Absprache kann man auch ... Vier kleine Winde ... als Limit Hand zulassen"
    hand = ron("333z44z123m", "4z", "pon:111z", "pon:222z")
    assert "shousuushii" not in ids(score(hand))
    agreed = companion_score({"rules": {**FREE, "little_four_winds": True}, "seat_wind": "S", **hand})
    assert "shousuushii" in ids(agreed) and agreed["value"] == 8000


def test_nine_gates_strict_and_relaxed():
    # ch. 5 IV.9: waiting hand 1112345678999; "Heutzutage wird allerdings ... akzeptiert" otherwise
    assert "chuuren" in ids(score(ron("11112345678999m", "1m")))
    loose = ron("11123456789999m", "1m")  # waiting on 1123456789999: not the gates
    assert "chuuren" not in ids(score(loose))
    relaxed = companion_score({"rules": {**FREE, "nine_gates_strict": False}, "seat_wind": "S", **loose})
    assert "chuuren" in ids(relaxed)


def test_all_green_needs_the_green_dragon_and_can_be_refused():
    # ch. 5 IV.10: "Grüne Drachen müssen immer im Bild enthalten sein"; some count it only as one suit
    hand = ron("234s234s666s888s66z", "6z")
    refused = companion_score({"rules": {**FREE, "all_green": False}, "seat_wind": "S", **hand})
    assert "ryuuiisou" not in ids(refused) and "honitsu" in ids(refused)


def test_four_kongs_only_by_agreement():
    # ch. 8 I.4: "Manche Mah-Jongg Spieler spielen mit einem Bild namens Vier Vierlinge"
    hand = ron("99p", "9p", "ankan:1111m", "minkan:2222p", "kakan:3333s", "minkan:5555z")
    assert "suukantsu" not in ids(score(hand))
    agreed = companion_score({"rules": {**FREE, "four_kongs": True}, "seat_wind": "S", **hand})
    assert "suukantsu" in ids(agreed) and agreed["value"] == 8000


def test_two_limit_hands_are_still_one_limit():
    # ch. 4 VII.5 has one limit for a limit hand; all honours + big three dragons stay 8000
    r = score(ron("555z666z777z11z", "1z", "pon:222z"))
    assert {"tsuuiisou", "daisangen"} <= ids(r)
    assert r["value"] == 8000


def test_items_carry_english_and_german_names():
    r = score(ron("555z666z77z123m456p", "7z"))
    names = {i["id"]: i["name_de"] for i in r["items"]}
    assert names["shousangen"] == "Drei kleine Drachen"
    assert names["fanpai_dragon"] == "Glückssatz (Drachen)"
    assert names["base"] == "Basispunkte fürs Gewinnen"
    assert all(i["name"] and i["name_de"] for i in r["items"])
