"""Photo -> tiles -> request: load, preprocess, localise (ONNX), crop, classify (ONNX), lay out.

Each stage is a plain function with arrays in and arrays out; the ONNX sessions are loaded once.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import InvalidRequestError
from companion.kept import FINETUNE_RECORD
from companion.paths import models_folder
from companion.photo_files import PhotoToRead, decode_photo, decode_to_read, read_photo
from companion.vision.layout import (
    LOOKED_GAP,
    LOOKED_JOINED,
    LOOKED_JUDGED,
    LOOKED_KAN_BACK,
    LOOKED_NAMED,
    LOOKED_OFFERED,
    LOOKED_SPLIT,
    Det,
    Layout,
    assign_groups,
    build_request,
    could_win,
    dead_wall_backs,
    group_rows,
    kan_short_of_a_back,
    kan_tops_found_upright,
    narrow_pairs,
    nearest_rows,
    one_tile_gaps,
    wide_boxes,
    win_tile_apart,
)
from companion.vision.preprocess import (
    LOC_LONG,
    SHAPED_INPUT,
    STRIDE,
    block_average,
    crop_bounds,
    crop_shaped,
    crop_tile,
    crops_to_batch,
    letterbox,
    letterbox_layout,
    scaled_box,
    shaped_box,
)
from companion.vision.quality import BURNT, BURNT_GREY, burnt_share, colourless, evened_colours, smear
from companion.vision.shape import (
    CONFIDENCE_MIN,
    complete_hand,
    kinds_that_win,
    mend_melds,
    named_by_shape,
    request_wins,
    twin_doubt,
    vouched_by_shape,
)

DETECT_MIN = 0.3  # centre-heatmap peak needed to count as a tile
LEVEL_FROM_LETTERBOX = True  # the whole level picture's localiser input turned from the photo's letterbox
# (_turned_letterbox; False: the level picture shrunk for them, as before session 61)
DESKEW_MIN = 10.0  # rows tilted by this many degrees or more (training photos: up to 9) are read from the photo
#                   turned level
COARSE_TILT = 12.0  # rows tilted by this many degrees or more: localise takes no closer look at them (the photo is
#                     read turned level, in the window its tiles mark there; the closer look only placed that
#                     window; TRAINING-LOG "A tilted photo's first look without its closer look"). At least
#                     DESKEW_MIN: a photo that is not turned level keeps its closer look
STRETCH_BELOW = 0.7  # upright tiles whose boxes are flatter than this (height / width; training photos from 0.72)
STRETCH_TARGET = 1.0  # are read from the photo stretched in height until they come to this
ZOOM_TARGET = 24.0  # tiles closer together than this (median, localiser px) are looked at again in a window where
ZOOM_MIN_GAIN = 1.25  # they come to this far apart, if that enlarges them at least this much (training photos: 15-30)
ZOOM_OUT_ABOVE = 40.0  # tiles further apart than this (median, localiser px) are looked for again in the photo shrunk
ZOOM_OUT_BLIND = 3.0  # until they come to ZOOM_TARGET apart; a photo where none is found, shrunk this many times (a
# close photo of the dora indicators: tiles a tenth to a quarter of the photo wide; _from_further)
OVEREXPOSED = 0.55  # a photo whose typical tile face has this share of its middle burnt out is said to be too
#                  bright (the evaluation photos: at most 0.53; of make_eval --bright's, 156 of 400 reach it and 105 of
#                  those are misread; TRAINING-LOG "Overexposed photos")
SMALL_TILE = 24.0  # a photo whose upright tiles are narrower than this (median, photo px) is said to be taken from
#                   too far (of the 31 evaluation sets' 6,000 photos, 189 come under it and 22 of those read
#                   exactly; TRAINING-LOG "Tiles too small to read")
SMEARED = 0.15  # a photo whose ink edges are smeared over this share of a tile's width or more (smear(), the median
#               over its tiles) is said to be blurred: of 400 photos shaken by 0.05-0.4 of a tile's width 225 reach it,
#               31 of those read exactly; of the 33 other evaluation sets' 6,400 photos 262, 74 exact (TRAINING-LOG
#               "Shaken photos")
FLAT_VIEW = 0.6  # a photo whose upright tiles look flatter than this (height / width, median; about 1.3 from above)
#                and that is read with doubts is said to be taken from too low: of the 48 evaluation sets' 9,100
#                photos, 290 such, 104 of those read exactly; 10 more that flat read without doubt, 9 exactly
#                (TRAINING-LOG "Photos taken from too low")
FLAT_DOUBTS = 4  # such a photo is said so where its reading gives no request or marks this many tiles uncertain:
#                  with a request and fewer doubts, 138 of 148 low-angle photos read right (the marked tiles to check;
#                  most of them photos of 1920 px or more: TRAINING-LOG "Photos from low with few doubts")
EDGE_NEAR = 0.25  # a tile of the hand this near an edge of the photo (a share of the hand tiles' width, at least 1 px;
#                 a box stops at the edge) is said to be cut off there or the last before one missing: with no request
#                 the answer asks for the whole hand, with one for a check (TRAINING-LOG "A hand cut off at the
#                 photo's edge")
VIEW_SPACING = 128.0  # a photo whose tiles lie further apart and are wider than this (px, median) is made smaller until
# they come to this before it is turned level or stretched (_look_again; a 12 MP photo stretched in full took 80 ms):
# 2.7 times the crops' width; 96 read a few tiles fewer (models/TRAINING-LOG.md, "Large photos turned level smaller")
VIEW_MOST = 5e6  # a photo turned level or stretched onto a canvas of more pixels than this is made smaller until it
# fits (_look_again): the turn of a phone's photo, not the nets, took most of its time (a 3024 px photo turned
# 12-25 degrees, whose level canvas is 7-9 MP and a flat one's stretched canvas up to 20 MP: 13.5 ms of warpAffine a
# photo); its tiles' spacing then comes below VIEW_SPACING. 1.19x as fast there, 1.31x at 12 MP, requests as many
# (3 more over 14 large-photo sets; 4 MP read 1 fewer; models/TRAINING-LOG.md, "A turned phone photo's canvas")
BAND_ASPECT = 4 / 3  # a photo taller than wide is looked at again in a window this much wider than tall around the
#                      tiles (every training photo is wider than tall: 4:3 to 16:9)
LEVEL_BAND_FROM = 0.95  # a photo turned level whose upright tiles look at least this tall for their width (as taken,
#                        median; about 1.05 from above, 0.82 from 24-37 degrees) is looked at there in a band around
#                        its rows (_level_band), a flatter one in a window of the level picture's shape
LEVEL_BAND_ASPECT = 4.0  # that band is at most this many times as wide as tall
LONG_ROW = 6  # a row this long: the photo is not on its side (_turns_to_try)
HAND_TILES = 14  # tiles of a whole hand without kans (_no_gap_either_way)
SMALL_PHOTO = HAND_TILES * SMALL_TILE  # a photo shorter than this on its long side (px), in which no tile is found,
#                                        is said to be too small: a hand's 14 tiles cannot lie in it SMALL_TILE wide
#                                        (a thumbnail sent in place of the photo)
TURNED_MAX_ROWS = 6  # a turned read finding more rows is over (hand, wall, discards: 5; a hand on its side: 14+)
TURN_CHECK = 0.6  # upright reads less sure than this are read again, turned and re-cut (classify); 0.8 until
#                   session 13: 1 more held-out request of 800, 5-9% slower (TRAINING-LOG, "Slimmed nets")
RECUT = (0.9, 1.1)  # box scales of the re-cut crops
ALTERNATIVES = 4  # readings kept per tile (the best and the next ones) for complete_hand
SECOND_LOCALISERS = ("localiser-b",)  # averaged with "localiser" when shipped (localisers())
ONE_LOCALISER = "localiser-one"  # one net taught by that pair: where shipped, it reads in the pair's place
LOW_LOCALISERS = ("localiser-low", "localiser-b-low")  # the pair trained on with low-angle photos (low_localisers())
LOW_HAND = "localiser-low-hand"  # one net taught by that pair: where shipped, it reads hand photos in the pair's place
LOW_FIRST_SURE = 0.6  # a photo whose tiles look flatter than STRETCH_BELOW is read with that pair first, its reading
#                       kept if it gives a request and reads its tiles this surely on average (_low_or_usual)
LOW_ALONE_BELOW = 0.65  # such a photo whose reading by that pair gives no request and reads its tiles less surely
#                         than this on average is not read by the usual pair too, unless that pair's first look
#                         found two tiles or more beyond those of the reading (_read_with_pairs)
SECOND_CLASSIFIERS = ("classifier-b",)  # averaged with "classifier" when shipped (classifiers())
ONE_CLASSIFIER = "classifier-one"  # one net taught by that pair: where shipped, it reads in the pair's place
LOW_TWIN = "-low"  # a classifier's twin trained on with low-angle photos too ("classifier-low"): where shipped, it
#                    reads in its place the crops of the low-angle pair's reads (classifiers(low=True))
CASCADE_SURE = 0.95  # crops "classifier" reads this surely are not read by the second classifiers (_probabilities;
#                      above 1: every crop is read by all)
VERIFIER = "verifier"  # tile or not, run on every box the localisers find when shipped (verified())
VERIFY_EARLY = 0.1  # boxes the verifier gives less are dropped as soon as they are found (_localise_once)
ORIENTER = "orienter"  # upright or upside down, run on the first look's upright crops when shipped (orientation())
ORIENT_CLIP = 4.0  # a crop's say in orientation(): its logit, cut to +-this (one odd crop does not decide)
UPRIGHT_FROM = 20.0  # a photo whose upright tiles vote this surely for the right way up is not tried turned, one
UPSIDE_DOWN_TO = -10.0  # that votes this surely for upside down is read turned by 180 degrees first (_low_or_usual;
#                         -20 until session 42: from a low angle upside-down tiles vote weakly)
VERIFY_MIN = 0.35  # after classifying, boxes it gives less are dropped unless read VERIFY_SURE surely (verified())
VERIFY_SURE = 0.9  # a tile the classifiers read this surely is kept whatever the verifier says
VERIFY_DOUBT = 0.6  # a box the verifier gives less than this and the page would show with a confidence below
READ_LOW = 0.25  # this (the classifiers' probability, less where the localiser's peak was weak) is dropped too
KAN_BACK_MIN = 0.5  # a closed kan found as a back and two faces: where its other back should lie, a crop the
#                     classifiers read as a back this surely (and the verifier as a tile) is that back, shown for
#                     a check (_missed_tiles)
GAP_BLANK_SURE = 0.9  # an empty gap is read as a white dragon (blank) too: one is taken only this surely, and
#                       where the verifier is this sure of a tile (_missed_tiles)
LONE_MIN = 2.9  # neighbours this many pitches apart or more: a lone tile missed between them lies midway too
MIDWAY_MAX = 2.3  # neighbours up to this many pitches apart: a tile missed between them lies midway (_missed_in_gaps)
JOIN_NAMED = 0.8  # a box the player names that overlaps the box around a pair of narrow ones this much (IoU) names
#                   the tile read as one there (_join_narrow), not either of them
GAP_TILE_MIN = 0.5  # a gap of one tile's width within a row of a hand that makes no request: a crop there the
#                     classifiers read as a face this surely (no back; a white dragon GAP_BLANK_SURE), and the
#                     verifier as a tile, is a tile the localisers missed where with it the tiles make a request,
#                     shown for a check


def _threads_setting() -> int:
    """COMPANION_THREADS: how many threads the nets use (2 when not set or set empty)."""
    raw = os.environ.get("COMPANION_THREADS", "").strip() or "2"
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"COMPANION_THREADS must be a whole number of threads, 1 or more (unset: 2); not {raw!r}")
    return int(raw)


THREADS = _threads_setting()  # the nets of a pair side by side, or one net on as many
MODELS_DIR = models_folder()  # COMPANION_MODELS, else (also set empty) the shipped models

_lock = threading.Lock()
_sessions: dict[tuple[str, int], object] = {}
_pool: ThreadPoolExecutor | None = None


def classes() -> list[str]:
    try:
        from companion.tiles import ALL_CLASSES
    except ImportError:  # pragma: no cover - the foundation module is the source of truth when present
        ALL_CLASSES = (  # noqa: N806
            [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
            + ["0m", "0p", "0s"] + [f"{n}f" for n in range(1, 9)] + ["x"]
        )
    return list(ALL_CLASSES)


def model_path(name: str) -> Path:
    """models/<name>.int8.onnx when present (2-3x faster on a CPU), else the float models/<name>.onnx.

    COMPANION_PRECISION=fp32 forces the float file (for comparisons and for a fine-tune without the int8 copy).
    """
    precision = os.environ.get("COMPANION_PRECISION", "").strip() or "int8"
    if precision not in ("int8", "fp32"):
        raise ValueError(f"COMPANION_PRECISION must be int8 (the default) or fp32; not {precision!r}")
    if precision == "int8":
        quantised = MODELS_DIR / f"{name}.int8.onnx"
        if quantised.exists():
            return quantised
    return MODELS_DIR / f"{name}.onnx"


def session(name: str, threads: int | None = None):  # noqa: ANN201 - onnxruntime is imported lazily
    """The cached onnxruntime session for the model called `name`, running on `threads` threads (THREADS as it is
    when called, unless given: the verifier's scene workers in training set it to 1, one process per core)."""
    threads = THREADS if threads is None else threads
    path = model_path(name)
    # keyed by file (switching COMPANION_PRECISION in one process picks the other model) and thread count
    key = (str(path), threads)
    with _lock:
        if key not in _sessions:
            import onnxruntime as ort

            if not path.exists():
                raise FileNotFoundError(f"recognition model {path} is missing (train it: python -m training.train)")
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = threads
            # worker threads that spin while idle steal the core from the camera and page on a 2-core tablet
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            _sessions[key] = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        return _sessions[key]


def run_nets(names: list[str], feed: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The first output of each model in `names` on the same input, in order.

    With two or more nets and THREADS cores they run side by side, each on one thread: the nets are small, and
    one thread each spends none of the time a shared thread pool does waking and joining its workers between
    layers (a pair of localisers on a 512 x 352 photo: 8.2 ms side by side, 9.8 ms one after the other on two
    threads each; benchmarks/nets_side_by_side.py). The outputs are the same either way."""
    if not _side_by_side(len(names)):
        return [session(name).run(None, feed)[0] for name in names]
    return list(_the_pool().map(lambda name: session(name, 1).run(None, feed)[0], names))


def run_split(name: str, key: str, batch: np.ndarray) -> np.ndarray:
    """The first output of model `name` on `batch` (fed as `key`), the batch cut into THREADS parts that run side
    by side, each on one thread (as :func:`run_nets` runs two nets)."""
    if not _side_by_side(len(batch)):
        return session(name).run(None, {key: batch})[0]
    parts = np.array_split(batch, min(THREADS, len(batch)))
    return np.concatenate(list(_the_pool().map(lambda part: session(name, 1).run(None, {key: part})[0], parts)))


def _side_by_side(parts: int) -> bool:
    """Whether ``parts`` nets (or parts of a batch) run side by side, one thread each (:func:`run_nets`)."""
    return parts >= 2 and THREADS >= 2


def warm_up() -> list[str]:
    """Open the sessions a photo of a hand is read with, each on the threads it runs on, and run each once on a
    blank input: the models it names. ``companion serve`` calls it in the background as it starts, so that the
    first photo at the table is read about as fast as the next: a fresh server answered its first photo of a hand
    (pon_dora's hand row) in 0.27-0.31 s without it, 0.08-0.12 s with it, the next in 0.06-0.08 s (2-core AMD
    EPYC; benchmarks/first_photo.py measures it in fresh processes). A net the models folder lacks is left out; a
    folder without any raises FileNotFoundError."""
    read_adapted_nets()
    nets = [(name, 1 if _side_by_side(len(group)) else None) for group in (localisers(), low_localisers())
            for name in group]
    # the classifiers read a batch of crops in THREADS parts side by side, and a lone crop on THREADS (run_split)
    split = dict.fromkeys([1 if _side_by_side(2) else None, None])
    nets += [(name, threads) for name in every_classifier() for threads in split]
    nets += [(name, None) for name in (VERIFIER, ORIENTER) if model_path(name).exists()]
    for name, threads in nets:
        net = session(name, threads)
        fed = net.get_inputs()[0]  # the free sizes: one image, or one crop, of 64 pixels a side
        shape = [size if isinstance(size, int) else (1 if k == 0 else 64) for k, size in enumerate(fed.shape)]
        net.run(None, {fed.name: np.zeros(shape, np.float32)})
    return list(dict.fromkeys(name for name, _ in nets))


def _the_pool() -> ThreadPoolExecutor:
    """The threads that run nets side by side (made on first use)."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(THREADS, thread_name_prefix="companion-nets")
        return _pool


def forget_sessions(name: str) -> None:
    """Drop the cached sessions of model `name` (float and int8), e.g. after a fine-tune rewrote its files."""
    with _lock:
        for key in [k for k in _sessions if Path(k[0]).name in (f"{name}.onnx", f"{name}.int8.onnx")]:
            del _sessions[key]


_adapted_seen: dict[Path, int | None] = {}  # a models folder -> its fine-tune record's time when last checked


def read_adapted_nets() -> bool:
    """Forget the cached sessions of MODELS_DIR's nets where a fine-tune has finished writing into that folder since
    the last call, so that a server keeps no nets a club's fine-tune replaced: the next photo is read with the
    adapted ones, without a restart. The fine-tune writes its record (companion.kept.FINETUNE_RECORD) after every
    net, so a record changed since the last call says that each file it wrote is whole (one gone: companion train
    --restore put the shipped ones back). Whether the sessions were forgotten: never at the first call for a folder
    (:func:`warm_up` makes it before it opens them, :func:`recognize_image` before each photo)."""
    folder = MODELS_DIR
    try:
        mark = (folder / FINETUNE_RECORD).stat().st_mtime_ns
    except OSError:
        mark = None
    with _lock:
        first, seen = folder not in _adapted_seen, _adapted_seen.get(folder)
        _adapted_seen[folder] = mark
        if first or mark == seen:
            return False
        for key in [k for k in _sessions if Path(k[0]).parent == folder]:
            del _sessions[key]
    return True


def load_image(path: str | Path) -> np.ndarray:
    """The photo file decoded whole (a BGR array); a clear error where it is no photo that can be read."""
    return decode_photo(_photo_bytes(path), str(path))


def load_to_read(path: str | Path) -> PhotoToRead:
    """The photo file decoded as :func:`companion.photo_files.decode_to_read` decodes it (a JPEG 6000 px long or
    more at half size): pass its ``scale`` to :func:`recognize_image`. :func:`read_photo_file` may read a 12 MP
    one at half size too."""
    return decode_to_read(_photo_bytes(path), str(path))


def read_photo_file(path: str | Path, dora: PhotoToRead | None = None, **options: Any) -> tuple[dict, PhotoToRead]:
    """The photo file read as ``companion recognize`` and the page read it (:func:`companion.photo_files.read_photo`:
    a 12 MP JPEG at half size where its tiles are wide) with the dora photo ``dora`` and the player's corrections
    (``options``, as for :func:`recognize_image`): the answer and the photo as decoded to be read."""
    return read_photo(_photo_bytes(path), str(path), None, recognize_image, dora, **options)


def _photo_bytes(path: str | Path) -> bytes:
    if Path(path).is_dir():
        raise InvalidRequestError(f"{path} is a folder; name the photos in it (e.g. {Path(path) / '*.jpg'})")
    if not Path(path).is_file():
        raise InvalidRequestError(f"image {path} does not exist")
    return Path(path).read_bytes()


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


_NEAR = np.mgrid[0:3, 0:3]  # a 3x3 neighbourhood's rows and columns, counted from its corner (decode_maps)
_STEPS = np.array([-1.0, 0.0, 1.0])  # and from its centre


def decode_maps(maps: np.ndarray, scale: float, image_shape: tuple[int, int],
                threshold: float = DETECT_MIN) -> list[tuple[tuple[float, float, float, float], bool, float]]:
    """Localiser output (4, h, w) -> [(box in photo pixels, sideways, score)], peaks found by a 3x3 max filter."""
    heat = _sigmoid(maps[:2].astype(np.float32))
    best = heat.max(axis=0)
    peaks = (best >= cv2.dilate(best, np.ones((3, 3), np.uint8))) & (best > threshold)
    ys, xs = np.nonzero(peaks)
    H, W = image_shape
    # sub-cell centres from each peak's 3x3 neighbourhood (cells off the map count 0): touching tiles are only a
    # few cells apart
    near = np.pad(best.astype(np.float64), 1)[ys[:, None, None] + _NEAR[0], xs[:, None, None] + _NEAR[1]]
    weight = near.sum(axis=(1, 2))
    cy = (ys + (near.sum(axis=2) @ _STEPS) / weight + 0.5) * STRIDE / scale
    cx = (xs + (near.sum(axis=1) @ _STEPS) / weight + 0.5) * STRIDE / scale
    w = np.exp(maps[2, ys, xs]).astype(np.float64) * 16 / scale
    h = np.exp(maps[3, ys, xs]).astype(np.float64) * 16 / scale
    boxes = np.stack([np.maximum(0.0, cx - w / 2), np.maximum(0.0, cy - h / 2),
                      np.minimum(float(W), cx + w / 2), np.minimum(float(H), cy + h / 2)], axis=1)
    sideways = (heat[1, ys, xs] > heat[0, ys, xs]).tolist()
    out = [(tuple(b), s, q) for b, s, q in zip(boxes.tolist(), sideways, best[ys, xs].tolist(), strict=True)]
    return _nms(out)


def _iou(a: tuple, b: tuple) -> float:
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _nms(dets: list, iou: float = 0.45) -> list:
    keep: list = []
    for d in sorted(dets, key=lambda d: -d[2]):
        if all(_iou(d[0], k[0]) < iou for k in keep):
            keep.append(d)
    return keep


def _nets(first: str, seconds: tuple[str, ...]) -> list[str]:
    """The model ``first`` and those of ``seconds`` that are in the models folder."""
    return [first] + [name for name in seconds if model_path(name).exists()]


def localisers(one: bool = True) -> list[str]:
    """The localiser models to run: "localiser", and "localiser-b" when it is in the models folder (two nets
    trained apart, on scenes with and without the wall and discards; their output maps are averaged, which
    read more whole hands on most evaluation sets than either alone: models/TRAINING-LOG.md, "The second localiser").

    With ``one``, ONE_LOCALISER in the pair's place where it is shipped: one net trained on with the pair's settings
    and taught by its averaged maps (training's loc-student stage), which looks at every photo with half the pair's
    work: photos read 1.14-1.21x as fast, 35 of the 52 evaluation sets' 10,400 requests fewer, the held-out ones
    as many (models/TRAINING-LOG.md, "One usual localiser taught by the pair"). Training reads its scenes and
    calibrates the int8 classifiers with the pair (``one`` False), which its recipes were made with."""
    if one and model_path(ONE_LOCALISER).exists():
        return [ONE_LOCALISER]
    return _nets("localiser", SECOND_LOCALISERS)


def low_localisers(hand: bool = True) -> list[str]:
    """The low-angle localisers, "localiser-low" and "localiser-b-low" as far as they are in the models folder
    (none: empty): the usual pair trained on with 40% of their photos taken from 17-33 degrees above the table.
    Used alone they read low photos better and the rest worse (models/TRAINING-LOG.md, "Localisers trained on
    from a low angle"), so they read first only photos whose tiles look flat, and others only where the usual
    pair reads them doubtfully; the surer reading is kept (:func:`_low_or_usual`).

    A photo of a hand (``hand``) is read by LOW_HAND in the pair's place where it is shipped with the pair: one
    net trained on with the pair's settings and taught by its averaged maps (training's loc-low-student stage). On
    the 52 evaluation sets it read 7437 requests against the pair's 7433 (151,989 tiles right against 152,020),
    hands from 17-30 degrees 1.08-1.12x as fast (models/TRAINING-LOG.md, "One low-angle localiser for hand
    photos"). A second photo of the dora indicators (a dead wall seen from a seat) is read by the pair
    (:func:`_dora_reading`): there the one net read 18 indicators of 1000 fewer."""
    pair = [name for name in LOW_LOCALISERS if model_path(name).exists()]
    return [LOW_HAND] if hand and pair and model_path(LOW_HAND).exists() else pair


def classifiers(low: bool = False, one: bool = True) -> list[str]:
    """The classifier models to run: "classifier", and "classifier-b" when it is in the models folder (two nets
    trained apart, a chain of runs and the one command's recipe; their probabilities are averaged where the first
    is unsure (:func:`_probabilities`), which read more whole hands on every held-out set than either alone:
    models/TRAINING-LOG.md, "Two classifiers averaged"). With ``one``, ONE_CLASSIFIER alone in the pair's place
    where it is shipped (one net taught by the pair, training's student stage: :func:`reads_alone`). With ``low``
    (the crops of a read by the low-angle pair, :func:`low_localisers`), the pair's low-angle twins
    ("classifier-low", LOW_TWIN) in the folder, and only those, where there are any. Since session 51 one twin is
    shipped, taught by both (training's low-student stage), and it reads alone: over 52 evaluation sets 9 requests
    more than the two twins averaged, in 0.9 of the time from 17-30 degrees (TRAINING-LOG, "One low-angle twin
    taught by both"). Since session 57 ONE_CLASSIFIER is shipped too: 33 of the 52 sets' 10,400 requests fewer than
    the pair, photos 1.04-1.22x as fast (TRAINING-LOG, "One classifier taught by the pair")."""
    if low:
        twins = [twin for name in _nets("classifier", SECOND_CLASSIFIERS) if model_path(twin := name + LOW_TWIN).exists()]
        if twins:
            return twins
    if one and model_path(ONE_CLASSIFIER).exists():  # (asked for every batch of crops: the pair is not looked for)
        return [ONE_CLASSIFIER]
    return _nets("classifier", SECOND_CLASSIFIERS)


def reads_alone(name: str) -> bool:
    """Whether the classifier ``name``, the only one to read a batch, reads its doubtful crops once only: a net
    taught by a pair (ONE_CLASSIFIER, or a low-angle twin shipped alone) learnt the pair's average, which a second
    reading turned would only blur; any other lone classifier reads them again turned (:func:`_probabilities`)."""
    return name == ONE_CLASSIFIER or name.endswith(LOW_TWIN)


def every_classifier() -> list[str]:
    """The classifiers of the models folder and their low-angle twins (:func:`classifiers`), each once: what is
    quantised (training.quantize) and fine-tuned (finetune) together."""
    return list(dict.fromkeys(classifiers() + classifiers(low=True)))


def _probabilities(batch: np.ndarray, low: bool = False) -> np.ndarray:
    """Class probabilities of a batch of crops: the classifiers' softmax outputs averaged, where the first reads
    a crop less surely than CASCADE_SURE; its own where it reads it that surely or more. A models folder with
    one classifier (what ``training.train --quick`` makes) has it read those crops a second
    time turned by 180 degrees instead (tiles lie either way round, and it was trained on both): the quick set
    of session 18 read 568 of the 800 held-out requests so, 551 without (TRAINING-LOG, "One classifier reads its
    doubts turned"). With two (session 17's pair), a turned reading as well read 626 instead of 625 for 1.1-1.2x
    the time: not done. A net taught by a pair reads alone (:func:`reads_alone`).

    The first (trained with label smoothing 0.05, so it gives at most about 0.95) reads about 38% of the crops of
    the evaluation photos that surely, and there the average had the same best class on all of 10,009 crops
    (uni, won hands, point sticks, printed mat: a scratch count). The held-out sets read exactly as many tiles and
    hands as with every crop read by both, and recognize_image was 1.01-1.07x faster on an AVX2 CPU (TRAINING-LOG,
    "Asking the second classifier less"). At 0.9 a confidently misread honour of the sticks fixture was no longer
    outvoted. ``low``: read by the low-angle twins where shipped (:func:`classifiers`)."""
    first, *seconds = classifiers(low)
    p = _softmax(run_split(first, "crops", batch))
    doubt = np.flatnonzero(p.max(axis=1) < CASCADE_SURE)
    if len(doubt) and (seconds or not reads_alone(first)):
        if seconds:
            part = np.ascontiguousarray(batch[doubt])
            others = [_softmax(run_split(n, "crops", part)) for n in seconds]
        else:  # one copy of the doubted crops, already turned
            others = [_softmax(run_split(first, "crops", np.ascontiguousarray(batch[doubt, :, ::-1, ::-1])))]
        p[doubt] = np.mean([p[doubt], *others], axis=0)
    return p


def _localise_once(image_bgr: np.ndarray, verify: bool = True, looked: dict | None = None,
                   nets: list[str] | None = None, boxed: tuple[np.ndarray, float] | None = None,
                   ) -> tuple[list[tuple[tuple[float, float, float, float], bool, float]], float]:
    """The tiles the localisers (``nets``, else :func:`localisers`) find in one look (:func:`localise`); with
    ``looked``, the verifier's odds of those kept go into it, keyed by (box, sideways): (odds, crop as
    crops_to_batch gives it, or None), so that :func:`verified` need not read them again. The classifiers' crop
    is cut here only for a verifier that reads it (not SHAPED_INPUT); else :func:`_crops_of` cuts it when it is
    first asked for and keeps it there, so that neither the orienter nor the classifiers cut it twice, and a look
    whose tiles are not read (a tilted photo's first look, one a closer look replaces) cuts none but the
    verifier's. ``boxed``: :func:`letterbox` of the photo where made already (by the other pair)."""
    x, scale = boxed or letterbox(image_bgr)
    maps = np.mean([out[0] for out in run_nets(nets or localisers(), {"image": x})], axis=0)
    found = decode_maps(maps, scale, image_bgr.shape[:2])
    if not verify:
        return found, scale
    checked = bool(found) and model_path(VERIFIER).exists()
    batch = _crops_of(image_bgr, found) if checked and verifier_input() != SHAPED_INPUT else None
    kept = [(i, q) for i, q in enumerate(_tile_odds(image_bgr, found, batch)) if q >= VERIFY_EARLY]
    if looked is not None and checked:
        looked.update(((found[i][0], found[i][1]), (q, None if batch is None else batch[i])) for i, q in kept)
    return [found[i] for i, _ in kept], scale


def _crops_of(image_bgr: np.ndarray, found: list, looked: dict | None = None) -> np.ndarray:
    """The crops of the boxes found, in one batch (crops_to_batch of crop_tile): taken from ``looked`` (see
    :func:`_localise_once`) when it holds every box, those not cut yet cut from the photo and kept there; else all
    cut from the photo."""
    if looked and found and all((b, s) in looked for b, s, _ in found):
        uncut = list(dict.fromkeys((b, s) for b, s, _ in found if looked[(b, s)][1] is None))  # (each once)
        if uncut:
            crops = crops_to_batch([crop_tile(image_bgr, b, s) for b, s in uncut])
            looked.update((key, (looked[key][0], crop)) for key, crop in zip(uncut, crops, strict=True))
        return np.stack([looked[(b, s)][1] for b, s, _ in found])
    return crops_to_batch([crop_tile(image_bgr, b, s) for b, s, _ in found])


def _tile_odds(image_bgr: np.ndarray, found: list, batch: np.ndarray | None = None,
               known: dict | None = None) -> list[float]:
    """The verifier's probability that each box found is a tile: from ``known`` ((box, sideways) -> (odds, crop),
    as _localise_once leaves them) where it holds the box, else read from the crops (``batch``: the crops of all
    of ``found``, when already cut, for a verifier that reads them as the classifiers do; one whose input is
    SHAPED_INPUT reads its own, cut around :func:`preprocess.shaped_box`); all 1 without a verifier in the models
    folder."""
    if not found or not model_path(VERIFIER).exists():
        return [1.0] * len(found)
    known = known or {}
    out = [known[(b, s)][0] if (b, s) in known else None for b, s, _ in found]
    todo = [i for i, q in enumerate(out) if q is None]
    if todo:
        feed = verifier_input()
        if feed == SHAPED_INPUT:
            crops = crops_to_batch([crop_shaped(image_bgr, found[i][0], found[i][1]) for i in todo])
        else:
            crops = batch[todo] if batch is not None else _crops_of(image_bgr, [found[i] for i in todo])
        for i, q in zip(todo, _sigmoid(session(VERIFIER).run(None, {feed: crops})[0][:, 0]).tolist(), strict=True):
            out[i] = q
    return out


def verifier_input() -> str:
    """The name of the verifier's input, which says how it wants its crops cut: SHAPED_INPUT (since session 56:
    around :func:`preprocess.shaped_box`, so that a die's square box is no 1p; models/TRAINING-LOG.md, "The
    verifier sees each thing in its own shape") or "crops" (as the classifiers see them: a verifier of an
    earlier session, or one fine-tuned from it)."""
    return session(VERIFIER).get_inputs()[0].name


def verifier_shaped() -> bool:
    """Whether the models folder holds a verifier that reads crops cut around shaped boxes (:func:`verifier_input`)."""
    return model_path(VERIFIER).exists() and verifier_input() == SHAPED_INPUT


def verified(image_bgr: np.ndarray, found: list, probs: np.ndarray, batch: np.ndarray | None = None,
             known: dict | None = None) -> list[bool]:
    """Which of the tiles found to keep: all but those the verifier, when it is in the models folder, takes for
    no tile (probability below VERIFY_MIN) and the classifiers read with less than VERIFY_SURE. Point sticks,
    dice and a mat's print can look like tiles to the localiser, never seen in its training scenes, and one such
    box in the hand's row spoils the hand; a face-down or blank tile the verifier doubts is still kept when the
    classifiers are sure of it (models/TRAINING-LOG.md, "Things on the table that are no tiles"). A box the
    verifier doubts less (below VERIFY_DOUBT) goes too if it would be shown with a confidence below READ_LOW
    (:func:`_confidence`: the classifiers hardly read it, or the localiser hardly saw it): all three nets doubt it."""
    odds = _tile_odds(image_bgr, found, batch, known)
    return [bool((q >= VERIFY_MIN or sure >= VERIFY_SURE) and (q >= VERIFY_DOUBT or _confidence(sure, sc) >= READ_LOW))
            for q, sure, (_, _, sc) in zip(odds, probs.max(axis=1).tolist(), found, strict=True)]


def _neighbour_steps(found: list) -> np.ndarray:
    """(dx, dy) from each tile's centre to its nearest neighbour's, one row per tile (at least two tiles)."""
    centres = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b, _, _ in found])
    dist = ((centres[:, None] - centres[None]) ** 2).sum(axis=-1)
    np.fill_diagonal(dist, np.inf)
    return centres[dist.argmin(axis=1)] - centres


