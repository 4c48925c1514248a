"""The networks live in the package (companion.vision.nets) so fine-tuning works from an installed copy."""

from companion.vision.nets import (
    CROP_H,
    CROP_W,
    STRIDE,
    Classifier,
    Localiser,
    Orienter,
    Verifier,
    classifier_from,
    localiser_from_onnx,
    slimmed,
    slimmed_localiser,
)

__all__ = ["CROP_H", "CROP_W", "STRIDE", "Classifier", "Localiser", "Orienter", "Verifier", "classifier_from",
           "localiser_from_onnx", "slimmed", "slimmed_localiser"]
