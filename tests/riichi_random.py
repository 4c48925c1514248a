"""Seeded random WINNING riichi hands, as scoring requests, plus their translation for the `mahjong` package.

Shared by ``tests/test_riichi_differential.py`` and ``benchmarks/riichi_speed.py`` so
both score exactly the same hands.

Hands are built the way they arise at a table, never by rejection sampling over
random tiles: four sets and a pair (or seven pairs, or thirteen orphans) are
drawn from a physical 136-tile set, some sets become called melds (chi, pon,
open kan, added kan) or concealed kans, the winning tile is taken from the
concealed part, and only flags that can happen together are set (ippatsu needs
riichi, rinshan needs a kan and tsumo, chankan needs a ron on the last copy of a
tile, tenhou needs the dealer's untouched hand, ...). Dora and ura indicators
come from the tiles the hand does not use, one more per kan.

A "style" biases the sets towards a yaku family (all simples, one suit,
outside hands, triplets, honours, green tiles, nine gates, ...), so that the
rare yaku and yakuman get enough hands to be compared at all.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

WINDS = "ESWN"
RED_COPY = 0  # copy 0 of each five is the red one, as in the `mahjong` package's 136 ids 16, 52, 88
FIVES = (4, 13, 22)
TERMINALS = (0, 8, 9, 17, 18, 26)
HONORS = tuple(range(27, 34))
ORPHANS = TERMINALS + HONORS
SIMPLES = tuple(k for k in range(27) if k % 9 not in (0, 8))
GREEN = (19, 20, 21, 23, 25, 32)

# Rule profiles: our rules override, chosen so that the `mahjong` package can express every option.
# The two profiles differ in every option both sides know, so each value of each option is exercised.
# Options the package cannot vary, pinned to the value it has built in, so that a preset change
# can never make the two sides compare different rules.
FIXED_OPTIONS = {
    "double_wind_pair_fu": 4, "yakuman_stacking": True, "ippatsu": True, "ura_dora": True, "kan_dora": True,
    "honba_value": 300, "daichiishin": False, "double_riichi_last_tile_yakuman": False,
    "pinzu_bonus_yaku": False, "ryuuiisou_needs_hatsu": False, "tenhou_free_win_tile": False,
}
PROFILES: dict[str, dict] = {
    # Tenhou-like: kuitan, three red fives, kazoe yakuman, no kiriage, double yakuman for the
    # 13-sided kokushi, single-wait suuankou, 9-sided chuuren and daisuushii; renhou as a 5-han yaku.
    "tenhou_like": {
        "preset": "tenhou", "open_tanyao": True, "red_fives": True, "double_yakuman": True,
        "kazoe": "yakuman", "kiriage": False, "renhou": "5han", **FIXED_OPTIONS,
    },
    # The other side of every option: no kuitan, no red fives, kazoe capped at sanbaiman,
    # kiriage mangan, every yakuman single, renhou a yakuman.
    "strict": {
        "preset": "tenhou", "open_tanyao": False, "red_fives": False, "double_yakuman": False,
        "kazoe": "sanbaiman", "kiriage": True, "renhou": "yakuman", **FIXED_OPTIONS,
    },
}

STYLES = (  # (name, weight)
    ("free", 26), ("tanyao", 10), ("flush", 10), ("dense", 6), ("outside", 8), ("toitoi", 6), ("honors", 8),
    ("sanshoku", 4), ("ittsu", 4), ("peikou", 4), ("kans", 4), ("green", 1.5), ("terminals", 2),
    ("chuuren", 1.5), ("chiitoi", 7), ("kokushi", 1.5),
)


@dataclass
class _Pool:
    """The physical tiles still unseen: ``free[kind]`` lists the copy numbers 0-3 not yet taken."""

    reds: bool
    free: list[list[int]] = field(default_factory=lambda: [[0, 1, 2, 3] for _ in range(34)])

    def left(self, kind: int) -> int:
        return len(self.free[kind])

    def take(self, rng: random.Random, kind: int, want_red: bool | None = None) -> tuple[int, bool]:
        """Take one copy of ``kind``; returns (kind, red)."""
        copies = self.free[kind]
        if not copies:
            raise _Retry
        if kind in FIVES and self.reds and RED_COPY in copies:
            if want_red is None:
                # the red five is as likely as any other copy, except that the last copy must be it
                want_red = len(copies) == 1 or rng.random() < 1 / len(copies) * 1.6
            if want_red:
                copies.remove(RED_COPY)
                return kind, True
            others = [c for c in copies if c != RED_COPY]
            copies.remove(rng.choice(others))
            return kind, False
        copy = rng.choice(copies)
        copies.remove(copy)
        return kind, bool(kind in FIVES and self.reds and copy == RED_COPY)


class _Retry(Exception):
    """The random choices ran into a tile limit; start this hand again."""


def tile_str(kind: int, red: bool = False) -> str:
    if kind >= 27:
        return f"{kind - 26}z"
    return f"{0 if red else kind % 9 + 1}{'mps'[kind // 9]}"


def tiles_str(tiles: list[tuple[int, bool]]) -> str:
    """mpsz, sorted, red five before the plain fives."""
    out, suit = [], ""
    for kind, red in sorted(tiles, key=lambda t: (t[0], not t[1])):
        s = tile_str(kind, red)
        if suit and s[-1] != suit:
            out.append(suit)
        out.append(s[:-1])
        suit = s[-1]
    return "".join(out) + suit


# ---- sets --------------------------------------------------------------------------------------

def _chi_starts(kinds: tuple[int, ...] | None = None) -> list[int]:
    starts = [b + n for b in (0, 9, 18) for n in range(7)]
    if kinds is not None:
        allowed = set(kinds)
        starts = [s for s in starts if {s, s + 1, s + 2} <= allowed]
    return starts


def _pick_sets(rng: random.Random, style: str) -> tuple[list[tuple[str, int]], int]:
    """Four (kind, first tile) sets and the pair's kind, before any tile limits are checked."""
    suit = rng.randrange(3) * 9
    all_kinds = tuple(range(34))

    def free_set(kinds: tuple[int, ...] = all_kinds, p_chi: float = 0.6) -> tuple[str, int]:
        starts = _chi_starts(kinds)
        if starts and rng.random() < p_chi:
            return "chi", rng.choice(starts)
        return "pon", rng.choice(kinds)

    if style == "tanyao":
        return [free_set(SIMPLES) for _ in range(4)], rng.choice(SIMPLES)
    if style == "dense":
        # one suit in a narrow window: many ways to read the hand and the wait (45666, 1112, 2233344 ...)
        low = suit + rng.randrange(5)
        kinds = tuple(range(low, low + rng.choice([3, 4, 5])))
        return [free_set(kinds, 0.6) for _ in range(4)], rng.choice(kinds)
    if style == "flush":
        kinds = tuple(range(suit, suit + 9)) + (HONORS if rng.random() < 0.5 else ())
        return [free_set(kinds, 0.55) for _ in range(4)], rng.choice(kinds)
    if style == "outside":
        outside_chis = [s for s in _chi_starts() if s % 9 in (0, 6)]
        kinds = TERMINALS + (HONORS if rng.random() < 0.5 else ())
        sets = [("chi", rng.choice(outside_chis)) if rng.random() < 0.6 else ("pon", rng.choice(kinds))
                for _ in range(4)]
        return sets, rng.choice(kinds)
    if style == "toitoi":
        return [("pon", rng.randrange(34)) for _ in range(4)], rng.randrange(34)
    if style == "kans":
        return [("pon", rng.randrange(34)) if rng.random() < 0.8 else free_set() for _ in range(4)], \
            rng.randrange(34)
    if style == "honors":
        winds, dragons = (27, 28, 29, 30), (31, 32, 33)
        group = rng.choices([winds, dragons, HONORS], weights=[45, 45, 10])[0]
        n = min(rng.choice([2, 3, 3, 4]), len(group))
        sets = [("pon", k) for k in rng.sample(group, n)] + [free_set() for _ in range(4 - n)]
        return sets, rng.choice(group if rng.random() < 0.6 else all_kinds)
    if style == "sanshoku":
        n = rng.randrange(7)
        if rng.random() < 0.25:  # sanshoku doukou: the same triplet in all three suits
            n = rng.randrange(9)
            sets = [("pon", n), ("pon", n + 9), ("pon", n + 18)]
        else:
            sets = [("chi", n), ("chi", n + 9), ("chi", n + 18)]
        return sets + [free_set()], rng.randrange(34)
    if style == "ittsu":
        return [("chi", suit), ("chi", suit + 3), ("chi", suit + 6), free_set()], rng.randrange(34)
    if style == "peikou":
        a = rng.choice(_chi_starts())
        b = rng.choice(_chi_starts()) if rng.random() < 0.4 else None
        sets = [("chi", a), ("chi", a)] + ([("chi", b), ("chi", b)] if b is not None else [free_set(), free_set()])
        return sets, rng.randrange(34)
    if style == "green":
        sets = [("chi", 19) if rng.random() < 0.3 else ("pon", rng.choice(GREEN)) for _ in range(4)]
        return sets, rng.choice(GREEN)
    if style == "terminals":
        kinds = TERMINALS if rng.random() < 0.4 else ORPHANS
        picked = rng.sample(kinds, 5)
        return [("pon", k) for k in picked[:4]], picked[4]
    return [free_set() for _ in range(4)], rng.randrange(34)


