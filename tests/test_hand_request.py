"""The request keys shared by the Hong Kong, classical and old Japanese families.

The key names and meanings are the request contract of issues 2 and 5 (``hand``,
``melds``, ``win_tile``, ``tsumo``, ``flowers`` 1f-8f, ``seat_wind``/``round_wind``/
``discarder`` E S W N); expectations are counted by hand.
"""

from __future__ import annotations

import dataclasses

import pytest

from companion.errors import InvalidRequestError, InvalidTilesError, UnknownRulesError
from companion.rules.hand_request import (
    check_copies,
    check_discarder,
    flower_number,
    read_flag,
    read_hand_request,
    read_melds,
    wind_letter,
)
from companion.rules.options import (
    options_from_rules,
    require_choice,
    require_types_of_defaults,
    require_whole,
)
from companion.rules.seat_payments import net_by_seat, payments_by_seat, plain_number
from companion.tiles import Tile, parse_tiles

PON_EAST = {"type": "pon", "tiles": "111z"}


def test_hand_with_a_pon_reads_tiles_counts_and_seats():
    # issue 2 request keys: 11 concealed tiles + one pon = 14 counting the meld as 3
    h = read_hand_request({"hand": "123m456p789s22z", "melds": [PON_EAST], "win_tile": "2z", "tsumo": True,
                           "seat_wind": "s", "round_wind": "W"})
    assert len(h.tiles) == 11 and sum(h.counts) == 11 and h.counts[0] == 1 and h.counts[28] == 2
    assert h.win_tile == Tile(28) and h.win_kind == 28 and h.tsumo is True
    assert (h.seat_wind, h.round_wind, h.discarder) == ("S", "W", None)
    assert h.all_counts[27] == 3 and sum(h.all_counts) == 14


def test_winds_default_to_east_and_can_be_left_open():
    h = read_hand_request({"hand": "123m456p789s234s55z", "win_tile": "5z"})
    assert (h.seat_wind, h.round_wind) == ("E", "E")
    h = read_hand_request({"hand": "123m456p789s234s55z", "win_tile": "5z"}, seat_default=None)
    assert h.seat_wind is None


@pytest.mark.parametrize("value", ["X", "", "SW", 3, "East"])
def test_a_wind_is_one_letter_of_e_s_w_n(value):
    # issue 2: seat_wind, round_wind "E|S|W|N"; "SW" and "" are not winds (a string test alone lets them in)
    with pytest.raises(InvalidRequestError, match="E, S, W, N"):
        wind_letter(value, "seat_wind")


def test_meld_types_give_open_closed_and_kan():
    melds = read_melds([{"type": "chi", "tiles": "312m"}, {"type": "minkan", "tiles": "5555p"},
                        {"type": "kakan", "tiles": "7777s"}, {"type": "ankan", "tiles": "1111z"}])
    assert [(m.type, m.first) for m in melds] == [("chi", 0), ("minkan", 13), ("kakan", 24), ("ankan", 27)]
    assert [m.is_open for m in melds] == [True, True, True, False]  # only a concealed kan stays closed
    assert [m.is_kan for m in melds] == [False, True, True, True]
    assert melds[0].kinds() == (0, 1, 2) and melds[3].kinds() == (27, 27, 27, 27)


def test_a_hand_with_only_a_concealed_kan_is_concealed():
    kan = {"type": "ankan", "tiles": "1111z"}
    h = read_hand_request({"hand": "123m456p789s55z", "melds": [kan], "win_tile": "5z", "tsumo": True})
    assert h.is_concealed
    h = read_hand_request({"hand": "123m456p789s55z", "melds": [{**kan, "type": "minkan"}], "win_tile": "5z",
                           "tsumo": True})
    assert not h.is_concealed


@pytest.mark.parametrize("meld, words", [
    ({"type": "chi", "tiles": "124m"}, "consecutive"),
    ({"type": "chi", "tiles": "891m"}, "consecutive"),  # 8m 9m 1m wrap around: no chi
    ({"type": "chi", "tiles": "89m1p"}, "consecutive"),  # 8m 9m 1p crosses suits
    ({"type": "chi", "tiles": "123z"}, "consecutive"),  # honours have no sequences
    ({"type": "pon", "tiles": "112m"}, "3 identical"),
    ({"type": "minkan", "tiles": "555p"}, "4 identical"),
    ({"type": "pon", "tiles": "123f"}, "flower"),
])
def test_tiles_that_do_not_make_the_named_meld_are_refused(meld, words):
    with pytest.raises(InvalidTilesError, match=words):
        read_melds([meld])