def zoom_region(found: list, scale: float, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """The part of the photo to look at again, closer, when the tiles found are small for the localiser
    (a hand photographed from further away, taking a third of the width): a window of the photo's shape
    around them in which the tiles come to about ZOOM_TARGET localiser pixels apart; or None.

    Tile size is read from the distance between neighbouring tiles (touching tiles: one tile width), not
    from the boxes, whose sizes the localiser overstates for tiles smaller than it was trained on."""
    if len(found) < 2:
        return None
    spacing = _spacing(found)  # photo pixels
    H, W = shape[:2]
    x0, y0, x1, y1 = _with_room(found, spacing)
    band = _band(x0, y0, x1, y1, spacing, W, H)
    if band is not None:
        return band
    gain = min(ZOOM_TARGET / (spacing * scale), W / max(1.0, x1 - x0), H / max(1.0, y1 - y0))
    if gain < ZOOM_MIN_GAIN:
        return None
    w, h = W / gain, H / gain
    return _window_about(x0, y0, x1, y1, w, h, W, H)


def _window_about(x0: float, y0: float, x1: float, y1: float, w: float, h: float, W: int, H: int,
                  ) -> tuple[int, int, int, int]:
    """A window ``w`` x ``h`` centred on the box x0..x1, y0..y1, shifted into the picture (``W`` x ``H``) where it
    would run off it, in whole pixels that hold it."""
    cx = min(max((x0 + x1) / 2, w / 2), W - w / 2)
    cy = min(max((y0 + y1) / 2, h / 2), H - h / 2)
    return int(cx - w / 2), int(cy - h / 2), int(np.ceil(cx + w / 2)), int(np.ceil(cy + h / 2))


def _with_room(found: list, spacing: float) -> tuple[float, float, float, float]:
    """The box around the tiles found (photo pixels) with room for tiles missed at either end of their rows and for
    a dora row above (tiles ``spacing`` apart)."""
    return (min(b[0] for b, _, _ in found) - 2 * spacing, min(b[1] for b, _, _ in found) - 3 * spacing,
            max(b[2] for b, _, _ in found) + 2 * spacing, max(b[3] for b, _, _ in found) + 1.5 * spacing)


def _level_band(found: list, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """The window of the level picture (of ``shape``) that :func:`_look_again` looks at for the tiles ``found`` on
    it: as wide as their rows with room (:func:`_with_room`), or wider where that would bring them more than
    ZOOM_TARGET localiser px apart, as tall as their rows need and at most LEVEL_BAND_ASPECT times as wide as tall
    (and no larger than the picture); None where it would hold most of the picture (it is looked at whole). The
    localiser then sees the rows, not the empty table above and below them that a window of the picture's shape
    holds (the camera-turned sets 1.05-1.09x as fast)."""
    if len(found) < 2:
        return None
    spacing = _spacing(found)
    H, W = shape[:2]
    x0, y0, x1, y1 = _with_room(found, spacing)
    w = min(float(W), max(x1 - x0, spacing * LOC_LONG / ZOOM_TARGET))
    h = min(float(H), max(y1 - y0, w / LEVEL_BAND_ASPECT))
    if w * h > 0.8 * W * H:
        return None
    return _window_about(x0, y0, x1, y1, w, h, W, H)


def _band(x0: float, y0: float, x1: float, y1: float, spacing: float, W: int, H: int,
          ) -> tuple[int, int, int, int] | None:
    """For a photo taller than wide (a phone held upright), a window wider than tall (BAND_ASPECT) around the
    tiles (x0..x1, y0..y1, margins included): the localiser sees a photo at LOC_LONG on its long side, the height
    here, so a hand across the width is read at 0.56-0.75 of the size it would have in a landscape photo, and a
    window of the photo's own shape cannot enlarge it. The window is as wide as the tiles and their rows need
    and no wider than brings them to ZOOM_TARGET apart; None where the photo is not upright, the tiles' rows do
    not fit such a window (a hand on its side, rows of discards) or it would enlarge them less than
    ZOOM_MIN_GAIN."""
    if H <= W:
        return None
    w = min(float(W), max(x1 - x0, (y1 - y0) * BAND_ASPECT, spacing * LOC_LONG / ZOOM_TARGET))
    h = w / BAND_ASPECT
    if y1 - y0 > h or H / w < ZOOM_MIN_GAIN:
        return None
    return _window_about(x0, y0, x1, y1, w, h, W, H)


def _spacing(found: list) -> float:
    """How far apart the tiles found are (photo pixels): the median distance to the nearest neighbour, or the
    narrower side of a lone tile's box."""
    if len(found) == 1:
        b = found[0][0]
        return min(b[2] - b[0], b[3] - b[1])
    return float(np.median(np.hypot(*_neighbour_steps(found).T)))


def _from_further(image_bgr: np.ndarray, found: list, scale: float, verify: bool,
                  nets: list[str] | None = None) -> list | None:
    """The tiles found in the photo made smaller: shrunk by as much as brings tiles as far apart as those ``found``
    (at the localiser's ``scale``) to ZOOM_TARGET, or ZOOM_OUT_BLIND times where none was found, and set in the
    middle of a canvas of its size and mean colour; boxes on the photo. None where the tiles are not far apart,
    or the look finds fewer (none, where none was found before).

    The training photos show whole hands, the tiles 15-30 localiser px apart; a close photo of a few tiles (the
    dora indicators on the dead wall) shows them three or more times that size, and the localiser finds pieces
    of them or misses them."""
    apart = _spacing(found) * scale if found else None
    if apart is not None and apart <= ZOOM_OUT_ABOVE:
        return None
    k = apart / ZOOM_TARGET if apart is not None else ZOOM_OUT_BLIND
    height, width = image_bgr.shape[:2]
    small = cv2.resize(image_bgr, (max(1, round(width / k)), max(1, round(height / k))), interpolation=cv2.INTER_AREA)
    canvas = np.empty_like(image_bgr)
    canvas[:] = np.array(cv2.mean(image_bgr)[:3]).round().astype(np.uint8)  # plain: no streaks that look like tiles
    x0, y0 = (width - small.shape[1]) // 2, (height - small.shape[0]) // 2
    canvas[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
    fx, fy = width / small.shape[1], height / small.shape[0]
    back = np.array([[fx, 0.0, -x0 * fx], [0.0, fy, -y0 * fy]])  # the canvas onto the photo, as straighten's
    further = [(_box_back(b, back, width, height), s, sc) for b, s, sc in _localise_once(canvas, verify, nets=nets)[0]
               if _inside(b, back, width, height)]
    return further if further and len(further) >= len(found) else None


def localise(image_bgr: np.ndarray, verify: bool = True, looked: dict | None = None,
             nets: list[str] | None = None, boxed: tuple[np.ndarray, float] | None = None,
             ) -> list[tuple[tuple[float, float, float, float], bool, float]]:
    """Tiles found in the photo: (box in photo pixels, sideways, score). Where they are small for the
    localiser, it looks again at the part of the photo that holds them (see :func:`zoom_region`); where they are
    large, or none is found, at the photo made smaller (:func:`_from_further`). Boxes the verifier gives less
    than VERIFY_EARLY are left out, unless ``verify`` is False; ``looked`` gets the verifier's odds of the boxes of
    the first look and their crops (:func:`_localise_once`), and those of the closer look's boxes that
    :func:`_cut_alike` cuts alike from the window and from the photo (not the photo made smaller's). ``nets``:
    the localisers to look with (None: :func:`localisers`); ``boxed``: :func:`letterbox` of the photo where made
    already. No closer look where the rows found are tilted by COARSE_TILT or more: such a photo is read turned
    level (:func:`_read`), and looked at in the window its first look's tiles mark on the level picture first
    (:func:`_look_again`)."""
    found, scale = _localise_once(image_bgr, verify, looked, nets, boxed)
    further = _from_further(image_bgr, found, scale, verify, nets)
    if further is not None:
        return further
    if abs(row_angle(found)) >= COARSE_TILT:  # read from the photo turned level, looked at there closer (_read)
        return found
    region = zoom_region(found, scale, image_bgr.shape)
    if region is None:
        return found
    closer = _closer_look(image_bgr, region, verify, looked, nets, len(found))
    return found if closer is None else closer


def _closer_look(image_bgr: np.ndarray, region: tuple[int, int, int, int], verify: bool, looked: dict | None,
                 nets: list[str] | None, least: int) -> list | None:
    """The tiles found in the window ``region`` of the photo, boxes on the photo (:func:`localise`'s closer look),
    their odds and crops into ``looked``; None where it finds fewer than ``least``."""
    x0, y0, x1, y1 = region
    window = image_bgr[y0:y1, x0:x1]
    near: dict | None = {} if looked is not None else None
    closer, _ = _localise_once(window, verify, near, nets)
    if len(closer) < least:  # the closer look lost tiles: the caller keeps what it had
        return None
    moved = [((b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0), s, sc) for b, s, sc in closer]
    if near:  # the closer look's odds and crops, for the boxes on the photo
        shaped = verifier_shaped()
        looked.update(((m, s), near[(b, s)]) for (b, s, _), (m, _, _) in zip(closer, moved, strict=True)
                      if (b, s) in near and _cut_alike(window, b) and (not shaped or _cut_alike(window, shaped_box(b, s))))
    return moved


def _cut_alike(window: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    """Whether crop_tile cuts the box from a window of the photo as from the photo (lying sideways or not: the
    same pixels, turned): its margin stays off the window's edges (else the window clips it, and the photo's crop
    is to be cut afresh). A verifier that reads shaped crops (:func:`verifier_input`) judged the box by the crop of
    its shaped box, which must stay off them too (:func:`_closer_look` asks for both)."""
    xa, ya, xb, yb = crop_bounds(box)
    h, w = window.shape[:2]
    return xa >= 0 and ya >= 0 and xb <= w and yb <= h


def classify(image_bgr: np.ndarray, boxes: list[tuple[tuple[float, float, float, float], bool]]) -> tuple[np.ndarray, np.ndarray]:
    """Class index and probability of each box (see :func:`class_probabilities`)."""
    p = class_probabilities(image_bgr, boxes)
    return p.argmax(axis=1), p.max(axis=1)


def class_probabilities(image_bgr: np.ndarray, boxes: list[tuple[tuple[float, float, float, float], bool]],
                        batch: np.ndarray | None = None, low: bool = False,
                        first: np.ndarray | None = None) -> np.ndarray:
    """The probability of every class for each box (one row per box).

    Every crop is read once (by the classifiers, :func:`_probabilities`). A crop read with less than
    TURN_CHECK is read three more times, in one batch:
    turned by 180 degrees (tiles lie either way round) and cut with its box 10% smaller and 10% larger (the
    box is regressed, so the symbol may sit off-centre or lose its rim); the four readings are averaged.
    Measured with the int8 models: on the held-out style 91.6% -> 92.0% of tiles and 38.0% -> 41.0% of
    hands, on unseen training-style scenes 94.3% -> 94.6% and 49% -> 50%; about a quarter of the crops
    took the three extra reads with TURN_CHECK at 0.8 (until session 13), fewer at 0.6. ``low``: read by the
    low-angle twins where shipped (:func:`classifiers`). ``first``: the classifiers' reading of ``batch`` where
    made already (:func:`_probabilities`, as :func:`_first_reading` gives it), so that only its doubts are read.
    """
    if not boxes:
        return np.zeros((0, len(classes())), np.float32)
    if batch is None:  # the crops, unless cut already (crops_to_batch of crop_tile, as here)
        batch = crops_to_batch([crop_tile(image_bgr, b, s) for b, s in boxes])
    p = _probabilities(batch, low) if first is None else first.copy()
    doubt = np.flatnonzero(p.max(axis=1) < TURN_CHECK)
    if len(doubt):
        again = [batch[doubt, :, ::-1, ::-1]]
        for f in RECUT:
            again.append(crops_to_batch([crop_tile(image_bgr, scaled_box(boxes[i][0], f), boxes[i][1])
                                         for i in doubt]))
        q = _probabilities(np.ascontiguousarray(np.concatenate(again)), low)
        n = len(doubt)
        p[doubt] = (p[doubt] + sum(q[k * n:(k + 1) * n] for k in range(len(again)))) / (1 + len(again))
    return p


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def row_angle(found: list) -> float:
    """How far the rows are tilted (degrees; positive: falling to the right as the photo is shown), as the
    median direction from each tile to its nearest neighbour (a touching tile of its row). Directions are
    folded into -45..45, so a tile above another counts as level; 0 with fewer than four tiles."""
    if len(found) < 4:
        return 0.0
    step = _neighbour_steps(found)
    angles = np.degrees(np.arctan2(step[:, 1], step[:, 0]))
    return float(np.median((angles + 45.0) % 90.0 - 45.0))


# straighten's angles (counter-clockwise) that cv2.rotate turns the photo by
_QUARTER_TURNS = {90.0: cv2.ROTATE_90_COUNTERCLOCKWISE, 180.0: cv2.ROTATE_180, 270.0: cv2.ROTATE_90_CLOCKWISE}


def _canvas(shape: tuple[int, ...], angle: float, stretch: float = 1.0,
            scale: float = 1.0) -> tuple[np.ndarray, int, int]:
    """:func:`straighten`'s 3x3 map from the photo (of ``shape``) onto its canvas, and the canvas's width and
    height."""
    h, w = shape[:2]
    m = np.vstack([cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), angle, 1.0), [0.0, 0.0, 1.0]])
    m = np.diag([scale, scale * stretch, 1.0]) @ m
    corners = m[:2] @ np.array([[0, w - 1, w - 1, 0], [0, 0, h - 1, h - 1], [1, 1, 1, 1]], np.float64)
    lo = corners.min(axis=1)
    m[:2, 2] -= lo  # pixel centres from 0
    nw, nh = (int(np.ceil(v - 1e-6)) + 1 for v in corners.max(axis=1) - lo)
    return m, nw, nh


def straighten(image_bgr: np.ndarray, angle: float, stretch: float = 1.0, scale: float = 1.0,
               window: tuple[int, int, int, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The photo turned by ``angle`` degrees (counter-clockwise as shown) about its centre and then stretched
    ``stretch`` times in height, on a canvas that holds all of it (corners in the photo's mean colour), and the
    2x3 map from the new picture back onto the photo; ``scale`` (at least 0.5: bilinear) makes it smaller.
    ``window`` (x0, y0, x1, y1 on that canvas): only that part of it is made (the same picture but for rounding:
    OpenCV places each pixel's sample by a row's and a column's share, each rounded)."""
    m, nw, nh = _canvas(image_bgr.shape, angle, stretch, scale)
    if window is not None:
        x0, y0, x1, y1 = window
        m[:2, 2] -= (x0, y0)
        nw, nh = x1 - x0, y1 - y0
    quarter = _QUARTER_TURNS.get(angle % 360.0) if stretch == scale == 1.0 and window is None else None
    if quarter is not None:  # the same pixels as warpAffine's (no corners to fill), in a tenth of the time
        return cv2.rotate(image_bgr, quarter), cv2.invertAffineTransform(m[:2])
    fill = cv2.mean(image_bgr)[:3]  # plain corners: repeated edge pixels make streaks that can look like tiles
    out = cv2.warpAffine(image_bgr, m[:2], (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=fill)
    return out, cv2.invertAffineTransform(m[:2])


@dataclass
class Look:
    """A localiser pair's look at a photo: the tiles :func:`localise` finds in it and the verifier's odds and crops
    of them (its ``looked``), and the photo letterboxed for the localisers (``boxed``), kept for the other pair's
    look at it (:meth:`by`)."""

    image: np.ndarray
    boxed: tuple[np.ndarray, float]
    found: list
    looked: dict

    def by(self, nets: list[str] | None) -> Look:
        """The look of the localisers ``nets`` at the same photo, letterboxed once (2.9 ms for a photo of 1138 x 853:
        a low-angle photo is looked at by both pairs; models/TRAINING-LOG.md, "Letterboxed once for both pairs")."""
        return _first_look(self.image, nets, self.boxed)


def _first_look(image_bgr: np.ndarray, nets: list[str] | None = None,
                boxed: tuple[np.ndarray, float] | None = None) -> Look:
    """The localisers' (``nets``) look at the photo (``boxed``: letterboxed already)."""
    looked: dict = {}
    boxed = boxed or letterbox(image_bgr)
    return Look(image_bgr, boxed, localise(image_bgr, looked=looked, nets=nets, boxed=boxed), looked)


def orientation(image_bgr: np.ndarray, found: list, looked: dict | None = None) -> float:
    """How surely the photo stands the right way up (above 0) or upside down (below): the orienter's logits of
    the upright tiles found (box, sideways, score), each cut to +-ORIENT_CLIP, summed (crops from ``looked`` where
    it holds them all, :func:`_crops_of`). Tiles that look alike either way round add about 0; 0 without an
    orienter in the models folder, or without upright tiles (a photo on its side shows its tiles sideways)."""
    upright = [f for f in found if not f[1]]
    return _orienter_vote(lambda: _crops_of(image_bgr, upright, looked)) if upright else 0.0


def _orienter_vote(crops: Callable[[], np.ndarray]) -> float:
    """The orienter's logits of the crops (a batch as crops_to_batch gives it, cut only where an orienter is
    shipped), each cut to +-ORIENT_CLIP, summed: above 0 they stand the right way up; 0 without an orienter."""
    if not model_path(ORIENTER).exists():
        return 0.0
    logits = session(ORIENTER).run(None, {"crops": crops()})[0][:, 0]
    return float(np.clip(logits, -ORIENT_CLIP, ORIENT_CLIP).sum())


def way_up(image_bgr: np.ndarray) -> bool | None:
    """Whether the photo stands upside down (True: its upright tiles vote UPSIDE_DOWN_TO or below, a camera across
    the table) or the right way up (False: UPRIGHT_FROM or above), by the usual localisers' first look and
    :func:`orientation`; None where its tiles do not say (none upright, a vote between, no orienter)."""
    return _upside_down(image_bgr, _first_look(image_bgr))


def _upside_down(image_bgr: np.ndarray, look: Look) -> bool | None:
    """What the upright tiles of ``look`` (at the photo) say (:func:`way_up`): upside down (True, a vote of
    UPSIDE_DOWN_TO or below), the right way up (False, UPRIGHT_FROM or above), or nothing (None)."""
    vote = orientation(image_bgr, look.found, look.looked)
    return True if vote <= UPSIDE_DOWN_TO else False if vote >= UPRIGHT_FROM else None


def lies_across(turned: object) -> bool:
    """Whether a photo read ``turned`` degrees (an answer's "turned") was read on its side (90 or 270): a tile read
    upright lies across on the photo as taken, and one read sideways stands there."""
    return turned in (90, 270) and not isinstance(turned, bool)


def seen_aspect(tiles: list[dict], turned: int | None = None) -> float:
    """How tall the answer's upright tiles look for their width (:func:`_upright_aspect` of their boxes on the photo
    as taken, which lie across where it was read on its side, :func:`lies_across`): about 1.3 seen from above, less
    the lower the camera; 1.0 without any."""
    across = lies_across(turned)
    return _upright_aspect([((b[1], b[0], b[3], b[2]) if across else b, t["sideways"], 0.0)
                            for t in tiles for b in [t["box"]]])


def _upright_aspect(found: list) -> float:
    """Median height / width of the upright tiles' boxes (1.0 without any): about 1.3 seen from above, less
    the lower the camera looks across the table."""
    ratios = [(b[3] - b[1]) / max(1e-6, b[2] - b[0]) for b, s, _ in found if not s]
    return float(np.median(ratios)) if ratios else 1.0


def _look_again(image_bgr: np.ndarray, found: list, angle: float, stretch: float,
                better: Callable[[np.ndarray, list, dict], bool] | None = None,
                nets: list[str] | None = None, boxed: tuple[np.ndarray, float] | None = None) -> tuple | None:
    """(picture, way back, tiles, the verifier's odds and crops of them as :func:`localise` leaves them in its
    ``looked``) of the photo turned level and/or stretched, if the localiser finds at least as many tiles there as
    ``found`` (tiles in the filled corners do not count), or fewer that ``better`` (called with the new picture,
    its tiles and their odds and crops) prefers; otherwise None. Where the tiles found are further apart and wider
    than VIEW_SPACING (a phone's 12 MP photo), the picture is made smaller until they come to that, and further
    where it would still be larger than VIEW_MOST pixels. Turned level
    only, the picture may be the window of it that holds the tiles (below); where the whole of it is looked at,
    the localisers' input is turned from ``boxed``, the photo's own :func:`letterbox`, where given
    (:func:`_turned_letterbox`: the camera-turned photos 3-7% faster, models/TRAINING-LOG.md, "The level look from
    the photo's own letterbox")."""
    height, width = image_bgr.shape[:2]
    # the tiles' size: their spacing, or their boxes' width where less (a first look may find a few pieces of a far
    # hand, far apart). Averaged down by a whole number k first (block_average), the rest in the turn
    size = min(_spacing(found), float(np.median([b[2] - b[0] for b, _, _ in found]))) if found else 0.0
    shrink = min(1.0, VIEW_SPACING / size) if size > 0 else 1.0
    _, nw, nh = _canvas(image_bgr.shape, angle, stretch, shrink)
    if nw * nh > VIEW_MOST:  # a canvas of many MP (a phone's photo turned or stretched): made smaller to fit
        shrink *= float(np.sqrt(VIEW_MOST / (nw * nh)))
    k = int(1 / shrink)
    if k < 2 or min(height, width) < k:
        k = 1
    source, scale = (block_average(image_bgr, k), shrink * k) if k > 1 else (image_bgr, shrink)
    block = np.array([[k, 0.0, (k - 1) / 2], [0.0, k, (k - 1) / 2]])  # a block's centre on the photo: k x + (k - 1) / 2

    def made(window: tuple[int, int, int, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        view, inverse = straighten(source, angle, stretch, scale, window)
        return view, block @ np.vstack([inverse, [0.0, 0.0, 1.0]])

    looked: dict = {}
    if stretch == 1.0 and len(found) > 1:
        # turned level only (stretched, flat photos read fewer requests so): the first look's tiles, on the level
        # canvas, are looked for straight away in a band around their rows where they do not look flat (since
        # session 75, _level_band: the camera-turned sets 1.05-1.09x as fast, TRAINING-LOG "The level look in a band
        # around the rows"), else where they are small for the localiser in a window of the canvas's shape (12%
        # faster, 4 localiser passes a photo to 3: "The level look straight at the window"); only that part of the
        # canvas is made (a 12 MP photo's whole turn took 31% of its time: "Only the window of the level picture
        # made"); the whole picture is made and looked at where there is no such window or it finds fewer tiles
        m, nw, nh = _canvas(source.shape, angle, stretch, scale)
        ahead = (m @ np.linalg.inv(np.vstack([block, [0.0, 0.0, 1.0]])))[:2]  # the photo onto the canvas
        known = [(_box_back(b, ahead, nw, nh), s, sc) for b, s, sc in found]
        region = (_level_band(known, (nh, nw)) if _upright_aspect(found) >= LEVEL_BAND_FROM
                  else zoom_region(known, LOC_LONG / max(nw, nh), (nh, nw)))
        if region is not None:
            view, inverse = made(region)
            closer, _ = _localise_once(view, True, looked, nets)
            if len(closer) >= len(known):
                again = [f for f in closer if _inside(f[0], inverse, width, height)]
                if len(again) < len(found):
                    return None
                return view, partial(_box_back, back=inverse, width=width, height=height), again, looked
            looked = {}
    view, inverse = made()
    level_boxed = None
    if LEVEL_FROM_LETTERBOX and boxed is not None and stretch == 1.0:
        level_boxed = _turned_letterbox(boxed, image_bgr.shape, inverse, view.shape, cv2.mean(source)[:3])
    again = [f for f in localise(view, looked=looked, nets=nets, boxed=level_boxed)
             if _inside(f[0], inverse, width, height)]
    if len(again) < len(found) and (better is None or not better(view, again, looked)):
        return None
    return view, partial(_box_back, back=inverse, width=width, height=height), again, looked


def _turned_letterbox(boxed: tuple[np.ndarray, float], photo_shape: tuple[int, ...], back: np.ndarray,
                      canvas_shape: tuple[int, ...], fill: tuple[float, ...]) -> tuple[np.ndarray, float]:
    """:func:`letterbox` of the level canvas made from the photo's own letterbox (``boxed``) turned onto it, not by
    shrinking the canvas: the canvas's pixels (``back``: the 2x3 map from them onto the photo) at the localiser's
    scale, its corners in ``fill`` (BGR, rounded as :func:`straighten` fills them)."""
    x, s1 = boxed
    _, (sw, sh), _ = letterbox_layout(photo_shape)
    sc, (nw, nh), padded = letterbox_layout(canvas_shape)
    # a pixel of the canvas's letterbox -> one of the photo's letterbox
    onto = np.linalg.inv(_shrunk_from(s1)) @ np.vstack([back, [0.0, 0.0, 1.0]]) @ _shrunk_from(sc)
    out = np.full((1, 3, *padded), -0.5, np.float32)
    for i in range(3):
        out[0, i, :nh, :nw] = cv2.warpAffine(x[0, i, :sh, :sw], onto[:2], (nw, nh),
                                             flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                             borderMode=cv2.BORDER_CONSTANT, borderValue=round(fill[2 - i]) / 255.0 - 0.5)
    return out, sc


def _shrunk_from(scale: float) -> np.ndarray:
    """The 3x3 map from a picture resized by ``scale`` (a letterbox) back onto the one it was made from: a pixel's
    centre u lies at (u + 0.5) / scale - 0.5 there."""
    return np.array([[1 / scale, 0, 0.5 / scale - 0.5], [0, 1 / scale, 0.5 / scale - 0.5], [0, 0, 1]])


def _confidence(probability: float, score: float) -> float:
    """How sure a tile's reading is: the classifier's probability, scaled down where the localiser's peak was
    weak (below 0.5)."""
    return probability * min(1.0, score / 0.5)


def _first_reading(image_bgr: np.ndarray, found: list, looked: dict | None = None) -> tuple[np.ndarray | None, np.ndarray]:
    """The crops of the tiles found (box, sideways, score), taken from ``looked`` where it holds them all
    (:func:`_crops_of`), and the classifiers' first reading of them (:func:`_probabilities`), before
    :func:`class_probabilities` reads its doubts again; None and no rows without tiles."""
    if not found:
        return None, np.zeros((0, len(classes())), np.float32)
    batch = _crops_of(image_bgr, found, looked)
    return batch, _probabilities(batch)


def _mean_confidence(probs: np.ndarray, found: list) -> float:
    """The mean confidence the tiles found would be read with, given their class probabilities (0 without
    tiles)."""
    if not found:
        return 0.0
    top = probs.max(axis=1)
    return float(np.mean([_confidence(float(p), sc) for p, (_, _, sc) in zip(top, found, strict=True)]))


def _box_back(box: tuple[float, ...], back: np.ndarray, width: int, height: int) -> tuple[float, ...]:
    """A box on the straightened (or stretched) photo as the box around the same tile on the photo as taken."""
    x1, y1, x2, y2 = box
    corners = np.array([[x1, y1, 1.0], [x2, y1, 1.0], [x2, y2, 1.0], [x1, y2, 1.0]]) @ back.T
    return (max(0.0, float(corners[:, 0].min())), max(0.0, float(corners[:, 1].min())),
            min(float(width), float(corners[:, 0].max())), min(float(height), float(corners[:, 1].max())))


def _inside(box: tuple[float, ...], back: np.ndarray, width: int, height: int) -> bool:
    """Whether the box's centre, mapped back, lies on the photo as taken (not in the straightened photo's
    filled corners)."""
    x, y = back @ np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2, 1.0])
    return 0 <= x < width and 0 <= y < height


@dataclass(frozen=True)
class Taps:
    """The boxes the player tapped on a first answer's photo (as taken, as that answer gives them), for a read
    again: ``restore`` of its "not_tiles" that are tiles, ``drop`` of its "tiles" that are none, ``add`` where a
    tile lies that was not found, ``turn`` of its "tiles" (found or added) that lie the other way: sideways, not
    upright, or upright, not sideways."""

    restore: tuple = ()
    drop: tuple = ()
    add: tuple = ()
    turn: tuple = ()

    def __bool__(self) -> bool:
        return any((self.restore, self.drop, self.add, self.turn))


NO_TAPS = Taps()


def _turned_box(box: tuple[float, ...]) -> tuple[float, float, float, float]:
    """The box of a tile lying the other way about the same centre: its width and height swapped."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    w, h = (box[3] - box[1]) / 2, (box[2] - box[0]) / 2
    return (cx - w, cy - h, cx + w, cy + h)


def _read(image_bgr: np.ndarray, max_rows: int | None = None, dropped: list[Det] | None = None,
          outer: Callable | None = None, taps: Taps = NO_TAPS, nets: list[str] | None = None,
          first: Look | None = None, hand: bool = True) -> tuple[list[Det], list, Callable | None]:
    """Located and classified tiles in reading order, their groups per row, and None or the way back from the
    boxes (on the photo straightened, when its rows were tilted by DESKEW_MIN or more, and/or stretched in height,
    when its tiles look flatter than STRETCH_BELOW to the usual localisers) onto the photo as taken. ``nets``: the
    localisers to look with (None: :func:`localisers`; the
    low-angle pair's crops are read by the classifiers' low-angle twins where shipped, :func:`classifiers`);
    ``first``: their look at the photo where it was taken already (:class:`Look`).

    The boxes stay on the straightened photo until the request is built (its gaps are measured along the
    rows); :func:`_tile_dicts` puts them back. With ``max_rows``, tiles that lie in more rows than that are not
    classified and nothing is returned (a turned read that finds more is over). The player's ``taps`` (boxes on
    the photo as taken, reached from this picture's boxes by the way back and then ``outer``): those of
    ``restore`` name boxes the verifier took for no tile that are tiles: they are kept, marked ``restored``;
    ``drop`` names tiles that are none: they go with the verifier's (:func:`_named`); ``add`` names places where a
    tile lies that was not found: each is read as an upright tile there (:func:`_box_ahead`), marked ``restored``
    too; ``turn`` names tiles (after those added) lying the other way: each is read again in its box turned
    (:func:`_turned_box`), marked ``restored``. A closed kan's back the localisers missed, and a tile missed in a
    gap of one tile's width, are looked for and may be added, marked ``looked_for`` (:func:`_missed_tiles`); one
    that ``drop`` names is left out (listed in ``dropped``). Where the tiles still make no request, a box the
    verifier took for no tile may be put back, then a box wide enough for two tiles read as two, then two narrow
    boxes read as one tile, marked ``looked_for`` too (:func:`_put_back`, :func:`_split_wide`, :func:`_join_narrow`),
    and then a tile the hand's shape names put in a gap where no tile was read (:func:`_named_in_gap`); not a box
    that ``drop`` names (nor one holding the centre of a box it names, nor a place in a gap by one), nor on a photo
    that is no ``hand`` (a second photo of the dora indicators: its rows make no request)."""
    if not isinstance(image_bgr, np.ndarray) or image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.size == 0:
        raise InvalidRequestError("the image must be a colour picture (height x width x 3 BGR array)")
    # the verifier's odds and the crops of the first look's boxes, for the photo as taken
    look = first or _first_look(image_bgr, nets)
    found, looked = look.found, look.looked
    even = evened_colours(image_bgr, found)
    if even is not None:  # under a warm or cold lamp: read again from the photo with its colours evened out
        look = _first_look(even, nets)
        image_bgr, found, looked = even, look.found, look.looked
    view, back, seen, seen_looked = image_bgr, None, found, looked
    low = bool(nets) and set(nets) <= {*LOW_LOCALISERS, LOW_HAND}  # a low-angle read: its crops to the twins
    angle = row_angle(found)
    # a tablet held askew: the rows run uphill or downhill, more than the training photos' +-9 degrees allow
    level = _look_again(image_bgr, found, angle, 1.0, nets=nets, boxed=look.boxed) if abs(angle) >= DESKEW_MIN else None
    if level is not None:
        view, back, seen, seen_looked = level
    else:
        angle = 0.0
    aspect = _upright_aspect(seen)
    probs = None  # the class probabilities of the tiles kept, where the choice below has read them
    if aspect < STRETCH_BELOW and nets is None:
        # taken from a low angle, the tiles look flatter than in any training photo: the photo stretched in height.
        # Flat tiles can also be found in pieces (two or three narrow boxes on one tile), so fewer tiles there
        # are taken if they are read more surely. Not for the low-angle pair (the only other ``nets``), trained on
        # tiles this flat: unstretched it read 5 more of the 400 low-angle requests, 1 more of the 800 held-out,
        # in two thirds of the time (TRAINING-LOG "A low-angle pair for flat-looking photos")
        def surer(v: np.ndarray, f: list, lk: dict, v0: np.ndarray = view, f0: list = seen,
                  lk0: dict = seen_looked) -> bool:
            # judged by the classifiers' first readings; only the kept look's doubts are read again (the same
            # requests on all 50 evaluation sets as judging after that, 15% fewer crops read from 17-30 degrees:
            # models/TRAINING-LOG.md, "Fewer crops read from a low angle")
            nonlocal probs
            (crops, new), (crops0, old) = _first_reading(v, f, lk), _first_reading(v0, f0, lk0)
            keep = _mean_confidence(new, f) > _mean_confidence(old, f0)
            pic, tiles, crops, read = (v, f, crops, new) if keep else (v0, f0, crops0, old)
            probs = class_probabilities(pic, [(b, s) for b, s, _ in tiles], crops, first=read)
            return keep

        view, back, seen, seen_looked = (_look_again(image_bgr, seen, angle, STRETCH_TARGET / aspect, surer, nets)
                                         or (view, back, seen, seen_looked))
    # the picture read, its tiles, and the verifier's odds and crops of them from the look that found them
    image_bgr, found, looked = view, seen, seen_looked
    dets = [Det(box=b, sideways=s) for b, s, _ in found]
    if laid := kan_tops_found_upright(dets):  # an added kan's tiles lie sideways, both
        for d in laid:
            d.sideways = True
        found = [(b, d.sideways, sc) for d, (b, _, sc) in zip(dets, found, strict=True)]
    layout = group_rows(dets)  # rows come from the boxes alone
    if max_rows is not None and len(layout.rows) > max_rows:
        return [], [], None
    batch = None  # the crops, cut once for the classifiers and the verifier
    if probs is None:
        batch = _crops_of(image_bgr, found, looked)
        probs = class_probabilities(image_bgr, [(b, s) for b, s, _ in found], batch, low)
    keep = verified(image_bgr, found, probs, batch, looked)
    to_photo = _then(back, outer) if outer else back
    dropped_at = [i for i, k in enumerate(keep) if not k]
    put_back = _named(found, dropped_at, taps.restore, to_photo, "box taken for no tile") if taps.restore else set()
    kept_at = [i for i, k in enumerate(keep) if k or i in put_back]
    on_photo = _on_photo(found, kept_at, to_photo) if taps.drop else {}
    # a box around two narrow ones, where a tile read as one (_join_narrow) lay, names neither: that join is refused
    # below, and both stay as found
    joins = _joins_on_photo([found[i] for i in kept_at], to_photo) if taps.drop else []
    unjoined = [b for b in taps.drop if any(_iou(j, b) >= JOIN_NAMED for j in joins)]
    named = [(b, _overlapping(on_photo, b)) for b in taps.drop if b not in unjoined]
    taken_out = {i for _, i in named if i is not None}
    # the others may name tiles the localisers missed, read where the layout says one lies (_missed_tiles): below
    unfound = [b for b, i in named if i is None]
    keep = [(k or i in put_back) and i not in taken_out for i, k in enumerate(keep)]
    put_back -= taken_out
    names = classes()
    judged_dets = []  # the boxes taken for no tile, as read (the answer's "not_tiles", unless put back below)
    for (b, s, sc), p, k in zip(found, probs, keep, strict=True):
        if not k:
            judged_dets.append(Det(box=b, sideways=s))
            _name_reading(judged_dets[-1], p, sc, names)
    judged = [d.box for d in judged_dets]  # boxes the verifier took for no tile
    if not all(keep):
        put_back = {sum(keep[:i]) for i in put_back}  # their indices among the tiles kept
        found, probs = [f for f, k in zip(found, keep, strict=True) if k], probs[np.array(keep)]
    if taps.add:
        on_photo = _on_photo(found, range(len(found)), to_photo)
        for box in taps.add:
            if (at := _overlapping(on_photo, box)) is not None:
                raise InvalidRequestError(f"a tile was found at {list(box)} already (tile {at} of this read): "
                                          "correct that one instead")
        extra = [_box_ahead(box, found, to_photo) for box in taps.add]
        put_back |= set(range(len(found), len(found) + len(extra)))
        found = found + [(b, False, 1.0) for b in extra]
        probs = np.concatenate([probs, class_probabilities(image_bgr, [(b, False) for b in extra], low=low)])
    if taps.turn:
        turned = sorted(_named(found, range(len(found)), taps.turn, to_photo, "tile"))
        found = list(found)
        for i in turned:
            b, s, sc = found[i]
            found[i] = (_turned_box(b), not s, sc)
        probs[turned] = class_probabilities(image_bgr, [found[i][:2] for i in turned], low=low)
        put_back |= set(turned)
    if not all(keep) or taps.add or taps.turn:  # tiles taken out, added or turned: the rows again from the boxes
        dets = [Det(box=b, sideways=s) for b, s, _ in found]
        layout = group_rows(dets)
    for i in put_back:
        dets[i].restored = True
    for d, (_, _, sc), p in zip(dets, found, probs, strict=True):
        _name_reading(d, p, sc, names)
    groups = assign_groups(layout)
    no_request = _no_request(groups)
    unread_gaps: list[Det] = []
    missed = _missed_tiles(image_bgr, groups, low, judged, no_request, unread_gaps)
    # a box taken for no tile that the player says is none, and a tile read in a wide box that the player says is
    # none (where a read without the taps put it back, or read the box as two: below)
    judged_on_photo = _on_photo([(d.box, d.sideways, 1.0) for d in judged_dets], range(len(judged_dets)), to_photo)
    refused = {i for box in unfound if (i := _overlapping(judged_on_photo, box)) is not None}
    unfound = [box for box in unfound if _overlapping(judged_on_photo, box) is None]
    wide_on_photo = [(id(d), to_photo(d.box) if to_photo else d.box)
                     for d, _ in _wide_halves(groups, image_bgr.shape[1])] if hand and unfound else []
    unsplit = {i for i, b in wide_on_photo if any(_centre_in(u, b) for u in unfound)}
    unfound = [u for u in unfound if not any(_centre_in(u, b) for _, b in wide_on_photo)]
    if unfound and unread_gaps:  # and a place where the hand's shape named a tile (below): none is named there
        missed_on_photo = _on_photo([(d.box, False, 1.0) for d in missed], range(len(missed)), to_photo)
        at_gaps = [(g, to_photo(g.box) if to_photo else g.box) for g in unread_gaps]
        refusals = [u for u in unfound if _overlapping(missed_on_photo, u) is None
                    and any(_centre_in(u, b) or _centre_in(b, u) for _, b in at_gaps)]
        unread_gaps = [g for g, b in at_gaps if not any(_centre_in(u, b) or _centre_in(b, u) for u in refusals)]
        unfound = [u for u in unfound if u not in refusals]
    missed_out: list[Det] = []
    if unfound:  # the player says some of them are no tiles: they are left out (a box that names none: an error)
        named = _named([(d.box, False, 1.0) for d in missed], range(len(missed)), unfound, to_photo, "tile")
        missed_out = [replace(missed[i], looked_for="") for i in sorted(named)]
        missed = [d for i, d in enumerate(missed) if i not in named]
    if missed:
        backs = [d for d in missed if d.looked_for != LOOKED_GAP]
        in_gaps = [d for d in missed if d.looked_for == LOOKED_GAP]
        # the tiles read in gaps are kept only where with them the tiles make a request: all, else one alone (the
        # surest first: a gap by a tile of the player's gap is looked at twice, touching either neighbour)
        alone = [[d] for d in sorted(in_gaps, key=lambda d: -d.confidence)] if len(in_gaps) > 1 else []
        layout, groups, put = _with_a_request(dets + backs, [((), tried) for tried in ([in_gaps, *alone] if in_gaps
                                                                                          else [])])
        no_request = not put and _no_request(groups)
    if hand and no_request and judged_dets:
        layout, groups = _put_back([d for r in layout.rows for d in r], judged_dets, refused)
        no_request = not any(d.looked_for for d in judged_dets)
    if hand and no_request:
        layout, groups = _split_wide(image_bgr, layout, groups, low, unsplit)
        no_request = not any(d.looked_for == LOOKED_SPLIT for r in layout.rows for d in r)
    if hand and no_request:
        layout, groups = _join_narrow(image_bgr, layout, groups, low, unjoined, to_photo)
        no_request = not any(d.looked_for == LOOKED_JOINED for r in layout.rows for d in r)
    if hand and no_request and unread_gaps:
        layout, groups = _named_in_gap(layout, groups, unread_gaps)
    if dropped is not None:  # the boxes taken for no tile, as read (the answer's "not_tiles")
        dropped.extend([d for d in judged_dets if not d.looked_for] + missed_out)
    return [d for r in layout.rows for d in r], groups, back


def _named_in_gap(layout: Layout, groups: list, gaps: list[Det]) -> tuple[Layout, list]:
    """Where the tiles still make no request: the rows and groups with a tile put in one of ``gaps`` (places of one
    tile's width in a row where :func:`_missed_tiles` read no tile: a back, a blank or nothing sure, as under a
    finger) where of every such place read as every kind only that place wins (two places of one gap, looked at
    touching either neighbour, count once): read as the one kind with which the hand wins there (marked
    ``looked_for`` LOOKED_NAMED, its ``confidence`` the classifiers' for that kind), or where several kinds win
    there (the hidden tile of a two-sided wait), as the classifiers read it (LOOKED_OFFERED: :func:`named_by_shape`
    offers those kinds); else those of the tiles as they are. Not a place a tile's centre lies in (a box put back, a
    wide box read as two) or whose centre lies in a tile. (With four melds called, a tile named in a gap completes
    one of them: the concealed part, the winning tile and its mate, has no room for a third.)"""
    tiles = [d for r in layout.rows for d in r]
    stacked = [d.stacked for d in tiles]
    winning = []
    for gap in gaps:
        if any(_centre_in(gap.box, d.box) or _centre_in(d.box, gap.box) for d in tiles):
            continue
        trial = assign_groups(group_rows(tiles + [gap]))
        winning += [(gap, kind) for kind in kinds_that_win(trial, gap, could_win(trial))]
        for t, was in zip(tiles, stacked, strict=True):  # group_rows may have marked a kan's top (_with_a_request)
            t.stacked = was
    gap = winning[0][0] if winning else None
    if gap is None or any(not (_centre_in(g.box, gap.box) or _centre_in(gap.box, g.box)) for g, _ in winning):
        return layout, groups
    kinds = {kind for _, kind in winning}
    if len(kinds) == 1:
        gap.tile, gap.confidence = winning[0][1], min(gap.confidence, dict(gap.alternatives).get(winning[0][1], 0.0))
        gap.looked_for = LOOKED_NAMED
    else:
        gap.looked_for = LOOKED_OFFERED
    layout = group_rows(tiles + [gap])
    return layout, assign_groups(layout)


def _with_a_request(tiles: list[Det], trials: Iterable[tuple[tuple[Det, ...], list[Det]]],
                    ) -> tuple[Layout, list, list[Det]]:
    """The rows and groups of ``tiles`` changed by the first of ``trials`` with which they make a request, and the
    tiles that trial put in (each trial: the tiles it takes out, maybe none, and the tiles it puts in); where none
    does, of ``tiles`` as they are, and []: the tiles read in gaps, a box put back, a wide box read as two, two narrow
    ones read as one (:func:`_read`).
    group_rows marks an added kan's top stacked and never unmarks one: the marks are set back after each trial in
    vain."""
    stacked = [d.stacked for d in tiles]
    for out, into in trials:
        layout = group_rows([d for d in tiles if not any(d is o for o in out)] + into)
        groups = assign_groups(layout)
        if not _no_request(groups):
            return layout, groups, into
        for t, was in zip(tiles, stacked, strict=True):
            t.stacked = was
    layout = group_rows(tiles)
    return layout, assign_groups(layout), []


def _put_back(tiles: list[Det], judged: list[Det], refused: set[int] | frozenset[int] = frozenset(),
              ) -> tuple[Layout, list]:
    """The rows and groups of ``tiles`` with one box the verifier took for no tile put back (marked ``looked_for``
    LOOKED_JUDGED, to be checked), where ``tiles`` make no request and only with it do they make one: the surest read
    first, none that lies on a tile or that the player said is no tile (``refused``: indices of ``judged``); where no
    box does, those of ``tiles`` alone (:func:`_with_a_request`). A winning tile set apart is read on its own, and
    the verifier can take a tile alone, far from the others and seen from low, for a point stick's piece
    (models/TRAINING-LOG.md, "A tile taken for no tile, put back where the hand needs it")."""
    every = [d.box for d in tiles]
    trials = (((), [judged[i]]) for i in sorted(range(len(judged)), key=lambda i: -judged[i].confidence)
              if i not in refused and not any(_centre_in(judged[i].box, b) or _centre_in(b, judged[i].box) for b in every))
    layout, groups, put = _with_a_request(tiles, trials)
    for d in put:
        d.looked_for = LOOKED_JUDGED
    return layout, groups


def _wide_halves(groups: list, width: int) -> list[tuple[Det, list[tuple[float, float, float, float]]]]:
    """The hand row's boxes wide enough to hold two touching tiles (layout.wide_boxes), widest first, each with the
    boxes of the two it may hold: half a pitch either side of its centre, the row's typical width and its own height
    (those within the picture's ``width``). The hand row is the last that layout.nearest_rows keeps: the only one a
    request counts."""
    wide = []
    for d, typical, pitch in wide_boxes(_hand_row(groups)):
        x1, y1, x2, y2 = d.box
        halves = [(c - typical / 2, y1, c + typical / 2, y2) for c in ((x1 + x2 - pitch) / 2, (x1 + x2 + pitch) / 2)]
        if halves[0][0] >= 0 and halves[1][2] <= width:
            wide.append((d, halves))
    return wide


def _split_wide(image_bgr: np.ndarray, layout: Layout, groups: list, low: bool = False,
                unsplit: Iterable[int] = ()) -> tuple[Layout, list]:
    """Where the tiles make no request: a box of the hand row wide enough to hold two touching tiles
    (:func:`_wide_halves`; not one whose ``id`` is in ``unsplit``, where the player said a tile read in it is none)
    read as two, both marked ``looked_for`` LOOKED_SPLIT, where both halves read as faces GAP_TILE_MIN surely, one of
    them as the box was (a box on two tiles sees mostly one of them; a half of one tile's face reads as some other
    tile, a 2s often), the verifier takes both for tiles, and only so do the tiles make a request, the widest box
    first; else the rows as they were (:func:`_with_a_request`). Every half is read at once, by the classifiers alone
    (no second reads of doubtful crops: most halves are tried in vain), and the verifier asked only about the pairs
    read as faces (models/TRAINING-LOG.md, "Two tiles in one box read as two")."""
    wide = [(d, halves) for d, halves in _wide_halves(groups, image_bgr.shape[1]) if id(d) not in unsplit]
    if not wide:
        return layout, groups
    names = classes()
    probs = _first_reads(image_bgr, [b for _, halves in wide for b in halves], low)
    faces = [k for k, (d, _) in enumerate(wide) if all(_a_face(p, names) for p in probs[2 * k:2 * k + 2])
             and d.tile in (names[int(p.argmax())] for p in probs[2 * k:2 * k + 2])]
    odds = _tile_odds(image_bgr, [(b, False, 1.0) for k in faces for b in wide[k][1]])
    trials = []
    for j, k in enumerate(faces):
        if min(odds[2 * j:2 * j + 2]) >= VERIFY_MIN:
            d, halves = wide[k]
            trials.append(((d,), [Det(box=b, sideways=False, looked_for=LOOKED_SPLIT) for b in halves]))
            for t, p in zip(trials[-1][1], probs[2 * k:2 * k + 2], strict=True):
                _name_reading(t, p, 1.0, names)
    return _with_a_request([d for r in layout.rows for d in r], trials)[:2]


def _first_reads(image_bgr: np.ndarray, boxes: list, low: bool = False) -> np.ndarray:
    """The classifiers' first reading of upright crops of ``boxes`` (:func:`_probabilities`: no second reads of
    doubtful crops, as most such boxes, tried where no tile was found, are tried in vain)."""
    return _probabilities(crops_to_batch([crop_tile(image_bgr, box, False) for box in boxes]), low)


def _a_face(p: np.ndarray, names: list[str]) -> bool:
    """Whether class probabilities ``p`` read a face (no back) GAP_TILE_MIN surely: a tile the localisers missed, or a
    box read anew, is taken only so."""
    return names[int(p.argmax())] != "x" and p.max() >= GAP_TILE_MIN


def _hand_row(groups: list) -> list:
    """The hand row's groups, as a list of one row (none without rows): the last row layout.nearest_rows keeps, the
    only one a request counts."""
    return (nearest_rows(groups)[0] if groups else [])[-1:]


def _joins_on_photo(found: list, to_photo: Callable | None) -> list[tuple[float, ...]]:
    """The boxes (on the photo as taken, by ``to_photo``) around the pairs of narrow boxes among ``found`` (box,
    sideways, score) that :func:`_join_narrow` may read as one tile: where a joined tile of an answer lay."""
    layout = group_rows([Det(box=b, sideways=s) for b, s, _ in found])
    return [to_photo(box) if to_photo else box for _, _, box in narrow_pairs(_hand_row(assign_groups(layout)))]


def _join_narrow(image_bgr: np.ndarray, layout: Layout, groups: list, low: bool = False,
                 unjoined: Iterable[list | tuple] = (), to_photo: Callable | None = None) -> tuple[Layout, list]:
    """Where the tiles make no request: two narrow boxes side by side in the hand row (layout.narrow_pairs) read as
    one tile in the box around both, marked ``looked_for`` LOOKED_JOINED, where that box reads as a face
    GAP_TILE_MIN surely and the verifier takes it for a tile, and only so do the tiles make a request: every such
    pair at once (the surest first where two share a box), else each alone, the surest first; else the rows as they
    were (:func:`_with_a_request`). The localisers can find a tile whose face shows two columns far apart (a 4s) as
    two boxes, each read as some other tile (a 2s), and the row then holds a tile too many. Every joined box is read
    at once, by the classifiers alone, as :func:`_split_wide` reads its halves (models/TRAINING-LOG.md, "One tile in
    two boxes read as one"). Not a pair whose box, mapped ``to_photo``, is JOIN_NAMED like one of ``unjoined`` (the
    player's "Not a tile" on a joined tile, :func:`_joins_on_photo`): two tiles found side by side can be joined
    wrongly, and that tap undoes it."""
    refused = list(unjoined)
    pairs = [(a, b, box) for a, b, box in narrow_pairs(_hand_row(groups))
             if not any(_iou(to_photo(box) if to_photo else box, u) >= JOIN_NAMED for u in refused)]
    if not pairs:
        return layout, groups
    names = classes()
    probs = _first_reads(image_bgr, [box for _, _, box in pairs], low)
    faces = [k for k, p in enumerate(probs) if _a_face(p, names)]
    odds = _tile_odds(image_bgr, [(pairs[k][2], False, 1.0) for k in faces])
    joined = []
    for k, q in zip(faces, odds, strict=True):
        if q >= VERIFY_MIN:
            a, b, box = pairs[k]
            joined.append(((a, b), Det(box=box, sideways=False, looked_for=LOOKED_JOINED)))
            _name_reading(joined[-1][1], probs[k], 1.0, names)
    joined.sort(key=lambda j: -j[1].confidence)
    apart: list[tuple[tuple[Det, Det], Det]] = []
    for pieces, d in joined:  # no box in two pairs: a run of three narrow boxes makes two pairs sharing the middle
        if not any(p is q for p in pieces for other, _ in apart for q in other):
            apart.append((pieces, d))
    every = [(tuple(p for pieces, _ in apart for p in pieces), [d for _, d in apart])] if len(apart) > 1 else []
    return _with_a_request([d for r in layout.rows for d in r], every + [(pieces, [d]) for pieces, d in apart])[:2]


def _no_request(groups: list) -> bool:
    """Whether the tiles as grouped make no request (build_request, on copies: it may read backs into them)."""
    return build_request([[[replace(d) for d in g] for g in row] for row in groups])[0] is None


def _name_reading(d: Det, p: np.ndarray, score: float, names: list[str]) -> None:
    """``d`` read as the classifiers' probabilities ``p`` (over the classes ``names``) say, its localiser's peak
    ``score``."""
    best = np.argsort(-p)[:ALTERNATIVES]
    d.tile = names[int(best[0])]
    d.confidence = _confidence(float(p[best[0]]), score)
    d.alternatives = tuple((names[int(j)], float(p[j])) for j in best)


def _missed_kan_backs(groups: list) -> list[tuple[float, float, float, float]]:
    """Where the backs of closed kans the localisers did not find should lie. A closed kan lies as back, face,
    face, back; a group of three read as a back and two faces of one kind (layout.kan_short_of_a_back) is looked
    at one step (its two faces' distance) past its faces' end, in a box of its back's size. On the evaluation
    photos the back at a closed kan's far end was the one tile missed in 12 hands of 8,720 (models/TRAINING-LOG.md,
    "A closed kan's missed back")."""
    looked = []
    for back, near, far in filter(None, map(kan_short_of_a_back, (g for row in groups for g in row))):
        cx, cy = 2 * far.cx - near.cx, 2 * far.cy - near.cy  # one step past the far face
        bw, bh = back.box[2] - back.box[0], back.box[3] - back.box[1]
        looked.append((cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2))
    return looked


def _missed_in_gaps(groups: list) -> list[tuple[float, float, float, float]]:
    """Where a tile missed between two upright neighbours of a row should lie, in a box of their mean size, where
    they have room for one tile between them (layout.one_tile_gaps): midway between them up to MIDWAY_MAX pitches
    apart; further apart touching either (one pitch from it towards the other: the player's gap on its other
    side), and from LONE_MIN on midway too (a lone tile, the winning one set apart, with gaps on both sides)."""
    looked = []
    for a, b, pitch in one_tile_gaps(groups):
        w = (a.box[2] - a.box[0] + b.box[2] - b.box[0]) / 4
        h = (a.box[3] - a.box[1] + b.box[3] - b.box[1]) / 4
        along = np.array([b.cx - a.cx, b.cy - a.cy])
        step = along / np.linalg.norm(along) * pitch  # one pitch along the row, from a towards b
        centres = []
        if b.cx - a.cx <= MIDWAY_MAX * pitch or b.cx - a.cx >= LONE_MIN * pitch:
            centres.append(np.array([a.cx, a.cy]) + along / 2)
        if b.cx - a.cx > MIDWAY_MAX * pitch:
            centres += [np.array([a.cx, a.cy]) + step, np.array([b.cx, b.cy]) - step]
        looked += [(float(x - w), float(y - h), float(x + w), float(y + h)) for x, y in centres]
    return looked


def _missed_tiles(image_bgr: np.ndarray, groups: list, low: bool = False, judged: Iterable = (),
                  no_request: bool | None = None, unread: list[Det] | None = None) -> list[Det]:
    """Tiles the localisers did not find where the layout says one lies, each added marked ``looked_for`` so that
    the answer lists it for a check and says why:

    - a closed kan's back (:func:`_missed_kan_backs`), where no tile was found (IoU below 0.2), read as a back
      KAN_BACK_MIN surely; without it the group stays "a face-down tile outside a closed kan", no request;
    - a tile in a gap of one tile's width within a row (:func:`_missed_in_gaps`), only where the tiles make no
      request, where no tile's centre lies in its box nor its centre in a tile's box (nor in a box ``judged``, taken
      for no tile already), read as a face GAP_TILE_MIN surely: no back, and a white dragon only GAP_BLANK_SURE
      surely with the verifier as sure of a tile. :func:`_read` keeps these only where with them the tiles make a
      request.

    Each inside the picture and taken for a tile by the verifier (VERIFY_MIN). Most gaps of one tile are the
    player's, the winning tile set apart: the classifiers read an empty gap as a back or a blank white dragon
    (models/TRAINING-LOG.md, "A tile missed in a gap"). ``no_request``: whether the tiles make no request, where
    the caller knows it already (None: asked here). ``unread`` (where given) gets the places in gaps read as no tile,
    each as read, for :func:`_named_in_gap`."""
    height, width = image_bgr.shape[:2]
    every = [d.box for row in groups for g in row for d in g] + list(judged)
    looked = [(box, LOOKED_KAN_BACK) for box in _missed_kan_backs(groups) if all(_iou(box, b) < 0.2 for b in every)]
    # where the tiles make a request no tile was missed: its gaps are the player's. Asked first, as it is the
    # cheaper question (0.09 ms against the gaps' 0.31, and most photos make one)
    gaps = _missed_in_gaps(groups) if (_no_request(groups) if no_request is None else no_request) else []
    gaps = [box for box in gaps if not any(_centre_in(box, b) or _centre_in(b, box) for b in every)]
    looked = [(box, kind) for box, kind in looked + [(box, LOOKED_GAP) for box in gaps]
              if box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height]
    if not looked:
        return []
    boxes = [box for box, _ in looked]
    probs = class_probabilities(image_bgr, [(b, False) for b in boxes], low=low)
    odds = _tile_odds(image_bgr, [(b, False, 1.0) for b in boxes])
    names, added = classes(), []
    for (box, kind), p, q in zip(looked, probs, odds, strict=True):
        read = names[int(p.argmax())]
        back = read == "x" and p.max() >= KAN_BACK_MIN
        face = _a_face(p, names) and (read != "5z" or min(p.max(), q) >= GAP_BLANK_SURE)
        if q >= VERIFY_MIN and (back if kind == LOOKED_KAN_BACK else face):
            d = Det(box=box, sideways=False, looked_for=kind)
            _name_reading(d, p, 1.0, names)
            added.append(d)
        elif kind == LOOKED_GAP and unread is not None:
            d = Det(box=box, sideways=False)
            _name_reading(d, p, 1.0, names)
            unread.append(d)
    return added


def _centre_in(box: tuple | list, other: tuple | list) -> bool:
    """Whether the centre of ``box`` lies inside ``other``."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return other[0] <= cx <= other[2] and other[1] <= cy <= other[3]


def _box_ahead(box: list | tuple, found: list, to_photo: Callable | None) -> tuple[float, float, float, float]:
    """A box on the photo as taken (the player's, where no tile was found) as a box on the picture read: around
    its centre carried over by the inverse of ``to_photo`` (an affine map: probed at the first tile found), as
    large as the upright tiles found there are (their median), or as the box itself where none is."""
    x1, y1, x2, y2 = (float(v) for v in box)
    upright = [b for b, s, _ in found if not s]
    w, h = ((float(np.median([b[2] - b[0] for b in upright])), float(np.median([b[3] - b[1] for b in upright])))
            if upright else (x2 - x1, y2 - y1))
    centre = np.array([(x1 + x2) / 2, (y1 + y2) / 2])
    if to_photo is not None and found:
        b = found[0][0]
        p0 = np.array([(b[0] + b[2]) / 2, (b[1] + b[3]) / 2])

        def onto(p: np.ndarray) -> np.ndarray:
            return np.array(to_photo((p[0], p[1], p[0], p[1]))[:2])

        q0 = onto(p0)
        linear = np.column_stack([onto(p0 + (4.0, 0.0)) - q0, onto(p0 + (0.0, 4.0)) - q0]) / 4.0
        centre = p0 + np.linalg.solve(linear, centre - q0)
    cx, cy = float(centre[0]), float(centre[1])
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def tile_width(dets: list[Det]) -> float:
    """How wide the tiles lie in the photo: the median width in pixels of the upright tiles' boxes (those of rows
    the request leaves out, further off, not counted; 0 for none). Box widths are read across the row, which the
    pipeline's straightening turns level without scaling."""
    widths = [d.box[2] - d.box[0] for d in dets if not d.sideways and d.part != "left out"]
    return float(np.median(widths)) if widths else 0.0


def _named(found: list, among: list[int], boxes: list, back: Callable | None, what: str) -> set[int]:
    """The indices of the boxes in ``found`` (those listed in ``among``) that the player's ``boxes`` name: for each
    of them (on the photo as taken, as an answer gives them), the box that, mapped ``back``, overlaps it most, by at
    least half. A box that matches none is an error: the player's photo is not this one, or it was read another
    way round."""
    on_photo = _on_photo(found, among, back)
    out: set[int] = set()
    for box in boxes:
        best = _overlapping(on_photo, box)
        if best is None:
            raise InvalidRequestError(f"no {what} lies at {list(box)} in this photo: send the photo and the "
                                      "\"turned\" of the answer the box came from")
        out.add(best)
    return out


def _on_photo(found: list, among: Iterable[int], back: Callable | None) -> dict[int, tuple]:
    """The boxes of ``found`` listed in ``among``, by index, mapped ``back`` onto the photo as taken."""
    return {i: back(found[i][0]) if back else found[i][0] for i in among}


def _overlapping(on_photo: dict[int, tuple], box: list | tuple) -> int | None:
    """Of the boxes ``on_photo`` (index -> box), the one that overlaps ``box`` most, if by at least half (IoU)."""
    best = max(on_photo, key=lambda i: _iou(on_photo[i], box), default=None)
    return best if best is not None and _iou(on_photo[best], box) >= 0.5 else None


def _unsure(d: Det) -> bool:
    """Listed for a check: put back by the player, looked for where no tile was found (a closed kan's back, a
    tile in a gap: :func:`_missed_tiles`), put back, read as two from one wide box or as one from two narrow ones
    where the hand needs it (:func:`_put_back`, :func:`_split_wide`, :func:`_join_narrow`), and not yet corrected,
    read with less than CONFIDENCE_MIN (but see :func:`vouched_by_shape`), or a tile its twin may be
    (:func:`twin_doubt`)."""
    if d.confidence < CONFIDENCE_MIN or ((d.restored or d.looked_for) and not d.checked):
        return True
    return twin_doubt(d)


def _face_boxes(tiles: list[dict]) -> list[list]:
    """The boxes of an answer's face-up tiles (on the photo)."""
    return [t["box"] for t in tiles if t["tile"] != "x"]


def _a_five(d: Det) -> bool:
    """A five of a suit, red or plain, read so and not set by the player."""
    return d.tile[0] in "05" and d.tile[1] in "mps" and not d.checked


def _tile_dicts(ordered: list[Det], back: Callable | None = None) -> list[dict]:
    """The answer's tiles. "alternatives": the classifiers' next likeliest readings of the tile, likeliest first
    (none for a tile the player set): the page offers them first when the tile is tapped, and the truth of a
    misread tile is among them about two times in three (models/TRAINING-LOG.md, "The next likeliest readings
    offered first")."""
    return [{"tile": d.tile, "box": [int(round(v)) for v in (back(d.box) if back else d.box)],
             "confidence": round(d.confidence, 3), "sideways": d.sideways, "group": d.group,
             "alternatives": [code for code, _ in d.alternatives if code != d.tile]} for d in ordered]


_TURNS = ((180.0, 180), (-90.0, 90), (90.0, 270))  # a photo turned to be read: straighten's angle, degrees clockwise
TURN_DEGREES = tuple(sorted((0, *(degrees for _, degrees in _TURNS))))  # an answer's "turned" (0: as taken)


def _then(first: Callable | None, second: Callable) -> Callable:
    """One box map after the other (``first`` may be None)."""
    return second if first is None else lambda box: second(first(box))


def _turns_to_try(ordered: list[Det], groups: list | None = None, image_bgr: np.ndarray | None = None,
                  back: Callable | None = None) -> tuple:
    """Turned by 90 degrees, a hand's row stands on end, and no row of the photo holds more than a few tiles
    (one of each row of the hand): a row of LONG_ROW tiles or more means the photo is upright or upside down,
    so only the turn by 180 degrees is tried; and not even that where no row has a gap that, turned, could set
    a winning tile apart (:func:`_no_gap_either_way`). Without such a row the photo is likelier on its side than
    upside down (turned by 180 degrees it still has no long row), so the turns by 90 and 270 degrees come first,
    in the order :func:`_side_turns` finds for the tiles of ``ordered`` (boxes on ``image_bgr`` by ``back``)."""
    longest = max(Counter(d.row for d in ordered).values(), default=0)
    if longest < LONG_ROW:
        return (*_side_turns(image_bgr, ordered, back), _TURNS[0])
    return () if groups is not None and _no_gap_either_way(groups) else _TURNS[:1]


def _side_turns(image_bgr: np.ndarray | None, ordered: list[Det], back: Callable | None = None) -> tuple:
    """The turns by 90 and 270 degrees (as in _TURNS), the likelier first. On its side a photo shows its tiles
    lying sideways; each cut out and turned upright as crop_tile turns a sideways tile (counter-clockwise) stands
    the right way up where the photo was taken from the right-hand seat (to be turned by 270 degrees clockwise)
    and upside down where from the left-hand seat (90). The orienter's vote on those crops (as in
    :func:`orientation`) says which; 90 first where it says nothing (no orienter or picture, a vote of 0). Of the
    held-out won hands of seed 98 on their side it put the right turn first for 189 of the 191 taken from the right
    and 193 of the 194 from the left that were tried turned (models/TRAINING-LOG.md, "Photos on their side")."""
    sides = (_TURNS[1], _TURNS[2])
    if image_bgr is None or not ordered:
        return sides
    lying = [(back(d.box) if back else d.box, True, d.confidence) for d in ordered]  # on the photo, cut sideways
    vote = _orienter_vote(lambda: _crops_of(image_bgr, lying))
    return sides[::-1] if vote > 0 else sides


def _no_gap_either_way(groups_by_row: list) -> bool:
    """Every row one group of touching tiles, none with its first tile set apart as layout.win_tile_apart
    would see it turned by 180 degrees, and one row of a whole hand (HAND_TILES or more). Turned, the rows keep
    their gaps, so no winning tile set apart, and no request, can come of reading the photo again: a hand laid
    down as one block, the commonest photo that gives no request, then costs one read instead of two. With
    fewer tiles a tile may have been missed, and the photo turned is looked at again (two of the won-hands
    photos turned upside down lost a tile as taken and are read turned)."""
    longest = 0
    for row in groups_by_row:
        if len(row) > 1:
            return False
        tiles = [d for d in row[0] if not d.stacked] if row else []
        turned = [Det(box=(-d.box[2], d.box[1], -d.box[0], d.box[3]), sideways=d.sideways) for d in reversed(tiles)]
        if len(turned) >= 3 and win_tile_apart(turned):
            return False
        longest = max(longest, len(tiles))
    return longest >= HAND_TILES


def _mean_sureness(dets: list[Det]) -> float:
    """The tiles' mean confidence (0 without tiles): of two readings of one photo, the surer one reads higher."""
    return float(np.mean([d.confidence for d in dets])) if dets else 0.0


@dataclass
class Reading:
    """One read of a photo: tiles in reading order, their groups per row, the request (or None and the reason),
    the tiles read again to make it (:func:`complete_hand`, :func:`mend_melds`), and the way back for the
    boxes onto the photo as taken (see :func:`_read`)."""

    ordered: list[Det]
    groups: list
    request: dict | None
    reason: str
    changed: list[Det]
    back: Callable | None
    dropped: list[Det] = field(default_factory=list)  # boxes the verifier took for no tile (verified)
    named: list[Det] = field(default_factory=list)  # tiles no net could read, read as the hand's shape names them
    offered: list[tuple[Det, list[str]]] = field(default_factory=list)  # one such tile and the kinds that win

    def sureness(self) -> tuple[int, float]:
        """How good a reading this is, to choose between two of one photo: a request first (one that needs boxes
        mended after one that does not, :meth:`patched`; one from a tile put in a gap as read, where several kinds
        would win there, after both), then the tiles' mean confidence."""
        if self.request is None:
            return 0, _mean_sureness(self.ordered)
        if any(d.looked_for == LOOKED_OFFERED for d in self.ordered):
            return 1, _mean_sureness(self.ordered)
        return (2 if self.patched() else 3), _mean_sureness(self.ordered)

    def patched(self) -> bool:
        """Whether the request needed a box the verifier took for no tile put back (:func:`_put_back`), a wide box
        read as two tiles (:func:`_split_wide`), two narrow ones read as one (:func:`_join_narrow`) or a tile the
        hand's shape names or offers put in a gap (:func:`_named_in_gap`): such a reading is not kept before the other
        localisers and the turned photo have been read."""
        return any(d.looked_for in (LOOKED_JUDGED, LOOKED_SPLIT, LOOKED_JOINED, LOOKED_NAMED, LOOKED_OFFERED)
                   for d in self.ordered)

    def wins(self) -> bool:
        """Whether the request's tiles make a winning hand (:func:`request_wins`)."""
        return self.request is not None and bool(request_wins(self.request))

    def name_by_shape(self) -> None:
        """A winning hand but for a tile no net could read, and no tile read again to make one: that tile read as
        the one kind the hand's shape names, or offered the kinds that win (:func:`named_by_shape`)."""
        if not self.changed:
            self.named, self.offered = named_by_shape(self.groups, self.request)
            if self.named:
                self.request, self.reason = build_request(self.groups)

    def mend_melds(self) -> None:
        """No request: the melds mended if a likely reading makes them melds (:func:`mend_melds`)."""
        if self.request is None:
            self.changed = mend_melds(self.groups)
            if self.changed:
                self.request, self.reason = build_request(self.groups)


def _read_hand(image_bgr: np.ndarray, max_rows: int | None = None, fixes: dict[int, str] | None = None,
               outer: Callable | None = None, win: int | None = None, taps: Taps = NO_TAPS,
               nets: list[str] | None = None, first: Look | None = None) -> Reading:
    """The photo read, the request built and, where the tiles make no winning hand, completed
    (:func:`complete_hand`). ``fixes`` (tile index in reading order -> class) are the player's corrections,
    applied before the request is built and kept as they are, ``win`` the index of the tile the player says is
    the winning tile; ``outer``, ``taps``, ``nets`` and ``first`` as for :func:`_read`."""
    dropped: list[Det] = []
    ordered, groups, back = _read(image_bgr, max_rows, dropped, outer, taps, nets, first)
    named = [("a correction for", i) for i in fixes or ()] + [("the winning tile is", win)] * (win is not None)
    for what, i in named:
        if i >= len(ordered):
            raise InvalidRequestError(f"{what} tile {i} (counted from 0), but {len(ordered)} tiles were found in "
                                      "this photo: send the photo the corrections were made on")
    for i, tile in (fixes or {}).items():
        _set_by_player(ordered[i], tile)
    if win is not None:
        ordered[win].won = True
    request, reason = build_request(groups)
    changed = complete_hand(groups, request)
    if changed:
        request, reason = build_request(groups)
    return Reading(ordered, groups, request, reason, changed, back, dropped)


def _low_or_usual(image_bgr: np.ndarray, turns: bool = False) -> tuple[Reading, list[str] | None, int | None]:
    """The reading of the photo to go on with, the localisers that made it (None: the usual ones), and the degrees
    (clockwise) it was turned by to be read (None: as taken). The usual localisers' first look at the photo decides
    which pair reads first (:func:`_read_with_pairs`), and the usual read goes on from it.

    With ``turns``, a first reading that gives no request is tried turned (:func:`_turned_reading`: a photo taken
    from another seat) before the other pair reads the photo as taken, and so is the other pair's reading where it
    is kept without a request. The upright tiles of the first look say which way up the photo stands
    (:func:`orientation`): one they say is upside down (UPSIDE_DOWN_TO) is read turned by 180 degrees first, as
    :func:`_read_with_pairs` reads a photo, and as taken only where that gives no winning hand, the surer of the
    two readings kept then unless the one as taken (or turned by 90 or 270 degrees) makes a winning hand
    (:meth:`Reading.sureness`: a request before none; so a photo from across the table
    with a tile misread is shown turned, its tiles in the winner's order, for the player to correct); one they say
    is the right way up (UPRIGHT_FROM) is not tried turned."""
    first = _first_look(image_bgr)
    low = low_localisers()
    way = _upside_down(image_bgr, first) if turns else None
    tried: tuple = ()
    upside_down = None  # the photo's reading turned by 180 degrees, where its tiles say it stands upside down
    if way:
        tried = _TURNS[:1]
        view, turn_back = _turned_view(image_bgr, tried[0][0])
        read = partial(_read_hand, view, max_rows=TURNED_MAX_ROWS, outer=turn_back)
        reading, nets, _ = _read_with_pairs(_first_look(view), low, read)
        reading.back = _then(reading.back, turn_back)
        upside_down = reading, nets, tried[0][1]
        if reading.wins():
            return upside_down
    elif way is False:
        tried = _TURNS

    def turned(reading: Reading, nets: list[str] | None) -> tuple[Reading, int] | None:
        return _turned_reading(image_bgr, reading, nets, tried) if turns and (reading.request is None or
                                                                              reading.patched()) else None

    as_taken = _read_with_pairs(first, low, partial(_read_hand, image_bgr), turned)
    if upside_down is not None and upside_down[0].ordered and not as_taken[0].wins() \
            and upside_down[0].sureness() > as_taken[0].sureness():
        return upside_down  # no winning hand either way round: its tiles in the order the winner sees them
    return as_taken


def _read_with_pairs(first: Look, low: list[str], read: Callable[..., Reading],
                     turned: Callable[[Reading, list[str] | None], tuple[Reading, int] | None] | None = None,
                     ) -> tuple[Reading, list[str] | None, int | None]:
    """The reading to go on with of the picture the usual localisers' ``first`` look is of, the localisers that
    made it (None: the usual ones) and the degrees ``turned`` turned it by (None: as read). ``read`` reads the
    picture with ``nets`` and/or ``first`` (:func:`_read_hand`); ``low``: the low-angle pair (:func:`low_localisers`;
    empty where not shipped: the usual pair reads it, and ``turned`` is tried where that gives no request). With it:

    - where the first look finds the upright tiles flatter than STRETCH_BELOW (height / width; about 1.3 seen
      from above), the pair reads the photo first, and that reading is kept where it gives a request and reads its
      tiles LOW_FIRST_SURE surely on average;
    - else the usual pair reads it first, and that reading is kept where it gives a request and reads its tiles
      CONFIDENCE_MIN surely;
    - else ``turned`` (a reading of the picture turned, or None) is asked for the first reading where it gives no
      request, then the other pair reads it too, and the surer reading is kept (:meth:`Reading.sureness`), or what
      ``turned`` makes of it where it gives no request; a request that needs boxes mended (:meth:`Reading.patched`:
      one taken for no tile put back, a wide one read as two) counts as none here, and below one without;
    - but not where the first reading's upright tiles are narrower than SMALL_TILE (:func:`tile_width`; a reading
      without any, 0 wide, is read by the other pair as before): the answer asks for the photo again from closer,
      and the other pair adds little there (the far sets, seeds 97 and 197: 165 of their 400 requests without it
      against 167, 79.9% of the tiles against 80.7%, in 0.7 of the time; models/TRAINING-LOG.md, "Tiles too small
      for a second pair");
    - nor where the pair read a flat photo first and its reading gives no request, reads its tiles less than
      LOW_ALONE_BELOW surely on average and holds all the tiles but one that the usual pair's ``first`` look found
      (where that found more, it may read them): on 50 evaluation sets the usual pair, reading such a photo
      stretched (:func:`_read`), read the right request for none of them, and took 7% of the four low-angle sets'
      time (TRAINING-LOG, "A flat photo the low-angle pair reads doubtfully").

    Until session 38 only flat-looking photos (below 0.85) were read with the pair at all; with the classifiers'
    low-angle twins its reading of a doubtful photo of any angle is the surer one often enough to read 94 more
    requests over the 50 evaluation sets (models/TRAINING-LOG.md, "The low-angle pair for every doubtful photo").
    Reading flat ones with the pair first (session 39) reads the same requests but for 3 more, in a fifth less
    time on the low-angle sets (TRAINING-LOG, "The low-angle pair first for flat photos")."""
    flat = bool(low) and _upright_aspect(first.found) < STRETCH_BELOW
    nets = low if flat else None
    reading = read(nets=low, first=first.by(low)) if flat else read(first=first)
    sure_at = LOW_FIRST_SURE if flat else CONFIDENCE_MIN
    if reading.request is not None and not reading.patched() and (not low or reading.sureness()[1] >= sure_at):
        return reading, nets, None
    again = turned(reading, nets) if turned else None
    if again is not None:
        return again[0], nets, again[1]
    if not low or 0 < tile_width(reading.ordered) < SMALL_TILE:  # (no upright tile read: width 0, the pair tries)
        return reading, nets, None
    if flat and reading.request is None and reading.sureness()[1] < LOW_ALONE_BELOW \
            and len(reading.ordered) >= len(first.found) - 1:
        return reading, nets, None
    other_nets = None if flat else low
    other = read(first=first) if flat else read(nets=low, first=first.by(low))
    if other.sureness() <= reading.sureness():
        return reading, nets, None  # (tried turned already)
    again = turned(other, other_nets) if turned else None
    if again is not None:
        return again[0], other_nets, again[1]
    return other, other_nets, None


def _turned_reading(image_bgr: np.ndarray, reading: Reading, nets: list[str] | None,
                    skip: tuple = ()) -> tuple[Reading, int] | None:
    """For ``reading``, of the photo as taken with the localisers ``nets``, that gives no request (or one only with
    boxes mended, :meth:`Reading.patched`): the photo read
    turned by 180, 90 and 270 degrees (as :func:`_turns_to_try` allows and orders) until a winning hand comes out,
    and the degrees (clockwise); None where none does (or no tile was found). Taken from across the table (or from a
    neighbour's seat), the hand lies upside down (or on its side), its rows and tiles come in another order and no
    hand can be read as taken. The turns in ``skip`` ((straighten's angle, degrees) as in _TURNS) are not tried:
    read already, or the photo's tiles say it stands the right way up (:func:`_low_or_usual`)."""
    if not reading.ordered or set(_TURNS) <= set(skip):  # (all skipped: no orienter run to order them)
        return None
    for angle, degrees in _turns_to_try(reading.ordered, reading.groups, image_bgr, reading.back):
        if (angle, degrees) in skip:
            continue
        again = _read_turned(image_bgr, angle, nets=nets)
        if again.wins():
            return again, degrees
    return None


def _localisers_for(image_bgr: np.ndarray) -> list[str] | None:
    """The localisers :func:`recognize_image` read the photo with at first (None: the usual ones), chosen again as
    it chose them, so that a player's corrections are applied to the same reading. Only for corrections sent
    without the answer's "low_angle" (the page sends it): this reads the photo in full again, as taken and, where
    that gives no request, turned."""
    return _low_or_usual(image_bgr, turns=True)[1]


def _set_by_player(d: Det, tile: str) -> None:
    """The tile as the player corrected it: sure, and read as nothing else."""
    d.tile, d.confidence, d.alternatives, d.checked = tile, 1.0, ((tile, 1.0),), True


def _checked_fixes(fixes: dict, what: str) -> None:
    """Corrections (tile index -> class) as a player sends them, checked: else a clear InvalidRequestError."""
    for i, tile in fixes.items():
        if not isinstance(i, int) or isinstance(i, bool) or i < 0:
            raise InvalidRequestError(f"{what} must map tile indices (0, 1, ...) to tiles; not {i!r}")
        _check_class(tile)


def recognize_image(image_bgr: np.ndarray, dora_image: np.ndarray | None = None, *, turns: bool = True,
                    fixes: dict[int, str] | None = None, turned: int | None = None,
                    restore: list | None = None, drop: list | None = None, win: int | None = None,
                    add: list | None = None, turn: list | None = None,
                    dora_fixes: dict[int, str] | None = None, low_angle: bool | None = None,
                    scale: int = 1, dora_scale: int = 1) -> dict:
    """Tiles in reading order (rows top to bottom, left to right) and the scoring request, or null and a reason.
    "left_out" lists the tiles of rows the request leaves out (the wall, discards, a die below the hand:
    layout.nearest_rows), and "dora_row" the tiles of the row its dora indicators are read from (with no request
    too, where the rows were told apart before the hand was found wanting). "not_tiles" (box, the tile it looked
    most like, confidence) lists what was found and then taken for no tile (:func:`verified`), not in "tiles".
    "overexposed" (the share of a typical face burnt out, :func:`quality.burnt_share`) says the photo is too bright
    to be trusted, "blurred" (how far the ink's edges are smeared, :func:`quality.smear`) that the camera moved,
    "small_tiles" (the tiles' width in pixels, :func:`tile_width`) that it was taken from too far, "flat_tiles"
    (how tall its tiles look for their width, :func:`seen_aspect`, where less than FLAT_VIEW and read with no
    request or FLAT_DOUBTS doubts or more) that it was taken from too low, and "reason" says to take it again.
    "at_edge" (the photo's edges, "left", "right", "top", "bottom") says a tile of the hand lies at one
    (:func:`_edges_touched`): cut off there or one beyond it missing; with no request "reason" says to take it
    again with the whole hand in the picture, else to check that none is missing (a kan read as a pon).

    A photo taken from across the table (upside down) or from a neighbour's seat (on its side) in which no
    hand can be read is read turned by 180, 90 and 270 degrees (clockwise; on its side 90 and 270 first,
    :func:`_turns_to_try`); the first that gives a winning hand
    is the result ("turned": the degrees; boxes on the photo as taken). One whose upright tiles the orienter says
    stand upside down is read turned by 180 degrees first, and shown so ("turned": 180) where that reading is
    surer than the one as taken even without a winning hand; one it says stand the right way up is not tried
    turned (:func:`_low_or_usual`). ``turns=False`` skips those reads
    (the live camera: a frame without a hand would cost four reads; `companion watch` turns the frames of a
    camera whose first frame with tiles :func:`way_up` says is upside down).
    "low_angle" (true) says the photo was read with the localisers trained on photos taken from low
    (LOW_LOCALISERS), chosen as :func:`_low_or_usual` says (its tiles look flat, or the usual ones read it
    doubtfully).

    `dora_image`, a second photo of the dora indicators (e.g. the dead wall; its backs read as faces are taken
    as backs as in a dora row, :func:`layout.dead_wall_backs`), adds every face-up tile on it to the request's
    indicators (after those of a dora row in the first photo); its tiles are returned under
    "dora_photo" with their own "uncertain" list.

    ``fixes`` and ``turned`` read the photo again with the player's corrections: ``fixes`` maps indices of a
    first result's "tiles" to the classes the player chose, ``turned`` is that result's "turned" (None or 0:
    as taken), and the photo is read that way round only, so that the indices mean the same tiles. The
    corrected tiles count as sure and stay as set; the request is built anew from them (a misread meld mended
    by hand becomes a meld again), the winning shape may still mend other tiles. ``restore`` lists boxes of
    that result's "not_tiles" that are tiles after all: they join "tiles", listed as uncertain until corrected
    (``fixes`` then count the tiles of the answer read with the same ``restore``). ``drop`` lists boxes of its
    "tiles" that are no tiles (a piece of a point stick the verifier kept): they move to "not_tiles", and
    ``fixes`` count the tiles of the answer read with the same ``drop``. ``win`` is the index of the tile the
    player says is the winning tile (one of the hand's concealed tiles: a hand laid down as one block sets none
    apart); the answer then gives it as "win". ``add`` lists boxes on the photo as taken where the player says a
    tile lies that was not found: each is read as an upright tile there, listed as uncertain until corrected (as
    with ``restore``, ``fixes`` count the tiles of the answer read with the same ``add``). ``turn`` lists boxes of
    its "tiles" (or of those read where ``add`` says) that lie the other way: a called tile lying sideways that was
    found upright or added, or the reverse; each is read again in its box turned, listed as uncertain until
    corrected, and the rows are found anew with it (``fixes`` count the tiles of the answer read with the same
    ``turn``). ``dora_fixes`` maps indices of that result's "dora_photo" "tiles" to the classes the player chose:
    they count as sure, and the request's indicators are taken from the dora photo as corrected. ``low_angle`` is
    that result's "low_angle" (False where it had none): the photo is read again with the localisers it names,
    which the indices need. Left out (None), they are chosen again as they were at first, reading the photo in
    full again (:func:`_localisers_for`).

    ``scale`` (``dora_scale``): how many of the photo's pixels one pixel of ``image_bgr`` (``dora_image``) spans,
    where it was decoded smaller to be read (:func:`companion.photo_files.decode_to_read`): the boxes sent
    (``restore``, ``drop``, ``add``, ``turn``) and those answered, and "small_tiles", are in the photo's pixels.

    >>> result = recognize_image(cv2.imread("tests/fixtures/vision/hand_closed.jpg"))  # doctest: +SKIP
    >>> result["request"]["hand"]  # doctest: +SKIP
    '123m456p...'
    """
    read_adapted_nets()
    scales = _checked_scales(scale, dora_scale)
    taps = Taps(*(_boxes_read(boxes, scale) or () for boxes in (restore, drop, add, turn)))
    if fixes is not None or turned or taps or win is not None or dora_fixes or low_angle is not None:
        return _read_again(image_bgr, dora_image, fixes or {}, turned or 0, taps, win, dora_fixes or {}, low_angle,
                           scales)
    reading, nets, turn = _low_or_usual(image_bgr, turns=turns)
    # melds mended only now: a photo on its side read as taken could be "mended" into some hand
    reading.mend_melds()
    reading.name_by_shape()
    return _result(reading, turn, nets is not None, dora_image, image_bgr, {}, scales)


def _checked_scales(scale: object, dora_scale: object) -> tuple[int, int]:
    """recognize_image's ``scale`` and ``dora_scale``, each a whole number of the photo's pixels a pixel read."""
    for name, value in (("scale", scale), ("dora_scale", dora_scale)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise InvalidRequestError(f"{name} must be a whole number, 1 or more (the photo's pixels per pixel of "
                                      f"the picture read); not {value!r}")
    return scale, dora_scale


def _boxes_read(boxes: object, scale: int) -> object:
    """Boxes sent in the photo's pixels, on the picture read ``scale`` times smaller; anything but a list of four
    numbers each is passed on as it is, for :func:`_read_again` to refuse in the sender's terms."""
    if scale == 1 or not _are_boxes(boxes):
        return boxes
    return [[v / scale for v in box] for box in boxes]


def _are_boxes(boxes: object) -> bool:
    """Whether ``boxes`` is a list of boxes [x1, y1, x2, y2], four finite numbers each, as an answer gives them
    (JSON as Python reads it lets NaN and Infinity through)."""
    return isinstance(boxes, (list, tuple)) and all(
        isinstance(box, (list, tuple)) and len(box) == 4
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in box)
        for box in boxes)


def _read_turned(image_bgr: np.ndarray, angle: float, fixes: dict[int, str] | None = None,
                 win: int | None = None, taps: Taps = NO_TAPS, nets: list[str] | None = None) -> Reading:
    """:func:`_read_hand` of the photo turned by ``angle`` (straighten's), boxes mapped back onto the photo as
    taken: off the turned photo's own straightening, then the turn."""
    view, turn_back = _turned_view(image_bgr, angle)
    reading = _read_hand(view, max_rows=TURNED_MAX_ROWS, fixes=fixes, outer=turn_back, win=win, taps=taps,
                         nets=nets)
    reading.back = _then(reading.back, turn_back)
    return reading


def _turned_view(image_bgr: np.ndarray, angle: float) -> tuple[np.ndarray, Callable]:
    """The photo turned by ``angle`` (straighten's) and the way back for boxes on it onto the photo as taken."""
    height, width = image_bgr.shape[:2]
    view, inverse = straighten(image_bgr, angle)
    return view, partial(_box_back, back=inverse, width=width, height=height)


def _read_again(image_bgr: np.ndarray, dora_image: np.ndarray | None, fixes: dict[int, str], turned: int,
                taps: Taps, win: int | None, dora_fixes: dict[int, str], low_angle: bool | None,
                scales: tuple[int, int] = (1, 1)) -> dict:
    """The photo read the way round ``turned`` says (degrees clockwise), with the player's ``fixes``, the boxes
    of ``taps.restore`` kept as tiles and those of ``taps.drop`` taken for none, tiles read where ``taps.add``
    says one was missed, those of ``taps.turn`` read lying the other way, and the tile ``win`` as the winning
    tile; ``dora_fixes`` correct the dora photo's tiles. ``low_angle``: with the low-angle localisers or the
    usual ones (None: as :func:`_localisers_for` chooses them again). ``scales``: as :func:`_result`'s."""
    _checked_fixes(fixes, "corrections")
    if dora_fixes and dora_image is None:
        raise InvalidRequestError("corrections of the dora photo's tiles were sent, but no dora photo")
    _checked_fixes(dora_fixes, "corrections of the dora photo")
    if win is not None and (not isinstance(win, int) or isinstance(win, bool) or win < 0):
        raise InvalidRequestError(f"the winning tile must be given by its index among the tiles (0, 1, ...); not {win!r}")
    for key, boxes in vars(taps).items():
        if not _are_boxes(boxes):
            raise InvalidRequestError(f'"{key}" must be a JSON list of boxes [x1, y1, x2, y2] (four finite numbers) as '
                                      f"the answer gives them, e.g. [[812, 410, 868, 492]]; not {boxes!r}")
    height, width = image_bgr.shape[:2]
    k = scales[0]  # (the box and the photo's size as the sender knows them)
    for box in taps.add:
        if not (0 <= (box[0] + box[2]) / 2 < width and 0 <= (box[1] + box[3]) / 2 < height):
            raise InvalidRequestError(f"the box {[v * k for v in box]} to add a tile in lies outside the photo "
                                      f"({width * k} x {height * k} px)")
    angle = next((a for a, degrees in _TURNS if degrees == turned), None) if turned else 0.0
    if angle is None:
        raise InvalidRequestError(f"turned must be 0, 90, 180 or 270 (degrees clockwise), not {turned!r}")
    if low_angle is not None and not isinstance(low_angle, bool):
        raise InvalidRequestError(f'"low_angle" must be true or false (the first answer\'s "low_angle"), not {low_angle!r}')
    if low_angle is None:
        nets = _localisers_for(image_bgr)
    else:
        nets = (low_localisers() or None) if low_angle else None
    if turned == 0:
        reading = _read_hand(image_bgr, fixes=fixes, win=win, taps=taps, nets=nets)
    else:
        reading = _read_turned(image_bgr, angle, fixes, win, taps, nets)
    reading.mend_melds()
    reading.name_by_shape()
    return _result(reading, turned or None, nets is not None, dora_image, image_bgr, dora_fixes, scales)


def read_dora_photo(image_bgr: np.ndarray, fixes: dict[int, str] | None = None,
                    ) -> tuple[list[Det], Callable | None, int | None]:
    """A second photo of the dora indicators (the dead wall, say) read: its tiles in reading order, backs read as
    faces taken for backs as in a dora row (:func:`layout.dead_wall_backs`), the player's ``fixes`` (tile index ->
    class, as for the hand in :func:`_read_hand`) applied, the way back for their boxes onto the photo as taken
    (see :func:`_read`), and the degrees (clockwise) it was read turned by (None: as taken). Every face-up tile of it
    is an indicator.

    Read as :func:`_dora_reading` reads it; where that reading has doubts (:func:`_doubtful`), turned too: the dead
    wall lies along one side of the table, so from another seat it stands upside down or on its side. Turned by
    180 degrees unless the orienter says its faces stand the right way up (:func:`orientation` above 0), and by
    90 and 270 where its tiles lie in a column (:func:`_in_a_column`; the side the orienter says first,
    :func:`_side_turns`), each kept where its tiles are read more surely on average than those of the reading kept
    so far and are other tiles (not only the same in the other order). Of the first 100 photos of the close
    dora sets (seeds 98 and 198), the indicators right upside down on 95 and 94 instead of 87 and 88, on their side
    on 83-89 instead of 14-25, as taken on as many as before (95 and 92); of the dead walls from 17-30 degrees 65
    upside down instead of 26, 68 and 69 on their side instead of 1 (models/TRAINING-LOG.md, "Dora photos turned").
    The choice is made before ``fixes`` apply, so the indices of a correction mean the same tiles."""
    dets, groups, back = _dora_reading(image_bgr)
    turned = None
    if _doubtful(dets):
        faces = [(back(d.box) if back else d.box, False, d.confidence) for d in dets if not d.sideways and d.tile != "x"]
        turns = (() if orientation(image_bgr, faces) > 0 else _TURNS[:1]) \
            + (_side_turns(image_bgr, dets, back) if len(dets) <= 1 or _in_a_column(dets) else ())
        for angle, degrees in turns:
            view, turn_back = _turned_view(image_bgr, angle)
            other, other_groups, other_back = _dora_reading(view)
            other_tiles = sorted(d.tile for d in other) != sorted(d.tile for d in dets)
            if other_tiles and _mean_sureness(other) > _mean_sureness(dets):
                dets, groups, back, turned = other, other_groups, _then(other_back, turn_back), degrees
    dead_wall_backs(groups)
    for i, tile in (fixes or {}).items():
        if i >= len(dets):
            raise InvalidRequestError(f"a correction for tile {i} (counted from 0) of the dora photo, but {len(dets)} "
                                      "tiles were found in it: send the dora photo the corrections were made on")
        _set_by_player(dets[i], tile)
    return dets, back, turned


def _dora_reading(image_bgr: np.ndarray) -> tuple[list[Det], list, Callable | None]:
    """A dora photo (or its turned view) read (:func:`_read`: tiles, their groups, the way back) by the usual
    localisers; where they find no tile or one read with doubt (:func:`_doubtful`), by the low-angle pair too
    (:func:`low_localisers`, its crops by the classifiers' twins), and the reading with the surer tiles on average
    is kept: the dead wall photographed from a seat is seen from low, and its stacks of two look to the usual pair
    like taller tiles. Dead walls from 17-30 degrees (100 photos, `make_eval --dora-photo --pitch 0.3 0.5 --sides`):
    the indicators right on 74 photos instead of 43; from 24-37 degrees on 80 instead of 65; the close dora sets
    from above 189 and 188 of 200 instead of 187 and 183 (models/TRAINING-LOG.md, "Dora photos from a seat")."""
    first = _first_look(image_bgr)
    dets, groups, back = _read(image_bgr, first=first, hand=False)
    low = low_localisers(hand=False)
    if low and _doubtful(dets):
        other = _read(image_bgr, nets=low, first=first.by(low), hand=False)
        if _mean_sureness(other[0]) > _mean_sureness(dets):
            dets, groups, back = other
    return dets, groups, back


def _doubtful(dets: list[Det]) -> bool:
    """Whether a reading has no tile or a tile listed for a check (:func:`_unsure`)."""
    return not dets or any(_unsure(d) for d in dets)


def _in_a_column(dets: list[Det]) -> bool:
    """Whether the tiles' centres spread further down than across: a row of tiles photographed on its side."""
    centres = np.array([((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2) for d in dets])
    spread = centres.max(axis=0) - centres.min(axis=0)
    return bool(spread[1] > spread[0])


def _result(reading: Reading, turn: int | None, low: bool, dora_image: np.ndarray | None, image_bgr: np.ndarray,
            dora_fixes: dict[int, str], scales: tuple[int, int] = (1, 1)) -> dict:
    """recognize_image's answer from the read it settled on (``low``: made with the low-angle localisers), the
    dora photo's tiles corrected by ``dora_fixes``; its boxes and "small_tiles" in the pixels of the photos,
    ``scales`` times those of ``image_bgr`` and ``dora_image`` (see recognize_image)."""
    result = _answer(reading, turn, low, dora_image, image_bgr, dora_fixes, scales)
    for key in ("tiles", "not_tiles"):
        _boxes_times(result.get(key, ()), scales[0])
    if "dora_photo" in result:
        _boxes_times(result["dora_photo"]["tiles"], scales[1])
    return result


def _boxes_times(tiles: list[dict], k: int) -> None:
    """The answer's boxes (read on a picture ``k`` times smaller than the photo) in the photo's pixels."""
    if k != 1:
        for t in tiles:
            t["box"] = [v * k for v in t["box"]]


def _answer(reading: Reading, turn: int | None, low: bool, dora_image: np.ndarray | None, image_bgr: np.ndarray,
            dora_fixes: dict[int, str], scales: tuple[int, int]) -> dict:
    """:func:`_result`'s answer, its boxes on the pictures read."""
    ordered, request, reason, changed = reading.ordered, reading.request, reading.reason, reading.changed
    tiles = _tile_dicts(ordered, reading.back)
    # tiles of rows the request leaves out (the wall, discards) are not worth a check
    named = [i for i, d in enumerate(ordered) if d in reading.named or (d.looked_for == LOOKED_NAMED and not d.checked)]
    vouched = vouched_by_shape(reading.groups, request)
    grey = colourless(image_bgr, _face_boxes(tiles))  # a five's colour cannot be seen: every five is listed
    uncertain = [i for i, d in enumerate(ordered)
                 if ((_unsure(d) and not any(d is v for v in vouched)) or d in changed or i in named
                     or (grey and _a_five(d))) and d.part != "left out"]
    # tiles put in a gap as read (uncertain through _unsure, as any tile looked for): the reason words their offer so
    put_in = [i for i, d in enumerate(ordered) if d.looked_for == LOOKED_OFFERED and not d.checked]
    result: dict = {"tiles": tiles, "request": request, "uncertain": uncertain}
    if reading.dropped:  # not in "tiles": found, then taken for point sticks, dice or print (verified)
        result["not_tiles"] = [{k: v for k, v in t.items() if k not in ("group", "alternatives")}
                               for t in _tile_dicts(reading.dropped, reading.back)]
    if turn is not None:
        result["turned"] = turn
    if low:
        result["low_angle"] = True
    if changed:
        result["completed"] = [i for i, d in enumerate(ordered) if d in changed]
    if named:
        result["named"] = named
    # a tile no net could read that several kinds would win with: offered first
    offered = [(i, kinds) for o, kinds in reading.offered for i, d in enumerate(ordered) if d is o]
    offered_at = [i for i, _ in offered]
    if offered:
        result["offered"] = offered_at
    won = [i for i, d in enumerate(ordered) if d.won]
    if won:  # the player's choice, as sent
        result["win"] = won[0]
    dora_unsure: list[int] = []
    photos = [("photo", image_bgr, ordered, result, scales[0], grey)]
    if dora_image is not None:
        dora_dets, dora_back, dora_turned = read_dora_photo(dora_image, dora_fixes)
        dora_tiles = _tile_dicts(dora_dets, dora_back)
        dora_grey = colourless(dora_image, _face_boxes(dora_tiles))
        dora_unsure = [i for i, d in enumerate(dora_dets) if _unsure(d) or (dora_grey and _a_five(d))]
        result["dora_photo"] = {"tiles": dora_tiles, "uncertain": dora_unsure}
        if dora_turned is not None:  # its tiles' "sideways" as read (a correction's crop is cut by it)
            result["dora_photo"]["turned"] = dora_turned
        photos.append(("dora photo", dora_image, dora_dets, result["dora_photo"], scales[1], dora_grey))
        if request is not None:
            request["dora_indicators"] = request["dora_indicators"] + [d.tile for d in dora_dets if d.tile != "x"]
    retake = []  # photos to take again, and why: said first
    for where, photo, dets, answer, k, no_colour in photos:
        if no_colour:
            answer["colourless"] = True
            retake.append(f"the {where} has no colour (black and white), and red fives and the suits' inks are told "
                          "apart by their colours: tiles are misread more often, and every five is marked; take it "
                          "again in colour")
        burnt = burnt_share(photo, _face_boxes(answer["tiles"]), BURNT_GREY if no_colour else BURNT)
        if burnt >= OVEREXPOSED:
            answer["overexposed"] = round(burnt, 2)
            retake.append(f"the {where} is too bright: {burnt:.0%} of a typical tile face is burnt out white, where "
                          "ink may be lost; take it again with less light (on a phone or tablet: tap a tile to set "
                          "the exposure)")
        width = tile_width(dets)
        if not dets and max(shown := [round(n * k) for n in photo.shape[1::-1]]) < SMALL_PHOTO:  # (w, h) as taken
            answer["small_photo"] = shown
            shows = (f"a hand (its {HAND_TILES} tiles need about {SMALL_PHOTO:.0f} px across)" if where == "photo"
                     else "its tiles")
            retake.append(f"the {where} is only {shown[0]} x {shown[1]} px, too small to show {shows}; send it at "
                          "its full size, or take it again")
        elif 0 < width < SMALL_TILE:  # (as read: a photo read k times smaller, under SMALL_TILE * k of its pixels)
            answer["small_tiles"] = round(width * k, 1)
            retake.append(f"the tiles in the {where} are only {width * k:.0f} px wide, too small to be read surely; "
                          "take it again from closer, the hand across most of the picture")
        # (tiles that small measure as smeared when sharp: a step's edge is 2-3 px wide, 0.15 of 19 px)
        elif (smeared := smear(photo, answer["tiles"])) >= SMEARED:
            answer["blurred"] = round(smeared, 2)
            retake.append(f"the {where} is blurred: the ink's edges are smeared over {smeared:.0%} of a tile's width "
                          "(did the camera move?); take it again holding still, elbows on the table (more light "
                          "helps too)")
    # a tile of the hand at the photo's edge: cut off there, or one beyond it missing (a kan read as a pon)
    sides = _edges_touched([t["box"] for t, d in zip(tiles, ordered, strict=True) if d.part not in ("dora", "left out")],
                           image_bgr.shape)
    if sides:
        result["at_edge"] = sides
    edge = " and ".join(sides)
    if sides and request is None:
        retake.append(f"the hand runs off the photo at its {edge} edge, where a tile may be cut off or one beyond it "
                      "missing; take it again with the whole hand in the picture")
    aspect = seen_aspect(tiles, turn)
    if aspect < FLAT_VIEW and (request is None or len(uncertain) >= FLAT_DOUBTS):  # (else mostly read right)
        result["flat_tiles"] = round(aspect, 2)
        retake.append(f"the tiles in the photo look flat, {aspect:.2f} times as tall as wide (about 1.3 seen from "
                      "above): it was taken from a low angle, where tiles are misread more often; take it again from "
                      "higher, looking down on the hand")
    take_again = "; ".join(retake)
    dropped_note = (f"{len(reading.dropped)} box(es) taken for no tile (a point stick, dice, the mat's print) were "
                    "left out (not_tiles); if one is a tile, restore it (on the page: tap it)"
                    if reading.dropped else "")
    # the tiles the indicators were read from ("dora_row": a correction there changes one) and those left out; with
    # no request too, where the rows were told apart before the hand failed (the page keeps them out of the hand)
    for key, part in (("left_out", "left out"), ("dora_row", "dora")):
        indices = [i for i, d in enumerate(ordered) if d.part == part]
        if indices:
            result[key] = indices
    # a tile offered the kinds that win: with no request too (a tile put in a gap and read as a back)
    offers = [f"tile {i} (counted from 0) could not be read surely (a finger, glare or shadow on the face?): the hand "
              f"wins with it as {' or '.join(kinds)}, offered first" if i not in put_in else
              f"tile {i} (counted from 0) was put where the localisers found a gap of one tile's width (a finger over a "
              f"tile?) and could not be read: the hand wins with it as {' or '.join(kinds)}, offered first (if no tile "
              "lies there, take it out)" for i, kinds in offered]
    if request is None:
        result["reason"] = "; ".join(n for n in (take_again, reason, dropped_note, *offers) if n)  # the cause first
        return result
    notes = [n for n in (take_again, reason) if n]  # reason: rows left out of the request (layout.nearest_rows)
    if sides:
        notes.append(f"a tile of the hand lies at the photo's {edge} edge; check that none beyond it is cut off or "
                     "missing (a kan read as a pon, a meld as fewer tiles)")
    if dropped_note:
        notes.append(dropped_note)
    for kind, what in ((LOOKED_KAN_BACK, "closed kan back(s) the localisers missed were read where they should lie"),
                       (LOOKED_GAP, "tile(s) the localisers missed were read in a gap of one tile's width in a row"),
                       (LOOKED_JUDGED, "box(es) taken for no tile at first were kept, as only with them do the tiles "
                                       "make a hand"),
                       (LOOKED_SPLIT, "tile(s) were read as two where one box was found on them"),
                       (LOOKED_JOINED, "tile(s) were read as one where two narrow boxes were found on them"),
                       (LOOKED_OFFERED, "tile(s) were put where the localisers found a gap of one tile's width and "
                                        "several kinds would make a winning hand, as read")):
        if looked := [i for i, d in enumerate(ordered) if d.looked_for == kind and not d.checked
                      and i not in offered_at]:
            notes.append(f"{len(looked)} {what} ({_numbered(looked)}); check them before scoring")
    if changed:
        made = "a winning hand" if request_wins(request) else "called melds"
        notes.append(f"{len(changed)} tile(s) read again as the next likeliest tile, because only so do the tiles "
                     f"make {made}; check them before scoring")
    if named:
        notes.append(f"{len(named)} tile(s) no net could read surely (a finger, glare or shadow on the face?) were "
                     f"read as the only tile with which the hand wins ({_numbered(named)}); check them before scoring")
    if not (changed or named) and (uncertain or dora_unsure):
        where = " (dora photo)" if dora_unsure and not uncertain else ""
        notes.append(f"{len(uncertain) + len(dora_unsure)} tile(s){where} read with doubt (low confidence, "
                     "a five that may be red, a white dragon that may be a back); check them before scoring")
    notes += offers
    if notes:
        result["reason"] = "; ".join(notes)
    return result


def _numbered(indices: list[int]) -> str:
    """Tiles of the answer named in a reason, by their indices in "tiles" (as "uncertain" and the other lists give
    them; the page and the CLI's text count from 1)."""
    return f"tile(s) {', '.join(map(str, indices))}, counted from 0"


def _edges_touched(boxes: list, shape: tuple[int, ...]) -> list[str]:
    """The edges of the photo (of ``shape``) that a box (x1, y1, x2, y2, on the photo as shown) comes within EDGE_NEAR
    of the boxes' typical width (the median of their narrower sides; at least 1 px): "left", "right", "top",
    "bottom", in that order. The localisers' boxes stop at the edges, so a tile the frame cuts has its box on one,
    and the last tile before one it hides lies that near."""
    if not boxes:
        return []
    height, width = shape[:2]
    m = max(1.0, EDGE_NEAR * float(np.median([min(b[2] - b[0], b[3] - b[1]) for b in boxes])))
    near = {"left": any(b[0] <= m for b in boxes), "right": any(b[2] >= width - m for b in boxes),
            "top": any(b[1] <= m for b in boxes), "bottom": any(b[3] >= height - m for b in boxes)}
    return [side for side, touched in near.items() if touched]


def annotate(image_bgr: np.ndarray, result: dict) -> np.ndarray:
    """The photo with every box, its tile and confidence drawn (uncertain tiles in red)."""
    out = image_bgr.copy()
    thick = max(1, round(max(out.shape[:2]) / 600))
    uncertain = set(result.get("uncertain", []))
    for i, t in enumerate(result["tiles"]):
        x1, y1, x2, y2 = t["box"]
        colour = (0, 0, 255) if i in uncertain else (0, 200, 0)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thick)
        label = f"{t['tile']}{'>' if t['sideways'] else ''} {t['confidence']:.2f}"
        cv2.putText(out, label, (x1, max(10, y1 - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.35 * thick, colour, thick)
    return out


def _check_class(tile: str) -> None:
    """A clear error for a tile that is none of the classifier's classes (a correction, a saved crop)."""
    if tile not in classes():
        raise InvalidRequestError(f"unknown tile class {tile!r}; the tile classes are {' '.join(classes())}")


def save_correction(image_bgr: np.ndarray, box: list[int] | tuple[int, ...], tile: str, folder: Path,
                    sideways: bool | None = None) -> Path:
    """Keep the corrected tile as a labelled crop (folder/<tile>/<time>.png) for `companion train --finetune`.

    A box alone does not say whether the tile lies sideways (a photo at a low angle makes upright tiles
    wider than tall), so unless `sideways` is given both ways are tried and the one in which the classifier
    finds the corrected tile more likely is kept.
    """
    _check_class(tile)
    x1, y1, x2, y2 = (float(v) for v in box)
    if not (x2 > x1 and y2 > y1):
        raise InvalidRequestError("box must be [x1, y1, x2, y2] with x2 > x1 and y2 > y1")
    if sideways is None:
        options = [crop_tile(image_bgr, (x1, y1, x2, y2), False), crop_tile(image_bgr, (x1, y1, x2, y2), True)]
        try:
            k = classes().index(tile)
            crop = options[int(np.argmax(_probabilities(crops_to_batch(options))[:, k]))]
        except FileNotFoundError:
            crop = options[int((x2 - x1) > 1.2 * (y2 - y1))]
    else:
        crop = crop_tile(image_bgr, (x1, y1, x2, y2), sideways)
    target = Path(folder) / tile
    target.mkdir(parents=True, exist_ok=True)
    path = target / f"{time.strftime('%Y%m%d-%H%M%S')}-{time.perf_counter_ns() % 1_000_000:06d}.png"
    cv2.imwrite(str(path), crop)
    with (Path(folder) / "labels.jsonl").open("a") as log:
        log.write(json.dumps({"file": str(path.relative_to(folder)), "tile": tile}) + "\n")
    return path
