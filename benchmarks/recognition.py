"""Our recogniser and the PyPI peer `mahjong-detector` (YOLO ONNX, bench extra) on the same labelled photos.

    python benchmarks/recognition.py DIR [--limit N] [--fp32] [--block N] [--from-files] [--rounds N]

DIR holds NAME.jpg + NAME.json labels (format: training/evaluate.py; make one with
`python -m training.make_eval --out DIR --style uni`). Both run in this process on the same images; printed
side by side: per-tile accuracy in order, exact-hand rate, ms per image, and the speed ratio.
The peer knows only the 34 kinds (no red fives, flowers or backs) and orders tiles by x only, so besides the
full score a "fair" score maps red fives to fives on both sides. `--fp32` adds our pipeline on the float
models (COMPANION_PRECISION=fp32) as a third contender, to show what the int8 run-time models gain.
Decoding stays outside the timing unless `--from-files`: then each contender is timed from the photo's file, ours
reading it as `companion recognize` does (a large JPEG perhaps at half size), the peer decoding it with OpenCV, whole
(faster than the Pillow its API takes: a 12 MP JPEG in 76 ms against 138).

The contenders take turns in blocks of `--block` photos (default 10), so that both see the same load on a
shared machine. Image by image (`--block 1`) each one's timing also carries what the other left behind: the
peer's onnxruntime session keeps its default options, whose worker threads spin for a while after each run,
and ours then runs on a busy CPU (100 uni photos in one process: ours 41-44 ms in blocks of 100, 54-57 ms
image by image, 48 ms with a 100 ms pause after each photo; the peer 53-65 ms in every way).

On a shared machine one run's ratio moves by a tenth or more (60 low-angle photos: 0.97x in one session, 1.13x in
the next). `--rounds N` reads the photos N times in one process, the contenders' order in each block swapped every
other round, and prints each round's ratio and their median; the ms per image shown are the medians of the
rounds' means, and the accuracy is the first round's (a photo another round reads otherwise is named).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import statistics  # noqa: E402
import time  # noqa: E402

from companion.tiles import align  # noqa: E402
from companion.vision.pipeline import load_image  # noqa: E402
from training.evaluate import load_folder, ours  # noqa: E402

PEER_NAMES = {"chun": "7z", "haku": "5z", "hatsu": "6z", "nan": "2z", "pe": "4z", "sha": "3z", "tou": "1z"}


def peer_predict():  # noqa: ANN201
    try:
        import mahjong_detector
        from PIL import Image
    except ImportError as exc:
        return None, f"mahjong-detector is not installed ({exc}); pip install 'mahjong-companion[bench]'"

    def predict(image_bgr):  # noqa: ANN001, ANN202
        tiles = mahjong_detector.detect_tiles(Image.fromarray(image_bgr[..., ::-1]))
        return [PEER_NAMES.get(t, t) for t in tiles], False

    return predict, ""


def from_file(predict):  # noqa: ANN001, ANN201
    """``predict`` of a decoded photo as a contender that takes the photo's file (--from-files): the peer's,
    decoding it whole as ``companion recognize`` decodes a photo it reads whole (OpenCV; an iPhone's HEIC with
    pi-heif)."""
    return lambda path: predict(load_image(path))


def ours_from_file(path):  # noqa: ANN001, ANN201
    """Ours from the photo's file, read as ``companion recognize`` reads it (pipeline.read_photo_file)."""
    from companion.vision.pipeline import read_photo_file

    result, _ = read_photo_file(path)
    return [t["tile"] for t in result["tiles"]], result["request"]


def ours_fp32(image_bgr):  # noqa: ANN001, ANN201
    os.environ["COMPANION_PRECISION"] = "fp32"
    try:
        return ours(image_bgr)
    finally:
        os.environ.pop("COMPANION_PRECISION")


def fair(t: str) -> str:
    return ("5" + t[1]) if t[0] == "0" else t


def score(items: list, preds: dict, times: list[list[float]], name: str, mapping=None) -> dict:  # noqa: ANN001
    """Accuracy of the first round's readings (``preds``: photo -> each round's reading), and the median over the
    rounds (``times``: each round's ms per photo) of the mean ms per photo."""
    mapping = mapping or (lambda t: t)
    total = hits = exact = 0
    for path, label in items:
        truth = [mapping(t["tile"]) for t in label["tiles"]]
        pred = [mapping(t) for t in preds[path][0][0]]
        total += len(truth)
        hits += align(pred, truth)[0]
        exact += pred == truth
    return {"model": name, "tiles": total, "tile_accuracy": hits / max(1, total),
            "exact_hand_rate": exact / len(items),
            "ms_per_image_mean": statistics.median(statistics.fmean(ms) for ms in times)}


