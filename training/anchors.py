"""The anchor crops a club's fine-tune rehearses beside its own (models/anchors.jpg).

    python -m training.anchors --out models/anchors.jpg      # about a minute on two cores

`companion train --finetune` trains the shipped classifiers on a club's crops alone. Where those are all of a few
classes (a Hong Kong club corrects only its flowers, the one thing the nets misread on its set), the fine-tune
learns to read every tile as one of those: on 34 corrected flowers, the held-out won hands fell from 87.5% to 25.5%
whole hands right (models/TRAINING-LOG.md, "A club's flowers by fine-tuning"). So half of each fine-tune batch is
drawn from these crops instead: ANCHORS_PER_CLASS tiles of every class, cut from training scenes (the training
styles only, never the held-out one) as the pipeline cuts them, one row a class in the order of
`pipeline.classes()`, stored as one JPEG (1.5 MB; the nets read JPEG photos).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from companion.vision.finetune import ANCHORS_PER_CLASS, anchor_mosaic
from training.faces import ALL_CLASSES
from training.train import CLS_SCENES, generate

SEED = 71
SCENES = 800
QUALITY = 90


def anchor_crops(seed: int = SEED, scenes: int = SCENES, workers: int = 2) -> np.ndarray:
    """(classes, ANCHORS_PER_CLASS, H, W, 3) crops: the classifier stages' scenes (their styles, red fives apart),
    ANCHORS_PER_CLASS of each class drawn at random (``seed``)."""
    data = generate(seed, scenes, CLS_SCENES["styles"], workers, CLS_SCENES["varied"], CLS_SCENES["wide"],
                    n_maroon=CLS_SCENES["maroon"], apart=True)
    rng = np.random.default_rng(seed)
    rows = []
    for k, name in enumerate(ALL_CLASSES):
        have = np.flatnonzero(data["ys"] == k)
        if len(have) < ANCHORS_PER_CLASS:
            raise SystemExit(f"only {len(have)} crops of {name} in {scenes} scenes; make more (--scenes)")
        rows.append(data["crops"][rng.choice(have, ANCHORS_PER_CLASS, replace=False)])
    return np.stack(rows)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("models/anchors.jpg"))
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--scenes", type=int, default=SCENES)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    mosaic = anchor_mosaic(anchor_crops(args.seed, args.scenes, args.workers))
    cv2.imwrite(str(args.out), mosaic, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    print(f"wrote {args.out}: {len(ALL_CLASSES)} classes x {ANCHORS_PER_CLASS} crops, {args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
