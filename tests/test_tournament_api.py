"""The tournament API: create, read, seat rounds (idempotent), penalties, players, exports, errors.

Contract: ``POST/GET /api/tournaments``, ``GET /api/tournaments/<id>``, ``POST .../rounds``,
``POST .../penalties``, ``GET .../export.csv`` and ``.json``; errors are ``{"error", "code"}``
with a 4xx status. EMA 2016 table rules as in tests/test_tournament_standings.py.
"""

from __future__ import annotations

import csv
import io
import shutil
from itertools import combinations

import pytest

from companion.table import service as table_service
from companion.table.store import Store
from companion.web import create_app

NAMES = [f"Player {i:02d}" for i in range(1, 17)]


@pytest.fixture()
def app(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path), "TESTING": True})
    if "tournament" not in app.blueprints:
        from companion.web.tournament_api import bp

        app.register_blueprint(bp)
    return app


@pytest.fixture()
def client(app):
    return app.test_client()


def create(client, **extra) -> dict:
    body = {"name": "Club Cup", "rules": "ema2016", "rounds": 5, "players": NAMES, **extra}
    r = client.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def finish_round(app, rnd: dict, winner_seat: int = 1) -> None:
    """Every table: the player in ``winner_seat`` rons East for 3 han 30 fu (or East tsumo), end."""
    store = Store(app.config["DATABASE"])
    for t in rnd["tables"]:
        names = [s["name"] for s in t["seats"]]
        win = {"type": "win", "winners": [{"player": names[winner_seat], "han": 3, "fu": 30}],
               "discarder": names[0] if winner_seat else None}
        table_service.append_event(store, t["game_id"], win, "w", 1)
        table_service.append_event(store, t["game_id"], {"type": "end"}, "e", 2)


def error(r, status: int, code: str | None = None) -> str:
    assert r.status_code == status, r.get_json()
    body = r.get_json()
    assert set(body) >= {"error", "code"} and body["error"]
    if code:
        assert body["code"] == code
    return body["error"]


def test_create_list_and_read(client) -> None:
    t = create(client, players=[{"name": n, "club": "Ryanzou", "country": "DE"} for n in NAMES])
    assert t["rounds_total"] == 5 and len(t["players"]) == 16
    assert t["players"][0] == {"id": "p1", "name": "Player 01", "club": "Ryanzou", "country": "DE",
                               "ema_id": None, "active": True, "joined_round": 1,
                               "withdrawn_after_round": None, "withdraw_reason": None}
    # the whole plan is known (and printable) before round 1, free of repeat meetings
    assert t["plan"]["repeat_meetings"] == 0 and len(t["plan"]["rounds"]) == 5
    listed = client.get("/api/tournaments").get_json()["tournaments"]
    assert [x["id"] for x in listed] == [t["id"]] and listed[0]["players"] == 16
    got = client.get(f"/api/tournaments/{t['id']}").get_json()
    assert got["standings"][0]["total"] == 0 and got["rounds"] == []


def test_seating_a_round_creates_one_game_per_table_in_seat_order(client) -> None:
    t = create(client)
    r = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "seat-1"})
    assert r.status_code == 201
    rnd = r.get_json()["round"]
    assert rnd["round"] == 1 and len(rnd["tables"]) == 4
    names = {p["id"]: p["name"] for p in t["players"]}
    for table, planned in zip(rnd["tables"], t["plan"]["rounds"][0]["tables"], strict=True):
        game = client.get(f"/api/games/{table['game_id']}").get_json()
        # East first: the game's players are the tournament players in seat order
        assert game["players"] == [names[p] for p in planned["seats"]]
        assert game["preset"] == "ema2016" and game["rules"]["uma"] == [15, 5, -5, -15]
        assert not table["finished"]


