"""Image preparation shared by training and run time, so both see exactly the same pixels."""

from __future__ import annotations

import math

import cv2
import numpy as np

LOC_LONG = 512  # the localiser sees the photo with its long side at this size
LOC_MULT = 32  # network input sides must be multiples of its total stride
STRIDE = 4  # localiser output resolution
CROP_H, CROP_W = 64, 48
CROP_MARGIN = 0.06  # crops include a little of the rim so small box errors do not cut the symbol
SHRINK_STEP_FROM = 3  # photos this many times the localiser's size or more (training scenes: < 3) shrink in two steps
SHRINK_BY_DOUBLE = True  # below SHRINK_STEP_FROM: bilinear to twice the size, then 2 x 2 blocks averaged (_shrink)


def letterbox(image_bgr: np.ndarray, long_side: int = LOC_LONG) -> tuple[np.ndarray, float]:
    """Resize keeping the aspect and pad right/bottom to multiples of 32; returns (1,3,H,W) float32 and the scale."""
    scale, (nw, nh), (ph, pw) = letterbox_layout(image_bgr.shape, long_side)
    small = _shrink(image_bgr, scale, (nw, nh)) if scale < 1 else cv2.resize(image_bgr, (nw, nh), interpolation=cv2.INTER_LINEAR)
    x = np.full((1, 3, ph, pw), -0.5, np.float32)  # the padding is black (0 / 255 - 0.5)
    _planes_into(small, x[0, :, : small.shape[0], : small.shape[1]])
    return x, scale


