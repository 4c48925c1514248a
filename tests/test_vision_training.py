"""The synthetic-data generator keeps earlier seeds reproducible when new kinds of tile sets are added
(models/TRAINING-LOG.md: the evaluation sets and training runs are named by their seeds), and the new kinds
of sets and augmentations do what they are for."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PIL")
pytest.importorskip("torch")  # the training extra; without it the training package is not used


def fonts_or_skip() -> list[tuple[str, int]]:
    from training.faces import _fonts

    try:
        return _fonts()
    except SystemExit as exc:  # some or all of the five CJK font packages missing
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def banks():
    from training.faces import build_bank

    fonts_or_skip()
    try:
        plain = build_bank(3, n_procedural=2, with_uni=False, n_varied=1)
    except SystemExit as exc:  # a checkout without ../shared/tile-art
        pytest.skip(str(exc))
    widened = build_bank(3, n_procedural=2, with_uni=False, n_varied=1, n_wide=2, n_maroon=2)
    return plain, widened


def test_adding_wide_sets_leaves_the_earlier_sets_of_a_seed_unchanged(banks):
    # MODEL_CARD "Data": a seed names the procedural sets a run or evaluation set was made from
    plain, widened = banks
    for style in plain.styles():
        for cls, faces in plain.faces[style].items():
            assert all(np.array_equal(a, b) for a, b in zip(faces, widened.faces[style][cls], strict=True)), (style, cls)
    assert sorted(set(widened.styles()) - set(plain.styles())) == ["procr000", "procr001", "procw000", "procw001"]


def test_maroon_sets_print_their_red_fives_in_dark_reds(banks):
    # train --maroon: red fives in dark, brownish or wine reds (as some sets print them, and as any red looks
    # under warm, dim light), not the bright red of most sets (INKS "red" is 190, 25, 30)
    _, widened = banks
    for style in ("procr000", "procr001"):
        face = widened.faces[style]["0s"][0]
        ink = face[face.shape[0] // 4:]  # below the corner numeral, which some sets print in their usual red
        rgb = np.median(ink[..., :3][ink[..., 3] > 200].astype(float), axis=0)  # some bamboo has white joints
        assert 60 <= rgb[0] <= 160, (style, rgb)
        assert rgb[0] - max(rgb[1], rgb[2]) >= 25, (style, rgb)


def test_every_wide_set_draws_every_face_class_with_some_ink(banks):
    from training.faces import ALL_CLASSES, FACE_H, FACE_W

    _, widened = banks
    for style in ("procw000", "procw001"):
        faces = widened.faces[style]
        assert sorted(faces) == sorted(c for c in ALL_CLASSES if c != "x")  # the back is drawn by the scene
        for cls, (face,) in faces.items():
            assert face.shape == (FACE_H, FACE_W, 4)
            if cls != "5z":  # many sets leave the white dragon blank
                assert (face[..., 3] > 128).sum() > 30, (style, cls)


def test_the_wide_sets_draw_their_ones_of_bamboo_in_other_ways_than_one_another():
    # what the wide sets are for: more than one bird design, so no single drawing stands for 1s
    from training.faces import procedural_set

    fonts = fonts_or_skip()
    rng = np.random.default_rng(0)
    birds = [procedural_set(rng, fonts, wide=True)["1s"][..., 3] > 128 for _ in range(6)]
    overlaps = [(a & b).sum() / max(1, (a | b).sum()) for i, a in enumerate(birds) for b in birds[i + 1:]]
    assert min(overlaps) < 0.5


def test_scaled_box_scales_a_box_about_its_centre():
    # the face painter's small characters and the pipeline's re-cut crops share this helper
    from companion.vision.preprocess import scaled_box

    # by hand: centre (0.3, 0.4), half sizes 0.2 x 0.2 halved to 0.1 x 0.1
    assert scaled_box((0.1, 0.2, 0.5, 0.6), 0.5) == pytest.approx((0.2, 0.3, 0.4, 0.5))


def test_low_res_off_leaves_the_crops_and_the_random_stream_alone():
    # --low-res 0 (the default) must train exactly as before it existed: same crops, same random draws
    from training.train import _low_res

    rng = np.random.default_rng(5)
    crops = rng.integers(0, 256, (4, 64, 48, 3), dtype=np.uint8)
    a, b = np.random.default_rng(1), np.random.default_rng(1)
    out = _low_res(a, crops, 0.0)
    assert out is crops
    assert a.random() == b.random()


def test_low_res_softens_fine_detail_but_keeps_the_crop_size():
    from training.train import _low_res

    stripes = np.zeros((2, 64, 48, 3), np.uint8)
    stripes[:, ::2] = 255  # one-pixel lines: lost when shrunk to at most 80% and scaled back
    out = _low_res(np.random.default_rng(0), stripes, 1.0)
    assert out.shape == stripes.shape and out.dtype == np.uint8
    assert np.abs(out.astype(int) - stripes).mean() > 40
    assert np.array_equal(stripes[:, 1::2], np.zeros_like(stripes[:, 1::2]))  # the input is not changed in place


@pytest.mark.parametrize("name", ["_glare", "_phone", "_bright"])
def test_a_crop_change_at_share_0_leaves_the_crops_and_the_random_stream_alone(name: str):
    # --glare 0, --phone 0, --bright 0 (the defaults, and every recipe but the stage that sets one) train exactly
    # as before the change existed
    import training.train

    crops = np.random.default_rng(5).integers(0, 256, (4, 64, 48, 3), dtype=np.uint8)
    a, b = np.random.default_rng(1), np.random.default_rng(1)
    assert getattr(training.train, name)(a, crops, 0.0) is crops
    assert a.random() == b.random()


def test_phone_processing_changes_every_crop_it_picks_and_keeps_its_size():
    from training.train import _phone

    # a dark symbol on a light face, shaded and a little noisy as a photo's crop is: each processing moves its
    # edges or its levels
    shade = np.linspace(190, 235, 48)[None, None, :, None]
    face = np.clip(shade + np.random.default_rng(2).normal(0, 4, (6, 64, 48, 3)), 0, 255).astype(np.uint8)
    face[:, 20:44, 12:36] = 30
    out = _phone(np.random.default_rng(3), face, 1.0)
    assert out.shape == face.shape and out.dtype == np.uint8
    assert all(not np.array_equal(o, f) for o, f in zip(out, face, strict=True))
    assert (face[:, 20:44, 12:36] == 30).all()  # the input is not changed in place


def test_the_phone_stage_is_the_reds_stage_with_a_fifth_of_the_crops_processed_as_by_a_phone():
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES

    phone, reds = {**DEFAULTS, **RECIPES["phone"]}, {**DEFAULTS, **RECIPES["reds"]}
    assert phone["phone"] == 0.2 and reds["phone"] == 0.0  # 0.4 misread the glare_hand fixture (sessions 22, 34)
    assert {k: v for k, v in phone.items() if k != "phone"} == {k: v for k, v in reds.items() if k != "phone"}
    # since session 35 the shipped classifiers' chain ends with it, so the whole command runs it
    assert OUTPUTS["phone"] == "classifier" and CONTINUES["phone"] == "classifier.pt" and "phone" not in OPTIONAL


def test_an_overexposed_crop_burns_its_face_out_and_keeps_its_ink_dark():
    from training.train import _bright

    # a face of 200 with a symbol of 30 and a paler ink of 150: scaled by 1.15-1.8, the face comes to 230 or more
    # (255 from 1.275 on), the dark ink to 34.5-54, the pale one to 172.5-255; nothing is darkened
    face = np.full((40, 64, 48, 3), 200, np.uint8)
    face[:, 10:30, 10:20] = 30
    face[:, 40:60, 10:20] = 150
    out = _bright(np.random.default_rng(4), face, 1.0)
    assert out.shape == face.shape and out.dtype == np.uint8
    assert (out[:, 0, 0] >= 229).all() and (out[:, 10:30, 10:20] >= 34).all() and (out[:, 10:30, 10:20] <= 54).all()
    assert (out[:, 40:60, 10:20] >= 172).all()
    assert (out[:, 0, 0] == 255).any() and (out[:, 0, 0] < 255).any()  # some burnt out, some not: gains vary
    assert (face[:, 0, 0] == 200).all()  # the input is not changed in place


def test_the_bright_stages_train_on_from_the_shipped_nets_with_overexposed_crops_and_photos():
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES

    bright, camera, reds = ({**DEFAULTS, **RECIPES[n]} for n in ("bright", "camera", "reds"))
    assert (bright["bright"], bright["phone"], camera["bright"], camera["phone"], reds["bright"]) == (0.3, 0.0, 0.3, 0.3, 0.0)
    assert {k: v for k, v in bright.items() if k != "bright"} == {k: v for k, v in reds.items() if k != "bright"}
    for name, continues in (("bright", "classifier.pt"), ("camera", "classifier.pt"), ("loc-bright", "localiser.onnx"),
                            ("loc-b-bright", "localiser-b.onnx")):
        assert CONTINUES[name] == continues and name in OPTIONAL
    assert OUTPUTS["loc-bright"] == "localiser" and OUTPUTS["loc-b-bright"] == "localiser-b"
    loc, loc_b = ({**DEFAULTS, **RECIPES[n]} for n in ("loc-bright", "loc-b-bright"))
    assert loc["bright"] == loc_b["bright"] == 0.3 and loc_b["clutter"] == 0.25 and loc["clutter"] == 0.0


def test_the_shake_stage_smears_a_share_of_the_crops_along_a_line_and_is_the_phone_stage_otherwise():
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES, _shake

    shake, phone = ({**DEFAULTS, **RECIPES[n]} for n in ("shake", "phone"))
    assert shake["shake"] == 0.1 and phone["shake"] == 0.0  # 0.3 without phone processing misread glare_hand
    assert {k: v for k, v in shake.items() if k != "shake"} == {k: v for k, v in phone.items() if k != "shake"}
    # since session 36 the shipped first classifier's chain ends with it, so the whole command runs it
    assert OUTPUTS["shake"] == "classifier" and CONTINUES["shake"] == "classifier.pt" and "shake" not in OPTIONAL
    # crops 64 x 48 with one bright pixel in the middle: a smeared one spreads it along a line 0.05-0.35 of 48 px
    # (2-17 px) long, keeping most of its light; the others stay as they were, and the input is not changed
    crops = np.zeros((40, 64, 48, 3), np.uint8)
    crops[:, 32, 24] = 255
    out = _shake(np.random.default_rng(3), crops, 0.5)
    smeared = [i for i in range(40) if out[i, 32, 24, 0] < 255]
    assert 10 <= len(smeared) <= 30 and (crops[:, 32, 24] == 255).all()
    for i in range(40):
        lit = np.argwhere(out[i, ..., 0] > 0)
        ends = np.hypot(*(lit[:, None, :] - lit[None, :, :]).transpose(2, 0, 1)).max()
        if i in smeared:
            assert 1 <= ends <= 18.5 and out[i].astype(int).sum() >= 0.8 * 255 * 3
        else:
            assert (out[i] == crops[i]).all()


def test_overexposed_localiser_photos_are_brighter_clipped_at_white_and_the_rest_untouched():
    from training.train import _overexposed

    x = np.random.default_rng(5).uniform(-0.5, 0.5, (4, 3, 8, 8)).astype(np.float32)
    a, b = np.random.default_rng(1), np.random.default_rng(1)
    assert _overexposed(a, x, 0.0) is x and a.random() == b.random()  # off: as before it existed
    x = np.full((64, 3, 8, 8), -0.2, np.float32)  # a mid-dark grey of 0.3 (of 1)
    x[:, :, :4] = 0.3  # and a light one of 0.8
    out = _overexposed(np.random.default_rng(2), x, 0.5)
    changed = (out != x).any(axis=(1, 2, 3))
    assert 16 <= changed.sum() <= 48 and (out[~changed] == x[~changed]).all()
    dark, light = out[changed, :, 4:] + 0.5, out[changed, :, :4] + 0.5  # each scaled by 1.15-1.8: 0.345-0.54 ...
    assert (dark >= 0.3 * 1.15 - 1e-6).all() and (dark <= 0.3 * 1.8 + 1e-6).all()
    assert (light <= 1.0).all() and (light == 1.0).any() and (light >= 0.8 * 1.15 - 1e-6).all()  # ... 0.92-1 (clipped)
    assert (x[:, :, 4:] == -0.2).all()  # the input is not changed in place


def test_make_eval_underexposes_by_1_to_2_5_stops_in_linear_light_with_noise():
    from training.make_eval import underexposed

    # one stop halves linear light: an sRGB value v (as a 2.2 power) goes to v * 2 ** (-stops / 2.2), so white comes
    # to 255 * 0.455..0.730 = 116.0..186.2 and mid grey 128 to 58.2..93.5, before noise of at most 4 levels (sd)
    img = np.zeros((2, 64, 64, 3), np.uint8)
    img[0], img[1] = 255, 128
    for seed in range(10):
        out = underexposed(np.random.default_rng(seed), img.reshape(128, 64, 3)).reshape(2, 64, 64, 3).astype(float)
        white, grey = out[0].mean(), out[1].mean()
        assert 115 <= white <= 187 and 57.5 <= grey <= 94.5
        assert abs(grey / white - 128 / 255) < 0.01  # the same gain for every value (noise aside)
        assert 1.0 < out[0].std() < 4.5  # the sensor's noise shows


def test_make_eval_shake_smears_a_point_into_a_line_as_long_as_its_share_of_the_tiles_width():
    from training.make_eval import shaken

    # tiles 100 px wide: the first draw of the stream sets the length, 100 x 0.05..0.4 = 5..40 px (k); a point of
    # light becomes a line of k pixels in some direction, its light kept (the kernel sums to 1): the lit pixels lie
    # k - 1 apart at the ends, give or take the turn's interpolation
    boxes = [(0, 0, 100, 130), (100, 0, 200, 130)]
    for seed in range(10):
        k = max(2, round(100 * np.random.default_rng(seed).uniform(0.05, 0.4)))
        img = np.zeros((121, 121), np.float32)
        img[60, 60] = 1000.0
        out = shaken(np.random.default_rng(seed), img, boxes)
        assert out.sum() == pytest.approx(1000.0, rel=1e-3)
        ys, xs = np.nonzero(out > 1e-3)
        ends = np.hypot(ys[:, None] - ys[None, :], xs[:, None] - xs[None, :]).max()
        assert k - 2.5 <= ends <= k + 1.5, (seed, k, ends)
    assert shaken(np.random.default_rng(0), img, []) is img  # no tiles: nothing to measure the shake by


def test_make_eval_shadow_darkens_part_of_the_hand_by_0_7_to_2_stops_and_leaves_the_rest():
    from training.make_eval import shadowed

    # inside the shadow linear light is cut to 0.25..0.6, so grey 200 (as a 2.2 power) comes to 200 * 0.25 ** (1 /
    # 2.2) = 106.6 at the darkest; outside it stays 200. The shadow covers 15-85% of the ten tiles' centres: some
    # tiles lie in it, some in the light (its soft edge, at most 0.75 of a tile's width as a Gaussian's sigma, may
    # dim a lit tile next to it a little)
    img = np.full((600, 1000, 3), 200, np.uint8)
    boxes = [(300 + 40 * i, 280, 340 + 40 * i, 332) for i in range(10)]
    for seed in range(10):
        out = shadowed(np.random.default_rng(seed), img, boxes).astype(float)
        assert out.min() >= 106 and out.max() == 200
        centres = [out[306, 320 + 40 * i, 0] for i in range(10)]
        assert min(centres) < 200 * 0.85 and max(centres) > 200 * 0.97, (seed, centres)
        assert (out[..., 0] == out[..., 2]).all()  # the same for every channel: a shadow, not a colour
    assert shadowed(np.random.default_rng(0), img, []) is img  # no tiles: nothing to cast it on


def test_make_eval_finger_hides_what_it_says_it_hides_and_points_at_the_nearest_row():
    import cv2

    from training.make_eval import fingered
    from training.scenes import TileLabel

    # a grey table (every channel alike) with a far row of three tiles and a near row of ten, 40 x 52 px faces
    def tile(x: float, y: float, row: int) -> TileLabel:
        return TileLabel("1m", np.array([(x, y), (x + 40, y), (x + 40, y + 52), (x, y + 52)], np.float32), False,
                         row, 0, "dora" if row == 0 else "concealed")

    labels = [tile(400 + 40 * i, 100, 0) for i in range(3)] + [tile(300 + 40 * i, 300, 1) for i in range(10)]
    img = np.full((600, 1000, 3), 170, np.uint8)
    pointed = 0
    for seed in range(12):
        out, covered = fingered(np.random.default_rng(seed), img, labels)
        skin = out[..., 2].astype(int) - out[..., 0] > 4  # skin is redder than it is blue; grey and shade are not
        grey = out[..., 2] == out[..., 0]
        assert (out[..., 2] >= out[..., 0]).all() and (out[grey] <= 170).all()  # the rest only darkened (its shadow)
        for i, share in covered:  # the share said hidden is the share of the face that turned skin-coloured
            face = np.zeros(img.shape[:2], np.uint8)
            cv2.fillPoly(face, [labels[i].quad.astype(np.int32)], 1)
            assert abs(skin[face > 0].mean() - share) < 0.15, (seed, i, share)
        if covered and max(covered, key=lambda c: c[1])[1] >= 0.2 and skin[-1].any():  # a finger from the near edge
            assert all(labels[i].row == 1 for i, _ in covered), seed  # at the nearest row, from below it
            pointed += 1
    assert 4 <= pointed <= 11  # two in three a pointing finger, else a thumb on the lens at a corner
    assert fingered(np.random.default_rng(0), img, [])[0] is img


def test_make_eval_focus_keeps_its_line_sharp_and_blurs_the_farthest_edge_by_the_disc_it_says():
    from training.make_eval import defocused

    # black and white columns 50 px wide: a line's blur shows as the width of its edges (a disc of diameter D
    # spreads a step over about D px); the tiles are 40 px wide, so the far edge's disc is 0.15-0.6 of 40 px
    # times the span over half the photo's height
    img = np.zeros((400, 600, 3), np.uint8)
    for x in range(0, 600, 100):
        img[:, x:x + 50] = 255
    boxes = [(100 + 40 * i, 300, 140 + 40 * i, 352) for i in range(10)]
    lines = set()
    for seed in range(8):
        out, focus = defocused(np.random.default_rng(seed), img, boxes)
        lines.add(focus["line"])
        assert focus["span"] == max(focus["line"], 400 - focus["line"])
        assert 0.15 * 40 <= focus["widest"] * 200 / focus["span"] <= 0.6 * 40
        sharp = out[int(round(focus["line"])), :, 0]
        far = out[0 if focus["line"] > 200 else 399, :, 0]
        edge = lambda row: int(((row > 8) & (row < 247)).sum()) / 12  # noqa: E731  (12 edges inside the photo)
        assert edge(sharp) <= 1.5
        assert 0.4 * focus["widest"] - 1 <= edge(far) <= focus["widest"] + 1, (seed, edge(far), focus)
    assert lines == {326.0, 200.0}  # on the tiles' middle or the photo's
    assert defocused(np.random.default_rng(0), img, [])[0] is img


def test_make_eval_lens_moves_each_label_where_the_photo_shows_its_tile_and_bows_a_straight_row():
    from training.make_eval import wide_lens
    from training.scenes import TileLabel

    # a red square painted on a grey photo, its label's corners on it: after the lens the label's box must
    # be where the red pixels went; a row of squares along the top bows (its middle higher than its ends,
    # by about 3% of the photo's height at strength 0.1: worked out by hand from r = s r' (1 + k r'^2)), and
    # the corners are darker than the middle
    w, h = 1200, 900
    img = np.full((h, w, 3), 200, np.uint8)
    squares = [(x, 60) for x in range(40, 1160, 140)] + [(700, 500)]
    labels = []
    for x, y in squares:
        img[y:y + 40, x:x + 40] = (0, 0, 255)
        quad = np.array([[x, y], [x + 40, y], [x + 40, y + 40], [x, y + 40]], float)
        labels.append(TileLabel("1m", quad, False, 0, 0, "concealed"))
    for seed in range(3):
        out, moved = wide_lens(np.random.default_rng(seed), img, labels, (0.1, 0.3))
        assert out.shape == img.shape
        red = (out[..., 2] > 150) & (out[..., 0] < 100)
        for lb in moved:  # the red pixels near the label's box (the squares lie 100 px apart) span that box
            x1, y1, x2, y2 = lb.box
            near = np.zeros_like(red)
            near[max(0, int(y1) - 15):int(y2) + 15, max(0, int(x1) - 15):int(x2) + 15] = True
            ys, xs = np.nonzero(red & near)
            assert np.allclose((xs.min(), ys.min(), xs.max() + 1, ys.max() + 1), lb.box, atol=2), (seed, lb.box)
        tops = [lb.box[1] for lb in moved[:-1]]
        assert tops[4] < tops[0] - 5 and tops[4] < tops[-1] - 5  # the top row's middle above its ends
        assert out[450, 600, 1] > out[2, 2, 1] + 20  # vignetting
    middle = wide_lens(np.random.default_rng(0), img, [TileLabel("1m", np.array([[600.0, 0], [601, 0], [601, 1],
                                                                                 [600, 1]]), False, 0, 0, "")],
                       (0.1, 0.1))[1][0]
    assert -0.035 * h < middle.quad[0][1] < -0.025 * h  # the scene's top edge at the middle, out of the photo


def test_make_eval_into_a_file_says_so_and_leaves_the_file(tmp_path, capsys):
    from training.make_eval import main

    notes = tmp_path / "notes.txt"
    notes.write_text("kept")
    with pytest.raises(SystemExit) as stop:
        main(["--out", str(notes), "--n", "1"])
    assert stop.value.code == 2 and "is a file; name a folder" in capsys.readouterr().err
    assert notes.read_text() == "kept"


def test_make_eval_overexposes_by_0_6_to_1_6_stops_in_linear_light():
    from training.make_eval import overexposed

    # one stop doubles linear light: an sRGB value v (as a 2.2 power) goes to v * 2 ** (stops / 2.2), so mid grey
    # 128 comes to 154.6-211.9; black stays black and white stays white
    img = np.zeros((4, 3, 3), np.uint8)
    img[1], img[2], img[3] = 128, 255, 60
    for seed in range(20):
        out = overexposed(np.random.default_rng(seed), img)
        assert (out[0] == 0).all() and (out[2] == 255).all()
        assert 154 <= out[1, 0, 0] <= 212 and (out[1] == out[1, 0, 0]).all()
        assert 60 * 1.2 <= out[3, 0, 0] <= 60 * 1.66


def test_glare_puts_a_nearly_white_patch_on_part_of_a_dark_face():
    # on a black crop every highlight shows: 225-255 at full strength, at least half of that at the weakest, and
    # the blur lowers the peak of a thin streak; most of the face is left as it was, and the input is not changed
    from training.train import _glare

    dark = np.zeros((16, 64, 48, 3), np.uint8)
    out = _glare(np.random.default_rng(0), dark, 1.0)
    assert out.shape == dark.shape and out.dtype == np.uint8 and not dark.any()
    peaks = np.array([crop.max() for crop in out])
    assert peaks.min() > 40 and np.median(peaks) >= 150
    assert max((crop.max(axis=-1) > 8).mean() for crop in out) < 0.5  # at most half the face wide, a third as high


def test_a_table_seen_from_one_side_has_its_far_end_shorter_and_keeps_its_width_and_centre():
    # make_eval --yaw LO HI: the corners of a 100 x 50 table, one end shortened by a factor in LO..HI; the
    # quad is scaled back to 100 wide about the old centre, so the far end is LO..HI times the near end
    from training.scenes import _from_one_side

    table = np.array([[0, 0], [100, 0], [100, 50], [0, 50]], np.float32)
    for seed in range(6):
        out = _from_one_side(np.random.default_rng(seed), table, (0.6, 0.8))
        assert np.ptp(out[:, 0]) == pytest.approx(100) and out.mean(axis=0) == pytest.approx((50, 25))
        left, right = out[3, 1] - out[0, 1], out[2, 1] - out[1, 1]
        assert 0.6 <= min(left, right) / max(left, right) <= 0.8


def test_one_block_closes_every_gap_of_the_hand_row_and_keeps_an_added_kans_top_on_its_base():
    # make_eval --one-block: two concealed tiles, the winning tile half a tile apart, then an added kan (its
    # sideways base and the top lying on it) and a plain tile, gaps between; the dora row above is not moved.
    # Pushed together (st.gap 1): x = 0, TW + 1, 2 (TW + 1), then the base and its top at 3 (TW + 1), and the
    # last tile one sideways tile (TH + 1) further
    from training.scenes import TH, TW, Placed, Style, _close_gaps

    st = Style(body=(250, 250, 240), back=(0, 120, 60), styles=["x"], thickness=0.3, layer=0.5, radius=0.1, gap=1.0)
    placed = [Placed("1m", 0, 0, False, 1, 0, "concealed"), Placed("2m", TW + 1, 0, False, 1, 0, "concealed"),
              Placed("3m", 2.6 * TW, 0, False, 1, 1, "win"),
              Placed("5z", 4.2 * TW, TH - TW, True, 1, 2, "meld", "kakan"),
              Placed("5z", 4.2 * TW, TH - 2 * TW, True, 1, 2, "meld", "kakan"),
              Placed("5z", 4.2 * TW + TH + 1, 0, False, 1, 2, "meld", "kakan"),
              Placed("7z", 10 * TW, 0, False, 1, 3, "meld", "pon"),
              Placed("9p", 0.5 * TW, -2 * TH, False, 0, 0, "dora")]
    _close_gaps(placed, st)
    step = TW + 1
    assert [p.x for p in placed] == [0, step, 2 * step, 3 * step, 3 * step, 3 * step + TH + 1,
                                     4 * step + TH + 1, 0.5 * TW]


def test_things_drawn_beside_the_tiles_leave_every_tile_as_it_was_and_no_window_on_a_tile():
    # the verifier's scenes: sticks, dice, coins, print and lettering go beside the tiles, never into a tile's
    # box (or the edge below it), and no window that teaches "no tile" has its centre near a tile
    from training.scenes import draw_distractors

    fonts = fonts_or_skip()
    rng = np.random.default_rng(3)
    boxes = [(100.0 + 40 * i, 200.0, 138.0 + 40 * i, 251.0) for i in range(8)]
    changed = False
    for _ in range(10):
        img = np.full((480, 640, 3), 90, np.uint8)
        before = img.copy()
        windows = draw_distractors(rng, img, boxes, fonts)
        changed |= bool((img != before).any())
        for x1, y1, x2, y2 in boxes:
            assert (img[int(y1):int(y2 + 0.7 * 38), int(x1):int(x2)] == 90).all()
        for (x1, y1, x2, y2), _side in windows:
            cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
            assert all(not (b[0] - 34 < cx < b[2] + 34 and b[1] - 34 < cy < b[3] + 34) for b in boxes)
    assert changed


def test_training_reads_its_scenes_and_calibrates_with_the_usual_pair_where_the_one_net_is_shipped(
        monkeypatch, tmp_path: Path):
    # the orienter's and the verifier's scenes are read, and the int8 classifiers calibrated on crops found, by
    # "localiser" and "localiser-b" even where "localiser-one" reads in their place at run time
    # (pipeline.localisers(one=False)): what those recipes make stays what they made with the pair
    from companion.vision import pipeline
    from training import quantize, train
    from training.scenes import TileLabel

    for name in ("localiser", "localiser-b", "localiser-one"):
        (tmp_path / f"{name}.onnx").write_bytes(b"")
    monkeypatch.setattr(pipeline, "MODELS_DIR", tmp_path)
    ran: list = []
    monkeypatch.setattr(pipeline, "run_nets", lambda names, feed: ran.append(names) or [np.zeros((1, 4, 2, 2))])
    monkeypatch.setattr(pipeline, "decode_maps", lambda *a, **kw: [])

    def scene(rng, bank, styles, **kwargs):  # noqa: ANN001, ANN003, ANN202
        quad = np.array([[150, 100], [190, 100], [190, 160], [150, 160]], np.float32)
        return np.full((300, 400, 3), 200, np.uint8), [TileLabel("1m", quad, False, 0, 0, "concealed")]

    monkeypatch.setattr("training.scenes.render_scene", scene)
    monkeypatch.setattr(train, "_BANK", type("Bank", (), {"styles": lambda self: ["a"]})())
    monkeypatch.setattr(train, "_VERIFY_MODELS", str(tmp_path))
    train.gen_orient_chunk((5, 2))
    assert ran == [["localiser", "localiser-b"]] * 2
    looked: list = []
    monkeypatch.setattr(pipeline, "localise", lambda image, verify=True, nets=None: looked.append(nets) or [])
    with pytest.raises(SystemExit):  # no tile found: nothing to calibrate on
        quantize.classifier_batches([np.zeros((30, 40, 3), np.uint8)])
    assert looked == [["localiser", "localiser-b"]]
    assert pipeline.localisers() == ["localiser-one"]


def test_the_orienters_crops_stand_the_right_way_up_whichever_way_their_scene_was_turned(monkeypatch):
    # gen_orient_chunk turns half of its scenes upside down and turns their crops back: every crop it gives is
    # the right way up, here a tile dark in its upper half on a light table; sideways tiles give no crop
    from training import train
    from training.scenes import TileLabel

    def scene(rng, bank, styles, **kwargs):  # noqa: ANN001, ANN003, ANN202
        img = np.full((300, 400, 3), 200, np.uint8)
        img[100:130, 150:190] = 20  # the upper half of a tile 40 x 60
        img[130:160, 150:190] = 120
        quad = np.array([[150, 100], [190, 100], [190, 160], [150, 160]], np.float32)
        side = np.array([[250, 100], [310, 100], [310, 140], [250, 140]], np.float32)
        return img, [TileLabel("1m", quad, False, 0, 0, "concealed"), TileLabel("2m", side, True, 0, 1, "meld")]

    monkeypatch.setattr("training.scenes.render_scene", scene)
    monkeypatch.setattr(train, "_BANK", type("Bank", (), {"styles": lambda self: ["a"]})())
    monkeypatch.setattr(train, "_VERIFY_MODELS", None)
    crops = train.gen_orient_chunk((5, 12))["crops"]
    assert len(crops) == 12
    half = crops.shape[1] // 2
    upper, lower = crops[:, :half].mean(axis=(1, 2, 3)), crops[:, half:].mean(axis=(1, 2, 3))
    assert (upper < lower - 40).all()  # (12 scenes of seed 5: some were turned, or this would not test much)


def test_make_eval_sticks_and_print_draw_beside_the_tiles_only():
    # make_eval --sticks and --print: something is drawn on the table, and a tile's box (with the edge below it)
    # keeps its pixels (the print exactly; the sticks' photo is softened by a 3 x 3 blur, a flat tile stays flat)
    from training.make_eval import printed_mat, sticks_and_dice

    boxes = [(200.0 + 40 * i, 200.0, 238.0 + 40 * i, 251.0) for i in range(8)]
    for draw in (printed_mat, sticks_and_dice):
        drawn = False
        for seed in range(5):
            img = np.full((480, 800, 3), 60, np.uint8)
            for x1, y1, x2, y2 in boxes:
                img[int(y1):int(y2), int(x1):int(x2)] = 230
            out = draw(np.random.default_rng(seed), img, boxes)
            drawn |= bool((np.abs(out.astype(int) - img).max(axis=-1) > 100).any())
            for x1, y1, x2, y2 in boxes:
                inside = (slice(int(y1) + 1, int(y2) - 1), slice(int(x1) + 1, int(x2) - 1))
                assert (out[inside] == img[inside]).all(), draw.__name__
        assert drawn, draw.__name__


def _redness(face: np.ndarray) -> float:
    ink = face[..., 3] > 128
    rgb = face[..., :3].astype(float)[ink]
    return float((rgb[:, 0] - rgb[:, 1:].max(axis=1)).mean())


def test_red_fives_are_red_in_every_kind_of_set_even_one_ink_sets():
    # a red five (akadora) is told from the plain five by its red ink (tile list: 0m/0p/0s); a one-ink set
    # drawing its red five in that ink would teach the classifier two labels for one picture
    from training.faces import Palette, VariedPalette, WidePalette, draw_man, draw_pin, draw_sou

    font = fonts_or_skip()[0]
    one_ink_seen = False
    for kind in (Palette, VariedPalette, WidePalette):
        rng = np.random.default_rng(2)
        for _ in range(12):
            pal = kind(rng)
            one_ink_seen |= pal.red == pal.dark == pal.green
            pairs = [(draw_man(pal, font, 5, red), draw_pin(pal, 5, red), draw_sou(pal, 5, red)) for red in (True, False)]
            for red_five, five in zip(*pairs, strict=True):
                assert _redness(red_five) > _redness(five) + 20
    assert one_ink_seen


def _classes_redrawn(before, after) -> set[str]:
    """The classes of which some face of some style differs between two FaceBanks of the same styles."""
    return {cls for style in before.styles() for cls, drawn in before.faces[style].items()
            if not all(np.array_equal(a, b) for a, b in zip(drawn, after.faces[style][cls], strict=True))}


def _banks_asked_for(monkeypatch, flag: str) -> list:
    """What train._init gives build_bank as ``flag``, without it and with it set."""
    from training import train

    given = []
    monkeypatch.setattr(train, "build_bank", lambda *a, **kw: given.append(kw.get(flag)))
    train._init(3, 2)
    train._init(3, 2, **{flag: True})
    return given


def test_a_stage_hands_each_of_its_scene_settings_to_generate_under_its_own_name(tmp_path, monkeypatch):
    # run_recipe passes the scene settings (train.SCENE_KEYS) to generate() by position: the eights stage's, as its
    # recipe and CLS_SCENES / ONE_LABELS set them, arrive under generate's names for them
    import inspect

    from training import train

    got: dict = {}
    fake = {"loc": np.zeros((1, 3, 4, 4), np.uint8), "targets": [], "crops": np.zeros((1, 64, 48, 3), np.uint8),
            "ys": np.zeros(1, np.int64)}
    takes = inspect.signature(train.generate)
    monkeypatch.setattr(train, "generate", lambda *args, **kw: got.update(takes.bind(*args, **kw).arguments) or fake)
    monkeypatch.setattr(train, "train_classifier", lambda *args, **kw: None)
    (tmp_path / "classifier-one.pt").write_bytes(b"")
    train.run_recipe("eights", {**train.DEFAULTS, **train.RECIPES["eights"]}, tmp_path, 1, {})
    assert got == {"seed": 18, "n_scenes": 3000, "n_proc_styles": 80, "workers": 1, "n_varied": 40, "n_wide": 80,
                   "far": 0.0, "clutter": 0.0, "n_maroon": 40, "flower_art": False, "apart": True, "low": 0.0,
                   "yaw": 0.3, "sides": 0.0, "wear": 0.0, "turned": 0.0, "big_pins": True, "whole_eights": True,
                   "brush": 0}
    got.clear()
    train.run_recipe("brush", {**train.DEFAULTS, **train.RECIPES["brush"]}, tmp_path, 1, {})
    assert got.pop("brush") == 40 and got.pop("seed") == 26  # the eights stage's scenes with 40 brush sets more
    assert got == {"n_scenes": 3000, "n_proc_styles": 80, "workers": 1, "n_varied": 40, "n_wide": 80,
                   "far": 0.0, "clutter": 0.0, "n_maroon": 40, "flower_art": False, "apart": True, "low": 0.0,
                   "yaw": 0.3, "sides": 0.0, "wear": 0.0, "turned": 0.0, "big_pins": True, "whole_eights": True}


def test_generate_hands_its_workers_bank_every_kind_of_set_it_is_asked_for(monkeypatch):
    # generate() passes its settings to each worker's _init by position: the bank gets them under their own names
    from training import train

    banked: dict = {}

    class InProcess:  # multiprocessing.Pool's part that generate uses, run here
        def __init__(self, workers, initializer, initargs):
            initializer(*initargs)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def map(self, fn, jobs):
            return [fn(job) for job in jobs]

    fake = {"loc": np.zeros((1, 3, 4, 4), np.uint8), "targets": [], "crops": np.zeros((1, 64, 48, 3), np.uint8),
            "ys": np.zeros(1, np.int64)}
    monkeypatch.setattr(train, "Pool", InProcess)
    monkeypatch.setattr(train, "check_inputs", lambda: None)
    monkeypatch.setattr(train, "brush_fonts", lambda: [])
    monkeypatch.setattr(train, "build_bank", lambda seed, **kw: banked.update(seed=seed, **kw))
    monkeypatch.setattr(train, "gen_chunk", lambda job: fake)
    train.generate(5, 10, 7, 1, n_varied=2, n_wide=3, n_maroon=4, flower_art=True, apart=True, big_pins=True,
                   whole_eights=True, brush=6)
    assert banked == {"seed": 5, "n_procedural": 7, "with_uni": False, "n_varied": 2, "n_wide": 3, "n_maroon": 4,
                      "flower_art": True, "apart": True, "big_pins": True, "whole_eights": True, "n_brush": 6}


def test_big_pins_draws_the_two_and_three_of_circles_larger_and_nothing_else(banks, monkeypatch):
    # train --big-pins (the pins stage): most real sets print the two of circles as two circles about half the
    # tile wide; the procedural sets drew them at a third. With big_pins their two and three are drawn from that
    # size up to faces.BIG_PIN_RADIUS, each from the draw the usual size takes, so every other face stays as it was
    from training import faces, train
    from training.faces import BIG_PIN_RADIUS, FACE_W, PIN_RADIUS, build_bank

    _, widened = banks
    big = build_bank(3, n_procedural=2, with_uni=False, n_varied=1, n_wide=2, n_maroon=2, big_pins=True)
    assert big.styles() == widened.styles()
    changed = _classes_redrawn(widened, big)
    assert changed == {"2p", "3p"}

    def ink_width(face: np.ndarray) -> int:  # the columns the circles' ink covers
        return int((face[..., 3] > 128).any(axis=0).sum())

    procedural = [s for s in widened.styles() if s.startswith("proc")]
    for n in (2, 3):
        before = [ink_width(widened.faces[s][f"{n}p"][0]) for s in procedural]
        after = [ink_width(big.faces[s][f"{n}p"][0]) for s in procedural]
        assert np.mean(after) > np.mean(before) + 0.1 * FACE_W * (BIG_PIN_RADIUS[n] - PIN_RADIUS[n])
        assert max(after) <= FACE_W  # on the face
    assert max(ink_width(big.faces[s]["2p"][0]) for s in procedural) >= 2 * 0.22 * FACE_W  # half the width, near
    assert BIG_PIN_RADIUS[2] * FACE_W <= 0.5 * 0.414 * faces.FACE_H  # the two circles do not overlap (PIN_LAYOUT)

    assert _banks_asked_for(monkeypatch, "big_pins") == [False, True]
    recipe = train.RECIPES["pins"]
    assert recipe == {**train.ONE_LABELS, "seed": 12, "big_pins": True} and train.OUTPUTS["pins"] == "classifier-one"
    assert train.CONTINUES["pins"] == "classifier-one.pt" and "pins" in train.OPTIONAL


def test_whole_eights_outlines_the_eight_of_bamboos_middle_sticks_where_the_set_outlines_its_sticks(banks,
                                                                                                   monkeypatch):
    # train --whole-eights (the eights stage): a set that draws its bamboo sticks as outlines (sou_style 1 and 3)
    # drew its eight's four leaning middle sticks filled, unlike any real set, and the held-out drawings' outlined
    # eight was the commonest misread (as 4p). With whole_eights they are drawn as the set draws its upright sticks;
    # nothing else changes, and every other face of every set stays as it was
    from training import train
    from training.faces import VariedPalette, build_bank, draw_sou

    _, widened = banks
    whole = build_bank(3, n_procedural=2, with_uni=False, n_varied=1, n_wide=2, n_maroon=2, whole_eights=True)
    changed = _classes_redrawn(widened, whole)
    assert changed == {"8s"}

    def middle_ink(sou_style: int, whole_eights: bool) -> int:  # the upper middle sticks' inked pixels
        pal = VariedPalette(np.random.default_rng(1))
        pal.sou_style, pal.whole_eights = sou_style, whole_eights
        alpha = draw_sou(pal, 8, False)[..., 3] > 128
        h, w = alpha.shape
        return int(alpha[int(0.1 * h):int(0.45 * h), int(0.3 * w):int(0.7 * w)].sum())

    for outlined in (1, 3):
        assert middle_ink(outlined, True) < 0.6 * middle_ink(outlined, False)
    assert 0.9 < middle_ink(0, True) / middle_ink(0, False) < 1.1  # filled sticks stay filled

    assert _banks_asked_for(monkeypatch, "whole_eights") == [False, True]
    assert train.RECIPES["eights"] == {**train.RECIPES["pins"], "seed": 18, "whole_eights": True}
    assert train.OUTPUTS["eights"] == "classifier-one" and "eights" in train.OPTIONAL


def test_fives_apart_leaves_no_set_printing_its_plain_fives_in_a_reddish_ink():
    # faces.fives_apart (train --fives-apart, the reds stage). A one-ink set of dark red (140, 20, 25) drew its
    # plain fives nearly as red as its red fives (200, 25, 30): 115 points of redness (red less the larger of
    # green and blue) against 170. Such a set is drawn in blue, red and blue swapped: (25, 20, 140). The ink of
    # every one-ink set then has less than 20 points of redness (black, navy, green, teal: below 0 before the
    # jitter of up to 25; brown (95, 55, 25): 40 before, swapped -70); the sets of several inks, whose numerals
    # are in black, navy or blue, and the rest keep every colour; and it draws no random number
    from training.faces import Palette, VariedPalette, WidePalette, fives_apart

    pal = Palette(np.random.default_rng(0))
    pal.dark = pal.red = pal.green = pal.blue = pal.wind = pal.man_top = (140, 20, 25, 255)
    fives_apart(pal)
    assert pal.man_top == pal.dark == pal.red == pal.green == pal.blue == pal.wind == (25, 20, 140, 255)
    turned = 0
    for kind in (Palette, VariedPalette, WidePalette):
        rng = np.random.default_rng(4)
        for _ in range(60):
            pal = kind(rng)
            before, state = dict(vars(pal)), rng.bit_generator.state
            fives_apart(pal)
            assert rng.bit_generator.state == state
            if before["dark"] is before["red"]:
                assert pal.man_top[0] - max(pal.man_top[1:3]) < 20, before["man_top"]
            if vars(pal) != before:
                turned += 1
                assert before["dark"] is before["red"]  # a one-ink set
                assert [k for k in before if before[k] != vars(pal)[k]] == ["dark", "red", "green", "blue", "wind",
                                                                            "man_top"]
    assert turned >= 2


def test_the_reds_stage_is_the_glare_stage_on_sets_with_their_fives_apart():
    from training.train import CONTINUES, DEFAULTS, GLARE, OPTIONAL, OUTPUTS, RECIPES

    reds, glare = {**DEFAULTS, **RECIPES["reds"]}, {**DEFAULTS, **GLARE}
    assert reds["apart"] and not glare["apart"]
    assert {k: v for k, v in reds.items() if k != "apart"} == {k: v for k, v in glare.items() if k != "apart"}
    assert OUTPUTS["reds"] == "classifier" and CONTINUES["reds"] == "classifier.pt" and "reds" not in OPTIONAL
    # the whole command runs it after the two glare passes, and the phone and shake stages after it (the shipped
    # first classifier's chain), then the low stage, which writes the classifier's low-angle twin beside it
    stages = [name for name in RECIPES if name not in OPTIONAL]
    assert stages[:7] == ["cls", "glare", "glare2", "reds", "phone", "shake", "low"]


def test_the_low_stage_is_the_shake_stage_with_low_angle_scenes_and_writes_the_classifiers_twin():
    # since session 37 the shipped classifiers each have a low-angle twin, which reads the crops of the low-angle
    # localisers' reads (pipeline.classifiers(low=True)): the shake stage's settings with 80% of the scenes seen
    # from a low angle, continuing the classifier in --out and written beside it, never over it
    import json

    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES

    low, shake = ({**DEFAULTS, **RECIPES[n]} for n in ("low", "shake"))
    assert low["low"] == 0.8 and shake["low"] == 0.0  # 0.4 read 7 requests fewer over the card's 50 sets
    assert {k: v for k, v in low.items() if k != "low"} == {k: v for k, v in shake.items() if k != "low"}
    assert OUTPUTS["low"] == "classifier-low" and CONTINUES["low"] == "classifier.pt" and "low" not in OPTIONAL
    # the shipped twins were made by it, from the shipped classifiers
    models = Path(__file__).resolve().parents[1] / "models"
    keys = {"seed": "seed", "scenes": "scenes", "styles": "procedural_styles", "varied": "varied_styles",
            "wide": "wide_styles", "maroon": "maroon_styles", "low_res": "low_res", "glare": "glare",
            "phone": "phone", "shake": "shake", "low": "low", "apart": "fives_apart", "lr": "lr",
            "cls_steps": "cls_steps"}
    for record, shipped_as, init in (("train-low.json", "classifier-low", "classifier"),
                                     ("train-low-b.json", "classifier-b-low", "classifier-b")):
        shipped = json.loads((models / record).read_text())
        # since session 51 the two teach the one twin shipped (the low-student stage, below)
        assert shipped["recipe"] == "low" and shipped["shipped_as"] == f"{shipped_as} until session 51"
        assert shipped["init"].startswith(f"models/{init}.pt") and "train-low-student.json" in shipped["taught"]
        for ours, theirs in keys.items():
            assert low[ours] == shipped[theirs], (record, ours)


def test_the_shipped_low_angle_twin_learnt_the_mean_of_both_twins_on_the_low_stages_settings():
    # the low-student stage: the low stage's settings on scenes of their own (seed 6), continuing classifier-low in
    # --out and learning, besides the labels, the mean of the two twins' probabilities; optional, since the whole
    # command makes no classifier-b-low; the shipped twin is its, and reads alone (pipeline.classifiers)
    import json

    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES

    student, low = ({**DEFAULTS, **RECIPES[n]} for n in ("low-student", "low"))
    assert student["teachers"] == ("classifier-low.pt", "classifier-b-low.pt") and low["teachers"] == ()
    assert {k: v for k, v in student.items() if k not in ("teachers", "seed")} == \
        {k: v for k, v in low.items() if k not in ("teachers", "seed")}
    assert (student["seed"], low["seed"]) == (6, 4)
    assert OUTPUTS["low-student"] == "classifier-low" and CONTINUES["low-student"] == "classifier-low.pt"
    assert "low-student" in OPTIONAL
    models = Path(__file__).resolve().parents[1] / "models"
    shipped = json.loads((models / "train-low-student.json").read_text())
    assert shipped["recipe"] == "low-student" and shipped["shipped_as"] == "classifier-low"
    assert shipped["teachers"] == list(student["teachers"]) and shipped["seed"] == 6
    assert not (models / "classifier-b-low.onnx").exists() and (models / "classifier-low.pt").exists()


def test_the_usual_classifiers_student_stage_is_the_yaw_stages_recipe_learning_the_pairs_mean():
    # the student stage (session 57): the yaw stage's settings (the shipped first classifier's last) on 4000 scenes
    # of its own (seed 7) for 3500 steps, continuing classifier in --out and learning besides the labels the mean of
    # the usual pair's probabilities, written apart from the pair as classifier-one (the file the pipeline reads in
    # the pair's place, pipeline.ONE_CLASSIFIER); optional since it needs the pair in --out
    import json

    from companion.vision.pipeline import ONE_CLASSIFIER
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES

    student, yaw = ({**DEFAULTS, **RECIPES[n]} for n in ("student", "yaw"))
    assert student["teachers"] == ("classifier.pt", "classifier-b.pt") and yaw["teachers"] == ()
    different = ("teachers", "seed", "scenes", "cls_steps")
    assert {k: v for k, v in student.items() if k not in different} == \
        {k: v for k, v in yaw.items() if k not in different}
    assert (student["seed"], student["scenes"], student["cls_steps"]) == (7, 4000, 3500)
    assert OUTPUTS["student"] == ONE_CLASSIFIER == "classifier-one"
    assert CONTINUES["student"] == "classifier.pt" and "student" in OPTIONAL
    # the shipped one net is its (the run of session 57), beside the pair that taught it
    models = Path(__file__).resolve().parents[1] / "models"
    shipped = json.loads((models / "train-student.json").read_text())
    assert shipped["recipe"] == "student" and shipped["shipped_as"] == ONE_CLASSIFIER
    for ours, theirs in {"seed": "seed", "scenes": "scenes", "cls_steps": "cls_steps", "lr": "lr", "yaw": "yaw",
                         "phone": "phone", "shake": "shake", "glare": "glare", "apart": "fives_apart"}.items():
        assert shipped[theirs] == student[ours], ours
    assert shipped["teachers"] == list(student["teachers"])
    assert all((models / f"{name}.pt").exists() for name in (ONE_CLASSIFIER, "classifier", "classifier-b"))


@pytest.mark.parametrize(("stage", "given", "missing"), [("low-student", "classifier-low.pt", "classifier-b-low.pt"),
                                                     ("loc-low-student", "localiser-low.onnx", "localiser-b-low.onnx"),
                                                     ("student", "classifier.pt", "classifier-b.pt")])
def test_a_student_stage_without_its_teachers_in_out_says_what_to_put_there(tmp_path: Path, stage: str, given: str,
                                                                            missing: str):
    from training.train import DEFAULTS, RECIPES, run_recipe

    models = Path(__file__).resolve().parents[1] / "models"
    (tmp_path / given).write_bytes((models / given).read_bytes())
    with pytest.raises(SystemExit, match=f"{missing} is not there"):
        run_recipe(stage, {**DEFAULTS, **RECIPES[stage]}, tmp_path, 1)


def test_the_mean_teacher_gives_the_mean_of_its_nets_probabilities_at_the_distillation_temperature():
    torch = pytest.importorskip("torch")
    from training.train import DISTIL_T, mean_teacher

    gen = torch.Generator().manual_seed(3)
    a, b = (torch.nn.Linear(5, 4) for _ in range(2))
    x = torch.randn(6, 5, generator=gen)
    soft = torch.softmax(mean_teacher([a, b])(x) / DISTIL_T, dim=1)
    # by hand: each net's softmax at the temperature, then their mean
    expected = (torch.softmax(a(x) / DISTIL_T, dim=1) + torch.softmax(b(x) / DISTIL_T, dim=1)) / 2
    assert torch.allclose(soft, expected, atol=1e-6)
    assert not torch.allclose(soft, torch.softmax((a(x) + b(x)) / 2 / DISTIL_T, dim=1), atol=1e-3)  # not the logits'


def test_the_low_angle_localisers_student_stage_is_the_pairs_recipe_learning_their_mean_maps():
    # the loc-low-student stage (session 52; shipped in session 54 for hand photos): the low-angle pair's settings
    # (loc-b-low's clutter halved) on scenes of their own (seed 22), continuing localiser-low in --out and learning,
    # besides the labels, the mean of the pair's maps, written beside the pair as localiser-low-hand (the file the
    # pipeline reads hands with, pipeline.LOW_HAND); optional, since it needs the pair in --out
    import json

    from companion.vision.pipeline import LOW_HAND
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES

    student, low, low_b = ({**DEFAULTS, **RECIPES[n]} for n in ("loc-low-student", "loc-low", "loc-b-low"))
    assert student["teachers"] == ("localiser-low.onnx", "localiser-b-low.onnx") and low["teachers"] == ()
    assert {k: v for k, v in student.items() if k not in ("teachers", "seed", "clutter")} == \
        {k: v for k, v in low.items() if k not in ("teachers", "seed", "clutter")}
    assert (student["seed"], low["seed"]) == (22, 21) and student["clutter"] == low_b["clutter"] / 2
    assert OUTPUTS["loc-low-student"] == LOW_HAND == "localiser-low-hand"
    assert CONTINUES["loc-low-student"] == "localiser-low.onnx" and "loc-low-student" in OPTIONAL
    models = Path(__file__).resolve().parents[1] / "models"
    shipped = json.loads((models / "train-loc-low-student.json").read_text())
    assert shipped["recipe"] == "loc-low-student" and shipped["shipped_as"] == LOW_HAND
    for key in ("seed", "clutter", "loc_steps", "lr", "low"):
        assert shipped[key] == student[key], key
    assert shipped["teachers"] == list(student["teachers"])
    assert all((models / f"{name}.onnx").exists() for name in (LOW_HAND, "localiser-low", "localiser-b-low"))


def test_the_usual_localisers_student_stage_is_the_first_ones_recipe_learning_the_pairs_mean_maps():
    # the loc-student stage (session 54; shipped in session 55): the usual localisers' settings (loc-b's clutter
    # halved, no low-angle scenes) on twice their scenes of its own (seed 24), continuing localiser in --out at the
    # low-angle stages' rate for 4000 steps, learning besides the labels the mean of the usual pair's maps; written
    # apart from the pair as localiser-one (the file the pipeline reads in the pair's place,
    # pipeline.ONE_LOCALISER); optional since it needs the pair in --out
    import json

    from companion.vision.pipeline import ONE_LOCALISER
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES

    student, loc, loc_b, low_student = ({**DEFAULTS, **RECIPES[n]}
                                        for n in ("loc-student", "loc", "loc-b", "loc-low-student"))
    assert student["teachers"] == ("localiser.onnx", "localiser-b.onnx") and loc["teachers"] == ()
    assert student["low"] == loc["low"] == 0.0 and student["clutter"] == loc_b["clutter"] / 2
    assert (student["seed"], student["scenes"], student["loc_steps"]) == (24, 2 * loc["scenes"], 4000)
    assert student["lr"] == low_student["lr"]
    assert OUTPUTS["loc-student"] == ONE_LOCALISER == "localiser-one"
    assert CONTINUES["loc-student"] == "localiser.onnx" and "loc-student" in OPTIONAL
    models = Path(__file__).resolve().parents[1] / "models"
    shipped = json.loads((models / "train-loc-student.json").read_text())
    assert shipped["recipe"] == "loc-student" and shipped["shipped_as"] == ONE_LOCALISER
    for key in ("seed", "scenes", "clutter", "loc_steps", "lr", "low", "sides"):
        assert shipped[key] == student[key], key
    assert shipped["teachers"] == list(student["teachers"])
    assert all((models / f"{name}.onnx").exists() for name in (ONE_LOCALISER, "localiser", "localiser-b"))


def test_a_localisers_teacher_loss_is_how_far_its_maps_lie_from_the_teachers_mean():
    torch = pytest.importorskip("torch")
    import math

    from training.train import teacher_loss

    ln3 = math.log(3.0)
    # two cells: in the first the teachers' mean heat logits are ln 3 and -ln 3 (0.75 and 0.25) and the net's 0
    # and 0 (0.5 each), its sizes (1, 2) against (1.5, 2); in the second the net gives what the teachers give
    mean = torch.tensor([[[[ln3, ln3]], [[-ln3, 0.0]], [[1.5, 0.2]], [[2.0, 0.3]]]])
    maps = torch.tensor([[[[0.0, ln3]], [[0.0, 0.0]], [[1.0, 0.2]], [[2.0, 0.3]]]])
    assert float(teacher_loss(mean, mean, torch.tensor(2.0))) == pytest.approx(0.0, abs=1e-6)
    # by hand: each of the first cell's two heats costs ln 2 - H(0.75) = ln 2 + 0.75 ln 0.75 + 0.25 ln 0.25 (the
    # cross-entropy less the teachers' own), over norm 2; the size costs 0.5 at the first cell's weight 0.75 (its
    # hotter channel), over the weights' sum 1.5 (0.75 each), twice
    heat = math.log(2.0) + 0.75 * math.log(0.75) + 0.25 * math.log(0.25)
    expected = 2 * heat / 2 + 2.0 * (0.5 * 0.75 / 1.5)
    assert float(teacher_loss(maps, mean, torch.tensor(2.0))) == pytest.approx(expected, abs=1e-5)


def test_the_yaw_stage_is_the_shake_stage_with_scenes_seen_from_one_side_after_the_twin():
    # since session 47 the shipped first classifier went through it (TRAINING-LOG "Crops seen from one side"):
    # the shake stage's settings with 30% of the scenes seen from one side, continuing the classifier after the
    # low stage has made its twin from it (so the twins stay what the shake stage's classifier gave)
    import json

    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES, YAW

    yaw, shake = ({**DEFAULTS, **RECIPES[n]} for n in ("yaw", "shake"))
    assert yaw["yaw"] == 0.3 and shake["yaw"] == 0.0 and YAW == (0.6, 0.9)
    assert {k: v for k, v in yaw.items() if k != "yaw"} == {k: v for k, v in shake.items() if k != "yaw"}
    assert OUTPUTS["yaw"] == "classifier" and CONTINUES["yaw"] == "classifier.pt" and "yaw" not in OPTIONAL
    stages = [name for name in RECIPES if name not in OPTIONAL]
    assert stages.index("yaw") == stages.index("low") + 1
    shipped = json.loads((Path(__file__).resolve().parents[1] / "models" / "train-yaw.json").read_text())
    assert shipped["recipe"] == "yaw" and shipped["shipped_as"] == "classifier"
    assert shipped["init"].startswith("models/classifier.pt")
    keys = {"seed": "seed", "scenes": "scenes", "styles": "procedural_styles", "varied": "varied_styles",
            "wide": "wide_styles", "maroon": "maroon_styles", "low_res": "low_res", "glare": "glare",
            "phone": "phone", "shake": "shake", "low": "low", "yaw": "yaw", "apart": "fives_apart", "lr": "lr",
            "cls_steps": "cls_steps"}
    for ours, theirs in keys.items():
        assert yaw[ours] == shipped[theirs], ours


def _scenes_with_and_without(monkeypatch, given: str, **share: float) -> tuple[list, dict, dict]:
    """What render_scene was given as ``given`` for three scenes of a chunk made without a share and three made
    with ``share`` (train._init's keyword), and the two chunks."""
    from training import scenes, train

    asked = []
    render = scenes.render_scene
    monkeypatch.setattr(scenes, "render_scene", lambda *a, **kw: asked.append(kw.get(given)) or render(*a, **kw))
    train._init(3, 2)
    plain = train.gen_chunk((11, 3))
    train._init(3, 2, **share)
    shared = train.gen_chunk((11, 3))
    train._init(3, 2)
    return asked, plain, shared


def test_scenes_seen_from_one_side_come_only_where_a_share_is_asked_for(banks, monkeypatch):
    # train --yaw: that share of the scenes is photographed from one side (YAW); with none asked for no draw is
    # made for it, so a seed's scenes are the ones it always made and every other recipe's scenes stay as before
    from training import train

    asked, plain, sided = _scenes_with_and_without(monkeypatch, "yaw", yaw=1.0)
    assert asked == [None] * 3 + [train.YAW] * 3
    assert not np.array_equal(plain["loc"], sided["loc"])


def test_camera_turned_scenes_come_only_where_a_share_is_asked_for(banks, monkeypatch):
    # train --turned: that share of the scenes is taken by a camera turned 9-30 degrees either way (TURNED); with
    # none asked for, no draw is made for it, so every other recipe's scenes stay as they were
    from companion.vision.pipeline import ONE_LOCALISER, row_angle
    from training import train

    asked, plain, turned = _scenes_with_and_without(monkeypatch, "tilt", turned=1.0)
    assert asked == [None] * 3 + [train.TURNED] * 3 and train.TURNED == (9.0, 30.0)
    assert not np.array_equal(plain["loc"], turned["loc"])

    def slant(targets: list) -> float:  # the labelled tiles' rows, measured as the pipeline measures them
        return abs(row_angle([(box, sideways, 1.0) for box, sideways, _ in targets]))

    assert all(slant(t) < 9.5 for t in plain["targets"])
    assert all(slant(t) > 8.5 for t in turned["targets"])
    recipe = train.RECIPES["loc-turned"]
    assert recipe["turned"] == 0.5 and train.OUTPUTS["loc-turned"] == "localiser-one" == ONE_LOCALISER
    assert train.CONTINUES["loc-turned"] == "localiser-one.onnx" and "loc-turned" in train.OPTIONAL


def test_sides_as_the_angle_shows_them_come_only_where_a_share_is_asked_for(banks, monkeypatch):
    # train --sides: that share of the scenes, at the usual angles (no pitch given), has the tiles' front sides as
    # high as the camera's angle shows them (render_scene's sides_rng) instead of the style's band; with none asked
    # for, no draw is made for it
    from training import scenes, train

    asked = []
    render = scenes.render_scene
    monkeypatch.setattr(scenes, "render_scene",
                        lambda *a, **kw: asked.append(("pitch" in kw, kw.get("sides_rng") is not None))
                        or render(*a, **kw))
    train._init(3, 2)
    plain = train.gen_chunk((11, 3))
    train._init(3, 2, sides=1.0)
    sided = train.gen_chunk((11, 3))
    train._init(3, 2)
    assert asked == [(False, False)] * 3 + [(False, True)] * 3
    assert not np.array_equal(plain["loc"], sided["loc"])


def test_fill_sets_how_much_of_the_width_the_tiles_take(banks):
    # make_eval --fill / train --far: scenes photographed from further away. The tiles' labelled boxes
    # span at most the share asked for (the layout is fitted to fill*width, or less where it is tall)
    from training.scenes import render_scene

    plain, _ = banks
    for lo, hi in ((0.25, 0.3), (0.9, 0.96)):
        rng = np.random.default_rng(5)
        img, labels = render_scene(rng, plain, plain.styles(), out_size=(1200, 900), hand=True, fill=(lo, hi))
        xs = [x for lb in labels for x in (lb.box[0], lb.box[2])]
        span = (max(xs) - min(xs)) / img.shape[1]
        assert span <= hi + 0.05, (lo, hi, span)
        if hi < 0.5:
            assert span < 0.4
    # the default is the range the training photos were drawn with, so earlier seeds give the same photos
    a, _ = render_scene(np.random.default_rng(6), plain, plain.styles(), out_size=(640, 480), hand=True)
    b, _ = render_scene(np.random.default_rng(6), plain, plain.styles(), out_size=(640, 480), hand=True,
                        fill=(0.55, 0.96))
    assert np.array_equal(a, b)


def test_tiles_laid_by_hand_are_turned_a_little_and_pushed_apart_never_onto_each_other():
    # make_eval --loose: each tile turned by at most the degrees given, moved off its row's line by at most 6% of a
    # tile's height, and the tiles right of a turned one pushed along, so that in a row of touching tiles (no gap)
    # no turned tile reaches into the next one's width
    from training.scenes import TH, TW, _laid_by_hand, _turned, hand_layout, make_style

    degrees = 6.0
    for seed in range(8):
        rng = np.random.default_rng(seed)
        st = make_style(rng, ["x"])
        st.gap = 0.0
        placed = hand_layout(rng, st, winning=True)
        before = {id(p): (p.x, p.y) for p in placed}
        turns = _laid_by_hand(np.random.default_rng(100 + seed), placed, degrees)
        assert set(turns) == set(before)
        assert all(abs(a) <= degrees for a in turns.values())
        assert max(abs(a) for a in turns.values()) > degrees / 3  # they are turned
        for p in placed:
            assert abs(p.y - before[id(p)][1]) <= 0.06 * TH + 1e-9
            assert p.x >= before[id(p)][0]  # pushed right, never left
        hand = sorted((p for p in placed if p.row == 1), key=lambda p: p.x)
        spans = {}
        for p in hand:  # an added kan's two tiles lie at one place: one span
            w, h = (TH, TW) if p.sideways else (TW, TH)
            corners = _turned((p.x, p.y, w, h), (p.x + w / 2, p.y + h / 2), turns[id(p)])
            lo, hi = corners[:, 0].min(), corners[:, 0].max()
            spans[p.x] = (min(lo, spans.get(p.x, (lo, hi))[0]), max(hi, spans.get(p.x, (lo, hi))[1]))
        ordered = [spans[x] for x in sorted(spans)]
        for (_, right), (left, _) in itertools.pairwise(ordered):
            assert left >= right - 1e-6


def test_the_dead_wall_shows_backs_right_of_its_indicators_too():
    # make_eval --dead-wall: 1-4 backs after the dora row's last tile, in its line; the hand and a row of the wall
    # beyond the hand (clutter, its own backs) are left as they were
    from training.scenes import TW, _rest_of_the_dead_wall, hand_layout, make_style

    added = set()
    for seed in range(30):
        rng = np.random.default_rng(seed)
        st = make_style(rng, ["x"])
        placed = hand_layout(rng, st, winning=True, clutter=seed % 5 == 0)
        before = [(p.cls, p.x, p.y, p.role) for p in placed]
        _rest_of_the_dead_wall(np.random.default_rng(seed), placed, st)
        assert [(p.cls, p.x, p.y, p.role) for p in placed[:len(before)]] == before
        new = placed[len(before):]
        dora = [p for p in placed[:len(before)] if p.role == "dora"]
        if seed % 5 == 0 or not dora:
            assert new == []
            continue
        added.add(len(new))
        last = max(dora, key=lambda p: p.x)
        assert all(p.cls == "x" and p.role == "dora" and p.y == last.y for p in new)
        assert np.allclose([p.x for p in new], [last.x + k * (TW + st.gap) for k in range(1, len(new) + 1)])
    assert added == {1, 2, 3, 4}


def test_a_dora_photo_is_the_dead_walls_top_tier_alone():
    # make_eval --dora-photo: one row of touching stacks, on top 0-3 backs, then 1-4 face-up indicators (none more
    # than four of a kind), then 0-4 backs; every one in the dora role
    from training.scenes import TW, dead_wall_layout, make_style

    seen = set()
    for seed in range(60):
        rng = np.random.default_rng(seed)
        st = make_style(rng, ["x"])
        placed = dead_wall_layout(rng, st)
        cls = [p.cls for p in placed]
        faces = [c for c in cls if c != "x"]
        first = cls.index(faces[0])
        assert cls[first:first + len(faces)] == faces and set(cls[:first] + cls[first + len(faces):]) <= {"x"}
        assert 1 <= len(faces) <= 4 and first <= 3 and len(cls) - first - len(faces) <= 4
        assert all(faces.count(c) <= 4 for c in faces)
        assert all(p.role == "dora" and p.y == 0 and not p.sideways and p.stacked for p in placed)
        assert np.allclose([p.x for p in placed], [k * (TW + st.gap) for k in range(len(placed))])
        seen.add((first, len(faces), len(cls) - first - len(faces)))
    assert {s[0] for s in seen} == {0, 1, 2, 3} and {s[1] for s in seen} == {1, 2, 3, 4}
    assert {s[2] for s in seen} == {0, 1, 2, 3, 4}


def test_the_cameras_blur_can_be_kept_from_growing_with_a_large_photo():
    # make_eval --sharp: _photometric blurs 60% of photos by 0.3-1.6 px per 1000 px of their long side. A white
    # half on a 4000 px photo: its edge kept to the blur of a 1000 px photo, the same draws blur it four times less
    from training.scenes import _photometric

    def rise(img, seed, blur_width_max=None):  # px from 10% to 90% of the way up the edge, noise averaged out
        row = _photometric(np.random.default_rng(seed), img, blur_width_max).mean(axis=(0, 2))
        mid = img.shape[1] // 2
        row = row[mid - 100: mid + 100]
        lo, hi = row[:40].mean(), row[-40:].mean()
        return int(((row > lo + 0.1 * (hi - lo)) & (row < lo + 0.9 * (hi - lo))).sum())

    big = np.zeros((300, 4000, 3), np.float32)  # (a strip: the long side sets the blur)
    big[:, 2000:] = 255
    widths = [(rise(big, seed), rise(big, seed, 1000)) for seed in range(12)]
    blurred = [(wide, kept) for wide, kept in widths if wide >= 8]  # sigma above 0.8 px per 1000 px
    assert blurred
    for wide, kept in blurred:  # a rise of 2.56 sigma: a quarter as wide, give or take a pixel of JPEG
        assert kept <= wide / 4 + 2, widths
    small = np.zeros((480, 640, 3), np.float32)
    small[:, 320:] = 255
    for seed in range(5):  # a photo smaller than the limit is blurred as before
        assert np.array_equal(_photometric(np.random.default_rng(seed), small),
                              _photometric(np.random.default_rng(seed), small, 1000))


def test_loose_tiles_change_where_the_tiles_lie_not_which_tiles_a_seed_draws(banks):
    from training.scenes import render_scene

    plain, _ = banks
    a, lined = render_scene(np.random.default_rng(6), plain, plain.styles(), out_size=(640, 480), hand=True)
    b, loose = render_scene(np.random.default_rng(6), plain, plain.styles(), out_size=(640, 480), hand=True,
                            loose=5.0, loose_rng=np.random.default_rng(1))
    assert sorted(lb.cls for lb in lined) == sorted(lb.cls for lb in loose)  # drawn in another order
    assert not np.array_equal(a, b)
    c, _ = render_scene(np.random.default_rng(6), plain, plain.styles(), out_size=(640, 480), hand=True, loose=0.0,
                        loose_rng=np.random.default_rng(1))
    assert np.array_equal(a, c)  # 0: lined up, the very photo of the seed


def test_a_tiles_side_is_drawn_as_high_as_the_cameras_angle_shows_it(banks):
    # make_eval --sides: seen at an angle a above the table the face shows TH sin(a) high and the side depth cos(a)
    # (depth 0.55-0.85 of TW); on the flat plane, which the pitch sin(a) squashes afterwards, depth cos(a) / sin(a)
    import math

    from training.scenes import TW, _side_height, render_scene

    assert _side_height(np.random.default_rng(0), (1.0, 1.0)) == (0, (1.0, 1.0))  # from straight above: none
    at_30 = [_side_height(np.random.default_rng(seed), (0.5, 0.5)) for seed in range(200)]
    assert {pitch for _, pitch in at_30} == {(0.5, 0.5)}
    lo, hi = 0.55 * TW * math.sqrt(3), 0.85 * TW * math.sqrt(3)  # cos 30 / sin 30 = sqrt(3)
    sides = [side for side, _ in at_30]
    assert lo - 1 <= min(sides) < lo + 3 and hi - 3 < max(sides) <= hi
    drawn = [_side_height(np.random.default_rng(seed), (0.3, 0.9))[1][0] for seed in range(200)]
    assert 0.3 <= min(drawn) < 0.33 and 0.87 < max(drawn) <= 0.9
    # the scene's own draws are untouched: the same tiles as without, other pixels
    plain, _ = banks
    a, flat = render_scene(np.random.default_rng(6), plain, plain.styles(), out_size=(640, 480), hand=True,
                           pitch=(0.4, 0.6))
    b, sided = render_scene(np.random.default_rng(6), plain, plain.styles(), out_size=(640, 480), hand=True,
                            pitch=(0.4, 0.6), sides_rng=np.random.default_rng(1))
    assert [lb.cls for lb in flat] == [lb.cls for lb in sided] and not np.array_equal(a, b)


def test_the_one_command_trains_the_shipped_models_with_the_settings_they_were_made_with():
    # python -m training.train --out models/ runs training.train.RECIPES; models/train-<name>.json records
    # what the shipped models were trained with (keys added later are absent from older records: 0 then).
    # The shipped classifier came from a chain of runs (TRAINING-LOG), so its record is not the cls recipe.
    import json

    from training.train import CONTINUES, DEFAULTS, OUTPUTS, RECIPES

    keys = {"seed": "seed", "scenes": "scenes", "styles": "procedural_styles", "varied": "varied_styles",
            "wide": "wide_styles", "maroon": "maroon_styles", "far": "far", "clutter": "clutter",
            "loc_steps": "loc_steps"}
    models = Path(__file__).resolve().parents[1] / "models"
    assert sorted(OUTPUTS) == sorted(RECIPES) == ["bright", "brush", "camera", "cls", "cls-b-quick", "cls-quick", "eights",
                                                  "flowers", "focus", "glare", "glare2",
                                                  "loc", "loc-b", "loc-b-bright", "loc-b-low", "loc-b-low-quick",
                                                  "loc-b-quick", "loc-b-slim", "loc-bright", "loc-low", "loc-low-quick",
                                                  "loc-low-student", "loc-quick", "loc-slim", "loc-student",
                                                  "loc-turned", "low", "low-student",
                                                  "one-labels", "orient", "orient-quick", "phone", "pins", "reds", "shake", "sharpen",
                                                  "slim", "student", "verify", "verify-quick", "wear", "yaw"]
    for name in ("loc", "loc-b"):
        cfg = {**DEFAULTS, **RECIPES[name]}
        shipped = json.loads((models / f"train-{name}.json").read_text())
        assert (models / f"{OUTPUTS[name]}.onnx").exists()
        for ours, theirs in keys.items():
            assert cfg[ours] == shipped.get(theirs, 0), (name, ours)
    # the localisers shipped since session 13 are those two slimmed by their slim stages
    for name in ("loc-slim", "loc-b-slim"):
        cfg = {**DEFAULTS, **RECIPES[name]}
        shipped = json.loads((models / f"train-{name}.json").read_text())
        for ours, theirs in {**keys, "lr": "lr", "slim": "slim"}.items():
            assert cfg[ours] == shipped[theirs], (name, ours)
    # the low-angle pair (session 32): those two trained on with low-angle scenes, shipped beside them
    for name, shipped_as in (("loc-low", "localiser-low"), ("loc-b-low", "localiser-b-low")):
        cfg = {**DEFAULTS, **RECIPES[name]}
        shipped = json.loads((models / f"train-{name}.json").read_text())
        assert OUTPUTS[name] == shipped["shipped_as"] == shipped_as and (models / f"{shipped_as}.onnx").exists()
        assert cfg["low"] > 0 and shipped["init"].startswith(f"models/{CONTINUES[name]}")
        for ours, theirs in {**keys, "lr": "lr", "slim": "slim", "low": "low", "bright": "bright"}.items():
            assert cfg[ours] == shipped[theirs], (name, ours)
    # both shipped classifiers went through the glare stage with its settings, on the cls recipe's scenes
    # (classifier-b from the cls recipe's own classifier, so the one command remakes it)
    keys.update(glare="glare", cls_steps="cls_steps", lr="lr", low_res="low_res")
    del keys["loc_steps"]
    cfg = {**DEFAULTS, **RECIPES["glare"]}
    scenes = ("seed", "scenes", "styles", "varied", "wide", "maroon", "far", "clutter")
    assert cfg["glare"] > 0 and [cfg[k] for k in scenes] == [{**DEFAULTS, **RECIPES["cls"]}[k] for k in scenes]
    for record in ("train-glare.json", "train-glare-b.json"):
        shipped = json.loads((models / record).read_text())
        assert shipped["recipe"] == "glare"
        for ours, theirs in keys.items():
            assert cfg[ours] == shipped[theirs], (record, ours)
    assert json.loads((models / "train-cls-b.json").read_text())["recipe"] == "cls"
    # and then (session 17) through the glare stage once more: glare2 repeats the glare recipe's settings
    assert {**DEFAULTS, **RECIPES["glare2"]} == cfg
    for record, shipped_as in (("train-glare2.json", "classifier"), ("train-glare2-b.json", "classifier-b")):
        shipped = json.loads((models / record).read_text())
        assert shipped["recipe"] == "glare2" and shipped["shipped_as"] == shipped_as
        assert shipped["init"].startswith(f"models/{shipped_as}.pt")
        for ours, theirs in keys.items():
            assert cfg[ours] == shipped[theirs], (record, ours)
    # and then (session 19) through the reds stage: the glare recipe's settings on the sets with their fives apart
    assert {**DEFAULTS, **RECIPES["reds"]} == {**cfg, "apart": True}
    keys["apart"] = "fives_apart"
    for record, shipped_as in (("train-reds.json", "classifier"), ("train-reds-b.json", "classifier-b")):
        shipped = json.loads((models / record).read_text())
        assert shipped["recipe"] == "reds" and shipped["shipped_as"] == shipped_as
        assert shipped["init"].startswith(f"models/{shipped_as}.pt")
        for ours, theirs in keys.items():
            assert {**cfg, "apart": True}[ours] == shipped[theirs], (record, ours)
    # the verifier: the verify recipe's own scenes, read with the shipped localisers
    cfg = {**DEFAULTS, **RECIPES["verify"]}
    shipped = json.loads((models / "train-verify.json").read_text())
    for ours, theirs in {"seed": "seed", "scenes": "scenes", "styles": "procedural_styles",
                         "verify_steps": "verify_steps"}.items():
        assert cfg[ours] == shipped[theirs], ("verify", ours)
    # the orienter (session 40): the orient recipe's own scenes, their boxes found by the shipped localisers
    cfg = {**DEFAULTS, **RECIPES["orient"]}
    shipped = json.loads((models / "train-orient.json").read_text())
    assert shipped["recipe"] == "orient" and shipped["localisers"] == "shipped" and OUTPUTS["orient"] == "orienter"
    for ours, theirs in {"seed": "seed", "scenes": "scenes", "styles": "procedural_styles",
                         "orient_steps": "orient_steps"}.items():
        assert cfg[ours] == shipped[theirs], ("orient", ours)


def test_the_shipped_int8_models_are_what_training_quantize_writes_from_the_shipped_float_ones(tmp_path: Path):
    # TRAINING-LOG "The int8 run-time models": the eleven 8-bit files are remade from the float files. The weights
    # (int8 in 7 bits, and their scales) come from the float weights alone and are remade exactly; the
    # activations' scales come from running the float models on rendered calibration photos, which other versions
    # of OpenCV, cairosvg or the fonts draw a little differently; min-max over 694 crops then moves a few scales
    # by up to 11% (two machines, session 12), so they are compared within 15%
    import shutil

    pytest.importorskip("onnx")
    from training import quantize

    models = Path(__file__).resolve().parents[1] / "models"
    names = ("localiser", "localiser-b", "localiser-one", "localiser-low", "localiser-b-low", "localiser-low-hand",
             "classifier", "classifier-b", "classifier-one", "classifier-low")
    for name in names:
        shutil.copy(models / f"{name}.onnx", tmp_path)
    try:
        quantize.main(["--models", str(tmp_path)])
    except SystemExit as exc:  # a checkout without ../shared/tile-art to draw calibration photos from
        pytest.skip(str(exc))
    for name in names:
        made, shipped = (_initializers(folder / f"{name}.int8.onnx") for folder in (tmp_path, models))
        assert made.keys() == shipped.keys(), name
        for key, value in shipped.items():
            if value.dtype == np.int32 and key.endswith("_quantized"):  # biases, in steps of input scale x weight
                step = np.maximum(made[f"{key}_scale"], shipped[f"{key}_scale"])  # scale: the same within a step
                assert (np.abs(made[key] * made[f"{key}_scale"] - value * shipped[f"{key}_scale"]) <= step).all(), \
                    (name, key)
            elif value.dtype in (np.int8, np.int32):  # weights, zero points of weights and biases
                assert np.array_equal(made[key], value), (name, key)
            elif value.dtype == np.uint8:  # activations' zero points
                assert np.abs(made[key].astype(int) - value.astype(int)).max() <= 3, (name, key)
            else:  # scales
                assert made[key] == pytest.approx(value, rel=0.15), (name, key)


def _initializers(path: Path) -> dict[str, np.ndarray]:
    import onnx
    from onnx import numpy_helper

    return {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}


def test_the_shipped_int8_weights_use_seven_bits():
    # onnxruntime's 8-bit kernels on CPUs without VNNI (AVX2 only) sum two products of an activation (0..255) and
    # a weight in 16 bits: with weights in -64..64 that cannot overflow (2 * 255 * 64 = 32640), with full 8-bit
    # weights it can, and the same files then read fewer tiles there than on CPUs with VNNI
    pytest.importorskip("onnx")
    models = Path(__file__).resolve().parents[1] / "models"
    for name in ("localiser", "localiser-b", "localiser-low", "localiser-b-low", "classifier", "classifier-b",
                 "classifier-low"):
        weights = [v for k, v in _initializers(models / f"{name}.int8.onnx").items() if v.dtype == np.int8]
        assert weights, name
        assert max(int(np.abs(w.astype(int)).max()) for w in weights) <= 64, name


def test_make_eval_glare_lights_up_only_the_tiles_it_picks():
    # a grey photo with two tiles: with a share of 1 both get a highlight (nearly white, 252 at full strength,
    # at least 60% of the way there at the centre), nothing outside the tiles and their blur changes; share 0
    # draws nothing
    from training.make_eval import highlights

    photo = np.full((200, 300, 3), 100, np.uint8)
    boxes = [(40.0, 60.0, 100.0, 140.0), (180.0, 60.0, 240.0, 140.0)]
    lit = highlights(np.random.default_rng(2), photo, boxes, 1.0)
    for x1, y1, x2, y2 in boxes:
        assert lit[int(y1):int(y2), int(x1):int(x2)].max() >= 100 + 0.6 * 152 - 1
    assert (lit[:, :30] == 100).all() and (lit[:, 110:170] == 100).all() and (lit[:, 250:] == 100).all()
    assert np.array_equal(highlights(np.random.default_rng(2), photo, boxes, 0.0), photo)


def test_the_glare_stage_without_a_classifier_to_continue_says_what_to_do(tmp_path: Path):
    # --only glare into an empty folder: no classifier.pt there and no --init; nothing is generated or written
    from training.train import DEFAULTS, RECIPES, run_recipe

    with pytest.raises(SystemExit, match="--init"):
        run_recipe("glare", {**DEFAULTS, **RECIPES["glare"]}, tmp_path, 1)
    assert not any(tmp_path.iterdir())


def test_the_glare_stage_trains_on_the_scenes_the_cls_recipe_made_in_the_same_run(tmp_path: Path, monkeypatch):
    # one command: cls and glare share their scene settings (seed 4, 3000 scenes ...), so the scenes are made once;
    # the localisers' are other scenes, made when their turn comes and after the classifier's are let go, and
    # each localiser's slim stage goes on from the net just made, on the same scenes. The reds stage draws some
    # sets in other colours, so it makes scenes of its own (of the same seed and size; the phone and shake stages
    # after it train on them again, made once: no third (4, 3000) below), and so does the low stage (a share of
    # its scenes seen from low), which goes on from the classifier and writes its twin beside it, and the yaw
    # stage after it (a share seen from one side), which goes on from the classifier over it; so do the
    # low-angle pair's stages, each going on from the slimmed localiser it is written beside
    from training import train

    made, trained = [], []
    fake = {"loc": np.zeros((1, 3, 4, 4), np.uint8), "targets": [], "crops": np.zeros((1, 64, 48, 3), np.uint8),
            "ys": np.zeros(1, np.int64)}
    monkeypatch.setattr(train, "generate", lambda seed, n, *rest: made.append((seed, n)) or fake)
    classifiers = []
    monkeypatch.setattr(train, "train_classifier", lambda crops, ys, steps, seed, out, **kw: trained.append(crops)
                        or classifiers.append((kw["name"], kw["init"])))
    localisers = []
    monkeypatch.setattr(train, "train_localiser", lambda data, steps, seed, out, name, **kw: localisers.append(
        (data, steps, name, kw["init"], kw["slim"])))
    for made_before in ("classifier.pt", "localiser.onnx", "localiser-b.onnx"):  # what cls, loc, loc-b write
        (tmp_path / made_before).write_bytes(b"")
    scenes: dict = {}
    run = [name for name in train.RECIPES if name not in train.OPTIONAL and name not in ("verify", "orient")]
    assert run == ["cls", "glare", "glare2", "reds", "phone", "shake", "low", "yaw", "loc", "loc-slim", "loc-b",
                   "loc-b-slim", "loc-low", "loc-b-low"]
    for name in run:
        train.run_recipe(name, {**train.DEFAULTS, **train.RECIPES[name]}, tmp_path, 1, scenes)
    # cls, reds, low, yaw; loc, loc-b, loc-low, loc-b-low: seed 21 + 7, other clutter or low
    assert made == [(4, 3000)] * 4 + [(28, 2400)] * 4
    assert len(trained) == 8 and trained[0] is trained[1] is trained[2] is fake["crops"]
    assert classifiers[0] == ("classifier", None) and classifiers[5] == ("classifier", tmp_path / "classifier.pt")
    assert classifiers[6] == ("classifier-low", tmp_path / "classifier.pt")  # the twin beside it, not over it
    assert classifiers[7] == ("classifier", tmp_path / "classifier.pt")  # the yaw stage, after the twin
    assert [(steps, name, init, slim) for _, steps, name, init, slim in localisers] == [
        (5000, "localiser", None, False), (1500, "localiser", tmp_path / "localiser.onnx", True),
        (5000, "localiser-b", None, False), (1500, "localiser-b", tmp_path / "localiser-b.onnx", True),
        (1500, "localiser-low", tmp_path / "localiser.onnx", False),
        (1500, "localiser-b-low", tmp_path / "localiser-b.onnx", False)]
    assert localisers[0][0] is localisers[1][0] and localisers[2][0] is localisers[3][0]


def _random_classifier(seed: int):
    import torch

    from training.nets import Classifier

    torch.manual_seed(seed)
    net = Classifier(46)
    with torch.no_grad():  # batch-norm statistics and scales away from their defaults, as after training
        for block in net.convs():
            for t in (block[1].weight, block[1].bias, block[1].running_mean):
                t.copy_(torch.randn_like(t))
            block[1].running_var.copy_(torch.rand_like(block[1].running_var) + 0.5)
    return net.eval()


def test_a_classifier_slimmed_to_its_own_widths_reads_as_before():
    import torch

    from companion.vision.nets import WIDTHS
    from training.nets import slimmed

    net = _random_classifier(0)
    x = torch.randn(5, 3, 64, 48)
    assert torch.allclose(slimmed(net, WIDTHS).eval()(x), net(x), atol=1e-5)


def test_slimming_drops_the_channels_of_least_scale_and_keeps_the_rest_as_they_were():
    # channels whose batch-norm scale and shift are 0 add nothing after the ReLU: a net with as many such
    # channels per convolution as slimming drops reads exactly as its slimmed copy
    import torch

    from companion.vision.nets import SLIM_WIDTHS, WIDTHS
    from training.nets import classifier_from, slimmed

    net = _random_classifier(1)
    gen = torch.Generator().manual_seed(2)
    with torch.no_grad():
        for block, full, slim in zip(net.convs(), WIDTHS, SLIM_WIDTHS, strict=True):
            dead = torch.randperm(full, generator=gen)[: full - slim]
            block[1].weight[dead] = 0.0
            block[1].bias[dead] = 0.0
    small = slimmed(net).eval()
    assert [b[0].out_channels for b in small.convs()] == list(SLIM_WIDTHS) and small.fc.in_features == SLIM_WIDTHS[-1]
    x = torch.randn(6, 3, 64, 48)
    assert torch.allclose(small(x), net(x), atol=1e-4)
    again = classifier_from(small.state_dict()).eval()  # saved and loaded: the widths come from the weights
    assert torch.allclose(again(x), small(x))


def test_a_localiser_slimmed_after_dropping_its_weakest_channels_reads_as_before_and_loads_from_its_export(
        tmp_path: Path):
    # as for the classifier: channels with batch-norm scale and shift 0 add nothing, here also where the way up
    # joins a deeper stage and a shallower one; the export folds the norms away and localiser_from_onnx undoes it
    pytest.importorskip("onnx")
    import onnxruntime as ort
    import torch

    from companion.vision.nets import LOC_SLIM_WIDTHS, LOC_WIDTHS, conv_blocks
    from training.nets import Localiser, localiser_from_onnx, slimmed_localiser

    torch.manual_seed(3)
    net = Localiser()
    blocks = [m for _, m in conv_blocks(net)]

    def by_block(widths: tuple[int, ...]) -> list[int]:  # every stage but the first has two convolutions
        return [widths[0], *[w for w in widths[1:5] for _ in range(2)], *widths[5:]]

    per_block, slim_block = by_block(LOC_WIDTHS), by_block(LOC_SLIM_WIDTHS)
    assert [b[0].out_channels for b in blocks] == per_block
    gen = torch.Generator().manual_seed(4)
    with torch.no_grad():
        for block, full, slim in zip(blocks, per_block, slim_block, strict=True):
            bn = block[1]
            for t in (bn.weight, bn.bias, bn.running_mean):
                t.copy_(torch.randn(t.shape, generator=gen))
            bn.running_var.copy_(torch.rand(bn.running_var.shape, generator=gen) + 0.5)
            dead = torch.randperm(full, generator=gen)[: full - slim]
            bn.weight[dead] = 0.0
            bn.bias[dead] = 0.0
    net.eval()
    x = torch.randn(1, 3, 96, 128)
    small = slimmed_localiser(net).eval()
    assert torch.allclose(small(x), net(x), atol=1e-4)
    torch.onnx.export(small, x, str(tmp_path / "small.onnx"), input_names=["image"], output_names=["maps"],
                      opset_version=17, dynamo=False)
    exported = ort.InferenceSession(str(tmp_path / "small.onnx")).run(None, {"image": x.numpy()})[0]
    back = localiser_from_onnx(str(tmp_path / "small.onnx")).eval()
    assert np.allclose(back(x).detach().numpy(), exported, atol=1e-4)
    assert np.allclose(exported, net(x).detach().numpy(), atol=1e-3)


def test_init_names_one_kind_of_net_and_the_other_kinds_stages_go_on_without_it(tmp_path: Path, monkeypatch):
    # --init models/classifier.pt on the whole command continues the classifier; the localisers' stages start
    # as without it (loc from scratch, loc-slim from the localiser loc wrote), and the other way round
    from training import train

    fake = {"loc": np.zeros((1, 3, 4, 4), np.uint8), "targets": [], "crops": np.zeros((1, 64, 48, 3), np.uint8),
            "ys": np.zeros(1, np.int64)}
    inits = []
    monkeypatch.setattr(train, "generate", lambda *args: fake)
    monkeypatch.setattr(train, "train_classifier", lambda *args, **kw: inits.append(("cls", kw["init"])))
    monkeypatch.setattr(train, "train_localiser", lambda *args, **kw: inits.append(("loc", kw["init"])))
    (tmp_path / "localiser.onnx").write_bytes(b"")
    for name, init in (("loc", "models/classifier.pt"), ("loc-slim", "models/classifier.pt"),
                       ("glare", "models/classifier.pt"), ("loc-slim", "models/localiser.onnx")):
        train.run_recipe(name, {**train.DEFAULTS, **train.RECIPES[name], "init": Path(init)}, tmp_path, 1, {})
    assert inits == [("loc", None), ("loc", tmp_path / "localiser.onnx"), ("cls", Path("models/classifier.pt")),
                     ("loc", Path("models/localiser.onnx"))]


def test_the_quick_plan_makes_the_shipped_nets_and_keeps_out_of_the_whole_command():
    # --quick: each localiser and both classifiers trained from scratch, the localisers, then the verifier and the
    # orienter (which read their scenes with them) on one side and the classifiers on the other; after both, the
    # localisers' low-angle pair, a net a side; the whole command without --quick runs none of them
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, QUICK, QUICK_PHASES, RECIPES

    assert [[[OUTPUTS[name] for name in side] for side in sides] for sides in QUICK_PHASES] == [
        [["localiser", "localiser-b", "verifier", "orienter"], ["classifier", "classifier-b"]],
        [["localiser-low"], ["localiser-b-low"]]]
    assert sorted(name for sides in QUICK_PHASES for side in sides for name in side) == sorted(QUICK)
    assert all(name in OPTIONAL for name in QUICK)
    for name in QUICK:
        cfg = {**DEFAULTS, **RECIPES[name]}
        assert cfg["init"] is None, name
    # the low-angle pair and the orienter: the full recipes' settings, on the localisers the plan made before them
    assert RECIPES["orient-quick"] == RECIPES["orient"]
    for quick, full in (("loc-low-quick", "loc-low"), ("loc-b-low-quick", "loc-b-low")):
        assert RECIPES[quick] == RECIPES[full] and CONTINUES[quick] == CONTINUES[full]
    # the localisers' quick recipes differ from their full ones only in size and in being slim from the start
    for quick, full in (("loc-quick", "loc"), ("loc-b-quick", "loc-b")):
        a, b = {**DEFAULTS, **RECIPES[quick]}, {**DEFAULTS, **RECIPES[full]}
        differ = {k for k in a if a[k] != b[k]}
        assert "slim" in differ and differ <= {"loc_steps", "scenes", "slim"}, differ
    # the classifier's sets print no plain five reddish, as the reds stage's do (a red five read as plain was
    # the commonest misread of red fives: TRAINING-LOG "Red fives apart")
    assert {**DEFAULTS, **RECIPES["cls-quick"]}["apart"] is True
    # the pair's two classifiers differ in their seed alone (their scenes and first weights)
    a, b = {**DEFAULTS, **RECIPES["cls-quick"]}, {**DEFAULTS, **RECIPES["cls-b-quick"]}
    assert {k for k in a if a[k] != b[k]} == {"seed"}


def test_side_by_side_stops_the_command_when_a_side_fails(tmp_path: Path):
    # sides whose stage cannot start (glare and slim, with no classifier to continue) fail each in its own
    # process, and the command stops naming them
    from training.train import side_by_side

    with pytest.raises(SystemExit, match="glare, slim failed"):
        side_by_side((("glare",), ("slim",)), {}, tmp_path)
    assert not any(tmp_path.iterdir())


def test_quick_and_only_together_are_refused(tmp_path: Path, capsys):
    from training.train import main

    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path), "--quick", "--only", "cls"])
    assert "--quick" in capsys.readouterr().err and not any(tmp_path.iterdir())