def test_seating_twice_with_the_same_client_id_returns_the_same_round(client) -> None:
    t = create(client)
    first = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "tap"}).get_json()
    again = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "tap"})
    assert again.status_code == 200 and again.get_json()["duplicate"] is True
    assert [x["game_id"] for x in again.get_json()["round"]["tables"]] == \
        [x["game_id"] for x in first["round"]["tables"]]
    assert len(client.get("/api/games").get_json()["games"]) == 4


def test_five_rounds_played_nobody_meets_twice_and_totals_add_up(app, client) -> None:
    t = create(client)
    for r in range(1, 6):
        rnd = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": f"r{r}"}).get_json()["round"]
        finish_round(app, rnd)
    view = client.get(f"/api/tournaments/{t['id']}").get_json()
    met = {}
    for rnd in view["rounds"]:
        for table in rnd["tables"]:
            for a, b in combinations([s["player"] for s in table["seats"]], 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    assert len(met) == 120 and max(met.values()) == 1
    assert view["progress"]["complete"] is True and view["meetings"]["repeat_meetings"] == 0
    # each table: South +18,900, West and North 0, East -18,900 (see the standings tests)
    by_seat = {"E": -18900, "S": 18900, "W": 0, "N": 0}
    want = dict.fromkeys((p["id"] for p in view["players"]), 0)
    for rnd in view["rounds"]:
        for table in rnd["tables"]:
            for s in table["seats"]:
                want[s["player"]] += by_seat[s["wind"]]
    assert {r["player"]: r["total"] for r in view["standings"]} == want
    assert all(r["games"] == 5 for r in view["standings"])
    r = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "r6"})
    assert "all 5 rounds are seated" in error(r, 409, "conflict")


def test_next_round_waits_for_open_tables_unless_forced(app, client) -> None:
    t = create(client)
    client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "a"})
    r = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "b"})
    assert "table(s) 1, 2, 3, 4" in error(r, 409, "conflict")
    r = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "b", "force": True})
    assert r.status_code == 201 and r.get_json()["round"]["round"] == 2


def test_swiss_rounds_seat_the_leaders_together(app, client) -> None:
    t = create(client, rounds=3, seating="swiss", swiss_from=2)
    assert len(t["plan"]["rounds"]) == 1  # only round 1 is planned ahead
    rnd1 = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "1"}).get_json()["round"]
    finish_round(app, rnd1)
    leaders = [s["player"] for tb in rnd1["tables"] for s in tb["seats"] if s["wind"] == "S"]
    rnd2 = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "2"}).get_json()["round"]
    assert rnd2["mode"] == "swiss"
    assert sorted(s["player"] for s in rnd2["tables"][0]["seats"]) == sorted(leaders)
    r = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "3", "force": True})
    assert "Swiss" in error(r, 409, "conflict")


def test_withdrawn_player_keeps_results_and_is_not_seated_again(app, client) -> None:
    t = create(client, rounds=3)
    rnd1 = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "1"}).get_json()["round"]
    finish_round(app, rnd1)
    south = rnd1["tables"][0]["seats"][1]["player"]
    r = client.post(f"/api/tournaments/{t['id']}/players/{south}/withdraw", json={"client_id": "w", "reason": "ill"})
    assert r.status_code == 201
    again = client.post(f"/api/tournaments/{t['id']}/players/{south}/withdraw", json={"client_id": "w", "reason": "ill"})
    assert again.status_code == 200 and again.get_json()["duplicate"] is True
    r = client.post(f"/api/tournaments/{t['id']}/players/{south}/withdraw", json={"client_id": "w2"})
    assert "withdrawn already" in error(r, 409, "conflict")
    r = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "2"})
    assert "15 active players" in error(r, 400) and "add 1 player" in error(r, 400)
    r = client.post(f"/api/tournaments/{t['id']}/players", json={"client_id": "sub", "name": "Substitute"})
    assert r.status_code == 201
    sub = r.get_json()["entry"]["player"]["id"]
    rnd2 = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "2"}).get_json()["round"]
    seated = [s["player"] for tb in rnd2["tables"] for s in tb["seats"]]
    assert south not in seated and sub in seated
    row = next(x for x in client.get(f"/api/tournaments/{t['id']}").get_json()["standings"] if x["player"] == south)
    assert row["withdrawn"] and row["total"] == 18900 and row["games"] == 1


