"""Train the localisers, the classifier and the verifier on synthetic scenes and export them to ONNX.

    python -m training.train --out models/            # the models (the classifier and each localiser in
                                                      # stages, the low-angle pair and twin after them)
                                                      # and the int8 copies, seeded, CPU
    python -m training.train --out DIR --quick        # the two-hour plan: the same nets from fewer steps, the
                                                      # localisers beside the two classifiers, then the
                                                      # localisers' low-angle pair
    python -m training.train --out DIR --only cls --scenes 1500 --cls-steps 3000    # one model, other settings

The art style "uni" (ffalt/mah, Unicode chart drawings) never enters training; evaluate.py measures it.
"""

from __future__ import annotations

import argparse
import json
import time
from functools import partial
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from companion.paths import shipped
from companion.vision.preprocess import (
    CROP_H,
    CROP_W,
    SHAPED_INPUT,
    STRIDE,
    crop_shaped,
    crop_tile,
    letterbox,
)
from training import sums
from training.faces import ALL_CLASSES, CLASS_INDEX, brush_fonts, build_bank, check_inputs

HELD_OUT = "uni"
LOC_H, LOC_W = 384, 512
CROP_WIN = (192, 256)
FAR_FILL = (0.25, 0.55)  # a scene photographed from further away: the tiles across a quarter to a half of the width
LOW_PITCH = (0.3, 0.55)  # a scene photographed from a low angle (make_eval --pitch 0.3 0.5 --sides), below training's
YAW = (0.6, 0.9)  # a scene photographed from one side: the table's far end this many times as tall (make_eval --yaw)
TURNED = (9.0, 30.0)  # a scene photographed by a camera turned this many degrees either way (make_eval --tilt;
#                      the other scenes: up to 9)
_BANK = None
_FAR = 0.0
_CLUTTER = 0.0
_LOW = 0.0
_YAW = 0.0
_SIDES = 0.0
_WEAR = 0.0
_TURNED = 0.0
_VERIFY_MODELS: str | None = None  # the folder whose localisers the verifier's scenes are read with


def _init(seed: int, n_proc: int, n_varied: int = 0, n_wide: int = 0, far: float = 0.0, clutter: float = 0.0,
          n_maroon: int = 0, flower_art: bool = False, apart: bool = False, low: float = 0.0,
          yaw: float = 0.0, sides: float = 0.0, wear: float = 0.0, turned: float = 0.0,
          big_pins: bool = False, whole_eights: bool = False, n_brush: int = 0) -> None:
    global _BANK, _FAR, _CLUTTER, _LOW, _YAW, _SIDES, _WEAR, _TURNED
    _BANK = build_bank(seed, n_procedural=n_proc, with_uni=False, n_varied=n_varied, n_wide=n_wide,
                       n_maroon=n_maroon, flower_art=flower_art, apart=apart, big_pins=big_pins,
                       whole_eights=whole_eights, n_brush=n_brush)
    _FAR = far
    _CLUTTER = clutter
    _LOW = low
    _YAW = yaw
    _SIDES = sides
    _WEAR = wear
    _TURNED = turned


def _jitter_box(rng: np.random.Generator, box: tuple[float, ...]) -> tuple[float, ...]:
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    dx1, dx2 = rng.normal(0, 0.05, 2) * w
    dy1, dy2 = rng.normal(0, 0.05, 2) * h
    return (x1 + dx1, y1 + dy1, x2 + dx2, y2 + dy2)


def gen_chunk(args: tuple[int, int]) -> dict:
    """Scenes -> localiser inputs (letterboxed 384x512) with tile targets, and classifier crops."""
    from training.scenes import render_scene

    seed, n = args
    rng = np.random.default_rng(seed)
    styles = [s for s in _BANK.styles() if s != HELD_OUT]
    locs, targets, crops, ys = [], [], [], []
    for _ in range(n):
        # no draw when the share is 0, so that runs without clutter make the scenes they always made
        clutter = bool(_CLUTTER and rng.random() < _CLUTTER)
        worn = rng if _WEAR and rng.random() < _WEAR else None  # a club's old set: its paint worn (scenes.worn_ink)
        scene = partial(render_scene, rng, _BANK, styles, clutter=clutter, wear_rng=worn)
        if _TURNED and rng.random() < _TURNED:  # no draw when the share is 0, as for clutter
            scene = partial(scene, tilt=TURNED)
        if _FAR and rng.random() < _FAR:
            img, labels = scene(fill=FAR_FILL)
        elif _LOW and rng.random() < _LOW:  # seen from low, the tiles' sides as high as that angle shows them
            img, labels = scene(pitch=LOW_PITCH, sides_rng=rng)
        elif _YAW and rng.random() < _YAW:  # the camera off to one side: the far end of the table shorter
            img, labels = scene(yaw=YAW)
        elif _SIDES and rng.random() < _SIDES:  # at the usual angles, the sides as high as each angle shows them
            img, labels = scene(sides_rng=rng)
        else:
            img, labels = scene()
        t, scale = letterbox(img)
        canvas = np.zeros((3, LOC_H, LOC_W), np.float32) - 0.5
        hh, ww = min(LOC_H, t.shape[2]), min(LOC_W, t.shape[3])
        canvas[:, :hh, :ww] = t[0, :, :hh, :ww]
        locs.append(((canvas + 0.5) * 255).astype(np.uint8))
        targets.append([(lb.box, lb.sideways, scale) for lb in labels])
        for lb in labels:
            crop = crop_tile(img, _jitter_box(rng, lb.box), lb.sideways, turn=1 if rng.random() < 0.5 else -1)
            crops.append(crop)
            ys.append(CLASS_INDEX[lb.cls])
    return {"loc": np.stack(locs), "targets": targets, "crops": np.stack(crops), "ys": np.array(ys, np.int64)}