# ---- whole hands -------------------------------------------------------------------------------

def _standard_hand(rng: random.Random, style: str, pool: _Pool) -> dict:
    """Sets and melds of a 4-sets-and-a-pair hand: returns the pieces for the request."""
    sets, pair = _pick_sets(rng, style)
    need = [0] * 34
    for kind, first in sets:
        for k in ((first, first + 1, first + 2) if kind == "chi" else (first,) * 3):
            need[k] += 1
    need[pair] += 2
    if max(need) > 4:
        raise _Retry

    openness = rng.random()
    p_call = 0.0 if openness < 0.5 else rng.choice([0.3, 0.5, 0.8, 1.0])
    p_kan = 0.6 if style == "kans" else 0.12
    groups = []  # (meld type or "" for concealed, list of kinds)
    for kind, first in sets:
        if kind == "chi":
            kinds = [first, first + 1, first + 2]
            groups.append(("chi" if rng.random() < p_call else "", kinds))
            continue
        kinds = [first] * 3
        can_kan = need[first] == 3  # the fourth copy is not used elsewhere in the hand
        called = rng.random() < p_call
        if can_kan and rng.random() < p_kan:
            meld = rng.choice(["minkan", "kakan"]) if called else "ankan"
            groups.append((meld, kinds + [first]))
            need[first] += 1
        else:
            groups.append(("pon" if called else "", kinds))
    if max(need) > 4:
        raise _Retry
    return {"groups": groups, "pair": pair}


