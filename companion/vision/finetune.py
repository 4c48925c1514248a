"""Adapt the shipped classifiers (and the verifier and the orienter) to a club's own tiles from crops saved by
`save_correction` and the photos kept by `save_checked_photo` (PyTorch needed).

The fine-tune starts from the shipped weights (those a first fine-tune set aside, where one did: each run teaches
all that is kept, so a second one does not train on from the first's) and trains at a low learning rate for a few
hundred steps. A low
rate alone does not keep the classes the club's crops lack: a club that corrects only its flowers taught the nets to
read every tile as one. So the classifiers rehearse the anchor crops shipped beside them (models/anchors.jpg,
training/anchors.py: every class from the training scenes), half of each batch (:func:`load_anchors`).
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from companion.kept import FINETUNE_RECORD, checked_photos, correction_files
from companion.paths import shipped
from companion.vision import pipeline
from companion.vision.preprocess import CROP_H, CROP_W

ANCHORS = "anchors.jpg"  # in the models folder: the crops every fine-tune rehearses (training/anchors.py)
ANCHORS_PER_CLASS = 32


class Anchors(NamedTuple):
    """The anchor crops and their classes (:func:`load_anchors`)."""

    crops: np.ndarray
    ys: np.ndarray


def anchor_mosaic(crops: np.ndarray) -> np.ndarray:
    """(classes, n, H, W, 3) crops as one picture: a row of n crops a class, in the order of ``pipeline.classes()``."""
    return np.concatenate([np.concatenate(list(row), axis=1) for row in crops], axis=0)


def load_anchors(path: Path | None = None) -> Anchors | None:
    """The anchor crops (``ANCHORS``, as :func:`anchor_mosaic` lays them out), one class a row: ``path``, else the
    models folder's, else the shipped ones (a folder that a fine-tune with ``--out`` or a training run wrote, read
    with COMPANION_MODELS, holds none, and a second fine-tune there needs them as much as the first); None where
    there is no such file. A fine-tune draws half of each batch from them, so that a club's crops of a few classes
    (its flowers, the only tiles it corrects) do not teach the nets to read every tile as one of those
    (models/TRAINING-LOG.md, "A club's flowers by fine-tuning")."""
    if path is None:
        path = pipeline.MODELS_DIR / ANCHORS
        if not path.exists():
            path = shipped("models") / ANCHORS
    path = Path(path)
    if not path.exists():
        return None
    mosaic = cv2.imread(str(path))
    names = pipeline.classes()
    if mosaic is None or mosaic.shape[0] != len(names) * CROP_H or mosaic.shape[1] % CROP_W:
        raise ValueError(f"{path} is not an anchor mosaic of {len(names)} rows of {CROP_W} x {CROP_H} crops "
                         "(python -m training.anchors remakes it)")
    per_row = mosaic.shape[1] // CROP_W
    crops = mosaic.reshape(len(names), CROP_H, per_row, CROP_W, 3).transpose(0, 2, 1, 3, 4)
    return Anchors(np.ascontiguousarray(crops.reshape(-1, CROP_H, CROP_W, 3)),
                   np.repeat(np.arange(len(names), dtype=np.int64), per_row))


def load_corrections(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    names = pipeline.classes()
    crops, ys = [], []
    if not Path(folder).is_dir():
        raise FileNotFoundError(f"corrections folder {folder} does not exist")
    for f, tile in correction_files(folder):
        img = cv2.imread(str(f))
        if img is None:
            continue
        crops.append(cv2.resize(img, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA))
        ys.append(names.index(tile))
    if not crops:
        raise ValueError(f"no labelled crops in {folder} (expected <tile>/<file>.png, as the photo page saves them)")
    return np.stack(crops), np.array(ys, np.int64)


def load_checked_photos(folder: Path) -> tuple[np.ndarray, np.ndarray, int]:
    """Every tile of the photos kept from the page (``NAME.jpg`` + ``NAME.json`` with boxes, as
    ``companion.vision.save_checked_photo`` writes them), cut out as the pipeline cuts crops: crops, classes and
    the number of photos. Unlike the corrections, these are the tiles read right too, so a fine-tune sees the
    club's whole set and not only the tiles that were hard. Typed labels (NAME.txt) have no boxes and are passed
    over."""
    kept = _kept_crops(folder)
    return kept.crops, kept.ys, kept.photos


def load_not_tiles(folder: Path) -> np.ndarray:
    """The crops of the boxes the kept photos' labels list under "not_tiles" (what the page showed dotted as no
    tile, a die or a point stick, and the player left so; ``companion.vision.save_checked_photo``), cut as the
    pipeline cuts them for the verifier of the models folder (``pipeline.verifier_shaped``); an empty batch where there are
    none."""
    return _kept_crops(folder, pipeline.verifier_shaped()).things


def load_verifier_tiles(folder: Path) -> np.ndarray:
    """The kept photos' tiles cut as the pipeline cuts them for the verifier of the models folder (``pipeline.verifier_shaped``):
    what its fine-tune learns tiles from, beside :func:`load_not_tiles`."""
    return _kept_crops(folder, pipeline.verifier_shaped()).checked


def load_upright(folder: Path) -> np.ndarray:
    """The crops of the kept photos' upright tiles, each the right way up, from the photos whose label says which
    way round they were read (``turned`` 0 or 180, as the page keeps it since session 40); an empty batch where
    there are none."""
    return _kept_crops(folder).upright


class KeptCrops(NamedTuple):
    """What the kept photos give a fine-tune (:func:`_kept_crops`)."""

    crops: np.ndarray  # their tiles' crops
    ys: np.ndarray  # the tiles' classes
    photos: int  # how many photos gave tiles
    things: np.ndarray  # the crops of the boxes that are no tile, cut as the verifier reads them
    upright: np.ndarray  # the upright tiles' crops, the right way up, of photos that say which way round they were read
    checked: np.ndarray  # the tiles' crops cut as the verifier reads them (``crops`` where it reads those)


def _kept_crops(folder: Path, shaped: bool = False) -> KeptCrops:
    """The kept photos' tile crops, their classes, how many photos gave tiles, the crops of their boxes that
    are no tile (:func:`load_checked_photos`, :func:`load_not_tiles`), and the crops of the upright tiles of the
    photos whose label says which way round they were read ("turned" 0 or 180), turned the right way up where
    they stood upside down (for the orienter): each photo and label read once. With ``shaped`` (a verifier that
    reads crops cut around :func:`preprocess.shaped_box`), the boxes that are no tile and the tiles once more are
    cut so, for the verifier."""
    names = pipeline.classes()
    if not Path(folder).is_dir():
        raise FileNotFoundError(f"photos folder {folder} does not exist")
    crops, ys, photos, things, upright, checked = [], [], 0, [], [], []
    for photo, label_file in checked_photos(folder):
        image = cv2.imread(str(photo))
        if image is None:
            continue
        try:
            label = json.loads(label_file.read_text(encoding="utf-8"))
            tiles, not_tiles = label["tiles"], label.get("not_tiles") or []
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"{label_file}: not a label of a checked photo ({exc})") from exc
        boxed = [t for t in tiles if isinstance(t, dict) and t.get("tile") in names and isinstance(t.get("box"), list)
                 and t.get("hidden") is not True]  # (named or offered by the hand's shape: a finger on it)
        turned = label.get("turned")
        across = pipeline.lies_across(turned)  # read on its side: its "sideways" the other way on the photo
        crops += [_cut(image, t, across) for t in boxed]
        ys += [names.index(t["tile"]) for t in boxed]
        photos += bool(boxed)
        if shaped:
            checked += [_cut(image, t, across, shaped) for t in boxed]
        things += [_cut(image, t, across, shaped) for t in not_tiles if isinstance(t, dict)
                   and isinstance(t.get("box"), list) and len(t["box"]) == 4]
        if turned in (0, 180) and not isinstance(turned, bool):  # on its side its upright tiles are few and found sideways
            standing = [_cut(image, t) for t in boxed if not t.get("sideways", False)]
            upright += [np.ascontiguousarray(c[::-1, ::-1]) if turned == 180 else c for c in standing]
    if not crops:
        raise ValueError(f"no checked photos with boxed tiles in {folder} (NAME.jpg + NAME.json, as the page keeps them)")
    empty = np.zeros((0, CROP_H, CROP_W, 3), np.uint8)
    tiles = np.stack(crops)
    return KeptCrops(tiles, np.array(ys, np.int64), photos, np.stack(things) if things else empty,
                     np.stack(upright) if upright else empty, np.stack(checked) if shaped else tiles)


def _cut(image: np.ndarray, t: dict, across: bool = False, shaped: bool = False) -> np.ndarray:
    """The crop of one entry of a kept photo's label (its "box" and "sideways"), cut as the pipeline cuts it for the
    classifiers (for the verifier with ``shaped``: around its box made a crop's shape, preprocess.shaped_box);
    ``across``: the photo was read turned by 90 or 270 degrees, so its "sideways" (as read) is the other way on the
    photo as taken."""
    from companion.vision.preprocess import crop_shaped, crop_tile

    return (crop_shaped if shaped else crop_tile)(image, tuple(float(v) for v in t["box"]),
                                                  bool(t.get("sideways", False)) != across)


def finetune(corrections: Path | None, out: Path | None = None, steps: int = 300, seed: int = 0,
             photos: Path | None = None) -> str:
    """Adapt every classifier that reads: the one taught by the usual pair where shipped (else the pair) and the
    low-angle twin, which reads the crops of the low-angle localisers' reads (``pipeline.every_classifier()``; each
    from its ``<name>.pt`` weights), to the
    corrected crops, and to every tile of the checked photos in ``photos`` where given, and write it to ``out``
    (default: the models folder), with its int8 copy. The pipeline averages the classifiers, so one left as
    shipped would halve the adaptation, and a twin left so would read the club's set as shipped. Where the checked
    photos list boxes that are no tiles, the verifier is adapted too, to those and to the photos' tiles
    (:func:`_finetune_verifier`); where they say which way round they were read (``turned``), the orienter is
    adapted to their upright tiles (:func:`_finetune_orienter`). The classifiers rehearse the anchor crops beside the
    club's (:func:`load_anchors`: the models folder's, else the shipped ones)."""
    out = Path(out) if out is not None else pipeline.MODELS_DIR
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} is a file, not a models folder to write the fine-tuned nets to (--out)")
    names = pipeline.every_classifier()
    missing = [pipeline.MODELS_DIR / f"{name}.pt" for name in names if not (pipeline.MODELS_DIR / f"{name}.pt").exists()]
    if missing:
        raise FileNotFoundError(f"{missing[0]} (the shipped classifier's weights) is missing")
    if corrections is None and photos is None:
        raise ValueError("nothing to fine-tune on: name a corrections folder, a photos folder, or both")
    parts, said = [], []
    read_at = time.time()  # (a file kept after this is not taught: the record says so, FINETUNE_RECORD)
    taught = {"corrections": 0, "photos": 0}
    if corrections is not None:
        crops, ys = load_corrections(corrections)
        parts.append((crops, ys))
        said.append(f"{len(ys)} corrected crops")
        taught["corrections"] = len(ys)
    # the kept photos' tiles (cut as the verifier reads them), the boxes that are no tile, the upright tiles
    tiles, things, upright = None, (), ()
    if photos is not None:
        crops, ys, n, things, upright, tiles = _kept_crops(photos, pipeline.verifier_shaped())
        parts.append((crops, ys))
        said.append(f"{len(ys)} tiles of {n} checked photo(s)")
        taught["photos"] = n
        if len(things):
            said.append(f"{len(things)} box(es) on them that are no tile")
    crops, ys = np.concatenate([c for c, _ in parts]), np.concatenate([y for _, y in parts])
    anchors = load_anchors()  # (a broken file is said before anything is written)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    lines = [_finetune_one(name, crops, ys, out, steps, seed, anchors) for name in names]
    if len(things):  # only kept photos list them
        lines.append(_finetune_verifier(tiles, things, out, steps, seed) if pipeline.model_path(pipeline.VERIFIER).exists()
                     else f"{pipeline.VERIFIER}: none in {pipeline.MODELS_DIR}, so the boxes that are no tile taught nothing")
    if len(upright) and (pipeline.MODELS_DIR / f"{pipeline.ORIENTER}.onnx").exists():  # only kept photos say
        lines.append(_finetune_orienter(upright, out, steps, seed))
    copied = _the_rest(out)
    if copied:
        lines.append(f"copied the {copied} other model file(s) from {pipeline.MODELS_DIR}, so that {out} is a whole "
                     f"models folder (COMPANION_MODELS={out})")
    _record(out, read_at, taught, steps)
    beside = f" (beside {len(anchors.ys)} anchor crops of every class)" if anchors is not None else ""
    return f"fine-tuned on {' and '.join(said)}{beside} in {time.time() - t0:.0f}s: " + "; ".join(lines)


def _record(out: Path, read_at: float, taught: dict, steps: int) -> None:
    """What the fine-tune was taught, and when it read the kept files, as ``out``/FINETUNE_RECORD: the page counts
    the corrections kept since (companion.kept.last_finetune, GET /api/kept)."""
    when = datetime.fromtimestamp(read_at).astimezone().isoformat(timespec="seconds")
    (out / FINETUNE_RECORD).write_text(json.dumps({"time": read_at, "when": when, **taught, "steps": steps}) + "\n",
                                       encoding="utf-8")


def _the_rest(out: Path) -> int:
    """Copy into ``out`` the model files of the nets it lacks (the localisers, the nets not fine-tuned; not the
    set-aside ``*.base`` files), so that a fine-tune written to a folder of its own reads photos there as the models
    folder does, with the club's nets in place; how many files were copied (none where ``out`` is that folder). A
    net ``out`` has (its ``NAME.onnx``) gets nothing: were its int8 copy brought over where its own could not be
    made, the pipeline would read the shipped net instead of the club's."""
    if out.resolve() == pipeline.MODELS_DIR.resolve():
        return 0
    has = {f.name.split(".")[0] for f in out.glob("*.onnx")}
    copied = 0
    for f in sorted(pipeline.MODELS_DIR.iterdir()):
        if f.suffix in (".onnx", ".pt") and ".base." not in f.name and f.name.split(".")[0] not in has:
            shutil.copy2(f, out / f.name)
            copied += 1
    return copied