def test_penalties_via_api(client) -> None:
    t = create(client)
    r = client.post(f"/api/tournaments/{t['id']}/penalties",
                    json={"player": "p3", "points": 10000, "reason": "slow play", "client_id": "pen1"})
    assert r.status_code == 201
    row = next(x for x in r.get_json()["tournament"]["standings"] if x["player"] == "p3")
    assert row["total"] == -10000 and r.get_json()["tournament"]["penalties"][0]["reason"] == "slow play"
    assert "reason" in error(client.post(f"/api/tournaments/{t['id']}/penalties",
                                         json={"player": "p3", "points": 1000, "client_id": "x"}), 400)
    assert "unknown player" in error(client.post(f"/api/tournaments/{t['id']}/penalties",
                                                 json={"player": "nobody", "points": 1000, "reason": "r",
                                                       "client_id": "y"}), 400)


def test_exports_parse_back(app, client) -> None:
    t = create(client, rounds=2, players=[{"name": n, "ema_id": f"0400{i:04d}", "country": "DE"}
                                          for i, n in enumerate(NAMES)])
    rnd = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "1"}).get_json()["round"]
    finish_round(app, rnd)
    view = client.get(f"/api/tournaments/{t['id']}").get_json()

    r = client.get(f"/api/tournaments/{t['id']}/export.json")
    data = r.get_json()
    assert data["format"] == "mahjong-companion-tournament" and data["standings"] == view["standings"]

    r = client.get(f"/api/tournaments/{t['id']}/export.csv")
    assert r.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
    assert len(rows) == 16
    assert [float(x["total"]) for x in rows] == [float(s["total"]) for s in view["standings"]]
    assert rows[0]["round_1"] == "18900" and rows[0]["round_2"] == ""

    games = list(csv.DictReader(io.StringIO(
        client.get(f"/api/tournaments/{t['id']}/export.csv?kind=games").get_data(as_text=True))))
    assert len(games) == 16 and {g["wind"] for g in games} == set("ESWN")
    east = [g for g in games if g["wind"] == "E"]
    assert all((g["rank"], g["points"], g["score"]) == ("4", "26100", "-18900") for g in east)

    ema = list(csv.DictReader(io.StringIO(
        client.get(f"/api/tournaments/{t['id']}/export.csv?kind=ema").get_data(as_text=True))))
    assert list(ema[0]) == ["rank", "name", "ema_id", "country", "club", "total", "R1", "R2"]
    assert ema[0]["total"] == "18.9" and ema[0]["R1"] == "18.9" and ema[-1]["total"] == "-18.9"
    assert ema[0]["ema_id"].startswith("0400")
    assert "kind" in error(client.get(f"/api/tournaments/{t['id']}/export.csv?kind=xml"), 400)


@pytest.mark.parametrize(("body", "status", "code", "says"), [
    ({"rounds": 4, "players": NAMES[:14]}, 400, "invalid_request", "add 2 players"),
    ({"rounds": 4, "players": NAMES + ["x", "y"]}, 400, "invalid_request", "18 active players"),
    ({"rounds": 4, "players": NAMES[:15] + ["player 01"]}, 400, "invalid_request", "two players are called"),
    ({"rounds": 0, "players": NAMES}, 400, "invalid_request", "rounds"),
    ({"rounds": 4, "players": NAMES, "rules": "nope"}, 400, "unknown_rules", "unknown rules preset"),
    ({"rounds": 4, "players": NAMES, "overrides": {"uma": [1, 2]}}, 400, "unknown_rules", "uma"),
    ({"rounds": 4, "players": NAMES, "seating": "random"}, 400, "invalid_request", "seating"),
    ({"rounds": 4}, 400, "invalid_request", "players"),
])
def test_create_errors(client, body: dict, status: int, code: str, says: str) -> None:
    r = client.post("/api/tournaments", json={"name": "Cup", **body})
    assert says in error(r, status, code)


