"""The tournament service under retries and races: what a club's tablets and a nervous
scorekeeper do to it. No seed text covers this; the contract is the issue's "idempotent where
retries are likely" and the table store's durability (WAL, synchronous=FULL)."""

from __future__ import annotations

import threading

import pytest

from companion.tournament import Tournaments


@pytest.fixture()
def svc(tmp_path) -> Tournaments:
    return Tournaments(tmp_path / "companion.sqlite3")


def test_two_requests_seating_at_once_store_one_round(svc: Tournaments) -> None:
    # a double tap on two tablets (or a retry racing the original): one round, one set of games
    view, _ = svc.create({"name": "Cup", "rules": "ema2016", "rounds": 2,
                          "players": [f"Player {i}" for i in range(1, 9)]})
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(svc.seat_next_round(view["id"], "same-tap")))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({r[0]["seq"] for r in results}) == 1 and sorted(r[1] for r in results) == [False, True, True, True]
    assert len(svc.games.list_games()) == 2 and len(svc.view(view["id"])["rounds"]) == 1


def test_everything_is_read_back_from_the_file_by_a_fresh_service(svc: Tournaments, tmp_path) -> None:
    # nothing lives in memory: a restarted server (a new service on the same file) sees the same
    view, _ = svc.create({"name": "Cup", "rules": "ema2016", "rounds": 3, "keep_apart": "club",
                          "players": [{"name": f"P{i}", "club": f"C{i % 2}"} for i in range(8)]})
    svc.seat_next_round(view["id"], "r1")
    svc.add_penalty(view["id"], {"player": "p1", "points": 3000, "reason": "late", "client_id": "k"})
    again = Tournaments(tmp_path / "companion.sqlite3").view(view["id"])
    assert again == svc.view(view["id"]) | {"clock": again["clock"]}
    assert again["standings"][-1]["total"] == -3000
