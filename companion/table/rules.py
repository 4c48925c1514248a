"""Table rules: everything about a game that is not the value of a single hand.

A club's table rules are data. Riichi presets keep theirs in the ``[table]`` section of
``companion/rules/riichi/presets/<name>.toml``; the other families (``hongkong``,
``classical``, ``oldjapanese``) get the family defaults below. Any field can be
overridden per game::

    >>> r = table_rules("ryanzou", {"length": "east"})
    >>> r.start_points, r.uma, r.length
    (25000, (15, 5, -5, -15), 'east')

Unknown preset names and unknown, ill-typed or out-of-range overrides raise ``UnknownRulesError``.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from companion.errors import UnknownRulesError

RIICHI_PRESETS = ("ema2016", "wrc", "mleague", "tenhou", "mahjongsoul", "ryanzou")
OTHER_FAMILIES = ("hongkong", "classical", "oldjapanese")
ABORTIVE_KINDS = ("kyuushu_kyuuhai", "suufon_renda", "suucha_riichi", "suukaikan", "sanchahou")
PRESET_DIR = Path(__file__).resolve().parent.parent / "rules" / "riichi" / "presets"


@dataclass(frozen=True)
class TableRules:
    """How a game is played at the table, independent of how a single hand is valued.

    Points are table points; ``uma`` is in thousands, as rule sheets write it.

    - ``family``: ``riichi`` | ``hongkong`` | ``classical`` | ``oldjapanese``; ``preset``: its name.
    - ``start_points``: what everyone starts with; ``return_points``: the target the final score
      is measured against (``oka`` = 4 x (return - start), paid to first place; 0 when equal).
    - ``uma``: bonus for ranks 1-4 in thousands. ``tie``: ``share`` (tied players share the ranks,
      average the uma and split the oka) or ``seat_order`` (the player who started closer to East
      ranks higher, seed 003 "Gleichstand").
    - ``honba_value``: total a counter adds to a win (seed 000: 300). ``tenpai_payment``: total
      paid from noten to tenpai players at an exhaustive draw (seed 000: 3000).
    - ``renchan_on_dealer_tenpai``: the dealer keeps the deal when tenpai at a draw.
      ``dealer_keeps_on_draw``: for families without tenpai payments, the dealer keeps the deal at a
      draw (classical/old Japanese: yes; Hong Kong: by agreement, default yes).
    - ``multiple_ron``: ``allow`` (double/triple ron) or ``head_bump`` (only the first player after
      the discarder wins). ``sticks_on_multiple_ron``: ``head_bump`` (all sticks to the first
      winner after the discarder) or ``own_back`` (seed 003: winners who declared riichi this hand
      get their own stick back, the rest goes by head bump). ``honba_on_multiple_ron``: ``all``
      (seed 003: every winner gets the counters) or ``head_bump``.
    - ``leftover_sticks``: riichi sticks still on the table at game end go to ``first_place``
      (``winner`` is accepted as the same, seed 003's wording) or are ``lost``.
    - ``bust_below_zero``: the game ends after a hand that leaves someone below 0 (seed 003 tobi).
    - ``agari_yame`` / ``tenpai_yame``: the last dealer may end the game after a win / a tenpai draw
      (seed 003: "darf", so the page offers an ``end`` event; ``yame_automatic`` ends at once,
      ``yame_only_if_top`` only when the dealer leads).
    - ``length``: ``east`` | ``east_south`` | ``full`` (four winds).
    - ``extra_rounds``: ``none``; ``sudden_death`` (if nobody has ``target_points`` after the last
      hand, play on into the next wind and end after the first hand that leaves someone at the
      target, at the latest after that wind); ``west_then_sudden_death`` (seed 003: the West round
      is played in full, North is sudden death, after North 4 the game ends undecided).
      ``target_points``: 0 means ``return_points``.
    - ``chombo``: ``reverse_mangan`` (seed 003: paid at once like a mangan tsumo, hand replayed)
      or ``penalty`` (EMA 2016: ``chombo_penalty`` points off the final score after uma, hand
      replayed). ``chombo_dealer_passes``: after the dealer's chombo the deal passes (seed 001).
    - ``riichi``: the family has riichi at all; ``riichi_needs_1000``: a player below 1000 may not
      declare it.
    - ``abortive_draws``: which abortive draws exist (kinds as in ``ABORTIVE_KINDS``).
    - ``nagashi_mangan``: counts as a mangan tsumo (seed 003 reading). ``pao``: liability payments.
    - ``honba``: the family counts honba at all (old Japanese shows them; their value is 0).
    - ``kiriage`` / ``kazoe`` / ``allow_1han_20fu_tsumo``: how han/fu entry is turned into points
      (seed 003 allows tsumo nomi as 1 han 20 fu).
    - ``final_rounding``: final points are rounded to this (seed 001: thousands, 500 rounds up).
    - ``scoring``: the house rules for valuing hands, as the family's scoring options over the
      preset's own (riichi ``{"open_tanyao": false}``, Hong Kong ``{"min_fan": 1, "cap": 10}``, ...);
      every hand scored at this table uses them. Checked by the family's engine when the game is
      made. Riichi's ``kiriage`` and ``kazoe`` given here apply to han/fu entry too.
    """

    family: str = "riichi"
    preset: str = "ema2016"
    start_points: int = 25000
    return_points: int = 30000
    uma: tuple[int, int, int, int] = (15, 5, -5, -15)
    tie: str = "share"
    honba_value: int = 300
    tenpai_payment: int = 3000
    renchan_on_dealer_tenpai: bool = True
    dealer_keeps_on_draw: bool = False
    multiple_ron: str = "allow"
    sticks_on_multiple_ron: str = "head_bump"
    honba_on_multiple_ron: str = "head_bump"
    leftover_sticks: str = "first_place"
    bust_below_zero: bool = False
    agari_yame: bool = False
    tenpai_yame: bool = False
    yame_automatic: bool = False
    yame_only_if_top: bool = False
    length: str = "east_south"
    extra_rounds: str = "none"
    target_points: int = 0
    chombo: str = "reverse_mangan"
    chombo_penalty: int = 20000
    chombo_dealer_passes: bool = False
    riichi: bool = True
    riichi_needs_1000: bool = True
    abortive_draws: tuple[str, ...] = field(default=ABORTIVE_KINDS)
    nagashi_mangan: bool = True
    pao: bool = True
    honba: bool = True
    kiriage: bool = False
    kazoe: str = "yakuman"
    allow_1han_20fu_tsumo: bool = False
    final_rounding: int = 0
    scoring: dict = field(default_factory=dict)

    @property
    def oka(self) -> int:
        """Total bonus for first place (seed 003: start 25,000, target 30,000 -> 20,000)."""
        return 4 * (self.return_points - self.start_points)

    @property
    def target(self) -> int:
        return self.target_points or self.return_points

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["uma"] = list(self.uma)
        d["abortive_draws"] = list(self.abortive_draws)
        d["oka"] = self.oka
        d["scoring_rules"] = self.scoring_rules
        return d

    @property
    def scoring_rules(self) -> str | dict:
        """The ``rules`` value of every scoring request at this table."""
        return {"preset": self.preset, **self.scoring} if self.scoring else self.preset


NOT_OVERRIDES = ("family", "preset", "oka", "scoring_rules")
"""Keys of :meth:`TableRules.to_dict` that are no overridable rules: the preset's own and what is derived."""


_CHOICES = {
    "family": ("riichi", "hongkong", "classical", "oldjapanese"),
    "tie": ("share", "seat_order"),
    "multiple_ron": ("allow", "head_bump"),
    "sticks_on_multiple_ron": ("head_bump", "own_back"),
    "honba_on_multiple_ron": ("all", "head_bump"),
    "leftover_sticks": ("first_place", "winner", "lost"),
    "length": ("east", "east_south", "full"),
    "extra_rounds": ("none", "sudden_death", "west_then_sudden_death"),
    "chombo": ("reverse_mangan", "penalty"),
    "kazoe": ("yakuman", "sanbaiman", "none"),
}

MAX_POINTS = 1_000_000
"""The largest amount any table rule may name: forty times a usual start, far beyond any rule sheet."""

# the range of every whole-number rule: beyond it a rule pays the wrong way (a negative tenpai
# payment makes the tenpai player pay) or names no amount a table plays with
_RANGES: dict[str, tuple[int, int]] = {
    "start_points": (0, MAX_POINTS),       # 0 only for a running tally (_check_amounts)
    "return_points": (0, MAX_POINTS),      # not below start_points (_check_amounts)
    "target_points": (0, MAX_POINTS),      # 0 means return_points
    "honba_value": (0, 3000),              # ten times the usual 300 still fits "1500 per counter" tables
    "tenpai_payment": (0, 30000),          # ten times the usual 3000
    "chombo_penalty": (0, MAX_POINTS),
    "final_rounding": (0, 10000),          # 0 = none; seed 001 rounds to 1000
}
_MAX_UMA = MAX_POINTS // 1000  # uma is in thousands
# families whose scores are a running tally from 0 rather than sticks handed out at the start
_TALLY_FAMILIES = ("hongkong", "classical")

# Families other than riichi: these readings are documented in the README table section.
# Hong Kong and classical play alike at the table: a running tally from 0, no sticks, no honba,
# one winner per discard, the dealer keeps the deal on a draw, all four wind rounds
_TALLY_FROM_ZERO: dict = dict(start_points=0, return_points=0, uma=(0, 0, 0, 0), multiple_ron="head_bump",
                              honba_value=0, tenpai_payment=0, renchan_on_dealer_tenpai=False,
                              dealer_keeps_on_draw=True, length="full", riichi=False, riichi_needs_1000=False,
                              abortive_draws=(), nagashi_mangan=False, pao=False, honba=False,
                              leftover_sticks="lost", tie="share")

_FAMILY_DEFAULTS: dict[str, dict] = {
    # seed 004: the dealer keeps the deal on a win; on a draw by agreement (common: keeps), and
    # the very last hand is always replayed after a draw. Points are a running tally from 0.
    # Several winners on one discard only by agreement; otherwise the first in turn after the
    # discarder wins ("dem Abwurf gegen den Uhrzeigersinn am nächsten").
    "hongkong": dict(_TALLY_FROM_ZERO, family="hongkong"),
    # seed 002: everyone starts at 0; "Der Geber wechselt nur dann, wenn ein anderer Spieler als
    # Osten Mahjongg machen konnte", so East keeps the deal on a draw too; four wind rounds.
    # One player makes Mahjongg per hand at Gravon, so a second claim loses to the first in turn.
    "classical": dict(_TALLY_FROM_ZERO, family="classical"),
    # seed 001: 27,000 in sticks counted as 30,000, the 12,000 difference goes to the winner of
    # the whole game; final scores rounded to thousands; riichi with a 1,000 stick; East keeps the
    # deal on a win or draw ("Ren chowa") and marks it with a 100-stick that pays nothing; no
    # tenpai payments; a false win costs a reversed limit and the deal passes if East made it;
    # the abortive draws of chapter 8; Li chan (four winds) by default.
    "oldjapanese": dict(family="oldjapanese", start_points=27000, return_points=30000,
                        uma=(0, 0, 0, 0), honba_value=0, tenpai_payment=0,
                        renchan_on_dealer_tenpai=False, dealer_keeps_on_draw=True, length="full",
                        riichi=True, riichi_needs_1000=True,
                        abortive_draws=("kyuushu_kyuuhai", "suufon_renda", "suucha_riichi",
                                        "suukaikan", "sanchahou"),
                        nagashi_mangan=False, pao=False, honba=True, chombo="reverse_mangan",
                        chombo_dealer_passes=True, leftover_sticks="first_place", tie="share",
                        final_rounding=1000),
}


def _check(name: str, value: object, ranges: bool = True) -> object:
    """Type-check one field value (from a preset file or an override) and normalise it; ``ranges``:
    hold amounts to the ranges a new game may name (``_RANGES``, uma that does not rise)."""
    fields = {f.name: f for f in dataclasses.fields(TableRules)}
    if name not in fields:
        known = ", ".join(sorted(fields))
        raise UnknownRulesError(f"unknown table rule {name!r}; known: {known}")
    default = getattr(TableRules(), name)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise UnknownRulesError(f"table rule {name!r} must be true or false, not {value!r}")
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise UnknownRulesError(f"table rule {name!r} must be a whole number, not {value!r}")
        low, high = _RANGES[name]
        if ranges and not low <= value <= high:
            raise UnknownRulesError(f"table rule {name!r} must be from {low:,} to {high:,}, not {value:,}")
        # these are split between players, and a split must not create or lose points
        if name == "tenpai_payment" and value % 6:
            raise UnknownRulesError("table rule 'tenpai_payment' must split evenly among 1, 2 or 3 "
                                    f"players (a multiple of 6, like 3000), not {value}")
        if name == "honba_value" and value % 3:
            raise UnknownRulesError("table rule 'honba_value' must split evenly among three payers "
                                    f"(a multiple of 3, like 300), not {value}")
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise UnknownRulesError(f"table rule {name!r} must be a string, not {value!r}")
        if name in _CHOICES and value not in _CHOICES[name]:
            raise UnknownRulesError(
                f"table rule {name!r} must be one of {', '.join(_CHOICES[name])}, not {value!r}")
    elif name == "uma":
        if (not isinstance(value, list | tuple) or len(value) != 4
                or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
            raise UnknownRulesError(f"table rule 'uma' must be four numbers (thousands), not {value!r}")
        if ranges and not all(-_MAX_UMA <= v <= _MAX_UMA for v in value):
            raise UnknownRulesError(f"table rule 'uma' must be four numbers from -{_MAX_UMA:,} to {_MAX_UMA:,} "
                                    f"(thousands), not {list(value)}")
        if sum(value) != 0:
            raise UnknownRulesError(f"table rule 'uma' must add up to 0, {list(value)} adds up to {sum(value)}")
        # a bonus for ranks: a better rank never gets less than a worse one
        if ranges and any(value[i] < value[i + 1] for i in range(3)):
            raise UnknownRulesError("table rule 'uma' must not increase from first to fourth place "
                                    f"(like 15, 5, -5, -15), not {list(value)}")
        return tuple(value)
    elif name == "scoring":
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise UnknownRulesError("table rule 'scoring' must be an object of scoring option names and values")
        if "preset" in value:
            raise UnknownRulesError("table rule 'scoring' takes options only; the preset is the game's")
        return dict(value)
    elif name == "abortive_draws":
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise UnknownRulesError("table rule 'abortive_draws' must be a list of kinds")
        bad = [v for v in value if v not in ABORTIVE_KINDS]
        if bad:
            raise UnknownRulesError(
                f"unknown abortive draw {bad[0]!r}; known: {', '.join(ABORTIVE_KINDS)}")
        return tuple(value)
    return value


@lru_cache(maxsize=32)
def _preset_table(preset: str) -> tuple[tuple[str, object], ...]:
    path = PRESET_DIR / f"{preset}.toml"
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError as e:
        raise UnknownRulesError(f"preset file for {preset!r} is missing") from e
    except tomllib.TOMLDecodeError as e:
        raise UnknownRulesError(f"preset file {path.name} is not valid TOML: {e}") from e
    checked = {k: _check(k, v) for k, v in data.get("table", {}).items()}
    scoring = data.get("scoring", {})
    # han/fu entry must agree with the engine's limits, so read them from the engine's section;
    # a value the table does not know is the engine's business and leaves the table default
    for key in ("kiriage", "kazoe"):
        if key in scoring and key not in checked:
            try:
                checked[key] = _check(key, scoring[key])
            except UnknownRulesError:
                pass
    return tuple(checked.items())


def table_rules(preset: str, overrides: dict | None = None, *, stored: bool = False) -> TableRules:
    """The table rules of a preset with per-game ``overrides`` applied.

    ``preset`` is a riichi preset (``ema2016 wrc mleague tenhou mahjongsoul ryanzou``) or a
    family (``hongkong classical oldjapanese``). Raises ``UnknownRulesError`` naming an unknown
    preset or override, or a value of the wrong kind or out of range. ``stored``: the rules a game
    was stored with (or exported with) are not held to the ranges, which came later than some
    stored games: such a game still opens and plays on as it was made."""
    if not isinstance(preset, str) or preset not in RIICHI_PRESETS + OTHER_FAMILIES:
        known = ", ".join(RIICHI_PRESETS + OTHER_FAMILIES)
        raise UnknownRulesError(f"unknown rules preset {preset!r}; known: {known}")
    if overrides is not None and not isinstance(overrides, dict):
        raise UnknownRulesError("overrides must be an object of table rule names and values")
    if preset in OTHER_FAMILIES:
        values = dict(_FAMILY_DEFAULTS[preset])
    else:
        values = dict(_preset_table(preset))
        values["family"] = "riichi"
    values["preset"] = preset
    for key, value in (overrides or {}).items():
        if key in ("family", "preset"):
            raise UnknownRulesError(f"table rule {key!r} comes from the preset and cannot be overridden")
        values[key] = _check(key, value, ranges=not stored)
    if values.get("leftover_sticks") == "winner":
        values["leftover_sticks"] = "first_place"
    if values.get("scoring"):
        _check_scoring(preset, values, overrides or {})
    rules = TableRules(**values)
    if not stored:
        _check_amounts(rules)
    return rules


def _check_amounts(rules: TableRules) -> None:
    """What one field's range cannot say: the start depends on the family, the target on the start."""
    if rules.start_points == 0 and rules.family not in _TALLY_FAMILIES:
        raise UnknownRulesError(f"table rule 'start_points' must be from 1 to {MAX_POINTS:,} in {rules.family} "
                                "games (only Hong Kong and classical tallies start at 0), not 0")
    if rules.return_points < rules.start_points:
        # oka = 4 x (return - start) goes to first place; below the start it would be taken from it
        raise UnknownRulesError(f"table rule 'return_points' ({rules.return_points:,}) must not be below "
                                f"'start_points' ({rules.start_points:,}); a higher start needs both")


def _check_scoring(preset: str, values: dict, overrides: dict) -> None:
    """Let the family's engine read the scoring options now, so that a game never starts with
    house rules its hands cannot be scored under; carry riichi's limits over to han/fu entry."""
    from companion.errors import CompanionError
    from companion.rules import resolve_options

    scoring = values["scoring"]
    try:
        options = resolve_options({"preset": preset, **scoring})
    except CompanionError as e:
        raise UnknownRulesError(f"table rule 'scoring': {e}") from None
    if values.get("family") == "riichi":
        for key in ("kiriage", "kazoe"):
            if key in scoring and key not in overrides:
                values[key] = _check(key, getattr(options, key))