def test_other_errors(client) -> None:
    assert "no tournament" in error(client.get("/api/tournaments/nope"), 404, "not_found")
    assert "no tournament" in error(client.post("/api/tournaments/nope/rounds", json={"client_id": "a"}), 404)
    assert "JSON" in error(client.post("/api/tournaments", data="x", content_type="text/plain"), 400)
    t = create(client)
    assert "client_id" in error(client.post(f"/api/tournaments/{t['id']}/rounds", json={}), 400)
    assert "force" in error(client.post(f"/api/tournaments/{t['id']}/rounds",
                                        json={"client_id": "a", "force": "yes"}), 400)
    assert "name" in error(client.post("/api/tournaments", json={"rounds": 4, "players": NAMES}), 400)


def test_create_is_idempotent_with_a_client_id(client) -> None:
    a = client.post("/api/tournaments", json={"name": "Cup", "rounds": 4, "players": NAMES, "client_id": "c"})
    b = client.post("/api/tournaments", json={"name": "Cup", "rounds": 4, "players": NAMES, "client_id": "c"})
    assert (a.status_code, b.status_code) == (201, 200) and a.get_json()["id"] == b.get_json()["id"]
    assert len(client.get("/api/tournaments").get_json()["tournaments"]) == 1


def test_scorekeeper_page_is_served(client) -> None:
    t = create(client, rounds=1)
    for path in ("/tournament", f"/tournament/{t['id']}"):
        r = client.get(path)
        assert r.status_code == 200 and b"tournament.js" in r.data
    assert f'data-tournament="{t["id"]}"'.encode() in client.get(f"/tournament/{t['id']}").data
    assert client.get("/static/tournament.css").status_code == 200


def test_a_round_seated_by_mistake_can_be_taken_back_until_a_game_starts(app, client) -> None:
    t = create(client)
    first = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "r1"}).get_json()["round"]
    r = client.post(f"/api/tournaments/{t['id']}/rounds/1/cancel", json={"client_id": "c1"})
    assert "reason" in error(r, 400)
    r = client.post(f"/api/tournaments/{t['id']}/rounds/1/cancel", json={"client_id": "c1", "reason": "too early"})
    assert r.status_code == 201 and r.get_json()["tournament"]["rounds"] == []
    again = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "r1b"}).get_json()["round"]
    # the same planned seating, new games
    assert [[s["player"] for s in tb["seats"]] for tb in again["tables"]] == \
        [[s["player"] for s in tb["seats"]] for tb in first["tables"]]
    assert {tb["game_id"] for tb in again["tables"]}.isdisjoint(tb["game_id"] for tb in first["tables"])
    finish_round(app, {"tables": again["tables"][:1]})
    r = client.post(f"/api/tournaments/{t['id']}/rounds/1/cancel", json={"client_id": "c2", "reason": "x"})
    assert "has started at table(s) 1" in error(r, 409, "conflict")
    r = client.post(f"/api/tournaments/{t['id']}/rounds/2/cancel", json={"client_id": "c3", "reason": "x"})
    assert "only the last seated round" in error(r, 409, "conflict")