@pytest.mark.parametrize("melds, words", [
    ("123m", "must be a list"),
    ([{"type": "kan", "tiles": "1111z"}], "unknown meld type 'kan'"),
    ([{"tiles": "111z"}], r"melds\[0\] must be an object"),
    ([PON_EAST] * 5, "at most 4"),
])
def test_malformed_melds_are_refused_with_their_place(melds, words):
    with pytest.raises(InvalidRequestError, match=words):
        read_melds(melds)


def test_five_copies_across_hand_and_meld_are_refused():
    # four East in the pon... plus one: 3 + 2 = 5 East tiles do not exist
    with pytest.raises(InvalidTilesError, match="1z appears 5 times in the hand and its melds together"):
        read_hand_request({"hand": "123m456p789s11z", "melds": [PON_EAST], "win_tile": "1z"})


def test_indicators_are_tiles_on_the_table_too():
    # three 5p in the hand, one in the indicators: four is fine, a second indicator makes five
    req = {"hand": "123m555p789s234s1z1z", "win_tile": "1z", "dora_indicators": ["5p"]}
    h = read_hand_request(req, indicator_keys=("dora_indicators",))
    assert h.indicator_tiles("dora_indicators") == (Tile(13),)
    with pytest.raises(InvalidTilesError, match="5p appears 5 times in the hand, its melds and dora_indicators"):
        read_hand_request({**req, "dora_indicators": ["5p", "5p"]}, indicator_keys=("dora_indicators",))


def test_tile_count_counts_each_meld_as_three():
    # 14 tiles with one meld means 11 in "hand"
    with pytest.raises(InvalidRequestError, match='14 tiles counting each meld as 3, so "hand" needs 11'):
        read_hand_request({"hand": "123m456p789s22z5z", "melds": [PON_EAST], "win_tile": "2z"})
    # issue 5: a losing hand (classical "won": false) has 13
    h = read_hand_request({"hand": "123m456p789s2z", "melds": [PON_EAST]}, won=False)
    assert h.win_tile is None and not h.won


def test_win_tile_must_be_in_the_hand_and_given():
    with pytest.raises(InvalidRequestError, match="win_tile"):
        read_hand_request({"hand": "123m456p789s234s55z"})
    with pytest.raises(InvalidRequestError, match='must also be in "hand"'):
        read_hand_request({"hand": "123m456p789s234s55z", "win_tile": "9m"})
    with pytest.raises(InvalidTilesError, match="1f"):
        read_hand_request({"hand": "123m456p789s234s55z", "win_tile": "1f"})
    # without win_tile required, the last tile written is the one that won
    h = read_hand_request({"hand": "123m456p789s234s55z"}, win_tile_required=False)
    assert h.win_tile == Tile(31)


def test_flowers_as_kinds_and_numbers():
    # issue 5: 1f-4f flowers 1-4, 5f-8f seasons 1-4; number 2 belongs to South
    h = read_hand_request({"hand": "123m456p789s234s55z", "win_tile": "5z", "flowers": ["6f", "2f"]})
    assert h.flowers == (35, 39) and h.flower_numbers == frozenset({2, 6})
    assert [flower_number(k) for k in h.flowers] == [2, 2]
    with pytest.raises(InvalidTilesError, match="same flower or season twice"):
        read_hand_request({"hand": "123m456p789s234s55z", "win_tile": "5z", "flowers": ["2f", "2f"]})
    with pytest.raises(InvalidTilesError, match="1f-8f"):
        read_hand_request({"hand": "123m456p789s234s55z", "win_tile": "5z", "flowers": ["5z"]})


def test_flowers_in_hand_are_refused_or_set_aside():
    req = {"hand": "123m456p789s234s55z3f", "win_tile": "5z", "flowers": ["1f"]}
    with pytest.raises(InvalidTilesError, match='under "flowers"'):
        read_hand_request(req)
    assert read_hand_request(req, flowers_in_hand=True).flowers == (34, 36)
    with pytest.raises(InvalidTilesError, match="twice"):
        read_hand_request({**req, "flowers": ["3f"]}, flowers_in_hand=True)


