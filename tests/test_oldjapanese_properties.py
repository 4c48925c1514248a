"""Properties of every old Japanese result on seeded random hands (seed 001 ch. 4 III):
nothing but clear errors, payments that balance, East double, limits respected."""

from __future__ import annotations

import random

from companion import score
from companion.errors import CompanionError
from companion.tiles import Tile, format_tiles

ROUNDINGS = ("method1", "method2", "none", "exact")


def _random_request(rng: random.Random) -> dict | None:
    left = dict.fromkeys(range(34), 4)
    sets: list[tuple[str, int]] = []
    for _ in range(4):
        if rng.random() < 0.5:
            first = rng.randrange(3) * 9 + rng.randrange(7)
            if any(left[first + i] < 1 for i in range(3)):
                return None
            for i in range(3):
                left[first + i] -= 1
            sets.append(("chi", first))
        else:
            kind = rng.randrange(34)
            kan = rng.random() < 0.1
            if left[kind] < (4 if kan else 3):
                return None
            left[kind] -= 4 if kan else 3
            sets.append(("kan" if kan else "pon", kind))
    pair = rng.randrange(34)
    if left[pair] < 2:
        return None
    called = rng.choice((0, 0, 1, 2, 3))
    hand: list[int] = [pair, pair]
    melds = []
    for i, (shape, k) in enumerate(sets):
        if shape == "kan":
            melds.append({"type": rng.choice(("minkan", "kakan", "ankan")), "tiles": format_tiles([Tile(k)] * 4)})
        elif i < called:
            tiles = [Tile(k + j) for j in range(3)] if shape == "chi" else [Tile(k)] * 3
            melds.append({"type": shape, "tiles": format_tiles(tiles)})
        else:
            hand += [k, k + 1, k + 2] if shape == "chi" else [k] * 3
    seat = rng.choice("ESWN")
    request = {
        "rules": {"preset": "oldjapanese", "rounding": rng.choice(ROUNDINGS), "min_doubles": rng.choice((0, 1))},
        "hand": format_tiles(Tile(k) for k in sorted(hand)), "melds": melds,
        "win_tile": str(Tile(rng.choice(hand))), "tsumo": rng.random() < 0.5,
        "seat_wind": seat, "round_wind": rng.choice("ES"),
        "flowers": [f"{n}f" for n in rng.sample(range(1, 9), rng.randrange(3))],
    }
    if not request["tsumo"]:
        request["discarder"] = rng.choice([s for s in "ESWN" if s != seat])
    return request


def test_random_hands_balance_and_fail_only_with_clear_errors():
    rng = random.Random(2024)
    scored = refused = 0
    for _ in range(3000):
        request = _random_request(rng)
        if request is None:
            continue
        try:
            r = score(request)
        except CompanionError as exc:
            assert exc.code in ("below_minimum", "not_complete", "invalid_tiles"), exc
            refused += 1
            continue
        scored += 1
        by_seat = r["payments_by_seat"]
        winner = request["seat_wind"]
        assert sum(by_seat.values()) == 0
        # a small value can round to nothing (ch. 4 V: "Bis 49 wird abgerundet"), never below
        assert by_seat[winner] == r["total_gain"] >= 0
        assert r["value"] <= 8000
        if r["limit"] is None and request["rules"]["rounding"] == "exact":
            assert r["value"] == r["points"] * 2 ** r["doubles"]
        if request["tsumo"] and request["rules"]["rounding"] in ("none", "exact"):
            # East pays (or is paid) exactly twice what a non-East player pays
            losers = [s for s in "ESWN" if s != winner]
            shares = {s: -by_seat[s] for s in losers}
            if winner == "E":
                assert len(set(shares.values())) == 1
            else:
                others = [shares[s] for s in losers if s != "E"]
                assert shares["E"] == 2 * others[0] == 2 * others[1]
    assert scored > 500 and refused > 0
