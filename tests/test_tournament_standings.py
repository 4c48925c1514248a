"""Standings folded from games played to the end through the table service, and tie-breaks.

Expected scores are worked out by hand from the hands entered, with the EMA 2016 table rules of
the ``ema2016`` preset (seed 000 is the BGA page based on them): start and return 30,000, uma
+15/+5/-5/-15 thousand shared on ties, no oka, chombo -20,000 after uma with a replay.
"""

from __future__ import annotations

import pytest

from companion.errors import InvalidRequestError
from companion.table import service as table_service
from companion.tournament import Tournaments
from companion.tournament.standings import compute

# Script A: South rons East for 3 han 30 fu = 3,900 (seed 000 table, non-dealer).
# Points E 26,100 / S 33,900 / W 30,000 / N 30,000. S 1st: +3,900 + 15,000 = +18,900;
# W and N share 2nd and 3rd: (5 - 5) / 2 = 0 uma, 0 points over 30,000 -> 0 each;
# E 4th: -3,900 - 15,000 = -18,900.
SCRIPT_A = {"E": (-18900, 4, 26100), "S": (18900, 1, 33900), "W": (0, 2, 30000), "N": (0, 2, 30000)}

# Script B: West's chombo (EMA: -20,000 after uma, no points move, same deal again), then East
# tsumo 4 han 30 fu: base 30 x 2^6 = 1,920, dealer tsumo 2 x 1,920 = 3,840 -> 3,900 all.
# E 41,700 1st: +11,700 + 15,000 = +26,700; S, W, N 26,100 share 2nd-4th: uma (5 - 5 - 15) / 3 = -5
# -> -3,900 - 5,000 = -8,900; West also -20,000 = -28,900.
SCRIPT_B = {"E": (26700, 1, 41700), "S": (-8900, 2, 26100), "W": (-28900, 2, 26100), "N": (-8900, 2, 26100)}


def play(svc: Tournaments, game_id: str, script: str) -> None:
    state = table_service.game_state(svc.games, game_id)
    e, s, w, _n = state["players"]
    if script == "A":
        events = [{"type": "win", "winners": [{"player": s, "han": 3, "fu": 30}], "discarder": e}]
    else:
        events = [{"type": "chombo", "player": w},
                  {"type": "win", "winners": [{"player": e, "han": 4, "fu": 30}], "discarder": None}]
    for i, ev in enumerate(events + [{"type": "end"}]):
        table_service.append_event(svc.games, game_id, ev, f"{game_id}-{i}", i + 1)


def expected(rounds: list[dict], scripts: dict[tuple[int, int], str]) -> dict[str, list]:
    """Per player: [total, games, placements sum, raw points] from the scripts by seat."""
    out: dict[str, list] = {}
    for rnd in rounds:
        for t in rnd["tables"]:
            table = SCRIPT_A if scripts[(rnd["round"], t["table"])] == "A" else SCRIPT_B
            for wind, pid in zip("ESWN", t["seats"], strict=True):
                score, rank, points = table[wind]
                row = out.setdefault(pid, [0, 0, 0, 0])
                row[0] += score
                row[1] += 1
                row[2] += rank
                row[3] += points
    return out


@pytest.fixture()
def svc(tmp_path) -> Tournaments:
    return Tournaments(tmp_path / "companion.sqlite3")


def test_totals_are_the_sum_of_uma_adjusted_final_scores(svc: Tournaments) -> None:
    view, _ = svc.create({"name": "Spring Cup", "rules": "ema2016", "rounds": 2,
                          "players": [f"Player {i}" for i in range(1, 9)]})
    tid = view["id"]
    scripts = {(1, 1): "A", (1, 2): "B", (2, 1): "B", (2, 2): "A"}
    rounds = []
    for r in (1, 2):
        entry, _ = svc.seat_next_round(tid, f"seat-{r}")
        rounds.append(entry)
        for t in entry["tables"]:
            play(svc, t["game_id"], scripts[(r, t["table"])])
    want = expected(rounds, scripts)
    rows = {row["player"]: row for row in svc.view(tid)["standings"]}
    for pid, (total, games, placements, raw) in want.items():
        assert (rows[pid]["total"], rows[pid]["games"], rows[pid]["placements_sum"],
                rows[pid]["raw_points"]) == (total, games, placements, raw), pid
    # the scores of all players add up to zero minus the two chombo penalties
    assert sum(r["total"] for r in rows.values()) == -2 * 20000
    chombos = [pid for pid, row in rows.items() if row["chombo"]]
    assert len(chombos) == 2 and all(rows[p]["chombo"] == 20000 for p in chombos)
    # best first
    totals = [r["total"] for r in svc.view(tid)["standings"]]
    assert totals == sorted(totals, reverse=True)


