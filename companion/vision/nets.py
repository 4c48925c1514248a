"""The small networks (PyTorch, training extra only): a tile localiser (centre heatmaps + box sizes at 1/4
   resolution), a crop classifier, a crop verifier (tile or not) and a crop orienter (upright or upside down).
   Kept in the package so `companion train --finetune` works when installed."""

from __future__ import annotations

from typing import TypeVar

import torch
from torch import nn

CROP_H, CROP_W = 64, 48
STRIDE = 4


def cbr(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def conv_blocks(net: nn.Module) -> list[tuple[str, nn.Sequential]]:
    """The net's conv-norm-relu blocks (:func:`cbr`) with their module names, in order."""
    return [(name, m) for name, m in net.named_modules()
            if isinstance(m, nn.Sequential) and len(m) == 3 and isinstance(m[0], nn.Conv2d)]


LOC_WIDTHS = (16, 32, 48, 80, 112, 80, 48, 32, 32)  # the localiser's channels: its first convolution, the
#   stages at 1/4, 1/8, 1/16 and 1/32 of the photo, the way back up at 1/16, 1/8 and 1/4, and the head
LOC_SLIM_WIDTHS = (16, 24, 32, 56, 80, 56, 32, 24, 24)  # about two thirds (the first kept): the shipped ones
#   since session 13, slimmed_localiser() of those above, trained on (half the work at run time)


class Localiser(nn.Module):
    """Outputs 4 maps at stride 4: logits of an upright / a sideways tile centre, log width, log height."""

    def __init__(self, widths: tuple[int, ...] = LOC_WIDTHS) -> None:
        super().__init__()
        first, w4, w8, w16, w32, u16, u8, u4, head = widths
        self.s4 = nn.Sequential(cbr(3, first, 2), cbr(first, w4, 2), cbr(w4, w4))
        self.s8 = nn.Sequential(cbr(w4, w8, 2), cbr(w8, w8))
        self.s16 = nn.Sequential(cbr(w8, w16, 2), cbr(w16, w16))
        self.s32 = nn.Sequential(cbr(w16, w32, 2), cbr(w32, w32))
        self.u16 = cbr(w32 + w16, u16)
        self.u8 = cbr(u16 + w8, u8)
        self.u4 = cbr(u8 + w4, u4)
        self.head = nn.Sequential(cbr(u4, head), nn.Conv2d(head, 4, 1))
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


def _copy_block(old: nn.Sequential, new: nn.Sequential, keep_in: torch.Tensor) -> torch.Tensor:
    """Copy a conv-norm-relu block into its narrower twin: the output channels whose filters, scaled by the batch
    norm, are largest (those the net leans on most), with their weights on the input channels ``keep_in``;
    returns the channels kept."""
    # the filter's size with the batch norm's scale applied: what the convolution weighs its inputs by
    scale = old[1].weight.abs() / (old[1].running_var + old[1].eps).sqrt()
    keep = (old[0].weight.flatten(1).norm(dim=1) * scale).argsort(descending=True)[: new[0].out_channels].sort().values
    new[0].weight.copy_(old[0].weight[keep][:, keep_in])
    for name in ("weight", "bias", "running_mean", "running_var"):
        getattr(new[1], name).copy_(getattr(old[1], name)[keep])
    return keep


def _onnx_weights(path: str) -> tuple[dict, dict]:
    """The initializers of the ONNX file at ``path`` by name, and each convolution's [weight, bias] by node name."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(path)
    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in model.graph.initializer}
    return weights, {n.name: [weights[x] for x in n.input[1:]] for n in model.graph.node if n.op_type == "Conv"}


def _load_folded(net: nn.Module, convs: dict) -> None:
    """The exported convolutions into the net's conv-norm-relu blocks: the export folded each batch norm into its
    convolution, so the norms here are the identity (eps aside) and the convolutions hold the folded weights and
    the shifts; a fine-tune keeps the norms frozen."""
    with torch.no_grad():
        for name, block in conv_blocks(net):
            parts = name.split(".")  # module s4.0's convolution is the node /s4/s4.0/s4.0.0/Conv
            scopes = [".".join(parts[: i + 1]) for i in range(len(parts))] + [f"{name}.0"]
            weight, bias = convs["/" + "/".join(scopes) + "/Conv"]
            block[0].weight.copy_(weight)
            block[1].weight.fill_(1.0)
            block[1].bias.copy_(bias)
            block[1].running_mean.zero_()
            block[1].running_var.fill_(1.0 - block[1].eps)


def localiser_from_onnx(path: str) -> Localiser:
    """The localiser exported to ``path`` (training writes no PyTorch weights for it), of whatever widths, its
    batch norms folded (:func:`_load_folded`)."""
    _, convs = _onnx_weights(path)
    # a stage's width is its last convolution's (at 1/4 the first one, s4.0, is a stage of its own)
    w = {name: convs[f"/{name}/{name}.1/{name}.1.0/Conv"][0].shape[0] for name in ("s4", "s8", "s16", "s32")}
    first = convs["/s4/s4.0/s4.0.0/Conv"][0].shape[0]
    ups = [convs[f"/{name}/{name}.0/Conv"][0].shape[0] for name in ("u16", "u8", "u4")]
    net = Localiser((first, w["s4"], w["s8"], w["s16"], w["s32"], *ups, convs["/head/head.1/Conv"][0].shape[1]))
    _load_folded(net, convs)
    with torch.no_grad():
        net.head[1].weight.copy_(convs["/head/head.1/Conv"][0])
        net.head[1].bias.copy_(convs["/head/head.1/Conv"][1])
    return net


def slimmed_localiser(net: Localiser, widths: tuple[int, ...] = LOC_SLIM_WIDTHS) -> Localiser:
    """A narrower copy of ``net`` (see :func:`_copy_block`); where the way up joins two stages, the kept channels
    of both carry on into the next convolution."""
    out = Localiser(widths)
    with torch.no_grad():
        kept = {}
        keep = torch.arange(3)
        for stage in ("s4", "s8", "s16", "s32"):
            for old, new in zip(getattr(net, stage), getattr(out, stage), strict=True):
                keep = _copy_block(old, new, keep)
            kept[stage] = keep
        for block, skip in (("u16", "s16"), ("u8", "s8"), ("u4", "s4")):
            deep = getattr(net, block)[0].in_channels - getattr(net, skip)[-1][0].out_channels
            keep = _copy_block(getattr(net, block), getattr(out, block), torch.cat([keep, deep + kept[skip]]))
        keep = _copy_block(net.head[0], out.head[0], keep)
        out.head[1].weight.copy_(net.head[1].weight[:, keep])
        out.head[1].bias.copy_(net.head[1].bias)
    return out


WIDTHS = (24, 48, 48, 96, 96, 160, 160)  # the classifier's channels, convolution by convolution
SLIM_WIDTHS = (16, 32, 32, 64, 64, 112, 112)  # two thirds of them: about half the work (slimmed())


class Classifier(nn.Module):
    def __init__(self, n_classes: int, widths: tuple[int, ...] = WIDTHS) -> None:
        super().__init__()
        w = widths
        self.features = nn.Sequential(
            cbr(3, w[0]), nn.MaxPool2d(2),
            cbr(w[0], w[1]), cbr(w[1], w[2]), nn.MaxPool2d(2),
            cbr(w[2], w[3]), cbr(w[3], w[4]), nn.MaxPool2d(2),
            cbr(w[4], w[5]), cbr(w[5], w[6]),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(w[6], n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x).mean(dim=(2, 3))
        return self.fc(self.drop(f))

    def convs(self) -> list[nn.Sequential]:
        """The conv-norm-relu blocks, in order."""
        return [m for _, m in conv_blocks(self)]


def classifier_from(state: dict) -> Classifier:
    """A classifier holding the weights ``state`` (a saved state_dict), of whatever widths they were made for."""
    convs = sorted({k.split(".")[1] for k in state if k.startswith("features.") and k.endswith(".0.weight")}, key=int)
    net = Classifier(state["fc.weight"].shape[0], tuple(state[f"features.{i}.0.weight"].shape[0] for i in convs))
    net.load_state_dict(state)
    return net


def slimmed(net: Classifier, widths: tuple[int, ...] = SLIM_WIDTHS) -> Classifier:
    """A narrower copy of ``net`` (see :func:`_copy_block`): it starts close to ``net`` and needs only a short
    training to catch up (training/train.py, the slim recipe)."""
    out = Classifier(net.fc.out_features, widths)
    keep = torch.arange(3)
    with torch.no_grad():
        for old, new in zip(net.convs(), out.convs(), strict=True):
            keep = _copy_block(old, new, keep)
        out.fc.weight.copy_(net.fc.weight[:, keep])
        out.fc.bias.copy_(net.fc.bias)
    return out


class Verifier(nn.Module):
    """One logit per crop: a tile (face up or down) rather than something else on the table that the localiser
    took for one (point sticks, dice, a mat's print). A tenth of the classifier's size."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(cbr(3, 16, 2), cbr(16, 32, 2), cbr(32, 32), cbr(32, 64, 2), cbr(64, 64))
        self.fc = nn.Linear(64, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.features(x).mean(dim=(2, 3)))


class Orienter(nn.Module):
    """One logit per upright crop: its tile stands the right way up (above 0) rather than upside down. The
    verifier's convolutions, and the upper and lower halves of their last map pooled apart (a mean over the whole
    crop keeps no "above"); a photo taken from across the table shows its tiles upside down."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(cbr(3, 16, 2), cbr(16, 32, 2), cbr(32, 32), cbr(32, 64, 2), cbr(64, 64))
        self.fc = nn.Linear(128, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x)
        half = f.shape[2] // 2
        return self.fc(torch.cat([f[:, :, :half].mean(dim=(2, 3)), f[:, :, half:].mean(dim=(2, 3))], dim=1))


_LogitNet = TypeVar("_LogitNet", "Verifier", "Orienter")  # the nets of one logit per crop


def verifier_from_onnx(path: str) -> Verifier:
    """The verifier exported to ``path`` (the shipped one has no PyTorch weights), its batch norms folded
    (:func:`_load_folded`): what `companion train --finetune` adapts to a club's dice and sticks."""
    return _logit_net_from_onnx(Verifier(), path)


def orienter_from_onnx(path: str) -> Orienter:
    """The orienter exported to ``path`` (shipped without PyTorch weights), its batch norms folded
    (:func:`_load_folded`): what `companion train --finetune` adapts to a club's faces."""
    return _logit_net_from_onnx(Orienter(), path)


def _logit_net_from_onnx(net: _LogitNet, path: str) -> _LogitNet:
    """``net`` holding the weights exported to ``path``: its convolutions folded as the export left them, its last
    layer (``fc``) as exported."""
    weights, convs = _onnx_weights(path)
    _load_folded(net, convs)
    with torch.no_grad():
        net.fc.weight.copy_(weights["fc.weight"])
        net.fc.bias.copy_(weights["fc.bias"])
    return net
