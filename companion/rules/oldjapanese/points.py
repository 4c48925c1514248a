"""Counting the points (ch. 4 I): base points, the set-points table, the pair,
the kind of wait (tables 1 and 2 of seed 001) and the flowers (ch. 8 II.4a).

Every item is a dict ``{id, name, name_de, points}`` (plus ``tiles`` where a set
or pair is meant); the German names are the book's words.
"""

from __future__ import annotations

from companion.rules.oldjapanese.options import Options
from companion.rules.oldjapanese.readings import Group, Reading
from companion.rules.oldjapanese.request import Win
from companion.tiles import DRAGONS, WIND_LETTERS, WINDS, Tile, format_tiles, is_honor, is_terminal_or_honor

BASE_POINTS = 20
CONCEALED_RON_POINTS = 10
SEVEN_PAIRS_POINTS = 40
FLOWER_POINTS = 4

# (open, kan, terminal-or-honour) -> points, ch. 4 I.2e; honours and terminals score alike
_SET_POINTS = {
    (True, False, False): 2, (True, False, True): 4,
    (False, False, False): 4, (False, False, True): 8,
    (True, True, False): 8, (True, True, True): 16,
    (False, True, False): 16, (False, True, True): 32,
}

# (wait, winning tile drawn) -> points, ch. 4 I.3 and table 2
_WAIT_POINTS = {
    ("ryanmen", False): 0, ("ryanmen", True): 2,
    ("kanchan", False): 2, ("kanchan", True): 4,
    ("penchan", False): 2, ("penchan", True): 4,
    ("tanki", False): 2, ("tanki", True): 4,
    ("shanpon", False): 2, ("shanpon", True): 4,
    ("shanpon_th", False): 4, ("shanpon_th", True): 10,
}

_WAIT_NAMES = {
    "ryanmen": ("Wait on a double-sided sequence (Ryan men ten)", "Warten mit einer doppelt offenen Folge"),
    "kanchan": ("Wait on the middle of a sequence (Kan chan ten)", "Warten mit einer innen offenen Folge"),
    "penchan": ("Wait on a one-sided sequence (Pen chan ten)", "Warten mit einer einfach offenen Folge"),
    "tanki": ("Wait on the pair (Tan chao ten)", "Warten auf ein Paar"),
    "shanpon": ("Wait on a triplet of simples (Shan pon ten)", "Warten auf einen Drilling (Einfache)"),
    "shanpon_th": ("Wait on a triplet of terminals or honours (Shan pon ten)",
                   "Warten auf einen Drilling (Eck- oder Ehrenstein)"),
}


def _item(id_: str, name: str, name_de: str, points: int, tiles: str | None = None) -> dict:
    item = {"id": id_, "name": name, "name_de": name_de, "points": points}
    if tiles is not None:
        item["tiles"] = tiles
    return item


def set_item(group: Group) -> dict:
    """The points of one set (ch. 4 I.2e)."""
    if group.kind == "chi":
        return _item("chi", "Chii (sequence)", "Chii", 0, str(group))
    th = is_terminal_or_honor(group.first)
    points = _SET_POINTS[(not group.concealed, group.kan, th)]
    state_en, state_de = ("concealed", "verdeckter") if group.concealed else ("open", "offener")
    what_en, what_de = ("kong", "Gang") if group.kan else ("pong", "Pong")
    if is_honor(group.first):
        tile_en, tile_de, tile_id = "honours", "Ehrensteinen", "honors"
    elif th:
        tile_en, tile_de, tile_id = "terminals", "Ecksteinen", "terminals"
    else:
        tile_en, tile_de, tile_id = "simples", "Einfachen", "simples"
    return _item(
        f"{state_en}_{'kan' if group.kan else 'pon'}_{tile_id}",
        f"{state_en.capitalize()} {what_en} of {tile_en}",
        f"{state_de} {what_de} aus {tile_de}",
        points,
        str(group),
    )


def pair_item(kind: int, win: Win, options: Options) -> dict:
    """The pair scores only when it is of dragons or of a wind that counts for the winner (ch. 4 I.2d)."""
    tiles = format_tiles([Tile(kind)] * 2)
    seat = WINDS[WIND_LETTERS.index(win.seat)]
    round_ = WINDS[WIND_LETTERS.index(win.round_wind)]
    if kind in DRAGONS:
        # ch. 6 III.4: "Grüne Drachen-Schlusspaar (Ehrensteine) 2"
        return _item("pair_dragons", "Pair of dragons", "Schlusspaar aus Drachen", 2, tiles)
    if kind == seat and kind == round_:
        return _item("pair_double_wind", "Pair of the double wind (seat and round)",
                     "Schlusspaar aus Doppelter Windrichtung", options.double_wind_pair_points, tiles)
    if kind == seat:
        return _item("pair_seat_wind", "Pair of the seat wind", "Schlusspaar aus Eigener Richtung", 2, tiles)
    if kind == round_:
        # the book lists the own wind only; the round wind pair is read as worth the same (common practice)
        return _item("pair_round_wind", "Pair of the round wind", "Schlusspaar aus Rundenwind", 2, tiles)
    return _item("pair", "Pair", "Schlusspaar", 0, tiles)


def wait_item(reading: Reading, win: Win, pinfu: bool) -> dict:
    wait = reading.wait
    if wait == "shanpon" and is_terminal_or_honor(win.win_kind):
        wait = "shanpon_th"
    # ch. 5 I.2: the two points for drawing the tile are not given to a no-points hand
    points = 0 if pinfu else _WAIT_POINTS[(wait, win.tsumo)]
    name, name_de = _WAIT_NAMES[wait]
    how_en, how_de = ("drawn", "abgehoben") if win.tsumo else ("discarded", "aufgenommen")
    return _item(f"wait_{wait}", f"{name}, tile {how_en}", f"{name_de}, Stein {how_de}", points)


def flower_items(win: Win) -> list[dict]:
    out = []
    for kind in win.flowers:
        name = str(Tile(kind))
        out.append(_item("flower", f"Flower or season {name}", "Blumen- und Jahreszeitensteine",
                         FLOWER_POINTS, name))
    return out


def point_items(reading: Reading, win: Win, options: Options, *, pinfu: bool) -> list[dict]:
    """All point items of one reading, in the order of the book's worked examples."""
    items = []
    if reading.shape == "seven_pairs":
        # ch. 5 II.5: "Die Gesamtpunktzahl dieses Bildes beträgt grundsätzlich 40 Punkte"
        items.append(_item("seven_pairs_points", "Seven pairs: fixed total", "Sieben Paare: Gesamtpunktzahl",
                           SEVEN_PAIRS_POINTS))
        return items + flower_items(win)
    items.append(_item("base", "Base points for winning", "Basispunkte fürs Gewinnen", BASE_POINTS))
    if win.concealed_hand and not win.tsumo:
        items.append(_item("concealed_ron", "Concealed hand won on a discard",
                           "Verdeckte Hand, Stein aufgenommen", CONCEALED_RON_POINTS))
    if reading.shape == "standard":
        items.extend(set_item(g) for g in reading.groups)
        assert reading.pair is not None
        items.append(pair_item(reading.pair, win, options))
        items.append(wait_item(reading, win, pinfu))
    return items + flower_items(win)