def test_the_quick_plan_writes_every_float_net_from_one_command(tmp_path: Path):
    # the whole --quick command with a few scenes and steps (a few seconds of training, most of the time goes on
    # drawing the tile sets): both localisers, both classifiers, the verifier, the orienter and the localisers'
    # low-angle pair (from the localisers made before it), each with its record (nets of two
    # steps find no tile to calibrate int8 copies on). A seed given is each stage's, but the second classifier draws
    # with the one after it; SHA256SUMS lists every net written
    import hashlib
    import json

    from training.train import main

    fonts_or_skip()
    main(["--out", str(tmp_path), "--quick", "--scenes", "4", "--styles", "2", "--varied", "0", "--wide", "0",
          "--maroon", "0", "--cls-steps", "2", "--loc-steps", "2", "--verify-steps", "2", "--orient-steps", "2", "--seed", "40"])
    for name in ("localiser", "localiser-b", "classifier", "classifier-b", "verifier", "orienter", "localiser-low",
                 "localiser-b-low"):
        assert (tmp_path / f"{name}.onnx").stat().st_size > 10_000, name
    assert (tmp_path / "classifier-b.pt").exists()
    seeds = {}
    for name in ("loc-quick", "loc-b-quick", "cls-quick", "cls-b-quick", "verify-quick", "orient-quick",
                 "loc-low-quick", "loc-b-low-quick"):
        record = json.loads((tmp_path / f"train-{name}.json").read_text())
        assert record["recipe"] == name and record["scenes"] == 4
        seeds[name] = record["seed"]
    assert seeds == {"loc-quick": 40, "loc-b-quick": 40, "cls-quick": 40, "cls-b-quick": 41, "verify-quick": 40,
                     "orient-quick": 40, "loc-low-quick": 40, "loc-b-low-quick": 40}
    assert json.loads((tmp_path / "train-orient-quick.json").read_text())["localisers"] == str(tmp_path)
    low = json.loads((tmp_path / "train-loc-low-quick.json").read_text())
    assert low["low"] > 0 and low["init"] == str(tmp_path / "localiser.onnx")
    assert json.loads((tmp_path / "train-loc-quick.json").read_text())["slim"] is True
    assert json.loads((tmp_path / "train-cls-quick.json").read_text())["fives_apart"] is True
    # the verifier learns from crops cut around their shaped boxes (since session 56), and its input says so
    import onnxruntime as ort

    from companion.vision.preprocess import SHAPED_INPUT

    verify = json.loads((tmp_path / "train-verify-quick.json").read_text())
    assert verify["cut"] == "shaped_box" and verify["low"] == 0.3
    assert ort.InferenceSession(str(tmp_path / "verifier.onnx")).get_inputs()[0].name == SHAPED_INPUT
    listed = dict(reversed(line.split("  ", 1)) for line in (tmp_path / "SHA256SUMS").read_text().splitlines())
    assert sorted(listed) == sorted(p.name for p in tmp_path.iterdir() if p.suffix in (".onnx", ".pt"))
    assert listed["localiser-b-low.onnx"] == hashlib.sha256((tmp_path / "localiser-b-low.onnx").read_bytes()).hexdigest()


