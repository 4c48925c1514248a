"""The JSON API (issue 3 "The page" and issue 4 "On the tablet page") through Flask's test client.

Point values are worked out by hand from the rule texts: seed 000 (EMA 2016 / BGA help): 30,000
start in EMA 2016, riichi costs 1000, base = fu * 2^(han+2), a non-dealer ron pays 4 * base rounded
up to 100, a tsumo splits it 2:1:1 (dealer pays double), 3000 tenpai payment split between the
tenpai and noten players."""

from __future__ import annotations

import io
import json
import sys
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.web import create_app

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]


@pytest.fixture()
def client(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "TESTING": True})
    return app.test_client()


def _new_game(client, preset: str = "ema2016", **overrides) -> dict:
    r = client.post("/api/games", json={"rules": preset, "overrides": overrides, "players": PLAYERS})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _post(client, gid: str, event: dict, client_id: str, expected_seq: int):
    return client.post(f"/api/games/{gid}/events", json={**event, "client_id": client_id, "expected_seq": expected_seq})


def _png() -> bytes:
    image = np.full((40, 60, 3), 200, np.uint8)
    ok, data = cv2.imencode(".png", image)
    assert ok
    return data.tobytes()


def _error(r, status: int, code: str | None = None) -> dict:
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True))
    body = r.get_json()
    assert isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"], body
    if code is not None:
        assert body["code"] == code, body
    return body


# ------------------------------------------------------------------ games


def test_new_game_starts_everyone_on_the_preset_start_points(client):
    # EMA 2016 (seed 000): 30,000 each; the first name is East and deals first
    assert client.get("/api/games").get_json() == {"games": []}
    state = _new_game(client)
    assert state["scores"] == {"Ann": 30000, "Bob": 30000, "Cid": 30000, "Dan": 30000}
    assert state["seat_winds"] == {"Ann": "E", "Bob": "S", "Cid": "W", "Dan": "N"}
    assert state["dealer"] == "Ann" and state["round"] == "E1"
    assert state["honba"] == 0 and state["riichi_sticks"] == 0 and state["finished"] is False
    assert state["next_seq"] == 1 and state["events"] == []
    games = client.get("/api/games").get_json()["games"]
    assert [g["id"] for g in games] == [state["id"]] and games[0]["players"] == PLAYERS


def test_overrides_change_the_start_points(client):
    # seed 003 (Ryanzou): 25,000 start; an override of the start points replaces it
    assert _new_game(client, "ryanzou")["scores"]["Ann"] == 25000
    assert _new_game(client, "ryanzou", start_points=30000)["scores"]["Dan"] == 30000


@pytest.mark.parametrize("body, fragment", [
    ({"rules": "ema2016", "players": ["A", "B", "C"]}, "four names"),
    ({"rules": "ema2016", "players": ["A", "A", "C", "D"]}, "differ"),
    ({"rules": "ema2016", "players": ["A", "", "C", "D"]}, "player 2"),
    ({"rules": "ema2016", "players": ["A", "B", "C", "D" * 41]}, "player 4's name is longer than 40"),
    ({"rules": "ema2016", "players": ["A", "B ", " B", "D"]}, "differ"),
    ({"rules": "ema2016", "players": PLAYERS, "overrides": [1]}, "overrides"),
    ({"rules": "ema2016", "players": PLAYERS, "colour": "red"}, "colour"),
])
def test_bad_new_game_is_refused_with_a_reason(client, body, fragment):
    err = _error(client.post("/api/games", json=body), 400, "invalid_request")
    assert fragment in err["error"]
    assert client.get("/api/games").get_json() == {"games": []}


def test_unknown_preset_and_unknown_override_are_400(client):
    _error(client.post("/api/games", json={"rules": "nosuch", "players": PLAYERS}), 400)
    _error(client.post("/api/games", json={"rules": "ema2016", "overrides": {"nosuch": 1}, "players": PLAYERS}), 400)
    assert client.get("/api/games").get_json() == {"games": []}


def test_body_that_is_not_json_is_a_clear_400(client):
    err = _error(client.post("/api/games", data="players=4", content_type="text/plain"), 400, "invalid_request")
    assert "JSON" in err["error"]
    _error(client.post("/api/games", json=[1, 2]), 400, "invalid_request")


def test_unknown_game_is_404(client):
    _error(client.get("/api/games/nope"), 404)
    _error(_post(client, "nope", {"type": "riichi", "player": "Ann"}, "c1", 1), 404)
    _error(client.get("/api/games/nope/export"), 404)


def test_unknown_endpoint_and_method_answer_json(client):
    _error(client.get("/api/nothing-here"), 404)
    _error(client.delete("/api/games"), 405)


# ------------------------------------------------------------------ events


def test_riichi_then_ron_moves_the_points_by_hand_computation(client):
    gid = _new_game(client)["id"]
    r = _post(client, gid, {"type": "riichi", "player": "Ann"}, "c1", 1)
    assert r.status_code == 200
    assert r.get_json()["scores"]["Ann"] == 29000 and r.get_json()["riichi_sticks"] == 1
    # Bob (non-dealer) rons Cid, 3 han 30 fu: 30 * 2^5 = 960 base, * 4 = 3840 -> 3900, plus the stick
    r = _post(client, gid, {"type": "win", "winners": [{"player": "Bob", "han": 3, "fu": 30}], "discarder": "Cid"},
              "c2", 2)
    state = r.get_json()
    assert state["scores"] == {"Ann": 29000, "Bob": 34900, "Cid": 26100, "Dan": 30000}
    assert state["riichi_sticks"] == 0 and state["dealer"] == "Bob" and state["round"] == "E2"
    got = client.get(f"/api/games/{gid}").get_json()
    assert got["scores"] == state["scores"]
    assert [e["type"] for e in got["events"]] == ["riichi", "win"]
    assert [e["seq"] for e in got["events"]] == [1, 2]


def test_retry_with_the_same_client_id_applies_once_and_answers_the_same(client):
    gid = _new_game(client)["id"]
    first = _post(client, gid, {"type": "riichi", "player": "Ann"}, "tablet-1-0001", 1)
    again = _post(client, gid, {"type": "riichi", "player": "Ann"}, "tablet-1-0001", 1)
    assert first.status_code == again.status_code == 200
    assert again.get_json()["scores"] == first.get_json()["scores"]
    assert again.get_json()["scores"]["Ann"] == 29000  # 1000 paid once, not twice
    assert again.get_json()["append"] == {"seq": 1, "duplicate": True}
    assert len(client.get(f"/api/games/{gid}").get_json()["events"]) == 1