def _chunk_jobs(seed: int, n_scenes: int, chunk: int = 25) -> list[tuple[int, int]]:
    """(seed, scenes) of each worker's chunk: chunk i is seeded seed * 100003 + i, so a seed's scenes are the same
    on any number of workers."""
    return [(seed * 100003 + i, min(chunk, n_scenes - i * chunk)) for i in range(-(-n_scenes // chunk))]


def generate(seed: int, n_scenes: int, n_proc_styles: int, workers: int, n_varied: int = 0, n_wide: int = 0,
             far: float = 0.0, clutter: float = 0.0, n_maroon: int = 0, flower_art: bool = False,
             apart: bool = False, low: float = 0.0, yaw: float = 0.0, sides: float = 0.0, wear: float = 0.0,
             turned: float = 0.0, big_pins: bool = False, whole_eights: bool = False, brush: int = 0) -> dict:
    check_inputs()  # here: SystemExit in a Pool's initializer only starts another worker, for ever
    if brush:
        brush_fonts()
    jobs = _chunk_jobs(seed, n_scenes)
    with Pool(workers, initializer=_init,
              initargs=(seed, n_proc_styles, n_varied, n_wide, far, clutter, n_maroon, flower_art, apart, low,
                        yaw, sides, wear, turned, big_pins, whole_eights, brush)) as pool:
        parts = pool.map(gen_chunk, jobs)
    return {
        "loc": np.concatenate([p["loc"] for p in parts]),
        "targets": [t for p in parts for t in p["targets"]],
        "crops": np.concatenate([p["crops"] for p in parts]),
        "ys": np.concatenate([p["ys"] for p in parts]),
    }


# ---------------------------------------------------------------- localiser

def loc_targets(targets: list, oh: int, ow: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    heat = np.zeros((2, oh, ow), np.float32)
    size = np.zeros((2, oh, ow), np.float32)
    mask = np.zeros((oh, ow), np.float32)
    yy, xx = np.mgrid[0:oh, 0:ow].astype(np.float32)
    for box, sideways, scale in targets:
        x1, y1, x2, y2 = (v * scale for v in box)
        cx, cy = (x1 + x2) / 2 / STRIDE, (y1 + y2) / 2 / STRIDE
        w, h = x2 - x1, y2 - y1
        if not (0 <= cx < ow and 0 <= cy < oh) or w < 3 or h < 3:
            continue
        sig = max(0.6, 0.1 * min(w, h) / STRIDE)
        g = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sig * sig))
        c = int(sideways)
        heat[c] = np.maximum(heat[c], g)
        ix, iy = int(cx), int(cy)
        heat[c, iy, ix] = 1.0
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                jx, jy = ix + dx, iy + dy
                if 0 <= jx < ow and 0 <= jy < oh:
                    size[:, jy, jx] = (np.log(w / 16), np.log(h / 16))
                    mask[jy, jx] = 1.0 if (dx == 0 and dy == 0) else 0.3
    return heat, size, mask


def _overexposed(rng: np.random.Generator, x: np.ndarray, p: float) -> np.ndarray:
    """A share p of a localiser's batch (float, -0.5 for black to 0.5 for white) overexposed: scaled by 1.15-1.8
    and clipped at white, so faces and bodies burn out together and the edges between them fade."""
    if p <= 0:
        return x
    over = rng.random(len(x)) < p
    gain = rng.uniform(1.15, 1.8, over.sum()).astype(np.float32)[:, None, None, None]
    x = x.copy()
    x[over] = np.minimum((x[over] + 0.5) * gain, 1.0) - 0.5
    return x


def train_localiser(data: dict, steps: int, seed: int, out: Path, name: str = "localiser", init: Path | None = None,
                    lr: float = 3e-3, slim: bool = False, bright: float = 0.0, teachers: tuple[Path, ...] = ()) -> None:
    """The localiser (nets.Localiser) from scratch, or on from the exported ``init`` (its batch norms then stay
    frozen: the export folded them away, nets.localiser_from_onnx); with ``slim``, ``init`` slimmed to about two
    thirds of its channels (nets.slimmed_localiser). ``bright``: the share of the photos overexposed (scaled by
    1.15-1.8 and clipped at white: faces and bodies burn out together and the edges between them go). With
    ``teachers`` (exported localisers), it learns besides the labels the mean of their output maps, which is what
    the pipeline reads from a pair (:func:`teacher_loss`): one net that finds the tiles the pair finds."""
    import torch

    from training.nets import Localiser, localiser_from_onnx, slimmed_localiser

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 1)
    net = Localiser() if init is None else localiser_from_onnx(str(init))
    if slim:
        net = slimmed_localiser(net)
    net = nhwc(net)
    pair = [nhwc(localiser_from_onnx(str(t)).eval()) for t in teachers]
    opt = torch.optim.AdamW(net.parameters(), lr=lr * 2 / 3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    net.train()
    if init is not None:
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.eval()
    n = len(data["loc"])
    oh, ow = LOC_H // STRIDE, LOC_W // STRIDE
    tg = [loc_targets(t, oh, ow) for t in data["targets"]]
    bs = 16
    t0 = time.time()
    for step in range(steps):
        idx = rng.integers(0, n, bs)
        # half-size windows (offsets on the 32-px grid) cost a quarter of the compute; the net is fully
        # convolutional, so it runs on whole photos afterwards
        ox, oy = int(rng.integers(0, 9)) * 32, int(rng.integers(0, 7)) * 32
        cx_, cy_ = ox // STRIDE, oy // STRIDE
        win = (slice(None), slice(None), slice(cy_, cy_ + CROP_WIN[0] // STRIDE), slice(cx_, cx_ + CROP_WIN[1] // STRIDE))
        x = data["loc"][idx][:, :, oy:oy + CROP_WIN[0], ox:ox + CROP_WIN[1]].astype(np.float32) / 255.0 - 0.5
        # brightness/contrast jitter per image, cheap and keeps cloths and lights varied
        x = x * rng.uniform(0.7, 1.3, (bs, 1, 1, 1)).astype(np.float32) + rng.uniform(-0.12, 0.12, (bs, 1, 1, 1)).astype(np.float32)
        x = _overexposed(rng, x, bright)
        heat = np.stack([tg[i][0] for i in idx])[win]
        size = np.stack([tg[i][1] for i in idx])[win]
        mask = np.stack([tg[i][2] for i in idx])[:, None][win][:, 0]
        if rng.random() < 0.5:  # mirror: tiles stay tiles, only their order changes
            x, heat, size, mask = x[..., ::-1], heat[..., ::-1], size[..., ::-1], mask[..., ::-1]
        x_t = nhwc(torch.from_numpy(np.ascontiguousarray(x)))
        out_t = net(x_t)
        ht = torch.from_numpy(np.ascontiguousarray(heat))
        p = torch.sigmoid(out_t[:, :2]).clamp(1e-4, 1 - 1e-4)
        pos = (ht >= 0.999).float()
        neg_w = (1 - ht) ** 4
        focal = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * neg_w * p ** 2 * torch.log(1 - p)).sum()
        focal = focal / pos.sum().clamp(min=1)
        mt = torch.from_numpy(np.ascontiguousarray(mask))[:, None]
        st = torch.from_numpy(np.ascontiguousarray(size))
        size_loss = (torch.abs(out_t[:, 2:] - st) * mt).sum() / mt.sum().clamp(min=1)
        loss = focal + 2.0 * size_loss
        if pair:
            with torch.no_grad():
                mean = torch.stack([t(x_t) for t in pair]).mean(0)
            loss = loss + teacher_loss(out_t, mean, pos.sum().clamp(min=1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            print(f"loc step {step}/{steps} loss {loss.item():.3f} (focal {focal.item():.3f} size {size_loss.item():.3f}) "
                  f"{_progress(step, steps, t0)}", flush=True)
    net.eval().to(memory_format=torch.contiguous_format)
    dummy = torch.zeros(1, 3, LOC_H, LOC_W)
    torch.onnx.export(net, dummy, str(out / f"{name}.onnx"), input_names=["image"], output_names=["maps"],
                      dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}}, opset_version=17,
                      dynamo=False)


def teacher_loss(maps, mean, norm):  # noqa: ANN001, ANN201
    """How far a localiser's output ``maps`` (N, 4, h, w: two heat logits, log width and height) lie from the
    teachers' ``mean`` maps: the cross-entropy of its heat against theirs (sigmoid of the mean logits, as
    pipeline.decode_maps reads a pair), summed and divided by ``norm`` (the labels' peaks, as the focal loss is),
    and twice the absolute difference of the sizes where the teachers see a tile, weighted by their heat there."""
    import torch

    soft = torch.sigmoid(mean[:, :2])
    heat = torch.nn.functional.binary_cross_entropy_with_logits(maps[:, :2], soft, reduction="sum")
    heat = heat - torch.nn.functional.binary_cross_entropy(soft, soft, reduction="sum")  # 0 where they agree
    weight = soft.max(dim=1, keepdim=True).values
    size = (torch.abs(maps[:, 2:] - mean[:, 2:]) * weight).sum() / weight.sum().clamp(min=1)
    return heat / norm + 2.0 * size


# ---------------------------------------------------------------- classifier

def _low_res(rng: np.random.Generator, x: np.ndarray, p: float) -> np.ndarray:
    """A share p of the crops shrunk to 35-80% and scaled back up: a tile a third as wide in the photo
    (dora rows, far seats) loses thin strokes, which is where 二 and 三 get confused."""
    if p <= 0:
        return x
    x = x.copy()
    h, w = x.shape[1:3]
    for i in np.flatnonzero(rng.random(len(x)) < p):
        k = rng.uniform(0.35, 0.8)
        small = cv2.resize(x[i], (max(4, int(w * k)), max(4, int(h * k))), interpolation=cv2.INTER_AREA)
        x[i] = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return x


def _glare(rng: np.random.Generator, x: np.ndarray, p: float) -> np.ndarray:
    """A share p of the crops with one or two highlights: a glossy face reflecting a lamp shows a soft, nearly
    white patch (round or a streak, 10-50% of the face wide) that hides part of the symbol."""
    if p <= 0:
        return x
    x = x.copy()
    h, w = x.shape[1:3]
    for i in np.flatnonzero(rng.random(len(x)) < p):
        alpha = np.zeros((h, w), np.float32)
        for _ in range(1 + int(rng.random() < 0.3)):
            centre = (int(rng.uniform(0.15, 0.85) * w), int(rng.uniform(0.15, 0.85) * h))
            axes = (max(1, int(rng.uniform(0.05, 0.25) * w)), max(1, int(rng.uniform(0.03, 0.15) * w)))
            patch = np.zeros((h, w), np.float32)
            cv2.ellipse(patch, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
            alpha = np.maximum(alpha, cv2.GaussianBlur(patch, (0, 0), rng.uniform(0.8, 3.0)) * rng.uniform(0.5, 1.0))
        white = rng.uniform(225, 255, 3).astype(np.float32)
        x[i] = (x[i] * (1 - alpha[..., None]) + white * alpha[..., None]).astype(np.uint8)
    return x


def _phone(rng: np.random.Generator, x: np.ndarray, p: float) -> np.ndarray:
    """A share p of the crops as a phone's camera processes a photo, one of: sharpened (an unsharp mask with a
    halo), local tone mapping (CLAHE on the lightness), noise smoothed away (a bilateral filter, flat faces and
    soft strokes), or compressed hard (JPEG 10-40). Probes in session 22 on the won hands: each cost 6-24 whole
    hands of 100 read from photos processed so."""
    if p <= 0:
        return x
    x = x.copy()
    for i in np.flatnonzero(rng.random(len(x)) < p):
        kind = rng.integers(4)
        if kind == 0:
            soft = cv2.GaussianBlur(x[i], (0, 0), rng.uniform(0.6, 1.4))
            amount = rng.uniform(0.6, 1.6)
            x[i] = cv2.addWeighted(x[i], 1 + amount, soft, -amount, 0)
        elif kind == 1:
            lab = cv2.cvtColor(x[i], cv2.COLOR_BGR2LAB)
            lab[..., 0] = cv2.createCLAHE(rng.uniform(1.5, 4.0), (2, 2)).apply(lab[..., 0])
            x[i] = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)
        elif kind == 2:
            x[i] = cv2.bilateralFilter(x[i], 5, rng.uniform(30, 80), rng.uniform(2, 5))
        else:
            ok, enc = cv2.imencode(".jpg", x[i], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(10, 41))])
            x[i] = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return x


def _sharpen(rng: np.random.Generator, x: np.ndarray, p: float) -> np.ndarray:
    """A share p of the crops sharpened as a phone's camera may sharpen a whole photo: an unsharp mask of a radius
    (sigma) 0.6-3 px and an amount 0.6-1.6, wider than :func:`_phone`'s (0.6-1.4 px). A photo sharpened so loses
    red fives: make_eval's won hands of seed 98 sharpened with 1.5-3 px read 17 of their 81 red fives as plain (5 of
    those not marked for a check), with 0.6-1.4 px 13, as taken 2 (models/TRAINING-LOG.md, "Sharpened photos"). p 0
    draws nothing."""
    if p <= 0:
        return x
    x = x.copy()
    for i in np.flatnonzero(rng.random(len(x)) < p):
        soft = cv2.GaussianBlur(x[i], (0, 0), rng.uniform(0.6, 3.0))
        amount = rng.uniform(0.6, 1.6)
        x[i] = cv2.addWeighted(x[i], 1 + amount, soft, -amount, 0)
    return x


def _bright(rng: np.random.Generator, x: np.ndarray, p: float) -> np.ndarray:
    """A share p of the crops overexposed: scaled by 1.15-1.8 and clipped, so a white face burns out flat and pale
    circles and bamboo fade towards it (a phone metering a dark cloth; session 22's probe: won hands 1.5 times too
    bright read 54 of 100 whole hands against 85, most of the loss misreads)."""
    if p <= 0:
        return x
    x = x.copy()
    for i in np.flatnonzero(rng.random(len(x)) < p):
        x[i] = np.clip(x[i].astype(np.float32) * rng.uniform(1.15, 1.8), 0, 255).astype(np.uint8)
    return x


def _shake(rng: np.random.Generator, x: np.ndarray, p: float) -> np.ndarray:
    """A share p of the crops smeared as by a camera that moved: a straight motion blur 0.05-0.35 of the crop's
    width long (2-17 px of 48) in a random direction (make_eval --shake's shaken photos read 24-31% of whole hands
    exactly; TRAINING-LOG "Shaken photos")."""
    if p <= 0:
        return x
    from training.scenes import moved

    x = x.copy()
    w = x.shape[2]
    for i in np.flatnonzero(rng.random(len(x)) < p):
        length = max(2, int(round(w * rng.uniform(0.05, 0.35))))
        x[i] = moved(x[i], length, rng.uniform(0, 180), cv2.BORDER_REPLICATE)  # a crop's rim, not its mirror
    return x


def _defocus(rng: np.random.Generator, x: np.ndarray, p: float) -> np.ndarray:
    """A share p of the crops out of focus: blurred by a disc (as a lens blurs) 0.1-0.3 of the crop's width across
    (a radius of 2-7 px of 48), the blur of a phone focused nearer or farther than the tiles (make_eval --focus's photos lose
    the hand from a fifth of a tile's width on; TRAINING-LOG "A shallow depth of field"). p 0 draws nothing."""
    if p <= 0:
        return x
    from training.scenes import out_of_focus

    x = x.copy()
    w = x.shape[2]
    for i in np.flatnonzero(rng.random(len(x)) < p):
        x[i] = out_of_focus(x[i], max(1, int(round(w * rng.uniform(0.1, 0.3) / 2))), cv2.BORDER_REPLICATE)
    return x


def augment_crops(rng: np.random.Generator, x: np.ndarray, low_res: float = 0.0, glare: float = 0.0,
                  phone: float = 0.0, bright: float = 0.0, shake: float = 0.0, turns: bool = True,
                  focus: float = 0.0, sharpen: float = 0.0) -> np.ndarray:
    """x: (B,H,W,3) uint8 -> float, with colour casts and, unless ``turns`` is False, half of the crops turned by
    180 degrees (tiles lie either way round). ``focus``: the share blurred out of focus (:func:`_defocus`, after the
    shake), ``sharpen`` the share sharpened (:func:`_sharpen`, after the phone's processing), each drawing from
    ``rng`` only where above 0 (so that the recipes without them draw as before)."""
    x = _sharpen(rng, _phone(rng, _glare(rng, _bright(rng, _low_res(rng, x, low_res), bright), glare), phone), sharpen)
    x = _defocus(rng, _shake(rng, x, shake), focus).astype(np.float32)
    b = len(x)
    x = x * rng.uniform(0.75, 1.25, (b, 1, 1, 1)) * rng.uniform(0.9, 1.1, (b, 1, 1, 3)) + rng.uniform(-20, 20, (b, 1, 1, 1))
    if turns:
        turn = rng.random(b) < 0.5
        x[turn] = x[turn, ::-1, ::-1]
    x = np.clip(x, 0, 255) / 255.0 - 0.5
    return np.ascontiguousarray(x[..., ::-1].transpose(0, 3, 1, 2)).astype(np.float32)


DISTIL_T = 2.0  # the temperature at which a slimmed classifier learns its parent's probabilities


def train_classifier(crops: np.ndarray, ys: np.ndarray, steps: int, seed: int, out: Path,
                     init: Path | None = None, lr: float = 3e-3, log_every: int = 100, low_res: float = 0.0,
                     glare: float = 0.0, slim: bool = False, phone: float = 0.0, bright: float = 0.0,
                     shake: float = 0.0, name: str = "classifier", teachers: tuple[Path, ...] = (),
                     focus: float = 0.0, sharpen: float = 0.0) -> None:
    """The classifier (nets.Classifier) from scratch, or on from ``init``, written as out/<name>.pt and .onnx. With
    ``slim``, the net trained is ``init`` slimmed to two thirds of its channels (nets.slimmed), and besides the labels
    it learns the probabilities ``init`` itself gives each crop (distillation, at temperature DISTIL_T). With
    ``teachers`` (classifiers' .pt files), it learns the mean of their probabilities instead (:func:`mean_teacher`):
    one net that reads as the pair averaged does."""
    import torch

    from training.nets import Classifier, classifier_from, slimmed

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 2)
    net = Classifier(len(ALL_CLASSES)) if init is None else classifier_from(torch.load(init))
    teacher = None
    if slim:
        teacher, net = nhwc(net.eval()), slimmed(net)
    if teachers:
        teacher = mean_teacher([nhwc(classifier_from(torch.load(t)).eval()) for t in teachers])
    net = nhwc(net)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    bs = 96
    t0 = time.time()
    # classes are sampled evenly so rare ones (reds, flowers, backs) are learnt as well as the rest
    by_class = [np.flatnonzero(ys == c) for c in range(len(ALL_CLASSES))]
    present = [c for c in range(len(ALL_CLASSES)) if len(by_class[c])]
    for step in range(steps):
        cls = rng.choice(present, bs)
        idx = np.array([by_class[c][rng.integers(len(by_class[c]))] for c in cls])
        x = nhwc(torch.from_numpy(augment_crops(rng, crops[idx], low_res, glare, phone, bright, shake, focus=focus,
                                                          sharpen=sharpen)))
        y = torch.from_numpy(ys[idx])
        net.train()
        logits = net(x)
        loss = torch.nn.functional.cross_entropy(logits, y, label_smoothing=0.05)
        if teacher is not None:
            with torch.no_grad():
                soft = torch.softmax(teacher(x) / DISTIL_T, dim=1)
            loss = loss + DISTIL_T ** 2 * torch.nn.functional.kl_div(
                torch.log_softmax(logits / DISTIL_T, dim=1), soft, reduction="batchmean")
        _step(opt, sched, loss, "cls", step, steps, t0, log_every)
    _save_crop_net(net, out, name, "logits")


