"""The table: a game as a fold over an append-only event log, its rules, storage and service.

Modules: ``rules`` (``TableRules``, ``table_rules``), ``game`` (``fold``, ``preview``),
``store`` (``Store`` on SQLite), ``service`` (``append_event``, ``game_state``).
"""