def test_quantizing_in_the_same_process_leaves_the_pipeline_reading_what_it_read_before(tmp_path: Path, monkeypatch):
    # training.train ends with training.quantize in its own process; the pipeline reads the float models of the
    # folder being quantised only while that runs (a test running the command once made later tests read there)
    import os

    from companion.vision import pipeline
    from training.quantize import _float_models_in

    monkeypatch.delenv("COMPANION_PRECISION", raising=False)
    monkeypatch.setenv("COMPANION_MODELS", "/somewhere/models")
    before = pipeline.MODELS_DIR
    (tmp_path / "localiser.onnx").write_bytes(b"")
    (tmp_path / "localiser.int8.onnx").write_bytes(b"")
    with pytest.raises(RuntimeError), _float_models_in(tmp_path):
        assert pipeline.model_path("localiser") == tmp_path / "localiser.onnx"
        assert os.environ["COMPANION_MODELS"] == str(tmp_path)
        raise RuntimeError("a failed calibration")
    assert pipeline.MODELS_DIR == before and "COMPANION_PRECISION" not in os.environ
    assert os.environ["COMPANION_MODELS"] == "/somewhere/models"


@pytest.mark.parametrize("kind", ["classifier", "localiser"])
def test_nets_trained_in_channels_last_memory_are_saved_in_the_usual_layout_and_export_what_they_compute(
        tmp_path: Path, kind: str):
    # training runs the convolutions with channels last (training.train.nhwc, faster on this CPU); what it saves
    # must load like any other weights, and the ONNX file must give what the trained net gives
    import onnxruntime as ort
    import torch

    from training.nets import CROP_H, CROP_W
    from training.train import ALL_CLASSES, LOC_H, LOC_W, STRIDE, train_classifier, train_localiser

    rng = np.random.default_rng(5)
    if kind == "classifier":
        crops = rng.integers(0, 256, (40, CROP_H, CROP_W, 3), dtype=np.uint8)
        train_classifier(crops, np.arange(40) % len(ALL_CLASSES), 3, 1, tmp_path, log_every=1000)
        state = torch.load(tmp_path / "classifier.pt")
        assert all(v.is_contiguous() for v in state.values())
        from training.nets import classifier_from

        net, x = classifier_from(state).eval(), rng.random((2, 3, CROP_H, CROP_W), np.float32) - 0.5
        with torch.no_grad():
            want = net(torch.from_numpy(x)).numpy()
        got = ort.InferenceSession(str(tmp_path / "classifier.onnx")).run(None, {"crops": x})[0]
    else:
        oh, ow = LOC_H // STRIDE, LOC_W // STRIDE
        data = {"loc": rng.integers(0, 256, (2, 3, LOC_H, LOC_W), dtype=np.uint8),
                "targets": [[((40.0, 60.0, 90.0, 130.0), False, 1.0)]] * 2}
        train_localiser(data, 2, 1, tmp_path)
        from training.nets import localiser_from_onnx

        x = rng.random((1, 3, LOC_H, LOC_W), np.float32) - 0.5
        got = ort.InferenceSession(str(tmp_path / "localiser.onnx")).run(None, {"image": x})[0]
        with torch.no_grad():
            want = localiser_from_onnx(str(tmp_path / "localiser.onnx")).eval()(torch.from_numpy(x)).numpy()
        assert got.shape[2:] == (oh, ow)
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3)


