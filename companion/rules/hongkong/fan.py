"""The fan table of modern Hong Kong play (seed 004), as data plus one evaluator.

Each item has an id, its English and German name and its fan; limit hands
have ``fan=None`` and score the cap.  Bonus items (flowers and seasons) count
toward the total but not toward the minimum.  Hands whose value differs
between sources read it from the options (see ``options.OVERRIDABLE``).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.hand import Decomposition, decompose, is_thirteen_orphans, wait_shapes
from companion.rules.hand_request import HandInput, Meld
from companion.rules.hongkong.options import HongKongOptions
from companion.tiles import DRAGONS, NUM_KINDS, WINDS, is_honor, is_terminal_or_honor


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    name_de: str
    fan: int | None  # None: a limit hand (or a value taken from the options)
    bonus: bool = False  # from flowers/seasons: not counted toward the minimum


_TABLE = (
    # 1 fan
    Item("self_drawn", "Self-drawn", "Eigener Zug", 1),
    Item("all_chows", "All chows", "Folgenhand", 1),
    Item("seat_flower", "Seat flower", "Platzblume", 1, bonus=True),
    Item("seat_season", "Seat season", "Platz-Jahreszeit", 1, bonus=True),
    Item("no_flowers", "No flowers", "Keine Glücksziegel", 1, bonus=True),
    Item("concealed_hand", "Concealed hand", "Verdeckte Hand", 1),
    Item("seat_wind", "Seat wind pung", "Drilling des Platzwinds", 1),
    Item("round_wind", "Round wind pung", "Drilling des Rundenwinds", 1),
    Item("dragon_pung", "Dragon pung", "Drilling eines Drachen", 1),  # per dragon set
    Item("robbing_kong", "Robbing the kong", "Beraubung eines Kongs", 1),
    Item("last_tile", "Win on the last tile", "Gewinn mit dem letzten Ziegel", 1),
    Item("kong_replacement", "Win on a kong replacement tile", "Gewinn mit dem Kong-Ersatzziegel", 1),
    Item("mixed_orphans", "Mixed terminals and honours", "Gemischte Hauptziegelhand", 1),
    # 2 fan
    Item("flower_set", "Full set of flowers", "Vollständiges Blumenset", 2, bonus=True),
    Item("season_set", "Full set of seasons", "Vollständiges Jahreszeitenset", 2, bonus=True),
    # 3 fan and more
    Item("half_flush", "Mixed one suit", "Unreine Farbhand", 3),
    Item("all_pungs", "All pungs", "Drillinghand", 3),
    Item("seven_flowers", "Seven bonus tiles", "Sieben Glücksziegel", 3, bonus=True),
    Item("little_three_dragons", "Little three dragons", "Kleine Drei Drachen", 5),
    Item("full_flush", "All one suit", "Reine Farbhand", 7),
    Item("big_three_dragons", "Big three dragons", "Große Drei Drachen", 8),
    # limit hands
    Item("thirteen_orphans", "Thirteen orphans", "13 Waisen", None),
    Item("all_terminals", "All terminals", "Randziegelhand", None),
    Item("all_honors", "All honours", "Honorhand", None),
    Item("eight_flowers", "Eight bonus tiles", "Acht Glücksziegel", None, bonus=True),
    Item("four_concealed_pungs", "Four concealed pungs", "Vier verdeckte Drillinge", None),
    Item("eighteen_arhats", "Eighteen arhats (four kongs)", "18 Arhats (vier Vierlinge)", None),
    Item("little_four_winds", "Little four winds", "Kleine Vier Winde", None),
    Item("big_four_winds", "Big four winds", "Große Vier Winde", None),
    Item("nine_gates", "Nine gates", "Neun Tore", None),
    Item("double_kong_replacement", "Win on the replacement tile after two kongs",
         "Gewinn mit dem Ersatzziegel nach zwei Kongs", None),
    Item("heavenly_hand", "Heavenly hand", "Himmlische Hand", None),
    Item("earthly_hand", "Earthly hand", "Irdische Hand", None),
    Item("human_hand", "Human hand", "Menschliche Hand", None),
)
ITEMS: dict[str, Item] = {item.id: item for item in _TABLE}


@dataclass(frozen=True)
class Scored:
    """One item as it scored in one hand: ``fan`` is None for a limit."""

    item: Item
    fan: int | None
    count: int = 1


@dataclass(frozen=True)
class Situation:
    """How the hand was won (request flags, already checked for consistency)."""

    tsumo: bool
    seat: str
    round: str
    chankan: bool = False
    rinshan: bool = False
    double_rinshan: bool = False
    last_tile: bool = False
    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    flower_win: bool = False


def hit(item_id: str, count: int = 1) -> Scored:
    """An item as the table values it (``count`` times, e.g. two dragon sets)."""
    item = ITEMS[item_id]
    return Scored(item, None if item.fan is None else item.fan * count, count)


def _value(item_id: str, options: HongKongOptions, default: int | None = None) -> Scored | None:
    """An item whose value may be overridden: limit, a number of fan, or not recognised."""
    raw = getattr(options, item_id, "limit") if default is None else default
    if raw == "none":
        return None
    return Scored(ITEMS[item_id], None if raw == "limit" else int(raw))


def bonus_items(flowers: frozenset[int], seat: str, options: HongKongOptions) -> list[Scored]:
    """Flowers and seasons: own ones, full sets, or none at all (seed 004)."""
    if not options.bonus_tiles:
        return []
    if not flowers:
        return [hit("no_flowers")]
    own = "ESWN".index(seat) + 1
    out = []
    full_flowers = {1, 2, 3, 4} <= flowers
    full_seasons = {5, 6, 7, 8} <= flowers
    # the own flower inside a full set is not counted again ("wird nicht dazugerechnet")
    if full_flowers:
        out.append(hit("flower_set"))
    elif own in flowers:
        out.append(hit("seat_flower"))
    if full_seasons:
        out.append(hit("season_set"))
    elif own + 4 in flowers:
        out.append(hit("seat_season"))
    return out


def situation_items(hand: HandInput, sit: Situation, options: HongKongOptions) -> list[Scored]:
    out = []
    if sit.tsumo:
        out.append(hit("self_drawn"))
    if not hand.melds and options.concealed_counts() and (sit.tsumo or not options.concealed_requires_tsumo):
        out.append(hit("concealed_hand"))
    if sit.chankan:
        out.append(hit("robbing_kong"))
    if sit.last_tile and (sit.tsumo or not options.last_tile_tsumo_only):
        out.append(hit("last_tile"))
    if sit.double_rinshan:
        out.append(hit("double_kong_replacement"))
    elif sit.rinshan:
        out.append(hit("kong_replacement"))
    for flag, item_id in ((sit.heavenly, "heavenly_hand"), (sit.earthly, "earthly_hand"), (sit.human, "human_hand")):
        if flag:
            scored = _value(item_id, options)
            if scored is not None:
                out.append(scored)
    return out


# a set as (kind, first tile, called): kind "chi", "pon" or "kong"
_Set = tuple[str, int, bool]


def _sets(decomposition: Decomposition, melds: tuple[Meld, ...]) -> list[_Set]:
    sets: list[_Set] = [(kind, first, False) for kind, first in decomposition.sets]
    for m in melds:
        sets.append(("chi" if m.is_chi else "kong" if m.is_kan else "pon", m.first, True))
    return sets


def pattern_items(hand: HandInput, d: Decomposition, sit: Situation, options: HongKongOptions) -> list[Scored]:
    """Items from the shape of one reading of the hand (sets and pair)."""
    sets = _sets(d, hand.melds)
    triplets = [first for kind, first, _ in sets if kind != "chi"]
    out: list[Scored] = []

    if all(kind == "chi" for kind, _, _ in sets):
        out.append(hit("all_chows"))
    if len(triplets) == 4 and options.all_pungs:
        out.append(Scored(ITEMS["all_pungs"], options.all_pungs))

    kinds = [k for k in range(NUM_KINDS) if hand.all_counts[k]]
    suits = {k // 9 for k in kinds if not is_honor(k)}
    honors = any(is_honor(k) for k in kinds)
    if not suits:
        out.append(hit("all_honors"))
    elif len(suits) == 1:
        out.append(hit("half_flush") if honors else hit("full_flush"))
    if suits and all(is_terminal_or_honor(k) for k in kinds):
        out.append(hit("mixed_orphans") if honors else hit("all_terminals"))

    dragon_sets = [k for k in triplets if k in DRAGONS]
    if len(dragon_sets) == 3:
        out.append(hit("big_three_dragons"))
    elif len(dragon_sets) == 2 and d.pair in DRAGONS:
        out.append(hit("little_three_dragons"))
    elif dragon_sets:
        out.append(hit("dragon_pung", count=len(dragon_sets)))

    wind_sets = [k for k in triplets if k in WINDS]
    four_winds = None
    if len(wind_sets) == 4:
        four_winds = "big_four_winds"
    elif len(wind_sets) == 3 and d.pair in WINDS:
        four_winds = "little_four_winds"
    if four_winds and getattr(options, four_winds) != "none":
        out.append(_value(four_winds, options))
    else:
        # the four-winds hands already pay for their winds; otherwise each own wind set counts
        seat_kind = WINDS["ESWN".index(sit.seat)]
        round_kind = WINDS["ESWN".index(sit.round)]
        if seat_kind in wind_sets:
            out.append(hit("seat_wind"))
        if round_kind in wind_sets:
            out.append(hit("round_wind"))

    if sum(1 for kind, _, _ in sets if kind == "kong") == 4:
        scored = _value("eighteen_arhats", options)
        if scored is not None:
            out.append(scored)

    # all four sets concealed pungs ("Vierlinge nicht zulässig", and in Hong Kong every kong is laid out);
    # won on a discard only when the discard completes the pair, not a pung
    if not hand.melds and len(triplets) == 4 and (
        sit.tsumo or ("tanki", -1) in wait_shapes(d, hand.win_kind)
    ):
        scored = _value("four_concealed_pungs", options)
        if scored is not None:
            out.append(scored)

    if not hand.melds and is_nine_gates(hand.counts):
        scored = _value("nine_gates", options)
        if scored is not None:
            out.append(scored)
    return out


def is_nine_gates(counts: tuple[int, ...]) -> bool:
    """1-1-1-2-3-4-5-6-7-8-9-9-9 of one suit plus any tile of that suit, all concealed."""
    for base in (0, 9, 18):
        suit = counts[base:base + 9]
        if sum(suit) == 14 and suit[0] >= 3 and suit[8] >= 3 and all(c >= 1 for c in suit[1:8]):
            return True
    return False


@dataclass(frozen=True)
class Evaluation:
    scored: tuple[Scored, ...]
    decomposition: str

    @property
    def limit_items(self) -> list[Scored]:
        return [s for s in self.scored if s.fan is None]

    @property
    def raw_fan(self) -> int:
        return sum(s.fan for s in self.scored if s.fan is not None)

    @property
    def fan_toward_minimum(self) -> int:
        return sum(s.fan for s in self.scored if s.fan is not None and not s.item.bonus)

    def key(self, options: HongKongOptions) -> tuple:
        limit = bool(self.limit_items)
        capped = options.cap if limit else min(self.raw_fan, options.cap)
        reaches = limit or self.fan_toward_minimum >= options.min_fan
        return (limit, reaches, capped, self.fan_toward_minimum, self.raw_fan)


def evaluate(hand: HandInput, sit: Situation, options: HongKongOptions) -> Evaluation | None:
    """The best-paying reading of a complete hand; None if the tiles do not form a hand."""
    common = situation_items(hand, sit, options) + bonus_items(hand.flower_numbers, sit.seat, options)
    candidates: list[Evaluation] = []
    if not hand.melds and is_thirteen_orphans(hand.counts):
        candidates.append(Evaluation(tuple(common + [hit("thirteen_orphans")]), "thirteen orphans"))
    for d in decompose(hand.counts, len(hand.melds)):
        candidates.append(Evaluation(tuple(common + pattern_items(hand, d, sit, options)), str(d)))
    if not candidates:
        return None
    return max(candidates, key=lambda e: e.key(options))
