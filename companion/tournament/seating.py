"""Who sits where: a seeded seating plan for many rounds, and Swiss seating by standings.

Seating has two independent halves, and each is solved on its own:

- *grouping* (which four players share a table) decides who meets whom. Simulated annealing over
  swaps of two players of the same round drives the number of repeat meetings down; the cost is
  the sum over pairs of ``m * (m - 1) / 2`` for ``m`` meetings, so a third meeting of the same pair
  weighs more than a second meeting of two different pairs. For 16 and 64 players without history
  the affine plane over GF(4) gives perfect rounds directly.
- *seat order* within a table decides the winds. A fresh plan colours the edges of the bipartite
  graph tables x (player, block of four rounds) with four winds, so everybody sits each wind once
  per four rounds; plans after a history pick each table's order from its 24 permutations by
  local search. Either way counts stay within one of each other where that is reachable.

Everything is deterministic: the same players, history, rounds and seed give the same plan on
every machine (``random.Random(seed)`` and iteration budgets, never the clock).

    >>> plan = plan_rounds(list(range(16)), 5, seed=1)
    >>> plan.repeat_meetings, len(plan.rounds), len(plan.rounds[0])
    (0, 5, 4)
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from companion.errors import InvalidRequestError

WINDS = "ESWN"
_PERMS = tuple(itertools.permutations(range(4)))

# annealing steps per player-round and in all: 20 x 4 and 24 x 5 reach zero repeats well within
# this, and the largest plans stay around a second in CPython; temperatures in units of pair cost
_STEPS_PER_SLOT = 2500
_MAX_STEPS = 700_000
_T_START = 0.8
_T_END = 0.05
# tries of the search with pairs kept apart before the plain plan is kept
_APART_TRIES = 3


@dataclass
class Plan:
    """Seated rounds: ``rounds[r][t]`` is table ``t`` of round ``r`` in seat order East, South,
    West, North. ``repeat_meetings`` counts every meeting of a pair beyond its first, history
    included; ``max_meetings`` is the most often any pair meets; ``wind_spread`` is the largest
    difference between a player's most and least used wind; ``avoided_meetings`` counts meetings of
    pairs that were to be kept apart (same club)."""

    rounds: list[list[list[Hashable]]]
    repeat_meetings: int = 0
    max_meetings: int = 0
    wind_spread: int = 0
    avoided_meetings: int = 0  # meetings in this plan of pairs that were to be kept apart
    winds: dict[Hashable, list[int]] = field(default_factory=dict, repr=False)  # E, S, W, N counts

    def to_dict(self) -> dict:
        return {"rounds": self.rounds, "repeat_meetings": self.repeat_meetings,
                "max_meetings": self.max_meetings, "wind_spread": self.wind_spread,
                "avoided_meetings": self.avoided_meetings}


def check_player_count(n: int) -> None:
    """Tables seat exactly four: refuse anything but a positive multiple of four, saying what to do."""
    if n < 4:
        raise InvalidRequestError(f"a tournament needs at least 4 active players, not {n}")
    if n % 4:
        short = 4 - n % 4
        raise InvalidRequestError(
            f"{n} active players cannot be seated at tables of four; add {short} player"
            f"{'s' if short > 1 else ''} (e.g. substitutes) or withdraw {n % 4}")


def _history_counts(players: Sequence[Hashable], history: Sequence[Sequence[Sequence[Hashable]]]
                    ) -> tuple[list[list[int]], list[list[int]]]:
    """Meetings between active players and wind counts of active players in past rounds."""
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    met = [[0] * n for _ in range(n)]
    winds = [[0] * 4 for _ in range(n)]
    for rnd in history:
        for table in rnd:
            seats = [index.get(p) for p in table]
            for s, i in enumerate(seats):
                if i is None:
                    continue  # a withdrawn player: their meetings no longer matter
                winds[i][s] += 1
                for j in seats:
                    if j is not None and j != i:
                        met[i][j] += 1
    return met, winds


def _lower_bound(met: list[list[int]]) -> int:
    """The least possible pair cost of the meetings ``met`` (planned rounds included): each
    player's meetings spread as evenly as they can be over the others."""
    n = len(met)
    if n <= 1:
        return 0
    total = 0
    for i in range(n):
        q, rem = divmod(sum(met[i]), n - 1)
        total += rem * (q + 1) * q // 2 + (n - 1 - rem) * q * (q - 1) // 2
    return (total + 1) // 2


