"""Image preparation shared by training and run time, so both see exactly the same pixels."""

from __future__ import annotations

import cv2
import numpy as np

LOC_LONG = 512  # the localiser sees the photo with its long side at this size
LOC_MULT = 32  # network input sides must be multiples of its total stride
STRIDE = 4  # localiser output resolution
CROP_H, CROP_W = 64, 48
CROP_MARGIN = 0.06  # crops include a little of the rim so small box errors do not cut the symbol


def letterbox(image_bgr: np.ndarray, long_side: int = LOC_LONG) -> tuple[np.ndarray, float]:
    """Resize keeping the aspect and pad right/bottom to multiples of 32; returns (1,3,H,W) float32 and the scale."""
    h, w = image_bgr.shape[:2]
    scale = long_side / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(image_bgr, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    ph = -(-nh // LOC_MULT) * LOC_MULT
    pw = -(-nw // LOC_MULT) * LOC_MULT
    canvas = np.zeros((ph, pw, 3), np.uint8)
    canvas[:nh, :nw] = small
    return to_tensor(canvas), scale


def to_tensor(image_bgr: np.ndarray) -> np.ndarray:
    rgb = image_bgr[..., ::-1].astype(np.float32) / 255.0 - 0.5
    return np.ascontiguousarray(rgb.transpose(2, 0, 1)[None])


def crop_tile(image_bgr: np.ndarray, box: tuple[float, float, float, float], sideways: bool,
              turn: int = 1) -> np.ndarray:
    """Cut one tile out (with a small margin), turn a sideways tile upright, resize to CROP_H x CROP_W (BGR uint8)."""
    x1, y1, x2, y2 = box
    mx, my = (x2 - x1) * CROP_MARGIN, (y2 - y1) * CROP_MARGIN
    h, w = image_bgr.shape[:2]
    xa, ya = int(max(0, np.floor(x1 - mx))), int(max(0, np.floor(y1 - my)))
    xb, yb = int(min(w, np.ceil(x2 + mx))), int(min(h, np.ceil(y2 + my)))
    if xb - xa < 2 or yb - ya < 2:
        return np.zeros((CROP_H, CROP_W, 3), np.uint8)
    crop = image_bgr[ya:yb, xa:xb]
    if sideways:
        crop = np.ascontiguousarray(np.rot90(crop, turn))
    return cv2.resize(crop, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)
