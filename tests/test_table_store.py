"""Storage and service: durable, idempotent, conflict-safe appends; export/import round trips."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from contextlib import closing
from pathlib import Path

import pytest

from companion.errors import TableError, UnknownRulesError
from companion.table import service
from companion.table.game import fold
from companion.table.store import ConflictError, GameNotFoundError, Store

P = ["Ann", "Bob", "Cid", "Dan"]
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "instance" / "companion.sqlite3")


def new_game(store, preset="ryanzou"):
    return service.create_game(store, preset, {}, P)["id"]


def test_database_uses_wal_and_full_sync(store):
    with closing(store._connect()) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert con.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_create_list_load(store):
    gid = new_game(store)
    games = store.list_games()
    assert [g["id"] for g in games] == [gid]
    assert games[0]["players"] == P and games[0]["preset"] == "ryanzou" and games[0]["finished"] is False
    game, events = store.load(gid)
    assert game["players"] == P and events == []


def test_create_game_checks_rules_and_players(store):
    with pytest.raises(TableError, match="four"):
        service.create_game(store, "wrc", {}, ["A", "B"])
    with pytest.raises(UnknownRulesError, match="nope"):
        service.create_game(store, "wrc", {"nope": 1}, P)
    assert store.list_games() == []


def test_unknown_game_is_not_found(store):
    with pytest.raises(GameNotFoundError) as e:
        service.game_state(store, "missing")
    assert e.value.code == "not_found"


def test_retry_with_the_same_client_id_does_not_apply_twice(store):
    gid = new_game(store)
    a = service.append_event(store, gid, {"type": "riichi", "player": "Bob"}, "tab1-1", 1)
    b = service.append_event(store, gid, {"type": "riichi", "player": "Bob"}, "tab1-1", 1)
    assert a["append"] == {"seq": 1, "duplicate": False}
    assert b["append"] == {"seq": 1, "duplicate": True}
    assert b["scores"]["Bob"] == 24000 and len(store.load(gid)[1]) == 1
    # the store alone answers the same way
    assert store.append(gid, {"type": "riichi", "player": "Bob"}, "tab1-1", 7) == (1, True)


def test_stale_expected_seq_is_a_conflict_naming_the_current_seq(store):
    gid = new_game(store)
    service.append_event(store, gid, {"type": "riichi", "player": "Bob"}, "tab1-1", 1)
    with pytest.raises(ConflictError, match="number 2") as e:
        service.append_event(store, gid, {"type": "riichi", "player": "Cid"}, "tab2-1", 1)
    assert e.value.code == "conflict"
    with pytest.raises(ConflictError):
        store.append(gid, {"type": "riichi", "player": "Cid"}, "tab2-1", 1)
    assert len(store.load(gid)[1]) == 1


def test_invalid_event_is_refused_and_nothing_is_stored(store):
    gid = new_game(store)
    with pytest.raises(TableError, match="unknown player"):
        service.append_event(store, gid, {"type": "riichi", "player": "Eve"}, "c1", 1)
    with pytest.raises(TableError, match="own discard"):
        service.append_event(store, gid, {"type": "win", "discarder": "Bob",
                                          "winners": [{"player": "Bob", "han": 1, "fu": 30}]}, "c2", 1)
    assert store.load(gid)[1] == []
    assert service.game_state(store, gid)["next_seq"] == 1


def test_finished_flag_in_the_listing(store):
    gid = new_game(store)
    service.append_event(store, gid, {"type": "end"}, "c1", 1)
    assert store.list_games()[0]["finished"] is True


def test_two_tablets_racing_never_lose_or_double_an_event(store):
    gid = new_game(store, "ema2016")
    acked: list[tuple[str, int]] = []
    lock = threading.Lock()

    def tablet(name):
        for i in range(10):
            cid = f"{name}-{i}"
            while True:
                seq = service.game_state(store, gid)["next_seq"]
                try:
                    out = service.append_event(store, gid, {"type": "correction", "deltas": {"Ann": 100},
                                                            "reason": cid}, cid, seq)
                except ConflictError:
                    continue
                with lock:
                    acked.append((cid, out["append"]["seq"]))
                break

    threads = [threading.Thread(target=tablet, args=(f"t{k}",)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    _, events = store.load(gid)
    assert len(events) == 40 and sorted(s for _, s in acked) == list(range(1, 41))
    assert {e["client_id"]: e["seq"] for e in events} == dict(acked)
    assert service.game_state(store, gid)["scores"]["Ann"] == 30000 + 40 * 100


def test_export_and_import_give_the_same_state(store):
    gid = new_game(store)
    events = [{"type": "riichi", "player": "Bob"},
              {"type": "win", "discarder": "Cid", "winners": [{"player": "Bob", "han": 2, "fu": 40}]},
              {"type": "draw", "tenpai": ["Ann"]},
              {"type": "chombo", "player": "Dan"},
              {"type": "undo", "target_seq": 4},
              {"type": "correction", "deltas": {"Ann": -100, "Bob": 100}, "reason": "miscount"}]
    for i, ev in enumerate(events):
        service.append_event(store, gid, ev, f"c{i}", i + 1)
    data = json.loads(json.dumps(store.export_game(gid)))  # through real JSON
    other = Store(store.path.parent / "other.sqlite3")
    new = other.import_game(data)
    assert new["id"] == gid
    a, b = service.game_state(store, gid), service.game_state(other, gid)
    assert a == b
    # importing into the same store keeps both games apart
    again = store.import_game(data)
    assert again["id"] != gid and service.game_state(store, again["id"])["scores"] == a["scores"]


def test_import_refuses_a_broken_log(store):
    gid = new_game(store)
    service.append_event(store, gid, {"type": "riichi", "player": "Bob"}, "c1", 1)
    data = store.export_game(gid)
    data["events"].append({"type": "riichi", "player": "Bob", "seq": 2, "client_id": "c2"})
    with pytest.raises(TableError, match="already declared riichi"):
        Store(store.path.parent / "x.sqlite3").import_game(data)
    with pytest.raises(TableError, match="format"):
        store.import_game({"game": {}, "events": []})


def _export_with(store, game=None, events=None):
    """An export of a fresh game (made in a scratch store) with its game record or events replaced."""
    scratch = Store(store.path.parent / "scratch.sqlite3")
    data = scratch.export_game(new_game(scratch))
    data["game"].update(game or {})
    if events is not None:
        data["events"] = events
    return data


@pytest.mark.parametrize("events, text", [
    # QA's file: 5 and "5" are one client_id to SQLite; the tablet only ever sends strings
    ([{"type": "riichi", "player": "Ann", "client_id": 5},
      {"type": "riichi", "player": "Bob", "client_id": "5"}], "client_id must be a string"),
    ([{"type": "riichi", "player": "Ann", "client_id": "5"},
      {"type": "riichi", "player": "Bob", "client_id": "5"}], "repeat the client_id '5'"),
    ([{"type": "riichi", "player": "Ann", "client_id": ""}], "client_id must be a string"),
    ([{"type": "riichi", "player": "Ann", "client_id": "x" * 201}], "client_id must be a string"),
])
def test_import_holds_client_ids_to_the_rule_of_a_new_event_and_stores_nothing(store, events, text):
    with pytest.raises(TableError, match=text):
        store.import_game(_export_with(store, {"id": "c1d000000000"}, events))
    assert store.list_games() == []


def test_import_gives_an_event_without_client_id_one_of_its_own(store):
    events = [{"type": "riichi", "player": "Ann"}, {"type": "riichi", "player": "Bob", "client_id": "tab-7"}]
    _, stored = store.load(store.import_game(_export_with(store, events=events))["id"])
    assert [e["client_id"] for e in stored] == ["import-1", "tab-7"]


def test_an_import_failing_while_its_events_are_written_leaves_no_game(store, monkeypatch):
    # README: "A refused request changes nothing" - the game and its events are one transaction
    from companion.table import store as store_mod

    monkeypatch.setattr(store_mod, "_import_client_ids", lambda events: ["same"] * len(events))
    events = [{"type": "riichi", "player": "Ann"}, {"type": "riichi", "player": "Bob"}]
    with pytest.raises(sqlite3.IntegrityError):
        store.import_game(_export_with(store, {"id": "c1d000000000"}, events))
    assert store.list_games() == []


@pytest.mark.parametrize("game_id", ["x/y", "../games", "a b", "", "780F03E30BA9", "780f03e30ba", 5, None])
def test_import_replaces_an_id_the_store_would_not_make_by_a_fresh_one(store, game_id):
    new = store.import_game(_export_with(store, {"id": game_id}))
    assert new["id"] != game_id and len(new["id"]) == 12 and set(new["id"]) <= set("0123456789abcdef")
    assert [g["id"] for g in store.list_games()] == [new["id"]]
    assert store.load(new["id"])[0]["players"] == P


@pytest.mark.parametrize("players, text", [
    (["A" * 41, "Bob", "Cid", "Dan"], "player 1's name is longer than 40"),
    (["Ann", "Bob", "Cid", " " + "D" * 41], "player 4's name is longer than 40"),
    (["Ann", "Bob", "Ann ", "Dan"], "must differ"),
    (["Ann", "Bob", "Cid", "\t"], "player 4 needs a name"),
])
def test_import_holds_player_names_to_the_games_api_rules(store, players, text):
    with pytest.raises(TableError, match=text):
        store.import_game(_export_with(store, {"players": players}, events=[]))
    with pytest.raises(TableError, match=text):
        service.create_game(store, "ryanzou", {}, players)
    assert store.list_games() == []


def test_names_of_40_characters_are_allowed(store):
    players = ["A" * 40, "Bob", "Cid", "Dan"]
    gid = store.import_game(_export_with(store, {"players": players}, events=[]))["id"]
    assert store.load(gid)[0]["players"] == players


WRITER = textwrap.dedent("""
    import sys
    from companion.table import service
    from companion.table.store import Store
    store = Store(sys.argv[1])
    gid = sys.argv[2]
    seq = service.game_state(store, gid)["next_seq"]
    i = 0
    while True:
        ev = {"type": "correction", "deltas": {"Ann": 100, "Bob": -100}, "reason": f"n{i}"}
        out = service.append_event(store, gid, ev, f"w-{i}", seq)
        seq = out["append"]["seq"] + 1
        print(out["append"]["seq"], flush=True)   # acknowledged
        i += 1
