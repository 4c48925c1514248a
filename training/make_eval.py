"""Write a labelled folder of synthetic photos (image + JSON label with the same stem) for evaluate.py.

    python -m training.make_eval --out /tmp/eval-uni --style uni --n 200 --seed 99
    python -m training.make_eval --out /tmp/eval-won --style uni --winning --n 200 --seed 98   # won hands
    python -m training.make_eval --out /tmp/eval-far --style uni --winning --n 200 --seed 97 --fill 0.25 0.5
    python -m training.make_eval --out /tmp/eval-tilt --style uni --winning --n 200 --seed 95 --tilt 12 25
    python -m training.make_eval --out /tmp/eval-low --style uni --winning --n 100 --seed 94 --pitch 0.3 0.5
    python -m training.make_eval --out /tmp/eval-table --style uni --winning --n 200 --seed 93 --clutter
    python -m training.make_eval --out /tmp/eval-glare --style uni --winning --n 200 --seed 98 --glare 0.35
    python -m training.make_eval --out /tmp/eval-shadow --style uni --winning --n 200 --seed 98 --shadow
    python -m training.make_eval --out /tmp/eval-finger --style uni --winning --n 200 --seed 98 --finger
    python -m training.make_eval --out /tmp/eval-focus --style uni --winning --n 200 --seed 98 --focus
    python -m training.make_eval --out /tmp/eval-yaw --style uni --winning --n 200 --seed 98 --yaw 0.6 0.8
    python -m training.make_eval --out /tmp/eval-sticks --style uni --winning --n 200 --seed 98 --sticks
    python -m training.make_eval --out /tmp/eval-print --style uni --winning --n 200 --seed 98 --print
    python -m training.make_eval --out /tmp/eval-loose --style uni --winning --n 200 --seed 98 --loose 4   # laid by hand
    python -m training.make_eval --out /tmp/eval-wall --style uni --winning --n 200 --seed 98 --dead-wall   # the dead wall
    python -m training.make_eval --out /tmp/eval-lens --style uni --winning --n 200 --seed 98 --lens 0.05 0.25   # a webcam
    python -m training.make_eval --out /tmp/eval-dora --style uni --n 200 --seed 98 --dora-photo --fill 0.3 0.95
    python -m training.make_eval --out /tmp/eval-far-12mp --style uni --winning --n 100 --seed 97 --fill 0.25 0.5 \
        --width 4032 --sharp   # a phone's photo from further away, in focus
    python -m training.make_eval --out /tmp/eval-fonts --style fonts --winning --n 200 --seed 98   # characters in
        # fonts never trained on (the second held-out style)

`--style uni` uses only the art style held out of training; `--style fonts` the second held-out style (its
characters, winds and dragons in ten fonts training never drew with, its circles, bamboo and flowers uni's; it
needs the font packages of training.faces.UNSEEN_FONT_PACKAGES); `--style train` the training styles.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from training.faces import UNSEEN_FONT_FILES, add_unseen_fonts, build_bank
from training.scenes import _free, labels_to_json, moved, out_of_focus, render_scene


def highlights(rng: np.random.Generator, img: np.ndarray, boxes: list, share: float) -> np.ndarray:
    """The photo with a lamp's reflection on about ``share`` of the tiles: a soft, nearly white ellipse 10-25% of
    the tile wide, somewhere on its face (glossy tiles under a light; the training scenes have none). Drawn apart
    from the glare stage's `training.train._glare` on purpose: the set that measures it is not made by its code."""
    h, w = img.shape[:2]
    alpha = np.zeros((h, w), np.float32)
    for x1, y1, x2, y2 in boxes:
        if rng.random() >= share:
            continue
        tw, th = x2 - x1, y2 - y1
        centre = (int(rng.uniform(x1 + 0.2 * tw, x2 - 0.2 * tw)), int(rng.uniform(y1 + 0.2 * th, y2 - 0.2 * th)))
        axes = (max(1, int(tw * rng.uniform(0.1, 0.25))), max(1, int(tw * rng.uniform(0.05, 0.15))))
        patch = np.zeros((h, w), np.float32)
        cv2.ellipse(patch, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        alpha = np.maximum(alpha, cv2.GaussianBlur(patch, (0, 0), max(0.8, tw * 0.04)) * rng.uniform(0.6, 1.0))
    lit = img.astype(np.float32) * (1 - alpha[..., None]) + 252 * alpha[..., None]
    return lit.astype(np.uint8)


def sticks_and_dice(rng: np.random.Generator, img: np.ndarray, boxes: list) -> np.ndarray:
    """The photo with 2-6 point sticks (white bars 2.5-3.5 tiles long with 1, 5 or 8 dots) and up to two dice
    lying near the hand, none on a tile, softened a little. Drawn apart from the verifier's training scenes
    (scenes.draw_distractors) on purpose: the set that measures it is not made by its code."""
    img = img.copy()
    h, w = img.shape[:2]
    tw = float(np.median([b[2] - b[0] for b in boxes]))
    top, bottom = min(b[1] for b in boxes), max(b[3] for b in boxes)
    for _ in range(int(rng.integers(2, 7))):
        length, thick = tw * rng.uniform(2.5, 3.5), tw * rng.uniform(0.18, 0.3)
        for _try in range(30):
            cx, cy = rng.uniform(0, w), rng.uniform(top - 2 * tw, min(h, bottom + 3 * tw))
            if _free(boxes, cx, cy, length / 2):
                break
        else:
            continue
        angle = rng.uniform(-30, 30) + (90 if rng.random() < 0.3 else 0)
        corners = cv2.boxPoints(((cx, cy), (length, thick), angle)).astype(np.int32)
        cv2.fillPoly(img, [corners], tuple(int(v) for v in rng.uniform(215, 250, 3)))
        dots = int(rng.choice([1, 5, 8]))
        for k in range(dots):
            t = (k + 1) / (dots + 1) - 0.5
            px = cx + np.cos(np.deg2rad(angle)) * length * 0.7 * t
            py = cy + np.sin(np.deg2rad(angle)) * length * 0.7 * t
            cv2.circle(img, (int(px), int(py)), max(1, int(thick * 0.25)),
                       (40, 40, 200) if rng.random() < 0.5 else (20, 20, 20), -1)
    for _ in range(int(rng.integers(0, 3))):
        side = tw * rng.uniform(0.4, 0.6)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if _free(boxes, cx, cy, side):
            cv2.rectangle(img, (int(cx - side / 2), int(cy - side / 2)), (int(cx + side / 2), int(cy + side / 2)),
                          (235, 235, 235), -1)
            cv2.circle(img, (int(cx), int(cy)), max(1, int(side * 0.12)), (30, 30, 200), -1)
    return cv2.GaussianBlur(img, (3, 3), 0)


def printed_mat(rng: np.random.Generator, img: np.ndarray, boxes: list) -> np.ndarray:
    """The photo on a printed mat: 2-5 light lines, rings and words in OpenCV's Hershey letters, under the tiles
    (not drawn inside their boxes and the edge below them)."""
    h, w = img.shape[:2]
    tw = float(np.median([b[2] - b[0] for b in boxes]))
    ink = np.zeros((h, w), np.uint8)
    for _ in range(int(rng.integers(2, 6))):
        kind, thick = rng.integers(3), int(rng.integers(2, 8))
        if kind == 0:
            y = int(rng.uniform(0, h))
            cv2.line(ink, (0, y), (w, y + int(rng.uniform(-40, 40))), 255, thick)
        elif kind == 1:
            cv2.circle(ink, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), int(rng.uniform(20, 200)), 255, thick)
        else:
            word = "".join(rng.choice(list("MAHJONG CLUB 2026"), 8))
            cv2.putText(ink, word, (int(rng.uniform(0, w * 0.7)), int(rng.uniform(30, h))), cv2.FONT_HERSHEY_SIMPLEX,
                        rng.uniform(1, 3), 255, thick)
    for x1, y1, x2, y2 in boxes:
        ink[max(0, int(y1)):int(y2 + 0.7 * tw) + 1, max(0, int(x1)):int(x2) + 1] = 0
    colour = rng.uniform(180, 250, 3)
    out = img.astype(np.float32)
    out[ink > 0] = colour
    return out.astype(np.uint8)


