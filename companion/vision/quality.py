"""How good a photo is to read, measured on its tiles' faces: the colour a lamp casts on them (and the photo with
it evened out), whether the photo has colour at all, how much of a face is burnt out white, and how far a shaking
camera smeared the ink. Plain functions of a BGR photo and tile boxes (x1, y1, x2, y2); the pipeline
(:mod:`companion.vision.pipeline`) decides from them what to read and what to tell the player."""

from __future__ import annotations

import cv2
import numpy as np

CAST_MAX = 1.7  # tile faces whose brightest channel is more than this times their darkest (a lamp's colour cast;
#                the evaluation photos: up to 1.6) are read from the photo with its colours evened out
BURNT = 250  # a pixel this bright in every channel is burnt out: clipped white, whatever was printed there is gone
BURNT_GREY = 253  # in a photo without colour (colourless()), this bright: its grey is a mix of the channels, and an
#                  ivory face (R and G clipped, B 212-236) that the colour photo does not count comes to 250-252. Of
#                  1,200 evaluation photos turned grey, at 250 71 were said to be too bright where the colour photo
#                  was not (0 the other way); at 253 17 and 4, all on the --bright sets (TRAINING-LOG "Too bright in
#                  black and white")
GREY_SPREAD = 4  # a photo whose channels differ by more than this (grey levels) at no more than 1 in 100 pixels of
#                 its tiles' faces, nor of the whole, has no colour (colourless(): of 14,000 evaluation photos in
#                 colour, each differs so at 27% or more of one or the other; TRAINING-LOG "Black and white photos")
SMEAR_INK = 20.0  # a tile's middle with less contrast than this (grey levels) shows no ink to measure
SMEAR_TILES = 9  # smear() measures at most this many tiles
_DIRECTIONS = np.linspace(0, np.pi, 8, endpoint=False)  # along which smear() measures the steepest change
MIDDLE_MOST = 64  # face_colour(), burnt_share() and smear() measure a tile's middle at most this many px wide: a
#                   wider one (a 12 MP photo's tiles are 100-250 px wide) is sampled (_sampled) or shrunk (smear)


def face_colour(image_bgr: np.ndarray, found: list) -> np.ndarray | None:
    """The colour (B, G, R) of the tiles' faces: in the middle of each box found that shows ink (its darkest
    tenth at least a quarter darker than its brightest fifth: a back, one colour all over, does not), the mean of
    the brightest fifth of its pixels (the face around the ink), and the median of those over the boxes; None
    where fewer than three boxes show ink (a photo of the dead wall may be nearly all backs)."""
    colours = []
    for box, _, _ in found:
        middle = _sampled(_middle(image_bgr, box, 0.2)).reshape(-1, 3).astype(np.float32)
        if len(middle) < 10:
            continue
        light = middle.sum(axis=1)
        bright, dark = percentiles(light, (80, 10))
        if bright > 0 and dark <= 0.75 * bright:
            colours.append(middle[light >= bright].mean(axis=0))
    return np.median(np.array(colours), axis=0) if len(colours) >= 3 else None