def _tiles_for(pool: _Pool, rng: random.Random, kinds: list[int]) -> list[tuple[int, bool]]:
    return [pool.take(rng, k) for k in kinds]


def random_request(rng: random.Random, rules: dict) -> dict:
    """One random winning hand as a scoring request under ``rules`` (a rules override dict)."""
    # the style is drawn once and kept through retries, so that styles whose random sets often
    # hit the four-copies limit are not crowded out by the easy ones
    style = rng.choices([s for s, _ in STYLES], weights=[w for _, w in STYLES])[0]
    while True:
        try:
            return _attempt(rng, rules, style)
        except _Retry:
            continue


def _attempt(rng: random.Random, rules: dict, style: str) -> dict:
    pool = _Pool(reds=bool(rules.get("red_fives")))
    seat = rng.choice(WINDS)
    dealer = seat == "E"
    round_wind = rng.choices(WINDS, weights=[60, 30, 5, 5])[0]

    melds: list[dict] = []
    concealed_groups: list[list[tuple[int, bool]]] = []  # groups the winning tile may come from
    concealed: list[tuple[int, bool]] = []
    n_kans = 0
    if style == "chiitoi":
        suit = rng.randrange(3) * 9
        kinds_choice = rng.choice([tuple(range(34)), SIMPLES, ORPHANS, HONORS, tuple(range(suit, suit + 9)),
                                   HONORS + tuple(range(suit, suit + 9))])
        for k in rng.sample(kinds_choice, 7):
            pair = _tiles_for(pool, rng, [k, k])
            concealed_groups.append(pair)
            concealed += pair
    elif style == "kokushi":
        extra = rng.choice(ORPHANS)
        tiles = _tiles_for(pool, rng, list(ORPHANS) + [extra])
        concealed_groups = [[t] for t in tiles]
        concealed = tiles
    elif style == "chuuren":
        base = rng.randrange(3) * 9
        kinds = [base + n for n in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)] + [base + rng.randrange(9)]
        tiles = _tiles_for(pool, rng, kinds)
        concealed_groups = [[t] for t in tiles]
        concealed = tiles
    else:
        hand = _standard_hand(rng, style, pool)
        for meld, kinds in hand["groups"]:
            tiles = _tiles_for(pool, rng, kinds)
            if meld:
                melds.append({"type": meld, "tiles": tiles_str(tiles)})
                n_kans += meld in ("minkan", "kakan", "ankan")
            else:
                concealed_groups.append(tiles)
                concealed += tiles
        pair = _tiles_for(pool, rng, [hand["pair"]] * 2)
        concealed_groups.append(pair)
        concealed += pair

    win_tile = rng.choice(rng.choice(concealed_groups))
    is_open = any(m["type"] != "ankan" for m in melds)
    request: dict = {
        "rules": dict(rules),
        "hand": tiles_str(concealed),
        "win_tile": tile_str(*win_tile),
        "tsumo": rng.random() < 0.45,
        "seat_wind": seat,
        "round_wind": round_wind,
    }
    if melds:
        request["melds"] = melds
    _choose_flags(rng, request, is_open=is_open, dealer=dealer, n_kans=n_kans, n_melds=len(melds),
                  win_kind=win_tile[0], concealed=concealed, melds=melds, pool=pool)

    if not request["tsumo"] and rng.random() < 0.5:
        request["discarder"] = rng.choice([w for w in WINDS if w != seat])
    if rng.random() < 0.5:
        request["honba"] = rng.randrange(1, 9)
    if rng.random() < 0.4:
        request["riichi_sticks"] = rng.randrange(1, 5)
    n_ind = 1 + n_kans
    request["dora_indicators"] = [tile_str(*_draw_any(rng, pool)) for _ in range(n_ind)]
    if request.get("riichi") or request.get("double_riichi"):
        request["ura_indicators"] = [tile_str(*_draw_any(rng, pool)) for _ in range(n_ind)]
    return request