def test_every_round_keeps_the_rules_the_tournament_started_with(client, tmp_path, monkeypatch) -> None:
    # the preset file changes between rounds (someone edits ema2016.toml): games seated later
    # must still be played with the uma the tournament was created with
    from companion.table import rules

    t = create(client, overrides={"length": "east"})
    changed = tmp_path / "presets"
    shutil.copytree(rules.PRESET_DIR, changed)
    text = (changed / "ema2016.toml").read_text()
    (changed / "ema2016.toml").write_text(text.replace("uma = [15, 5, -5, -15]", "uma = [20, 10, -10, -20]"))
    monkeypatch.setattr(rules, "PRESET_DIR", changed)
    rules._preset_table.cache_clear()
    try:
        assert rules.table_rules("ema2016").uma == (20, 10, -10, -20)
        rnd = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "r1"}).get_json()["round"]
        game = client.get(f"/api/games/{rnd['tables'][0]['game_id']}").get_json()
        assert game["rules"]["uma"] == [15, 5, -5, -15] and game["rules"]["length"] == "east"
    finally:
        monkeypatch.undo()
        rules._preset_table.cache_clear()


def test_rounds_can_be_cut_or_added(app, client) -> None:
    t = create(client)  # 16 players, 5 rounds
    rnd = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "r1"}).get_json()["round"]
    finish_round(app, rnd)
    r = client.post(f"/api/tournaments/{t['id']}/settings", json={"rounds": 0, "client_id": "s0"})
    assert "rounds" in error(r, 400)
    r = client.post(f"/api/tournaments/{t['id']}/settings", json={"rounds": 2, "reason": "late", "client_id": "s1"})
    view = r.get_json()["tournament"]
    assert view["rounds_total"] == 2 and len(view["standings"][0]["round_scores"]) == 2
    rnd = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "r2"}).get_json()["round"]
    r = client.post(f"/api/tournaments/{t['id']}/settings", json={"rounds": 1, "client_id": "s2"})
    assert "2 rounds are seated already" in error(r, 409, "conflict")
    assert "all 2 rounds" in error(client.post(f"/api/tournaments/{t['id']}/rounds",
                                               json={"client_id": "r3", "force": True}), 409)
    # six rounds for 16 players: after five perfect rounds everybody has met everybody, so the
    # sixth round is planned from the history and must repeat 4 x 6 = 24 pairs, no more
    finish_round(app, rnd)
    client.post(f"/api/tournaments/{t['id']}/settings", json={"rounds": 6, "client_id": "s3"})
    for r in range(3, 7):
        rnd = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": f"r{r}"}).get_json()["round"]
        finish_round(app, rnd)
    view = client.get(f"/api/tournaments/{t['id']}").get_json()
    assert view["progress"]["complete"] and view["meetings"]["max_meetings"] == 2
    assert view["meetings"]["repeat_meetings"] == 24


def test_players_of_one_club_are_kept_apart_when_asked(client) -> None:
    # 4 clubs of 4: each player has 12 players of other clubs to meet in 4 rounds of 3 opponents,
    # which the affine plane of order 4 allows (clubs as one parallel class, the rounds the others)
    players = [{"name": n, "club": f"Club {i % 4}"} for i, n in enumerate(NAMES)]
    t = create(client, rounds=4, players=players, keep_apart="club")
    club = {p["id"]: p["club"] for p in t["players"]}
    met = {}
    for rnd in t["plan"]["rounds"]:
        for table in rnd["tables"]:
            assert len({club[p] for p in table["seats"]}) == 4
            for a, b in combinations(table["seats"], 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    assert max(met.values()) == 1
    assert t["plan"]["kept_apart_meetings"] == 0
    r = client.post("/api/tournaments", json={"name": "X", "rounds": 4, "players": NAMES, "keep_apart": "team"})
    assert "keep_apart" in error(r, 400)


def test_round_clock_starts_and_stops(client) -> None:
    t = create(client)
    client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "r1"})
    r = client.post(f"/api/tournaments/{t['id']}/clock", json={"minutes": 90, "client_id": "k1"})
    clock = r.get_json()["tournament"]["clock"]
    assert clock["round"] == 1 and clock["minutes"] == 90
    # 90 minutes from the start; the request itself takes far less than a minute
    assert 89 * 60 <= clock["remaining_seconds"] <= 90 * 60
    assert "minutes" in error(client.post(f"/api/tournaments/{t['id']}/clock",
                                          json={"minutes": -5, "client_id": "k2"}), 400)
    r = client.post(f"/api/tournaments/{t['id']}/clock", json={"minutes": 0, "client_id": "k3"})
    assert r.get_json()["tournament"]["clock"] is None


