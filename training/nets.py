"""The networks live in the package (companion.vision.nets) so fine-tuning works from an installed copy."""

from companion.vision.nets import CROP_H, CROP_W, STRIDE, Classifier, Localiser, Verifier

__all__ = ["CROP_H", "CROP_W", "STRIDE", "Classifier", "Localiser", "Verifier"]