def test_stale_expected_seq_is_a_409_with_the_current_seq_and_changes_nothing(client):
    gid = _new_game(client)["id"]
    assert _post(client, gid, {"type": "riichi", "player": "Ann"}, "a", 1).status_code == 200
    # a second tablet still showing the fresh game enters a riichi for Bob
    body = _error(_post(client, gid, {"type": "riichi", "player": "Bob"}, "b", 1), 409, "conflict")
    assert body["next_seq"] == 2
    assert body["state"]["scores"]["Bob"] == 30000
    assert len(client.get(f"/api/games/{gid}").get_json()["events"]) == 1


@pytest.mark.parametrize("event, fragment", [
    ({"type": "riichi", "player": "Zed"}, "Zed"),                                         # unknown player
    ({"type": "win", "winners": [{"player": "Bob", "han": 1, "fu": 20}], "discarder": "Cid"}, "20 fu"),
    ({"type": "win", "winners": [{"player": "Bob", "han": 2, "fu": 130}], "discarder": "Cid"}, "fu"),
    ({"type": "teleport"}, "teleport"),
])
def test_impossible_event_is_400_and_stores_nothing(client, event, fragment):
    gid = _new_game(client)["id"]
    err = _error(_post(client, gid, event, "x1", 1), 400)
    assert fragment in err["error"]
    state = client.get(f"/api/games/{gid}").get_json()
    assert state["events"] == [] and state["next_seq"] == 1 and state["scores"]["Bob"] == 30000


def test_riichi_below_1000_is_refused_where_the_rules_forbid_it(client):
    # issue 3: "a riichi with less than 1000 points where the rules forbid it"
    gid = _new_game(client, "ema2016", riichi_needs_1000=True, start_points=500)["id"]
    _error(_post(client, gid, {"type": "riichi", "player": "Ann"}, "x1", 1), 400)
    assert client.get(f"/api/games/{gid}").get_json()["scores"]["Ann"] == 500


@pytest.mark.parametrize("extra, fragment", [
    ({"expected_seq": 1}, "client_id"),
    ({"client_id": "c"}, "expected_seq"),
    ({"client_id": "c", "expected_seq": "1"}, "expected_seq"),
    ({"client_id": 7, "expected_seq": 1}, "client_id"),
])
def test_event_without_client_id_or_seq_is_400(client, extra, fragment):
    gid = _new_game(client)["id"]
    err = _error(client.post(f"/api/games/{gid}/events", json={"type": "riichi", "player": "Ann", **extra}), 400)
    assert fragment in err["error"]


def test_draw_with_one_tenpai_player_pays_3000_split(client):
    # seed 000: 3000 from the noten players to the tenpai ones: one tenpai gets 3000, three pay 1000
    gid = _new_game(client)["id"]
    state = _post(client, gid, {"type": "draw", "tenpai": ["Cid"]}, "d1", 1).get_json()
    assert state["scores"] == {"Ann": 29000, "Bob": 29000, "Cid": 33000, "Dan": 29000}
    assert state["honba"] == 1


def test_undo_is_an_event_of_its_own_and_restores_the_points(client):
    gid = _new_game(client)["id"]
    _post(client, gid, {"type": "riichi", "player": "Dan"}, "r", 1)
    state = _post(client, gid, {"type": "undo", "target_seq": 1}, "u", 2).get_json()
    assert state["scores"]["Dan"] == 30000 and state["riichi_sticks"] == 0
    assert [(h["type"], h["undone"]) for h in state["history"]] == [("riichi", True), ("undo", False)]


# ------------------------------------------------------------------ preview


def test_preview_shows_the_payments_and_stores_nothing(client):
    gid = _new_game(client)["id"]
    # Ann is dealer: a dealer ron of 3 han 30 fu is 6 * 960 = 5760 -> 5800 (seed 000 table)
    r = client.post(f"/api/games/{gid}/preview",
                    json={"type": "win", "winners": [{"player": "Ann", "han": 3, "fu": 30}], "discarder": "Dan"})
    assert r.status_code == 200
    assert r.get_json()["deltas"] == {"Ann": 5800, "Bob": 0, "Cid": 0, "Dan": -5800}
    state = client.get(f"/api/games/{gid}").get_json()
    assert state["events"] == [] and state["scores"]["Ann"] == 30000


def test_preview_of_a_non_dealer_tsumo_splits_one_to_two(client):
    # non-dealer tsumo 2 han 40 fu: base 40 * 2^4 = 640; dealer pays 1280 -> 1300, others 640 -> 700
    gid = _new_game(client)["id"]
    r = client.post(f"/api/games/{gid}/preview",
                    json={"type": "win", "winners": [{"player": "Cid", "han": 2, "fu": 40}], "discarder": None})
    assert r.get_json()["deltas"] == {"Ann": -1300, "Bob": -700, "Cid": 2700, "Dan": -700}


def test_preview_of_a_bad_event_is_400(client):
    gid = _new_game(client)["id"]
    _error(client.post(f"/api/games/{gid}/preview", json={"type": "chombo", "player": "Nobody"}), 400)
    _error(client.post(f"/api/games/{gid}/preview", json={"player": "Ann"}), 400, "invalid_request")


# ------------------------------------------------------------------ export / import


def test_export_then_import_gives_the_same_state(client):
    gid = _new_game(client)["id"]
    _post(client, gid, {"type": "riichi", "player": "Bob"}, "a", 1)
    _post(client, gid, {"type": "win", "winners": [{"player": "Bob", "han": 1, "fu": 30}], "discarder": None}, "b", 2)
    _post(client, gid, {"type": "undo", "target_seq": 2}, "c", 3)
    exported = client.get(f"/api/games/{gid}/export")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    # imported into a fresh server (another instance folder) it folds to the same state
    other = create_app({"INSTANCE_PATH": client.application.instance_path + "-2", "TESTING": True}).test_client()
    r = other.post("/api/games/import", json=exported.get_json())
    assert r.status_code == 201
    a = client.get(f"/api/games/{gid}").get_json()
    b = r.get_json()
    for key in ("scores", "seat_winds", "dealer", "round", "honba", "riichi_sticks", "history", "next_seq"):
        assert a[key] == b[key], key


def test_import_of_something_else_is_400(client):
    _error(client.post("/api/games/import", json={"hello": "world"}), 400)
    assert client.get("/api/games").get_json() == {"games": []}


# ------------------------------------------------------------------ scoring


