"""The one SQLite file behind games and tournaments, opened the same way by every store.

WAL journal (persistent in the file) and ``synchronous=FULL`` on every connection: a write is
on disk before the call that made it returns, so a server killed at any moment loses nothing it
acknowledged. A connection per call keeps a store safe to share between waitress threads.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path

_READY: set[tuple[str, str]] = set()  # (database file, schema) pairs this process has set up


def connect(path: Path) -> sqlite3.Connection:
    """An autocommit connection; callers open their own transactions (``BEGIN IMMEDIATE``)."""
    con = sqlite3.connect(path, timeout=30, isolation_level=None)
    con.execute("PRAGMA synchronous=FULL")
    con.execute("PRAGMA foreign_keys=ON")
    con.execute("PRAGMA busy_timeout=30000")
    return con


@contextmanager
def transaction(path: Path) -> Iterator[sqlite3.Connection]:
    """A write transaction on its own connection: ``BEGIN IMMEDIATE`` queues writers, so what the body
    reads and then writes is atomic; committed when the body ends, rolled back if it raises."""
    with closing(connect(path)) as con:
        con.execute("BEGIN IMMEDIATE")
        try:
            yield con
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")


def prepare(path: Path, schema: str, migrate: Callable[[sqlite3.Connection], None] | None = None) -> None:
    """Create the folder, the file and the schema once per process (the web layer opens a store per
    request; checking the schema every time would be wasted work)."""
    if path.exists() and (str(path.resolve()), schema) in _READY:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with closing(connect(path)) as con:
        con.execute("PRAGMA journal_mode=WAL")
        con.executescript(schema)
        if migrate is not None:
            migrate(con)
    _READY.add((str(path.resolve()), schema))


def utc_now() -> str:
    """``2026-11-22T01:02:03Z``: what the stores write as created/updated times."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
