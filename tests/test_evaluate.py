"""training/evaluate.py: the numbers the model card reports, checked on hand-made predictions."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.tiles import align
from training.evaluate import evaluate, load_folder, write_drafts


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


def test_a_wrong_request_offered_with_no_tile_marked_and_nothing_said_is_counted_as_silent(tmp_path):
    from training.evaluate import report

    _folder(tmp_path, [["1m"], ["2m"], ["3m"], ["4m"], ["5m"]])
    for i, tile in enumerate(["1m", "2m", "3m", "4m", "5m"]):  # each photo stands for a request of its one tile
        (tmp_path / f"{i:04d}.json").write_text(json.dumps({"tiles": [{"tile": tile}], "request": {"hand": tile}}))
    items = load_folder(tmp_path)
    sure, doubt = [(0.95, False)], [(0.5, True)]
    answers = iter([
        (["1m"], {"hand": "1m"}, sure, False),  # read before the timing
        (["1m"], {"hand": "1m"}, sure, False),  # right
        (["3m"], {"hand": "3m"}, sure, False),  # wrong, nothing marked, nothing said: silent
        (["4m"], {"hand": "4m"}, doubt, False),  # wrong, its tile marked
        (["5m"], {"hand": "5m"}, sure, True),  # wrong, the photo said to be too bright
        (["6m"], None, sure, False),  # no request offered: the page asks for a check
    ])
    checked = iter([(["2m"], {"hand": "2m"}, sure, False)] * 2  # read before the timing, then right
                   + [(["4m"], {"hand": "4m"}, sure, False, False, False, False, False, True)])  # wrong, a row said left out

    def predict(image):  # noqa: ANN001, ANN202
        return next(answers)

    res = evaluate(items, predict)
    assert res["wrong_requests"] == {"given": 3, "silent": 1} and res["request_exact_rate"] == 1 / 5
    assert "wrong requests offered: 3, 1 of them silently" in report(res)
    res = evaluate(items[1:3], lambda image: next(checked))  # noqa: ARG005
    assert res["wrong_requests"] == {"given": 1, "silent": 0}


def test_a_wrong_request_the_answer_gives_with_something_to_check_is_not_silent(tmp_path, monkeypatch):
    # the recogniser's answer with a "reason" beside its request (e.g. the row above the hand left out, so no dora
    # indicators read) tells the player what to check: evaluate's own reading of an answer (ours) says so
    import companion.vision.pipeline as pipeline
    from training.evaluate import ours

    _folder(tmp_path, [["1m"]])
    (tmp_path / "0000.json").write_text(json.dumps({"tiles": [{"tile": "1m"}], "request": {"hand": "1m", "dora_indicators": ["2m"]}}))
    answer = {"tiles": [{"tile": "1m", "confidence": 0.97}], "request": {"hand": "1m", "dora_indicators": []},
              "uncertain": []}
    monkeypatch.setattr(pipeline, "recognize_image", lambda image: answer)
    assert evaluate(load_folder(tmp_path), ours)["wrong_requests"] == {"given": 1, "silent": 1}
    answer["reason"] = "2 rows of tiles found: the row above it left out, so no dora indicators were read"
    assert evaluate(load_folder(tmp_path), ours)["wrong_requests"] == {"given": 1, "silent": 0}


def test_photos_said_to_be_too_bright_are_counted_with_how_many_of_them_read_exactly(tmp_path):
    from training.evaluate import report

    items = _folder(tmp_path, [["1m", "2m"], ["3p"], ["4s"]])
    sure = [(0.9, False)]
    answers = iter([(["1m", "2m"], None, sure * 2, True)] * 2 + [(["3p"], None, sure, True), (["5s"], None, sure, False)])

    def predict(image):  # noqa: ANN001, ANN202
        return next(answers)

    res = evaluate(items, predict)
    # by hand: photos 0 and 1 said too bright, both read exactly; photo 2 misread and not said
    assert res["too_bright"] == {"photos": 2, "exact": 2}
    assert "said to be too bright: 2 photos (2 of them read exactly)" in report(res)
    answers = iter([(["1m", "2m"], None)] * 2 + [(["3p"], None), (["4s"], None)])  # a predict without the item
    res = evaluate(items, predict)
    assert res["too_bright"] == {"photos": 0, "exact": 0} and "too bright" not in report(res)


def test_photos_whose_tiles_are_said_to_be_too_small_are_counted_apart_from_too_bright_ones(tmp_path):
    from training.evaluate import report

    items = _folder(tmp_path, [["1m"], ["3p"], ["4s"]])
    sure = [(0.9, False)]
    answers = iter([(["1m"], None, sure, False, True)] * 2 + [(["5p"], None, sure, True, True),
                                                              (["4s"], None, sure, True, False)])

    def predict(image):  # noqa: ANN001, ANN202
        return next(answers)

    res = evaluate(items, predict)
    # by hand: photos 0 and 1 said too small (photo 0 read exactly, 1 misread), photos 1 and 2 too bright (2 exact)
    assert res["too_small"] == {"photos": 2, "exact": 1} and res["too_bright"] == {"photos": 2, "exact": 1}
    assert "tiles said to be too small: 2 photos (1 of them read exactly)" in report(res)
    answers = iter([(["1m"], None, sure, False, False)] * 2 + [(["5p"], None, sure, False, True),
                                                               (["4s"], None, sure, False, False)])
    res = evaluate(items, predict)  # only photo 1, misread, said too small
    assert "tiles said to be too small: 1 photos (0 of them read exactly)" in report(res)


def test_photos_said_to_be_taken_from_too_low_are_counted_apart_from_blurred_ones(tmp_path):
    from training.evaluate import report

    items = _folder(tmp_path, [["1m"], ["3p"], ["4s"]])
    sure = [(0.9, False)]
    answers = iter([(["1m"], None, sure, False, False, False, False)]  # the warm-up read
                   + [(["1m"], None, sure, False, False, True, True), (["5p"], None, sure, False, False, False, True),
                      (["4s"], None, sure, False, False, True, False)])

    def predict(image):  # noqa: ANN001, ANN202
        return next(answers)

    res = evaluate(items, predict)
    # by hand: photos 0 and 1 said too low (photo 0 read exactly, 1 misread), photos 0 and 2 blurred (both exact)
    assert res["too_low"] == {"photos": 2, "exact": 1} and res["blurred"] == {"photos": 2, "exact": 2}
    assert "said to be taken from too low: 2 photos (1 of them read exactly)" in report(res)


def test_photos_said_to_cut_the_hand_off_are_counted_apart(tmp_path):
    from training.evaluate import report

    items = _folder(tmp_path, [["1m"], ["3p"], ["4s"]])
    sure = [(0.9, False)]
    answers = iter([(["1m"], None, sure, False, False, False, False, False, False)]  # the warm-up read
                   + [(["1m"], None, sure, False, False, False, True, True, True),
                      (["5p"], None, sure, False, False, False, False, True, True),
                      (["4s"], None, sure, False, False, False, False, False, True)])

    def predict(image):  # noqa: ANN001, ANN202
        return next(answers)

    res = evaluate(items, predict)
    # by hand: photos 0 and 1 said cut off (0 read exactly, 1 misread), photo 0 also too low; photo 2 neither
    assert res["cut_off"] == {"photos": 2, "exact": 1} and res["too_low"] == {"photos": 1, "exact": 1}
    assert "said to cut the hand off at an edge: 2 photos (1 of them read exactly)" in report(res)


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


def test_a_label_can_be_typed_as_mpsz_in_reading_order_next_to_a_phone_photo(tmp_path):
    # real photos come named by the phone (IMG_0042.JPG); typing their tiles is quicker than writing JSON
    cv2.imwrite(str(tmp_path / "IMG_0042.JPG"), np.zeros((8, 8, 3), np.uint8))
    (tmp_path / "IMG_0042.txt").write_text("# dora row, then the hand\nx3z9sx\n 123m0p 55p 7z 1f\n", encoding="utf-8")
    [(photo, label)] = load_folder(tmp_path)
    assert photo.name == "IMG_0042.JPG"
    assert [t["tile"] for t in label["tiles"]] == ["x", "3z", "9s", "x", "1m", "2m", "3m", "0p", "5p", "5p", "7z", "1f"]


def test_an_iphone_heic_photo_with_a_typed_label_is_measured(tmp_path, capsys):
    # a club's real photos straight off an iPhone: closed_dora.jpg stored as such a HEIC (tests/fixtures/vision/heic),
    # its tiles typed in reading order; read upright, every tile is right
    import shutil
    from pathlib import Path

    from training.evaluate import main

    heic = Path(__file__).parent / "fixtures" / "vision" / "heic" / "closed_dora_held.heic"
    shutil.copy(heic, tmp_path / "IMG_0042.HEIC")
    (tmp_path / "IMG_0042.txt").write_text("4m9m\n27m257p499s34677z 9p\n", encoding="utf-8")
    assert main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "1 images, 16 tiles" in out and "per-tile accuracy (in order): 100.0%" in out


def test_a_json_label_is_taken_before_a_txt_one_and_unlabelled_photos_are_left_out(tmp_path, capsys):
    for name in ("a", "b"):
        cv2.imwrite(str(tmp_path / f"{name}.png"), np.zeros((8, 8, 3), np.uint8))
    (tmp_path / "a.json").write_text(json.dumps({"tiles": [{"tile": "1z"}]}))
    (tmp_path / "a.txt").write_text("2z")
    [(photo, label)] = load_folder(tmp_path)
    assert photo.name == "a.png" and label == {"tiles": [{"tile": "1z"}]}
    assert "1 photo(s)" in capsys.readouterr().err


def test_a_mistyped_label_names_its_file_and_what_is_wrong(tmp_path):
    cv2.imwrite(str(tmp_path / "hand.jpg"), np.zeros((8, 8, 3), np.uint8))
    (tmp_path / "hand.txt").write_text("123m45")
    with pytest.raises(SystemExit, match=r"hand\.txt.*no suit letter"):
        load_folder(tmp_path)
    (tmp_path / "hand.txt").unlink()
    (tmp_path / "hand.json").write_text(json.dumps({"tiles": ["5m"]}))
    with pytest.raises(SystemExit, match=r"hand\.json.*\"tile\""):
        load_folder(tmp_path)


def _tile(code: str, x: int, group: int) -> dict:
    return {"tile": code, "box": [x, 0, x + 10, 14], "group": group}


def test_a_draft_label_has_a_row_a_line_and_a_space_between_groups_and_is_used_only_once_checked(tmp_path):
    # a dora row of four (backs at the ends), then the hand row: 123m0p touching, 7z apart, a flower apart; the hand
    # row starts where a tile lies left of the one before
    reading = {"tiles": [_tile("x", 40, 0), _tile("3z", 50, 0), _tile("9s", 60, 0), _tile("x", 70, 0),
                         _tile("1m", 0, 1), _tile("2m", 10, 1), _tile("3m", 20, 1), _tile("0p", 30, 1),
                         _tile("7z", 50, 2), _tile("1f", 70, 3)]}
    cv2.imwrite(str(tmp_path / "IMG_7.JPG"), np.zeros((8, 8, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "done.png"), np.zeros((8, 8, 3), np.uint8))
    (tmp_path / "done.txt").write_text("1z")
    assert write_drafts(tmp_path, read=lambda image: reading) == 1  # done.png has its label already
    lines = (tmp_path / "IMG_7.txt").read_text().splitlines()
    assert lines[0].startswith("# draft") and lines[1:] == ["x3z9sx", "123m0p 7z 1f"]
    assert [photo.name for photo, _ in load_folder(tmp_path)] == ["done.png"]  # the draft is not checked yet

    (tmp_path / "IMG_7.txt").write_text("\n".join(lines[1:]).replace("0p", "5p"))  # checked: a plain five
    [(_, label)] = [item for item in load_folder(tmp_path) if item[0].name == "IMG_7.JPG"]
    assert "".join(t["tile"] for t in label["tiles"]) == "x3z9sx1m2m3m5p7z1f"


def test_dora_photos_are_read_as_the_pages_second_photo_and_their_indicators_compared(tmp_path, capsys):
    # the two close photos of the dead wall among the fixtures (their labels: x x x 9m and x 4p 3m, the face-up
    # tiles as the request's indicators): read as second photos of the dora indicators, every tile and every
    # indicator is right; read as hand photos, no request can be right (a hand's request is never indicators alone)
    import shutil
    from pathlib import Path

    from training.evaluate import main

    fixtures = Path(__file__).parent / "fixtures" / "vision" / "dora_photos"
    for f in fixtures.glob("close_*"):
        shutil.copy(f, tmp_path / f.name)
    labels = [json.loads((tmp_path / f"close_{k}.json").read_text()) for k in "ab"]
    assert [lb["request"] for lb in labels] == [{"dora_indicators": ["9m"]}, {"dora_indicators": ["4p", "3m"]}]
    assert main([str(tmp_path), "--dora-photos", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert (res["tile_accuracy"], res["exact_hand_rate"], res["request_exact_rate"]) == (1.0, 1.0, 1.0)
    assert res["tiles"] == 7 and res["requests_labelled"] == 2
    assert main([str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["request_exact_rate"] == 0.0


def test_a_12_mp_photo_is_read_as_companion_recognize_reads_it(tmp_path, capsys, monkeypatch):
    # won_melds_dora enlarged 5 times (4410 x 2480, a phone's 12 MP photo; its tiles about 190 px wide): the
    # command reads it at half size (companion.photo_files.read_photo: its tiles are wide there), and so does the
    # evaluation, with every tile and the request right, and the draft label (--draft); a dora photo is decoded as
    # the page decodes it (whole)
    from pathlib import Path

    from companion.vision import pipeline
    from training.evaluate import main

    fixture = Path(__file__).parent / "fixtures" / "vision" / "won_melds_dora"
    big = cv2.resize(cv2.imread(str(fixture.with_suffix(".jpg"))), None, fx=5, fy=5, interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(str(tmp_path / "IMG_0001.jpg"), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    label = json.loads(fixture.with_suffix(".json").read_text())
    (tmp_path / "IMG_0001.json").write_text(json.dumps(label))
    seen = []
    read = pipeline.recognize_image

    def recognize_image(image, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        seen.append((image.shape[:2], kwargs.get("scale", 1)))
        return read(image, *args, **kwargs)

    monkeypatch.setattr(pipeline, "recognize_image", recognize_image)
    assert main([str(tmp_path), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert (res["tile_accuracy"], res["exact_hand_rate"], res["request_exact_rate"]) == (1.0, 1.0, 1.0)
    assert seen == [((1240, 2205), 2)] * 2  # (once more before the timing)
    # its draft label too, once its label is gone: read so, the label's tiles row by row
    (tmp_path / "IMG_0001.json").unlink()
    seen.clear()
    assert write_drafts(tmp_path) == 1 and seen == [((1240, 2205), 2)]
    draft = tmp_path / "IMG_0001.txt"
    draft.write_text("\n".join(draft.read_text().splitlines()[1:]))  # checked: its "# draft" line deleted
    [(_, checked)] = load_folder(tmp_path)
    assert [t["tile"] for t in checked["tiles"]] == [t["tile"] for t in label["tiles"]]
    draft.unlink()
    (tmp_path / "IMG_0001.json").write_text(json.dumps(label))
    dora_seen = []
    read_dora = pipeline.read_dora_photo

    def read_dora_photo(image, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        dora_seen.append(image.shape[:2])
        return read_dora(image, *args, **kwargs)

    monkeypatch.setattr(pipeline, "read_dora_photo", read_dora_photo)
    assert main([str(tmp_path), "--dora-photos", "--json"]) == 0
    capsys.readouterr()
    assert dora_seen == [(2480, 4410)] * 2


def test_hide_picks_upright_tiles_of_the_hand_row_between_upright_neighbours_none_side_by_side():
    # tile 0 is the dora row's (row 0); 1-7 are the hand row's (row 1), 1m to 7m, the 7m sideways. 1 begins the
    # hand row and 6 lies beside the sideways tile: only 2-5 may be hidden, and two of them never side by side
    import random

    from training.evaluate import hidden_tiles

    box = [0, 0, 1, 1]
    label = {"tiles": [{"tile": "3z", "box": box, "row": 0}] + [
        {"tile": t, "box": box, "row": 1, "sideways": t == "7m"} for t in ("1m", "2m", "3m", "4m", "5m", "6m", "7m")]}
    for seed in range(20):
        one = hidden_tiles(label, 1, random.Random(seed))
        two = hidden_tiles(label, 2, random.Random(seed))
        assert len(one) == 1 and one[0] in (2, 3, 4, 5)
        assert len(two) == 2 and set(two) <= {2, 3, 4, 5} and two[1] - two[0] > 1
    assert hidden_tiles(label, 3, random.Random(0)) in ([2, 4], [2, 5], [3, 5])  # no room for a third
    with pytest.raises(SystemExit, match="--hide needs labels with the tiles' boxes"):
        hidden_tiles({"tiles": [{"tile": "1m"}]}, 1, random.Random(0))


def test_hide_makes_the_localisers_miss_the_tiles_and_says_on_how_many_photos_it_took(tmp_path, capsys):
    # two fixtures with their labels: one tile of each hand row hidden, every photo has a find dropped and reads
    # one tile fewer than labelled unless the reading gets it back; without --hide, nothing is said of hiding
    import shutil
    from pathlib import Path

    from training.evaluate import main

    fixtures = Path(__file__).parent / "fixtures" / "vision"
    for name in ("won_melds_dora", "kan_back"):
        for suffix in (".jpg", ".json"):
            shutil.copy(fixtures / f"{name}{suffix}", tmp_path / f"{name}{suffix}")
    assert main([str(tmp_path), "--json", "--hide", "1", "--seed", "3"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["hidden"] == {"per_photo": 1, "seed": 3, "photos": 2, "photos_cut": 2}
    assert main([str(tmp_path), "--json"]) == 0
    assert "hidden" not in json.loads(capsys.readouterr().out)


def test_the_first_readings_kept_with_checked_photos_are_measured_without_reading_the_photos(tmp_path):
    # --first-read: a club's kept photos (or their zip, unpacked) say how the recogniser read them at the table.
    # By hand: a 1m2m3m read 1m3m3m, the 3m in the middle marked: 2 of 3 right, the wrong one marked; b 5p5p read
    # so, nothing marked; c keeps no first reading (kept before session 78): left out. 4 of 5 tiles, 1 of 2 hands
    from training.evaluate import first_readings, main

    for name, tiles, first in (("a", ["1m", "2m", "3m"], {"tiles": ["1m", "3m", "3m"], "unsure": [1]}),
                               ("b", ["5p", "5p"], {"tiles": ["5p", "5p"], "unsure": []}), ("c", ["9s"], None)):
        (tmp_path / f"{name}.jpg").write_bytes(b"not even a picture: nothing is read")
        (tmp_path / f"{name}.json").write_text(json.dumps({"tiles": [{"tile": t} for t in tiles],
                                                           **({"first_read": first} if first else {})}))
    res = first_readings(load_folder(tmp_path))
    assert (res["images"], res["tiles"], res["tile_accuracy"], res["exact_hand_rate"]) == (2, 5, 0.8, 0.5)
    assert res["confusions"] == ["2m->3m x1"] and res["request_exact_rate"] is None
    assert res["marked"] == {"wrong": [1, 1], "right": [0, 4]}
    assert main([str(tmp_path), "--first-read"]) == 0
