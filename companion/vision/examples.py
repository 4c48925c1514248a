"""Photos a player has checked on the page, kept as labelled examples of the club's own tiles.

Synthetic photos are all the models were trained and measured on; a club's own photos, with the tiles as the
player confirmed them, are the measure that counts (``python -m training.evaluate instance/photos``) and the
data a later training run can learn from. Each is stored as ``NAME.jpg`` with ``NAME.json`` beside it in the
label format of ``training.evaluate``:

>>> save_checked_photo(image, [{"tile": "5m", "box": [10, 20, 50, 80]}], {"hand": "...", ...}, folder)  # doctest: +SKIP
PosixPath('instance/photos/20261126-153000-123456.jpg')
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import InvalidRequestError
from companion.photo_files import at_most
from companion.tiles import ALL_CLASSES
from companion.vision.pipeline import TURN_DEGREES

# kept photos are shrunk to this long side: the localiser reads 512 px and the tiles are cut from the photo, where
# a tile more than ~100 px wide gains nothing; a 12 MP tablet photo would take several times the space
LONG_SIDE = 2048
QUALITY = 92
def _checked_box(t: Any, where: str, width: int, height: int) -> dict:
    """{"box": [x1, y1, x2, y2] as floats, "sideways": bool} of one entry of a label, ``t``, whose box must be
    numbers of positive size inside a width x height photo; else InvalidRequestError naming ``where``."""
    box = t.get("box") if isinstance(t, dict) else None
    if not (isinstance(box, list) and len(box) == 4 and all(isinstance(v, int | float) for v in box)
            and 0 <= box[0] < box[2] <= width and 0 <= box[1] < box[3] <= height):
        raise InvalidRequestError(f'{where}: "box" must be [x1, y1, x2, y2] inside the {width}x{height} photo')
    sideways = t.get("sideways", False)
    if not isinstance(sideways, bool):
        raise InvalidRequestError(f'{where}: "sideways" must be true or false')
    return {"box": [float(v) for v in box], "sideways": sideways}


def checked_tiles(tiles: Any, width: int, height: int) -> list[dict]:
    """The tiles of a label, checked: a list of {"tile": class, "box": [x1, y1, x2, y2] inside the photo,
    "sideways": bool (optional), "hidden": true (optional: its face is not in the photo, a finger over it, and the
    hand's shape named it or offered the kinds that win: the answer's "named", "offered"; a fine-tune learns no
    crop of it)}. Raises InvalidRequestError
    saying what is wrong."""
    if not isinstance(tiles, list) or not tiles:
        raise InvalidRequestError('"tiles" must be a non-empty list of {"tile": ..., "box": [x1, y1, x2, y2]}')
    out = []
    for i, t in enumerate(tiles):
        if not isinstance(t, dict) or t.get("tile") not in ALL_CLASSES:
            raise InvalidRequestError(f"tile {i}: \"tile\" must be one of the recognition classes ({' '.join(ALL_CLASSES)})")
        hidden = t.get("hidden", False)
        if not isinstance(hidden, bool):
            raise InvalidRequestError(f'tile {i}: "hidden" must be true or false')
        out.append({"tile": t["tile"], **_checked_box(t, f"tile {i}", width, height), **({"hidden": True} if hidden else {})})
    return out


def checked_not_tiles(things: Any, width: int, height: int) -> list[dict]:
    """The boxes of a label that are no tiles (a die, a point stick: what the page showed dotted and the player
    left so), checked: a list of {"box": [x1, y1, x2, y2] inside the photo, "sideways": bool (optional)}; None or
    absent is none. Raises InvalidRequestError saying what is wrong."""
    if things is None:
        return []
    if not isinstance(things, list):
        raise InvalidRequestError('"not_tiles" must be a list of {"box": [x1, y1, x2, y2]}')
    return [_checked_box(t, f"not_tiles {i}", width, height) for i, t in enumerate(things)]


def checked_first_read(first_read: Any) -> dict | None:
    """The tiles of a photo as the recogniser read them first, before the player corrected any (the page keeps
    them so that a club sees how well the recogniser reads its set: companion.kept.first_reading), checked:
    {"tiles": [class, ...] in the answer's order, "unsure": [index, ...] of those it marked for a check}; None or
    absent is none. Raises InvalidRequestError saying what is wrong."""
    if first_read is None:
        return None
    tiles = first_read.get("tiles") if isinstance(first_read, dict) else None
    if not isinstance(tiles, list) or any(t not in ALL_CLASSES for t in tiles):
        raise InvalidRequestError('"first_read" must be {"tiles": [...], "unsure": [...]}: "tiles" the classes read '
                                  f"first, in order ({' '.join(ALL_CLASSES)})")
    unsure = first_read.get("unsure", [])
    if not (isinstance(unsure, list) and all(type(i) is int and 0 <= i < len(tiles) for i in unsure)):
        raise InvalidRequestError(f'"first_read": "unsure" must be a list of indices of its {len(tiles)} tiles')
    return {"tiles": list(tiles), "unsure": sorted(set(unsure))}


def save_checked_photo(image_bgr: np.ndarray, tiles: Any, request: dict | None, folder: Path,
                       not_tiles: Any = None, turned: Any = None, first_read: Any = None) -> Path:
    """Keep the photo (shrunk to LONG_SIDE) and its checked tiles (boxes in the photo's pixels as given, scaled
    with it) as ``folder/NAME.jpg`` + ``NAME.json``; the request too where the photo stands for one, the boxes
    that are no tiles (``not_tiles``, :func:`checked_not_tiles`) where given: a fine-tune teaches the verifier
    from them, and ``turned``, the degrees (clockwise) the photo was read turned by (0, 90, 180 or 270; the
    answer's "turned"), where given: a fine-tune teaches the orienter which way up its tiles stand; and
    ``first_read``, the tiles as read before any correction (:func:`checked_first_read`), where given. The photo is
    written before its label, and the label by a rename, so that a crash leaves no label without its photo."""
    height, width = image_bgr.shape[:2]
    labelled = checked_tiles(tiles, width, height)
    things = checked_not_tiles(not_tiles, width, height)
    first = checked_first_read(first_read)
    if turned is not None and (isinstance(turned, bool) or turned not in TURN_DEGREES):
        raise InvalidRequestError(f'"turned" must be one of {", ".join(map(str, TURN_DEGREES))} (degrees clockwise, '
                                  f"as the answer gave it) or left out; not {json.dumps(turned)}")
    if request is not None and not isinstance(request, dict):
        raise InvalidRequestError('"request" must be a scoring request (a JSON object) or left out')
    image_bgr, scale = at_most(image_bgr, LONG_SIDE)
    for t in labelled + things:
        t["box"] = [round(v * scale, 1) for v in t["box"]]
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{time.perf_counter_ns() % 1_000_000:06d}"
    photo = folder / f"{stem}.jpg"
    if not cv2.imwrite(str(photo), image_bgr, [cv2.IMWRITE_JPEG_QUALITY, QUALITY]):
        raise OSError(f"could not write {photo}")
    label = {"tiles": labelled, **({"request": request} if request is not None else {}),
             **({"not_tiles": things} if things else {}), **({"turned": int(turned)} if turned is not None else {}),
             **({"first_read": first} if first is not None else {}),
             "source": "checked on the photo page", "saved": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    partial = folder / f".{stem}.json.part"
    partial.write_text(json.dumps(label, indent=1), encoding="utf-8")
    os.replace(partial, folder / f"{stem}.json")
    return photo
