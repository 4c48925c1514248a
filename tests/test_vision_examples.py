"""companion.vision.examples: photos checked on the page kept as labelled examples (issue 4, "Adapting to a
club's own set"), in the label format training/evaluate.py reads."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.errors import InvalidRequestError
from companion.vision.examples import LONG_SIDE, save_checked_photo


def test_a_large_photo_is_kept_shrunk_to_the_long_side_with_its_boxes_scaled_alike(tmp_path):
    # a 12 MP tablet photo, 4000 x 3000: kept at 2048 x 1536, every coordinate times 2048 / 4000 = 0.512
    assert LONG_SIDE == 2048
    image = np.full((3000, 4000, 3), 120, np.uint8)
    photo = save_checked_photo(image, [{"tile": "5p", "box": [1000, 500, 1100, 640]}], None, tmp_path)
    assert cv2.imread(str(photo)).shape == (1536, 2048, 3)
    label = json.loads(photo.with_suffix(".json").read_text())
    assert label["tiles"] == [{"tile": "5p", "box": [512.0, 256.0, 563.2, 327.7], "sideways": False}]
    assert "request" not in label  # none given: the photo stands for no request
    assert sorted(p.name for p in tmp_path.iterdir()) == [photo.name, photo.with_suffix(".json").name]


def test_a_small_photo_is_kept_as_it_is(tmp_path):
    image = np.full((600, 800, 3), 120, np.uint8)
    photo = save_checked_photo(image, [{"tile": "x", "box": [10, 10, 50, 60], "sideways": True}],
                               {"hand": "123m", "win_tile": "3m"}, tmp_path)
    assert cv2.imread(str(photo)).shape == (600, 800, 3)
    label = json.loads(photo.with_suffix(".json").read_text())
    assert label["tiles"][0]["box"] == [10.0, 10.0, 50.0, 60.0] and label["request"]["win_tile"] == "3m"


def test_a_label_whose_box_leaves_the_photo_keeps_nothing(tmp_path):
    image = np.full((600, 800, 3), 120, np.uint8)
    with pytest.raises(InvalidRequestError, match="inside the 800x600 photo"):
        save_checked_photo(image, [{"tile": "1z", "box": [700, 10, 820, 60]}], None, tmp_path / "photos")
    assert not (tmp_path / "photos").exists()


def test_boxes_left_as_no_tile_are_kept_scaled_with_the_photo_and_checked(tmp_path):
    # the page sends what it showed as no tile (a die, a point stick) and the player left so: a fine-tune teaches
    # the verifier from them. Scaled like the tiles (2048 / 4000 = 0.512); none given, none in the label
    image = np.full((3000, 4000, 3), 120, np.uint8)
    photo = save_checked_photo(image, [{"tile": "5p", "box": [1000, 500, 1100, 640]}], None, tmp_path,
                               [{"box": [2000, 1000, 2040, 1040]}, {"box": [10, 20, 110, 60], "sideways": True}])
    label = json.loads(photo.with_suffix(".json").read_text())
    assert label["not_tiles"] == [{"box": [1024.0, 512.0, 1044.5, 532.5], "sideways": False},
                                  {"box": [5.1, 10.2, 56.3, 30.7], "sideways": True}]
    plain = save_checked_photo(image, [{"tile": "5p", "box": [1000, 500, 1100, 640]}], None, tmp_path / "plain")
    assert "not_tiles" not in json.loads(plain.with_suffix(".json").read_text())
    for bad, said in (({"box": [1, 2, 3, 4]}, "must be a list"), ([{"box": [1, 2, 3]}], "not_tiles 0"), ([{"box": [3900, 10, 4100, 50]}], "inside the 4000x3000"),
                      ([{"box": [1, 2, 3, 4], "sideways": "yes"}], "true or false")):
        with pytest.raises(InvalidRequestError, match=said):
            save_checked_photo(image, [{"tile": "5p", "box": [1000, 500, 1100, 640]}], None, tmp_path / "bad", bad)
    assert not (tmp_path / "bad").exists()


def test_a_tile_the_hands_shape_named_is_kept_marked_hidden(tmp_path):
    # the page marks the tiles of the answer's "named" (a finger over the face, the tile named by the hand's shape)
    # "hidden": kept so, for a fine-tune to pass over; left out, not marked; anything but true or false refused
    image = np.full((600, 800, 3), 120, np.uint8)
    tiles = [{"tile": "3s", "box": [10, 10, 50, 60], "hidden": True}, {"tile": "4s", "box": [50, 10, 90, 60], "hidden": False}]
    label = json.loads(save_checked_photo(image, tiles, None, tmp_path).with_suffix(".json").read_text())
    assert label["tiles"] == [{"tile": "3s", "box": [10.0, 10.0, 50.0, 60.0], "sideways": False, "hidden": True},
                              {"tile": "4s", "box": [50.0, 10.0, 90.0, 60.0], "sideways": False}]
    with pytest.raises(InvalidRequestError, match='tile 0: "hidden" must be true or false'):
        save_checked_photo(image, [{"tile": "3s", "box": [10, 10, 50, 60], "hidden": "yes"}], None, tmp_path / "bad")
    assert not (tmp_path / "bad").exists()

