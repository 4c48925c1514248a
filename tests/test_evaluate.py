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


def test_red_fives_taken_for_plain_ones_are_counted_apart_from_other_misreads(tmp_path):
    items = _folder(tmp_path, [["0m", "5m", "0p", "3s"], ["0s", "5p"]])
    answers = iter([(["5m", "5m", "0p", "3s"], None)] * 2 + [(["5s", "0p"], None)])

    def predict(image):  # noqa: ANN001, ANN202
        return next(answers)

    res = evaluate(items, predict)
    # by hand: 0m->5m and 0s->5s are red fives read as plain, 5p->0p a plain five read as red; 3 red fives labelled
    assert res["red_fives"] == {"read_plain": 2, "plain_read_red": 1, "in_labels": 3}
    assert res["other_kind"] == 0

    (tmp_path / "b").mkdir()
    items = _folder(tmp_path / "b", [["0m", "5p", "1z"]])
    answers = iter([(["5p", "0m", "2z"], None)] * 2)  # 0m->5p and 5p->0m are other suits; 1z->2z another kind
    res = evaluate(items, predict)
    assert res["red_fives"]["read_plain"] == res["red_fives"]["plain_read_red"] == 0
    assert res["other_kind"] == 3
