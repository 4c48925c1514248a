"""Durable storage of games and their event logs in SQLite.

One file, WAL journal, ``synchronous=FULL``: an event is committed (and on disk) before
``append`` returns, so a server killed at any moment loses no acknowledged event. Every call
opens its own connection, which makes a ``Store`` safe to share between waitress threads.

Writes are idempotent per ``(game_id, client_id)``: a retry after a lost answer gets the
original ``seq`` back with ``duplicate=True``; a stale ``expected_seq`` (another tablet wrote
first) raises ``ConflictError`` naming the current one. The store does not judge events; the
service folds them first (``companion.table.service``).
"""

from __future__ import annotations

import json
import re
import sqlite3
import uuid
from contextlib import closing
from pathlib import Path

from companion import storage
from companion.errors import TableError

EXPORT_FORMAT = "mahjong-companion-game"
MAX_NAME = 40
"""Longest player name (after trimming blanks), as the games API and tournaments allow."""
MAX_CLIENT_ID = 200
"""Longest ``client_id``, as the games API allows for an event."""

_GAME_ID = re.compile(r"[0-9a-f]{12}")  # what _new_id makes; safe in a URL path as it stands

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    preset TEXT NOT NULL,
    overrides TEXT NOT NULL,
    players TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    rules TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    client_id TEXT NOT NULL,
    event TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, seq),
    UNIQUE (game_id, client_id)
);
"""


class ConflictError(TableError):
    """The event was written against an older state of the game (another tablet was faster).

    ``next_seq`` is the number the next event gets now."""

    code = "conflict"

    def __init__(self, message: str, next_seq: int | None = None) -> None:
        super().__init__(message)
        self.next_seq = next_seq


class GameNotFoundError(TableError):
    """No game with this id."""

    code = "not_found"


_now = storage.utc_now


def _new_id() -> str:
    return uuid.uuid4().hex[:12]


def check_player_names(players: object) -> None:
    """The games API's rule for names, for every way a game comes in (an import too): four
    names, none blank or longer than ``MAX_NAME``, different even with their blanks trimmed."""
    if not isinstance(players, list) or len(players) != 4:
        raise TableError("a game needs exactly four player names")
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise TableError(f"player {i + 1} needs a name")
        if len(name.strip()) > MAX_NAME:
            raise TableError(f"player {i + 1}'s name is longer than {MAX_NAME} characters")
    if len({name.strip() for name in players}) != 4:
        raise TableError("the four player names must differ")


def _import_client_ids(events: list[dict]) -> list[str]:
    """The ``client_id`` of each imported event, held to the rule of a new event; one without gets
    ``import-<n>``. Checked exactly as SQLite compares them, so a repeat is refused here, not by it."""
    clients = []
    for i, e in enumerate(events):
        cid = e.get("client_id")
        if cid is None:
            cid = f"import-{i + 1}"
        elif not isinstance(cid, str) or not 1 <= len(cid) <= MAX_CLIENT_ID:
            raise TableError(f"event {i + 1}: client_id must be a string of 1-{MAX_CLIENT_ID} characters, "
                             f"not {cid!r}")
        if cid in clients:
            raise TableError(f"the exported events repeat the client_id {cid!r} "
                             f"(events {clients.index(cid) + 1} and {i + 1})")
        clients.append(cid)
    return clients


def _add_rules_column(con: sqlite3.Connection) -> None:
    """Files written before the rules were kept with each game get the column."""
    columns = {row[1] for row in con.execute("PRAGMA table_info(games)")}
    if "rules" not in columns:
        con.execute("ALTER TABLE games ADD COLUMN rules TEXT")


class Store:
    """Games and events in the SQLite file at ``path`` (created with its folder if missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        storage.prepare(self.path, _SCHEMA, _add_rules_column)

    def _connect(self) -> sqlite3.Connection:
        return storage.connect(self.path)

    # ----- games ----------------------------------------------------------------------------
    def create_game(self, preset: str, overrides: dict | None, players: list[str],
                    *, game_id: str | None = None, created: str | None = None,
                    rules: dict | None = None) -> dict:
        """Store a new game record and return it (``id``, ``preset``, ``overrides``, ``players``, ``created``).

        Unknown presets or overrides and anything but four different names are refused first."""
        if game_id is not None and not _GAME_ID.fullmatch(str(game_id)):
            raise TableError(f"a game id is 12 hex digits like 780f03e30ba9, not {game_id!r}")
        game = _game_record(preset, overrides, players, game_id or _new_id(), created, rules)
        with storage.transaction(self.path) as con:
            _insert_game(con, game)
        return game

    def list_games(self) -> list[dict]:
        """All games, most recently changed first: id, players, preset, created, finished, updated."""
        with closing(self._connect()) as con:
            rows = con.execute("SELECT id, preset, players, created, updated, finished FROM games "
                               "ORDER BY updated DESC, created DESC").fetchall()
        return [{"id": r[0], "preset": r[1], "players": json.loads(r[2]), "created": r[3],
                 "updated": r[4], "finished": bool(r[5])} for r in rows]

    def load(self, game_id: str) -> tuple[dict, list[dict]]:
        """The game record and its events in order; each event carries ``seq`` and ``client_id``."""
        with closing(self._connect()) as con:
            con.execute("BEGIN")  # one snapshot for the game and its events
            row = con.execute("SELECT id, preset, overrides, players, created, rules FROM games WHERE id = ?",
                              (game_id,)).fetchone()
            if row is None:
                con.execute("ROLLBACK")
                raise GameNotFoundError(f"no game with id {game_id!r}")
            rows = con.execute("SELECT seq, client_id, event FROM events WHERE game_id = ? ORDER BY seq",
                               (game_id,)).fetchall()
            con.execute("COMMIT")
        game = {"id": row[0], "preset": row[1], "overrides": json.loads(row[2]),
                "players": json.loads(row[3]), "created": row[4]}
        if row[5]:
            game["rules"] = json.loads(row[5])
        events = [{**json.loads(e), "seq": s, "client_id": c} for s, c, e in rows]
        return game, events

    def append(self, game_id: str, event: dict, client_id: str, expected_seq: int,
               *, finished: bool | None = None) -> tuple[int, bool]:
        """Append ``event`` as number ``expected_seq``; returns ``(seq, duplicate)``.

        A ``client_id`` seen before for this game returns its original seq and writes nothing.
        ``finished`` (if given) updates the game's listing flag in the same transaction."""
        if not isinstance(client_id, str) or not client_id:
            raise TableError("every event needs a client_id (any unique string from the tablet)")
        if not isinstance(expected_seq, int) or isinstance(expected_seq, bool):
            raise TableError("expected_seq must be the seq number the new event will get")
        body = json.dumps({k: v for k, v in event.items() if k not in ("seq", "client_id")})
        # one write transaction: the seq check and the insert are atomic
        with storage.transaction(self.path) as con:
            if con.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise GameNotFoundError(f"no game with id {game_id!r}")
            dup = con.execute("SELECT seq FROM events WHERE game_id = ? AND client_id = ?",
                              (game_id, client_id)).fetchone()
            if dup is not None:
                return dup[0], True
            current = con.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?",
                                  (game_id,)).fetchone()[0]
            if expected_seq != current:
                raise ConflictError(f"the game has changed: the next event is number {current}, "
                                    f"not {expected_seq}; reload and enter it again", current)
            now = _now()
            con.execute("INSERT INTO events (game_id, seq, client_id, event, created) VALUES (?, ?, ?, ?, ?)",
                        (game_id, current, client_id, body, now))
            if finished is None:
                con.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
            else:
                con.execute("UPDATE games SET updated = ?, finished = ? WHERE id = ?",
                            (now, int(finished), game_id))
            return current, False

    # ----- export / import ------------------------------------------------------------------
    def export_game(self, game_id: str) -> dict:
        """The game and all its events (undone ones and undos included) as one JSON object."""
        game, events = self.load(game_id)
        return {"format": EXPORT_FORMAT, "version": 1, "game": game, "events": events}

    def import_game(self, data: dict) -> dict:
        """Store an exported game after checking it folds; keeps its id unless that is taken or
        not one this store would make (``x/y`` could never be opened), then it gets a fresh one.

        The game and its events are written in one transaction: a refused import leaves nothing."""
        from companion.table.game import fold

        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise TableError(f'not an exported game (expected "format": "{EXPORT_FORMAT}")')
        game, events = data.get("game"), data.get("events")
        if not isinstance(game, dict) or not isinstance(events, list):
            raise TableError("an exported game needs a game object and an events list")
        check_player_names(game.get("players"))
        state = fold(game, events)  # raises if anything does not fit
        clients = _import_client_ids(events)
        created = game.get("created")
        new = _game_record(game["preset"], game.get("overrides") or {}, game["players"], None,
                           created if isinstance(created, str) else None, game.get("rules"))
        gid = game.get("id")
        with storage.transaction(self.path) as con:
            usable = isinstance(gid, str) and _GAME_ID.fullmatch(gid)
            if usable and con.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone() is None:
                new["id"] = gid
            else:
                new["id"] = _new_id()
            _insert_game(con, new)
            now = _now()
            con.executemany("INSERT INTO events (game_id, seq, client_id, event, created) VALUES (?, ?, ?, ?, ?)",
                            [(new["id"], i + 1, clients[i],
                              json.dumps({k: v for k, v in e.items() if k not in ("seq", "client_id")}), now)
                             for i, e in enumerate(events)])
            con.execute("UPDATE games SET finished = ?, updated = ? WHERE id = ?",
                        (int(state.finished), now, new["id"]))
        return new


def _game_record(preset: str, overrides: dict | None, players: list[str], game_id: str | None,
                 created: str | None, rules: dict | None) -> dict:
    """A checked game record, ready for ``_insert_game``."""
    from companion.table.game import new_state

    check_player_names(players)
    state = new_state({"preset": preset, "overrides": overrides or {}, "players": players, "rules": rules})
    # the resolved rules are kept with the game, so that a later change of a preset file
    # cannot change (or break) a game that is already being played
    return {"id": game_id, "preset": preset, "overrides": dict(overrides or {}), "players": list(players),
            "created": created or _now(), "rules": state.rules.to_dict()}


def _insert_game(con: sqlite3.Connection, game: dict) -> None:
    try:
        con.execute("INSERT INTO games (id, preset, overrides, players, created, updated, rules) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game["id"], game["preset"], json.dumps(game["overrides"]), json.dumps(game["players"]),
                     game["created"], game["created"], json.dumps(game["rules"])))
    except sqlite3.IntegrityError as e:
        raise TableError(f"a game with id {game['id']!r} exists already") from e