def test_drawing_scenes_without_one_of_the_font_packages_stops_at_once_and_names_it(monkeypatch):
    # a machine with some of the fonts drew other faces (session 16); in the pool's workers the stop only made the
    # pool start new workers, so the command waited for ever. Checked in the calling process, before any worker
    from training import faces, train

    monkeypatch.setattr(faces, "FONT_FILES", [*faces.FONT_FILES, ("/nowhere/x.ttc", (0,), "fonts-nowhere")])
    with pytest.raises(SystemExit, match=r"missing \(fonts-nowhere\)"):
        train.generate(1, 2, 1, workers=1)
    with pytest.raises(SystemExit, match=r"missing \(fonts-nowhere\)"):
        train.generate_verify(1, 2, 1, workers=1, models=None)


def test_flower_art_redraws_only_the_flowers_and_leaves_every_other_face_and_set_as_it_was():
    # --flower-art (the flowers stage) must not move the random streams: the other 38 classes of a set, and the
    # next sets, are drawn as without it, so scenes differ only where a flower lies
    from training.faces import procedural_set

    fonts = fonts_or_skip()
    plain, art = np.random.default_rng(5), np.random.default_rng(5)
    for kind in ({}, {"wide": True}, {"varied": True}):
        a, b = procedural_set(plain, fonts, **kind), procedural_set(art, fonts, flower_art=True, **kind)
        assert sorted(a) == sorted(b)
        for cls in a:
            assert np.array_equal(a[cls], b[cls]) != cls.endswith("f"), (kind, cls)