def test_score_passes_the_request_to_the_engine(client):
    # riichi + menzen tsumo + pinfu for South: 3 han 20 fu, base 20 * 2^5 = 640 -> 1300 / 700 / 700
    r = client.post("/api/score", json={"rules": "ema2016", "hand": "123m456p55p234s789s", "win_tile": "4s",
                                        "tsumo": True, "riichi": True, "seat_wind": "S", "round_wind": "E"})
    assert r.status_code == 200, r.get_json()
    assert (r.get_json()["han"], r.get_json()["fu"]) == (3, 20)
    assert r.get_json()["total_gain"] == 2700


def test_score_with_bad_tiles_says_what_is_wrong(client):
    err = _error(client.post("/api/score", json={"rules": "ema2016", "hand": "123q", "win_tile": "1m"}), 400)
    assert err["code"] in ("invalid_tiles", "invalid_request")


# ------------------------------------------------------------------ photos


@pytest.fixture()
def fake_vision(monkeypatch, tmp_path):
    """Stands in for companion.vision so the web layer is tested on its own."""
    module = types.ModuleType("companion.vision")
    calls: dict = {"saved": []}

    def recognize_image(image, dora_image=None, **options):  # companion.vision.recognize_image's signature
        calls["shape"], calls["options"] = image.shape, options
        return {"tiles": [{"tile": "5m", "box": [1, 2, 11, 22], "confidence": 0.97, "sideways": False, "group": 0}],
                "request": None}

    def save_correction(image, box, tile, folder, sideways=None):
        calls["saved"].append((image.shape, box, tile, folder))
        calls["sideways"] = sideways
        return f"{folder}/{tile}/1.png"

    from companion.vision.examples import save_checked_photo  # the real one: it needs no model

    module.recognize_image = recognize_image
    module.save_correction = save_correction
    module.save_checked_photo = save_checked_photo
    monkeypatch.setitem(sys.modules, "companion.vision", module)
    return calls


def test_recognize_decodes_the_photo_and_returns_the_tiles(client, fake_vision):
    r = client.post("/api/recognize", data={"image": (io.BytesIO(_png()), "hand.png")},
                    content_type="multipart/form-data")
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["tiles"][0]["tile"] == "5m" and (body["width"], body["height"]) == (60, 40)
    assert fake_vision["shape"] == (40, 60, 3)


def test_a_correction_names_the_localisers_of_the_answer_by_its_low_angle(client, fake_vision):
    # the page sends the answer's "low_angle" back as 1 or 0 (curl users may write true or false); it reaches
    # recognize_image as a bool, and anything else is refused before the photo is read
    photo = _png()
    for sent, passed in (("1", True), ("0", False), ("true", True), ("false", False)):
        r = client.post("/api/recognize", data={"image": (io.BytesIO(photo), "hand.png"), "turned": "0",
                                                "low_angle": sent}, content_type="multipart/form-data")
        assert r.status_code == 200, r.get_json()
        assert fake_vision["options"] == {"turned": 0, "low_angle": passed}
    client.post("/api/recognize", data={"image": (io.BytesIO(photo), "hand.png"), "turned": "0"},
                content_type="multipart/form-data")
    assert fake_vision["options"] == {"turned": 0}  # not sent: the server chooses the localisers again
    del fake_vision["options"]
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(photo), "hand.png"), "low_angle": "yes"},
                             content_type="multipart/form-data"), 400)
    assert '"low_angle" must be 1 or 0' in err["error"] and "'yes'" in err["error"]
    assert "options" not in fake_vision


def test_a_photo_read_once_is_named_by_its_id_after_that_and_not_sent_again(client, fake_vision, tmp_path):
    import hashlib

    photo = _png()
    first = client.post("/api/recognize", data={"image": (io.BytesIO(photo), "hand.png")},
                        content_type="multipart/form-data").get_json()
    assert first["photo_id"] == hashlib.sha256(photo).hexdigest()
    del fake_vision["shape"]
    # read again (a tile put back), a corrected tile kept, the checked photo kept: each by the id alone
    again = client.post("/api/recognize", data={"image_id": first["photo_id"], "turned": "0"},
                        content_type="multipart/form-data")
    assert again.status_code == 200, again.get_json()
    assert fake_vision["shape"] == (40, 60, 3) and again.get_json()["photo_id"] == first["photo_id"]
    r = client.post("/api/corrections", data={"image_id": first["photo_id"], "tile": "3m", "box": "1,2,30,38"},
                    content_type="multipart/form-data")
    assert r.status_code == 201 and fake_vision["saved"][-1][:3] == ((40, 60, 3), [1, 2, 30, 38], "3m")
    label = json.dumps({"tiles": [{"tile": "5m", "box": [1, 2, 11, 22], "sideways": False}]})
    r = client.post("/api/photos", data={"image_id": first["photo_id"], "label": label},
                    content_type="multipart/form-data")
    assert r.status_code == 201
    [kept] = [f for f in (tmp_path / "instance" / "photos").iterdir() if f.suffix != ".json"]
    assert cv2.imread(str(kept)).shape == (40, 60, 3)
    # a second photo of the dora indicators is named by its own id
    wall = cv2.imencode(".png", np.full((30, 50, 3), 90, np.uint8))[1].tobytes()
    both = client.post("/api/recognize", data={"image_id": first["photo_id"], "dora": (io.BytesIO(wall), "wall.png")},
                       content_type="multipart/form-data").get_json()
    assert both["dora_id"] == hashlib.sha256(wall).hexdigest()
    r = client.post("/api/recognize", data={"image_id": first["photo_id"], "dora_id": both["dora_id"]},
                    content_type="multipart/form-data")
    assert r.status_code == 200 and r.get_json()["dora_id"] == both["dora_id"]


def test_a_photo_no_longer_held_is_asked_for_again(client, fake_vision):
    err = _error(client.post("/api/recognize", data={"image_id": "0" * 64}, content_type="multipart/form-data"),
                 400, "photo_gone")
    assert err["field"] == "image" and 'send it again in "image"' in err["error"]
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(_png()), "hand.png"), "dora_id": "1" * 64},
                             content_type="multipart/form-data"), 400, "photo_gone")
    assert err["field"] == "dora"


