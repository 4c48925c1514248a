"""Average the weights of classifiers fine-tuned from the same starting point and export the result.

    python -m training.average --out DIR [--name classifier-one] A/classifier.pt B/classifier.pt [...]

Runs continued from one set of weights stay in one basin of the loss, so their mean is a model of its own
that can read unseen styles better than either (weight averaging, "model soup"). BatchNorm statistics are
averaged like the weights. Writes DIR/NAME.pt and DIR/NAME.onnx (NAME: classifier unless --name says).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--name", default="classifier", help="the files written: DIR/NAME.pt and DIR/NAME.onnx")
    ap.add_argument("weights", type=Path, nargs="+")
    args = ap.parse_args(argv)
    import torch

    from training.nets import classifier_from
    from training.train import _save_crop_net

    states = [torch.load(w) for w in args.weights]
    mean = {k: (sum(sd[k].float() for sd in states) / len(states)).to(states[0][k].dtype) for k in states[0]}
    args.out.mkdir(parents=True, exist_ok=True)
    _save_crop_net(classifier_from(mean), args.out, args.name, "logits")  # as training writes a classifier
    print(f"averaged {len(states)} classifiers into {args.out / f'{args.name}.onnx'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
