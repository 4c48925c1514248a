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
import sqlite3
import uuid
from contextlib import closing
from pathlib import Path

from companion import storage
from companion.errors import TableError

EXPORT_FORMAT = "mahjong-companion-game"

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
        from companion.table.game import new_state

        state = new_state({"preset": preset, "overrides": overrides or {}, "players": players, "rules": rules})
        # the resolved rules are kept with the game, so that a later change of a preset file
        # cannot change (or break) a game that is already being played
        game = {"id": game_id or uuid.uuid4().hex[:12], "preset": preset, "overrides": dict(overrides or {}),
                "players": list(players), "created": created or _now(), "rules": state.rules.to_dict()}
        with closing(self._connect()) as con:
            try:
                con.execute("INSERT INTO games (id, preset, overrides, players, created, updated, rules) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (game["id"], preset, json.dumps(game["overrides"]), json.dumps(game["players"]),
                             game["created"], game["created"], json.dumps(game["rules"])))
            except sqlite3.IntegrityError as e:
                raise TableError(f"a game with id {game['id']!r} exists already") from e
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
        """Store an exported game after checking it folds; keeps its id unless that is taken."""
        from companion.table.game import fold

        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise TableError(f'not an exported game (expected "format": "{EXPORT_FORMAT}")')
        game, events = data.get("game"), data.get("events")
        if not isinstance(game, dict) or not isinstance(events, list):
            raise TableError("an exported game needs a game object and an events list")
        state = fold(game, events)  # raises if anything does not fit
        clients = [e.get("client_id") or f"import-{i + 1}" for i, e in enumerate(events)]
        if len(set(clients)) != len(clients):
            raise TableError("the exported events repeat a client_id")
        gid = game.get("id")
        with closing(self._connect()) as con:
            taken = gid is None or con.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone()
        new = self.create_game(game["preset"], game.get("overrides") or {}, game["players"],
                               game_id=None if taken else gid, created=game.get("created"),
                               rules=game.get("rules"))
        with storage.transaction(self.path) as con:
            now = _now()
            con.executemany("INSERT INTO events (game_id, seq, client_id, event, created) VALUES (?, ?, ?, ?, ?)",
                            [(new["id"], i + 1, clients[i],
                              json.dumps({k: v for k, v in e.items() if k not in ("seq", "client_id")}), now)
                             for i, e in enumerate(events)])
            con.execute("UPDATE games SET finished = ?, updated = ? WHERE id = ?",
                        (int(state.finished), now, new["id"]))
        return new
