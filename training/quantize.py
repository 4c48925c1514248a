"""Make the 8-bit run-time copies of the float ONNX models (static quantisation, onnxruntime).

    python -m training.quantize --models models/          # writes models/localiser.int8.onnx, classifier.int8.onnx
                                                          # (and localiser-b.int8.onnx, classifier-b.int8.onnx
                                                          # when localiser-b.onnx, classifier-b.onnx are there,
                                                          # and those of the low-angle localisers and the
                                                          # classifiers' low-angle twins when shipped)

The pipeline prefers `<name>.int8.onnx` when present (COMPANION_PRECISION=fp32 forces the float files).
Calibration photos are rendered from the training styles only (seeded), never from the held-out style, so
the held-out numbers stay unseen. Weights are quantised per output channel (int8), activations per tensor
(uint8, min-max over the calibration set). The localiser's last convolution stays float: its outputs are the
centre logits and log box sizes (companion/vision/quantize.py).
"""

from __future__ import annotations

import argparse
import os
import time
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from companion.vision.preprocess import crop_tile, letterbox, to_tensor
from companion.vision.quantize import LOCALISER_FLOAT_NODES, quantize_model
from training import sums


def calibration_photos(seed: int, n: int) -> list[np.ndarray]:
    from training.faces import build_bank
    from training.scenes import render_scene
    from training.train import HELD_OUT

    bank = build_bank(seed, n_procedural=6, with_uni=False)
    styles = [s for s in bank.styles() if s != HELD_OUT]
    rng = np.random.default_rng(seed)
    return [render_scene(rng, bank, styles, hand=bool(rng.random() < 0.8))[0] for _ in range(n)]


def classifier_batches(photos: list[np.ndarray]) -> list[np.ndarray]:
    """Crops where the float localiser finds tiles, as at run time, in batches of 32."""
    from companion.vision import pipeline

    crops = []
    for img in photos:
        crops += [to_tensor(crop_tile(img, b, s))
                  for b, s, _ in pipeline.localise(img, verify=False, nets=pipeline.localisers(one=False))]
    if not crops:
        raise SystemExit(f"the localiser finds no tile in the {len(photos)} calibration photos, so there is nothing "
                         "to calibrate the classifier on (a run of a few steps, for example)")
    allc = np.concatenate(crops)
    return [allc[i:i + 32] for i in range(0, len(allc), 32)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", type=Path, default=Path("models"))
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--photos", type=int, default=40, help="calibration photos (training styles)")
    args = ap.parse_args(argv)
    with _float_models_in(args.models.resolve()):
        return _quantize(args)


@contextmanager
def _float_models_in(folder: Path):  # noqa: ANN202
    """The pipeline reads the float models of ``folder`` (calibration crops come from the float localiser) until
    the block ends; then it reads what it read before, so that a run in the same process (training.train's last
    step, a test) leaves nothing changed behind it."""
    from companion.vision import pipeline

    before = {key: os.environ.get(key) for key in ("COMPANION_PRECISION", "COMPANION_MODELS")}, pipeline.MODELS_DIR
    os.environ.update(COMPANION_PRECISION="fp32", COMPANION_MODELS=str(folder))
    pipeline.MODELS_DIR = folder
    try:
        yield
    finally:
        for key, value in before[0].items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        pipeline.MODELS_DIR = before[1]


def _quantize(args: argparse.Namespace) -> int:
    from companion.vision import pipeline

    t0 = time.time()
    photos = calibration_photos(args.seed, args.photos)
    batches = classifier_batches(photos)
    written = []
    low = pipeline.low_localisers(hand=False) + pipeline.low_localisers()  # the pair, and LOW_HAND where shipped
    usual = pipeline.localisers(one=False) + pipeline.localisers()  # the pair, and the one net where shipped
    for name in dict.fromkeys(usual + low):  # the float files here (_float_models_in)
        quantize_model(args.models / f"{name}.onnx", args.models / f"{name}.int8.onnx", "image",
                       [letterbox(p)[0] for p in photos], LOCALISER_FLOAT_NODES)
        written.append(args.models / f"{name}.int8.onnx")
    # "classifier", and "classifier-b", the one net taught by them and the low-angle twins where in the folder
    for name in dict.fromkeys(pipeline.classifiers(one=False) + pipeline.every_classifier()):
        quantize_model(args.models / f"{name}.onnx", args.models / f"{name}.int8.onnx", "crops", batches)
        written.append(args.models / f"{name}.int8.onnx")
    print(f"calibrated on {len(photos)} photos ({sum(len(b) for b in batches)} crops); wrote "
          f"{', '.join(map(str, written))} in {time.time() - t0:.0f}s, and {sums.write(args.models)}")
    return 0


if __name__ == "__main__":
    cv2.setNumThreads(1)
    raise SystemExit(main())
