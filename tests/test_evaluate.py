"""training/evaluate.py: the numbers the model card reports, checked on hand-made predictions."""

from __future__ import annotations

import json

import cv2
import numpy as np

from training.evaluate import align, evaluate, load_folder


def test_align_counts_a_missed_tile_as_one_error_without_shifting_the_rest():
    hits, subs = align(["1m", "3m", "4m"], ["1m", "2m", "3m", "4m"])
    assert hits == 3 and subs == [("2m", "-")]


def _folder(tmp_path, hands: list[list[str]]):
    for i, tiles in enumerate(hands):
        cv2.imwrite(str(tmp_path / f"{i:04d}.png"), np.zeros((8, 8, 3), np.uint8))
        (tmp_path / f"{i:04d}.json").write_text(json.dumps({"tiles": [{"tile": t} for t in tiles]}))
    return load_folder(tmp_path)


def test_uncertain_marking_is_counted_for_wrong_and_right_tiles(tmp_path):
    items = _folder(tmp_path, [["1m", "2m", "3m"], ["5p", "5p"]])
    answers = {  # per photo: tiles, request, (confidence, marked uncertain) per tile
        0: (["1m", "2m", "4m"], None, [(0.9, False), (0.5, True), (0.7, False)]),
        1: (["5p"], None, [(0.4, True)]),  # a tile missed: not compared tile by tile
    }
    calls = iter([0, 0, 1])  # the first photo is read once more before the timing

    def predict(image):  # noqa: ANN001, ANN202
        return answers[next(calls)]

    res = evaluate(items, predict, thresholds=(0.6, 0.8))
    # by hand: photo 0 has 1m, 2m right (2m marked) and 3m read as 4m (not marked); photo 1 is left out
    assert res["marked"] == {"wrong": [0, 1], "right": [1, 2]}
    assert res["marked_below"] == {"0.6": {"wrong": 0, "right": 1}, "0.8": {"wrong": 1, "right": 1}}
    assert res["tile_accuracy"] == 3 / 5 and res["exact_hand_rate"] == 0