def test_round_scores_and_unfinished_games(svc: Tournaments) -> None:
    view, _ = svc.create({"name": "Cup", "rules": "ema2016", "rounds": 2,
                          "players": ["A1", "B2", "C3", "D4"]})
    tid = view["id"]
    entry, _ = svc.seat_next_round(tid, "r1")
    game = entry["tables"][0]["game_id"]
    # one hand played, game not over: nothing counts yet, the table shows as unfinished
    state = table_service.game_state(svc.games, game)
    e, s = state["players"][:2]
    table_service.append_event(svc.games, game, {"type": "win", "discarder": e,
                                                 "winners": [{"player": s, "han": 3, "fu": 30}]}, "x1", 1)
    view = svc.view(tid)
    assert all(r["total"] == 0 and r["games"] == 0 for r in view["standings"])
    assert view["rounds"][0]["tables"][0]["finished"] is False
    assert view["progress"]["tables_finished"] == 0
    table_service.append_event(svc.games, game, {"type": "end"}, "x2", 2)
    view = svc.view(tid)
    south = entry["tables"][0]["seats"][1]
    row = next(r for r in view["standings"] if r["player"] == south)
    assert row["round_scores"] == [18900, None]
    assert view["progress"]["tables_finished"] == 1


def test_penalty_is_deducted_and_a_cancelled_penalty_is_not(svc: Tournaments) -> None:
    view, _ = svc.create({"name": "Cup", "rules": "ema2016", "rounds": 1, "players": ["A", "B", "C", "D"]})
    tid = view["id"]
    late, _ = svc.add_penalty(tid, {"player": "p2", "points": 5000, "reason": "late", "client_id": "k1"})
    wrong, _ = svc.add_penalty(tid, {"player": "C", "points": 10000, "reason": "phone", "client_id": "k2"})
    svc.add_penalty(tid, {"cancel": wrong["seq"], "reason": "entered for the wrong player", "client_id": "k3"})
    # a retry of the first penalty does not deduct twice
    again, dup = svc.add_penalty(tid, {"player": "p2", "points": 5000, "reason": "late", "client_id": "k1"})
    assert dup and again["seq"] == late["seq"]
    rows = {r["player"]: r for r in svc.view(tid)["standings"]}
    assert rows["p2"]["total"] == -5000 and rows["p2"]["penalties"] == 5000
    assert rows["p3"]["total"] == 0
    log = svc.view(tid)["penalties"]
    assert [(p["player"], p["cancelled"]) for p in log] == [("p2", False), ("p3", True)]
    with pytest.raises(InvalidRequestError, match="reason"):
        svc.add_penalty(tid, {"player": "p1", "points": 1000, "client_id": "k4"})
    with pytest.raises(InvalidRequestError, match="points"):
        svc.add_penalty(tid, {"player": "p1", "points": -1000, "reason": "x", "client_id": "k5"})


# ----- tie-breaks on hand-made results --------------------------------------------------------

def game(gid: str, results: list[tuple[str, int, int, int]]) -> tuple[dict, dict]:
    """A finished game state: results are (name, rank, final points, score) in seat order."""
    names = [r[0] for r in results]
    state = {"id": gid, "finished": True, "players": names, "round": "S4",
             "scores": {n: pts for n, _, pts, _ in results},
             "placements": [{"player": n, "rank": rank, "points": pts, "uma": 0, "oka": 0, "penalty": 0,
                             "score": score} for n, rank, pts, score in results]}
    return state, {"game_id": gid, "seats": names}


def standings_of(rounds: list[list[tuple]], players: str = "ABCDEFGH") -> list[dict]:
    games, entries = {}, []
    for r, tables in enumerate(rounds, start=1):
        seated = []
        for t, results in enumerate(tables, start=1):
            state, table = game(f"g{r}{t}", results)
            games[state["id"]] = state
            seated.append({**table, "table": t})
        entries.append({"round": r, "tables": seated})
    ps = [{"id": n, "name": n} for n in players]
    return compute(ps, entries, games, [], len(rounds))


def test_equal_totals_better_average_placement_ranks_higher() -> None:
    # A: 1st (+30,000) and 4th (-30,000) = 0, average 2.5; B: 2nd twice with 0 each, average 2
    rows = standings_of([
        [[("A", 1, 50000, 30000), ("C", 2, 30000, 0), ("D", 3, 20000, -10000), ("E", 4, 20000, -20000)],
         [("B", 2, 30000, 0), ("F", 1, 40000, 20000), ("G", 3, 25000, -5000), ("H", 4, 25000, -15000)]],
        [[("A", 4, 10000, -30000), ("F", 1, 45000, 25000), ("G", 2, 35000, 10000), ("H", 3, 30000, -5000)],
         [("B", 2, 35000, 0), ("C", 1, 40000, 20000), ("D", 3, 25000, -5000), ("E", 4, 20000, -15000)]],
    ])
    pos = {r["player"]: r for r in rows}
    assert pos["A"]["total"] == pos["B"]["total"] == 0
    assert (pos["A"]["placements_sum"], pos["B"]["placements_sum"]) == (5, 4)
    assert pos["B"]["rank"] < pos["A"]["rank"]
    assert pos["A"]["decided_by"] == "placements"


