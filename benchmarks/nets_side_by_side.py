"""The shipped pairs of nets run one after the other on a shared thread pool, and side by side on a thread each.

    python benchmarks/nets_side_by_side.py [--runs 100]

The pipeline runs two localisers and two classifiers on every photo and averages each pair
(companion/vision/pipeline.py, `run_nets`). This prints ms per pair three ways on the same random input, in one
process, taking turns: one after the other on COMPANION_THREADS (2) threads each (the way before session 11), one
after the other on one thread each, and side by side on one thread each (the way since), with the ratios.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.vision import pipeline  # noqa: E402


def per_pair(step, runs: int) -> float:  # noqa: ANN001
    step()
    start = time.perf_counter()
    for _ in range(runs):
        step()
    return (time.perf_counter() - start) / runs * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=100, help="pairs per timing (default 100)")
    args = parser.parse_args()
    if pipeline.THREADS < 2:
        raise SystemExit("COMPANION_THREADS is below 2: the nets are never run side by side")
    rng = np.random.default_rng(1)
    inputs = {"image": rng.random((1, 3, 352, 512), np.float32),  # a landscape photo letterboxed
              "crops": None}
    for kind, names in (("image", pipeline.localisers()), ("crops", pipeline.classifiers())):
        if len(names) < 2:
            print(f"{names[0]}: one net shipped, nothing to run side by side")
            continue
        if inputs[kind] is None:
            _, c, h, w = pipeline.session(names[0]).get_inputs()[0].shape
            inputs[kind] = rng.random((14, c, h, w), np.float32)  # a hand's crops
        feed = {kind: inputs[kind]}
        ways = {
            f"one after the other, {pipeline.THREADS} threads each":
                lambda f=feed, n=names: [pipeline.session(name).run(None, f) for name in n],
            "one after the other, 1 thread each":
                lambda f=feed, n=names: [pipeline.session(name, 1).run(None, f) for name in n],
            "side by side, 1 thread each (run_nets)": lambda f=feed, n=names: pipeline.run_nets(n, f),
        }
        times: dict[str, list[float]] = {way: [] for way in ways}
        for _ in range(3):  # taking turns, so that all three see the same load
            for way, step in ways.items():
                times[way].append(per_pair(step, args.runs))
        print(f"{' + '.join(names)} on {feed[kind].shape}:")
        base = min(times[next(iter(ways))])
        for way, ms in times.items():
            print(f"  {way:42s} {min(ms):6.2f} ms per pair  ({base / min(ms):.2f}x the first)")


if __name__ == "__main__":
    main()