def _draw_any(rng: random.Random, pool: _Pool) -> tuple[int, bool]:
    kinds = [k for k in range(34) if pool.left(k)]
    return pool.take(rng, rng.choice(kinds))


def _choose_flags(rng: random.Random, request: dict, *, is_open: bool, dealer: bool, n_kans: int,
                  n_melds: int, win_kind: int, concealed: list, melds: list, pool: _Pool) -> None:
    tsumo = request["tsumo"]
    if n_melds == 0 and rng.random() < 0.04:
        # a blessing: no riichi and no other situational yaku can come with it
        if tsumo:
            request["tenhou" if dealer else "chiihou"] = True
            return
        if not dealer:
            request["renhou"] = True
            return
    riichi = not is_open and rng.random() < 0.6
    if riichi:
        if rng.random() < 0.12:
            request["double_riichi"] = True
        else:
            request["riichi"] = True
        if rng.random() < 0.2:
            request["ippatsu"] = True
    if tsumo:
        # ippatsu ends with any kan call, so a win on the replacement tile never has it
        if n_kans and not request.get("ippatsu") and rng.random() < 0.2:
            request["rinshan"] = True
        elif rng.random() < 0.07:
            request["haitei"] = True
    else:
        total = sum(1 for k, _ in concealed if k == win_kind)
        total += sum(1 for m in melds for t in _kinds_of(m["tiles"]) if t == win_kind)
        # the robbed tile is the fourth copy: three sit in the other player's pon
        if total == 1 and pool.left(win_kind) == 3 and rng.random() < 0.15:
            request["chankan"] = True
            for _ in range(3):
                pool.take(rng, win_kind)
        elif rng.random() < 0.07:
            request["houtei"] = True