def test_a_correction_of_a_12_mp_photo_is_read_once_at_the_size_its_answer_was_read_at(client, fake_vision):
    # photo_files.read_photo reads a 12 MP JPEG at half size first; the stand-in's one tile, 10 px wide, with no
    # request, has it decoded whole and read again. A correction naming the photo by its id is read whole straight
    # away (the size its answer was read at, held with the photo), not at half size first again
    ok, jpeg = cv2.imencode(".jpg", np.zeros((600, 4032, 3), np.uint8))
    module = sys.modules["companion.vision"]
    stand_in, widths = module.recognize_image, []

    def counted(image, dora_image=None, **options):  # noqa: ANN001, ANN202
        widths.append(image.shape[1])
        return stand_in(image, dora_image, **options)

    module.recognize_image = counted
    first = client.post("/api/recognize", data={"image": (io.BytesIO(jpeg.tobytes()), "IMG.jpg")},
                        content_type="multipart/form-data").get_json()
    assert widths == [2016, 4032] and (first["width"], first["height"]) == (4032, 600)
    widths.clear()
    again = client.post("/api/recognize", data={"image_id": first["photo_id"], "fixes": json.dumps({"0": "2m"})},
                        content_type="multipart/form-data")
    assert again.status_code == 200 and widths == [4032] and fake_vision["options"] == {"fixes": {0: "2m"}}


def test_a_correction_of_a_12_mp_photo_read_whole_is_decoded_once_whole(client, fake_vision, monkeypatch):
    # the answer of a 12 MP photo read whole (the stand-in's narrow tile, as above): a correction naming the photo
    # by its id decodes it whole straight away, not at half size first and then whole (19 ms more a correction)
    import companion.photo_files as photo_files

    ok, jpeg = cv2.imencode(".jpg", np.zeros((600, 4032, 3), np.uint8))
    first = client.post("/api/recognize", data={"image": (io.BytesIO(jpeg.tobytes()), "IMG.jpg")},
                        content_type="multipart/form-data").get_json()
    assert first["width"] == 4032
    decoded_at, scales = photo_files._decoded_at, []
    monkeypatch.setattr(photo_files, "_decoded_at", lambda *a: scales.append(a[4]) or decoded_at(*a))
    again = client.post("/api/recognize", data={"image_id": first["photo_id"], "fixes": json.dumps({"0": "2m"})},
                        content_type="multipart/form-data")
    assert again.status_code == 200 and scales == [1]


def test_the_held_photos_drop_the_oldest_past_their_count_or_their_bytes():
    from companion.web.held_photos import HeldPhotos, photo_id

    held = HeldPhotos(max_photos=2, max_bytes=10)
    a, b, c = held.put(b"aaa"), held.put(b"bbb"), held.put(b"ccc")  # three photos, two held: a goes
    assert a == photo_id(b"aaa") and held.get(a) is None and held.get(b) == b"bbb" and held.get(c) == b"ccc"
    assert held.get(b) == b"bbb"  # b read last: now c is the oldest
    held.put(b"dddddd")  # 3 + 6 bytes held would be 12 with c: over 10, so c goes too
    assert held.get(c) is None and held.get(b) == b"bbb" and held.get(photo_id(b"dddddd")) == b"dddddd"
    big = HeldPhotos(max_photos=2, max_bytes=4)
    assert big.get(big.put(b"0123456789")) == b"0123456789"  # one photo larger than the limit is still held


def test_the_held_photos_keep_the_scale_each_was_read_at_while_they_hold_it():
    from companion.web.held_photos import HeldPhotos

    held = HeldPhotos(max_photos=1)
    a = held.put(b"aaa")
    assert held.scale_read_at(a) is None
    held.read_at(a, 2)
    assert held.scale_read_at(a) == 2
    held.read_at("0" * 64, 1)  # a photo not held: nothing noted
    assert held.scale_read_at("0" * 64) is None
    held.put(b"bbb")  # a dropped: its scale goes with it, and comes back with it unknown
    assert held.scale_read_at(a) is None and held.scale_read_at(held.put(b"aaa")) is None


def test_recognize_refuses_a_file_that_is_not_an_image(client, fake_vision):
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(b"%PDF-1.4 not a photo"), "scan.pdf")},
                             content_type="multipart/form-data"), 400)
    assert "scan.pdf" in err["error"]
    assert err["field"] == "image" and err["code"] == "photo_unreadable"  # the page says it in German by the code
    _error(client.post("/api/recognize", data={}, content_type="multipart/form-data"), 400)
    assert "shape" not in fake_vision


def test_recognize_names_a_photo_cut_short(client, fake_vision):
    # an upload or a copy broken off: told to send it again (the page says it in German by the code), not that it
    # is no image
    whole = cv2.imencode(".jpg", np.full((120, 160, 3), 200, np.uint8))[1].tobytes()
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(whole[:len(whole) // 2]), "IMG_0007.JPG")},
                             content_type="multipart/form-data"), 400, "photo_cut_short")
    assert err["field"] == "image" and "(IMG_0007.JPG) is a JPEG photo cut short" in err["error"]
    assert "send it again" in err["error"] and "shape" not in fake_vision


# the first bytes of an iPhone photo: a 24-byte "ftyp" box, major brand "heic", then the brands it is compatible with
HEIC_START = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(64)


def test_an_iphone_heic_photo_is_named_and_the_answer_says_how_to_send_jpeg(client, fake_vision):
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(HEIC_START), "IMG_0042.HEIC")},
                             content_type="multipart/form-data"), 400)
    assert err["field"] == "image" and err["code"] == "photo_heic"
    assert "IMG_0042.HEIC" in err["error"] and "HEIC photo" in err["error"] and "send it as JPEG" in err["error"]
    # AVIF shares the box but not the brand: OpenCV reads AVIF, so an undecodable one is only "not an image"
    avif = HEIC_START.replace(b"ftypheic", b"ftypavif")
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(avif), "x.avif")},
                             content_type="multipart/form-data"), 400)
    assert "HEIC" not in err["error"] and "not an image" in err["error"] and err["code"] == "photo_unreadable"


def test_an_iphone_heic_photo_is_decoded_upright_and_read(client, fake_vision):
    # a browser on a computer sends an iPhone's photo as it is (tests/fixtures/vision/heic: closed_dora.jpg, 800 x
    # 600, stored on its side with the transform that turns it back): read upright, at its own size
    heic = Path(__file__).parent / "fixtures" / "vision" / "heic" / "closed_dora_held.heic"
    r = client.post("/api/recognize", data={"image": (io.BytesIO(heic.read_bytes()), "IMG_0042.HEIC")},
                    content_type="multipart/form-data")
    assert r.status_code == 200, r.get_json()
    assert fake_vision["shape"] == (600, 800, 3)
    # a browser that cannot show HEIC shows the server's copy instead: a JPEG, upright, the JPEG fixture's picture
    shown = client.get(f"/api/photos/{r.get_json()['photo_id']}")
    assert shown.status_code == 200 and shown.mimetype == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(shown.data, np.uint8), cv2.IMREAD_COLOR)
    jpeg = cv2.imread(str(heic.parents[1] / "closed_dora.jpg"))
    assert image.shape == jpeg.shape and np.abs(image.astype(int) - jpeg).mean() < 5