def test_face_down_tiles_cannot_be_scored():
    with pytest.raises(InvalidTilesError, match="face-down"):
        read_hand_request({"hand": "123m456p789s234s5zx", "win_tile": "5z"})


def test_flags_are_strict_booleans():
    h = read_hand_request({"hand": "123m456p789s234s55z", "win_tile": "5z", "haitei": True, "houtei": False},
                          flags=("haitei", "houtei"))
    assert h.flags == frozenset({"haitei"}) and h.flag("haitei") and not h.flag("houtei")
    with pytest.raises(InvalidRequestError, match='"tsumo" must be true or false'):
        read_flag({"tsumo": 1}, "tsumo")


def test_discarder_rules():
    check_discarder("S", seat="E", tsumo=False, required=True)
    with pytest.raises(InvalidRequestError, match="self-drawn"):
        check_discarder("S", seat="E", tsumo=True, required=False)
    with pytest.raises(InvalidRequestError, match="needs \"discarder\""):
        check_discarder(None, seat="E", tsumo=False, required=True)
    check_discarder(None, seat="E", tsumo=False, required=False)
    with pytest.raises(InvalidRequestError, match="own"):
        check_discarder("E", seat="E", tsumo=False, required=True)


def test_check_copies_allows_each_flower_once():
    check_copies(parse_tiles("1111m1f2f"), "two hands")
    with pytest.raises(InvalidTilesError, match="1f appears 2 times in two hands"):
        check_copies([Tile(34), Tile(34)], "two hands")


def test_payments_by_seat_adds_up_to_zero():
    # issue 5 example: a self-drawn win of 60 from each of three
    by_seat = payments_by_seat("E", {"S": 60, "W": 60, "N": 60})
    assert by_seat == {"E": 180, "S": -60, "W": -60, "N": -60} and sum(by_seat.values()) == 0
    assert net_by_seat([("S", "E", 10), ("W", "S", 4)]) == {"E": 10, "S": -6, "W": -4, "N": 0}
    assert plain_number(2.0) == 2 and isinstance(plain_number(2.0), int) and plain_number(0.25) == 0.25


@dataclasses.dataclass(frozen=True)
class _Demo:
    cap: int = 8
    open_hands: bool = True
    style: str = "a"

    def __post_init__(self) -> None:
        require_choice("cap", self.cap, (8, 10))
        require_types_of_defaults(self, {"style": ("a", "b")})


def test_options_from_a_preset_name_or_a_dict():
    assert options_from_rules("demo", _Demo, preset="demo", family="Demo") == _Demo()
    assert options_from_rules(None, _Demo, preset="demo", family="Demo") == _Demo()
    assert options_from_rules({"preset": "demo", "cap": 10}, _Demo, preset="demo", family="Demo").cap == 10
    assert options_from_rules({"cap": 10}, _Demo, preset="demo", family="Demo").cap == 10


def test_unknown_options_and_other_presets_are_named():
    with pytest.raises(UnknownRulesError, match="colour, size"):
        options_from_rules({"preset": "demo", "size": 1, "colour": 2}, _Demo, preset="demo", family="Demo")
    with pytest.raises(UnknownRulesError, match="'wrc'"):
        options_from_rules({"preset": "wrc"}, _Demo, preset="demo", family="Demo")
    with pytest.raises(UnknownRulesError, match="'wrc'"):
        options_from_rules("wrc", _Demo, preset="demo", family="Demo")


@pytest.mark.parametrize("given, words", [
    ({"cap": 9}, "cap must be one of 8, 10"),
    ({"cap": True}, "cap"),  # JSON true is not the number 1
    ({"open_hands": "yes"}, "open_hands must be true or false"),
    ({"style": "c"}, "style must be one of a, b"),
    ({"style": 3}, "style must be a str"),
])
def test_bad_option_values_are_refused_by_name(given, words):
    with pytest.raises(InvalidRequestError, match=words):
        options_from_rules({"preset": "demo", **given}, _Demo, preset="demo", family="Demo")


def test_whole_number_bounds_are_worded():
    with pytest.raises(InvalidRequestError, match=r"from 0 to the cap \(8\)"):
        require_whole("min_fan", 9, 0, 8, "the cap")