def _kinds_of(tiles: str) -> list[int]:
    out, digits = [], []
    for ch in tiles:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            base = "mpsz".index(ch) * 9
            out += [base + (5 if d == 0 else d) - 1 for d in digits]
            digits = []
    return out


def mangle(rng: random.Random, request: dict, keys: list[str], junk: list) -> dict:
    """A copy of the request with one or two of ``keys`` dropped or set to a value from ``junk`` (for the
    bad-input tests)."""
    bad = dict(request)
    for _ in range(rng.randrange(1, 3)):
        key = rng.choice(keys)
        if rng.random() < 0.2:
            bad.pop(key, None)
        else:
            bad[key] = rng.choice(junk)
    return bad


def random_requests(n: int, seed: int, profiles: tuple[str, ...] = tuple(PROFILES)) -> Iterator[dict]:
    """``n`` requests from one seed; the profiles take turns so each gets about ``n / len(profiles)``."""
    rng = random.Random(seed)
    for i in range(n):
        yield random_request(rng, PROFILES[profiles[i % len(profiles)]])


# ---- translation for the `mahjong` package (2.x API) --------------------------------------------

def _ids(tiles: str, used: set[int]) -> list[int]:
    """136-format ids for an mpsz string: the red five is copy 0, the others take the next free copy."""
    out, digits = [], []
    for ch in tiles:
        if ch.isdigit():
            digits.append(int(ch))
            continue
        base = "mpsz".index(ch) * 9
        for d in digits:
            kind = base + (5 if d == 0 else d) - 1
            copies = [0] if d == 0 else [c for c in (1, 2, 3, 0) if kind * 4 + c not in used]
            tid = kind * 4 + copies[0]
            if tid in used:
                raise ValueError(f"tile {d}{ch} used twice in {tiles}")
            used.add(tid)
            out.append(tid)
        digits = []
    return out


@dataclass(frozen=True)
class MahjongCall:
    """One hand in the package's terms, in plain values: building its objects (``Meld``,
    ``HandConfig``) is left to :meth:`run` because that is part of using the package per hand."""

    tiles: list[int]
    win_tile: int
    melds: list[tuple[str, list[int], bool]]
    dora: list[int]
    ura: list[int]
    config: dict
    options: object  # an OptionalRules, shared by all hands of one profile as a club would set it up once

    def run(self):
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig
        from mahjong.meld import Meld

        melds = [Meld(meld_type=t, tiles=ids, opened=opened) for t, ids, opened in self.melds]
        config = HandConfig(options=self.options, **self.config)
        return HandCalculator.estimate_hand_value(self.tiles, self.win_tile, melds=melds, dora_indicators=self.dora,
                                                  ura_dora_indicators=self.ura, config=config)


_OPTIONS_CACHE: dict[tuple, object] = {}