def _finetune_one(name: str, crops: np.ndarray, ys: np.ndarray, out: Path, steps: int, seed: int,
                  anchors: Anchors | None = None) -> str:
    """The classifier ``name`` trained on from its shipped weights on the club's ``crops``, each batch with as many
    ``anchors`` beside them where given (:func:`load_anchors`), and written to ``out`` with its int8 copy."""
    import torch

    from companion.vision.nets import classifier_from

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = classifier_from(torch.load(_start(f"{name}.pt")))
    before = _accuracy(net, crops, ys)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-4, weight_decay=1e-4)
    for _ in range(steps):
        idx = rng.integers(0, len(ys), min(64, max(8, len(ys))))
        x, y = crops[idx], ys[idx]
        if anchors is not None:  # as many anchors again, over every class (load_anchors)
            more = rng.integers(0, len(anchors.ys), len(idx))
            x, y = np.concatenate([x, anchors.crops[more]]), np.concatenate([y, anchors.ys[more]])
        net.train()
        loss = torch.nn.functional.cross_entropy(net(torch.from_numpy(_augment(rng, x))), torch.from_numpy(y))
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    after = _accuracy(net, crops, ys)
    _set_aside(out / f"{name}.pt")
    torch.save(net.state_dict(), out / f"{name}.pt")
    target = _export(net, out, name, "logits")
    fast = _requantize(target, crops if anchors is None else np.concatenate([crops, anchors.crops]))
    pipeline.forget_sessions(name)
    return f"{name}: accuracy on them {before:.0%} -> {after:.0%}; wrote {target}{_kept(out, name)}{fast}"


