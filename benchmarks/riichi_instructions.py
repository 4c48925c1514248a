"""Instructions per hand: our riichi engine against the `mahjong` package, counted by valgrind.

    python benchmarks/riichi_instructions.py              # 2000 hands, seed 1 (about two minutes)
    python benchmarks/riichi_instructions.py --hands 500

``riichi_speed.py`` measures hands per second, which is what the issue's target is about, but on a
shared machine the seconds move with whatever else runs. Executed instructions do not: callgrind
counts the same total for the same program and input whatever the other cores do. Each engine is
run twice under ``valgrind --tool=callgrind`` with the same hands, the same warm-up and the same
preparation (the package's 136-format arguments are built in both runs), once scoring and once
not; the difference divided by the number of hands is what scoring costs. ``PYTHONHASHSEED`` is
fixed so that both runs hash alike. Needs valgrind (Debian package ``valgrind``).

Instructions are not time: code that misses the CPU caches more runs slower per instruction, so
the ratio printed here is an upper bound of the speed ratio, not a replacement for it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))


def child(engine: str, score: bool, hands: int, seed: int) -> None:
    """What runs under valgrind: warm up, prepare, and score only when ``score`` is set."""
    sys.path.insert(0, os.path.join(HERE, "..", "tests"))
    sys.path.insert(0, os.path.join(HERE, ".."))
    import riichi_random

    from companion.errors import CompanionError
    from companion.rules.riichi import score as score_ours

    warm = list(riichi_random.random_requests(1000, seed + 10_000))
    batch = list(riichi_random.random_requests(hands, seed))
    if engine == "ours":
        for request in warm:
            try:
                score_ours(request)
            except CompanionError:
                pass
        todo = batch if score else []
        for request in todo:
            try:
                score_ours(request)
            except CompanionError:
                pass
    else:
        for call in [riichi_random.to_mahjong(r) for r in warm]:
            call.run()
        calls = [riichi_random.to_mahjong(r) for r in batch]
        for call in calls if score else []:
            call.run()


def count(engine: str, score: bool, hands: int, seed: int) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, os.path.abspath(__file__),
           "--child", engine, "--score" if score else "--no-score", "--hands", str(hands), "--seed", str(seed)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stderr
    found = re.search(r"Collected : (\d+)", out)
    if not found:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{out[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", choices=("ours", "package"), help=argparse.SUPPRESS)
    parser.add_argument("--score", action=argparse.BooleanOptionalAction, default=True, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.score, args.hands, args.seed)
        return 0
    if not shutil.which("valgrind"):
        print("valgrind is not installed (apt-get install -y valgrind)", file=sys.stderr)
        return 2
    runs = [(engine, score) for engine in ("ours", "package") for score in (True, False)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        totals = dict(zip(runs, pool.map(lambda run: count(run[0], run[1], args.hands, args.seed), runs),
                          strict=True))
    per_hand = {engine: (totals[engine, True] - totals[engine, False]) / args.hands for engine in ("ours", "package")}
    print(f"{args.hands} random winning hands (seed {args.seed}), instructions counted by callgrind, "
          f"Python {sys.version.split()[0]}")
    print(f"  companion engine : {per_hand['ours']:10.0f} instructions/hand")
    print(f"  mahjong package  : {per_hand['package']:10.0f} instructions/hand")
    print(f"  ratio            : {per_hand['package'] / per_hand['ours']:10.2f}x fewer instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