def phone_processing(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """One of what a phone's camera does to a whole photo: an unsharp mask (radius 1.5-3 px, amount 0.8-1.5),
    local tone mapping (CLAHE on the lightness, 8x8 tiles), noise reduction (a bilateral filter) or hard JPEG
    compression (quality 12-30)."""
    kind = rng.integers(4)
    if kind == 0:
        amount = rng.uniform(0.8, 1.5)
        return cv2.addWeighted(img, 1 + amount, cv2.GaussianBlur(img, (0, 0), rng.uniform(1.5, 3.0)), -amount, 0)
    if kind == 1:
        lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
        lab[..., 0] = cv2.createCLAHE(rng.uniform(2.0, 4.0), (8, 8)).apply(lab[..., 0])
        return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)
    if kind == 2:
        return cv2.bilateralFilter(img, 9, rng.uniform(40, 90), rng.uniform(5, 9))
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(12, 31))])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)


def coloured_light(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """The photo under a lamp: a warm one (a bulb: blue down by k, green by k/3, red up by k/5) or a cold one (blue up
    by k/5, green down by k/6, red by 0.7 k), k from 0.25 to 0.5."""
    k = rng.uniform(0.25, 0.5)
    warm = rng.random() < 0.6
    gains = [1 - k, 1 - k / 3, 1 + k / 5] if warm else [1 + k / 5, 1 - k / 6, 1 - 0.7 * k]  # B, G, R
    return np.clip(img.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(np.uint8)


def _exposed(img: np.ndarray, stops: float) -> np.ndarray:
    """The photo (float 0-255) as if exposed ``stops`` more (or less): linear light (the sRGB curve taken as a 2.2
    power) doubled per stop, clipped at white."""
    lin = (img.astype(np.float32) / 255) ** 2.2 * 2 ** stops
    return np.clip(lin, 0, 1) ** (1 / 2.2) * 255


def overexposed(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """The photo taken 0.6-1.6 stops too bright (a phone metering a dark cloth): white faces burn out and pale inks
    fade."""
    return (_exposed(img, rng.uniform(0.6, 1.6)) + 0.5).astype(np.uint8)


def underexposed(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """The photo taken 1-2.5 stops too dark (a dim room, a phone metering a lamp in view), with the sensor's noise,
    1.5-4 levels, which a dark photo shows."""
    dark = _exposed(img, -rng.uniform(1.0, 2.5)) + rng.normal(0, rng.uniform(1.5, 4.0), img.shape)
    return np.clip(dark + 0.5, 0, 255).astype(np.uint8)


def shadowed(rng: np.random.Generator, img: np.ndarray, boxes: list) -> np.ndarray:
    """A shadow over part of the hand: the player's arm or phone between a ceiling lamp and the table. An ellipse
    (0.3-0.7 of the photo's width by 0.2-0.6 of its height, turned at random) centred on an edge of the photo (the
    near edge half the time), drawn again until it covers 15-85% of the tiles' centres (none after 30 tries);
    inside it the light is cut to 0.25-0.6 (linear light: 0.7-2 stops), its edge soft over 0.1-1.5 tile widths (a
    small lamp close by to a large one far off)."""
    if not boxes:
        return img
    h, w = img.shape[:2]
    centres = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes])
    tw = float(np.median([b[2] - b[0] for b in boxes]))
    for _ in range(30):
        edge = rng.choice(4, p=[0.5, 0.2, 0.2, 0.1])  # near (bottom), left, right, far (top)
        t = rng.uniform(0.1, 0.9)
        cx, cy = [(t * w, h), (0.0, t * h), (float(w), t * h), (t * w, 0.0)][edge]
        axes = (rng.uniform(0.3, 0.7) * w, rng.uniform(0.2, 0.6) * h)
        mask = np.zeros((h, w), np.uint8)
        cv2.ellipse(mask, (int(cx), int(cy)), (int(axes[0]), int(axes[1])), rng.uniform(0, 180), 0, 360, 255, -1)
        covered = float(np.mean([mask[min(h - 1, int(y)), min(w - 1, int(x))] > 0 for x, y in centres]))
        if 0.15 <= covered <= 0.85:
            break
    else:
        return img
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), max(0.5, rng.uniform(0.1, 1.5) * tw / 2))
    light = 1 - (1 - rng.uniform(0.25, 0.6)) * soft
    lin = (img.astype(np.float32) / 255) ** 2.2 * light[..., None]
    return (np.clip(lin, 0, 1) ** (1 / 2.2) * 255 + 0.5).astype(np.uint8)


