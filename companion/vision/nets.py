"""The small networks (PyTorch, training extra only): a tile localiser (centre heatmaps + box sizes at 1/4
   resolution), a crop classifier and a crop verifier (tile or not). Kept in the package so
   `companion train --finetune` works when installed."""

from __future__ import annotations

import torch
from torch import nn

CROP_H, CROP_W = 64, 48
STRIDE = 4


def cbr(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Localiser(nn.Module):
    """Outputs 4 maps at stride 4: logits of an upright / a sideways tile centre, log width, log height."""

    def __init__(self) -> None:
        super().__init__()
        self.s4 = nn.Sequential(cbr(3, 16, 2), cbr(16, 32, 2), cbr(32, 32))
        self.s8 = nn.Sequential(cbr(32, 48, 2), cbr(48, 48))
        self.s16 = nn.Sequential(cbr(48, 80, 2), cbr(80, 80))
        self.s32 = nn.Sequential(cbr(80, 112, 2), cbr(112, 112))
        self.u16 = cbr(112 + 80, 80)
        self.u8 = cbr(80 + 48, 48)
        self.u4 = cbr(48 + 32, 32)
        self.head = nn.Sequential(cbr(32, 32), nn.Conv2d(32, 4, 1))
        self.head[1].bias.data[:2] = -2.2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        up = nn.functional.interpolate
        a = self.s4(x)
        b = self.s8(a)
        c = self.s16(b)
        d = self.s32(c)
        c = self.u16(torch.cat([up(d, scale_factor=2.0, mode="nearest"), c], 1))
        b = self.u8(torch.cat([up(c, scale_factor=2.0, mode="nearest"), b], 1))
        a = self.u4(torch.cat([up(b, scale_factor=2.0, mode="nearest"), a], 1))
        return self.head(a)


class Classifier(nn.Module):
    def __init__(self, n_classes: int) -> None:
        super().__init__()
        self.features = nn.Sequential(
            cbr(3, 24), nn.MaxPool2d(2),
            cbr(24, 48), cbr(48, 48), nn.MaxPool2d(2),
            cbr(48, 96), cbr(96, 96), nn.MaxPool2d(2),
            cbr(96, 160), cbr(160, 160),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(160, n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x).mean(dim=(2, 3))
        return self.fc(self.drop(f))


class Verifier(nn.Module):
    """One logit per crop: a tile (face up or down) rather than something else on the table that the localiser
    took for one (point sticks, dice, a mat's print). A tenth of the classifier's size."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(cbr(3, 16, 2), cbr(16, 32, 2), cbr(32, 32), cbr(32, 64, 2), cbr(64, 64))
        self.fc = nn.Linear(64, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.features(x).mean(dim=(2, 3)))
