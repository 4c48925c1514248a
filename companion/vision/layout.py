"""From located, classified tiles to rows, groups, melds and a scoring request.

Photo convention (README, "Recognition"): the hand lies in one row nearest the camera - the concealed
tiles, then the winning tile set a little apart, then each called meld with a gap before it (chi/pon/kan
with the called tile turned sideways; an added kan with the added tile on top of the sideways one; a
closed kan as back, face, face, back). Dora indicators lie in a separate row above the hand. Flowers may
lie anywhere in the hand row. Rows further up (the wall, discards) are left out of the request, which
says so. Anything that does not fit gives no request and a reason, never a guess.
Because only called melds may lie right of the winning tile, tiles there are cut again into melds when the
gaps split one apart, three plain tiles there that form a chi or pon count as one whose sideways tile
went unseen, and a winning tile laid against the first meld (no lone tile after the concealed ones) is split
off it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, pairwise
from statistics import median

import numpy as np

GROUP_GAP = 0.2  # gap between tiles, in tile pitches, that starts a new group (chosen on training-style scenes)
SIDE_RATIO = 1.33  # a tile's height over its width
ROW_DY = 0.45  # bottom edges further apart than this many tile heights are different rows
ROW_SLANT_MAX = 0.18  # a row's table line is followed at most this steeply (tan 10 degrees: rows tilted more are
#   read from the photo turned level, pipeline.DESKEW_MIN) where group_rows extends it to the next tile
DORA_ROW_MAX = 5  # face-up tiles in a dora row: the indicator and up to four kan dora (more: discards)
DORA_GAP_MAX = 4.0  # a row further above the hand than this many of its tile heights gives no dora (_rows_kept)
DORA_LOW = 0.5  # a box in the dora row less tall than this many of the hand's tile heights is no tile (_too_low)
DORA_SMALL = 0.4  # a box in the dora row of less than this share of a hand tile's box is no tile (_too_small)
STRAY_MAX = 2  # rows of at most this many tiles below the last longer row are no hand: a die, a tile set aside
STRAY_SMALL = 0.45  # nor is a bottom row whose boxes are less than this share of the size of a row's above it
WALL_REPEATS = 3  # one kind read this often in the row above the hand: the wall's backs (_backs_of_the_wall)
BACK_DOUBT = 0.05  # a white dragon this likely a face-down tile (its runner-up): a pale back looks as blank. Such a
#                  tile is marked for a check (pipeline._unsure), and beside the dora indicators taken for a
#                  back (_backs_beside_the_indicators)
TOUCHING = 1.12  # steps within this of the row's pitch line are touching tiles (_pitch_along; a gap: 1.2)
SLOPE_MIN_STEPS = 5  # touching steps needed to fit how the pitch changes along a row
SLANT_MIN = 1.25  # a row whose pitch changes more than this from end to end is measured by its pitch line,
SLANT_HEIGHTS_MIN = 1.1  # if its tiles' heights change, the same way, by at least this
LOOKED_KAN_BACK = "closed kan back"  # Det.looked_for: where a closed kan's missed back should lie
LOOKED_GAP = "gap"  # Det.looked_for: in a gap of one tile's width within a row
LOOKED_NAMED = "named by the hand's shape"  # Det.looked_for: in a gap where no net read a tile (a finger on it), read
#                                             as the one tile with which the hand wins (pipeline._named_in_gap)
LOOKED_OFFERED = "offered by the hand's shape"  # Det.looked_for: in such a gap, where several kinds would win there:
#                                                 put in as read, those kinds offered (shape.named_by_shape)
LOOKED_SPLIT = "two in one box"  # Det.looked_for: one of two touching tiles the localisers found as one wide box
MERGED_WIDTH = 1.15  # a box this many times as wide as its row's typical upright box may hold two tiles (wide_boxes;
#                      before the halves had to agree with the box, 1.25 read 12 more of the 50 sets' requests, 1.15
#                      23, 1.05 36 with 39 more wrong ones offered)
LOOKED_JOINED = "one in two boxes"  # Det.looked_for: a tile the localisers found as two narrow boxes, read as one
NARROW_WIDTH = 0.85  # a box narrower than this share of the width its height gives in its row may be half a tile, and
JOINED_MOST = 1.5  # two such side by side one tile, together no wider than this share of it (narrow_pairs; on 3,400
#                    photos the pipeline's _join_narrow read 3 requests more and offered 1 wrong one more so; at 0.95
#                    and 1.7 5 more and 5 wrong, at 1.05 and 2.0 5 more and 7 wrong)
LOOKED_JUDGED = "taken for no tile"  # Det.looked_for: found, taken for no tile by the verifier, put back where only
#                                       with it do the tiles make a request (pipeline._put_back)
ONE_TILE_GAP = (1.8, 4.2)  # neighbours this many pitches apart have room for one tile between them (one_tile_gaps):
#                            midway up to 2.3, further apart touching one of them (the player's gap on its other
#                            side), from 2.9 midway too (a lone winning tile): pipeline's MIDWAY_MAX, LONE_MIN
WIN_APART_STEP = 1.1  # a step between centres this much longer than the ones before it sets the winning tile apart


@dataclass
class Det:
    """One located tile: its box in photo pixels, sideways flag, class and confidence."""

    box: tuple[float, float, float, float]
    sideways: bool
    tile: str = "?"
    confidence: float = 0.0
    row: int = -1
    group: int = -1
    stacked: bool = False
    alternatives: tuple[tuple[str, float], ...] = ()  # the classifier's best readings (class, probability)
    part: str = ""  # what the request made of its row (nearest_rows): "hand", "dora" or "left out" (wall, discards)
    checked: bool = False  # set by the player (a correction): no rule reads it as anything else
    restored: bool = False  # taken for no tile by the verifier, kept because the player says it is a tile
    looked_for: str = ""  # found by no localiser, read where the layout says a tile lies (pipeline._missed_tiles):
    #                       LOOKED_KAN_BACK or LOOKED_GAP; or taken for no tile by the verifier and put back where
    #                       the hand needs it (pipeline._put_back): LOOKED_JUDGED
    won: bool = False  # the player says this is the winning tile (a hand laid down as one block shows none apart)

    @property
    def cx(self) -> float:
        return (self.box[0] + self.box[2]) / 2

    @property
    def cy(self) -> float:
        return (self.box[1] + self.box[3]) / 2


@dataclass
class Layout:
    rows: list[list[Det]] = field(default_factory=list)  # top to bottom, each left to right


def _tile_size(dets: list[Det]) -> tuple[float, float]:
    upright = [d for d in dets if not d.sideways] or dets
    w = median(d.box[2] - d.box[0] for d in upright)
    h = median(d.box[3] - d.box[1] for d in upright)
    if all(d.sideways for d in dets):
        w, h = h, w
    return max(w, 1.0), max(h, 1.0)


@dataclass
class _TableLine:
    """A row's table line as group_rows builds the row: the line fitted to its tiles' bottom edges (least squares
    over their centres' x, from running sums), so that the next tile is judged against where the line lies at it.
    A row slanting by 8 degrees drops a fifth of a tile's height across a gap of two tiles' widths, which the last
    tile's own edge alone counted against the next tile (a flat-looking hand split in two at a meld's gap)."""

    tile_w: float
    n: int = 0
    sx: float = 0.0
    sy: float = 0.0
    sxx: float = 0.0
    sxy: float = 0.0
    least: float = float("inf")
    most: float = float("-inf")
    last: tuple[float, float] = (0.0, 0.0)  # the last tile's centre x and bottom edge
    slope: float = 0.0  # the fitted line's, at most ROW_SLANT_MAX steep; 0 while the row spans less than a tile

    def add(self, d: Det) -> None:
        x, y = d.cx, d.box[3]
        self.n += 1
        self.sx, self.sy, self.sxx, self.sxy = self.sx + x, self.sy + y, self.sxx + x * x, self.sxy + x * y
        self.least, self.most = min(self.least, x), max(self.most, x)
        self.last = (x, y)
        if self.most - self.least >= self.tile_w:
            slope = (self.n * self.sxy - self.sx * self.sy) / (self.n * self.sxx - self.sx * self.sx)
            self.slope = min(ROW_SLANT_MAX, max(-ROW_SLANT_MAX, slope))

    def at(self, x: float) -> float:
        """Where the line lies at ``x``: carried on from the row's last tile along its slope."""
        return self.last[1] + self.slope * (x - self.last[0])


