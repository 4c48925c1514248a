"""The recogniser of this checkout against the same code at an earlier commit, in one process, photo by photo.

    python benchmarks/against_revision.py [DIR] [--rev HEAD~1] [--limit 200]

A change to the reading's code (`companion/vision/`) that should only make reading faster must read every photo as
before, and one that reads differently should say how many photos it changes and whether it reads more requests
right. This loads the reading's modules (preprocess, quality, layout, shape, pipeline) as committed at REV (`git
show`) beside the working tree's, warms both up, and reads each photo of DIR with both, taking turns which goes
first (so both see the same load and caches). It prints each side's ms per photo, the ratio, how many photos come
out differently (their tiles, confidences, boxes, marks or request), and how many requests each reads right (DIR
is a labelled folder: `training.make_eval`'s, a photo's JSON beside it). Only those modules are taken from REV: the
rest of the package (tiles, hand, the models) is the checkout's.
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

from training.evaluate import _norm_request, load_folder  # noqa: E402

VISION = ("preprocess", "quality", "layout", "shape", "pipeline")  # the reading's own modules, each after those it imports


def _source(rev: str | None, name: str) -> str | None:
    """companion/vision/``name``.py as committed at ``rev`` (None: as it is in the checkout); None where ``rev`` has no
    such file (shape.py came in session 82; a revision before it has that code in pipeline.py)."""
    path = f"companion/vision/{name}.py"
    if rev is None:
        return (ROOT / path).read_text()
    shown = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], capture_output=True, text=True)
    if shown.returncode == 0:
        return shown.stdout
    if name == "pipeline":
        raise SystemExit(f"git show {rev}:{path} failed: {shown.stderr.strip()}")
    return None


def pipeline_at(rev: str | None):  # noqa: ANN201 - a module
    """pipeline.py as committed at ``rev`` (None: as it is in the checkout), loaded as a module of its own (its own
    sessions and settings), together with the modules of VISION before it as committed then: each is loaded under
    a name of its own, and the ones after it import that copy. Both sides are loaded so, the same way: the checkout
    against itself reads at 1.00x."""
    side = "checkout" if rev is None else "revision"
    own = {f"companion.vision.{name}": sys.modules.get(f"companion.vision.{name}") for name in VISION}
    try:
        for name in VISION:
            source = _source(rev, name)
            if source is None:
                continue
            module = importlib.util.module_from_spec(importlib.util.spec_from_loader(
                f"companion.vision.{name}_at_{side}", loader=None))
            module.__file__ = str(ROOT / "companion" / "vision" / f"{name}.py")  # (the models folder is found from it)
            sys.modules[module.__name__] = module  # (dataclasses look their module up)
            sys.modules[f"companion.vision.{name}"] = module  # (what the next ones import)
            exec(compile(source, f"{rev or 'checkout'}:companion/vision/{name}.py", "exec"), module.__dict__)  # noqa: S102
    finally:
        for key, checkout in own.items():
            if checkout is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = checkout
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
