"""The two scoring tables of Gravon's classical Chinese rules (seed 002), as data.

German names are written exactly as the seed prints them, including its
spelling ("Schlußziegel", and the typo "letzer" in the last-discard row), so
that a player can find the row on the Gravon page.
"""

from __future__ import annotations

from typing import NamedTuple


class PointsRow(NamedTuple):
    """A row of the base-points table ("Basispunkte"); ``concealed`` is None where the
    seed gives one figure for both columns."""

    id: str
    name: str
    name_de: str
    open: int
    concealed: int | None = None
    winner_only: bool = False


class DoublesRow(NamedTuple):
    """A row of the doubles table ("verdoppeln"); ``winner_only`` rows describe a
    Mahjongg hand or its final tile and so cannot apply to a losing hand."""

    id: str
    name: str
    name_de: str
    doubles: int
    winner_only: bool = False


POINTS: tuple[PointsRow, ...] = (
    PointsRow("mahjong", "Mahjong", "Mahjongg", 20, winner_only=True),
    # chis are listed with "-": they score nothing, but the row exists so that it can be tested
    PointsRow("chi", "Chi", "Chi", 0, 0),
    PointsRow("pong_simples", "Pong of simples", "Pong aus Mittelziegeln", 2, 4),
    PointsRow("pong_terminals_honors", "Pong of terminals, dragons or winds",
              "Pong aus Randziegeln, Drachen oder Winden", 4, 8),
    PointsRow("kan_simples", "Kan of simples", "Kan aus Mittelziegeln", 8, 16),
    PointsRow("kan_terminals_honors", "Kan of terminals, dragons or winds",
              "Kan aus Randziegeln, Drachen oder Winden", 16, 32),
    PointsRow("pair_dragons_winds", "Pair of dragons, seat or round winds",
              "Paar aus Drachen, Platz- oder Rundenwinden", 2),
    PointsRow("flower", "Flower or season", "Blumen- oder Jahreszeitenziegel", 4),
    PointsRow("only_chis", "Only chis plus final pair", "Nur Chis plus Schlußpaar", 20, winner_only=True),
    PointsRow("self_drawn", "Mahjong with a self-drawn tile", "Mahjongg mit selbstgezogenem Ziegel", 2,
              winner_only=True),
    PointsRow("pair_wait", "Final tile completes the final pair", "Schlußziegel vervollständigt Schlußpaar", 2,
              winner_only=True),
    PointsRow("only_possible_tile", "Final tile the only possible tile for a chi",
              "Schlußziegel einzig möglicher Ziegel für Chi", 2, winner_only=True),
)

DOUBLES: tuple[DoublesRow, ...] = (
    DoublesRow("dragon_wind_set", "Each pong or kan of dragons or winds",
               "Jeder Pong oder Kan aus Drachen oder Winden", 1),
    DoublesRow("seat_wind_set", "Each pong or kan of the seat wind", "Jeder Pong oder Kan aus Platzwinden", 1),
    DoublesRow("round_wind_set", "Each pong or kan of the round wind", "Jeder Pong oder Kan aus Rundenwinden", 1),
    DoublesRow("kan", "Each kan", "Jeder Kan", 1),
    DoublesRow("seat_flower", "Each flower or season of the seat wind",
               "Jeder Blumen- oder Jahreszeitenziegel des Platzwindes", 1),
    DoublesRow("round_flower", "Each flower or season of the round wind",
               "Jeder Blumen- oder Jahreszeitenziegel des Rundenwindes", 1),
    DoublesRow("all_flowers", "All 4 flowers", "Alle 4 Blumenziegel", 1),
    DoublesRow("all_seasons", "All 4 seasons", "Alle 4 Jahreszeitenziegel", 1),
    DoublesRow("all_bonus_tiles", "All 8 flowers and seasons", "Alle 8 Blumen- und Jahreszeiten", 1),
    DoublesRow("concealed_hand", "Concealed hand", "Verdeckte Hand", 1, winner_only=True),
    DoublesRow("fully_concealed_hand", "Fully concealed hand", "Vollständig verdeckte Hand", 2, winner_only=True),
    DoublesRow("all_pongs", "Only pongs and/or kans plus final pair", "Nur Pongs und/oder Kans und Schlußpaar", 1,
               winner_only=True),
    # the three "hand pattern" doubles count for a losing hand only with the option loser_hand_doubles
    DoublesRow("all_trumps", "Only trumps", "Nur Trumpf", 3, winner_only=True),
    DoublesRow("half_flush", "Impure one-suit hand", "Unreines Farbenspiel", 1, winner_only=True),
    DoublesRow("full_flush", "Pure one-suit hand", "Reines Farbenspiel", 3, winner_only=True),
    DoublesRow("dead_wall_tile", "Final tile from the dead wall", "Schlußziegel von Toter Mauer", 1,
               winner_only=True),
    DoublesRow("last_wall_tile", "Final tile the last tile of the wall", "Schlußziegel letzter Ziegel von der Mauer",
               1, winner_only=True),
    DoublesRow("last_discard", "Final tile the last discard", "Schlußziegel letzer abgelegter Ziegel", 1,
               winner_only=True),
    DoublesRow("robbing_kan", "Robbing the kan", "Beraubung des Kan", 1, winner_only=True),
)

POINTS_BY_ID: dict[str, PointsRow] = {row.id: row for row in POINTS}
DOUBLES_BY_ID: dict[str, DoublesRow] = {row.id: row for row in DOUBLES}

# seed 002: "Auf Gravon kann das Limit ... auf 1000, 3000, 5000 oder 10000 Punkte festgesetzt" or none;
# "Die meisten Spielrunden einigen sich auf ein Limit von 3000", so that is the default
LIMITS: tuple[int | None, ...] = (1000, 3000, 5000, 10000, None)
DEFAULT_LIMIT = 3000