def test_an_iphone_heic_photo_is_held_as_a_jpeg_so_that_its_corrections_decode_no_heic(client, fake_vision,
                                                                                      monkeypatch):
    # every correction decodes the held photo again: a HEIC is held as the JPEG of its picture, upright, so that
    # the corrections that name it need no HEIC decoder at all
    heic = Path(__file__).parent / "fixtures" / "vision" / "heic" / "closed_dora_held.heic"
    r = client.post("/api/recognize", data={"image": (io.BytesIO(heic.read_bytes()), "IMG_0042.HEIC")},
                    content_type="multipart/form-data")
    held = client.application.extensions["held_photos"].get(r.get_json()["photo_id"])
    assert held[:3] == b"\xff\xd8\xff"  # a JPEG
    jpeg = cv2.imread(str(heic.parents[1] / "closed_dora.jpg"))
    assert np.abs(cv2.imdecode(np.frombuffer(held, np.uint8), cv2.IMREAD_COLOR).astype(int) - jpeg).mean() < 4
    import companion.photo_files as photo_files

    # no HEIC decoder from here on: any HEIC decoding fails
    monkeypatch.setattr(photo_files, "_heif_child_argv", lambda: [sys.executable, "-c", "raise SystemExit(3)"])
    again = client.post("/api/recognize", data={"image_id": r.get_json()["photo_id"], "fixes": '{"0": "2m"}'},
                        content_type="multipart/form-data")
    assert again.status_code == 200, again.get_json()
    assert fake_vision["shape"] == (600, 800, 3) and fake_vision["options"]["fixes"] == {0: "2m"}


def test_a_heic_photo_that_crashed_its_decoder_is_a_400_and_the_server_reads_the_next(client, fake_vision):
    # the fixture with a few bytes of its header changed crashed pi-heif 1.4.0's libheif in the process it ran in;
    # decoded in a process of its own, it is a 400 that says so, and the server goes on
    broken = Path(__file__).parent / "fixtures" / "vision" / "heic" / "crashes_libheif.heic"
    r = client.post("/api/recognize", data={"image": (io.BytesIO(broken.read_bytes()), "IMG_0043.HEIC")},
                    content_type="multipart/form-data")
    if r.status_code != 200:  # (a pi-heif that decodes it reads it)
        err = _error(r, 400)
        assert err["code"] in ("photo_heic", "photo_cut_short") and err["field"] == "image"
    ok = client.post("/api/recognize", data={"image": (io.BytesIO(_png()), "hand.png")},
                     content_type="multipart/form-data")
    assert ok.status_code == 200 and fake_vision["shape"] == (40, 60, 3)


def test_a_held_photo_is_shown_at_most_2048_px_long_and_one_not_held_is_a_404(client, fake_vision):
    big = cv2.imencode(".png", np.full((3000, 4000, 3), 90, np.uint8))[1].tobytes()
    r = client.post("/api/recognize", data={"image": (io.BytesIO(big), "big.png")}, content_type="multipart/form-data")
    shown = client.get(f"/api/photos/{r.get_json()['photo_id']}")
    assert cv2.imdecode(np.frombuffer(shown.data, np.uint8), cv2.IMREAD_COLOR).shape == (1536, 2048, 3)
    err = _error(client.get("/api/photos/" + "0" * 64), 404, "photo_gone")
    assert "send it again" in err["error"]


def test_a_photo_that_claims_too_many_pixels_is_a_400_that_says_so_not_a_500(client, fake_vision):
    import zlib

    # a PNG of a few hundred bytes whose header says 40000 x 40000 pixels: OpenCV raised past its own limit
    png = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    ihdr = b"IHDR" + (40000).to_bytes(4, "big") * 2 + png[24:29]
    bomb = png[:12] + ihdr + zlib.crc32(ihdr).to_bytes(4, "big") + png[33:]
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(bomb), "scan.png")},
                             content_type="multipart/form-data"), 400)
    assert err["field"] == "image" and err["code"] == "photo_too_large"  # the page says it in German by the code
    assert "(scan.png) is 40000 x 40000 pixels (1600 MP)" in err["error"]
    assert "shape" not in fake_vision  # nothing was read


def test_a_dora_photo_that_is_no_image_is_named_as_the_one_at_fault(client, fake_vision):
    # the page sends two photos; it must know which to ask for again (the hand photo here is fine)
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(_png()), "hand.png"),
                                                     "dora": (io.BytesIO(b"notes, not a photo"), "notes.jpg")},
                             content_type="multipart/form-data"), 400)
    assert err["field"] == "dora" and "dora photo (notes.jpg)" in err["error"]
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(_png()), "hand.png"),
                                                     "dora": (io.BytesIO(b""), "wall.jpg")},
                             content_type="multipart/form-data"), 400)
    assert err["field"] == "dora" and "empty" in err["error"] and err["code"] == "photo_empty"
    assert "shape" not in fake_vision  # nothing was read


def test_recognize_without_a_model_is_503_with_a_message(client, monkeypatch, fake_vision):
    def missing(image, dora_image=None, **options):
        raise FileNotFoundError("models/tiles.onnx")

    monkeypatch.setattr(sys.modules["companion.vision"], "recognize_image", missing)
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(_png()), "a.png")},
                             content_type="multipart/form-data"), 503, "model_missing")
    assert "model" in err["error"]


def test_correction_is_saved_in_the_instance_folder(client, fake_vision):
    r = client.post("/api/corrections", data={"image": (io.BytesIO(_png()), "a.png"), "tile": "0p", "box": "1,2,30,38"},
                    content_type="multipart/form-data")
    assert r.status_code == 201, r.get_json()
    (shape, box, tile, folder), = fake_vision["saved"]
    assert shape == (40, 60, 3) and box == [1, 2, 30, 38] and tile == "0p"
    assert folder == client.application.config["CORRECTIONS_DIR"]
    assert folder.startswith(client.application.instance_path) and folder.endswith("corrections")
    assert fake_vision["sideways"] is None  # not said: the recogniser guesses the crop's orientation


