"""A player's correction read with the answer's "low_angle" sent back (as the page does) against the same
correction read without it, the server choosing the localisers again (as before session 39), on the same photos.

    python benchmarks/corrections.py DIR [--limit N] [--block N]

DIR holds NAME.jpg + NAME.json labels (format: training/evaluate.py; make one with `python -m training.make_eval`).
Each photo is read once as the page sends it (not timed); then its first tile is "corrected" to what it was read
as, the way round the answer says, both ways, taking turns in blocks of `--block` photos. Printed: ms per
correction each way, the speed ratio, and how many answers differ between the two (there should be none: both
read with the localisers of the first answer).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402

from companion.vision import recognize_image  # noqa: E402
from training.evaluate import load_folder  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--block", type=int, default=10, help="photos each way reads in a turn")
    args = ap.parse_args(argv)
    items = load_folder(args.folder, args.limit)
    photos = []
    for path, _ in items:
        image = cv2.imread(str(path))
        first = recognize_image(image)
        if first["tiles"]:
            photos.append((image, first))
    low = sum(bool(first.get("low_angle")) for _, first in photos)

    def named(image, first):  # noqa: ANN001, ANN202
        return recognize_image(image, fixes={0: first["tiles"][0]["tile"]}, turned=first.get("turned", 0),
                               low_angle=bool(first.get("low_angle")))

    def chosen_again(image, first):  # noqa: ANN001, ANN202
        return recognize_image(image, fixes={0: first["tiles"][0]["tile"]}, turned=first.get("turned", 0))

    ways = {"low_angle sent back": named, "localisers chosen again": chosen_again}
    answers: dict[str, list] = {name: [] for name in ways}
    times: dict[str, list[float]] = {name: [] for name in ways}
    block = max(1, args.block)
    for start in range(0, len(photos), block):
        for name, way in ways.items():
            for image, first in photos[start:start + block]:
                t0 = time.perf_counter()
                answers[name].append(way(image, first))
                times[name].append((time.perf_counter() - t0) * 1000)
    differ = sum(a != b for a, b in zip(*answers.values(), strict=True))
    print(f"{len(photos)} photos with tiles from {args.folder} ({low} read with the low-angle localisers), "
          f"taking turns in blocks of {block}")
    for name in ways:
        print(f"{name:26} {sum(times[name]) / len(photos):8.1f} ms per correction")
    mean = {name: sum(t) / len(t) for name, t in times.items()}
    print(f"speed: sending low_angle back reads {mean['localisers chosen again'] / mean['low_angle sent back']:.2f}x "
          f"as many corrections per second; answers that differ: {differ}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
