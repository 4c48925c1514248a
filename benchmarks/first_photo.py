"""The first photo a fresh process reads, with and without the recogniser warmed up beforehand.

    python benchmarks/first_photo.py [--runs 5] [PHOTO]

`companion serve` calls companion.vision.warm_up in the background as it starts (companion/web/cli.py), so that
the first photo at the table does not wait for onnxruntime, OpenCV and the models to load. This starts fresh
Python processes, taking turns: in one, the photo file (default: tests/fixtures/vision/pon_dora.jpg) is read as a
server without a warm-up reads its first photo (the recogniser imported on the way); in the other, warm_up has
run first (untimed, as at the server's start). Each then reads the photo a second time. Printed: ms for the first
and the second photo each way (median of the runs) and the ratio of the two first photos.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child(photo: str, warm: bool) -> None:
    """One fresh process's readings, printed as one JSON line."""
    sys.path.insert(0, str(ROOT))
    if warm:
        import companion.vision

        companion.vision.warm_up()
    start = time.perf_counter()
    from companion.vision import pipeline

    pipeline.recognize_image(pipeline.load_image(photo))
    first = time.perf_counter() - start
    start = time.perf_counter()
    pipeline.recognize_image(pipeline.load_image(photo))
    print(json.dumps({"first": first * 1000, "second": (time.perf_counter() - start) * 1000}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("photo", nargs="?", default=str(ROOT / "tests" / "fixtures" / "vision" / "pon_dora.jpg"))
    parser.add_argument("--runs", type=int, default=5, help="fresh processes each way (default 5)")
    parser.add_argument("--child", choices=["cold", "warm"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.photo, args.child == "warm")
        return
    times: dict[str, list[dict]] = {"cold": [], "warm": []}
    for _ in range(args.runs):
        for way in times:
            out = subprocess.run([sys.executable, __file__, "--child", way, args.photo], capture_output=True, text=True,
                                 check=True)
            times[way].append(json.loads(out.stdout.strip().splitlines()[-1]))
    median = {way: {k: statistics.median(run[k] for run in runs) for k in ("first", "second")}
              for way, runs in times.items()}
    print(f"photo {args.photo}, {args.runs} fresh processes each way, median ms")
    print(f"  without warm-up: first photo {median['cold']['first']:.0f}, second {median['cold']['second']:.0f}")
    print(f"  warmed up:       first photo {median['warm']['first']:.0f}, second {median['warm']['second']:.0f}")
    print(f"  first photo {median['cold']['first'] / median['warm']['first']:.1f}x as fast warmed up")


if __name__ == "__main__":
    main()