def _finetune_verifier(tiles: np.ndarray, things: np.ndarray, out: Path, steps: int, seed: int) -> str:
    """The verifier (from models/verifier.onnx, its batch norms folded and kept so) adapted to a club's tiles
    (label 1) and the things on its tables that are none (label 0), half of each per batch, written to
    out/verifier.onnx (the one there before kept as verifier.base.onnx)."""
    from companion.vision.nets import verifier_from_onnx

    crops = np.concatenate([tiles, things])
    ys = np.concatenate([np.ones(len(tiles)), np.zeros(len(things))]).astype(np.float32)
    half = min(32, max(4, len(ys) // 2))

    def batch(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        idx = np.concatenate([rng.integers(0, len(tiles), half), len(tiles) + rng.integers(0, len(things), half)])
        return _augment(rng, crops[idx]), ys[idx]

    before, after, target = _tuned_logit_net(pipeline.VERIFIER, verifier_from_onnx, batch,
                                             lambda net: _told_apart(net, crops, ys, pipeline.VERIFY_MIN), out, steps,
                                             seed, pipeline.verifier_input())
    return (f"{pipeline.VERIFIER}: tiles and things told apart {before:.0%} -> {after:.0%}; wrote {target}"
            f"{_kept(out, pipeline.VERIFIER)}")


def _finetune_orienter(upright: np.ndarray, out: Path, steps: int, seed: int) -> str:
    """The orienter (from models/orienter.onnx, its batch norms folded and kept so) adapted to a club's faces: its
    upright tiles the right way up (label 1) and turned by 180 degrees (label 0), half of each per batch, written
    to out/orienter.onnx (the one there before kept as orienter.base.onnx)."""
    from companion.vision.nets import orienter_from_onnx

    both = np.concatenate([upright, np.ascontiguousarray(upright[:, ::-1, ::-1])])
    ys = np.concatenate([np.ones(len(upright)), np.zeros(len(upright))]).astype(np.float32)
    half = min(32, max(4, len(upright)))

    def batch(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        idx = rng.integers(0, len(upright), half)
        x = np.concatenate([upright[idx], upright[idx][:, ::-1, ::-1]])
        return _augment(rng, x, turns=False), np.concatenate([np.ones(half), np.zeros(half)]).astype(np.float32)

    before, after, target = _tuned_logit_net(pipeline.ORIENTER, orienter_from_onnx, batch,
                                             lambda net: _told_apart(net, both, ys), out, steps, seed)
    return (f"{pipeline.ORIENTER}: {len(upright)} upright tiles told the right way up {before:.0%} -> {after:.0%}; "
            f"wrote {target}{_kept(out, pipeline.ORIENTER)}")


def _tuned_logit_net(name: str, load: Callable, batch: Callable[[np.random.Generator], tuple[np.ndarray, np.ndarray]],
                     score: Callable, out: Path, steps: int, seed: int, crops: str = "crops") -> tuple[float, float, Path]:
    """A shipped net of one logit per crop (``name``, loaded by ``load`` from its ONNX file with its batch norms
    folded) trained on for ``steps`` batches that ``batch`` draws (augmented crops, labels 0/1) and written to
    ``out`` (:func:`_export`, its input named ``crops`` as the shipped one's): its ``score`` before and after, and
    the file written."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    # eval mode throughout: the folded norms are the identity, never re-estimated from a batch (no dropout)
    net = load(str(_start(f"{name}.onnx"))).eval()
    for norm in (m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)):
        norm.requires_grad_(False)
    before = score(net)
    opt = torch.optim.AdamW([q for q in net.parameters() if q.requires_grad], lr=3e-4, weight_decay=1e-4)
    for _ in range(steps):
        x, y = batch(rng)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(net(torch.from_numpy(x))[:, 0], torch.from_numpy(y))
        opt.zero_grad()
        loss.backward()
        opt.step()
    after = score(net)
    target = _export(net, out, name, "logit", crops)
    pipeline.forget_sessions(name)
    return before, after, target


def _export(net, out: Path, name: str, output: str, crops: str = "crops") -> Path:  # noqa: ANN001
    """The fine-tuned net over tile crops as out/<name>.onnx (its input named ``crops``), the model there before set
    aside as <name>.base.onnx (once: a second fine-tune keeps the shipped one there)."""
    import torch

    target = out / f"{name}.onnx"
    _set_aside(target)
    torch.onnx.export(net, torch.zeros(1, 3, CROP_H, CROP_W), str(target), input_names=[crops],
                      output_names=[output], dynamic_axes={crops: {0: "n"}, output: {0: "n"}},
                      opset_version=17, dynamo=False)
    return target


def _start(filename: str) -> Path:
    """The models folder's file a fine-tune starts from: the one a fine-tune before set aside (NAME.base.*, the
    shipped one, :func:`_set_aside`) where there is one, else ``filename`` itself. Every fine-tune teaches all the
    corrections and photos kept so far, so each starts from the shipped weights: run after run on from the last
    one's would train the same crops again and again, and drift from what the anchors keep."""
    base = _aside(pipeline.MODELS_DIR / filename)
    return base if base.exists() else pipeline.MODELS_DIR / filename


def _aside(path: Path) -> Path:
    """Where a fine-tune sets the model file ``path`` aside: NAME.onnx, NAME.int8.onnx, NAME.pt -> NAME.base.*
    (:func:`restore` takes ".base" out again)."""
    name, _, rest = path.name.partition(".")
    return path.with_name(f"{name}.base.{rest}")


def _set_aside(path: Path) -> None:
    """Copy the model file ``path`` to :func:`_aside` before a fine-tune replaces it, once: a second fine-tune keeps
    the shipped one there, and :func:`restore` puts it back."""
    if path.exists() and not (base := _aside(path)).exists():
        shutil.copy(path, base)


def restore(out: Path | None = None) -> str:
    """Put back the models a fine-tune replaced in ``out`` (default: the models folder): each NAME.base.* file it set
    aside (:func:`_set_aside`) moves back over NAME.*, and its record (FINETUNE_RECORD) goes last, so that a
    running server reads with the nets put back from its next photo on (pipeline.read_adapted_nets). The kept
    corrections and photos stay, to be taught again. Needs no PyTorch."""
    out = Path(out) if out is not None else pipeline.MODELS_DIR
    if not out.is_dir():
        raise FileNotFoundError(f"models folder {out} does not exist")
    aside = sorted(out.glob("*.base.*"))
    if not aside:
        raise ValueError(f"nothing to put back in {out}: no fine-tune set models aside there (NAME.base.onnx)")
    for f in aside:
        f.replace(f.with_name(f.name.replace(".base.", ".", 1)))
        pipeline.forget_sessions(f.name.split(".")[0])
    (out / FINETUNE_RECORD).unlink(missing_ok=True)
    return f"put back the {len(aside)} model file(s) a fine-tune replaced in {out}: {', '.join(f.name for f in aside)}"


def _kept(out: Path, name: str) -> str:
    """Where the model the fine-tune replaced in ``out`` was set aside, if it replaced one."""
    base = _aside(out / f"{name}.onnx")
    return f" (original kept as {base.name})" if base.exists() else ""


def _told_apart(net, crops: np.ndarray, ys: np.ndarray, at: float = 0.5) -> float:  # noqa: ANN001
    """The share of crops a net of one logit puts on the right side of the probability ``at`` (label 1 at or above:
    for the verifier tiles above VERIFY_MIN, things below; for the orienter upright tiles the right way up)."""
    import torch

    from companion.vision.preprocess import crops_to_batch

    with torch.no_grad():
        odds = torch.sigmoid(net(torch.from_numpy(crops_to_batch(list(crops))))[:, 0]).numpy()
    return float(((odds >= at) == (ys > 0.5)).mean())


def _requantize(target: Path, crops: np.ndarray) -> str:
    """Replace the int8 copy next to the new float classifier, or set the old one aside: the pipeline prefers
    the int8 file, so a stale one would hide the fine-tune."""
    from companion.vision.preprocess import crops_to_batch

    quantised = target.with_name(f"{target.stem}.int8.onnx")
    _set_aside(quantised)
    try:
        from companion.vision.quantize import quantize_model

        batch = crops_to_batch(list(crops))
        # the club's own crops are the calibration set: they are what the model will see
        quantize_model(target, quantised, "crops", [batch[i:i + 32] for i in range(0, len(batch), 32)])
        return f" and its int8 copy {quantised}"
    except Exception as exc:  # noqa: BLE001 - the float model is complete; only the speed-up is lost
        quantised.unlink(missing_ok=True)
        return f"; no int8 copy ({type(exc).__name__}: {exc}), the float model is used"


def _augment(rng: np.random.Generator, x: np.ndarray, turns: bool = True) -> np.ndarray:
    """Crops (N,H,W,3 uint8) as a batch, brightness and contrast varied and, unless ``turns`` is False, half of
    them turned by 180 degrees (tiles lie either way round)."""
    x = x.astype(np.float32) * rng.uniform(0.8, 1.2, (len(x), 1, 1, 1)) + rng.uniform(-15, 15, (len(x), 1, 1, 1))
    if turns:
        turn = rng.random(len(x)) < 0.5
        x[turn] = x[turn, ::-1, ::-1]
    x = np.clip(x, 0, 255) / 255.0 - 0.5
    return np.ascontiguousarray(x[..., ::-1].transpose(0, 3, 1, 2)).astype(np.float32)


def _accuracy(net, crops: np.ndarray, ys: np.ndarray) -> float:  # noqa: ANN001
    import torch

    from companion.vision.preprocess import crops_to_batch

    net.eval()
    with torch.no_grad():
        pred = net(torch.from_numpy(crops_to_batch(list(crops)))).argmax(1).numpy()
    return float((pred == ys).mean())