def mean_teacher(nets: list):  # noqa: ANN201
    """Several classifiers as one teacher: logits whose softmax at DISTIL_T is the mean of theirs at DISTIL_T."""
    import torch

    def teacher(x):  # noqa: ANN001, ANN202
        return torch.log(torch.stack([torch.softmax(n(x) / DISTIL_T, dim=1) for n in nets]).mean(0)) * DISTIL_T

    return teacher


def nhwc(t):  # noqa: ANN001, ANN201
    """A net or a batch of images in channels-last memory: the same sums in another order, and on the 2-core AMD
    CPU here oneDNN's convolutions train 1.2-1.4x faster so (scratch timing, session 16: a classifier step on one
    thread 446 -> 327 ms, a slim localiser's 255 -> 179 ms). Nets go back to the usual layout before saving."""
    import torch

    if isinstance(t, torch.nn.Module):
        return t.to(memory_format=torch.channels_last)
    return t.contiguous(memory_format=torch.channels_last)


def _step(opt, sched, loss, name: str, step: int, steps: int, t0: float, log_every: int = 100) -> None:  # noqa: ANN001
    """One optimiser step on ``loss``, logged every ``log_every`` steps and at the last."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % log_every == 0 or step == steps - 1:
        print(f"{name} step {step}/{steps} loss {loss.item():.3f} {_progress(step, steps, t0)}", flush=True)


def _progress(step: int, steps: int, t0: float) -> str:
    """Seconds since ``t0`` and, past the first step, the minutes this net's other steps will take at the pace
    so far: a step's time differs 2-3x between machines of the same name (TRAINING-LOG), so a run says early how
    long it will be."""
    elapsed = time.time() - t0
    if step == 0:
        return f"{elapsed:.0f}s"
    return f"{elapsed:.0f}s, about {elapsed / (step + 1) * (steps - 1 - step) / 60:.0f} min left"


def _save_crop_net(net, out: Path, name: str, output: str, crops: str = "crops") -> None:  # noqa: ANN001
    """A net over tile crops written as out/<name>.pt and out/<name>.onnx (any number of crops), its input named
    ``crops`` (SHAPED_INPUT for one that reads crops cut around preprocess.shaped_box)."""
    import torch

    net.eval().to(memory_format=torch.contiguous_format)
    torch.save(net.state_dict(), out / f"{name}.pt")
    dummy = torch.zeros(1, 3, CROP_H, CROP_W)
    torch.onnx.export(net, dummy, str(out / f"{name}.onnx"), input_names=[crops], output_names=[output],
                      dynamic_axes={crops: {0: "n"}, output: {0: "n"}}, opset_version=17, dynamo=False)


# ---------------------------------------------------------------- verifier

VERIFY_LOW = 0.3  # the share of the verifier's scenes photographed from a low angle (LOW_PITCH; since session 56)


def gen_verify_chunk(args: tuple[int, int]) -> dict:
    """Scenes with things that are no tiles drawn beside the hand (scenes.draw_distractors) -> crops of the
    tiles (label 1), of tile-sized windows on those things and on the bare table (label 0), and of the boxes the
    localisers find there (label by where they lie), each cut around its box made a crop's shape
    (preprocess.shaped_box), as the pipeline cuts them for the verifier."""
    from training.faces import _fonts
    from training.scenes import _free, draw_distractors, render_scene

    seed, n = args
    rng = np.random.default_rng(seed)
    styles = [s for s in _BANK.styles() if s != HELD_OUT]
    fonts = _fonts()
    crops, ys = [], []
    for _ in range(n):
        clutter = bool(rng.random() < 0.25)
        if rng.random() < VERIFY_LOW:  # flat tiles, cut around their shaped boxes, show their sides and the table
            img, labels = render_scene(rng, _BANK, styles, hand=True, pitch=LOW_PITCH, clutter=clutter, sides_rng=rng)
        else:
            img, labels = render_scene(rng, _BANK, styles, hand=True, clutter=clutter)
        boxes = [lb.box for lb in labels]
        img = np.ascontiguousarray(img)
        windows = draw_distractors(rng, img, boxes, fonts)
        tw = float(np.median([min(b[2] - b[0], b[3] - b[1]) for b in boxes]))
        h, w = img.shape[:2]
        for _k in range(3):  # the bare table
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if _free(boxes, cx, cy, 0.9 * tw):
                windows.append(((cx - tw / 2, cy - 0.67 * tw, cx + tw / 2, cy + 0.67 * tw), False))
        for lb in labels:
            crops.append(crop_shaped(img, _jitter_box(rng, lb.box), lb.sideways, turn=1 if rng.random() < 0.5 else -1))
            ys.append(1.0)
        # what the localisers find there, cut as the pipeline cuts it: boxes on a tile are tiles, boxes on nothing
        # the labels know are the things the verifier is for (boxes half on a tile are left out)
        if _VERIFY_MODELS is not None:
            for box, side, _ in _pair_finds(img):
                best = max(_iou(box, b) for b in boxes)
                if best > 0.5 or best < 0.1:
                    crops.append(crop_shaped(img, box, side))
                    ys.append(float(best > 0.5))
        for box, side in windows:
            crops.append(crop_shaped(img, box, side))
            ys.append(0.0)
    return {"crops": np.stack(crops), "ys": np.array(ys, np.float32)}


def _pair_finds(img: np.ndarray) -> list:
    """The boxes the usual pair of ``_VERIFY_MODELS`` finds in one look at the photo, unverified (the pipeline's
    first look, pipeline._localise_once): the pair even where localiser-one reads in its place at run time
    (pipeline.localisers(one=False)), so that the verifier's and the orienter's recipes make what they made."""
    from companion.vision import pipeline

    return pipeline._localise_once(img, verify=False, nets=pipeline.localisers(one=False))[0]


def _iou(a: tuple, b: tuple) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
    return w * h / union if union > 0 else 0.0


def _init_verify(seed: int, n_proc: int, models: str | None) -> None:
    global _VERIFY_MODELS
    _init(seed, n_proc)
    _VERIFY_MODELS = models
    if models is not None:
        import os

        from companion.vision import pipeline

        pipeline.MODELS_DIR = Path(models)
        pipeline.THREADS = 1  # one process per core already
        # the float localisers: the one command writes the int8 copies only after this stage, so a run with
        # --only verify on the shipped models reads the scenes as the whole command does
        os.environ["COMPANION_PRECISION"] = "fp32"


def generate_verify(seed: int, n_scenes: int, n_proc_styles: int, workers: int, models: Path | None) -> dict:
    """The verifier's crops; with ``models`` (a folder with the localisers) the localisers' own finds too."""
    check_inputs()  # here: SystemExit in a Pool's initializer only starts another worker, for ever
    jobs = _chunk_jobs(seed, n_scenes)
    with Pool(workers, initializer=_init_verify,
              initargs=(seed, n_proc_styles, str(models) if models is not None else None)) as pool:
        parts = pool.map(gen_verify_chunk, jobs)
    return {"crops": np.concatenate([p["crops"] for p in parts]), "ys": np.concatenate([p["ys"] for p in parts])}


def train_verifier(crops: np.ndarray, ys: np.ndarray, steps: int, seed: int, out: Path) -> None:
    """The verifier (nets.Verifier) on crops that are tiles and crops that are not, half of each per batch."""
    import torch

    from training.nets import Verifier

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 3)
    net = nhwc(Verifier())
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    pos, neg = np.flatnonzero(ys == 1), np.flatnonzero(ys == 0)
    bs = 128
    t0 = time.time()
    for step in range(steps):
        idx = np.concatenate([rng.choice(pos, bs // 2), rng.choice(neg, bs // 2)])
        x = nhwc(torch.from_numpy(augment_crops(rng, crops[idx], low_res=0.3)))
        y = torch.from_numpy(ys[idx])[:, None]
        net.train()
        _step(opt, sched, torch.nn.functional.binary_cross_entropy_with_logits(net(x), y), "verify", step, steps, t0)
    _save_crop_net(net, out, "verifier", "logit", SHAPED_INPUT)


# ---------------------------------------------------------------- orienter

ORIENT_LOW, ORIENT_FAR = 0.3, 0.1  # shares of the orienter's scenes seen from a low angle and from further away


def gen_orient_chunk(args: tuple[int, int]) -> dict:
    """Scenes (ORIENT_LOW of them photographed from a low angle, ORIENT_FAR from further away, a quarter with the
    wall and discards), half of them turned upside down -> crops of the tiles lying upright, turned back the right
    way up where the scene was turned: cut around their boxes (jittered) and, with the localisers of
    ``_VERIFY_MODELS``, around the boxes those find on them as the pipeline cuts them (upside down the localisers
    place their boxes otherwise: trained on upright photos, they take a tile's side seen below its face for part
    of it). Sideways tiles are left out (a called tile is turned either way)."""
    from training.scenes import render_scene

    seed, n = args
    rng = np.random.default_rng(seed)
    styles = [s for s in _BANK.styles() if s != HELD_OUT]
    crops = []
    for _ in range(n):
        clutter, kind = bool(rng.random() < 0.25), rng.random()
        if kind < ORIENT_LOW:
            img, labels = render_scene(rng, _BANK, styles, pitch=LOW_PITCH, clutter=clutter, sides_rng=rng)
        elif kind < ORIENT_LOW + ORIENT_FAR:
            img, labels = render_scene(rng, _BANK, styles, fill=FAR_FILL, clutter=clutter)
        else:
            img, labels = render_scene(rng, _BANK, styles, clutter=clutter)
        boxes = [lb.box for lb in labels if not lb.sideways]
        turned = bool(rng.random() < 0.5)
        if turned:
            h, w = img.shape[:2]
            img = np.ascontiguousarray(img[::-1, ::-1])
            boxes = [(w - x2, h - y2, w - x1, h - y1) for x1, y1, x2, y2 in boxes]
        cut = [_jitter_box(rng, b) for b in boxes]
        if _VERIFY_MODELS is not None:
            cut += [box for box, side, _ in _pair_finds(img)
                    if not side and boxes and max(_iou(box, b) for b in boxes) > 0.5]
        for box in cut:
            crop = crop_tile(img, box, False)
            crops.append(crop[::-1, ::-1] if turned else crop)
    return {"crops": np.stack(crops)}


def generate_orient(seed: int, n_scenes: int, n_proc_styles: int, workers: int, models: Path | None) -> np.ndarray:
    """The orienter's crops, all the right way up (gen_orient_chunk); with ``models`` (a folder with the
    localisers) the boxes they find too."""
    check_inputs()  # here: SystemExit in a Pool's initializer only starts another worker, for ever
    with Pool(workers, initializer=_init_verify,
              initargs=(seed, n_proc_styles, str(models) if models is not None else None)) as pool:
        parts = pool.map(gen_orient_chunk, _chunk_jobs(seed, n_scenes))
    return np.concatenate([p["crops"] for p in parts])


def train_orienter(crops: np.ndarray, steps: int, seed: int, out: Path) -> None:
    """The orienter (nets.Orienter) on upright crops, half of each batch turned by 180 degrees (label 0). Tiles
    that look the same either way round (most circles, a blank white dragon, backs) are in the batches too: the
    net learns to say nothing of them (a logit near 0) rather than to guess."""
    import torch

    from training.nets import Orienter

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 4)
    net = nhwc(Orienter())
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    bs = 128
    t0 = time.time()
    for step in range(steps):
        batch = crops[rng.integers(len(crops), size=bs)]
        upright = rng.random(bs) < 0.5
        batch[~upright] = batch[~upright, ::-1, ::-1]
        x = nhwc(torch.from_numpy(augment_crops(rng, batch, low_res=0.3, glare=0.2, turns=False)))
        y = torch.from_numpy(upright.astype(np.float32))[:, None]
        net.train()
        _step(opt, sched, torch.nn.functional.binary_cross_entropy_with_logits(net(x), y), "orient", step, steps, t0)
    _save_crop_net(net, out, "orienter", "logit")


# One recipe per model (MODEL_CARD "Training"): the localisers' are the settings the shipped ones were made
# with (models/train-loc*.json), each followed by its slim stage (the net slimmed to two thirds of its channels
# and trained on for 1500 steps on the same scenes: about half the work at run time, as many hands read; shipped
# since session 13); the classifier's is the best from-scratch recipe measured, since the shipped
# classifier came from a chain of runs, followed by the glare stage: the same scenes again for 1500 steps at a
# lower rate, a share of the crops with highlights on them (_glare), twice, and the reds stage (the glare stage's
# settings on those scenes with no plain five drawn reddish: faces.fives_apart), the phone stage (the reds stage's
# settings with a fifth of the crops processed as a phone's camera does: _phone) and the shake stage (the phone
# stage's with a tenth of the crops smeared as by a moving camera: _shake), and then its low-angle twin (the low
# stage: the shake stage's settings on scenes of which 80% are seen from a low angle, written as classifier-low
# beside the classifier), and after it the yaw stage (the shake stage's settings on scenes of which 30% are seen
# from one side, over the classifier); the verifier's comes last, because its
# scenes are read with the localisers the run has just made (gen_verify_chunk). Without --only the command runs
# them all (but the classifier's slim stage, OPTIONAL), one after the other, the localisers on their own scenes,
# then writes the int8 copies of the localisers and classifiers; a flag given on the command line overrides that
# setting in every recipe it runs.
DEFAULTS = {"seed": 4, "scenes": 2400, "styles": 40, "varied": 20, "wide": 40, "maroon": 0, "low_res": 0.4,
            "far": 0.0, "clutter": 0.0, "loc_steps": 5000, "cls_steps": 8000, "init": None, "lr": 3e-3,
            "glare": 0.0, "verify_steps": 3000, "orient_steps": 2000, "slim": False, "flower_art": False,
            "apart": False, "phone": 0.0, "bright": 0.0, "shake": 0.0, "low": 0.0, "yaw": 0.0, "sides": 0.0,
            "wear": 0.0, "focus": 0.0, "sharpen": 0.0, "teachers": (), "turned": 0.0, "big_pins": False,
            "whole_eights": False, "brush": 0}
CLS_SCENES = {"scenes": 3000, "styles": 80, "varied": 40, "wide": 80, "maroon": 40}
GLARE = {**CLS_SCENES, "cls_steps": 1500, "lr": 5e-4, "glare": 0.4}  # continues out/classifier.pt
ONE_LABELS = {**GLARE, "seed": 8, "apart": True, "phone": 0.2, "shake": 0.1, "yaw": 0.3}  # continues classifier-one
RECIPES = {
    "cls": {**CLS_SCENES, "cls_steps": 9000},
    "glare": GLARE,
    # the glare stage once more, the same settings, scenes and batches (since session 17: both shipped classifiers
    # went through it, 625 held-out requests of 800 instead of 618; TRAINING-LOG "A second glare pass")
    "glare2": GLARE,
    # slims out/classifier.pt: measured in session 13 and not shipped (OPTIONAL)
    "slim": {**CLS_SCENES, "cls_steps": 2000, "lr": 1e-3, "glare": 0.4, "slim": True},
    # trains out/classifier.pt on over scenes whose procedural flowers say their class only by name and number
    # (held-out flowers were read by their pictures); measured in session 17 and not shipped: the shipped pair
    # through it read worse on every held-out set, flowers too (TRAINING-LOG "Flowers told apart by name") (OPTIONAL)
    "flowers": {**CLS_SCENES, "cls_steps": 1500, "lr": 5e-4, "glare": 0.4, "flower_art": True},
    # the glare stage on scenes whose one-ink sets of a reddish ink are drawn in blue (faces.fives_apart), so that
    # no plain five looks like a red one (since session 19 both shipped classifiers went through it after glare2:
    # 636 held-out requests of 800 instead of 625, red fives read as plain 18 of 290 instead of 31; a third glare
    # pass without it, the control, 625; TRAINING-LOG "Red fives apart")
    "reds": {**GLARE, "apart": True},
    # the reds stage with a fifth of the crops processed as a phone's camera does (sharpened, tone-mapped, smoothed,
    # compressed: _phone); since session 35 both shipped classifiers went through it after reds: 666 held-out
    # requests of 800 instead of 660, 6889 over the card's 50 sets instead of 6765. Against its control (the reds
    # stage once more, session 34) the first classifier alone through it read 671 held-out requests instead of 663,
    # 292 phone-processed ones of 400 instead of 284; with 40% of the crops processed (sessions 22 and 34) it misread
    # the South pon of the glare_hand fixture, both the processing's (TRAINING-LOG "The phone stage against its
    # control", "Both classifiers through the phone stage")
    "phone": {**GLARE, "apart": True, "phone": 0.2},
    # the reds stage with a share of the crops overexposed (_bright), and with those and phone-processed ones too;
    # measured in session 23 and not shipped: both shipped classifiers through bright read 629 held-out requests of
    # 800 and overexposed photos (make_eval --bright) 1-2 points better, through camera 634, and it misread the
    # glare_hand fixture as the phone stage did (TRAINING-LOG "Overexposed photos") (OPTIONAL)
    "bright": {**GLARE, "apart": True, "bright": 0.3},
    "camera": {**GLARE, "apart": True, "bright": 0.3, "phone": 0.3},
    # the phone stage with a tenth of the crops smeared as by a moving camera (_shake); since session 36 the shipped
    # first classifier went through it after phone: 669 held-out requests of 800 instead of 666, shaken photos
    # (make_eval --shake) 126 of 400 instead of 116, 47 more over the card's 50 sets than its control (the phone
    # stage once more; session 35); classifier-b through it too read 5 fewer over the 50 and red fives as plain 18
    # of 290 instead of 13, so it stops at phone (TRAINING-LOG "Shaken crops beside phone-processed ones"). With
    # --shake 0.3 --phone 0 after reds (session 26, not shipped): shaken photos 37 requests of 400 better, a fresh
    # held-out set 6 of 200 worse, and the glare_hand fixture's South pon misread as red dragons (TRAINING-LOG
    # "Shaken photos")
    "shake": {**GLARE, "apart": True, "phone": 0.2, "shake": 0.1},
    # the shake stage with 80% of its scenes photographed from a low angle (LOW_PITCH, the tiles' sides as high as
    # that angle shows them: scenes._side_height), written beside out/classifier.pt as its low-angle twin
    # classifier-low, which reads the crops of the low-angle localisers' reads only (pipeline.classifiers). From
    # session 37 both shipped classifiers had such a twin (classifier-b's made by the same stage from it; since
    # session 51 the two teach the one twin shipped, low-student below): 6956 requests over the card's 50 sets
    # instead of 6927, the held-out 800 671 instead of 669, the low-angle 400 218 instead of 209; twins with 40% of
    # their scenes so read 6949, 669 and 212 (TRAINING-LOG "Low-angle twins of the classifiers"). As session 29
    # made it (the reds stage with 40% so, no phone or shake) and shipped in the classifiers' place, it read the
    # low-angle set 6 requests of 100 better but the held-out sets 641 of 800 instead of 651 (TRAINING-LOG "Tiles'
    # sides seen from a low angle")
    # Since session 63 the shipped twin is session 51's trained on by this stage twice (--seed 10 and --seed 11,
    # --init models/classifier-low.pt; train-low-labels.json, train-low-labels-b.json) and the two averaged
    # (training.average --name classifier-low): 24 more requests over 42 evaluation sets (TRAINING-LOG "Worn tiles")
    "low": {**GLARE, "apart": True, "phone": 0.2, "shake": 0.1, "low": 0.8},
    # the shake stage with 30% of its scenes photographed from one side (YAW: the table's far end 0.6-0.9 times as
    # tall as its near end; the other scenes are seen square on), continuing out/classifier.pt after the low stage
    # has made its twin from it; since session 47 the shipped first classifier went through it after shake: 7095
    # requests over the card's 50 sets instead of 7056, its control (the shake stage once more) 7053; the held-out
    # 800 681 instead of 679 (TRAINING-LOG "Crops seen from one side"); classifier-b through it too (session 49) read
    # no more of the photos from one side than its control and 4 fewer held-out ones, so it stops at phone
    "yaw": {**GLARE, "apart": True, "phone": 0.2, "shake": 0.1, "yaw": 0.3},
    # one net taught by the low-angle twins of both classifiers (the low stage's settings on fresh scenes, seed 6,
    # learning the mean of the two twins' probabilities at DISTIL_T: mean_teacher), written over out/classifier-low
    # and read alone where the pair of twins was read (pipeline.classifiers). Since session 51 the shipped
    # classifier-low is this stage's, taught by session 37's twins: 7436 requests over the card's 52 sets instead of
    # 7427, the same 686 of the 800 held-out ones, 1.09-1.11x as fast from 17-30 degrees (TRAINING-LOG "One
    # low-angle twin taught by both"). It needs both twins in --out, which the whole command does not make, and
    # writes over the first: run again in the same --out, it learns from its own output (OPTIONAL)
    "low-student": {**GLARE, "seed": 6, "apart": True, "phone": 0.2, "shake": 0.1, "low": 0.8,
                    "teachers": ("classifier-low.pt", "classifier-b-low.pt")},
    # one net taught by both usual classifiers (the yaw stage's settings on 4000 fresh scenes, seed 7, learning besides
    # the labels the mean of the two nets' probabilities at DISTIL_T: mean_teacher), continuing out/classifier.pt and
    # written as out/classifier-one, which reads alone in the pair's place where shipped (pipeline.ONE_CLASSIFIER).
    # Since session 57 the shipped classifier-one is this stage's: 7364 requests over the card's 52 sets against the
    # pair's 7397, photos 1.04-1.22x as fast (TRAINING-LOG "One classifier taught by the pair"); session 51's shorter
    # run (1500 steps on 3000 scenes, seed 6) read 104 fewer than the pair. It needs both in --out (OPTIONAL)
    "student": {**GLARE, "seed": 7, "scenes": 4000, "apart": True, "phone": 0.2, "shake": 0.1, "yaw": 0.3,
                "cls_steps": 3500, "teachers": ("classifier.pt", "classifier-b.pt")},
    # the one net (classifier-one, the student's) trained on by its labels alone (no teachers) on 3000 fresh scenes
    # with the yaw stage's settings, written over out/classifier-one. Since session 63 the shipped classifier-one is
    # the weights of two such runs averaged (seeds 8 and 9: train-one-labels.json, train-one-labels-b.json; then
    # python -m training.average --name classifier-one): 5293 requests over 42 evaluation sets (7,120 photos)
    # against the student's 5250, 954 of 1200 fresh ones against 950; the runs alone read 5291 and 5239, a seed's
    # luck either way (TRAINING-LOG "Worn tiles"). It needs classifier-one in --out (OPTIONAL)
    "one-labels": ONE_LABELS,
    # the one-labels stage with 30% of its scenes of a club's old set, its paint paler and rubbed off in patches
    # (scenes.worn_ink). Measured in session 63 and not shipped: it read the worn sets (make_eval --worn) no better
    # than one-labels (311 requests of 400 against 314) and 51 fewer over all 44 sets read (7,520 photos)
    # (TRAINING-LOG "Worn tiles"). It needs classifier-one in --out (OPTIONAL)
    "wear": {**ONE_LABELS, "wear": 0.3},
    # the one-labels stage with 15% of its crops blurred out of focus (_defocus). Measured in session 66 and not
    # shipped: 23 requests more than its control over the 50 evaluation sets (8,720 photos), a seed's luck, and
    # fewer on the photos out of focus (285 of 400 against 290) (TRAINING-LOG "Crops out of focus"). It needs
    # classifier-one in --out (OPTIONAL)
    "focus": {**ONE_LABELS, "focus": 0.15},
    # the one-labels stage (seed 12) on sets that draw their two and three of circles up to as large as real sets
    # print them (faces.BIG_PIN_RADIUS). In session 73 the shipped classifier-one became two such runs (seeds 12 and
    # 13; train-pins.json, train-pins-b.json) on from session 63's averaged: 9804 requests over the card's 72 sets
    # against 9774, the two of circles misread 214 times instead of 417; the one-labels stage once more at seed 12,
    # its control, read 39 fewer than the shipped net on 21 sets, 4,100 photos (TRAINING-LOG "Two and three of
    # circles as large as real sets print them"). It needs classifier-one in --out (OPTIONAL)
    "pins": {**ONE_LABELS, "seed": 12, "big_pins": True},
    # the same (seed 18) on sets that also draw their eight of bamboo's leaning middle sticks as they draw their
    # upright ones, outlined where those are, and meeting (faces._eights_middle), as real sets print it. Since session
    # 74 the shipped classifier-one is two such runs (seeds 18 and 19; train-eights.json, train-eights-b.json) on from
    # session 73's averaged: 9915 requests over the card's 72 sets against 9804, the eight of bamboo misread as a
    # four of circles 42 times instead of 138 on 21 sets; the pins stage twice at seeds 16 and 17, averaged, its
    # control, read 21 fewer than the shipped net there (TRAINING-LOG "The eight of bamboo as real sets print it")
    # (OPTIONAL)
    "eights": {**ONE_LABELS, "seed": 18, "big_pins": True, "whole_eights": True},
    # the eights stage (seed 22) with 15% of its crops sharpened as a phone may sharpen a photo, wider than the
    # phone processing's own (_sharpen) (OPTIONAL)
    "sharpen": {**ONE_LABELS, "seed": 22, "big_pins": True, "whole_eights": True, "sharpen": 0.15},
    # the eights stage (seed 26) with 40 more sets whose characters, winds and dragons are brush-written
    # (faces.BRUSH_FONT_FILES; Debian's fonts-kouzan-mouhitsu and fonts-aoyagi-kouzan-t), as many real sets print
    # them. Measured in session 84 and not shipped: two runs (seeds 26, 27) averaged read the second held-out style's
    # two brush fonts' characters and honours better (84.7% and 89.8% right against 81.9% and 82.1%) but 19 fewer
    # requests over 26 sets; averaged with the shipped net 20 more, within a seed's reach, with 9 of its 40 brush
    # sets drawing their green dragon as a missing-glyph box, mended since (faces.fit_glyphs; TRAINING-LOG
    # "Characters in fonts never trained on") (OPTIONAL)
    "brush": {**ONE_LABELS, "seed": 26, "big_pins": True, "whole_eights": True, "brush": 40},
    "loc": {"seed": 21},
    "loc-slim": {"seed": 21, "loc_steps": 1500, "lr": 1e-3, "slim": True},  # slims out/localiser.onnx
    "loc-b": {"seed": 21, "clutter": 0.25},
    "loc-b-slim": {"seed": 21, "clutter": 0.25, "loc_steps": 1500, "lr": 1e-3, "slim": True},  # out/localiser-b.onnx
    # the low-angle pair (since session 32): out/localiser.onnx and localiser-b.onnx trained on 1500 steps with 40%
    # of their scenes seen from 17-33 degrees, written as localiser-low and localiser-b-low; the pipeline reads
    # with them too only where the usual pair finds the tiles flat (pipeline.low_localisers; TRAINING-LOG "A
    # low-angle pair for flat-looking photos")
    "loc-low": {"seed": 21, "loc_steps": 1500, "lr": 5e-4, "low": 0.4},
    "loc-b-low": {"seed": 21, "clutter": 0.25, "loc_steps": 1500, "lr": 5e-4, "low": 0.4},
    # one low-angle localiser taught by the pair: localiser-low trained on with the pair's settings (half loc-b-low's
    # clutter) on fresh scenes (seed 22), learning besides the labels the mean of both nets' maps (teacher_loss),
    # written as out/localiser-low-hand.onnx (pipeline.LOW_HAND). Session 52 measured it in the pair's place: 7447
    # requests over the card's 52 sets instead of 7436, 1.06-1.14x as fast from 17-37 degrees, but 18 fewer dora
    # indicators of 1000 on the dead walls seen from a seat and turned, and the low_seat fixture misread (TRAINING-LOG
    # "One low-angle localiser taught by the pair"); so since session 54 it reads hand photos only, the pair the
    # second dora photos (pipeline.low_localisers). It needs the pair in --out (OPTIONAL)
    "loc-low-student": {"seed": 22, "clutter": 0.125, "loc_steps": 1500, "lr": 5e-4, "low": 0.4,
                        "teachers": ("localiser-low.onnx", "localiser-b-low.onnx")},
    # one usual localiser taught by the usual pair: localiser trained on with the pair's settings (half loc-b's
    # clutter) on 4800 fresh scenes (seed 24) for 4000 steps, learning besides the labels the mean of both nets'
    # maps, written as out/localiser-one.onnx (pipeline.ONE_LOCALISER), which since session 55 reads in the pair's
    # place: 1.14-1.21x as fast, 7402 requests over the card's 52 sets instead of 7437, the held-out 800 the same
    # 685 (TRAINING-LOG "One usual localiser taught by the pair"). Session 54's run of 1500 steps on 2400 scenes
    # (seed 23) read 7387. It needs the pair in --out (OPTIONAL)
    "loc-student": {"seed": 24, "scenes": 4800, "clutter": 0.125, "loc_steps": 4000, "lr": 5e-4,
                    "teachers": ("localiser.onnx", "localiser-b.onnx")},
    "verify": {"seed": 31, "scenes": 2000, "verify_steps": 3000},
    # the orienter (since session 40): which way up a crop stands, its scenes' boxes found by the localisers in
    # --out where this run made them, else the shipped ones (pipeline.orientation; TRAINING-LOG "Which way up")
    "orient": {"seed": 41, "scenes": 1500},
    # the localisers in --out trained on with a share of their photos overexposed; measured in session 23 and not
    # shipped: they found more tiles on overexposed photos, but read 630 held-out requests of 800 (OPTIONAL). With
    # --bright 0 --low 0.4 (session 30, not shipped): low-angle photos read better, 190 of 400 requests against 173,
    # the held-out four 637 of 800 (TRAINING-LOG "Localisers trained on from a low angle")
    "loc-bright": {"seed": 21, "loc_steps": 1500, "lr": 5e-4, "bright": 0.3},
    # localiser-one trained on with half its scenes photographed by a camera turned 9-30 degrees (TURNED), so that
    # it finds the tiles of rows that slant so as it finds level ones. Measured in session 73 and not shipped: in
    # localiser-one's place it read 2076 requests over 13 evaluation sets against 2073, and camera-turned photos
    # still need their level look, since the classifiers and the layout read level rows (TRAINING-LOG "A localiser
    # trained on camera-turned rows") (OPTIONAL)
    "loc-turned": {"seed": 25, "clutter": 0.125, "loc_steps": 2000, "lr": 5e-4, "turned": 0.5},
    "loc-b-bright": {"seed": 21, "clutter": 0.25, "loc_steps": 1500, "lr": 5e-4, "bright": 0.3},
}
OUTPUTS = {"cls": "classifier", "glare": "classifier", "glare2": "classifier", "slim": "classifier",
           "flowers": "classifier", "reds": "classifier", "phone": "classifier",
           "bright": "classifier", "camera": "classifier", "shake": "classifier", "low": "classifier-low",
           "yaw": "classifier", "low-student": "classifier-low", "student": "classifier-one",
           "one-labels": "classifier-one", "wear": "classifier-one", "focus": "classifier-one",
           "pins": "classifier-one", "eights": "classifier-one", "sharpen": "classifier-one",
           "brush": "classifier-one",
           "loc": "localiser", "loc-b": "localiser-b", "loc-slim": "localiser", "loc-b-slim": "localiser-b",
           "verify": "verifier", "orient": "orienter", "loc-bright": "localiser", "loc-b-bright": "localiser-b",
           "loc-low": "localiser-low", "loc-b-low": "localiser-b-low",
           "loc-low-student": "localiser-low-hand", "loc-student": "localiser-one", "loc-turned": "localiser-one"}
# the stages that continue a model made before them in the same --out (unless given --init): that model's file
CONTINUES = {"glare": "classifier.pt", "glare2": "classifier.pt", "slim": "classifier.pt", "flowers": "classifier.pt",
             "reds": "classifier.pt", "phone": "classifier.pt", "bright": "classifier.pt",
             "camera": "classifier.pt", "shake": "classifier.pt", "low": "classifier.pt", "yaw": "classifier.pt",
             "low-student": "classifier-low.pt", "student": "classifier.pt",
             "one-labels": "classifier-one.pt", "wear": "classifier-one.pt", "focus": "classifier-one.pt",
             "pins": "classifier-one.pt", "eights": "classifier-one.pt", "sharpen": "classifier-one.pt",
             "brush": "classifier-one.pt",
             "loc-slim": "localiser.onnx",
             "loc-b-slim": "localiser-b.onnx", "loc-bright": "localiser.onnx", "loc-b-bright": "localiser-b.onnx",
             "loc-low": "localiser.onnx", "loc-b-low": "localiser-b.onnx", "loc-low-student": "localiser-low.onnx",
             "loc-student": "localiser.onnx", "loc-turned": "localiser-one.onnx"}
# The two-hour plan (--quick; TRAINING-LOG "Training in under two hours"). On the 2-core AMD CPU of sessions 12-15
# the recipes above take four to five hours; these make the shipped set's five nets from fewer steps: each localiser slim
# from the start, the classifiers with highlights on a share of their crops from the start. The localisers and the
# classifiers train side by side, one thread each (QUICK_PHASES): measured there, that did 1.05-1.3 times the work
# per second of the two one after the other on two threads. The verifier follows the localisers on their side
# (it reads its scenes with them), while the classifiers, the longer side, still train (session 19: the localiser
# side took 5199 s and the classifier side 6176 s in session 18, the verifier after both 305 s); then the int8
# copies. Since session 21 the classifiers' sets draw no plain five reddish, as the reds stage's do: 584 of the
# 800 held-out requests against 577 for the same plan without, and with seed 5 615 against 583 (TRAINING-LOG "The
# quick plan with red fives apart"). Since session 27 the plan trains two classifiers of 4000 steps, each on its own
# scenes (seeds 4 and 5), where it trained one of 6000: 620 of the 800 held-out requests against 612, the pair read
# as the shipped pair is (TRAINING-LOG "Two classifiers in the quick plan"). Since session 29 the localisers train
# 7000 steps on the full recipes' 2400 scenes each, where they trained 5000 on 1600: their side, done after 54 of the
# plan's 78 minutes, now takes as long as the classifiers', and the set reads 641 of the 800 held-out requests
# against 620 (TRAINING-LOG "Longer localisers in the quick plan"). Run whole from a clean clone in session 30: 82
# minutes, the two sides ending seven minutes apart (TRAINING-LOG "The quick plan run whole (session 30)"). The whole
# command's localiser recipes in their place (loc, loc-slim, loc-b, loc-b-slim; session 31) read as many held-out
# requests, 641, and would make the localisers' side the longer (TRAINING-LOG "The full localiser recipes in the
# quick plan"). Since session 32 the plan trains the localisers' low-angle pair too. Session 33 ran it whole with the
# pair at the end of the localisers' side: 88 minutes on a 2-core Intel Xeon, the classifiers' side idle for the
# last 19 of them. So the pair now trains after both sides, the two side by side (QUICK_PHASES): the localisers'
# side ends with the verifier, and the pair's two stages, about 11 minutes each, take one core each. Run whole so in
# session 34: the same 16 files byte for byte, about 81 minutes by its undisturbed stages (TRAINING-LOG "The
# two-phase quick plan run whole").
QUICK = {
    "loc-quick": {"seed": 21, "scenes": 2400, "loc_steps": 7000, "slim": True},
    "loc-b-quick": {"seed": 21, "scenes": 2400, "clutter": 0.25, "loc_steps": 7000, "slim": True},
    # no phone-processed crops here: both classifiers with --phone 0.2 (session 35) read 631 of the 800 held-out
    # requests instead of 644 (TRAINING-LOG "The phone processing in the quick plan's classifiers")
    "cls-quick": {**CLS_SCENES, "cls_steps": 4000, "glare": 0.2, "apart": True},
    "cls-b-quick": {**CLS_SCENES, "seed": 5, "cls_steps": 4000, "glare": 0.2, "apart": True},
    "verify-quick": {"seed": 31, "scenes": 1000, "verify_steps": 1500},
    "orient-quick": {"seed": 41, "scenes": 1500},  # the whole command's orient recipe, after the verifier
    # the low-angle pair from the plan's localisers: the full recipes' settings (session 32: beside the quick set
    # they read 651 of the 800 held-out requests instead of 641, 188 of the 400 low-angle ones instead of 163;
    # 678 and 683 s side by side; TRAINING-LOG "The low-angle pair in the quick plan")
    **{f"{name}-quick": dict(RECIPES[name]) for name in ("loc-low", "loc-b-low")},
}
QUICK_PHASES = ((("loc-quick", "loc-b-quick", "verify-quick", "orient-quick"), ("cls-quick", "cls-b-quick")),
                (("loc-low-quick",), ("loc-b-low-quick",)))  # each phase's sides side by side, phase after phase
SEED_AFTER = {"cls-b-quick": 1}  # a --seed given: this recipe draws with the seed this far after it (the pair's
#                                  second classifier its own scenes and weights, not the first's again)
RECIPES.update(QUICK)
OUTPUTS.update({"loc-quick": "localiser", "loc-b-quick": "localiser-b", "cls-quick": "classifier",
                "cls-b-quick": "classifier-b", "verify-quick": "verifier", "orient-quick": "orienter"})
for _low in ("loc-low", "loc-b-low"):  # the quick plan's low-angle pair: the full recipes' outputs and inputs
    OUTPUTS[f"{_low}-quick"], CONTINUES[f"{_low}-quick"] = OUTPUTS[_low], CONTINUES[_low]
# stages run only when named with --only (or, the quick ones, with --quick): the slimmed classifiers read 21 fewer
# of the 800 held-out hands' requests than the shipped ones, for 1.13x the speed (TRAINING-LOG, "Slimmed nets")
OPTIONAL = ("slim", "flowers", "bright", "camera", "low-student", "student", "one-labels", "wear", "focus", "pins",
            "eights", "sharpen", "brush", "loc-low-student", "loc-student", "loc-turned", "loc-bright", "loc-b-bright", *QUICK)


# the recipe settings that make a stage's scenes, in the order generate() takes them after the seed (its workers
# between styles and varied): two stages whose settings agree on these share their scenes
SCENE_KEYS = ("scenes", "styles", "varied", "wide", "far", "clutter", "maroon", "flower_art", "apart", "low", "yaw",
              "sides", "wear", "turned", "big_pins", "whole_eights", "brush")


def run_recipe(name: str, cfg: dict, out: Path, workers: int, scenes: dict | None = None) -> None:
    """One model trained from its own scenes, its settings recorded in out/train-<name>.json. ``scenes`` keeps
    the last scenes generated between calls (the glare stage trains on the cls recipe's scenes again: made
    once, the same arrays, since generation is seeded)."""
    t0 = time.time()
    scenes = {} if scenes is None else scenes
    if OUTPUTS[name] == "verifier":
        _record(name, {"recipe": name, **_run_verify(cfg, out, workers, t0)}, out, t0)
        return
    if OUTPUTS[name] == "orienter":
        models, which = _scene_localisers(out)
        crops = generate_orient(cfg["seed"], cfg["scenes"], cfg["styles"], workers, models)
        print(f"{name}: {len(crops)} upright crops in {time.time() - t0:.0f}s", flush=True)
        train_orienter(crops, cfg["orient_steps"], cfg["seed"], out)
        _record(name, {"recipe": name, "seed": cfg["seed"], "scenes": cfg["scenes"], "procedural_styles": cfg["styles"],
                       "held_out_style": HELD_OUT, "crop": [CROP_H, CROP_W], "orient_steps": cfg["orient_steps"],
                       "crops": len(crops), "low": ORIENT_LOW, "far": ORIENT_FAR, "localisers": which}, out, t0)
        return
    classifier = OUTPUTS[name].startswith("classifier")  # classifier, classifier-b, classifier-low
    if cfg["init"] is not None and Path(cfg["init"]).suffix != (".pt" if classifier else ".onnx"):
        cfg = {**cfg, "init": None}  # --init names a classifier's weights or a localiser's file: the other kind's
        #                              stages go on as if it were not given
    if name in CONTINUES and cfg["init"] is None:
        cfg = {**cfg, "init": out / CONTINUES[name]}
        if not cfg["init"].exists():
            raise SystemExit(f"the {name} stage continues {CONTINUES[name]}, and there is none in {out}: run the "
                             f"recipe that makes it into the same --out first, or give --init (e.g. "
                             f"models/{CONTINUES[name]})")
    teachers = tuple(out / t for t in cfg["teachers"])
    if missing := [t.name for t in teachers if not t.exists()]:
        raise SystemExit(f"the {name} stage learns from {', '.join(cfg['teachers'])} in {out}, and "
                         f"{', '.join(missing)} is not there: put the nets it learns from into {out} first")
    key = (cfg["seed"] + (0 if classifier else 7), *(cfg[k] for k in SCENE_KEYS))
    if scenes.get("key") != key:
        scenes.clear()  # the last scenes go before new ones are made
        seed, n, styles, *more = key
        scenes.update(key=key, data=generate(seed, n, styles, workers, *more))
        print(f"{name}: generated {n} scenes in {time.time() - t0:.0f}s", flush=True)
    data = scenes["data"]
    print(f"{name}: {len(data['loc'])} scenes, {len(data['ys'])} crops", flush=True)
    if classifier:
        train_classifier(data["crops"], data["ys"], cfg["cls_steps"], cfg["seed"], out, init=cfg["init"],
                         lr=cfg["lr"], low_res=cfg["low_res"], glare=cfg["glare"], slim=cfg["slim"],
                         phone=cfg["phone"], bright=cfg["bright"], shake=cfg["shake"], name=OUTPUTS[name],
                         teachers=teachers, focus=cfg["focus"], sharpen=cfg["sharpen"])
    else:
        train_localiser(data, cfg["loc_steps"], cfg["seed"], out, name=OUTPUTS[name], init=cfg["init"], lr=cfg["lr"],
                        slim=cfg["slim"], bright=cfg["bright"], teachers=teachers)
    meta = {"classes": ALL_CLASSES, "crop": [CROP_H, CROP_W], "stride": STRIDE, "held_out_style": HELD_OUT,
            "recipe": name, "seed": cfg["seed"], "scenes": cfg["scenes"], "procedural_styles": cfg["styles"],
            "varied_styles": cfg["varied"], "wide_styles": cfg["wide"], "maroon_styles": cfg["maroon"],
            "flower_art": cfg["flower_art"], "fives_apart": cfg["apart"], "big_pins": cfg["big_pins"],
            "whole_eights": cfg["whole_eights"], "brush_styles": cfg["brush"],
            "low_res": cfg["low_res"], "far": cfg["far"], "low": cfg["low"], "yaw": cfg["yaw"], "sides": cfg["sides"],
            "wear": cfg["wear"], "clutter": cfg["clutter"], "turned": cfg["turned"],
            "glare": cfg["glare"],
            "phone": cfg["phone"], "bright": cfg["bright"], "shake": cfg["shake"], "focus": cfg["focus"],
            "sharpen": cfg["sharpen"], "slim": cfg["slim"], "teachers": list(cfg["teachers"]),
            "init": str(cfg["init"]) if cfg["init"] else None, "lr": cfg["lr"],
            "cls_steps": cfg["cls_steps"] if classifier else None,
            "loc_steps": cfg["loc_steps"] if not classifier else None}
    _record(name, meta, out, t0)


def _run_verify(cfg: dict, out: Path, workers: int, t0: float) -> dict:
    """The verifier's recipe: its scenes read with the localisers of this run when it made them, else the shipped
    ones; returns what its record holds."""
    models, which = _scene_localisers(out)
    data = generate_verify(cfg["seed"], cfg["scenes"], cfg["styles"], workers, models)
    print(f"verify: {len(data['ys'])} crops ({int(data['ys'].sum())} tiles) in {time.time() - t0:.0f}s", flush=True)
    train_verifier(data["crops"], data["ys"], cfg["verify_steps"], cfg["seed"], out)
    return {"seed": cfg["seed"], "scenes": cfg["scenes"], "procedural_styles": cfg["styles"],
            "held_out_style": HELD_OUT, "crop": [CROP_H, CROP_W], "cut": "shaped_box", "low": VERIFY_LOW,
            "verify_steps": cfg["verify_steps"],
            "crops": len(data["ys"]), "tile_crops": int(data["ys"].sum()),
            "localisers": which}


def _scene_localisers(out: Path) -> tuple[Path, str]:
    """The folder whose localisers the verifier's and the orienter's scenes are read with: ``out`` where this run
    made them there, else the shipped models; and how its record names it ("shipped" or the folder)."""
    shipped_models = Path(shipped("models"))
    models = out if (out / "localiser.onnx").exists() else shipped_models
    return models, "shipped" if models.resolve() == shipped_models.resolve() else str(models)


def _record(name: str, meta: dict, out: Path, t0: float) -> None:
    """out/train-<name>.json: the recipe's settings and how long it took."""
    meta = {**meta, "train_seconds": round(time.time() - t0)}
    (out / f"train-{name}.json").write_text(json.dumps(meta, indent=1))
    print(f"{name}: done in {time.time() - t0:.0f}s", flush=True)


