"""8-bit copies of the float ONNX models (static quantisation with onnxruntime's tools, which need the `onnx`
package: present wherever PyTorch exports models, i.e. for training and `companion train --finetune`).

On a CPU the int8 models run two to three times faster than the float ones; the pipeline prefers
`<name>.int8.onnx` when it exists next to `<name>.onnx`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

# the localiser's last convolution yields centre logits and log box sizes, where an 8-bit grid moved boxes and
# peaks enough to cost tiles on the evaluation photos; it is small, so keeping it float costs little time. Its
# first reads the photo's three colour planes: in 8 bits (7-bit weights) it cost 10 whole hands of 800 on the
# held-out sets, and float it is even a little faster, since the photo then needs no quantising (TRAINING-LOG)
LOCALISER_FLOAT_NODES = ["/s4/s4.0/s4.0.0/Conv", "/head/head.1/Conv"]


def quantize_model(src: Path, dst: Path, input_name: str, arrays: list[np.ndarray],
                   float_nodes: list[str] | None = None) -> None:
    """Write `dst`, the int8 version of the float model `src`, calibrated on `arrays` (each one model input).

    Weights per output channel (int8 in 7 bits), activations per tensor (uint8, min-max over the calibration
    inputs). In 7 bits a pair of products of an activation and a weight fits the 16 bits that CPUs without VNNI
    (AVX2 only) sum them in: with full 8-bit weights those sums saturated there and the same models read 92.5% of
    the won-hands set's tiles instead of 96.7% (models/TRAINING-LOG.md, "The int8 run-time models").
    """
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Feed(CalibrationDataReader):
        def __init__(self) -> None:
            self._it = iter([{input_name: a} for a in arrays])

        def get_next(self) -> dict | None:
            return next(self._it, None)

    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        # symbolic shape inference cannot follow the localiser's free input size; ONNX's own inference suffices
        quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(dst), Feed(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax, reduce_range=True,
                        nodes_to_exclude=float_nodes or [])