def _package_options(rules: dict):
    from mahjong.hand_calculating.hand_config import HandConstants, OptionalRules

    key = tuple(sorted((k, str(v)) for k, v in rules.items()))
    if key in _OPTIONS_CACHE:
        return _OPTIONS_CACHE[key]
    fixed = {k: rules.get(k) for k in FIXED_OPTIONS}
    if fixed != FIXED_OPTIONS:
        raise ValueError(f"the mahjong package cannot express these options: {fixed}")
    if rules.get("renhou", "5han") not in ("yakuman", "5han"):
        raise ValueError("the mahjong package knows renhou only as a yakuman or as a 5-han yaku")
    kazoe = {"yakuman": HandConstants.KAZOE_LIMITED, "sanbaiman": HandConstants.KAZOE_SANBAIMAN}
    options = OptionalRules(
        has_open_tanyao=bool(rules["open_tanyao"]),
        has_aka_dora=bool(rules["red_fives"]),
        has_double_yakuman=bool(rules["double_yakuman"]),
        kazoe_limit=kazoe[rules["kazoe"]],
        kiriage=bool(rules["kiriage"]),
        renhou_as_yakuman=rules.get("renhou") == "yakuman",
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
    )
    _OPTIONS_CACHE[key] = options
    return options


def to_mahjong(request: dict) -> MahjongCall:
    """The request in the package's terms (136-format tile ids, its flags and options).

    Only the rule options that the package can express are accepted; anything else raises
    ValueError so that a profile can never silently compare two different rule sets."""
    from mahjong.constants import EAST, NORTH, SOUTH, WEST
    from mahjong.meld import Meld

    rules = request["rules"]
    options = _package_options(rules)
    used: set[int] = set()
    melds, tiles = [], []
    kinds = {"chi": (Meld.CHI, True), "pon": (Meld.PON, True), "minkan": (Meld.KAN, True),
             "kakan": (Meld.SHOUMINKAN, True), "ankan": (Meld.KAN, False)}
    for m in request.get("melds", ()):
        ids = _ids(m["tiles"], used)
        meld_type, opened = kinds[m["type"]]
        melds.append((meld_type, ids, opened))
        tiles += ids
    hand_ids = _ids(request["hand"], used)
    tiles += hand_ids
    win_kind = _kinds_of(request["win_tile"])[0]
    win_red = request["win_tile"].startswith("0")
    win_tile = next(t for t in hand_ids if t // 4 == win_kind and (t % 4 == 0) == win_red) \
        if win_kind in FIVES and rules["red_fives"] else next(t for t in hand_ids if t // 4 == win_kind)
    winds = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
    config = {
        "is_tsumo": bool(request.get("tsumo")),
        "is_riichi": bool(request.get("riichi") or request.get("double_riichi")),
        "is_daburu_riichi": bool(request.get("double_riichi")),
        "is_ippatsu": bool(request.get("ippatsu")),
        "is_rinshan": bool(request.get("rinshan")),
        "is_chankan": bool(request.get("chankan")),
        "is_haitei": bool(request.get("haitei")),
        "is_houtei": bool(request.get("houtei")),
        "is_tenhou": bool(request.get("tenhou")),
        "is_chiihou": bool(request.get("chiihou")),
        "is_renhou": bool(request.get("renhou")),
        "player_wind": winds[request.get("seat_wind", "E")],
        "round_wind": winds[request.get("round_wind", "E")],
        "tsumi_number": request.get("honba", 0),
        "kyoutaku_number": request.get("riichi_sticks", 0),
    }
    dora = [_ids(t, set())[0] for t in request.get("dora_indicators", ())]
    ura = [_ids(t, set())[0] for t in request.get("ura_indicators", ())]
    return MahjongCall(tiles, win_tile, melds, dora, ura, config, options)


def score_with_mahjong(request: dict):
    """The package's HandResponse for ``request``."""
    return to_mahjong(request).run()
