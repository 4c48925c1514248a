"""The recogniser of this checkout against the same file at an earlier commit, in one process, photo by photo.

    python benchmarks/against_revision.py [DIR] [--rev HEAD~1] [--limit 200]

A change to `companion/vision/pipeline.py` that should only make reading faster must read every photo as before,
and one that reads differently should say how many photos it changes and whether it reads more requests right.
This loads `pipeline.py` as committed at REV (`git show`) beside the working tree's, warms both up, and reads each
photo of DIR with both, taking turns which goes first (so both see the same load and caches). It prints each side's
ms per photo, the ratio, how many photos come out differently (their tiles, confidences, boxes, marks or request),
and how many requests each reads right (DIR is a labelled folder: `training.make_eval`'s, a photo's JSON beside it).
Only that one file is taken from REV: the rest of the package (layout, preprocess, the models) is the checkout's.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from companion.vision import pipeline  # noqa: E402
from training.evaluate import _norm_request, load_folder  # noqa: E402


def pipeline_at(rev: str | None):  # noqa: ANN201 - a module
    """pipeline.py as committed at ``rev`` (None: as it is in the checkout), loaded as a module of its own (its own
    sessions and settings). Both sides are loaded so, the same way: the checkout against itself reads at 1.00x."""
    if rev is None:
        source = Path(pipeline.__file__).read_text()
    else:
        shown = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:companion/vision/pipeline.py"],
                               capture_output=True, text=True)
        if shown.returncode != 0:
            raise SystemExit(f"git show {rev}:companion/vision/pipeline.py failed: {shown.stderr.strip()}")
        source = shown.stdout
    name = f"companion.vision.pipeline_at_{'checkout' if rev is None else 'revision'}"
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader=None))
    module.__file__ = pipeline.__file__  # (the models folder is found from it)
    sys.modules[name] = module  # (dataclasses look their module up)
    exec(compile(source, f"{rev or 'checkout'}:companion/vision/pipeline.py", "exec"), module.__dict__)  # noqa: S102
    return module


def answer_key(answer: dict) -> str:
    """What a photo's answer says, for telling two answers apart."""
    return json.dumps([[(t["tile"], t["confidence"], t["box"]) for t in answer["tiles"]], answer.get("uncertain", []),
                       _norm_request(answer["request"])], sort_keys=True, default=str)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", default=str(ROOT / "tests" / "fixtures" / "vision"),
                        help="labelled photos (default: the committed fixtures)")
    parser.add_argument("--rev", default="HEAD", help="the commit to compare with (default HEAD: the uncommitted change)")
    parser.add_argument("--limit", type=int, default=200, help="photos at most (default 200)")
    args = parser.parse_args()
    items = load_folder(args.folder, args.limit)
    photos = [(cv2.imread(str(path)), label) for path, label in items]
    sides = {"checkout": pipeline_at(None), args.rev: pipeline_at(args.rev)}
    for module in sides.values():
        module.recognize_image(photos[0][0])  # sessions opened, nets run once
    ms = dict.fromkeys(sides, 0.0)
    right = dict.fromkeys(sides, 0)
    differ = 0
    for k, (photo, label) in enumerate(photos):
        answers = {}
        for side in (list(sides) if k % 2 == 0 else list(sides)[::-1]):
            start = time.perf_counter()
            answers[side] = sides[side].recognize_image(photo)
            ms[side] += (time.perf_counter() - start) * 1000
        differ += len({answer_key(a) for a in answers.values()}) > 1
        if "request" in label:
            for side, answer in answers.items():
                right[side] += _norm_request(answer["request"]) == _norm_request(label["request"])
    n = len(photos)
    for side in sides:
        print(f"{side:>12}: {ms[side] / n:6.2f} ms a photo, {right[side]} requests right of {n}")
    print(f"the checkout reads {ms[args.rev] / ms['checkout']:.3f}x as many photos a second as {args.rev}; "
          f"{differ} of {n} photos read differently")


if __name__ == "__main__":
    main()