def test_correction_passes_on_that_the_tile_lay_sideways(client, fake_vision):
    r = client.post("/api/corrections", data={"image": (io.BytesIO(_png()), "a.png"), "tile": "3m",
                                              "box": "1,2,30,20", "sideways": "true"},
                    content_type="multipart/form-data")
    assert r.status_code == 201, r.get_json()
    assert fake_vision["sideways"] is True


@pytest.mark.parametrize(("turned", "lies_sideways"), [("90", False), ("270", False), ("180", True), ("0", True)])
def test_correction_of_a_photo_read_on_its_side_is_cut_the_way_the_tile_lies_there(client, fake_vision, turned,
                                                                                   lies_sideways):
    # the answer's "sideways" is as read: a photo read turned by 90 or 270 degrees (on its side) shows a tile read
    # sideways upright, and its crop is cut from the photo as taken
    r = client.post("/api/corrections", data={"image": (io.BytesIO(_png()), "a.png"), "tile": "3m",
                                              "box": "1,2,30,20", "sideways": "true", "turned": turned},
                    content_type="multipart/form-data")
    assert r.status_code == 201, r.get_json()
    assert fake_vision["sideways"] is lies_sideways


@pytest.mark.parametrize("form, fragment", [
    ({"tile": "5m", "box": "1,2,30,38", "turned": "45"}, "turned"),
    ({"tile": "5q", "box": "1,2,30,38"}, "tile"),
    ({"tile": "5m", "box": "1,2,300,38"}, "box"),     # outside the 60x40 photo
    ({"tile": "5m", "box": "a,b"}, "box"),
    ({"tile": "5m", "box": "nan,2,30,38"}, "box"),
    ({"tile": "5m", "box": "1,2,inf,38"}, "box"),    # no number of pixels (was a 500: OverflowError)
    ({"tile": "5m", "box": "1,2,1e999,38"}, "box"),
])
def test_bad_correction_is_400_and_saves_nothing(client, fake_vision, form, fragment):
    err = _error(client.post("/api/corrections", data={"image": (io.BytesIO(_png()), "a.png"), **form},
                             content_type="multipart/form-data"), 400)
    assert fragment in err["error"]
    assert fake_vision["saved"] == []


# ------------------------------------------------------------------ page


def test_page_and_its_files_are_served_without_anything_from_outside(client):
    html = client.get("/").get_data(as_text=True)
    assert 'id="view-table"' in html
    assert "http://" not in html and "https://" not in html  # no CDN
    for path in ("/static/app.js", "/static/photo.js", "/static/i18n.js", "/static/app.css", "/static/tiles/5m.png"):
        assert client.get(path).status_code == 200, path
    assert client.get("/tournament").status_code == 200  # the scorekeeper page is part of the app
    js = client.get("/static/photo.js").get_data(as_text=True)
    assert 'capture: "environment"' in js and "isSecureContext" in js


# ------------------------------------------------------------------ robustness


def test_two_tablets_entering_at_once_get_one_success_and_one_conflict(client):
    # issue 3: "two tablets writing the same table get a clear conflict, never a lost or doubled hand"
    import threading

    gid = _new_game(client)["id"]
    app = client.application
    barrier = threading.Barrier(2)
    answers: dict[str, int] = {}

    def tablet(name: str, player: str) -> None:
        c = app.test_client()
        barrier.wait(timeout=10)
        answers[name] = _post(c, gid, {"type": "riichi", "player": player}, name, 1).status_code

    threads = [threading.Thread(target=tablet, args=(n, p)) for n, p in (("tab-a", "Ann"), ("tab-b", "Bob"))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=20)
    assert sorted(answers.values()) == [200, 409]
    state = client.get(f"/api/games/{gid}").get_json()
    assert len(state["events"]) == 1 and state["riichi_sticks"] == 1
    assert sum(state["scores"].values()) == 4 * 30000 - 1000


def test_upload_over_the_limit_is_413_json(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path), "MAX_CONTENT_LENGTH": 1000})
    r = app.test_client().post("/api/recognize", data={"image": (io.BytesIO(b"x" * 5000), "big.jpg")},
                               content_type="multipart/form-data")
    assert _error(r, 413)["code"] == "request_entity_too_large"  # the German page's key is error_<code>


def test_unexpected_failure_answers_json_without_a_traceback(client, monkeypatch):
    import companion.table.service as service

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    gid = _new_game(client)["id"]
    monkeypatch.setattr(service, "append_event", broken)
    r = client.post(f"/api/games/{gid}/events", json={"type": "riichi", "player": "Ann", "client_id": "c",
                                                      "expected_seq": 1})
    body = _error(r, 500, "internal_error")
    assert "Traceback" not in body["error"] and "disk on fire" not in body["error"]


def _keep(client, label) -> object:
    import json

    return client.post("/api/photos", data={"image": (io.BytesIO(_png()), "hand.png"),
                                            "label": label if isinstance(label, str) else json.dumps(label)},
                       content_type="multipart/form-data")


CHECKED = {"tiles": [{"tile": "0m", "box": [1, 2, 11, 22], "sideways": False},
                     {"tile": "7z", "box": [11, 2, 31, 14], "sideways": True}],
           "request": {"hand": "0m", "win_tile": "0m"}}


def test_a_checked_photo_is_kept_with_its_tiles_where_training_evaluate_reads_it(client, fake_vision, tmp_path):
    # issue 4 "Adapting to a club's own set": the photos a player checked are the club's own labelled set
    from training.evaluate import load_folder

    r = _keep(client, CHECKED)
    assert r.status_code == 201, r.get_json()
    [(photo, label)] = load_folder(tmp_path / "instance" / "photos")
    assert str(photo) == r.get_json()["saved"] and cv2.imread(str(photo)).shape == (40, 60, 3)
    assert label["tiles"] == [{"tile": "0m", "box": [1.0, 2.0, 11.0, 22.0], "sideways": False},
                              {"tile": "7z", "box": [11.0, 2.0, 31.0, 14.0], "sideways": True}]
    assert label["request"] == CHECKED["request"]
    assert "not_tiles" not in label
    # the boxes the page showed as no tile and the player left so come with it, for the verifier's fine-tune
    r = _keep(client, {**CHECKED, "not_tiles": [{"box": [40, 5, 50, 15], "sideways": False}]})
    assert r.status_code == 201, r.get_json()
    kept = json.loads(Path(r.get_json()["saved"]).with_suffix(".json").read_text())
    assert kept["not_tiles"] == [{"box": [40.0, 5.0, 50.0, 15.0], "sideways": False}]
    assert "turned" not in kept and "turned" not in label
    # and the way round the photo was read (the answer's "turned"), for the orienter's fine-tune
    r = _keep(client, {**CHECKED, "turned": 180})
    assert r.status_code == 201, r.get_json()
    assert json.loads(Path(r.get_json()["saved"]).with_suffix(".json").read_text())["turned"] == 180
    # and the tiles as the recogniser read them first, for the games list's "first readings" (GET /api/kept)
    r = _keep(client, {**CHECKED, "first_read": {"tiles": ["5m", "7z"], "unsure": [0]}})
    assert r.status_code == 201, r.get_json()
    kept = json.loads(Path(r.get_json()["saved"]).with_suffix(".json").read_text())
    assert kept["first_read"] == {"tiles": ["5m", "7z"], "unsure": [0]} and "first_read" not in label