class ContenderFailed(Exception):
    """A contender raised on a photo (a broken peer must not hide our own numbers: the run stops, saying so)."""


def read_in_turns(items: list, models: dict, load, block: int = 10, rounds: int = 1) -> tuple[dict, dict]:  # noqa: ANN001
    """Each contender of ``models`` (name -> predict) reads every photo of ``items`` ``rounds`` times, taking turns
    in blocks of ``block`` photos (loaded once a block by ``load``), their order reversed in every other round, so
    that each sees the same load and follows the other as often (``block`` and ``rounds``: 1 or more). Returns
    name -> photo -> each round's reading, and name -> each round's ms per photo, in the photos' order."""
    preds: dict[str, dict] = {name: {path: [] for path, _ in items} for name in models}
    times: dict[str, list[list[float]]] = {name: [] for name in models}
    for round_ in range(rounds):
        order = list(models) if round_ % 2 == 0 else list(reversed(models))
        for name in order:
            times[name].append([])
        for start in range(0, len(items), block):
            photos = [(path, load(path)) for path, _ in items[start:start + block]]
            for name in order:
                for path, img in photos:
                    t0 = time.perf_counter()
                    try:
                        preds[name][path].append(models[name](img))
                    except Exception as exc:  # noqa: BLE001
                        raise ContenderFailed(f"{name} failed on {path}: {type(exc).__name__}: {exc}") from exc
                    times[name][-1].append((time.perf_counter() - t0) * 1000)
    return preds, times


def speed_ratios(times: dict, peer: str, ours: str) -> list[float]:
    """For each round, how many photos a second ``ours`` reads for each one ``peer`` reads (the ratio of their mean
    ms per photo)."""
    return [statistics.fmean(p) / statistics.fmean(o) for p, o in zip(times[peer], times[ours], strict=True)]


def _ratio_text(ratios: list[float]) -> str:
    if len(ratios) == 1:
        return f"{ratios[0]:.2f}x"
    return f"{statistics.median(ratios):.2f}x (the median of {len(ratios)} rounds: " + \
        ", ".join(f"{r:.2f}" for r in ratios) + ")"


def _at_least_one(text: str) -> int:
    """A whole number of 1 or more, as --block and --rounds take it; else argparse says what is wrong."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number, 1 or more; not {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--fp32", action="store_true", help="also run our pipeline on the float models")
    ap.add_argument("--block", type=_at_least_one, default=10,
                    help="photos each contender reads in a turn (1: image by image)")
    ap.add_argument("--from-files", action="store_true",
                    help="time each contender from the photo's file, decoding included (ours as companion recognize)")
    ap.add_argument("--rounds", type=_at_least_one, default=1,
                    help="read the photos this many times, the order swapped each round")
    args = ap.parse_args(argv)
    os.environ.pop("COMPANION_PRECISION", None)
    items = load_folder(args.folder, args.limit)
    peer, why = peer_predict()
    if peer is None:
        print(f"peer not run: {why}")
    models = {"ours": ours} if peer is None else {"ours": ours, "mahjong-detector": peer}
    if args.fp32:
        models["ours, float models"] = ours_fp32
    if args.from_files:
        models = {name: ours_from_file if fn is ours else from_file(fn) for name, fn in models.items()}
    load = (lambda path: path) if args.from_files else load_image
    first = load(items[0][0])
    for fn in models.values():
        fn(first)  # model loading stays out of the timing
    try:
        preds, times = read_in_turns(items, models, load, args.block, args.rounds)
    except ContenderFailed as exc:
        print(exc)
        return 1
    rows = []
    for name in models:
        rows.append(score(items, preds[name], times[name], name))
        rows.append(score(items, preds[name], times[name], f"{name} (reds as fives)", fair))
    rounds = len(times["ours"])
    print(f"{len(items)} images from {args.folder}, taking turns in blocks of {args.block}"
          + (f", {rounds} rounds (ms: the median of the rounds' means)" if rounds > 1 else ""))
    print(f"{'model':34} {'tiles':>7} {'tile acc':>9} {'exact':>7} {'ms/img':>8}")
    for r in rows:
        print(f"{r['model']:34} {r['tiles']:7d} {r['tile_accuracy']:9.1%} {r['exact_hand_rate']:7.1%} "
              f"{r['ms_per_image_mean']:8.1f}")
    for name in models:
        for path in sorted(p for p in preds[name] if len({repr(pred) for pred in preds[name][p]}) > 1):
            print(f"note: {name} read {path} otherwise in another round")
    if peer is not None:
        print(f"speed: ours processes {_ratio_text(speed_ratios(times, 'mahjong-detector', 'ours'))} as many images "
              "per second as the peer")
        if args.fp32:
            print(f"       ours on the float models {_ratio_text(speed_ratios(times, 'mahjong-detector', 'ours, float models'))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
