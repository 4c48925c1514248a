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


def test_a_corrected_score_sheet_is_applied_once_and_late_retries_change_nothing(svc: Tournaments) -> None:
    # the scorekeeper corrects a paper result (new client_id); the corrected request retried, the
    # first request's retry arriving late and the same sheet typed in again all keep the corrected points
    view, _ = svc.create({"name": "Cup", "rules": "ema2016", "rounds": 1,
                          "players": [f"Player {i}" for i in range(1, 5)]})
    tid = view["id"]
    svc.seat_next_round(tid, "r1")
    first = {"E": 40000, "S": 30000, "W": 30000, "N": 20000}
    corrected = {"E": 30000, "S": 40000, "W": 30000, "N": 20000}
    svc.enter_result(tid, 1, 1, first, "p2")
    game = svc.enter_result(tid, 1, 1, corrected, "p3")
    for points, client_id in ((corrected, "p3"), (first, "p2"), (corrected, "p4")):
        again = svc.enter_result(tid, 1, 1, points, client_id)
        assert len(again["history"]) == 3 and again["scores"] == game["scores"], client_id
    assert [game["scores"][n] for n in game["players"]] == [30000, 40000, 30000, 20000]
    # ranks and uma from the corrected points (EMA 2016: uma 15/5/-5/-15, a shared 2nd-3rd gets 0)
    assert [(p["rank"], p["uma"]) for p in game["placements"]] == [(1, 15000), (2, 0), (2, 0), (4, -15000)]
    assert [p["player"] for p in game["placements"]][0] == game["players"][1]
