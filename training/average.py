"""Average the weights of nets trained on from the same starting point and export the result.

    python -m training.average --out DIR [--name classifier-one] A/classifier.pt B/classifier.pt [...]
    python -m training.average --out DIR [--name localiser-one] A/localiser-one.onnx B/localiser-one.onnx [...]

Runs continued from one set of weights stay in one basin of the loss, so their mean is a model of its own
that can read unseen styles better than either (weight averaging, "model soup").

Classifiers (.pt state dicts): BatchNorm statistics are averaged like the weights; writes DIR/NAME.pt and
DIR/NAME.onnx (NAME: classifier unless --name says). Exported nets (.onnx, such as the localisers, which have no
.pt and train with their batch norms folded and frozen, train.train_localiser): the graphs must be the same
but for their weights, whose mean is written as DIR/NAME.onnx (NAME: the first file's unless --name says).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--name", help="the files written: a classifier's DIR/NAME.pt and DIR/NAME.onnx (NAME: classifier), "
                    "an exported net's DIR/NAME.onnx (NAME: the first file's)")
    ap.add_argument("weights", type=Path, nargs="+")
    args = ap.parse_args(argv)
    kinds = {w.suffix for w in args.weights}
    if len(kinds) != 1 or kinds - {".pt", ".onnx"}:
        ap.error("give classifiers' .pt files or exported .onnx nets, all of one kind, not "
                 + " and ".join(sorted(k or "(no suffix)" for k in kinds)))
    if missing := [str(w) for w in args.weights if not w.is_file()]:
        ap.error("no such file: " + ", ".join(missing))
    args.out.mkdir(parents=True, exist_ok=True)
    if kinds == {".onnx"}:
        name = args.name or args.weights[0].stem
        try:
            average_onnx(args.weights, args.out / f"{name}.onnx")
        except ValueError as exc:
            ap.error(str(exc))
        print(f"averaged {len(args.weights)} nets into {args.out / f'{name}.onnx'}")
        return 0
    import torch

    from training.nets import classifier_from
    from training.train import _save_crop_net

    name = args.name or "classifier"
    states = [torch.load(w) for w in args.weights]
    mean = {k: (sum(sd[k].float() for sd in states) / len(states)).to(states[0][k].dtype) for k in states[0]}
    _save_crop_net(classifier_from(mean), args.out, name, "logits")  # as training writes a classifier
    print(f"averaged {len(states)} classifiers into {args.out / f'{name}.onnx'}")
    return 0


def average_onnx(paths: list[Path], out: Path) -> None:
    """Write to ``out`` the first graph of ``paths`` with each floating-point weight the mean of that weight in
    all of them; ValueError where a graph differs from the first in more than its weights' values."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    models = [onnx.load(str(p)) for p in paths]
    first = models[0]

    def shape(m: onnx.ModelProto) -> tuple:
        nodes = [(n.op_type, tuple(n.input), tuple(n.output)) for n in m.graph.node]
        return nodes, [(i.name, tuple(i.dims), i.data_type) for i in m.graph.initializer]

    for path, m in zip(paths[1:], models[1:], strict=True):
        if shape(m) != shape(first):
            raise ValueError(f"{path} is not the same graph as {paths[0]} (its layers or weights' names and shapes "
                             "differ): only runs of one net can be averaged")
    for k, init in enumerate(first.graph.initializer):
        if init.data_type != onnx.TensorProto.FLOAT:
            continue  # shapes and indices, the same in every graph
        mean = np.mean([numpy_helper.to_array(m.graph.initializer[k]) for m in models], axis=0)
        init.CopyFrom(numpy_helper.from_array(mean.astype(np.float32), init.name))
    onnx.checker.check_model(first)
    onnx.save(first, str(out))


if __name__ == "__main__":
    raise SystemExit(main())