# skin from very light to very dark (RGB), each photo's jittered a little
_SKIN = np.array([(250, 222, 200), (238, 196, 168), (222, 170, 138), (196, 136, 104), (160, 104, 76),
                  (116, 74, 54), (82, 54, 42)], np.float32)


def fingered(rng: np.random.Generator, img: np.ndarray, labels: list) -> tuple[np.ndarray, list[tuple[int, float]]]:
    """A finger in the photo, and how much of each tile's face it hides: [(index in ``labels``, share)].
    Two times in three a finger pointing at a tile of the nearest row from the photo's near edge (at up to 35
    degrees off straight), its tip 0.25-0.75 of the way up that tile's face, 0.7-1.2 tiles wide and 3-4.5 long,
    then the hand, much wider, to the edge; rounded as a finger is lit from above, its nail lighter, its shadow on
    the table beside it; else a thumb on the edge of
    the lens: a large out-of-focus blob, lit from behind, from a corner of the photo. Skin of a tone from very
    light to very dark."""
    faces = [lb for lb in labels if not lb.sideways]
    if not faces:
        return img, []
    h, w = img.shape[:2]
    tw = float(np.median([np.linalg.norm(lb.quad[1] - lb.quad[0]) for lb in faces]))
    skin = _SKIN[rng.integers(len(_SKIN))][::-1] * rng.uniform(0.92, 1.06, 3)  # BGR
    out = img.astype(np.float32)
    alpha = np.zeros((h, w), np.float32)
    if rng.random() < 2 / 3:
        near = max(lb.row for lb in labels)
        target = [lb for lb in labels if lb.row == near][int(rng.integers(sum(lb.row == near for lb in labels)))]
        tl, tr, br, bl = target.quad.astype(np.float32)
        bottom, top = (bl + br) / 2, (tl + tr) / 2
        tip = bottom + (top - bottom) * rng.uniform(0.25, 0.75) + (br - bl) * rng.uniform(-0.15, 0.15)
        angle = np.deg2rad(rng.uniform(-35, 35))
        along = np.array([np.sin(angle), -np.cos(angle)], np.float32)  # from the near edge up to the tip
        across = np.array([along[1], -along[0]], np.float32)
        half = tw * rng.uniform(0.7, 1.2) / 2
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        rel_x, rel_y = xs - tip[0], ys - tip[1]
        t = -(rel_x * along[0] + rel_y * along[1])  # how far back from the tip along the finger
        d = rel_x * across[0] + rel_y * across[1]  # across it
        length = tw * rng.uniform(3.0, 4.5)  # a finger is 3-4.5 tiles long; then the hand, much wider
        wide = half * (1 + 0.15 * np.clip(t, 0, length) / length) + np.clip(t - length, 0, None) * 0.8
        wide = np.minimum(wide, 2.6 * tw)
        dist = np.where(t > 0, np.abs(d) - wide + half, np.hypot(d, t))  # round at the tip
        shift = np.array([rng.uniform(-0.4, 0.4), rng.uniform(-0.1, 0.3)], np.float32) * tw
        shadow = cv2.warpAffine((dist < half).astype(np.float32), np.float32([[1, 0, shift[0]], [0, 1, shift[1]]]),
                                (w, h), borderMode=cv2.BORDER_REPLICATE)  # (the finger goes on past the edge)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.25 * tw)) * rng.uniform(0.3, 0.6)
        out *= (1 - shadow)[..., None]
        alpha = np.clip(half - dist + 0.5, 0, 1)
        round_ = np.sqrt(np.clip(1 - (d / np.maximum(wide, 1)) ** 2, 0, 1))  # lit from above: bright along the middle
        shade = (0.55 + 0.45 * round_) * (1 + rng.normal(0, 0.02, (h, w)).astype(np.float32))
        colour = skin[None, None, :] * shade[..., None]
        nail = ((t > 0.08 * half) & (t < 1.3 * half) & (np.abs(d) < 0.62 * half)).astype(np.float32)
        nail = cv2.GaussianBlur(nail, (0, 0), max(0.6, 0.06 * half)) * rng.uniform(0.4, 0.8)
        colour = colour * (1 - nail[..., None]) + (colour * 0.5 + np.array([200, 205, 235], np.float32) * 0.5) * nail[..., None]
        alpha = cv2.GaussianBlur(alpha, (0, 0), 0.7)
    else:
        corner = [(0, h), (w, h), (0, 0), (w, 0)][int(rng.choice(4, p=[0.4, 0.4, 0.1, 0.1]))]
        r = rng.uniform(0.12, 0.3) * min(h, w)
        mask = np.zeros((h, w), np.float32)
        cv2.ellipse(mask, (int(corner[0] + rng.uniform(-0.3, 0.3) * r), int(corner[1] + rng.uniform(-0.3, 0.3) * r)),
                    (int(r * rng.uniform(1.0, 1.6)), int(r)), rng.uniform(0, 180), 0, 360, 1.0, -1)
        alpha = cv2.GaussianBlur(mask, (0, 0), r * rng.uniform(0.15, 0.35))
        alpha = np.clip(alpha * 1.3, 0, 1)
        colour = (skin * rng.uniform(0.35, 0.7) * np.array([0.8, 0.9, 1.1], np.float32))[None, None, :]  # light through skin
    out = out * (1 - alpha[..., None]) + colour * alpha[..., None]
    covered = []
    for i, lb in enumerate(labels):
        face = np.zeros((h, w), np.uint8)
        cv2.fillPoly(face, [np.round(lb.quad).astype(np.int32)], 1)
        area = int(face.sum())
        share = float((alpha * face).sum() / area) if area else 0.0
        if share >= 0.05:
            covered.append((i, round(share, 2)))
    return np.clip(out + 0.5, 0, 255).astype(np.uint8), covered