def test_a_flowers_picture_says_nothing_of_its_class():
    # drawn from the same streams, plum (1f) and spring (5f) differ only in their names and the number's colour:
    # the picture, its colours and the places are the same, so only the name tells them apart
    from training.faces import FACE_H, FACE_W, FLOWER_NAME_BOXES, FLOWER_NUMBER_BOXES, Painter
    from training.faces import draw_flower_art as draw

    font = fonts_or_skip()[0]
    for seed in range(6):
        faces = []
        for name, season in (("梅", False), ("春", True)):
            p = Painter()
            draw(p, font, name, season, "1", (20, 20, 25, 255), np.random.default_rng(seed),
                 np.random.default_rng(100 + seed))
            faces.append(p.result().astype(int))
        ys, xs = np.nonzero(np.abs(faces[0] - faces[1]).max(axis=2) > 0)
        assert len(ys) > 20, seed  # the names differ
        grown = [(x1 - 0.05, y1 - 0.05, x2 + 0.05, y2 + 0.05) for x1, y1, x2, y2 in
                 FLOWER_NAME_BOXES + FLOWER_NUMBER_BOXES]
        for x, y in zip(xs / FACE_W, ys / FACE_H, strict=True):
            assert any(x1 <= x <= x2 and y1 <= y <= y2 for x1, y1, x2, y2 in grown), (seed, x, y)