@pytest.mark.parametrize("label, says", [
    ("{not json", '"label" must be JSON'),
    ([1, 2], "JSON object"),
    ({"tiles": []}, "non-empty list"),
    ({"tiles": [{"tile": "5x", "box": [1, 2, 11, 22]}]}, "recognition classes"),
    ({"tiles": [{"tile": "5m", "box": [1, 2, 61, 22]}]}, "inside the 60x40 photo"),
    ({"tiles": [{"tile": "5m", "box": [11, 2, 1, 22]}]}, "inside the 60x40 photo"),
    ({"tiles": [{"tile": "5m", "box": [1, 2, 11, 22], "sideways": "yes"}]}, '"sideways"'),
    ({**CHECKED, "request": "123m"}, '"request"'),
    ({**CHECKED, "not_tiles": [{"box": [40, 5, 70, 15]}]}, "not_tiles 0"),
    ({**CHECKED, "turned": 45}, '"turned" must be one of 0, 90, 180, 270'),
    ({**CHECKED, "turned": "180"}, 'not "180"'),
    ({**CHECKED, "turned": True}, "not true"),
    ({**CHECKED, "first_read": ["0m", "7z"]}, '"first_read" must be {"tiles"'),
    ({**CHECKED, "first_read": {"tiles": ["0m", "8z"]}}, "the classes read first"),
    ({**CHECKED, "first_read": {"tiles": ["0m", "7z"], "unsure": [2]}}, 'indices of its 2 tiles'),
    ({**CHECKED, "first_read": {"tiles": ["0m", "7z"], "unsure": [True]}}, 'indices of its 2 tiles'),
])
def test_a_photo_with_a_bad_label_is_refused_and_nothing_is_kept(client, fake_vision, tmp_path, label, says):
    err = _error(_keep(client, label), 400, "invalid_request")
    assert says in err["error"]
    photos = tmp_path / "instance" / "photos"
    assert not photos.exists() or not any(photos.iterdir())


def test_a_club_that_keeps_no_photos_keeps_none(tmp_path, fake_vision):
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "TESTING": True, "KEEP_PHOTOS": False})
    r = _keep(app.test_client(), CHECKED)
    assert r.status_code == 200 and r.get_json() == {"saved": None}
    assert not (tmp_path / "instance" / "photos").exists()


def test_a_photo_is_held_once_it_decodes_even_when_the_dora_photo_sent_with_it_is_refused(client, fake_vision):
    # the page then sends the hand again by its id, without the dora photo: the server must still hold it
    import hashlib

    photo = _png()
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(photo), "hand.png"),
                                                     "dora": (io.BytesIO(b""), "wall.jpg")},
                             content_type="multipart/form-data"), 400)
    assert err["field"] == "dora"
    again = client.post("/api/recognize", data={"image_id": hashlib.sha256(photo).hexdigest()},
                        content_type="multipart/form-data")
    assert again.status_code == 200, again.get_json()
    # a file that is no photo is refused before the dora photo is looked at, and not held
    err = _error(client.post("/api/recognize", data={"image": (io.BytesIO(b"no photo"), "hand.png"),
                                                     "dora": (io.BytesIO(b""), "wall.jpg")},
                             content_type="multipart/form-data"), 400)
    assert err["field"] == "image"
    gone = client.post("/api/recognize", data={"image_id": hashlib.sha256(b"no photo").hexdigest()},
                       content_type="multipart/form-data")
    assert gone.status_code != 200


def test_what_is_kept_for_a_finetune_is_counted_with_the_command_and_what_came_since_the_last(tmp_path, monkeypatch):
    import os
    import shlex

    # GET /api/kept: what the page's card "Your tile set" shows (README, "Score by photo")
    instance = tmp_path / "my club"  # (a space: the command must still paste into a shell)
    client = create_app({"INSTANCE_PATH": str(instance), "TESTING": True}).test_client()
    monkeypatch.delenv("COMPANION_MODELS", raising=False)
    nothing = client.get("/api/kept").get_json()
    assert nothing == {"corrections": 0, "by_tile": {}, "photos": 0, "photo_bytes": 0, "adapted": None, "since": None,
                       "command": None, "first_read": {"photos": 0, "tiles": 0, "right": 0, "whole": 0, "silent": 0}}
    corrections, photos = instance / "corrections", instance / "photos"
    for tile, n in (("1f", 3), ("5m", 1)):
        (corrections / tile).mkdir(parents=True)
        for i in range(n):
            (corrections / tile / f"{i}.png").write_bytes(b"png")
    (corrections / "labels.jsonl").write_text("{}\n")  # no crop
    photos.mkdir()
    for name in ("a", "b"):
        (photos / f"{name}.jpg").write_bytes(b"jpg")
    (photos / "a.json").write_text("{}")
    (photos / "b.txt").write_text("123m")  # typed, not checked on the page: no box to learn from
    kept = client.get("/api/kept").get_json()
    assert (kept["corrections"], kept["by_tile"], kept["photos"]) == (4, {"1f": 3, "5m": 1}, 1)
    assert kept["photo_bytes"] == len(b"jpg") + len("{}")  # the checked photo and its label (the typed one not)
    assert shlex.split(kept["command"]) == ["companion", "train", "--finetune", "--corrections", str(corrections),
                                           "--photos", str(photos)]
    assert kept["adapted"] is None and kept["since"] is None
    # a fine-tune into the models folder the server reads (COMPANION_MODELS here) at time 1000; since then one
    # more flower and the checked photo's label were saved
    models = tmp_path / "club models"
    models.mkdir()
    monkeypatch.setenv("COMPANION_MODELS", str(models))
    (models / "finetune.json").write_text(json.dumps({"time": 1000.0, "when": "2026-12-01T20:00:00+01:00",
                                                      "corrections": 3, "photos": 0, "steps": 300}))
    for f in [*corrections.rglob("*.png"), *photos.iterdir()]:
        os.utime(f, (900, 900))
    os.utime(corrections / "1f" / "2.png", (1100, 1100))
    os.utime(photos / "a.json", (1200, 1200))
    kept = client.get("/api/kept").get_json()
    assert kept["adapted"] == {"when": "2026-12-01T20:00:00+01:00", "corrections": 3, "photos": 0}
    assert kept["since"] == {"corrections": 1, "by_tile": {"1f": 1}, "photos": 1, "photo_bytes": 5,
                             "first_read": {"photos": 0, "tiles": 0, "right": 0, "whole": 0, "silent": 0}}
    # the command reads and writes the models folder the server reads
    assert shlex.split(kept["command"])[:2] == [f"COMPANION_MODELS={models}", "companion"]
    (models / "finetune.json").write_text("not json")  # a broken record: as if none
    assert client.get("/api/kept").get_json()["adapted"] is None