def _pair_cost(met: list[list[int]]) -> int:
    n = len(met)
    return sum(met[i][j] * (met[i][j] - 1) // 2 for i in range(n) for j in range(i + 1, n))


def _group(base: list[list[int]], rounds: int, rng: random.Random,
           apart: list[list[int]] | None = None) -> list[list[list[int]]]:
    """Tables of four for ``rounds`` rounds (player indices), repeat meetings driven down by
    simulated annealing over swaps of two players within a round.

    ``base`` holds the meetings of past rounds and is not changed. ``apart[i][j]`` is 1 for pairs
    to keep apart; such a meeting costs as much as a second meeting. (Weighing repeats more makes
    the annealing freeze with many club meetings left; ``plan_rounds`` instead keeps a plain plan
    whenever the club plan would cost a repeat.) The search stops at the lower bound (usually:
    nobody meets twice, no club pair meets) or after a fixed number of steps."""
    n = len(base)
    tables = n // 4
    met = [list(row) for row in base]
    greedy = (lambda p, q: met[p][q] + apart[p][q]) if apart else (lambda p, q: met[p][q])
    # greedy start: each player joins the open table where they have met the fewest
    plan: list[list[list[int]]] = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        rnd: list[list[int]] = [[] for _ in range(tables)]
        for p in order:
            best = min((t for t in range(tables) if len(rnd[t]) < 4),
                       key=lambda t: (sum(greedy(p, q) for q in rnd[t]), len(rnd[t])))
            for q in rnd[best]:
                met[p][q] += 1
                met[q][p] += 1
            rnd[best].append(p)
        plan.append(rnd)
    if tables < 2 or rounds == 0:
        return plan
    where = [[0] * n for _ in range(rounds)]
    pos = [[0] * n for _ in range(rounds)]
    for r, rnd in enumerate(plan):
        for t, table in enumerate(rnd):
            for i, p in enumerate(table):
                where[r][p], pos[r][p] = t, i
    bound = _lower_bound(met)
    cost = _pair_cost(met)
    if apart:
        cost += _apart_cost(plan, apart)
    best_cost, best_plan = cost, [[list(t) for t in rnd] for rnd in plan]
    steps = min(_MAX_STEPS, _STEPS_PER_SLOT * n * rounds)
    temp, cooling = _T_START, (_T_END / _T_START) ** (1 / steps)
    rand, randrange = rng.random, rng.randrange
    for _ in range(steps):
        if cost <= bound:
            break
        temp *= cooling
        r, a, b = randrange(rounds), randrange(n), randrange(n)
        ta, tb = where[r][a], where[r][b]
        if ta == tb:
            continue
        table_a, table_b = plan[r][ta], plan[r][tb]
        met_a, met_b = met[a], met[b]
        # a leaves its table-mates for b's and b goes the other way; the change of
        # sum C(m, 2) is -(m - 1) per meeting lost and +m per meeting gained
        delta = 0
        for x in table_a:
            if x != a:
                delta += met_b[x] - met_a[x] + 1
        for y in table_b:
            if y != b:
                delta += met_a[y] - met_b[y] + 1
        if apart:
            apart_a, apart_b = apart[a], apart[b]
            for x in table_a:
                if x != a:
                    delta += apart_b[x] - apart_a[x]
            for y in table_b:
                if y != b:
                    delta += apart_a[y] - apart_b[y]
        if delta > 0 and rand() >= math.exp(-delta / temp):
            continue
        for x in table_a:
            if x != a:
                met_a[x] -= 1
                met[x][a] -= 1
                met_b[x] += 1
                met[x][b] += 1
        for y in table_b:
            if y != b:
                met_b[y] -= 1
                met[y][b] -= 1
                met_a[y] += 1
                met[y][a] += 1
        ia, ib = pos[r][a], pos[r][b]
        table_a[ia], table_b[ib] = b, a
        pos[r][a], pos[r][b] = ib, ia
        where[r][a], where[r][b] = tb, ta
        cost += delta
        if cost < best_cost:
            best_cost, best_plan = cost, [[list(t) for t in rnd] for rnd in plan]
    return best_plan


def _recount(base: list[list[int]], plan: list[list[list[int]]]) -> list[list[int]]:
    met = [list(row) for row in base]
    for rnd in plan:
        for table in rnd:
            for p in table:
                for q in table:
                    if p != q:
                        met[p][q] += 1
    return met


def _apart_cost(plan: list[list[list[int]]], apart: list[list[int]]) -> int:
    return sum(apart[p][q] for rnd in plan for table in rnd for i, p in enumerate(table) for q in table[i + 1:])


def _even_squares(total: int) -> int:
    q, rem = divmod(total, 4)
    return rem * (q + 1) ** 2 + (4 - rem) * q * q


def _order_seats(plan: list[list[list[int]]], winds: list[list[int]], rng: random.Random) -> None:
    """Put each table in seat order so that everyone's wind counts stay as even as possible.

    The measure is the sum of squared wind counts, smallest when every player's counts are at
    most one apart; single tables are re-ordered while that helps, with a few random shakes to
    leave local optima, and the best order found is kept."""
    players = sorted({p for rnd in plan for table in rnd for p in table})
    history = {p: list(winds[p]) for p in players}

    def table_cost(table: list[int], perm: tuple[int, ...]) -> int:
        # adding one to an already high count costs more, which keeps the squares sum small
        return sum(winds[table[perm[s]]][s] for s in range(4))

    def place(table: list[int], sign: int) -> None:
        for s, p in enumerate(table):
            winds[p][s] += sign

    for rnd in plan:
        for t, table in enumerate(rnd):
            rng.shuffle(table)
            perm = min(_PERMS, key=lambda pm: table_cost(table, pm))
            rnd[t] = [table[perm[s]] for s in range(4)]
            place(rnd[t], 1)
    target = sum(_even_squares(sum(winds[p])) for p in players)
    slots = [(r, t) for r in range(len(plan)) for t in range(len(plan[r]))]

    def score() -> int:
        return sum(w * w for p in players for w in winds[p])

    best, best_plan = score(), [[list(t) for t in rnd] for rnd in plan]
    for attempt in range(60):
        if best <= target:
            break
        changed = True
        while changed:
            changed = False
            rng.shuffle(slots)
            for r, t in slots:
                table = plan[r][t]
                place(table, -1)
                now = table_cost(table, _PERMS[0])
                costs = [table_cost(table, pm) for pm in _PERMS]
                low = min(costs)
                if low < now:
                    perm = _PERMS[rng.choice([i for i, c in enumerate(costs) if c == low])]
                    plan[r][t] = [table[perm[s]] for s in range(4)]
                    changed = True
                place(plan[r][t], 1)
        now_score = score()
        if now_score < best:
            best, best_plan = now_score, [[list(t) for t in rnd] for rnd in plan]
        # shake: re-order a few random tables at random, from the best plan so far
        for p in players:
            winds[p] = list(history[p])
        plan[:] = [[list(t) for t in rnd] for rnd in best_plan]
        for r, t in rng.sample(slots, min(len(slots), 2 + attempt % 4)):
            rng.shuffle(plan[r][t])
        for rnd in plan:
            for table in rnd:
                place(table, 1)
    for p in players:
        winds[p] = list(history[p])
    plan[:] = best_plan
    for rnd in plan:
        for table in rnd:
            place(table, 1)


def _colour_winds(plan: list[list[list[int]]]) -> None:
    """Seat orders with perfectly even winds when there is no history: every player sits each wind
    once in every block of four rounds (and on different winds in a final, shorter block).

    This is a proper 4-edge-colouring of the bipartite graph tables x (player, block of 4 rounds):
    both sides have degree at most 4, so by Koenig's theorem four colours (winds) suffice. Edges are
    coloured one by one, swapping the two colours along an alternating path when needed."""
    # colour_at[node][c] = the node at the other end of the edge coloured c (or None)
    colour_at: dict[tuple, list] = {}

    def node(x: tuple) -> list:
        return colour_at.setdefault(x, [None] * 4)

    for r, rnd in enumerate(plan):
        for t, table in enumerate(rnd):
            tnode = ("t", r, t)
            for p in table:
                pnode = ("p", p, r // 4)
                a = next(c for c in range(4) if node(tnode)[c] is None)
                b = next(c for c in range(4) if node(pnode)[c] is None)
                if node(pnode)[a] is not None:
                    # flip the a/b path that starts at the player; it cannot reach the table
                    path, cur, col = [], pnode, a
                    while cur is not None and node(cur)[col] is not None:
                        nxt = node(cur)[col]
                        path.append((cur, nxt, col))
                        cur, col = nxt, (b if col == a else a)
                    for u, v, c in path:
                        node(u)[c] = None
                        node(v)[c] = None
                    for u, v, c in path:
                        other = b if c == a else a
                        node(u)[other] = v
                        node(v)[other] = u
                node(tnode)[a] = pnode
                node(pnode)[a] = tnode
    # read the seats only now: a later swap may recolour an edge of an earlier table
    for r, rnd in enumerate(plan):
        for t in range(len(rnd)):
            rnd[t] = [colour_at[("t", r, t)][c][1] for c in range(4)]


def _affine_groups(n: int, rounds: int, rng: random.Random) -> list[list[list[int]]] | None:
    """Rounds where no pair ever meets twice, from the affine geometry AG(k, 4) when n = 4**k.

    Its points are the vectors of GF(4)^k; the lines through the origin's directions split the
    points into parallel classes of lines of four, and two points lie on exactly one common line.
    So each class is a round and any (n - 1) / 3 rounds are free of repeats (16 players: 5 rounds,
    64 players: 21). Returns None for other n."""
    k = 0
    while 4 ** (k + 1) <= n:
        k += 1
    if n != 4 ** k or k < 2 or rounds > (n - 1) // 3:
        return None
    # GF(4) = {0, 1, w, w + 1} as 0..3: addition is XOR, multiplication by the table (w^2 = w + 1)
    mul = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
    points = list(itertools.product(range(4), repeat=k))
    directions = [d for d in points if any(d) and d[next(i for i, x in enumerate(d) if x)] == 1]
    label = list(range(n))
    rng.shuffle(label)
    index = {pt: label[i] for i, pt in enumerate(points)}
    out = []
    for d in rng.sample(directions, rounds):
        seen: set[tuple] = set()
        rnd = []
        for pt in points:
            if pt in seen:
                continue
            line = [tuple(pt[i] ^ mul[c][d[i]] for i in range(k)) for c in range(4)]
            seen.update(line)
            rnd.append([index[q] for q in line])
        out.append(rnd)
    return out


def summarise(players: Sequence[Hashable], history: Sequence, rounds: list[list[list[Hashable]]]) -> Plan:
    """Meetings and winds of ``rounds`` after ``history`` among ``players`` (the counts a plan
    reports; also what the tournament shows for the rounds seated so far)."""
    met, winds = _history_counts(players, list(history) + rounds)
    n = len(players)
    pairs = {frozenset((players[i], players[j])): met[i][j]
             for i in range(n) for j in range(i + 1, n) if met[i][j]}
    repeats = sum(m - 1 for m in pairs.values() if m > 1)
    spread = max((max(w) - min(w) for w in winds), default=0)
    return Plan(rounds=rounds, repeat_meetings=repeats, max_meetings=max(pairs.values(), default=0),
                wind_spread=spread, winds=dict(zip(players, winds, strict=True)))


def plan_rounds(players: Sequence[Hashable], rounds: int, seed: int | str = 0,
                history: Sequence[Sequence[Sequence[Hashable]]] = (),
                avoid: Sequence[tuple[Hashable, Hashable]] = ()) -> Plan:
    """Seat ``players`` for ``rounds`` rounds after the ``history`` already played.

    ``history`` rounds are lists of tables in seat order and may name players who have left; their
    meetings and winds with the active ``players`` count, so a re-plan after a withdrawal still
    avoids pairs that met earlier. ``avoid`` pairs (players of one club, say) are kept apart where
    possible, but never at the price of more repeat meetings. Raises ``InvalidRequestError``
    unless the players fill tables of four exactly."""
    players = list(players)
    check_player_count(len(players))
    if len(set(players)) != len(players):
        raise InvalidRequestError("a player is listed twice for seating")
    if rounds < 0:
        raise InvalidRequestError("the number of rounds cannot be negative")
    rng = random.Random(f"seating:{seed}:{len(players)}:{rounds}")
    met, winds = _history_counts(players, history)
    index = {p: i for i, p in enumerate(players)}
    kept_apart = {frozenset((index[a], index[b])) for a, b in avoid if a in index and b in index and a != b}
    apart = None
    if kept_apart:
        apart = [[0] * len(players) for _ in players]
        for pair in kept_apart:
            i, j = tuple(pair)
            apart[i][j] = apart[j][i] = 1
    idx_plan = None if history else _affine_groups(len(players), rounds, rng)
    if idx_plan is None:
        idx_plan = _group(met, rounds, rng)
    if apart:
        # keep clubs apart only where that costs no repeat meeting over the plain plan
        def score(p: list[list[list[int]]]) -> tuple[int, int]:
            m = _recount(met, p)
            return _pair_cost(m), _apart_cost(p, apart)

        best = score(idx_plan)
        for attempt in range(_APART_TRIES):
            if best[1] == 0:
                break
            trial = _group(met, rounds, random.Random(f"apart:{seed}:{len(players)}:{rounds}:{attempt}"), apart)
            got = score(trial)
            if got[0] <= best[0] and got < best:
                idx_plan, best = trial, got
    if history:
        _order_seats(idx_plan, winds, rng)
    else:
        _colour_winds(idx_plan)
    named = [[[players[i] for i in table] for table in rnd] for rnd in idx_plan]
    for rnd in named:  # table numbers follow the players' order, which makes printed lists calm
        rnd.sort(key=lambda table: min(players.index(p) for p in table))
    plan = summarise(players, history, named)
    plan.avoided_meetings = sum(1 for rnd in idx_plan for table in rnd
                                for i, a in enumerate(table) for b in table[i + 1:]
                                if frozenset((a, b)) in kept_apart)
    return plan


def swiss_round(ranked: Sequence[Hashable], seed: int | str = 0,
                history: Sequence[Sequence[Sequence[Hashable]]] = ()) -> Plan:
    """One round seated by standing: the first four of ``ranked`` at table 1, the next four at
    table 2 and so on; seat order still balances winds against ``history``."""
    ranked = list(ranked)
    check_player_count(len(ranked))
    rng = random.Random(f"swiss:{seed}:{len(ranked)}:{len(history)}")
    _, winds = _history_counts(ranked, history)
    idx = [[list(range(t * 4, t * 4 + 4)) for t in range(len(ranked) // 4)]]
    _order_seats(idx, winds, rng)
    named = [[[ranked[i] for i in table] for table in idx[0]]]
    return summarise(ranked, history, named)
