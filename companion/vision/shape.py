"""What the hand's shape says about a reading: a photo of a won hand shows a winning hand. Where the tiles as read
make none, the least sure ones are read as their next likeliest kinds until one does (:func:`complete_hand`), or
the melds are mended into melds (:func:`mend_melds`); a tile no net could read is named by the one kind with which
the hand wins (:func:`named_by_shape`); and a tile read a little unsurely that no other kind could replace needs no
check (:func:`vouched_by_shape`). Plain functions of the rows' groups of tiles (:class:`layout.Det`) and the request
built from them (:func:`layout.build_request`); the pipeline (:mod:`companion.vision.pipeline`) decides when to ask."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from companion.errors import CompanionError
from companion.hand import shanten
from companion.tiles import ALL_CLASSES, NUM_KINDS, parse_tile, parse_tiles, to_counts
from companion.vision.layout import BACK_DOUBT, LOOKED_OFFERED, Det, build_request, could_win

CONFIDENCE_MIN = 0.8  # below this a tile is listed as uncertain
RED_DOUBT = 0.05  # a five whose red (or plain) counterpart is this likely is listed as uncertain (twin_doubt)
COMPLETE_CANDIDATES = 6  # the least sure hand tiles that complete_hand may read differently
COMPLETE_MIN_ODDS = 0.01  # a completing reading at least this likely relative to the tiles as read (tuned on eval-won2)
SHAPE_UNREAD = 0.5  # a hand tile read less surely than this may be read as the one tile the hand's shape names
SHAPE_BLANK = 0.8  # so may one read as a white dragon or a back less surely than this (a finger on its face)
SHAPE_MELDS_MAX = 3  # ... where at most this many melds are called (with four, the two concealed tiles say little)
VOUCH_FROM = 0.5  # a hand tile read this surely or more, though less than CONFIDENCE_MIN, is not listed for a check
#                   where the hand wins as read and no other kind in its place would (vouched_by_shape)


def twin_doubt(d: Det) -> bool:
    """A five that may be the red one (or a red five that may be plain) with RED_DOUBT or more, or a white dragon
    that may be a face-down tile with BACK_DOUBT or more. A red five is a han of dora, and a confident read can
    still be wrong about the colour. With the session 5 models (fully found hands, red/plain mix-ups the confidence
    leaves unmarked, and how many of them RED_DOUBT lists, for how many more of the fives read right): held-out
    style 7 of 8, for 14 of 266; won hands 5 of 7, for 18 of 250; training styles 1 of 2, for 6 of 152. A pale back
    in the dora row read as a white dragon makes a wrong dora indicator (TRAINING-LOG, "Backs read as white
    dragons")."""
    tile = d.tile
    if tile == "5z":
        twin, doubt = "x", BACK_DOUBT
    elif tile[0] in "05" and tile[1] != "z":
        twin, doubt = ("5" if tile[0] == "0" else "0") + tile[1], RED_DOUBT
    else:
        return False
    return any(name == twin and p >= doubt for name, p in d.alternatives)


def request_wins(request: dict) -> bool | None:
    """Whether the request's tiles make a winning hand (None: the tile count is off, which a different
    reading of a tile cannot mend)."""
    try:
        tiles = parse_tiles(request["hand"], max_red_per_suit=4)
        n_melds = len(request.get("melds") or [])
        if len(tiles) != 14 - 3 * n_melds:
            return None
        concealed = to_counts(tiles)
        everything = list(concealed)
        for meld in request.get("melds") or []:
            for tile in parse_tiles(meld["tiles"], max_red_per_suit=4):
                if tile.kind < len(everything):
                    everything[tile.kind] += 1
    except (CompanionError, KeyError, TypeError):
        return False
    return max(everything) <= 4 and shanten(concealed, n_melds) == -1


def complete_hand(groups: list, request: dict | None) -> list[Det]:
    """A photo of a won hand shows a winning hand. When the tiles as read make none, or make no request at all
    (a called meld or a closed kan misread: 4p 6p 4p with the sideways tile is neither a chi nor a pon), the
    least sure hand tiles are read as their next likeliest classes (one, then two at a time) and the likeliest
    combination that makes a request with a winning hand is kept. Returns the tiles changed (their ``tile``
    and ``confidence`` updated, so that they are listed as uncertain); nothing when the hand is complete
    already or no such reading exists."""
    if not groups or (request is not None and request_wins(request) is not False):
        return []
    hand = [d for g in groups[-1] for d in g]
    return _likeliest_reading(groups, hand, lambda req: bool(request_wins(req)), could_win(groups))


def vouched_by_shape(groups: list, request: dict | None) -> list[Det]:
    """The hand tiles whose reading the hand's shape vouches for, so that they need no check: where the tiles as
    read make a winning hand, a hand tile read with VOUCH_FROM or more but less than CONFIDENCE_MIN, with which no
    other of the 34 kinds in its place makes one, nor another kind in the places of it and every other such unsure
    tile read as the same kind (a pair or a set of like tiles misread alike wins as well as read: 9m 9m for 8m 8m).
    Not a tile the player set, one looked for or put back (:func:`_unsure`), a back, a flower, nor one its twin may
    be (:func:`twin_doubt`: a red five wins where the plain one does). The tiles as read afterwards.

    A misread tile that still makes a winning hand needs another tile misread to match it, or kinds that win in the
    same place (the ends of a sequence: 234s or 345s); so a tile the shape vouches for is read right far more often
    than its confidence says: over 13,100 photos of 72 sets (session 71) it took 4,022 tiles off the list, 3,996 of
    them read right (99.4%), where 81% of the 37,015 tiles the confidence listed were (models/TRAINING-LOG.md, "Tiles
    the hand's shape vouches for")."""
    if not groups or request is None or not request_wins(request):
        return []
    hand = [d for g in groups[-1] for d in g]
    unsure = [d for d in hand if d.confidence < CONFIDENCE_MIN and not d.checked]
    possible = could_win(groups)
    vouched = []
    for d in unsure:
        if (d.confidence < VOUCH_FROM or d.restored or d.looked_for or d.tile == "x" or d.tile.endswith("f")
                or twin_doubt(d)):
            continue
        kind = ALL_CLASSES[parse_tile(d.tile).kind]  # a red five's kind is the five's
        like = [e for e in unsure if e.tile == d.tile]  # d among them
        if not kinds_that_win(groups, d, possible, but=kind) and (
                len(like) == 1 or not kinds_that_win(groups, like, possible, but=kind)):
            vouched.append(d)
    return vouched


def named_by_shape(groups: list, request: dict | None) -> tuple[list[Det], list[tuple[Det, list[str]]]]:
    """A photo of a won hand shows a winning hand, so where the tiles as read make none (or no request at all: a
    covered tile read as a back), a hand tile no net could read (read with less than SHAPE_UNREAD, or as a white
    dragon or a back with less than SHAPE_BLANK: a face whose ink a finger, glare or shadow hides reads as a blank
    one; or so however surely where a tap of the player's put it there or kept it, the localisers having missed it
    or the verifier having taken it for no tile: a finger's face can read as surely blank as a white dragon's) is
    read as the tile the hand's shape names: where of every such tile read as every other kind just one
    reading makes a winning hand, that tile is read so (its ``confidence`` the classifiers' for it, so that it is
    listed as uncertain) and returned first. Where the readings that win are of one such tile but several kinds (the
    hidden tile of a two-sided wait), those kinds lead its ``alternatives`` (the page offers them first when it is
    tapped), and the tile and those kinds are returned second. A tile put in a gap as read where several kinds
    would win there (LOOKED_OFFERED, :func:`_named_in_gap`) is tried however surely it was read, and offered so
    also where, as read, it is one of those kinds (the hand wins: the classifiers' reading of a finger, no better
    than a guess). Not where four melds leave two concealed tiles: the shape then says only that they are a
    pair."""
    if not groups:
        return [], []
    won = request is not None and request_wins(request) is not False
    unread = [d for g in groups[-1] for d in g if not d.checked and not d.tile.endswith("f")
              and (d.looked_for == LOOKED_OFFERED or not won and (
                  d.confidence < SHAPE_UNREAD or (d.tile in ("5z", "x") and (d.confidence < SHAPE_BLANK or d.restored))))]
    possible = could_win(groups)
    winning = [(d, kind) for d in unread for kind in kinds_that_win(groups, d, possible, SHAPE_MELDS_MAX)]
    if not winning or any(d is not winning[0][0] for d, _ in winning) or (won and len(winning) == 1):
        return [], []
    d = winning[0][0]
    odds = dict(d.alternatives)
    if len(winning) == 1:
        d.tile, d.confidence = winning[0][1], min(d.confidence, odds.get(winning[0][1], 0.0))
        return [d], []
    kinds = [kind for _, kind in winning]
    d.alternatives = (*(a for a in d.alternatives if a[0] == d.tile),
                      *((kind, odds.get(kind, 0.0)) for kind in kinds if kind != d.tile),
                      *(a for a in d.alternatives if a[0] != d.tile and a[0] not in kinds))
    return [], [(d, kinds)]


def kinds_that_win(groups: list, d: Det | list[Det], possible: Callable[[], bool], melds_max: int = 4,
                    but: str | None = None) -> list[str]:
    """The kinds (of the 34) with which, read as ``d`` (or as each of the tiles ``d``, all alike), the tiles
    ``groups`` make a winning hand with at most ``melds_max`` melds called; ``d`` read as before afterwards.
    ``possible``: :func:`could_win` of ``groups``, asked before each request is built. (The kind ``d`` is read as
    wins only where the tiles win already.) With ``but``: the first kind other than that one, or none (whether
    another wins is all that is asked then)."""
    tiles = d if isinstance(d, list) else [d]
    as_read, kinds = [t.tile for t in tiles], []
    for kind in ALL_CLASSES[:NUM_KINDS]:
        if kind == but:
            continue
        for t in tiles:
            t.tile = kind
        if possible() and (req := build_request(groups)[0]) is not None and len(req["melds"]) <= melds_max \
                and request_wins(req):
            kinds.append(kind)
            if but is not None:
                break
    for t, tile in zip(tiles, as_read, strict=True):
        t.tile = tile
    return kinds


def mend_melds(groups: list) -> list[Det]:
    """Called melds are melds, won hand or not: when the tiles make no request, the least sure tiles right of
    the first group of the hand row (where the melds lie) are read as their next likeliest classes, and the
    likeliest reading that makes a request is kept (see :func:`complete_hand`). For photos of hands that are
    not (yet) winning ones, and won hands that no reading of two tiles completes."""
    if not groups or not groups[-1]:
        return []
    beyond = [d for g in groups[-1][1:] for d in g]
    return _likeliest_reading(groups, beyond, lambda req: True, could_win(groups, win=False))


def _likeliest_reading(groups: list, tiles: list[Det], accept: Callable[[dict], bool],
                       possible: Callable[[], bool] = lambda: True) -> list[Det]:
    """Of ``tiles``, the COMPLETE_CANDIDATES least sure are read as their next likeliest classes, one then two
    at a time; the likeliest reading whose request ``accept`` takes is kept if it is at least COMPLETE_MIN_ODDS
    as likely as the tiles as read (among equally likely ones, single changes before pairs, the less sure tiles
    first). Returns the tiles changed. A reading for which ``possible`` (asked with its tiles set) is false is
    passed over without building its request: it must be true of every reading ``accept`` would take.

    Readings are tried likeliest first, so the first one taken is the answer; each tile's odds are at most 1, so
    a reading below COMPLETE_MIN_ODDS, or a pair with a tile below it, is never built."""
    unsure = sorted((d for d in tiles if len(d.alternatives) > 1 and d.tile not in ("x", "?") and not d.tile.endswith("f")),
                    key=lambda d: d.alternatives[0][1])
    choices = [(d, tile, prob / d.alternatives[0][1]) for d in unsure[:COMPLETE_CANDIDATES]
               for tile, prob in d.alternatives[1:] if not tile.endswith("f")]
    choices = [c for c in choices if c[2] >= COMPLETE_MIN_ODDS]
    trials = [[c] for c in choices] + [[a, b] for i, a in enumerate(choices) for b in choices[i + 1:] if a[0] is not b[0]]
    ranked = sorted(((float(np.prod([c[2] for c in trial])), trial) for trial in trials), key=lambda t: -t[0])
    for odds, trial in ranked:  # sorted is stable: equally likely readings keep the order above
        if odds < COMPLETE_MIN_ODDS:
            break
        before = [(d, d.tile) for d, _, _ in trial]
        for d, tile, _ in trial:
            d.tile = tile
        req = build_request(groups)[0] if possible() else None
        if req is not None and accept(req):
            for d, tile, _ in trial:
                d.confidence = min(d.confidence, dict(d.alternatives)[tile])
            return [d for d, _, _ in trial]
        for d, tile in before:
            d.tile = tile
    return []