def test_what_is_kept_downloads_as_one_zip_that_the_finetune_and_evaluate_read_as_they_read_the_folders(tmp_path):
    # GET /api/kept/export: the club's checked photos with their labels and its corrected crops, to share them or
    # to take them to another server; unpacked, they are folders as the page keeps them
    import io
    import zipfile

    from companion.kept import correction_files
    from training.evaluate import load_folder

    instance = tmp_path / "club"
    client = create_app({"INSTANCE_PATH": str(instance), "TESTING": True}).test_client()
    assert _error(client.get("/api/kept/export"), 404, "nothing_kept")["error"].startswith("nothing is kept yet")
    photos, corrections = instance / "photos", instance / "corrections"
    photos.mkdir(parents=True)
    (photos / "a.jpg").write_bytes(_png())  # (a picture, whatever its name says)
    (photos / "a.json").write_text(json.dumps({"tiles": [{"tile": "1m", "box": [1, 2, 11, 22]}]}))
    (photos / "b.JPG").write_bytes(_png())
    (photos / "b.txt").write_text("2p")  # typed
    (photos / "c.jpg").write_bytes(_png())  # no label: not part of the set
    (photos / ".d.json.part").write_text("{")  # a label being written
    (corrections / "1f").mkdir(parents=True)
    (corrections / "1f" / "x.png").write_bytes(b"crop")
    (corrections / "labels.jsonl").write_text("{}\n")
    r = client.get("/api/kept/export")
    assert r.status_code == 200 and r.mimetype == "application/zip"
    assert r.headers["Content-Disposition"].startswith("attachment; filename=mahjong-kept-")
    archive = zipfile.ZipFile(io.BytesIO(r.data))
    assert sorted(archive.namelist()) == ["README.txt", "corrections/1f/x.png", "photos/a.jpg", "photos/a.json",
                                          "photos/b.JPG", "photos/b.txt"]
    assert archive.read("photos/a.jpg") == _png() and archive.read("corrections/1f/x.png") == b"crop"
    assert "python -m training.evaluate DIR/photos" in archive.read("README.txt").decode()
    unpacked = tmp_path / "unpacked"
    archive.extractall(unpacked)
    assert [(p.name, label["tiles"]) for p, label in load_folder(unpacked / "photos")] == [
        ("a.jpg", [{"tile": "1m", "box": [1, 2, 11, 22]}]), ("b.JPG", [{"tile": "2p"}])]
    assert [(f.name, tile) for f, tile in correction_files(unpacked / "corrections")] == [("x.png", "1f")]


def test_the_first_readings_of_the_checked_photos_are_measured_before_and_since_the_last_finetune(tmp_path, monkeypatch):
    # GET /api/kept's "first_read": how well the recogniser read the club's own tiles before the player corrected
    # any, from the checked photos that keep their first reading; by hand:
    #   a: 1m2m3m4m read 1m3m4m (2m missed), nothing marked: 3 of 4 right, wrong without a mark
    #   b: 5m5m read 0m5m, the 0m marked:                    1 of 2 right
    #   c: 1z1z1z read so:                                   3 of 3 right, whole
    #   d: kept before the page kept first readings:         not counted
    import os

    instance = tmp_path / "club"
    client = create_app({"INSTANCE_PATH": str(instance), "TESTING": True}).test_client()
    photos = instance / "photos"
    photos.mkdir(parents=True)
    hands = {"a": ("1m2m3m4m", ["1m", "3m", "4m"], []), "b": ("5m5m", ["0m", "5m"], [0]),
             "c": ("1z1z1z", ["1z", "1z", "1z"], []), "d": ("9p", None, None)}
    for name, (checked, read, unsure) in hands.items():
        (photos / f"{name}.jpg").write_bytes(b"jpg")
        tiles = [{"tile": checked[k:k + 2], "box": [0, 0, 1, 1]} for k in range(0, len(checked), 2)]
        label = {"tiles": tiles, **({"first_read": {"tiles": read, "unsure": unsure}} if read is not None else {})}
        (photos / f"{name}.json").write_text(json.dumps(label))
    kept = client.get("/api/kept").get_json()
    assert kept["photos"] == 4
    assert kept["first_read"] == {"photos": 3, "tiles": 9, "right": 7, "whole": 1, "silent": 1}
    # a fine-tune at time 1000, photo c kept after it
    models = tmp_path / "models"
    models.mkdir()
    monkeypatch.setenv("COMPANION_MODELS", str(models))
    (models / "finetune.json").write_text(json.dumps({"time": 1000.0, "when": "2026-12-02T10:00:00+01:00",
                                                      "corrections": 0, "photos": 3, "steps": 300}))
    for f in photos.iterdir():
        os.utime(f, (1100, 1100) if f.stem == "c" else (900, 900))
    kept = client.get("/api/kept").get_json()
    assert kept["since"]["first_read"] == {"photos": 1, "tiles": 3, "right": 3, "whole": 1, "silent": 0}
    assert kept["first_read"]["photos"] == 3
    # a label that cannot be read is passed over, not a 500
    (photos / "a.json").write_text("{broken")
    (photos / "d.json").write_text(json.dumps({"tiles": [{"tile": "9p"}], "first_read": ["9p"]}))  # edited by hand
    assert client.get("/api/kept").get_json()["first_read"] == {"photos": 2, "tiles": 5, "right": 4, "whole": 1,
                                                                "silent": 0}