def test_a_table_tablet_finds_its_game_of_the_latest_round(app, client) -> None:
    t = create(client, rounds=2)
    waiting = client.get(f"/api/tournaments/{t['id']}/tables/3").get_json()
    assert waiting["round"] is None and waiting["game_id"] is None
    rnd = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "r1"}).get_json()["round"]
    now = client.get(f"/api/tournaments/{t['id']}/tables/3").get_json()
    table3 = rnd["tables"][2]
    assert (now["round"], now["game_id"], now["finished"]) == (1, table3["game_id"], False)
    assert [s["wind"] for s in now["seats"]] == list("ESWN")
    assert [s["player"] for s in now["seats"]] == [s["player"] for s in table3["seats"]]
    finish_round(app, rnd)
    assert client.get(f"/api/tournaments/{t['id']}/tables/3").get_json()["finished"] is True
    assert client.get(f"/api/tournaments/{t['id']}/tables/9").get_json()["game_id"] is None
    page = client.get(f"/tournament/{t['id']}/table/3")
    assert page.status_code == 200 and b'data-table="3"' in page.data


def test_a_table_played_on_paper_gets_its_result_from_the_score_sheet(client) -> None:
    t = create(client, rounds=1)
    rnd = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "r1"}).get_json()["round"]
    url = f"/api/tournaments/{t['id']}/rounds/1/tables/2/result"
    bad = client.post(url, json={"client_id": "p0", "points": {"E": 40000, "S": 30000, "W": 30000, "N": 30000}})
    assert "add up to 130,000, not 4 x 30,000 = 120,000" in error(bad, 400)
    # the hand-computed result of script B in the standings tests, without the chombo:
    # E 41,700 -> +26,700; S, W, N 26,100 share 2nd-4th -> -8,900 each
    sheet = {"E": 41700, "S": 26100, "W": 26100, "N": 26100}
    r = client.post(url, json={"client_id": "p1", "points": sheet})
    assert r.status_code == 201
    again = client.post(url, json={"client_id": "p1", "points": sheet})  # a retry changes nothing
    assert again.status_code == 201 and len(again.get_json()["game"]["history"]) == 2
    view = again.get_json()["tournament"]
    seats = rnd["tables"][1]["seats"]
    totals = {row["player"]: row["total"] for row in view["standings"]}
    assert [totals[s["player"]] for s in seats] == [26700, -8900, -8900, -8900]
    assert view["rounds"][0]["tables"][1]["finished"] is True
    # a table that used its tablet keeps its hands: no paper result over them
    store = Store(client.application.config["DATABASE"])
    names = [s["name"] for s in rnd["tables"][0]["seats"]]
    table_service.append_event(store, rnd["tables"][0]["game_id"], {"type": "riichi", "player": names[0]}, "x", 1)
    r = client.post(f"/api/tournaments/{t['id']}/rounds/1/tables/1/result", json={"client_id": "p2", "points": sheet})
    assert "entered hands on its tablet" in error(r, 409, "conflict")