def _lies_on(top: Det, below: Det, h: float) -> bool:
    """Whether the sideways ``top`` lies on the sideways ``below`` (an added kan's top on its tile): over half of
    ``below``'s width, its bottom edge within 0.6 of a tile's height ``h`` of ``below``'s top."""
    return (top.sideways and below.sideways and _overlap(top, below) > 0.5 * (below.box[2] - below.box[0])
            and abs(top.box[3] - below.box[1]) < 0.6 * h)


def kan_tops_found_upright(dets: list[Det]) -> list[Det]:
    """The boxes taken for upright that are tiles of an added kan. Where a box lying sideways and one taken for
    upright overlap along the row by more than half of the narrower one's width, and the upper one's bottom edge
    lies in the top 60% of the lower one's box, the two are a tile lying on another, and both lie sideways
    (:func:`group_rows` then folds the top onto its tile). Tiles side by side barely overlap, a dora indicator
    above the hand lies clear of its boxes, and a second box on one tile has its bottom edge by that tile's.
    Seen from low, the top of an added kan came out upright (held-out won hands, seed 198, photo 0052: a 1p read
    as a fourth upright tile, the kan taken for an open one), or the tile under it did (won hands with sides,
    seed 98, photo 0029: the top then formed a row of its own above the hand, read as a dora indicator)."""
    def on(top: Det, below: Det) -> bool:
        narrower = min(top.box[2] - top.box[0], below.box[2] - below.box[0])
        height = below.box[3] - below.box[1]
        return (top is not below and _overlap(top, below) > 0.5 * narrower and top.cy < below.cy
                and below.box[1] < top.box[3] < below.box[1] + 0.6 * height)

    # an added kan found whole (a sideways tile on a sideways one, as group_rows folds them) is left as it is: its
    # top may overlap the upright tile beside its own as much. Of the upright boxes a sideways one lies on, or that
    # lie on it, the one it overlaps most
    h = _tile_size(dets)[1] if dets else 1.0
    whole = {id(d) for a in dets for b in dets if a is not b and _lies_on(a, b, h) for d in (a, b)}
    side = [d for d in dets if d.sideways and id(d) not in whole]
    upright = [d for d in dets if not d.sideways]
    turned = []
    for s in side:
        for pairs in ([u for u in upright if on(s, u)], [u for u in upright if on(u, s)]):
            if pairs:
                turned.append(max(pairs, key=lambda u, s=s: _overlap(s, u)))
    return list({id(d): d for d in turned}.values())


def group_rows(dets: list[Det]) -> Layout:
    """Chain tiles left to right into rows by their bottom edges (tiles in a row share the table line,
    sideways ones too), which tolerates a tilted photo better than clustering raw y values; the line is followed
    along the row's slant (:class:`_TableLine`)."""
    if not dets:
        return Layout()
    w, h = _tile_size(dets)
    rows: list[list[Det]] = []
    lines: list[_TableLine] = []  # each row's table line
    for d in sorted(dets, key=lambda d: d.box[0]):
        best, best_dy = None, ROW_DY * h
        for i, r in enumerate(rows):
            last = r[-1]
            dy = abs(d.box[3] - lines[i].at(d.cx))
            if dy < best_dy and d.box[0] - last.box[2] < 4 * w:
                best, best_dy = i, dy
        if best is None:
            rows.append([d])
            lines.append(_TableLine(w))
            best = len(rows) - 1
        else:
            rows[best].append(d)
        lines[best].add(d)
    # an added kan's top tile lies on the sideways tile below it, and so falls into a "row" of its own (with
    # the other added kans' tops): each is folded back into the row of the tile it lies on. A stack of two
    # only: in a photo on its side every tile of the hand looks sideways and lies on the next one
    for r in list(rows):
        for top in [d for d in r if d.sideways and not any(_lies_on(o, d, h) for o in dets)]:
            below = next((b for other in rows for b in other
                          if b is not top and _lies_on(top, b, h) and not any(_lies_on(b, o, h) for o in dets)), None)
            if below is not None:
                top.stacked = True
                if all(below is not d for d in r):  # (chained into its tile's row already, it stays)
                    r.remove(top)
                    next(other for other in rows if any(below is d for d in other)).append(top)
        if not r:
            rows.remove(r)
    rows.sort(key=lambda r: median(d.cy for d in r))
    for i, r in enumerate(rows):
        r.sort(key=lambda d: (d.cx, d.stacked))
        for d in r:
            d.row = i
    return Layout(rows)


