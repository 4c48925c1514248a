"""benchmarks/recognition.py: how the contenders take turns and how the rounds' speed ratios are told."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():  # noqa: ANN201
    spec = importlib.util.spec_from_file_location("bench_recognition", ROOT / "benchmarks" / "recognition.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_recognition"] = module
    spec.loader.exec_module(module)
    return module


def _contenders(calls: list) -> dict:
    def named(name: str):  # noqa: ANN202
        def predict(photo: str) -> tuple[list[str], None]:
            calls.append((name, photo))
            return [photo], None
        return predict
    return {"ours": named("ours"), "peer": named("peer")}


def test_contenders_take_turns_in_blocks_and_swap_who_goes_first_every_other_round(bench):
    calls: list = []
    items = [(f"p{i}", {}) for i in range(3)]
    preds, times = bench.read_in_turns(items, _contenders(calls), load=lambda path: path, block=2, rounds=3)
    first_round = [("ours", "p0"), ("ours", "p1"), ("peer", "p0"), ("peer", "p1"), ("ours", "p2"), ("peer", "p2")]
    second_round = [("peer", "p0"), ("peer", "p1"), ("ours", "p0"), ("ours", "p1"), ("peer", "p2"), ("ours", "p2")]
    assert calls == first_round + second_round + first_round
    # every round's reading kept, photo by photo, and one time per photo in each round
    assert preds["ours"]["p1"] == [(["p1"], None)] * 3 and preds["peer"]["p2"] == [(["p2"], None)] * 3
    assert [len(ms) for ms in times["ours"]] == [3, 3, 3] and [len(ms) for ms in times["peer"]] == [3, 3, 3]


def test_a_contender_that_fails_stops_the_run_naming_it_and_the_photo(bench):
    def broken(photo: str) -> None:
        raise ValueError("no tiles")

    with pytest.raises(bench.ContenderFailed, match=r"peer failed on p0: ValueError: no tiles"):
        bench.read_in_turns([("p0", {})], {"ours": lambda p: ([], None), "peer": broken}, load=lambda path: path)


def test_each_rounds_ratio_is_the_peers_mean_time_over_ours_and_the_median_is_told_with_them(bench):
    # round 1: peer 60 ms a photo, ours 40 -> 1.5x; round 2: 50 against 50 -> 1.0x; round 3: 44 against 40 -> 1.1x
    times = {"ours": [[30.0, 50.0], [50.0, 50.0], [40.0, 40.0]], "peer": [[60.0, 60.0], [40.0, 60.0], [44.0, 44.0]]}
    assert bench.speed_ratios(times, "peer", "ours") == pytest.approx([1.5, 1.0, 1.1])
    assert bench._ratio_text([1.5, 1.0, 1.1]) == "1.10x (the median of 3 rounds: 1.50, 1.00, 1.10)"
    assert bench._ratio_text([1.234]) == "1.23x"
    # the ms shown are the median of the rounds' means, the accuracy the first round's reading
    items = [("a", {"tiles": [{"tile": "1m"}, {"tile": "2m"}]})]
    preds = {"a": [(["1m", "2m"], None), (["1m"], None), (["9p"], None)]}
    row = bench.score(items, preds, [[30.0], [50.0], [40.0]], "ours")
    assert row["tile_accuracy"] == 1.0 and row["exact_hand_rate"] == 1.0 and row["ms_per_image_mean"] == 40.0