def test_the_flowers_stage_trains_the_classifier_on_over_the_cls_recipes_sets_with_flower_art():
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES

    flowers, cls = {**DEFAULTS, **RECIPES["flowers"]}, {**DEFAULTS, **RECIPES["cls"]}
    assert flowers["flower_art"] and not cls["flower_art"]
    assert OUTPUTS["flowers"] == "classifier" and CONTINUES["flowers"] == "classifier.pt" and "flowers" in OPTIONAL
    assert [flowers[k] for k in ("seed", "scenes", "styles", "varied", "wide", "maroon")] == \
        [cls[k] for k in ("seed", "scenes", "styles", "varied", "wide", "maroon")]


def test_a_training_log_line_says_how_long_the_rest_will_take_at_the_pace_so_far(monkeypatch):
    from training import train

    monkeypatch.setattr(train.time, "time", lambda: 1000.0)
    assert train._progress(0, 6000, 990.0) == "10s"  # no pace from the first step alone
    # 100 steps (0..99) in 100 s: 1 s a step, 900 steps left -> 15 minutes
    assert train._progress(99, 1000, 900.0) == "100s, about 15 min left"
    assert train._progress(999, 1000, 900.0) == "100s, about 0 min left"


@pytest.mark.parametrize(("degrees", "box"), [(90, (5, 40, 25, 50)), (180, (40, 15, 50, 35)), (270, (15, 10, 35, 20))])
def test_make_eval_turned_takes_the_photo_from_another_seat_and_moves_the_boxes_with_it(degrees, box):
    # make_eval --turned: a 60 x 40 photo with one tile at x 10..20, y 5..25 (painted white on black), taken from
    # another seat so that it is read turned by `degrees` clockwise. By hand: turned 90 counter-clockwise (read
    # turned 90), the photo is 40 x 60 and (x, y) goes to (y, 60 - x): the box x 5..25, y 40..50; upside down
    # (180) to (60 - x, 40 - y): x 40..50, y 15..35; turned 90 clockwise (read turned 270) to (40 - y, x): x 15..35,
    # y 10..20. The tile's pixels lie there, its order and "sideways" stay as read, and the label says "turned"
    import numpy as np

    from training.make_eval import taken_turned

    img = np.zeros((40, 60, 3), np.uint8)
    img[5:25, 10:20] = 255
    label = {"tiles": [{"tile": "5m", "box": [10.0, 5.0, 20.0, 25.0], "sideways": True, "row": 0}], "request": None}
    turned, moved = taken_turned(img, label, degrees)
    assert turned.shape[:2] == ((60, 40) if degrees != 180 else (40, 60))
    assert moved["tiles"] == [{"tile": "5m", "box": list(map(float, box)), "sideways": True, "row": 0}]
    assert moved["turned"] == degrees and moved["request"] is None and "turned" not in label
    x1, y1, x2, y2 = box
    assert (turned[y1:y2, x1:x2] == 255).all() and turned.sum() == img.sum()  # every white pixel inside the box