def defocused(rng: np.random.Generator, img: np.ndarray, boxes: list) -> tuple[np.ndarray, dict]:
    """The camera focused at one depth, close by (a shallow depth of field): each line of the photo blurred by a
    disc (as a lens blurs) as wide as it lies far from the line in focus, up or down (the table's depth runs up
    the photo): 0.15-0.6 of a tile's width half the photo's height away (so up to twice that at the far edge where
    the focus lies near the other one). The focus on the tiles' middle
    (6 in 10: tapped on the hand) or on the photo's middle (a phone's own choice). Also returned: the line in focus,
    the disc's width at the farthest edge and how far that lies (px): a line d px from focus is blurred
    widest * d / span."""
    if not boxes:
        return img, {}
    h, w = img.shape[:2]
    tw = float(np.median([b[2] - b[0] for b in boxes]))
    if rng.random() < 0.6:
        focus = float(np.median([(b[1] + b[3]) / 2 for b in boxes]))
    else:
        focus = h / 2
    widest = tw * rng.uniform(0.15, 0.6) * max(focus, h - focus) / (h / 2)  # at the edge farthest from focus
    span = max(focus, h - focus)
    levels = np.linspace(0, widest, 7)
    stack = [img.astype(np.float32)]
    for d in levels[1:]:
        stack.append(out_of_focus(img, max(1, int(round(d / 2))), cv2.BORDER_REFLECT, cv2.CV_32F))
    want = np.abs(np.arange(h, dtype=np.float32) - focus) / span * (len(levels) - 1)  # per line, in levels
    lo = np.minimum(want.astype(int), len(levels) - 2)
    frac = (want - lo)[:, None, None]
    out = np.empty_like(stack[0])
    for k in range(len(levels) - 1):
        rows = lo == k
        out[rows] = stack[k][rows] * (1 - frac[rows]) + stack[k + 1][rows] * frac[rows]
    return np.clip(out + 0.5, 0, 255).astype(np.uint8), {"line": round(focus, 1), "widest": round(widest, 1),
                                                          "span": round(span, 1)}