def run_stages(names: list[str] | tuple[str, ...], given: dict, out: Path, workers: int) -> None:
    """These recipes one after the other, each with its settings overridden by ``given`` (the flags given); the
    scenes of one are kept for the next when they are the same (run_recipe)."""
    scenes: dict = {}
    for name in names:
        cfg = {**DEFAULTS, **RECIPES[name], **given}
        if "seed" in given:
            cfg["seed"] += SEED_AFTER.get(name, 0)
        run_recipe(name, cfg, out, workers, scenes)


def _one_side(names: tuple[str, ...], given: dict, out: Path) -> None:
    """One side of side_by_side: its recipes on one thread and one scene worker."""
    import torch

    cv2.setNumThreads(1)
    torch.set_num_threads(1)
    run_stages(names, given, out, 1)


def side_by_side(sides: tuple[tuple[str, ...], ...], given: dict, out: Path) -> None:
    """Each side's recipes in a process of its own, all sides at once; returns when every side is done, and
    stops the command if one failed. Each recipe is seeded and runs on one thread whichever side it is on, so a
    rerun writes the same files."""
    import multiprocessing

    spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: torch's threads are not forked
    procs = [spawn.Process(target=_one_side, args=(names, given, out), name="+".join(names)) for names in sides]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()
    failed = [proc.name for proc in procs if proc.exitcode != 0]
    if failed:
        raise SystemExit(f"training stopped: {', '.join(failed)} failed (its messages are above)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--only", choices=list(RECIPES), default=None,
                    help="one stage: cls (the classifier from scratch), glare (the classifier in --out, or --init, "
                         "trained on with highlights), glare2 (the glare stage once more), reds (the glare stage on "
                         "sets with no plain five drawn reddish), slim (that classifier "
                         "slimmed; not shipped), flowers (that classifier trained on over flowers told apart by name "
                         "only; not shipped), phone (the reds stage with a fifth of the crops processed as by a "
                         "phone's camera), shake (the phone stage with a tenth of the crops smeared as by a moving "
                         "camera), bright (the reds stage with crops overexposed), camera (with both), "
                         "low (the shake stage with scenes photographed from a low angle, written as "
                         "classifier-low: the classifier's low-angle twin), low-student (one net taught by the "
                         "two low-angle twins in --out, written over classifier-low), student (one net taught "
                         "by the two usual classifiers in --out, written as classifier-one), "
                         "loc (localiser), "
                         "loc-slim (the localiser in --out, or --init, slimmed), loc-b (the localiser with the "
                         "wall), loc-b-slim (that one slimmed), loc-bright and loc-b-bright (the localisers in --out, "
                         "or --init, trained on with overexposed photos), loc-low and loc-b-low (the localisers in --out, "
                         "or --init, trained on with low-angle photos: the low-angle pair, localiser-low and "
                         "localiser-b-low), loc-low-student (one net taught by that pair in --out, written as "
                         "localiser-low-hand), loc-student (one net taught by the usual pair in --out, written as "
                         "localiser-one), pins (the one-labels stage with the procedural sets' two and three of "
                         "circles drawn as large as real sets print them, written over classifier-one), eights (the "
                         "same with their eight of bamboo's leaning middle sticks drawn as their upright ones, "
                         "outlined where those are, as real sets print it), sharpen (the eights stage with a "
                         "share of its crops sharpened as a phone may sharpen a photo), brush (the eights stage "
                         "with 40 more sets whose characters are brush-written), loc-turned "
                         "(localiser-one in --out, or --init, trained on with half its "
                         "scenes taken by a camera turned 9-30 degrees; not shipped), verify (the verifier: tile or "
                         "something else on "
                         "the table), orient (the orienter: which way up a tile stands); and the --quick plan's "
                         "loc-quick, loc-b-quick, cls-quick, cls-b-quick, verify-quick, orient-quick, loc-low-quick, "
                         "loc-b-low-quick")
    # data and training settings; each defaults to its value in the recipe being run (RECIPES, DEFAULTS)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--scenes", type=int)
    ap.add_argument("--styles", type=int, help="procedurally drawn tile sets")
    ap.add_argument("--varied", type=int,
                    help="more procedural sets drawn with the wider palette (one-ink, other birds, circles, bamboo)")
    ap.add_argument("--wide", type=int,
                    help="more procedural sets drawn with WidePalette (more birds, small characters, small pictures)")
    ap.add_argument("--maroon", type=int,
                    help="more WidePalette sets whose red fives are printed in dark, brownish or wine reds")
    ap.add_argument("--flower-art", action=argparse.BooleanOptionalAction,
                    help="draw the procedural sets' flowers and seasons with many pictures in any colours, so that "
                         "only their names and numbers tell them apart (faces.draw_flower_art; the flowers stage)")
    ap.add_argument("--fives-apart", dest="apart", action=argparse.BooleanOptionalAction,
                    help="draw the one-ink sets of a reddish ink in blue, so that no plain five looks like a red one "
                         "(faces.fives_apart; the reds stage)")
    ap.add_argument("--big-pins", dest="big_pins", action=argparse.BooleanOptionalAction,
                    help="draw the procedural sets' two and three of circles from their usual size up to as large as "
                         "leaves the circles apart (faces.BIG_PIN_RADIUS), as most real sets print them")
    ap.add_argument("--whole-eights", dest="whole_eights", action=argparse.BooleanOptionalAction,
                    help="draw the procedural sets' eight of bamboo with its four leaning middle sticks as the set "
                         "draws its upright ones, outlined where those are, meeting in a W over an M "
                         "(faces._eights_middle), as real sets print it")
    ap.add_argument("--low-res", type=float,
                    help="share of classifier crops shrunk and scaled back up (small, soft tiles)")
    ap.add_argument("--far", type=float,
                    help="share of scenes photographed from further away (tiles across 25-55%% of the width); "
                         "0.2 helped far photos but cost normal ones (TRAINING-LOG), and the pipeline zooms in on them")
    ap.add_argument("--low", type=float,
                    help="share of scenes photographed from a low angle (the table foreshortened to 0.3-0.55, the "
                         "tiles' sides as high as that shows them; the low stage: 0.8, the low-angle pair: 0.4)")
    ap.add_argument("--yaw", type=float,
                    help="share of scenes photographed from one side (the table's far end 0.6-0.9 times as tall as "
                         "its near end; the yaw stage: 0.3)")
    ap.add_argument("--sides", type=float,
                    help="share of scenes at the usual angles whose tiles' front sides are as high as each angle shows "
                         "them (make_eval --sides) instead of the style's fixed band")
    ap.add_argument("--turned", type=float,
                    help="share of scenes photographed by a camera turned 9-30 degrees either way (make_eval --tilt; "
                         "the other scenes up to 9; the loc-turned stage: 0.5)")
    ap.add_argument("--wear", type=float,
                    help="share of scenes of a club's old set, its paint paler and rubbed off in patches "
                         "(make_eval --worn; the wear stage: 0.3)")
    ap.add_argument("--clutter", type=float,
                    help="share of scenes with the wall and discards beyond the hand (make_eval --clutter); "
                         "the second localiser (loc-b) is trained with 0.25")
    ap.add_argument("--loc-steps", type=int,
                    help="localiser steps (5000 since session 5: more whole hands right than 1500 on every evaluation set)")
    ap.add_argument("--cls-steps", type=int)
    ap.add_argument("--verify-steps", type=int, help="verifier steps (the verify recipe: 3000)")
    ap.add_argument("--orient-steps", type=int, help="orienter steps (the orient recipe: 2000)")
    ap.add_argument("--glare", type=float, help="share of classifier crops given highlights (the glare stage: 0.4)")
    ap.add_argument("--phone", type=float,
                    help="share of classifier crops processed as a phone's camera does (the phone stage: 0.2)")
    ap.add_argument("--bright", type=float,
                    help="share of classifier crops overexposed (the bright stage: 0.3)")
    ap.add_argument("--shake", type=float,
                    help="share of classifier crops smeared as by a moving camera (the shake stage: 0.1)")
    ap.add_argument("--focus", type=float,
                    help="share of classifier crops blurred out of focus by a disc 0.1-0.3 of their width (the "
                         "focus stage: 0.15)")
    ap.add_argument("--sharpen", type=float,
                    help="share of classifier crops sharpened by an unsharp mask of 0.6-3 px (the sharpen stage: "
                         "0.15)")
    ap.add_argument("--init", type=Path,
                    help="continue from these weights on fresh scenes: a classifier's .pt (glare, slim; e.g. "
                         "models/classifier.pt) or a localiser's .onnx (loc-slim, loc-b-slim)")
    ap.add_argument("--lr", type=float, help="peak learning rate")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--brush", type=int,
                    help="more WidePalette sets whose characters, winds and dragons are brush-written "
                         "(faces.BRUSH_FONT_FILES; the brush stage: 40)")
    ap.add_argument("--quick", action="store_true",
                    help="the two-hour plan: the quick recipes (QUICK), the localisers and the verifier beside "
                         "the two classifiers, then the localisers' low-angle pair, the two side by side, each side "
                         "on a thread, then the int8 copies")
    args = ap.parse_args(argv)
    if args.quick and args.only:
        ap.error("--quick runs its own stages; --only runs one stage: give one of them")
    given = {k: v for k, v in vars(args).items() if k in DEFAULTS and v is not None}
    import torch

    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    if args.quick:
        for sides in QUICK_PHASES:  # every quick stage, the verifier on the localisers' side
            side_by_side(sides, given, args.out)
    else:
        stages = [args.only] if args.only else [name for name in RECIPES if name not in OPTIONAL]
        run_stages(stages, given, args.out, args.workers)  # its scenes are let go before the int8 copies
    summed = None
    if not args.only:
        from training import quantize

        try:
            quantize.main(["--models", str(args.out)])  # its last step writes out/SHA256SUMS
            summed = args.out / sums.NAME
        except SystemExit as exc:
            print(f"no int8 copies written: {exc}", flush=True)
    print(f"done in {time.time() - t0:.0f}s; wrote {summed or sums.write(args.out)}", flush=True)
    return 0


if __name__ == "__main__":
    cv2.setNumThreads(1)
    raise SystemExit(main())
