"""Our recogniser and the PyPI peer `mahjong-detector` (YOLO ONNX, bench extra) on the same labelled photos.

    python benchmarks/recognition.py DIR [--limit N] [--fp32] [--block N] [--from-files]

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
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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


def score(items: list, preds: dict, times: list[float], name: str, mapping=None) -> dict:  # noqa: ANN001
    mapping = mapping or (lambda t: t)
    total = hits = exact = 0
    for path, label in items:
        truth = [mapping(t["tile"]) for t in label["tiles"]]
        pred = [mapping(t) for t in preds[path][0]]
        total += len(truth)
        hits += align(pred, truth)[0]
        exact += pred == truth
    return {"model": name, "tiles": total, "tile_accuracy": hits / max(1, total),
            "exact_hand_rate": exact / len(items), "ms_per_image_mean": sum(times) / len(times)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--fp32", action="store_true", help="also run our pipeline on the float models")
    ap.add_argument("--block", type=int, default=10, help="photos each contender reads in a turn (1: image by image)")
    ap.add_argument("--from-files", action="store_true",
                    help="time each contender from the photo's file, decoding included (ours as companion recognize)")
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
    preds: dict[str, dict] = {name: {} for name in models}
    times: dict[str, list[float]] = {name: [] for name in models}
    load = (lambda path: path) if args.from_files else load_image
    first = load(items[0][0])
    for fn in models.values():
        fn(first)  # model loading stays out of the timing
    # the machine is shared, so the contenders take turns, a block of photos each, and see the same load
    block = max(1, args.block)
    for start in range(0, len(items), block):
        photos = [(path, load(path)) for path, _ in items[start:start + block]]
        for name, fn in models.items():
            for path, img in photos:
                t0 = time.perf_counter()
                try:
                    preds[name][path] = fn(img)
                except Exception as exc:  # noqa: BLE001 - a broken peer must not hide our own numbers
                    print(f"{name} failed on {path}: {type(exc).__name__}: {exc}")
                    return 1
                times[name].append((time.perf_counter() - t0) * 1000)
    rows = []
    for name in models:
        rows.append(score(items, preds[name], times[name], name))
        rows.append(score(items, preds[name], times[name], f"{name} (reds as fives)", fair))
    print(f"{len(items)} images from {args.folder}, taking turns in blocks of {block}")
    print(f"{'model':34} {'tiles':>7} {'tile acc':>9} {'exact':>7} {'ms/img':>8}")
    for r in rows:
        print(f"{r['model']:34} {r['tiles']:7d} {r['tile_accuracy']:9.1%} {r['exact_hand_rate']:7.1%} "
              f"{r['ms_per_image_mean']:8.1f}")
    if peer is not None:
        ratio = rows[2]["ms_per_image_mean"] / rows[0]["ms_per_image_mean"]
        print(f"speed: ours processes {ratio:.2f}x as many images per second as the peer")
        if args.fp32:
            ratio = rows[2]["ms_per_image_mean"] / rows[4]["ms_per_image_mean"]
            print(f"       ours on the float models {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