def test_head_to_head_decides_between_players_equal_on_total_and_placements() -> None:
    # A and B: 2nd + 3rd each and 0 in total; they met in round 1 where A finished above B;
    # nobody else has 0 and 5 placement points
    rows = standings_of([
        [[("A", 2, 35000, 5000), ("B", 3, 25000, -5000), ("C", 1, 40000, 30000), ("D", 4, 20000, -30000)],
         [("E", 1, 40000, 25000), ("F", 2, 30000, 8000), ("G", 3, 25000, -8000), ("H", 4, 25000, -25000)]],
        [[("A", 3, 25000, -5000), ("C", 1, 40000, 20000), ("E", 2, 30000, 6000), ("G", 4, 25000, -21000)],
         [("B", 2, 40000, 5000), ("D", 1, 40000, 40000), ("F", 3, 20000, -7000), ("H", 4, 20000, -38000)]],
    ])
    pos = {r["player"]: r for r in rows}
    assert (pos["A"]["total"], pos["A"]["placements_sum"]) == (pos["B"]["total"], pos["B"]["placements_sum"])
    # B has more raw points (65,000 vs 60,000), but head-to-head comes first
    assert pos["A"]["rank"] + 1 == pos["B"]["rank"]
    assert (pos["A"]["head_to_head"], pos["B"]["head_to_head"]) == (1, -1)
    assert pos["B"]["decided_by"] == "head_to_head"


def test_raw_points_then_shared_rank() -> None:
    # A, B, C equal on total and placements and never met; A has the most raw points; B and C are
    # equal in everything and share their rank
    rows = standings_of([
        [[("A", 1, 45000, 30000), ("D", 2, 30000, 0), ("E", 3, 25000, -10000), ("F", 4, 20000, -20000)],
         [("B", 1, 40000, 30000), ("G", 2, 30000, 0), ("H", 3, 30000, -10000), ("C", 4, 20000, -20000)]],
    ])
    pos = {r["player"]: r for r in rows}
    assert pos["A"]["rank"] == 1 and pos["B"]["rank"] == 2 and pos["B"]["decided_by"] == "raw_points"
    rows = standings_of([
        [[("B", 1, 40000, 30000), ("D", 2, 30000, 0), ("E", 3, 25000, -10000), ("F", 4, 25000, -20000)],
         [("C", 1, 40000, 30000), ("G", 2, 30000, 0), ("H", 3, 25000, -10000), ("A", 4, 25000, -20000)]],
    ])
    pos = {r["player"]: r for r in rows}
    assert pos["B"]["rank"] == pos["C"]["rank"] == 1 and pos["B"]["shared"] and pos["C"]["shared"]
    assert pos["D"]["rank"] == 3  # 1, 1, 3: the next rank skips the shared place


def test_while_a_round_is_played_a_finished_second_place_ranks_above_a_running_game() -> None:
    # round 1: A's table has ended (A 2nd with 0); B's game is still running, so B has no result;
    # both stand at 0, but A's average placement 2 beats the 2.5 that counts for no game yet
    games = {"g1": game("g1", [("C", 1, 40000, 25000), ("A", 2, 30000, 0), ("D", 3, 30000, -5000),
                               ("E", 4, 20000, -20000)])[0],
             "g2": {"id": "g2", "finished": False, "players": ["B", "F", "G", "H"], "round": "E3",
                    "scores": dict.fromkeys("BFGH", 30000), "placements": []}}
    rounds = [{"round": 1, "tables": [{"table": 1, "game_id": "g1", "seats": ["C", "A", "D", "E"]},
                                      {"table": 2, "game_id": "g2", "seats": ["B", "F", "G", "H"]}]}]
    rows = compute([{"id": n, "name": n} for n in "ABCDEFGH"], rounds, games, [], 1)
    pos = {r["player"]: r for r in rows}
    assert pos["A"]["rank"] == 2 and pos["B"]["rank"] == 3 and pos["B"]["games"] == 0
    assert pos["B"]["decided_by"] == "placements"


def test_oka_and_seat_order_ties_of_the_club_preset(svc: Tournaments) -> None:
    # seed 003 (Ryanzou): start 25,000, target 30,000, oka 4 x 5,000 = 20,000 to first place, uma
    # +15/+5/-5/-15, equal points ranked by seat order (closer to East first). South rons East for
    # 3 han 30 fu = 3,900: E 21,100, S 28,900, W 25,000, N 25,000.
    # S 1st: -1,100 + 15,000 + 20,000 = +33,900; W 2nd (before N): -5,000 + 5,000 = 0;
    # N 3rd: -5,000 - 5,000 = -10,000; E 4th: -8,900 - 15,000 = -23,900.
    view, _ = svc.create({"name": "Club night", "rules": "ryanzou", "rounds": 1, "players": ["A", "B", "C", "D"]})
    entry, _ = svc.seat_next_round(view["id"], "r1")
    play(svc, entry["tables"][0]["game_id"], "A")
    rows = {r["player"]: r for r in svc.view(view["id"])["standings"]}
    e, s, w, n = entry["tables"][0]["seats"]
    assert [rows[p]["total"] for p in (s, w, n, e)] == [33900, 0, -10000, -23900]
    assert [rows[p]["rank"] for p in (s, w, n, e)] == [1, 2, 3, 4]
    assert [rows[p]["placements_sum"] for p in (s, w, n, e)] == [1, 2, 3, 4]