def shaken(rng: np.random.Generator, img: np.ndarray, boxes: list) -> np.ndarray:
    """The camera moved while the photo was taken: a straight motion blur in a random direction, 0.05-0.4 of the
    tiles' width long (median of the upright boxes; the length is what is written into the image, on top of the
    scene's own blur)."""
    if not boxes:
        return img
    tw = float(np.median([b[2] - b[0] for b in boxes]))
    length = max(2, int(round(tw * rng.uniform(0.05, 0.4))))
    return moved(img, length, rng.uniform(0, 180))


def wide_lens(rng: np.random.Generator, img: np.ndarray, labels: list, strength: tuple[float, float]
              ) -> tuple[np.ndarray, list]:
    """The photo through a wide lens that nothing corrected (a webcam's, a cheap tablet's): barrel distortion
    and vignetting. A point at radius r (1 at the corners) of the photo shows what lay at s * r * (1 + k * r^2)
    of the scene drawn, k drawn from ``strength`` (0.1: a line along the photo's top edge bows by about 3% of
    the photo's height, 0.3 by 7%), s = 1 / (1 + k) so that the corners still show the scene's corners:
    straight rows bow outward, away from the middle, and the middle is seen a little larger. The corners
    darkened to 0.55-0.85 of the middle's light, as r^2. The labels' face corners are moved as the photo's
    points are (their boxes around them); what --focus said of the photo (its line in focus) is not."""
    from dataclasses import replace

    h, w = img.shape[:2]
    k = float(rng.uniform(*strength))
    edge = 1 - float(rng.uniform(0.15, 0.45))  # the corners' light
    cx, cy, half = (w - 1) / 2, (h - 1) / 2, np.hypot(w, h) / 2
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32) - cx, np.arange(h, dtype=np.float32) - cy)
    r2 = (xs * xs + ys * ys) / half**2
    scale = (1 + k * r2) / (1 + k)
    out = cv2.remap(img, (xs * scale + cx).astype(np.float32), (ys * scale + cy).astype(np.float32), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REFLECT)
    out = np.clip(out * (1 - (1 - edge) * r2)[..., None] + 0.5, 0, 255).astype(np.uint8)

    def moved_to(quad: np.ndarray) -> np.ndarray:  # each point where the photo shows it: solve r_u = s r (1 + k r^2)
        pts = (np.asarray(quad, np.float64) - (cx, cy)) / half
        ru = np.hypot(pts[:, 0], pts[:, 1]) * (1 + k)
        r = ru.copy()
        for _ in range(30):  # Newton's method on r + k r^3 = ru, r from ru down
            r -= (r + k * r**3 - ru) / (1 + 3 * k * r**2)
        ratio = np.divide(r, ru / (1 + k), out=np.ones_like(r), where=ru > 0)
        return pts * ratio[:, None] * half + (cx, cy)

    return out, [replace(lb, quad=moved_to(lb.quad)) for lb in labels]