def test_worn_ink_fades_and_rubs_off_the_paint_where_it_says_and_leaves_a_groove_only_there():
    # scenes.worn_ink (make_eval --worn, train --wear): all ink paler by up to wear / 3, and rubbed off in patches
    # over up to wear / 2 of the face; where it is gone the engraving shows as a groove, darker by at most 0.2
    from training.scenes import worn_ink

    alpha = np.ones((160, 120, 1), np.float32)
    for seed in range(20):
        for wear in (0.3, 1.0):
            left, groove = worn_ink(np.random.default_rng(seed), alpha, wear)
            assert left.shape == groove.shape == alpha.shape
            assert left.max() <= 1.0 and left.min() >= 0.0
            assert left.max() >= 1.0 - wear * 0.35 - 1e-6  # somewhere only faded: at least 1 - wear * 0.35 left
            gone = left < 0.5 * left.max()  # rubbed off: less than half of the faded ink left
            assert gone.mean() <= wear * 0.5 + 0.02
            assert groove.max() <= 0.2 + 1e-6 and (groove[~gone] < 0.2 * 0.5 + 1e-6).all()
            assert groove[gone].min() > 0.0  # the engraving shows wherever the paint is gone
    blank = np.zeros_like(alpha)  # no ink, nothing to wear and no groove
    left, groove = worn_ink(np.random.default_rng(0), blank, 1.0)
    assert not left.any() and not groove.any()


def test_worn_sets_come_only_where_asked_for_and_leave_the_scenes_of_a_seed_as_they_were(banks):
    # render_scene's wear_rng draws apart from the scene's own stream: the same tiles in the same places, only the
    # paint worn; train --wear picks its share of scenes so, with no draw at all where none is asked for
    from training import train
    from training.scenes import render_scene

    plain, _ = banks
    styles = [s for s in plain.styles() if s != "uni"]
    img, labels = render_scene(np.random.default_rng(5), plain, styles, hand=True)
    worn, worn_labels = render_scene(np.random.default_rng(5), plain, styles, hand=True,
                                     wear_rng=np.random.default_rng(1))
    assert [lb.cls for lb in labels] == [lb.cls for lb in worn_labels]
    assert all(np.array_equal(a.quad, b.quad) for a, b in zip(labels, worn_labels, strict=True))
    assert not np.array_equal(img, worn)
    train._init(3, 2)
    before = train.gen_chunk((11, 2))
    train._init(3, 2, wear=0.0)
    assert np.array_equal(before["loc"], train.gen_chunk((11, 2))["loc"])
    train._init(3, 2, wear=1.0)
    assert not np.array_equal(before["loc"], train.gen_chunk((11, 2))["loc"])
    train._init(3, 2)


def test_the_wear_stage_is_the_one_labels_stage_with_a_share_of_worn_sets():
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES

    wear, labels = ({**DEFAULTS, **RECIPES[n]} for n in ("wear", "one-labels"))
    assert wear["wear"] == 0.3 and labels["wear"] == 0.0
    assert {k: v for k, v in wear.items() if k != "wear"} == {k: v for k, v in labels.items() if k != "wear"}
    assert OUTPUTS["wear"] == "classifier-one" and CONTINUES["wear"] == "classifier-one.pt" and "wear" in OPTIONAL


def test_the_focus_stage_is_the_one_labels_stage_with_a_share_of_crops_blurred_by_a_disc():
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES, _defocus, augment_crops

    focus, labels = ({**DEFAULTS, **RECIPES[n]} for n in ("focus", "one-labels"))
    assert focus["focus"] == 0.15 and labels["focus"] == 0.0
    assert {k: v for k, v in focus.items() if k != "focus"} == {k: v for k, v in labels.items() if k != "focus"}
    assert OUTPUTS["focus"] == "classifier-one" and CONTINUES["focus"] == "classifier-one.pt" and "focus" in OPTIONAL
    # off, it draws nothing: every other recipe's crops come out as they did before it existed
    crops = np.random.default_rng(4).integers(0, 256, (6, 64, 48, 3), dtype=np.uint8)
    a, b = np.random.default_rng(1), np.random.default_rng(1)
    assert _defocus(a, crops, 0.0) is crops and a.random() == b.random()
    assert (augment_crops(np.random.default_rng(2), crops, 0.4, 0.2) ==
            augment_crops(np.random.default_rng(2), crops, 0.4, 0.2, focus=0.0)).all()
    # crops 64 x 48 dark left of x 24, white from it: one blurred by a disc 0.1-0.3 of 48 px across (5-14 px: radius
    # 2-7) spreads the edge over that many columns, each row alike, keeping the mean; the others stay as they were
    edge = np.zeros((40, 64, 48, 3), np.uint8)
    edge[:, :, 24:] = 255
    out = _defocus(np.random.default_rng(3), edge, 0.5)
    blurred = [i for i in range(40) if (out[i] != edge[i]).any()]
    assert 10 <= len(blurred) <= 30 and (edge[:, :, 24:] == 255).all() and (edge[:, :, :24] == 0).all()
    for i in range(40):
        if i not in blurred:
            assert (out[i] == edge[i]).all()
            continue
        row = out[i, 32, :, 0].astype(int)
        grey = np.flatnonzero((row > 0) & (row < 255))  # the columns the edge is spread over: 2r of them
        assert 4 <= len(grey) <= 14 and grey.min() >= 24 - 7 and grey.max() <= 23 + 7
        assert (out[i, :, :, 0] == out[i, 32:33, :, 0]).all()  # rows alike (no vertical blur to show)
        assert abs(out[i].astype(float).mean() - edge[i].astype(float).mean()) < 2.0


