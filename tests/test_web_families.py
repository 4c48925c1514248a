"""The page and the JSON API for Hong Kong, classical and old Japanese games (issue 5), with the
Flask test client: the form offers the families, and the win events the page builds for them
(a scoring request with ``rules`` and ``flowers``, ``payments_by_seat``, ``values_by_seat``) are
previewed and applied with the payments worked out by hand from the seeds.
"""

from __future__ import annotations

import re
import tempfile

import pytest

from companion.web import create_app

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]


@pytest.fixture()
def client(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "TESTING": True})
    return app.test_client()


def _new_game(client, preset: str) -> dict:
    r = client.post("/api/games", json={"rules": preset, "overrides": {}, "players": PLAYERS})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_new_game_form_lists_the_three_families_apart_from_riichi(client):
    html = client.get("/").get_data(as_text=True)
    other = re.search(r'<optgroup label="Other rule families"[^>]*>(.*?)</optgroup>', html, re.S)
    assert other, "the families have their own optgroup"
    assert re.findall(r'value="(\w+)"', other.group(1)) == ["hongkong", "classical", "oldjapanese"]
    riichi = re.search(r'<optgroup label="Riichi"[^>]*>(.*?)</optgroup>', html, re.S).group(1)
    assert "hongkong" not in riichi and "ema2016" in riichi


@pytest.mark.parametrize("preset, riichi, start", [("hongkong", False, 0), ("classical", False, 0),
                                                   ("oldjapanese", True, 27000)])
def test_family_game_state_tells_the_page_what_to_hide(client, preset, riichi, start):
    # seed 004 and 002: no riichi, everyone starts at 0; seed 001: riichi, 27,000 in sticks
    st = _new_game(client, preset)
    assert st["family"] == preset and st["rules"]["riichi"] is riichi
    assert set(st["scores"].values()) == {start} and st["dealer"] == "Ann"


def test_hong_kong_ron_request_as_the_page_sends_it(client):
    st = _new_game(client, "hongkong")
    # Bob (South) rons Cid's discard; flowers as typed ("2f" = flower 2, South's own).
    # Seed 004: own flower 1 + mixed one suit 3 + dragon pung 1 = 5 fan (concealed hand does not
    # count with bonus tiles in play); full doubling 2^5 = 32, the discarder pays all.
    ev = {"type": "win", "discarder": "Cid", "winners": [{"player": "Bob", "request": {
        "hand": "123m456m789m555z99m", "win_tile": "9m", "rules": "hongkong", "flowers": "2f"}}]}
    r = client.post(f"/api/games/{st['id']}/preview", json=ev)
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["deltas"] == {"Ann": 0, "Bob": 32, "Cid": -32, "Dan": 0}
    assert body["detail"]["winners"][0]["fan"] == 5


def test_classical_values_by_seat_from_the_values_mode(client):
    st = _new_game(client, "classical")
    # seed 002 settlement: South 304 collects 608 from East, 304 from West and North
    ev = {"type": "win", "discarder": None,
          "winners": [{"player": "Bob", "values_by_seat": {"E": 0, "S": 304, "W": 0, "N": 0}}]}
    r = client.post(f"/api/games/{st['id']}/events", json={**ev, "client_id": "c1", "expected_seq": st["next_seq"]})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["scores"] == {"Ann": -608, "Bob": 1216, "Cid": -304, "Dan": -304}


def test_classical_penalty_from_the_chombo_dialog(client):
    st = _new_game(client, "classical")
    # the page sends what the table agreed: Cid (West) pays 100 to each of the three others
    ev = {"type": "chombo", "player": "Cid", "payments_by_seat": {"E": 100, "S": 100, "W": -300, "N": 100}}
    r = client.post(f"/api/games/{st['id']}/events", json={**ev, "client_id": "c1", "expected_seq": st["next_seq"]})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["scores"] == {"Ann": 100, "Bob": 100, "Cid": -300, "Dan": 100}


def test_classical_settlement_api_from_four_hand_values():
    # seed 002's example: South wins with 304, the others hold nothing: each pays 304, East double
    app = create_app({"TESTING": True, "INSTANCE_PATH": tempfile.mkdtemp()})
    client = app.test_client()
    r = client.post("/api/settle/classical", json={"values_by_seat": {"E": 0, "S": 304, "W": 0, "N": 0},
                                                   "winner": "S"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["payments_by_seat"] == {"E": -608, "S": 1216, "W": -304, "N": -304}
    # losers settle differences: West 20 vs North 0 -> North pays West 20; East 36 receives double from both
    # (E-W: 2 * 16 = 32 to East; E-N: 2 * 36 = 72 to East); South collects 2 * 304 + 304 + 304 = 1216
    r = client.post("/api/settle/classical", json={"values_by_seat": {"E": 36, "S": 304, "W": 20, "N": 0},
                                                   "winner": "S"})
    assert r.get_json()["payments_by_seat"] == {"E": -608 + 32 + 72, "S": 1216, "W": -304 - 32 + 20,
                                                "N": -304 - 72 - 20}
    bad = client.post("/api/settle/classical", json={"values_by_seat": {"E": 1}, "winner": "S"})
    assert bad.status_code == 400 and bad.get_json()["code"]