""")


def test_sigkill_while_writing_loses_no_acknowledged_event(tmp_path):
    db = tmp_path / "crash.sqlite3"
    store = Store(db)
    gid = service.create_game(store, "ryanzou", {}, P)["id"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db), gid], stdout=subprocess.PIPE,
                            text=True, env=env)
    acked = []
    try:
        for line in proc.stdout:
            acked.append(int(line))
            if len(acked) >= 40:
                break
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert len(acked) >= 40, "the writer died before writing"
    with closing(sqlite3.connect(db)) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    game, events = Store(db).load(gid)
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(seqs) + 1))
    assert set(acked) <= set(seqs)
    st = fold(game, events).to_dict()
    assert st["scores"]["Ann"] == 25000 + 100 * len(events)
    assert service.game_state(Store(db), gid) == st


def test_rules_are_kept_with_the_game_when_the_preset_changes(store, monkeypatch):
    gid = new_game(store, "ryanzou")
    from companion.table import rules as rules_mod

    original = dict(rules_mod._preset_table("ryanzou"))
    changed = tuple({**original, "uma": (30, 10, -10, -30)}.items())
    monkeypatch.setattr(rules_mod, "_preset_table", lambda preset: changed)
    assert service.game_state(store, gid)["rules"]["uma"] == [15, 5, -5, -15]
    assert service.create_game(store, "ryanzou", {}, P)["rules"]["uma"] == [30, 10, -10, -30]
    # an export carries the rules too, so an import plays by them
    data = store.export_game(gid)
    assert data["game"]["rules"]["uma"] == [15, 5, -5, -15]
    assert service.game_state(store, store.import_game(data)["id"])["rules"]["uma"] == [15, 5, -5, -15]
