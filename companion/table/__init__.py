"""The table: a game as a fold over an append-only event log, its rules, storage and service.

Modules: ``rules`` (``TableRules``, ``table_rules``), ``game`` (``fold``, ``preview``),
``store`` (``Store`` on SQLite, ``ConflictError``, ``GameNotFoundError``), ``service``
(``create_game``, ``append_event``, ``game_state``, ``preview_event``). The event types and
their JSON are listed in ``companion.table.game`` and in the README's table section.
"""

from companion.table.store import ConflictError, GameNotFoundError

__all__ = ["ConflictError", "GameNotFoundError"]
