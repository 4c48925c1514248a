"""The value of one hand under seed 002: base points, then doubles, then the limit.

A winning hand may split into sets in several ways, and its final tile may sit
in several places; every reading is scored and the best one kept, as players
announce the most favourable reading of their own hand.
"""

from __future__ import annotations

from typing import NamedTuple

from companion.errors import NotCompleteError
from companion.hand import decompose, is_seven_pairs, is_thirteen_orphans, wait_shapes
from companion.rules.hand_request import HandInput
from companion.tiles import (
    DRAGONS,
    FIRST_FLOWER,
    WIND_LETTERS,
    Tile,
    format_tiles,
    is_honor,
    is_terminal_or_honor,
    suit_of,
    to_counts,
    wind_kind,
)

from .request import Options
from .tables import DOUBLES_BY_ID, POINTS_BY_ID


class Figure(NamedTuple):
    """A set of the hand: ``shape`` chi, pong or kan, its first tile kind, whether it counts as concealed."""

    shape: str
    kind: int
    concealed: bool

    def tiles(self) -> str:
        if self.shape == "chi":
            return format_tiles(Tile(self.kind + i) for i in range(3))
        return format_tiles([Tile(self.kind)] * (4 if self.shape == "kan" else 3))

    def to_dict(self) -> dict:
        return {"type": self.shape, "tiles": self.tiles(), "concealed": self.concealed}


def _points_item(row_id: str, points: int, **extra: object) -> dict:
    row = POINTS_BY_ID[row_id]
    return {"id": row.id, "name": row.name, "name_de": row.name_de, "points": points, **extra}


def _doubles_item(row_id: str, **extra: object) -> dict:
    row = DOUBLES_BY_ID[row_id]
    return {"id": row.id, "name": row.name, "name_de": row.name_de, "doubles": row.doubles, **extra}


def _set_items(fig: Figure, seat_kind: int, round_kind: int) -> list[dict]:
    if fig.shape == "chi":
        return []  # seed 002: "Chis bringen dabei keine Punkte an sich"
    edge = is_terminal_or_honor(fig.kind)
    row_id = f"{'kan' if fig.shape == 'kan' else 'pong'}_{'terminals_honors' if edge else 'simples'}"
    row = POINTS_BY_ID[row_id]
    points = row.concealed if fig.concealed else row.open
    items = [_points_item(row_id, points, tiles=fig.tiles(), concealed=fig.concealed)]
    # seed 002: doubles add up per set, e.g. a kan of red dragons brings 2 (kan + dragons)
    if is_honor(fig.kind):
        items.append(_doubles_item("dragon_wind_set", tiles=fig.tiles()))
    if fig.kind == seat_kind:
        items.append(_doubles_item("seat_wind_set", tiles=fig.tiles()))
    if fig.kind == round_kind:
        items.append(_doubles_item("round_wind_set", tiles=fig.tiles()))
    if fig.shape == "kan":
        items.append(_doubles_item("kan", tiles=fig.tiles()))
    return items


def _pair_items(pair: int | None, seat_kind: int, round_kind: int) -> list[dict]:
    # One row "Paar aus Drachen, Platz- oder Rundenwinden" worth 2: a pair of the wind that is both
    # seat and round wind is still one pair of that row, so it scores 2, not 4.
    if pair is None or not (pair in DRAGONS or pair in (seat_kind, round_kind)):
        return []
    return [_points_item("pair_dragons_winds", 2, tiles=format_tiles([Tile(pair)] * 2))]


def _flower_items(flowers: list[int], seat: str, round_wind: str) -> list[dict]:
    items = []
    for kind in flowers:
        items.append(_points_item("flower", 4, tiles=str(Tile(kind))))
    for kind in flowers:
        # numbers 1-4 belong to East, South, West, North for flowers and seasons alike
        wind = WIND_LETTERS[(kind - FIRST_FLOWER) % 4]
        if wind == seat:
            items.append(_doubles_item("seat_flower", tiles=str(Tile(kind))))
        if wind == round_wind:
            items.append(_doubles_item("round_flower", tiles=str(Tile(kind))))
    have = set(flowers)
    # The three bouquet rows are separate rows of the table, so all eight also bring both sets of four.
    if set(range(FIRST_FLOWER, FIRST_FLOWER + 4)) <= have:
        items.append(_doubles_item("all_flowers"))
    if set(range(FIRST_FLOWER + 4, FIRST_FLOWER + 8)) <= have:
        items.append(_doubles_item("all_seasons"))
    if len(have) == 8:
        items.append(_doubles_item("all_bonus_tiles"))
    return items


def _pattern_items(kinds: list[int]) -> list[dict]:
    """Nur Trumpf and the two one-suit hands, from every tile the hand holds."""
    items = []
    if kinds and all(is_terminal_or_honor(k) for k in kinds):
        items.append(_doubles_item("all_trumps"))
    suits = {suit_of(k) for k in kinds if not is_honor(k)}
    honours = any(is_honor(k) for k in kinds)
    if len(suits) == 1:
        items.append(_doubles_item("half_flush" if honours else "full_flush"))
    return items


def _total(items: list[dict], options: Options) -> dict:
    points = sum(i.get("points", 0) for i in items)
    doubles = sum(i.get("doubles", 0) for i in items)
    raw = points * 2 ** doubles
    capped = options.limit is not None and raw > options.limit
    return {
        "points": points,
        "doubles": doubles,
        "raw_value": raw,
        "value": options.limit if capped else raw,
        "limit": options.limit if capped else None,
    }