def test_the_sharpen_stage_is_the_eights_stage_with_a_share_of_crops_sharpened_wide():
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES, _sharpen, augment_crops

    sharpen, eights = ({**DEFAULTS, **RECIPES[n]} for n in ("sharpen", "eights"))
    assert sharpen["sharpen"] == 0.15 and eights["sharpen"] == 0.0 and sharpen["seed"] == 22
    assert {k: v for k, v in sharpen.items() if k not in ("sharpen", "seed")} == \
        {k: v for k, v in eights.items() if k not in ("sharpen", "seed")}
    assert OUTPUTS["sharpen"] == "classifier-one" and CONTINUES["sharpen"] == "classifier-one.pt"
    assert "sharpen" in OPTIONAL
    # off, it draws nothing: every other recipe's crops come out as they did before it existed
    crops = np.random.default_rng(4).integers(0, 256, (6, 64, 48, 3), dtype=np.uint8)
    a, b = np.random.default_rng(1), np.random.default_rng(1)
    assert _sharpen(a, crops, 0.0) is crops and a.random() == b.random()
    assert (augment_crops(np.random.default_rng(2), crops, 0.4, 0.2, 0.2) ==
            augment_crops(np.random.default_rng(2), crops, 0.4, 0.2, 0.2, sharpen=0.0)).all()
    # crops 64 x 48 grey 100 left of x 24, 150 from it: a sharpened one overshoots on both sides of the edge (an
    # unsharp mask's halo: darker than 100 left of it, lighter than 150 right of it), far from the edge as before
    # (a radius of at most 3 px: 3 sigma is 9 columns), each row alike; the others stay as they were
    edge = np.full((40, 64, 48, 3), 100, np.uint8)
    edge[:, :, 24:] = 150
    out = _sharpen(np.random.default_rng(3), edge, 0.5)
    sharpened = [i for i in range(40) if (out[i] != edge[i]).any()]
    assert 10 <= len(sharpened) <= 30 and (edge[:, :, 24:] == 150).all()
    for i in range(40):
        if i not in sharpened:
            assert (out[i] == edge[i]).all()
            continue
        row = out[i, 32, :, 0].astype(int)
        assert row[23] < 100 and row[24] > 150  # the halo, either side of the edge
        assert (row[:24 - 10] == 100).all() and (row[24 + 10:] == 150).all()
        assert (out[i, :, :, 0] == out[i, 32:33, :, 0]).all()


def test_the_shipped_one_classifier_is_two_one_labels_runs_averaged_each_made_as_the_recipe_says():
    # since session 63 (TRAINING-LOG "Worn tiles"): the student's net trained on by its labels alone, no teachers,
    # with the yaw stage's crop settings on fresh scenes, twice (seeds 8 and 9), and the two runs' weights averaged
    from training.train import CONTINUES, DEFAULTS, OPTIONAL, OUTPUTS, RECIPES

    labels, yaw = ({**DEFAULTS, **RECIPES[n]} for n in ("one-labels", "yaw"))
    assert labels["teachers"] == () and labels["seed"] == 8
    assert {k: v for k, v in labels.items() if k != "seed"} == {k: v for k, v in yaw.items() if k != "seed"}
    assert OUTPUTS["one-labels"] == "classifier-one" and CONTINUES["one-labels"] == "classifier-one.pt"
    assert "one-labels" in OPTIONAL
    _averaged_runs_made_as(labels, "one-labels", "classifier-one", ("train-one-labels.json", "train-one-labels-b.json"),
                           [8, 9])


def _averaged_runs_made_as(cfg: dict, recipe: str, shipped_as: str, records: tuple[str, str], seeds: list[int]) -> None:
    """Each record of a shipped net that is two runs averaged: made by ``recipe`` with ``cfg``'s settings, on from
    the shipped ``shipped_as`` by its labels alone (no teachers), with ``seeds``, and averaged (its note says how)."""
    import json

    models = Path(__file__).resolve().parents[1] / "models"
    keys = {"scenes": "scenes", "styles": "procedural_styles", "varied": "varied_styles", "wide": "wide_styles",
            "maroon": "maroon_styles", "low_res": "low_res", "glare": "glare", "phone": "phone", "shake": "shake",
            "low": "low", "yaw": "yaw", "wear": "wear", "apart": "fives_apart", "lr": "lr", "cls_steps": "cls_steps"}
    made = []
    for record in records:
        shipped = json.loads((models / record).read_text())
        assert shipped["recipe"] == recipe and shipped["shipped_as"] == shipped_as
        assert shipped["teachers"] == [] and shipped["init"].startswith(f"models/{shipped_as}.pt")
        assert "training.average" in shipped["note"]
        for ours, theirs in keys.items():
            assert cfg[ours] == shipped[theirs], (record, ours)
        made.append(shipped["seed"])
    assert made == seeds


def test_average_writes_the_mean_of_the_weights_under_the_name_asked_for(tmp_path: Path):
    torch = pytest.importorskip("torch")
    from training import average
    from training.nets import Classifier

    nets = []
    for seed in (1, 2):
        torch.manual_seed(seed)
        net = Classifier(46)
        torch.save(net.state_dict(), tmp_path / f"{seed}.pt")
        nets.append(net.state_dict())
    average.main(["--out", str(tmp_path / "out"), "--name", "classifier-one", str(tmp_path / "1.pt"),
                  str(tmp_path / "2.pt")])
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"classifier-one.pt", "classifier-one.onnx"}
    mean = torch.load(tmp_path / "out" / "classifier-one.pt")
    key = next(k for k, v in nets[0].items() if v.dtype == torch.float32 and v.numel() > 1)
    assert torch.allclose(mean[key], (nets[0][key] + nets[1][key]) / 2)


def _exported_localiser(seed: int, path: Path, slim: bool = False) -> None:
    torch = pytest.importorskip("torch")
    from training.nets import Localiser, slimmed_localiser

    torch.manual_seed(seed)
    net = Localiser()
    net = (slimmed_localiser(net) if slim else net).eval()
    torch.onnx.export(net, torch.zeros(1, 3, 64, 64), str(path), input_names=["image"], output_names=["maps"],
                      opset_version=17, dynamo=False)


def test_average_of_exported_nets_writes_each_weight_as_their_mean_under_the_first_ones_name(tmp_path: Path):
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    from training import average

    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        _exported_localiser(ord(run), tmp_path / run / "localiser-one.onnx")
    average.main(["--out", str(tmp_path / "out"), str(tmp_path / "a" / "localiser-one.onnx"),
                  str(tmp_path / "b" / "localiser-one.onnx")])
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["localiser-one.onnx"]
    a, b, mean = (onnx.load(str(tmp_path / run / "localiser-one.onnx")) for run in ("a", "b", "out"))
    weights = 0
    for x, y, m in zip(a.graph.initializer, b.graph.initializer, mean.graph.initializer, strict=True):
        x, y, m = (numpy_helper.to_array(t) for t in (x, y, m))
        if x.dtype == np.float32 and x.size > 1 and not np.array_equal(x, y):
            weights += 1
            assert np.allclose(m, (x + y) / 2, atol=1e-7)
    assert weights >= 8  # every layer's weights differ between two seeds
    assert [n.op_type for n in mean.graph.node] == [n.op_type for n in a.graph.node]


def test_average_refuses_exported_nets_that_are_not_the_same_graph(tmp_path: Path, capsys):
    from training import average

    _exported_localiser(1, tmp_path / "usual.onnx")
    _exported_localiser(1, tmp_path / "slim.onnx", slim=True)
    with pytest.raises(SystemExit):
        average.main(["--out", str(tmp_path / "out"), str(tmp_path / "usual.onnx"), str(tmp_path / "slim.onnx")])
    assert "is not the same graph as" in capsys.readouterr().err
    assert not (tmp_path / "out" / "usual.onnx").exists()
    with pytest.raises(SystemExit):
        average.main(["--out", str(tmp_path / "out"), str(tmp_path / "usual.onnx"), str(tmp_path / "x.pt")])
    assert "all of one kind, not .onnx and .pt" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        average.main(["--out", str(tmp_path / "out"), str(tmp_path / "a.pth"), str(tmp_path / "b.pth")])
    assert "all of one kind, not .pth" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        average.main(["--out", str(tmp_path / "out"), str(tmp_path / "usual.onnx"), str(tmp_path / "gone.onnx")])
    assert f"no such file: {tmp_path / 'gone.onnx'}" in capsys.readouterr().err


def test_the_shipped_low_angle_twin_is_two_low_stage_runs_on_it_averaged_each_made_as_the_recipe_says():
    # since session 63 (TRAINING-LOG "Worn tiles"): the shipped twin of session 51 trained on by the low stage's
    # settings (its labels alone, no teachers) twice, seeds 10 and 11, and the two runs' weights averaged
    from training.train import DEFAULTS, RECIPES

    _averaged_runs_made_as({**DEFAULTS, **RECIPES["low"]}, "low", "classifier-low",
                           ("train-low-labels.json", "train-low-labels-b.json"), [10, 11])


def test_anchor_crops_take_their_count_of_every_class_and_name_a_class_too_rare(monkeypatch):
    # models/anchors.jpg: a row a class, ANCHORS_PER_CLASS crops each, every crop of its row's class
    from training import anchors
    from training.faces import ALL_CLASSES

    rng = np.random.default_rng(0)
    ys = rng.permutation(np.repeat(np.arange(len(ALL_CLASSES)), 40))
    crops = np.zeros((len(ys), 64, 48, 3), np.uint8)
    crops[:, 0, 0, 0] = ys  # each crop carries its class in one pixel, and which crop it is in two more
    crops[:, 0, 1, 0], crops[:, 0, 2, 0] = np.arange(len(ys)) % 256, np.arange(len(ys)) // 256
    monkeypatch.setattr(anchors, "generate", lambda *a, **k: {"crops": crops, "ys": ys})
    got = anchors.anchor_crops(seed=3, scenes=10)
    assert got.shape == (len(ALL_CLASSES), anchors.ANCHORS_PER_CLASS, 64, 48, 3)
    assert (got[:, :, 0, 0, 0] == np.arange(len(ALL_CLASSES))[:, None]).all()
    assert all(len({c.tobytes() for c in row}) == anchors.ANCHORS_PER_CLASS for row in got)  # none drawn twice
    assert (anchors.anchor_crops(seed=3, scenes=10) == got).all()  # the seed draws the same crops
    assert not (anchors.anchor_crops(seed=4, scenes=10) == got).all()
    short = ys != ALL_CLASSES.index("0s")
    monkeypatch.setattr(anchors, "generate", lambda *a, **k: {"crops": crops[short], "ys": ys[short]})
    with pytest.raises(SystemExit, match="only 0 crops of 0s in 10 scenes"):
        anchors.anchor_crops(seed=3, scenes=10)


def unseen_fonts_or_skip() -> list[tuple[str, int]]:
    from training.faces import _unseen_fonts

    try:
        return _unseen_fonts()
    except SystemExit as exc:  # the second held-out style's font packages missing
        pytest.skip(str(exc))


def test_the_second_held_out_styles_fonts_are_none_that_training_draws_with():
    # the style measures characters in fonts never trained on: a font of training's (the brush sets' too) in its
    # list would flatter it
    import re

    from training import faces

    training_files = {path for path, _, _ in faces.FONT_FILES} | {path for path, _ in faces.BRUSH_FONT_FILES}
    # and any the drawing functions name themselves, (path, face index), as they name the corner numerals' font
    named = set(re.findall(r'\("(/usr/share/fonts/[^"]+)", \d+\)', Path(faces.__file__).read_text()))
    assert named and named <= training_files  # (found, where this looks)
    training_files |= named
    unseen = {path for path, _ in faces.UNSEEN_FONT_FILES}
    assert len(unseen) == len(faces.UNSEEN_FONT_FILES) >= 8
    assert not unseen & training_files
    assert not {Path(p).name for p in unseen} & {Path(p).name for p in training_files}


def test_a_glyph_a_font_lacks_or_draws_empty_is_not_taken_for_one_it_has():
    from training.faces import has_glyph

    fonts = dict((Path(path).name, (path, i)) for path, i in unseen_fonts_or_skip())
    ipa = fonts["ipam.ttf"]
    assert has_glyph(ipa, "發") and has_glyph(ipa, "萬")
    assert not has_glyph(ipa, "发")  # a Japanese font: its missing-glyph box
    assert not has_glyph(ipa, " ")  # drawn as nothing


def test_the_second_held_out_style_draws_every_character_and_honour_in_its_font_and_keeps_unis_other_faces():
    from training.faces import FaceBank, add_uni, add_unseen_fonts

    fonts = unseen_fonts_or_skip()
    pytest.importorskip("cairosvg")
    bank = FaceBank()
    try:
        add_uni(bank)
    except (SystemExit, FileNotFoundError) as exc:  # a checkout without ../shared/tile-art
        pytest.skip(str(exc))
    add_unseen_fonts(bank, 98, len(fonts))
    styles = [s for s in bank.styles() if s.startswith("fonts")]
    assert len(styles) == len(fonts)
    uni = bank.faces["uni"]
    drawn = [f"{n}m" for n in range(10)] + [f"{n}z" for n in (1, 2, 3, 4, 6, 7)]  # (5z may be blank, as sets print it)
    for style in styles:
        faces = bank.faces[style]
        assert set(faces) == set(uni)
        for cls in drawn:
            inked = faces[cls][0][..., 3] > 128
            assert inked.mean() > 0.01, (style, cls)  # a glyph the font lacks would be empty or a box
        for cls in uni:
            if cls[-1] in "psf":
                assert faces[cls][0] is uni[cls][0]
    # the characters differ from set to set: each set's own font, not one font for all
    ones = {bank.faces[s]["1z"][0].tobytes() for s in styles}
    assert len(ones) == len(styles)


def test_adding_brush_sets_leaves_the_other_sets_alone_and_draws_each_character_in_its_brush_font(banks):
    # train --brush: the brush sets come from a stream of their own (no earlier stage's scenes change), and a brush
    # font without 萬 or 發 (Aoyagi Kouzan T) still draws every character and dragon: 万, and 發 in the first font
    from training.faces import BRUSH_FONT_FILES, _font_list, build_bank, has_glyph

    try:
        _font_list(BRUSH_FONT_FILES, "the brush fonts")
    except SystemExit as exc:
        pytest.skip(str(exc))
    plain, _ = banks
    brushed = build_bank(3, n_procedural=2, with_uni=False, n_varied=1, n_brush=4)
    for style in plain.styles():
        for cls, faces in plain.faces[style].items():
            assert all(np.array_equal(a, b) for a, b in zip(faces, brushed.faces[style][cls], strict=True)), (style, cls)
    added = sorted(set(brushed.styles()) - set(plain.styles()))
    assert added == ["procb000", "procb001", "procb002", "procb003"]
    aoyagi = (BRUSH_FONT_FILES[1][0], 0)
    assert not has_glyph(aoyagi, "萬") and not has_glyph(aoyagi, "發") and not has_glyph(aoyagi, "发")
    for style in added:
        for cls in [f"{n}m" for n in range(10)] + [f"{n}z" for n in (1, 2, 3, 4, 6, 7)]:
            assert (brushed.faces[style][cls][0][..., 3] > 128).sum() > 30, (style, cls)


def test_a_set_prints_the_forms_of_man_and_fa_its_font_has_and_says_where_it_has_no_fa():
    # procedural_set's fallback and the second held-out style both ask fit_glyphs: a Kouzan set that drew 发 would
    # print the font's missing-glyph box as its green dragon
    from training.faces import BRUSH_FONT_FILES, WidePalette, _font_list, fit_glyphs

    try:
        kouzan, aoyagi = _font_list(BRUSH_FONT_FILES, "the brush fonts")
    except SystemExit as exc:
        pytest.skip(str(exc))
    pal = WidePalette(np.random.default_rng(0))
    pal.man_glyph, pal.fa_glyph = "萬", "发"
    assert fit_glyphs(pal, kouzan) and (pal.man_glyph, pal.fa_glyph) == ("萬", "發")
    pal.man_glyph, pal.fa_glyph = "万", "發"
    assert fit_glyphs(pal, kouzan) and (pal.man_glyph, pal.fa_glyph) == ("万", "發")  # its own where it can
    assert not fit_glyphs(pal, aoyagi) and pal.man_glyph == "万"  # no 萬, no 發 nor 发