def taken_turned(img: np.ndarray, label: dict, degrees: int) -> tuple[np.ndarray, dict]:
    """The photo as taken from another seat: turned counter-clockwise by ``degrees`` (90, 180 or 270), so that it
    is read turned by as many degrees clockwise (the answer's "turned"). The label's tiles stay in the order the
    winner reads them, with "sideways" as read; their boxes are moved onto the turned photo, and the label says
    "turned" (as a photo kept from the page does)."""
    h, w = img.shape[:2]
    move = {90: lambda x1, y1, x2, y2: (y1, w - x2, y2, w - x1),
            180: lambda x1, y1, x2, y2: (w - x2, h - y2, w - x1, h - y1),
            270: lambda x1, y1, x2, y2: (h - y2, x1, h - y1, x2)}[degrees]
    tiles = [{**t, "box": [round(v, 1) for v in move(*t["box"])]} for t in label["tiles"]]
    from companion.vision.pipeline import _QUARTER_TURNS  # counter-clockwise, as straighten turns a photo

    return cv2.rotate(img, _QUARTER_TURNS[degrees]), {**label, "tiles": tiles, "turned": degrees}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--style", choices=("uni", "train", "fonts"), default="uni",
                    help="uni: the art style held out of training; fonts: the second held-out style (characters, "
                         "winds and dragons in fonts never trained on, the rest uni's: training.faces."
                         "add_unseen_fonts); train: the training styles")
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--width", type=int, default=0, help="photo width (0 = random 640-1500)")
    ap.add_argument("--quality", type=int, default=90)
    ap.add_argument("--fill", type=float, nargs=2, default=(0.55, 0.96), metavar=("LO", "HI"),
                    help="share of the photo's width the tiles take (default 0.55 0.96; 0.25 0.5: a photo taken from further away)")
    ap.add_argument("--tilt", type=float, nargs=2, default=None, metavar=("LO", "HI"),
                    help="camera turned by LO..HI degrees either way (default: -9..9, as in training)")
    ap.add_argument("--pitch", type=float, nargs=2, default=(0.55, 1.0), metavar=("LO", "HI"),
                    help="table foreshortening, 1 = seen from above (default 0.55 1.0, as in training; 0.3 0.5: a low angle)")
    ap.add_argument("--hand-only", action="store_true", help="only hand scenes (each label has a request)")
    ap.add_argument("--winning", action="store_true",
                    help="hands that are complete (as a photo of a won hand is); implies --hand-only")
    ap.add_argument("--clutter", action="store_true",
                    help="the wall (with the dora indicator turned up on it) and discards beyond the hand")
    ap.add_argument("--yaw", type=float, nargs=2, default=None, metavar=("LO", "HI"),
                    help="the camera off to one side: the far end of the table LO..HI times as tall as the near "
                         "end (0.6 0.8: a hand photographed from beside its end), on the very photos the seed "
                         "gives without it")
    ap.add_argument("--one-block", action="store_true",
                    help="the hand row laid down as one block of touching tiles (no winning tile set apart: "
                         "photos that give no request), on the very photos the seed gives otherwise")
    ap.add_argument("--sticks", action="store_true",
                    help="point sticks and dice on the table near the hand, on the very photos the seed gives")
    ap.add_argument("--print", action="store_true", dest="printed",
                    help="the photos on a printed mat (lines, rings, words), on the very photos the seed gives")
    ap.add_argument("--portrait", action="store_true",
                    help="photos taken with the phone held upright: 3:4 (a third of them 9:16), taller than wide, the "
                         "tiles across the width as --fill says (the sizes from a stream of their own)")
    ap.add_argument("--lamp", action="store_true",
                    help="each photo under a lamp of its own colour: warm (6 in 10) or cold, the channels scaled by "
                         "up to half (its own stream), far beyond the few percent of the training photos")
    ap.add_argument("--phone", action="store_true",
                    help="each photo processed as a phone's camera may: sharpened, tone-mapped, smoothed or compressed "
                         "hard, one of them (its own stream; code apart from the training crops' _phone)")
    ap.add_argument("--bright", action="store_true",
                    help="each photo overexposed by 0.6-1.6 stops and clipped (its own stream)")
    ap.add_argument("--dark", action="store_true",
                    help="each photo underexposed by 1-2.5 stops, with the noise that shows then (its own stream)")
    ap.add_argument("--shadow", action="store_true",
                    help="a shadow over part of the hand (an arm or phone under a ceiling lamp): 0.7-2 stops darker, "
                         "its edge soft or hard (its own stream)")
    ap.add_argument("--finger", action="store_true",
                    help="a finger in the photo: pointing at a tile of the nearest row, its tip 0.25-0.75 of the way "
                         "up the face (2 in 3), or a thumb on the edge of the lens (its own stream; the label says "
                         "which tiles it hides and how much of them)")
    ap.add_argument("--focus", action="store_true",
                    help="a shallow depth of field: the photo sharp at one depth (the hand, or the photo's middle), "
                         "blurred more the farther a line lies from it: by 0.15-0.6 of a tile half the photo's "
                         "height away (its own stream)")
    ap.add_argument("--shake", action="store_true",
                    help="each photo blurred by the camera moving, 0.05-0.4 of a tile's width (its own stream)")
    ap.add_argument("--loose", type=float, default=0.0, metavar="DEGREES",
                    help="the tiles laid down by hand: each turned by up to DEGREES either way and a little off its "
                         "row's line, its neighbours pushed along (its own stream; 0: lined up, as in training)")
    ap.add_argument("--dead-wall", action="store_true",
                    help="the dora row as the dead wall's top tier shows it: 1-4 backs right of the indicators too "
                         "(its own stream for how many; the photos are drawn anew around them)")
    ap.add_argument("--dora-photo", action="store_true",
                    help="a second photo of the dora indicators: the dead wall alone, stacks of two, 1-4 "
                         "indicators among backs on top, from close by as --fill says (e.g. 0.3 0.95); no hand: the "
                         "label's request holds only the indicators (evaluate --dora-photos)")
    ap.add_argument("--sides", action="store_true",
                    help="the tiles' front sides as high as the camera's angle shows them (none from straight above, "
                         "as high as the face at 22-33 degrees; the pitch and the tiles' depth from a stream of their own), "
                         "not the fixed band of the training photos")
    ap.add_argument("--lens", type=float, nargs=2, default=None, metavar=("LO", "HI"),
                    help="a wide lens nothing corrected (a webcam's): barrel distortion of strength LO..HI (0.1: a "
                         "row along the top edge bows by 3%% of the photo's height, 0.3 by 7%%) and the corners darkened to "
                         "0.55-0.85 of the middle's light, on the very photos the seed gives without it (its own stream)")
    ap.add_argument("--turned", type=int, choices=(90, 180, 270), default=None, metavar="DEGREES",
                    help="each photo as taken from another seat, to be read turned by 90, 180 or 270 degrees "
                         "clockwise (labels: the tiles in the winner's order, boxes on the photo, \"turned\")")
    ap.add_argument("--worn", action="store_true",
                    help="a club's old set: the paint paler and rubbed off in patches (scenes.worn_ink), the engraving "
                         "still showing where it is gone")
    ap.add_argument("--sharp", action="store_true",
                    help="the camera's blur no larger than at a photo 1000 px wide (0.3-1.6 px), as a phone in focus "
                         "takes one; without it the blur grows with the width, to 1.2-6.5 px at 4032 px (a camera a "
                         "little out of focus), on the very photos the seed gives")
    ap.add_argument("--glare", type=float, default=0.0, metavar="SHARE",
                    help="a highlight on about this share of the tiles, drawn on the very photos the seed gives without it")
    args = ap.parse_args(argv)
    if args.out.exists() and not args.out.is_dir():
        ap.error(f"--out {args.out} is a file; name a folder to write the labelled photos to")
    bank = build_bank(args.seed, n_procedural=6 if args.style == "train" else 0, with_uni=True)
    if args.style == "fonts":
        add_unseen_fonts(bank, args.seed, len(UNSEEN_FONT_FILES))
    styles = {"uni": ["uni"], "train": [s for s in bank.styles() if s != "uni"],
              "fonts": [s for s in bank.styles() if s.startswith("fonts")]}[args.style]
    rng = np.random.default_rng(args.seed)
    lamp = np.random.default_rng(args.seed + 1_000_003)  # its own stream: the scenes stay those of the seed
    side = np.random.default_rng(args.seed + 2_000_003)  # the same for --yaw
    things = np.random.default_rng(args.seed + 3_000_003)  # and for --sticks and --print
    upright = np.random.default_rng(args.seed + 4_000_003)  # and for --portrait's sizes
    bulb = np.random.default_rng(args.seed + 5_000_003)  # and for --lamp
    camera = np.random.default_rng(args.seed + 6_000_003)  # and for --phone
    exposure = np.random.default_rng(args.seed + 7_000_003)  # and for --bright
    dim = np.random.default_rng(args.seed + 8_000_003)  # and for --dark
    hands = np.random.default_rng(args.seed + 9_000_003)  # and for --shake
    laid = np.random.default_rng(args.seed + 10_000_003)  # and for --loose
    wall = np.random.default_rng(args.seed + 11_000_003)  # and for --dead-wall
    block = np.random.default_rng(args.seed + 12_000_003)  # and for --sides
    shade = np.random.default_rng(args.seed + 13_000_003)  # and for --shadow
    finger = np.random.default_rng(args.seed + 14_000_003)  # and for --finger
    lens = np.random.default_rng(args.seed + 15_000_003)  # and for --focus
    paint = np.random.default_rng(args.seed + 16_000_003)  # and for --worn
    optics = np.random.default_rng(args.seed + 17_000_003)  # and for --lens
    args.out.mkdir(parents=True, exist_ok=True)
    for i in range(args.n):
        hand = not args.dora_photo and (args.hand_only or args.winning or bool(rng.random() < 0.8))
        size = (args.width, args.width * 3 // 4) if args.width else None
        if args.portrait:
            width = args.width or int(upright.integers(720, 1500))
            size = (width, width * 16 // 9 if upright.random() < 1 / 3 else width * 4 // 3)
        img, labels = render_scene(rng, bank, styles, out_size=size, hand=hand, winning=args.winning,
                                   fill=tuple(args.fill), tilt=tuple(args.tilt) if args.tilt else None,
                                   pitch=tuple(args.pitch), clutter=args.clutter,
                                   yaw=tuple(args.yaw) if args.yaw else None, yaw_rng=side,
                                   one_block=args.one_block, loose=args.loose, loose_rng=laid,
                                   wall_rng=wall if args.dead_wall else None, dead_wall=args.dora_photo,
                                   sides_rng=block if args.sides else None,
                                   wear_rng=paint if args.worn else None,
                                   blur_width_max=1000 if args.sharp else None)
        if args.sticks:
            img = sticks_and_dice(things, img, [lb.box for lb in labels])
        if args.printed:
            img = printed_mat(things, img, [lb.box for lb in labels])
        covered = []
        if args.finger:
            img, covered = fingered(finger, img, labels)
        if args.glare > 0:
            img = highlights(lamp, img, [lb.box for lb in labels if lb.cls != "x"], args.glare)
        if args.lamp:
            img = coloured_light(bulb, img)
        if args.shadow:
            img = shadowed(shade, img, [lb.box for lb in labels])
        focus = {}
        if args.focus:
            img, focus = defocused(lens, img, [lb.box for lb in labels if not lb.sideways])
        if args.shake:
            img = shaken(hands, img, [lb.box for lb in labels if not lb.sideways])
        if args.lens:
            img, labels = wide_lens(optics, img, labels, tuple(args.lens))
        if args.phone:
            img = phone_processing(camera, img)
        if args.bright:
            img = overexposed(exposure, img)
        if args.dark:
            img = underexposed(dim, img)
        label = labels_to_json(labels, hand)
        if focus:
            label["focus"] = focus
        if covered:  # the hidden tiles by their place in the label's reading order
            place = {tuple(t["box"]): k for k, t in enumerate(label["tiles"])}
            label["covered"] = [{"tile": place[tuple(round(v, 1) for v in labels[i].box)], "share": share}
                                for i, share in covered]
        if args.dora_photo:  # what such a photo adds to a request (evaluate --dora-photos)
            label["request"] = {"dora_indicators": [t["tile"] for t in label["tiles"] if t["tile"] != "x"]}
        if args.turned:
            img, label = taken_turned(img, label, args.turned)
        cv2.imwrite(str(args.out / f"{i:04d}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, args.quality])
        (args.out / f"{i:04d}.json").write_text(json.dumps(label, indent=1))
    print(f"wrote {args.n} labelled photos to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