def _result(items: list[dict], figures: list[Figure], pair: int | None, options: Options, **extra: object) -> dict:
    result = _total(items, options)
    result["items"] = items
    result["sets"] = [f.to_dict() for f in figures]
    result["pair"] = format_tiles([Tile(pair)] * 2) if pair is not None else None
    result.update(extra)
    return result


def _meld_figures(hand: HandInput) -> list[Figure]:
    figures = []
    for m in hand.melds:
        shape = "chi" if m.type == "chi" else "kan" if m.is_kan else "pong"
        figures.append(Figure(shape, m.first, not m.is_open))
    return figures


def score_losing_hand(hand: HandInput, options: Options) -> dict:
    """A hand that did not go Mahjongg: its sets, one pair and its flowers (seed 002 scores every
    player's hand). Concealed tiles are read as favourably as they can be: three or four alike count
    as a concealed pong (four alike that were never declared are no kan, seed 002), and of the
    pairs the one that scores."""
    seat_kind, round_kind = wind_kind(hand.seat_wind), wind_kind(hand.round_wind)
    counts = to_counts(hand.tiles)
    figures = _meld_figures(hand) + [Figure("pong", k, True) for k, c in enumerate(counts) if c >= 3]
    pairs = [k for k, c in enumerate(counts) if c == 2]
    valued = [k for k in pairs if k in DRAGONS or k in (seat_kind, round_kind)]
    pair = valued[0] if valued else (pairs[0] if pairs else None)
    items = []
    for fig in figures:
        items += _set_items(fig, seat_kind, round_kind)
    items += _pair_items(pair, seat_kind, round_kind)
    items += _flower_items(hand.flowers, hand.seat_wind, hand.round_wind)
    if options.loser_hand_doubles:
        items += _pattern_items([t.kind for t in hand.all_tiles()])
    return _result(_ordered(items), figures, pair, options, won=False, seat_wind=hand.seat_wind)


def _not_complete(hand: HandInput) -> NotCompleteError:
    counts = to_counts(hand.tiles)
    if not hand.melds and (is_seven_pairs(counts) or is_thirteen_orphans(counts)):
        return NotCompleteError(
            "this is a special hand (seven pairs or thirteen orphans); Gravon's classical rules have no special "
            "hands yet, so only four sets and a pair can go Mahjongg"
        )
    return NotCompleteError(
        f"{format_tiles(sorted(hand.tiles))} with {len(hand.melds)} meld(s) is not a complete hand: "
        "it needs four sets (chi, pong, kan) and one pair"
    )


def score_winning_hand(hand: HandInput, options: Options) -> dict:
    """The best reading of a Mahjongg hand."""
    assert hand.win_tile is not None
    seat_kind, round_kind = wind_kind(hand.seat_wind), wind_kind(hand.round_wind)
    decompositions = decompose(to_counts(hand.tiles), len(hand.melds))
    if not decompositions:
        raise _not_complete(hand)
    win = hand.win_tile.kind
    melded = _meld_figures(hand)
    concealed_hand = all(not m.is_open for m in hand.melds)
    all_kinds = [t.kind for t in hand.all_tiles()]

    common: list[dict] = [_points_item("mahjong", 20)]
    common += _flower_items(hand.flowers, hand.seat_wind, hand.round_wind)
    if hand.tsumo:
        common.append(_points_item("self_drawn", 2))
    if concealed_hand:
        common.append(_doubles_item("fully_concealed_hand" if hand.tsumo else "concealed_hand"))
    common += _pattern_items(all_kinds)
    for flag, row_id in (("rinshan", "dead_wall_tile"), ("haitei", "last_wall_tile"),
                         ("houtei", "last_discard"), ("chankan", "robbing_kan")):
        if hand.flag(flag):
            common.append(_doubles_item(row_id))

    best: tuple | None = None
    for dec in decompositions:
        for wait, index in wait_shapes(dec, win):
            figures = list(melded)
            for i, (shape, kind) in enumerate(dec.sets):
                if shape == "chi":
                    figures.append(Figure("chi", kind, True))
                else:
                    # a pong completed by a called final tile was revealed by the call: seed 002 counts as
                    # concealed only a pong "durch das Ziehen eines Ziegels aus der Mauer erreicht"
                    called = not hand.tsumo and wait == "shanpon" and i == index
                    figures.append(Figure("pong", kind, not called))
            items = list(common)
            for fig in figures:
                items += _set_items(fig, seat_kind, round_kind)
            items += _pair_items(dec.pair, seat_kind, round_kind)
            if all(f.shape == "chi" for f in figures):
                items.append(_points_item("only_chis", 20))
            if all(f.shape != "chi" for f in figures):
                items.append(_doubles_item("all_pongs"))
            if wait == "tanki":
                items.append(_points_item("pair_wait", 2, tiles=str(Tile(win))))
            elif wait in ("kanchan", "penchan"):
                items.append(_points_item("only_possible_tile", 2, tiles=str(Tile(win))))
            items = _ordered(items)
            totals = _total(items, options)
            key = (totals["value"], totals["raw_value"], totals["points"])
            if best is None or key > best[0]:
                best = (key, items, figures, dec.pair, wait)
    assert best is not None
    _, items, figures, pair, wait = best
    return _result(items, figures, pair, options, won=True, seat_wind=hand.seat_wind, wait=wait)


def _ordered(items: list[dict]) -> list[dict]:
    """Points rows first, then doubles rows, each in the seed's table order."""
    order = {row_id: i for i, row_id in enumerate(list(POINTS_BY_ID) + list(DOUBLES_BY_ID))}
    return sorted(items, key=lambda item: order[item["id"]])


def score_hand(hand: HandInput, options: Options) -> dict:
    return score_winning_hand(hand, options) if hand.won else score_losing_hand(hand, options)