def _pitch(row: list[Det], tile_w: float) -> float:
    """Centre-to-centre distance of touching upright tiles in this row: most neighbours touch, so the lower
    half of the distances is that pitch. Centres are steadier than box edges, whose sizes are regressed."""
    d = [b.cx - a.cx for a, b in zip(row, row[1:], strict=False)
         if not (a.sideways or b.sideways or a.stacked or b.stacked)]
    d = sorted(v for v in d if v > 0.3 * tile_w)
    if len(d) < 2:
        return tile_w
    return median(d[: max(1, (len(d) + 1) // 2)])


def _upright_height(d: Det) -> float:
    """How tall the tile would stand upright: a sideways tile's box height is an upright one's width."""
    h = d.box[3] - d.box[1]
    return max(h * SIDE_RATIO if d.sideways else h, 1.0)


def _pitch_along(row: list[Det], tile_w: float, level: float | None = None) -> Callable[[float], float] | None:
    """The centre step of touching upright tiles as it changes along a row seen from one side: x -> the pitch
    there; None for a row whose pitch changes by less than SLANT_MIN over its length (or too few steps to say).

    Such a row narrows away from the camera, its steps by up to half over a hand, faster than its tiles' heights
    (steps shrink with the square of the distance, heights with the distance). The steps that stay within
    TOUCHING of the line fitted so far (gaps lie above it) are fitted again, a few times, starting from the level
    line ``level`` (_pitch's) (in the first pass leaving out only steps half as long again); the line's level is then set
    as _pitch sets it, from the lower half of the steps, each taken back to one place along the slope."""
    steps = [((a.cx + b.cx) / 2, b.cx - a.cx) for a, b in zip(row, row[1:], strict=False)
             if not (a.sideways or b.sideways or a.stacked or b.stacked) and b.cx - a.cx > 0.3 * tile_w]
    if len(steps) < SLOPE_MIN_STEPS:
        return None
    xs, ss = np.array(steps).T
    x0 = float(np.median(xs))
    slope, at_x0 = 0.0, _pitch(row, tile_w) if level is None else level
    for bound in (1.5, TOUCHING, TOUCHING, TOUCHING):
        inliers = ss < (at_x0 + slope * (xs - x0)) * bound
        if inliers.sum() < SLOPE_MIN_STEPS or np.ptp(xs[inliers]) < 2 * tile_w:
            return None
        slope = float(np.polyfit(xs[inliers] - x0, ss[inliers], 1)[0])
        back = np.sort(ss - slope * (xs - x0))
        at_x0 = float(np.median(back[: max(1, (len(back) + 1) // 2)]))
    ends = [at_x0 + slope * (d.cx - x0) for d in (row[0], row[-1])]
    if min(ends) <= 0 or max(ends) / min(ends) < SLANT_MIN:
        return None
    # the tiles must grow the same way, if more slowly: steps that grow only because gaps were taken for
    # touching tiles (a row of melds has few upright neighbours) come with tiles of one size
    upright = [d for d in row if not (d.sideways or d.stacked)]
    heights = np.polyval(np.polyfit([d.cx for d in upright], [d.box[3] - d.box[1] for d in upright], 1),
                         [row[0].cx, row[-1].cx])
    if min(heights) <= 0 or (heights[1] > heights[0]) != (ends[1] > ends[0]) or \
            max(heights) / min(heights) < SLANT_HEIGHTS_MIN:
        return None
    return lambda x: at_x0 + slope * (x - x0)


def _pitch_between(row: list[Det], tile_w: float) -> Callable[[Det, Det], float]:
    """The pitch of touching upright tiles in ``row`` where two of its tiles lie: (a, b) -> that pitch."""
    pitch = _pitch(row, tile_w)
    pitch_at = _pitch_along(row, tile_w, pitch)
    sizes = {id(d): _upright_height(d) for d in row}
    typical = median(sizes.values()) if sizes else 1.0

    def near(a: Det, b: Det) -> float:
        if pitch_at is not None:  # a row seen from one side: the pitch where the gap is
            return min(max(pitch_at((a.cx + b.cx) / 2), 0.5 * pitch), 2.0 * pitch)
        # a row photographed at a slant grows towards the camera: the pitch here scales with these two tiles'
        # size against the row's typical one
        return pitch * min(max((sizes[id(a)] + sizes[id(b)]) / 2 / typical, 0.6), 1.6)

    return near


def split_groups(row: list[Det], tile_w: float) -> list[list[Det]]:
    """The row cut into groups at gaps wider than GROUP_GAP pitches. An added kan's top tile joins the group
    of the sideways tile it lies on, whichever side of it its centre falls."""
    pitch_between = _pitch_between(row, tile_w)
    groups: list[list[Det]] = []
    prev = None
    for d in row:
        if d.stacked:
            continue
        if prev is None:
            groups.append([d])
        else:
            near = pitch_between(prev, d)
            # half widths along the row: a sideways tile is as wide as an upright one is tall (about 4:3)
            half = (SIDE_RATIO if prev.sideways else 1.0) * near / 2 + (SIDE_RATIO if d.sideways else 1.0) * near / 2
            if d.cx - prev.cx - half > GROUP_GAP * near:
                groups.append([d])
            else:
                groups[-1].append(d)
        prev = d
    for top in (d for d in row if d.stacked):
        home = max((g for g in groups if any(d.sideways for d in g)), default=None,
                   key=lambda g, top=top: max(_overlap(top, d) for d in g if d.sideways))
        if home is None:
            groups.append([top])
        else:
            home.append(top)
            home.sort(key=row.index)
    return groups


def _overlap(a: Det, b: Det) -> float:
    """How far two boxes overlap along the row (negative: the gap between them)."""
    return min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])


def assign_groups(layout: Layout) -> list[list[list[Det]]]:
    """Groups per row; group numbers count across rows in reading order."""
    all_dets = [d for r in layout.rows for d in r]
    if not all_dets:
        return []
    w, _ = _tile_size(all_dets)
    out = []
    n = 0
    for r in layout.rows:
        gs = split_groups(r, w)
        for g in gs:
            for d in g:
                d.group = n
            n += 1
        out.append(gs)
    return out


def _kind(t: str) -> str:
    return ("5" + t[1]) if t[0] == "0" else t


def _meld(group: list[Det], sideways_seen: bool = True) -> tuple[str, list[str]] | str:
    """Meld type and tiles, or the reason it is not one. With sideways_seen=False three tiles right of the
    winning tile may be a chi or pon whose sideways tile the localiser did not flag."""
    tiles = [d.tile for d in group]
    side = [d for d in group if d.sideways]
    stacked = [d for d in group if d.stacked]
    kinds = [_kind(t) for t in tiles]
    if any(t == "?" for t in tiles):
        return "unreadable tile"
    if len(group) == 4 and not side and tiles[0] == "x" and tiles[3] == "x":
        faces = [t for t in tiles[1:3] if t != "x"]
        if faces and len({_kind(t) for t in faces}) == 1:
            face = faces[0]
            five = _kind(face)
            rest = [f for f in faces]
            while len(rest) < 4:
                rest.append(five)
            return "ankan", rest
        return "closed kan with unreadable faces"
    if "x" in tiles:
        return "face-down tile outside a closed kan"
    if len(group) == 3 and (len(side) == 1 or (not sideways_seen and not side)):
        if len(set(kinds)) == 1:
            return "pon", tiles
        if all(k[1] == kinds[0][1] and k[1] in "mps" for k in kinds):
            nums = sorted(int(k[0]) for k in kinds)
            if nums[1] == nums[0] + 1 and nums[2] == nums[1] + 1:
                return "chi", sorted(tiles, key=lambda t: _kind(t))
        return "three tiles with a sideways one that are neither a chi nor a pon"
    if len(group) == 4 and len(set(kinds)) == 1:
        # a tile lying on a sideways one makes an added kan, whatever else the localiser took for sideways
        if len(stacked) == 1:
            return "kakan", tiles
        if len(side) == 1:
            return "minkan", tiles
    return f"{len(group)} tiles ({' '.join(tiles)}) that are not a meld"


def _gap(a: Det, b: Det) -> float:
    return b.box[0] - a.box[2]


def _on(top: Det, below: Det) -> bool:
    """Whether ``top`` is an added kan's top tile lying on the sideways tile ``below`` (over half of its width)."""
    return top.stacked and below.sideways and _overlap(top, below) > 0.5 * (below.box[2] - below.box[0])


def _flagged(group: list[Det]) -> bool:
    """Whether a group shows a sideways tile or a back: if not, a meld of it is one whose sideways tile went
    unseen (``_meld``'s sideways_seen)."""
    return any(d.sideways or d.tile == "x" for d in group)


def resplit_melds(groups: list[list[Det]], unseen: bool = True) -> list[list[Det]] | None:
    """The meld tiles cut again into 3- and 4-tile melds when the gaps split or joined one wrongly.

    Gaps between melds are narrow and a sideways tile's box is estimated, so a chi can fall apart around its
    turned tile. Of all cuttings into valid melds the one keeping most of the gap-based cuts wins, then the
    one whose narrowest cut is widest; None when no cutting works. Right of the winning tile only melds lie, so
    a piece of three with no tile flagged sideways is a meld whose sideways tile went unseen (:func:`_flagged`),
    unless ``unseen`` is False (where the winning tile's place is not known).
    """
    dets = [d for g in groups for d in g]
    old_cuts, k = set(), 0
    for g in groups[:-1]:
        k += len(g)
        old_cuts.add(k)
    best: tuple | None = None

    def walk(start: int, cuts: list[int]) -> None:
        nonlocal best
        if start == len(dets):
            inner = cuts[:-1]
            key = (sum(c in old_cuts for c in inner), min((_gap(dets[c - 1], dets[c]) for c in inner), default=0.0))
            if best is None or key > best[0]:
                best = (key, list(cuts))
            return
        for size in (3, 4):
            end = start + size
            # no cut between an added kan's top tile and the tile it lies on, whichever comes first by its centre
            if end > len(dets) or (end < len(dets) and (_on(dets[end], dets[end - 1]) or _on(dets[end - 1], dets[end]))):
                continue
            if not isinstance(_meld(dets[start:end], _flagged(dets[start:end]) or not unseen), str):
                walk(end, cuts + [end])

    if len(dets) <= 16:  # at most four melds of at most four tiles: the search stays tiny
        walk(0, [])
    if best is None:
        return None
    out, start = [], 0
    for c in best[1]:
        out.append(dets[start:c])
        start = c
    return out


def _concealed_lead(groups: list[list[Det]]) -> tuple[list[list[Det]], list[list[Det]] | None]:
    """Where every group of the hand row holds a sideways tile or a back, so none was taken for concealed, the
    concealed tiles may lie against the first meld with no gap seen: the fewest plain tiles leading the row (2, 5,
    8 or 11, as many as four, three, two or one melds leave) whose rest cuts into melds, each with its sideways
    tile seen (:func:`resplit_melds`). Returns ([those tiles], the melds), or ([], None) when no count works."""
    for k in (2, 5, 8, 11):
        if k >= len(groups[0]) or _flagged(groups[0][:k]):
            break
        again = resplit_melds([groups[0][k:]] + groups[1:], unseen=False)
        if again is not None:
            return [groups[0][:k]], again
    return [], None


def win_tile_apart(concealed: list[Det]) -> bool:
    """The last concealed tile lies apart when the gap before it is clearly the widest among the concealed
    tiles (twice the next widest), even where it is narrower than GROUP_GAP asks (a tightly laid hand); or,
    where the boxes overlap (the tiles seen askew: their edges say little), when the step from centre to
    centre before it is WIN_APART_STEP times the steps before it, and no other step stands out as much."""
    gaps = [_gap(a, b) for a, b in zip(concealed, concealed[1:], strict=False)]
    if len(gaps) < 2:
        return False
    tile_w = concealed[-1].box[2] - concealed[-1].box[0]
    if gaps[-1] > 0.05 * tile_w and gaps[-1] >= 2.0 * max(max(gaps[:-1]), 0.0):
        return True
    steps = [b.cx - a.cx for a, b in zip(concealed, concealed[1:], strict=False)]

    def against_neighbours(i: int) -> float:  # a step against the four before it (after it, for the first)
        near = steps[max(0, i - 4):i] or steps[i + 1:i + 5]
        return steps[i] / max(median(near), 1e-6)

    ratios = [against_neighbours(i) for i in range(len(steps))]
    return ratios[-1] >= WIN_APART_STEP and ratios[-1] >= max(ratios[:-1])


def _mpsz(tiles: list[str]) -> str:
    """Compact mpsz, numbers ascending within a suit (a red five after the plain fives)."""
    out = []
    for suit in "mpszf":
        nums = sorted((t[0] for t in tiles if t[-1] == suit), key=lambda n: 5.5 if n == "0" else int(n))
        if nums:
            out.append("".join(nums) + suit)
    return "".join(out)


def _backs_read_as_white_dragons(group: list[Det]) -> None:
    """A closed kan lies as back, face, face, back. A pale back can be read as a blank white dragon (5z): in a
    group of four right of the first, with no sideways tile, two equal faces in the middle (not 5z) and a back
    or a white dragon at each end, the white dragons are backs (:func:`_pale_backs`)."""
    if _pale_backs(group):
        for d in (group[0], group[3]):
            if not d.checked:
                d.tile = "x"


def _pale_backs(group: list[Det]) -> bool:
    """Whether ``group`` lies as a closed kan whose backs may be white dragons as read: four tiles, none sideways,
    two faces of one kind (not 5z) between a back or white dragon at each end, one of them a white dragon."""
    if len(group) != 4 or any(d.sideways for d in group):
        return False
    ends, middle = (group[0], group[3]), {_kind(d.tile) for d in group[1:3]}
    return (all(d.tile in ("x", "5z") for d in ends) and any(d.tile == "5z" for d in ends) and len(middle) == 1
            and middle.isdisjoint({"x", "5z", "?"}))


def kan_short_of_a_back(group: list[Det]) -> tuple[Det, Det, Det] | None:
    """Whether ``group`` lies as a closed kan (back, face, face, back) one of whose backs was not found: three
    tiles, none sideways or stacked, a back at one end and two faces of one kind. Returns (that back, the face
    beside it, the face at the open end), else None."""
    if len(group) != 3 or any(d.sideways or d.stacked for d in group):
        return None
    for back, near, far in ((group[0], group[1], group[2]), (group[2], group[1], group[0])):
        if back.tile == "x" and near.tile not in ("x", "?") and _kind(near.tile) == _kind(far.tile):
            return back, near, far
    return None


def one_tile_gaps(groups_by_row: list[list[list[Det]]]) -> list[tuple[Det, Det, float]]:
    """Neighbours in a row with room for one tile between them, and the row's pitch where they lie (as split_groups
    measures it): both upright and not stacked, their centres ONE_TILE_GAP times that pitch apart. A tile missed in
    a row of touching tiles leaves such a gap, beside a gap of the player's too where it ended a group; so can a
    player's gap of a tile's width, which the pipeline tells apart by reading it."""
    every = [d for row in groups_by_row for g in row for d in g]
    if not every:
        return []
    tile_w, _ = _tile_size(every)
    low, high = ONE_TILE_GAP
    gaps = []
    for groups in groups_by_row:
        row = [d for g in groups for d in g if not d.stacked]
        pitch_between = _pitch_between(row, tile_w)
        gaps += [(a, b, pitch) for a, b in zip(row, row[1:], strict=False) if not (a.sideways or b.sideways)
                 and low <= (b.cx - a.cx) / (pitch := pitch_between(a, b)) <= high]
    return gaps


def wide_boxes(groups_by_row: list[list[list[Det]]]) -> list[tuple[Det, float, float]]:
    """Upright tiles (not stacked) whose boxes stand at least MERGED_WIDTH times as wide as the row's typical
    upright box, widest first, each with that typical width and the row's pitch where it lies: a box the localisers
    set on two touching tiles at once (their centres half a pitch either side of its own) is wider than one tile's."""
    every = [d for row in groups_by_row for g in row for d in g]
    if not every:
        return []
    tile_w, _ = _tile_size(every)
    wide = []
    for groups in groups_by_row:
        row = [d for g in groups for d in g if not d.stacked]
        upright = [d.box[2] - d.box[0] for d in row if not d.sideways]
        if len(upright) < 3:
            continue
        typical = median(upright)
        pitch_between = _pitch_between(row, tile_w)
        wide += [(d, typical, pitch_between(d, d)) for d in row
                 if not d.sideways and d.box[2] - d.box[0] >= MERGED_WIDTH * typical]
    return sorted(wide, key=lambda w: -(w[0].box[2] - w[0].box[0]) / w[1])


def narrow_pairs(groups_by_row: list[list[list[Det]]]) -> list[tuple[Det, Det, tuple[float, float, float, float]]]:
    """Two upright tiles side by side in a row (neither stacked), each narrower than NARROW_WIDTH times the width its
    box's height gives in that row (by the median height over width of its upright boxes), and together no wider
    than JOINED_MOST times that of the box around both, with that box: one tile the localisers found in two pieces,
    one on each half of its face (a 4s of widely spaced sticks as two 2s). Each box is measured by its own height,
    since perspective widens the tiles at the row's near end, heights and all."""
    pairs = []
    for groups in groups_by_row:
        row = [d for g in groups for d in g if not d.stacked]
        upright = [d for d in row if not d.sideways]
        if len(upright) < 3:
            continue
        tall = median((d.box[3] - d.box[1]) / max(1e-6, d.box[2] - d.box[0]) for d in upright)
        for a, b in pairwise(row):
            both = (min(a.box[0], b.box[0]), min(a.box[1], b.box[1]), max(a.box[2], b.box[2]), max(a.box[3], b.box[3]))
            if (not (a.sideways or b.sideways)
                    and all((d.box[2] - d.box[0]) * tall < NARROW_WIDTH * (d.box[3] - d.box[1]) for d in (a, b))
                    and (both[2] - both[0]) * tall <= JOINED_MOST * (both[3] - both[1])):
                pairs.append((a, b, both))
    return pairs


def could_win(groups_by_row: list[list[list[Det]]], win: bool = True) -> Callable[[], bool]:
    """A quick test of the hand row's tiles as they are read when it is asked, true of every reading whose request
    (:func:`build_request`) makes a winning hand, or with ``win`` False of every reading that makes a request: the
    shape's complete_hand and mend_melds build the request only for readings that pass it (most of the readings
    they try make none, and building a request costs several times as much).

    The request holds every tile of the hand row (:func:`nearest_rows`: which row that is does not depend on what
    its tiles are read as) but its flowers, a closed kan's backs as its faces (:func:`_meld`), kans counted as three
    tiles to make 14. So where the row holds N such tiles, N - 14 kans are four of a kind among them; and where the
    request makes a winning hand, so do those tiles once a tile is taken out of each kan (the melds are sets, the
    concealed tiles the other sets and the pair). Rows that may read otherwise are left to the request: an
    unreadable tile, a back in a group that is no closed kan, white dragons build_request may read as backs
    (:func:`_pale_backs`)."""
    from companion.hand import is_complete

    row: list[list[Det]] = []

    def possible() -> bool:
        if not row:  # the row is found once, at the first reading asked about
            row.extend([d for d in g if not d.tile.endswith("f")] for g in nearest_rows(groups_by_row)[0][-1])
        counts = [0] * 34
        for group in row:
            names = [d.tile for d in group]
            if "?" in names or _pale_backs(group):
                return True
            if "x" in names:
                meld = _meld(group)
                if isinstance(meld, str) or meld[0] != "ankan":
                    return True
                names = meld[1]
            for t in names:
                counts[_kind_index(t)] += 1
        extra = sum(counts) - 14
        if not 0 <= extra <= sum(c // 4 for c in counts):
            return False
        if not win:
            return True
        if max(counts) > 4:
            return False
        for kans in combinations([k for k, c in enumerate(counts) if c == 4], extra):
            rest = list(counts)
            for k in kans:
                rest[k] -= 1
            if is_complete(rest):
                return True
        return False

    return possible


@cache
def _kind_index(tile: str) -> int:
    """The kind (0-33) of a tile class such as "0m" (a red five is a five)."""
    from companion.tiles import parse_tile

    return parse_tile(tile).kind


def _backs_of_the_wall(row: list[list[Det]]) -> None:
    """The wall's backs are sometimes read as a face: pale backs as blank white dragons (5z), backs of other
    colours as some face that the classifier likes for them. A kind read WALL_REPEATS or more times in the row
    above the hand is the wall's backs (indicators of one kind three times over would need three kans'
    worth of indicators all showing it), when backs then make at least two thirds of the row (a row of discards
    may hold three of a kind too, among other faces)."""
    tiles = [d for g in row for d in g if d.tile != "?"]
    counts = Counter(_kind(d.tile) for d in tiles if d.tile != "x")
    backs = [d for d in tiles if d.tile == "x" or counts[_kind(d.tile)] >= WALL_REPEATS]
    if len(backs) > len([d for d in backs if d.tile == "x"]) and 3 * len(backs) >= 2 * len(tiles):
        for d in backs:
            if not d.checked:
                d.tile = "x"


def _backs_beside_the_indicators(row: list[list[Det]]) -> None:
    """A dead wall shows face-down tiles beside the indicators (left of them, and right of them the stacks not yet
    turned), and a pale back looks like a blank white dragon (5z). In the row above the hand, the white dragons in
    the run of backs and white dragons at either end are backs when a back is their runner-up by BACK_DOUBT or more
    and a face-up tile of another kind lies on the run's inner side (a row of blank tiles only is left alone). The
    back's probability becomes its confidence, so that the page marks it for a check (models/TRAINING-LOG.md,
    "Backs left of the indicators", "Backs right of the indicators")."""
    tiles = [d for g in row for d in g]
    for end in (tiles, tiles[::-1]):
        run = 0
        while run < len(end) and end[run].tile in ("x", "5z"):
            run += 1
        if run == len(end) or end[run].tile == "?":
            continue
        for d in end[:run]:
            back = dict(d.alternatives).get("x", 0.0)
            if d.tile == "5z" and back >= BACK_DOUBT and not (d.checked or d.restored):
                d.tile, d.confidence = "x", min(d.confidence, back)


def _backs_in_the_dora_row(row: list[list[Det]]) -> None:
    """The backs of a row of dora indicators that were read as faces: backs read as one face
    (:func:`_backs_of_the_wall`) and pale backs beside the indicators read as white dragons
    (:func:`_backs_beside_the_indicators`)."""
    _backs_of_the_wall(row)
    _backs_beside_the_indicators(row)


def dead_wall_backs(groups_by_row: list[list[list[Det]]]) -> None:
    """A photo of the dora indicators alone (the dead wall, say): each row's backs read as faces are backs, as in
    the row above the hand (:func:`_backs_in_the_dora_row`)."""
    for row in groups_by_row:
        _backs_in_the_dora_row(row)


def nearest_rows(groups_by_row: list[list[list[Det]]]) -> tuple[list[list[list[Det]]], str]:
    """A photo of a real table shows more than the hand: the wall behind it (a row of backs, maybe with the
    dora indicator turned up on it) and discards further on. The hand is the row nearest the camera (the
    bottom one) and the row right above it gives the dora indicators, unless it holds more than DORA_ROW_MAX
    face-up tiles (then it is taken for discards and left out); every row further up is left out. Rows of at most
    STRAY_MAX tiles below the hand are left out too (:func:`_stray_rows`). Returns the rows kept and a note saying
    what was left out ("" when nothing was); every tile's ``part`` says which it is."""
    stray = _stray_rows(groups_by_row)
    rows = groups_by_row[:len(groups_by_row) - stray]
    # boxes right above the hand far lower than its tiles are taken out of that row before it is judged (counted
    # as faces, their table line measured): a row of nothing else is no row, and the row above it is judged so
    # in its place (a die's row taken out leaves a stick's pieces further up next above the hand)
    low: list[Det] = []
    small: list[Det] = []
    while len(rows) > 1:
        row_low = _too_low(rows[-1], rows[-2])
        row_small = [d for d in _too_small(rows[-1], rows[-2]) if all(d is not x for x in row_low)]
        if not row_low and not row_small:
            break
        low += row_low + row_small
        small += row_small
        above = [kept_g for g in rows[-2] if (kept_g := [d for d in g if all(d is not x for x in low)])]
        rows = rows[:-2] + [above] * bool(above) + rows[-1:]
        if above:
            break
    kept, note = _rows_kept(rows) if len(rows) > 1 else (rows, "")
    parts = ["left out"] * (len(rows) - len(kept)) + ["dora"] * (len(kept) - 1) + ["hand"] + ["left out"] * stray
    for part, r in zip(parts, rows + groups_by_row[len(groups_by_row) - stray:], strict=True):
        for g in r:
            for d in g:
                d.part = part
    for d in low:
        d.part = "left out"
    if len(low) > len(small):
        pieces = (f"{len(low) - len(small)} box(es) above the hand left out, less than half as tall as its tiles: no "
                  "dora indicator (a point stick?)")
        note = f"{note}; {pieces}" if note else pieces
    if small:
        dice = (f"{len(small)} box(es) above the hand left out, less than {DORA_SMALL:.0%} of the size of its tiles: "
                "no dora indicator (a die?)")
        note = f"{note}; {dice}" if note else dice
    if stray:
        n = sum(len(g) for r in groups_by_row[-stray:] for g in r)
        below = (f"{n} tile(s) below the hand row left out, too few or too small for a hand (a die, a point stick, "
                 "a tile set aside?)")
        note = f"{note}; {below}" if note else below
    return kept, note


def _standing(hand: list[list[Det]]) -> list[Det]:
    """The hand row's tiles that lie on the table (not an added kan's top tile), or all if none do."""
    return [d for g in hand for d in g if not d.stacked] or [d for g in hand for d in g]


def _hand_height(tiles: list[Det]) -> float:
    """The median upright height of the hand's standing tiles (:func:`_standing`): the photo's unit of length."""
    return median(_upright_height(d) for d in tiles)


def _too_low(hand: list[list[Det]], above: list[list[Det]]) -> list[Det]:
    """The boxes of the dora row less tall than DORA_LOW of the hand's upright tile height. A dora indicator lies
    upright, a little further away than the hand: on the evaluation photos such tiles were 0.62 of the hand's
    height or more, the pieces of point sticks the verifier kept there 0.36-0.46 (models/TRAINING-LOG.md, "Point
    sticks above the hand"). A tile the player has corrected or restored stays."""
    height = _hand_height(_standing(hand))
    return [d for g in above for d in g
            if not (d.checked or d.restored) and d.box[3] - d.box[1] < DORA_LOW * height]


def _too_small(hand: list[list[Det]], above: list[list[Det]]) -> list[Det]:
    """The boxes of the dora row whose area is less than DORA_SMALL of a hand tile's box (its median width times
    its median height). A die's top is about 15 mm square, a tile's face about 20 x 27 mm: 0.42 of it, and a die
    lying right above the hand is read as 1p by its one pip. On the evaluation photos the dora indicators were
    0.42 of the hand's tile box or more (0.5% under 0.49), the dice read as dora 0.24-0.43 (models/TRAINING-LOG.md,
    "A die above the hand"). A tile the player has corrected or restored stays."""
    w, h = _tile_size(_standing(hand))
    return [d for g in above for d in g if not (d.checked or d.restored)
            and (d.box[2] - d.box[0]) * (d.box[3] - d.box[1]) < DORA_SMALL * w * h]


def _stray_rows(groups_by_row: list[list[list[Det]]]) -> int:
    """How many rows at the bottom are no hand: rows of at most STRAY_MAX tiles each under a row that holds more
    (no hand is that short, and the layout rules put the dora indicators above the hand), and rows whose boxes
    are less than STRAY_SMALL of the size of the boxes of any row above (their medians, width times height):
    nearer the camera, tiles look larger, not smaller. Such boxes are things beside the hand (a die whose one
    pip looks like 1p, pieces of a point stick) that the verifier kept; taken for the hand row they left no
    hand to read. The row above them is never left out."""
    sizes = [sum(len(g) for g in r) for r in groups_by_row]
    stray = 0
    while len(groups_by_row) - stray > 1:
        bottom, above = groups_by_row[-1 - stray], groups_by_row[:-1 - stray]
        short = sizes[-1 - stray] <= STRAY_MAX and max(sizes[:-1 - stray]) > STRAY_MAX
        if not short and _box_size(bottom) >= STRAY_SMALL * max(_box_size(r) for r in above):
            break
        stray += 1
    return stray


def _box_size(row: list[list[Det]]) -> float:
    """The median area of a row's boxes (a sideways tile's box is as large as an upright one's)."""
    return median((d.box[2] - d.box[0]) * (d.box[3] - d.box[1]) for g in row for d in g)


def _rows_kept(groups_by_row: list[list[list[Det]]]) -> tuple[list[list[list[Det]]], str]:
    above = groups_by_row[-2]
    _backs_in_the_dora_row(above)
    faces = sum(1 for g in above for d in g if d.tile not in ("x", "?"))
    further = len(groups_by_row) - 2
    beyond = f" and {further} more further up" if further else ""
    gap = _gap_above(groups_by_row[-1], above)
    if faces and gap > DORA_GAP_MAX:
        return groups_by_row[-1:], (f"{len(groups_by_row)} rows of tiles found: the hand was read from the bottom "
                                    f"row; the row above it lies {gap:.0f} tile heights further up, too far for "
                                    f"dora indicators (a die, a stick?){beyond}, and was left out (lay the "
                                    f"indicators right above the hand, or photograph them separately)")
    if faces > DORA_ROW_MAX:
        return groups_by_row[-1:], (f"{len(groups_by_row)} rows of tiles found: the hand was read from the bottom "
                                    f"row; the row above it ({faces} face-up tiles, too many for dora indicators: "
                                    f"discards?){beyond} left out, so no dora indicators were read (lay them in a "
                                    f"row of their own, at most {DORA_ROW_MAX}, or photograph them separately)")
    if not further:
        return groups_by_row, ""
    dora = (f"the dora indicators from the row above it ({faces} face-up)" if faces
            else "no dora indicators (the row above it shows only backs)")
    return groups_by_row[-2:], (f"{len(groups_by_row)} rows of tiles found: the hand was read from the bottom row, "
                                f"{dora}; {further} row(s) further up were left out")


def _gap_above(hand: list[list[Det]], above: list[list[Det]]) -> float:
    """How far the row ``above`` lies above the hand row: from its table line (the median bottom edge) up to the
    hand's tops, in the hand's upright tile heights. The dora rows of the evaluation photos lie up to 2.5 above
    it, dice and stick pieces read as dora 0.6-7.3 (models/TRAINING-LOG.md, "A die in front of the hand")."""
    tiles = _standing(hand)
    height = _hand_height(tiles)
    top = median(d.box[3] - _upright_height(d) for d in tiles)
    return (top - median(d.box[3] for g in above for d in g)) / height


def _count_reason(n: int) -> str:
    """Why a hand row of ``n`` tiles (kans counted as 3) gives no request."""
    return f"{n} tiles found in the hand (kans counted as 3); a winning hand has 14"


def build_request(groups_by_row: list[list[list[Det]]]) -> tuple[dict | None, str]:
    """The scoring request (issue 2 format) from the grouped tiles, or None and the reason. With a request,
    the second value is "" or a note on rows left out of it (see :func:`nearest_rows`). A tile the player chose
    as the winning tile (``Det.won``) is the winning tile wherever it lies among the concealed tiles."""
    if not groups_by_row:
        return None, "no tiles found"
    chosen = [d for r in groups_by_row for g in r for d in g if d.won]
    groups_by_row, note = nearest_rows(groups_by_row)
    hand_groups = groups_by_row[-1]
    dora = []
    if len(groups_by_row) == 2:
        dora = [d.tile for g in groups_by_row[0] for d in g if d.tile not in ("x", "?")]
    flowers = [d.tile for g in hand_groups for d in g if d.tile.endswith("f")]
    hand_groups = [[d for d in g if not d.tile.endswith("f")] for g in hand_groups]
    hand_groups = [g for g in hand_groups if g]
    for g in hand_groups[1:]:
        _backs_read_as_white_dragons(g)
    concealed_groups: list[list[Det]] = []
    meld_groups: list[list[Det]] = []
    for g in hand_groups:
        plain = not any(d.sideways or d.tile == "x" for d in g)
        if plain and not meld_groups and not (len(g) == 4 and g[0].tile == "x"):
            concealed_groups.append(g)
        else:
            meld_groups.append(g)
    # the winning tile laid too close to the first meld joins its group: with no lone tile at the end of the
    # concealed groups, a plain first tile of that group is the winning tile when the rest of it is a meld
    if meld_groups and len(meld_groups[0]) in (4, 5) and (len(concealed_groups) < 2 or len(concealed_groups[-1]) != 1):
        first = meld_groups[0]
        if not (first[0].sideways or first[0].tile == "x") and not isinstance(_meld(first[1:]), str):
            concealed_groups = concealed_groups + [first[:1]]
            meld_groups = [first[1:]] + meld_groups[1:]
    # plain groups right of a lone winning tile can only be melds whose sideways tile went unseen
    lenient: list[list[Det]] = []
    tail: list[list[Det]] = []
    lone = [i for i, g in enumerate(concealed_groups) if i > 0 and len(g) == 1]
    if lone and lone[0] < len(concealed_groups) - 1:
        tail = concealed_groups[lone[0] + 1:]
        if all(not isinstance(_meld(g, sideways_seen=False), str) for g in tail):
            concealed_groups = concealed_groups[:lone[0] + 1]
            meld_groups = tail + meld_groups
            lenient, tail = tail, []
    # right of the winning tile only melds lie: a plain group of three among them is one whose sideways tile
    # went unseen, as in the tail above
    parsed = [_meld(g, sideways_seen=not any(g is t for t in lenient) and _flagged(g)) for g in meld_groups]
    if any(isinstance(m, str) for m in parsed) or tail:
        # a meld split by a wide gap leaves its first tiles looking concealed: they join the melds when
        # only then do all the tiles right of the winning tile cut into melds (so too where no tile of the row was
        # seen sideways: a lone meld whose called tile was found upright, split by the gaps its box left)
        again = resplit_melds(tail + meld_groups) if tail else None
        if again is not None:
            concealed_groups = concealed_groups[:lone[0] + 1]
        else:
            again = resplit_melds(meld_groups)
        if again is None and not concealed_groups:
            # no gap seen between the concealed tiles and the first meld: they lead its group
            concealed_groups, again = _concealed_lead(meld_groups)
        if again is not None:
            parsed = [_meld(g, _flagged(g)) for g in again]
    melds: list[dict] = []
    for i, m in enumerate(parsed):
        if isinstance(m, str):
            return None, f"group {len(concealed_groups) + i + 1} of the hand row: {m}"
        melds.append({"type": m[0], "tiles": _mpsz(m[1])})
    flat = [d for g in concealed_groups for d in g]
    if chosen and all(chosen[0] is not d for d in flat):
        return None, "the tile chosen as the winning tile is not one of the concealed tiles of the hand row"
    if chosen:  # the player's word: the winning tile wherever it lies among the concealed tiles
        concealed_groups = [[d for d in flat if d is not chosen[0]], chosen[:1]]
    elif len(concealed_groups) < 2 or len(concealed_groups[-1]) != 1:
        # a lone pair left beside four melds (a tanki wait) wins on either tile: nothing to set apart
        pair = len(flat) == 2 and _kind(flat[0].tile) == _kind(flat[1].tile)
        if len(flat) + 3 * len(melds) != 14:  # tiles missing or too many: said before where the winning tile lies
            return None, _count_reason(len(flat) + 3 * len(melds))
        if not (pair or win_tile_apart(flat)):
            return None, "the winning tile is not set apart at the right end of the concealed tiles"
        concealed_groups = [flat[:-1], flat[-1:]]
    concealed = [d.tile for g in concealed_groups for d in g]
    if "?" in concealed:
        return None, "unreadable tile in the hand"
    n = len(concealed) + 3 * len(melds)
    if n != 14:
        return None, _count_reason(n)
    request: dict = {"hand": _mpsz(concealed), "melds": melds, "win_tile": concealed[-1],
                     "dora_indicators": dora}
    if flowers:
        request["flowers"] = flowers
    return request, note