def percentiles(values: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """np.percentile(values, qs) of a 1-d array (its default, linear method), the same to the bit, from one
    partition, in a sixth of its time on a tile's few hundred pixels (face_colour(): 82.0 -> 80.6 ms a photo over 40
    held-out won hands, alternating in one process)."""
    n = values.size
    spots = [(n - 1) * (q / 100) for q in qs]
    below = [int(v) for v in spots]
    ordered = np.partition(values, sorted({i for lo in below for i in (lo, min(lo + 1, n - 1))}))
    out = []
    for v, lo in zip(spots, below, strict=True):
        t = v - lo
        a, b = float(ordered[lo]), float(ordered[min(lo + 1, n - 1)])
        out.append(b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t)  # numpy's two-sided interpolation
    return out


def _middle(image_bgr: np.ndarray, box: tuple | list, inset: float) -> np.ndarray:
    """The middle of a tile's ``box`` (x1, y1, x2, y2) on the photo: ``inset`` of its width and height in from each
    side."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    return image_bgr[max(0, int(y1 + inset * h)):max(0, int(y2 - inset * h)),
                     max(0, int(x1 + inset * w)):max(0, int(x2 - inset * w))]


def _sampled(middle: np.ndarray) -> np.ndarray:
    """A tile's middle for its colours' shares and percentiles: every k-th pixel each way, k the least that leaves
    it at most MIDDLE_MOST px wide (all of it where it is no wider)."""
    k = -(-middle.shape[1] // MIDDLE_MOST)
    return middle[::k, ::k] if k > 1 else middle


def _face_middles(image_bgr: np.ndarray, boxes: list) -> list[np.ndarray]:
    """The middles of the face-up ``boxes`` (x1, y1, x2, y2) that :func:`burnt_share` and :func:`colourless` measure:
    15% in from each side, sampled (:func:`_sampled`); views of the photo."""
    return [_sampled(_middle(image_bgr, box, 0.15)) for box in boxes]


def colourless(image_bgr: np.ndarray, boxes: list) -> bool:
    """Whether the photo has no colour (black and white: a phone's filter, a webcam seeing in infrared): at 99 of
    100 pixels of the tiles' faces (the middles of the face-up ``boxes``, x1, y1, x2, y2, as :func:`burnt_share`
    measures them), and of the whole photo (every k-th pixel each way, about 256 px long), its channels differ by
    GREY_SPREAD or less; False without tiles. Both: a far hand on a grey table is a few coloured pixels among many
    grey ones, and a hand of black ink on white faces is grey on a coloured cloth. Red fives and the suits' inks are
    told apart by their colours, so such a photo is misread far more often."""
    tinted = total = 0
    for middle in _face_middles(image_bgr, boxes):
        if middle.size:
            t, n = _tinted(middle)
            tinted, total = tinted + t, total + n
    if not total or tinted > total / 100:
        return False
    k = max(1, max(image_bgr.shape[:2]) // 256)
    t, n = _tinted(image_bgr[::k, ::k])
    return t <= n / 100


def _tinted(picture: np.ndarray) -> tuple[int, int]:
    """How many of the picture's pixels have channels that differ by more than GREY_SPREAD, and how many it has."""
    b, g, r = cv2.split(np.ascontiguousarray(picture))
    spread = cv2.max(cv2.max(cv2.absdiff(b, g), cv2.absdiff(g, r)), cv2.absdiff(b, r))
    return cv2.countNonZero(cv2.compare(spread, GREY_SPREAD, cv2.CMP_GT)), spread.size


def burnt_share(image_bgr: np.ndarray, boxes: list, level: int = BURNT) -> float:
    """How much of a typical tile face is burnt out: for each box (x1, y1, x2, y2), the share of its middle (15%
    in from each side) that is ``level`` or brighter in every channel (BURNT; BURNT_GREY for a photo without
    colour); the median over the boxes (0 for none)."""
    shares = []
    for middle in _face_middles(image_bgr, boxes):
        if middle.shape[0] * middle.shape[1] >= 10:
            burnt = cv2.inRange(middle, (level, level, level), (255, 255, 255))  # 255 where every channel is
            shares.append(cv2.countNonZero(burnt) / burnt.size)
    return float(np.median(shares)) if shares else 0.0


def smear(image_bgr: np.ndarray, tiles: list[dict]) -> float:
    """How far the ink's edges are smeared, as a share of the tile's width. For each face-up upright tile (the
    answer's tile dicts; SMEAR_TILES of them, spread over the list), in the middle of its box (15% in from each
    side, grey): the ink's contrast (98th less 2nd percentile) over the steepest change along the direction where
    change is least steep (the 99th percentile of the derivative along each of eight directions: a camera that
    moves smears the edges across its motion only, so the least steep direction is the motion's), divided by the
    box's width (a middle wider than MIDDLE_MOST px shrunk to it first, the width with it). The median over the
    tiles with SMEAR_INK contrast or more (a blank white dragon shows no ink); 0 for none."""
    faces = [t for t in tiles if t["tile"] != "x" and not t["sideways"]]
    faces = faces[::max(1, -(-len(faces) // SMEAR_TILES))]
    cos, sin = np.cos(_DIRECTIONS)[:, None], np.sin(_DIRECTIONS)[:, None]
    smears = []
    for t in faces:
        middle = _middle(image_bgr, t["box"], 0.15)
        scale = 1.0
        if middle.shape[1] > MIDDLE_MOST:  # shrunk, its edges as much steeper a pixel as it is narrower: the same share
            scale = MIDDLE_MOST / middle.shape[1]
            tall = max(1, round(middle.shape[0] * scale))
            middle = cv2.resize(middle, (MIDDLE_MOST, tall), interpolation=cv2.INTER_AREA)
        if middle.shape[0] < 4 or middle.shape[1] < 4:
            continue
        w = (t["box"][2] - t["box"][0]) * scale
        grey = cv2.cvtColor(middle, cv2.COLOR_BGR2GRAY).astype(np.float32)
        levels = grey.ravel()
        n = levels.size
        ordered = np.partition(levels, (n // 50, n - 1 - n // 50))
        ink = ordered[n - 1 - n // 50] - ordered[n // 50]  # the 98th less the 2nd percentile
        if ink < SMEAR_INK:
            continue
        gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3).ravel() / 8  # grey levels a pixel
        gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3).ravel() / 8
        k = n - 1 - n // 100
        steepest = np.partition(np.abs(cos * gx + sin * gy), k, axis=1)[:, k].min()  # each direction's 99th
        if steepest > 0:
            smears.append(ink / steepest / w)
    return float(np.median(smears)) if smears else 0.0


def evened_colours(image_bgr: np.ndarray, found: list) -> np.ndarray | None:
    """The photo with each colour channel scaled so that the tiles' faces come out grey, where their colour
    (:func:`face_colour`) is cast by more than CAST_MAX (a warm or cold lamp; the classifiers were trained on
    white, ivory and cream faces under light tinted by at most about 12% a channel); None where it is not."""
    face = face_colour(image_bgr, found)
    if face is None or face.min() < 1 or face.max() / face.min() <= CAST_MAX:
        return None
    gains = (face.mean() / face).astype(np.float32)
    # each channel's 256 levels scaled, a row a channel, and looked up: what scaling every pixel gives, without a
    # float copy of the photo
    tables = np.clip(gains[:, None] * np.arange(256, dtype=np.float32), 0, 255).astype(np.uint8)
    return cv2.merge([cv2.LUT(channel, table) for channel, table in zip(cv2.split(image_bgr), tables, strict=True)])
