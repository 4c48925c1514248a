"""Tournaments: many tables, seating, live standings and exports, on top of the table's games.

Modules: ``seating`` (``plan_rounds``: a seeded plan with few repeat meetings and even winds;
``swiss_round``), ``model`` (the tournament as a fold over its log), ``standings`` (totals and
tie-breaks folded from the games' final results), ``store`` (SQLite tables next to the games),
``service`` (``Tournaments``: what the web layer calls) and ``export`` (JSON and CSV).
"""

from companion.tournament.service import Tournaments

__all__ = ["Tournaments"]
