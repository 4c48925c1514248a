"""mpsz notation, names and glyphs (foundation issue: tiles and hands)."""

import pytest

from companion.errors import InvalidTilesError
from companion.tiles import (
    ALL_CLASSES,
    BACK,
    EAST,
    RED,
    Tile,
    dora_from_indicator,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_glyph,
    tile_name,
    to_counts,
)


def test_mpsz_round_trip_keeps_order_and_red_fives():
    tiles = parse_tiles("123m406p789s11z")
    assert [str(t) for t in tiles] == ["1m", "2m", "3m", "4p", "0p", "6p", "7s", "8s", "9s", "1z", "1z"]
    assert tiles[4] == Tile(13, True)  # 5p is kind 9 + 4
    assert format_tiles(tiles) == "123m406p789s11z"


def test_flowers_seasons_and_back():
    tiles = parse_tiles("1f8f x")
    assert [t.kind for t in tiles] == [34, 41, BACK]
    assert tiles[0].is_flower and tiles[2].is_back
    assert tile_name(tiles[1]) == "Season 4 (Winter)"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("123q", "'q' at position 4"),
        ("123", "no suit letter"),
        ("8z", "z goes up to 7"),
        ("0z", "only m, p and s have a red five"),
        ("9f", "f goes up to 8"),
        ("11111m", "1m appears 5 times"),
        ("00m", "2 red fives"),
        ("1f1f", "1f appears 2 times"),
    ],
)
def test_malformed_input_names_the_problem(text, fragment):
    with pytest.raises(InvalidTilesError, match=fragment.replace("(", r"\(")):
        parse_tiles(text)


def test_five_copies_counting_the_red_five_is_rejected():
    with pytest.raises(InvalidTilesError, match="5m appears 5 times"):
        parse_tiles("05555m")


def test_two_red_fives_allowed_when_configured():
    assert len(parse_tiles("00p", max_red_per_suit=2)) == 2


def test_names_in_english_and_german():
    assert tile_name(parse_tile("0p")) == "Red 5 Circles"
    assert tile_name(parse_tile("0p"), "de") == "rote 5 Kreise"
    assert tile_name(parse_tile("3z"), "de") == "West"
    assert tile_name(parse_tile("6z"), "de") == "Grüner Drache"


def test_unicode_glyphs_follow_the_mahjong_tiles_block():
    # U+1F000 East wind, U+1F004 red dragon, U+1F007 one of characters, U+1F021 nine of circles
    assert tile_glyph(parse_tile("1z")) == "\U0001F000"
    assert tile_glyph(parse_tile("7z")) == "\U0001F004"
    assert tile_glyph(parse_tile("1m")) == "\U0001F007"
    assert tile_glyph(parse_tile("9p")) == "\U0001F021"


def test_dora_indicator_order_seed_000():
    # seed 000: next tile in order; 9 -> 1, N -> E, dragons cycle
    assert dora_from_indicator(parse_tile("9s").kind) == parse_tile("1s").kind
    assert dora_from_indicator(parse_tile("4z").kind) == EAST
    assert dora_from_indicator(RED) == parse_tile("5z").kind
    assert dora_from_indicator(parse_tile("3m").kind) == parse_tile("4m").kind


def test_counts_fold_red_fives_into_fives():
    counts = to_counts(parse_tiles("055m"))
    assert counts[4] == 3 and sum(counts) == 3


def test_recognition_classes():
    assert len(ALL_CLASSES) == 46 and ALL_CLASSES[34:37] == ["0m", "0p", "0s"] and ALL_CLASSES[-1] == "x"
