"""Tournaments in the same SQLite file as the games: a creation record and an append-only log.

Nothing about a tournament is edited in place. Players joining or withdrawing, seating plans,
seated rounds (with their game ids) and penalties are log entries; the tournament as shown is
a fold over the log (``companion.tournament.model``) and the standings a fold over the games.

Same durability as the table's store: WAL journal, ``synchronous=FULL``, a connection per call
(safe across waitress threads), every entry committed before the call returns. A ``client_id``
is unique per tournament, so a retried request finds its entry instead of writing it twice.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from contextlib import closing
from pathlib import Path

from companion import storage
from companion.errors import CompanionError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    client_id TEXT UNIQUE,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_log (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    seq INTEGER NOT NULL,
    client_id TEXT NOT NULL,
    entry TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (tournament_id, seq),
    UNIQUE (tournament_id, client_id)
);
"""


class TournamentError(CompanionError):
    """A tournament request that does not fit the tournament as it stands."""

    code = "tournament_error"


class TournamentNotFoundError(TournamentError):
    code = "not_found"


class TournamentStateError(TournamentError):
    """Right request, wrong moment (a round still being played, all rounds seated ...)."""

    code = "conflict"


now = storage.utc_now


class TournamentStore:
    """Tournament records and logs in the SQLite file at ``path`` (tables created if missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        storage.prepare(self.path, _SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        return storage.connect(self.path)

    def create(self, record: dict, client_id: str | None = None) -> tuple[dict, bool]:
        """Store a new tournament record (an ``id`` is added); returns ``(record, duplicate)``.

        With a ``client_id`` seen before, nothing is written and the earlier record comes back."""
        with storage.transaction(self.path) as con:
            if client_id:
                row = con.execute("SELECT record FROM tournaments WHERE client_id = ?",
                                  (client_id,)).fetchone()
                if row is not None:
                    return json.loads(row[0]), True
            record = {**record, "id": uuid.uuid4().hex[:10], "created": now()}
            con.execute("INSERT INTO tournaments (id, record, client_id, created, updated) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (record["id"], json.dumps(record), client_id, record["created"], record["created"]))
            return record, False

    def list(self) -> list[dict]:
        """All tournament records (``updated`` added), most recently changed first."""
        with closing(self._connect()) as con:
            rows = con.execute("SELECT record, updated FROM tournaments ORDER BY updated DESC, created DESC")
            return [json.loads(record) | {"updated": updated} for record, updated in rows]

    def load(self, tid: str) -> tuple[dict, list[dict]]:
        """The record and its log in order; each entry carries ``seq``, ``client_id`` and ``at``."""
        with closing(self._connect()) as con:
            con.execute("BEGIN")
            row = con.execute("SELECT record FROM tournaments WHERE id = ?", (tid,)).fetchone()
            rows = con.execute("SELECT seq, client_id, entry, created FROM tournament_log "
                               "WHERE tournament_id = ? ORDER BY seq", (tid,)).fetchall()
            con.execute("COMMIT")
        if row is None:
            raise TournamentNotFoundError(f"no tournament with id {tid!r}")
        return json.loads(row[0]), [{**json.loads(e), "seq": s, "client_id": c, "at": at}
                                    for s, c, e, at in rows]

    def append(self, tid: str, entries: list[dict], client_id: str,
               unique_round: int | None = None) -> tuple[list[dict], bool]:
        """Append ``entries`` in one transaction; the last one carries ``client_id`` (the others
        get derived ids). Returns the stored entries and whether they were there already.

        ``unique_round``: refuse to write a second ``round`` entry for that round number (another
        request seated it first); the entry stored then comes back as a duplicate."""
        if not isinstance(client_id, str) or not client_id or len(client_id) > 200:
            raise TournamentError('"client_id" must be a string of 1-200 characters unique to this request')
        with storage.transaction(self.path) as con:
            if con.execute("SELECT 1 FROM tournaments WHERE id = ?", (tid,)).fetchone() is None:
                raise TournamentNotFoundError(f"no tournament with id {tid!r}")
            dup = con.execute("SELECT seq, entry, created FROM tournament_log "
                              "WHERE tournament_id = ? AND client_id = ?", (tid, client_id)).fetchone()
            if dup is None and unique_round is not None:
                seated: dict = {}
                for seq, entry, created in con.execute(
                        "SELECT seq, entry, created FROM tournament_log WHERE tournament_id = ? ORDER BY seq",
                        (tid,)):
                    e = json.loads(entry)
                    if e.get("type") == "round":
                        seated[e.get("round")] = (seq, entry, created)
                    elif e.get("type") == "round_cancelled":
                        seated.pop(e.get("round"), None)
                dup = seated.get(unique_round)
            if dup is not None:
                return [{**json.loads(dup[1]), "seq": dup[0], "client_id": client_id, "at": dup[2]}], True
            seq = con.execute("SELECT COALESCE(MAX(seq), 0) FROM tournament_log WHERE tournament_id = ?",
                              (tid,)).fetchone()[0]
            at = now()
            stored = []
            for i, entry in enumerate(entries):
                seq += 1
                cid = client_id if i == len(entries) - 1 else f"{client_id}#{i + 1}"
                body = {k: v for k, v in entry.items() if k not in ("seq", "client_id", "at")}
                con.execute("INSERT INTO tournament_log (tournament_id, seq, client_id, entry, created) "
                            "VALUES (?, ?, ?, ?, ?)", (tid, seq, cid, json.dumps(body), at))
                stored.append({**body, "seq": seq, "client_id": cid, "at": at})
            con.execute("UPDATE tournaments SET updated = ? WHERE id = ?", (at, tid))
            return stored, False
