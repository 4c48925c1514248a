"""The localisers' shrink of a card-size photo: OpenCV's area average in one step against the way since session 62.

    python benchmarks/shrink.py [DIR] [--limit N] [--runs 5]

Every photo is letterboxed for the localisers (`preprocess.letterbox`); one below three times their size (every
training scene, the tablet's card-size photos) was averaged down in one step with OpenCV's INTER_AREA, which has no
fast path off whole factors. Since session 62 it is resized bilinearly to twice the size and each 2 x 2 block then
averaged (`preprocess.SHRINK_BY_DOUBLE`). This prints both ways' ms per photo on the photos of DIR (default: the
committed fixtures), in one process, taking turns, with the ratio and how far the second way's values lie from the
first's (grey levels: the mean, the 99th percentile and the largest).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402

from companion.vision import preprocess  # noqa: E402


def per_photo(photos: list[np.ndarray], double: bool, runs: int) -> float:
    preprocess.SHRINK_BY_DOUBLE = double
    start = time.perf_counter()
    for _ in range(runs):
        for photo in photos:
            preprocess.letterbox(photo)
    return (time.perf_counter() - start) / runs / len(photos) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", default=str(Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "vision"),
                        help="photos (*.jpg; default: the committed fixtures)")
    parser.add_argument("--limit", type=int, default=200, help="photos at most (default 200)")
    parser.add_argument("--runs", type=int, default=5, help="passes over the photos per timing (default 5)")
    args = parser.parse_args()
    files = sorted(Path(args.folder).glob("*.jpg"))[: args.limit]
    photos = [p for p in (cv2.imread(str(f)) for f in files) if p is not None
              and max(p.shape[:2]) < preprocess.SHRINK_STEP_FROM * preprocess.LOC_LONG]
    if not photos:
        raise SystemExit(f"no card-size photo (*.jpg under {preprocess.SHRINK_STEP_FROM * preprocess.LOC_LONG} px) in {args.folder}")
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(3):  # taking turns, so that both see the same load
        for double in times:
            times[double].append(per_photo(photos, double, args.runs))
    off = []
    for photo in photos:
        preprocess.SHRINK_BY_DOUBLE = False
        area, _ = preprocess.letterbox(photo)
        preprocess.SHRINK_BY_DOUBLE = True
        double, _ = preprocess.letterbox(photo)
        off.append(np.abs(double - area).ravel() * 255)
    off_all = np.concatenate(off)
    one, two = min(times[False]), min(times[True])
    print(f"{len(photos)} photos from {args.folder}, {photos[0].shape[1]} px wide and so on")
    print(f"  area average in one step (INTER_AREA)        {one:6.2f} ms a photo")
    print(f"  bilinear to twice the size, 2 x 2 averaged   {two:6.2f} ms a photo  ({one / two:.2f}x as fast)")
    print(f"  off the area average by {off_all.mean():.2f} grey levels on average, {np.percentile(off_all, 99):.1f} at 99 in "
          f"100 values, {off_all.max():.0f} at most (padding included)")


if __name__ == "__main__":
    main()