def test_a_corrected_score_sheet_entered_again_replaces_the_paper_result(client) -> None:
    # QA: the sheet had East and South swapped; entering it again answered 201 and changed nothing.
    # EMA 2016 (30,000 start and return, uma 15/5/-5/-15, shared places average the uma), by hand:
    # first sheet E 40,000 +25,000; S, W 30,000 share 2nd-3rd: uma (5 - 5) / 2 = 0; N 20,000 -25,000;
    # corrected sheet S 40,000 +25,000; E, W 0; N -25,000
    t = create(client, rounds=1)
    rnd = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "r1"}).get_json()["round"]
    url = f"/api/tournaments/{t['id']}/rounds/1/tables/1/result"
    seats = [s["player"] for s in rnd["tables"][0]["seats"]]
    r = client.post(url, json={"points": {"E": 40000, "S": 30000, "W": 30000, "N": 20000}, "client_id": "p2"})
    totals = {row["player"]: row["total"] for row in r.get_json()["tournament"]["standings"]}
    assert r.status_code == 201 and [totals[p] for p in seats] == [25000, 0, 0, -25000]
    corrected = {"E": 30000, "S": 40000, "W": 30000, "N": 20000}
    for bad, words in (({**corrected, "N": 30000}, "add up to 130,000"), ({"E": 30000, "S": 40000}, '"points"'),
                       ({**corrected, "E": 30000.5, "W": 29999.5}, "whole numbers")):
        assert words in error(client.post(url, json={"points": bad, "client_id": "p3"}), 400)
    r = client.post(url, json={"points": corrected, "client_id": "p3"})
    assert r.status_code == 201
    game, view = r.get_json()["game"], r.get_json()["tournament"]
    assert game["finished"] and [game["scores"][n] for n in game["players"]] == [30000, 40000, 30000, 20000]
    # the log keeps the first sheet and the correction to the second
    assert [h["type"] for h in game["history"]] == ["correction", "end", "correction"]
    assert list(game["history"][2]["deltas"].values()) == [-10000, 10000, 0, 0]
    assert "E 30,000, S 40,000, W 30,000, N 20,000" in game["history"][2]["event"]["reason"]
    totals = {row["player"]: row["total"] for row in view["standings"]}
    assert [totals[p] for p in seats] == [0, 25000, 0, -25000]
    result = view["rounds"][0]["tables"][0]
    assert result["finished"] and [s["result"]["rank"] for s in result["seats"]] == [2, 1, 2, 4]
    # the page keeps the score-sheet form of a table played on paper (and only of such a table), so that
    # the corrected sheet is entered there as the first was
    assert result["paper"] is True and result["started"] is True
    assert [tb["paper"] for tb in view["rounds"][0]["tables"][1:]] == [False, False, False]
    store = Store(client.application.config["DATABASE"])
    names = [s["name"] for s in rnd["tables"][1]["seats"]]
    table_service.append_event(store, rnd["tables"][1]["game_id"], {"type": "riichi", "player": names[0]}, "x", 1)
    tables = client.get(f"/api/tournaments/{t['id']}").get_json()["rounds"][0]["tables"]
    assert (tables[1]["started"], tables[1]["paper"]) == (True, False)


def test_hong_kong_tallies_are_not_printed_in_thousands(client) -> None:
    # seed 004 family defaults: start at 0, no uma or oka, so a game's score is its tally
    r = client.post("/api/tournaments", json={"name": "HK night", "rules": "hongkong", "rounds": 1,
                                              "players": ["A", "B", "C", "D"]})
    t = r.get_json()
    rnd = client.post(f"/api/tournaments/{t['id']}/rounds", json={"client_id": "r1"}).get_json()["round"]
    client.post(f"/api/tournaments/{t['id']}/rounds/1/tables/1/result",
                json={"client_id": "p", "points": {"E": 96, "S": -32, "W": -32, "N": -32}})
    ema = list(csv.DictReader(io.StringIO(
        client.get(f"/api/tournaments/{t['id']}/export.csv?kind=ema").get_data(as_text=True))))
    east = next(p["name"] for p in t["players"] if p["id"] == rnd["tables"][0]["seats"][0]["player"])
    assert (ema[0]["name"], ema[0]["total"], ema[0]["R1"]) == (east, "96", "96")
    assert [row["total"] for row in ema[1:]] == ["-32", "-32", "-32"]