def letterbox_layout(shape: tuple[int, ...], long_side: int = LOC_LONG) -> tuple[float, tuple[int, int], tuple[int, int]]:
    """Where :func:`letterbox` puts a picture of ``shape``: its scale, the size (w, h) it is resized to, and the
    padded input's (h, w), multiples of LOC_MULT."""
    h, w = shape[:2]
    scale = long_side / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    return scale, (nw, nh), (-(-nh // LOC_MULT) * LOC_MULT, -(-nw // LOC_MULT) * LOC_MULT)


def _shrink(image_bgr: np.ndarray, scale: float, size: tuple[int, int]) -> np.ndarray:
    """The picture averaged down by ``scale`` (< 1) to ``size`` (w, h). Below SHRINK_STEP_FROM times smaller (every
    training scene), with SHRINK_BY_DOUBLE, it is resized bilinearly to twice ``size`` and each 2 x 2 block then
    averaged (OpenCV's fast path): 3 times as fast as OpenCV's area average in one step (INTER_AREA off whole
    factors: 2.2 against 0.7 ms a card-size photo), from which it differs by 0.17 grey levels on average, by 1 at
    99 in 100 values, more only at a few pixels on sharp edges (benchmarks/shrink.py; models/TRAINING-LOG.md, "The
    localisers' shrink by twice the size"). From SHRINK_STEP_FROM times smaller on it is first averaged down by a
    whole number k (a 12 MP photo in 7 instead of 23 ms), leaving out its last k - 1 rows and columns at most, so up
    to a pixel short of ``size``; the scale stays exact."""
    k = int(1 / scale)
    h, w = image_bgr.shape[:2]
    if k < SHRINK_STEP_FROM or min(h, w) < k:  # (a strip thinner than one block: in one step)
        if SHRINK_BY_DOUBLE:
            return block_average(cv2.resize(image_bgr, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR), 2)
        return cv2.resize(image_bgr, size, interpolation=cv2.INTER_AREA)
    blocks = block_average(image_bgr, k)
    # the factor given, not a size: OpenCV maps the pixels by it exactly
    return cv2.resize(blocks, None, fx=scale * k, fy=scale * k, interpolation=cv2.INTER_AREA)


def block_average(image_bgr: np.ndarray, k: int) -> np.ndarray:
    """The picture averaged down by a whole number ``k`` (each k x k block one pixel: OpenCV's fast INTER_AREA path,
    a 12 MP photo in a few ms), its last k - 1 rows and columns at most left out. A block's centre lies at
    k x + (k - 1) / 2 on the picture."""
    h, w = image_bgr.shape[:2]
    h, w = h // k * k, w // k * k
    return cv2.resize(image_bgr[:h, :w], (w // k, h // k), interpolation=cv2.INTER_AREA)


# what the nets take for each grey level, level / 255 - 0.5 (level * (1 / 255) in float64, rounded to float32, less
# 0.5, as numpy's multiply gave it until session 83), looked up by OpenCV (cv2.LUT gives a float32 plane of a uint8
# one at the table's type, into the target given, or an error where its layout does not allow that): the same
# values in about half the time, whole photos read 1.02-1.04x as fast and every one of 600 read as before
# (benchmarks/README.md, "Grey levels looked up")
LEVELS = ((np.arange(256) * (1 / 255.0)).astype(np.float32) - np.float32(0.5)).reshape(256, 1)


def _planes_into(image_bgr: np.ndarray, out: np.ndarray) -> None:
    # one plane at a time, R, G, B, into the (3,H,W) target (its rows may lie apart: a letterbox's padded input)
    for i, plane in enumerate(cv2.split(image_bgr)[::-1]):
        cv2.LUT(plane, LEVELS, dst=out[i])


def to_tensor(image_bgr: np.ndarray) -> np.ndarray:
    """BGR uint8 (H,W,3) -> (1,3,H,W) float32 RGB / 255 - 0.5."""
    x = np.empty((1, 3, *image_bgr.shape[:2]), np.float32)
    _planes_into(image_bgr, x[0])
    return x


def scaled_box(box: tuple[float, float, float, float], f: float) -> tuple[float, float, float, float]:
    """The box scaled by ``f`` about its centre."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    w, h = (box[2] - box[0]) * f / 2, (box[3] - box[1]) * f / 2
    return (cx - w, cy - h, cx + w, cy + h)


def crop_bounds(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    """The pixels crop_tile cuts for a box, its margin included (x1, y1, x2, y2, ends excluded), before the
    picture's edges clip them."""
    x1, y1, x2, y2 = box
    mx, my = (x2 - x1) * CROP_MARGIN, (y2 - y1) * CROP_MARGIN
    return math.floor(x1 - mx), math.floor(y1 - my), math.ceil(x2 + mx), math.ceil(y2 + my)


SHAPED_INPUT = "shaped_crops"  # the input of a net that reads crops cut around shaped_box (the verifier since session 56)


def shaped_box(box: tuple[float, float, float, float], sideways: bool) -> tuple[float, float, float, float]:
    """The box made as wide or as tall as a crop's shape asks about its centre (CROP_W x CROP_H upright, the other
    way round sideways), never narrower or lower: cut so, a thing keeps its own shape in the crop. A die's square
    box cut as it is becomes a white rectangle with one dot, which is what a 1p is; cut so it stays a small square
    with the table above and below it, and a point stick's piece a thin bar."""
    x1, y1, x2, y2 = box
    aspect = CROP_H / CROP_W if sideways else CROP_W / CROP_H  # the crop's width over its height on the photo
    w, h = x2 - x1, y2 - y1
    if w < aspect * h:
        w = aspect * h
    else:
        h = w / aspect
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def crop_shaped(image_bgr: np.ndarray, box: tuple[float, float, float, float], sideways: bool,
                turn: int = 1) -> np.ndarray:
    """The crop a net of SHAPED_INPUT reads: :func:`crop_tile` of the box made a crop's shape (:func:`shaped_box`)."""
    return crop_tile(image_bgr, shaped_box(box, sideways), sideways, turn)


def crop_tile(image_bgr: np.ndarray, box: tuple[float, float, float, float], sideways: bool,
              turn: int = 1) -> np.ndarray:
    """Cut one tile out (with a small margin), turn a sideways tile upright, resize to CROP_H x CROP_W (BGR uint8)."""
    h, w = image_bgr.shape[:2]
    xa, ya, xb, yb = crop_bounds(box)
    xa, ya, xb, yb = max(0, xa), max(0, ya), min(w, xb), min(h, yb)
    if xb - xa < 2 or yb - ya < 2:
        return np.zeros((CROP_H, CROP_W, 3), np.uint8)
    crop = image_bgr[ya:yb, xa:xb]
    if sideways:
        crop = np.ascontiguousarray(np.rot90(crop, turn))
    return cv2.resize(crop, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)


def crops_to_batch(crops: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 crops -> (N,3,H,W) float32, each as to_tensor gives it."""
    if not crops:
        return np.empty((0, 3, CROP_H, CROP_W), np.float32)
    planes = np.empty((3, len(crops) * CROP_H, CROP_W), np.float32)  # all at once, the crops one above the other
    _planes_into(np.concatenate(crops), planes)
    return np.ascontiguousarray(planes.reshape(3, len(crops), CROP_H, CROP_W).transpose(1, 0, 2, 3))
