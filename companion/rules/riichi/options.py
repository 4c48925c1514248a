"""Riichi rule options: one frozen object, presets as TOML data, overrides from a request.

A preset is the ``[scoring]`` table of ``presets/<name>.toml`` merged over the
defaults below; a request may override single options::

    {"preset": "tenhou", "kiriage": true, "red_fives": 0}

>>> resolve_rules({"preset": "tenhou", "kiriage": True}).kiriage
True
>>> resolve_rules("ema2016").kazoe
'sanbaiman'
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from companion.errors import InvalidRequestError, UnknownRulesError

PRESETS: tuple[str, ...] = ("ema2016", "wrc", "mleague", "tenhou", "mahjongsoul", "ryanzou")
DEFAULT_PRESET = "ema2016"
PRESET_DIR = Path(__file__).with_name("presets")

# The yakuman that a rule set may score twice; ``True`` in an override means this usual list.
DOUBLE_YAKUMAN_USUAL: tuple[str, ...] = ("kokushi_13", "suuankou_tanki", "junsei_chuuren", "daisuushii")
DOUBLE_YAKUMAN_CHOICES: tuple[str, ...] = DOUBLE_YAKUMAN_USUAL + ("suukan_kaihou", "daichiishin")

KAZOE_CHOICES = ("yakuman", "sanbaiman", "none")
RENHOU_CHOICES = ("yakuman", "mangan", "5han", "none")


@dataclass(frozen=True)
class RiichiOptions:
    """Everything in which riichi rule sets differ when a hand is scored.

    Defaults are common modern Japanese practice; presets change what differs."""

    preset: str = "custom"
    """Name of the preset these options came from (for the result's ``rules`` key)."""

    open_tanyao: bool = True
    """Kuitan: all simples also counts for an open hand."""

    red_fives: int = 0
    """How many red fives the set has: 0 (none), 3 (one per suit) or 4 (one 5m, two 5p, one 5s).
    1 and 2 allow at most one per suit. In an override ``true`` means 3 and ``false`` 0.
    Each red five is one han of dora; a request with more red fives than this is rejected."""

    double_yakuman: tuple[str, ...] = ()
    """Yakuman ids that count twice: any of ``kokushi_13 suuankou_tanki junsei_chuuren daisuushii
    suukan_kaihou daichiishin``. In an override ``true`` means the usual four, ``false`` none."""

    kazoe: str = "yakuman"
    """What 13 or more han of ordinary yaku and dora reach: ``yakuman`` (kazoe yakuman),
    ``sanbaiman`` (the table ends at sanbaiman) or ``none`` (same value as ``sanbaiman``)."""

    kiriage: bool = False
    """Kiriage mangan: 4 han 30 fu and 3 han 60 fu (1920 base) are rounded up to mangan."""

    double_wind_pair_fu: int = 4
    """Fu for a pair of the wind that is both seat and round wind: 4 (2 + 2) or 2."""

    renhou: str = "none"
    """Blessing of man (ron before the winner's first draw): ``yakuman``; ``mangan`` (worth a mangan,
    not combined with other yaku or dora; the hand scores whichever is higher); ``5han`` (a 5-han yaku
    that adds to the others and to dora); ``none`` (not a yaku)."""

    yakuman_stacking: bool = True
    """Different yakuman in one hand add up (daisangen + tsuuiisou = 2x). Off: the hand scores its
    single highest yakuman (a double yakuman from ``double_yakuman`` still counts twice)."""

    ippatsu: bool = True
    """Ippatsu is a yaku (win within one go-around after riichi)."""

    ura_dora: bool = True
    """Ura dora are counted for a riichi hand."""

    kan_dora: bool = True
    """Kans reveal further dora indicators; off: at most one dora (and one ura) indicator."""

    honba_value: int = 300
    """Points per honba counter: the discarder pays it all on ron, a third each on tsumo."""

    daichiishin: bool = False
    """Local yakuman "big seven stars": seven different honour pairs. Replaces tsuuiisou for that shape."""

    double_riichi_last_tile_yakuman: bool = False
    """Local yakuman "ishino uenimo sannen": double riichi won on the last tile (haitei or houtei)."""

    pinzu_bonus_yaku: bool = False
    """Ryanzou local yaku, one extra han each: rinshan on 5p, haitei on 1p, houtei on 9p, chankan on 2s."""

    ryuuiisou_needs_hatsu: bool = False
    """All green only with the green dragon in the hand."""

    tenhou_free_win_tile: bool = False
    """With tenhou any of the 14 tiles may be taken as the winning tile (the best reading counts),
    e.g. suuankou tanki or a 9-sided nine gates with tenhou."""

    known_double_yakuman: tuple[str, ...] = field(default=DOUBLE_YAKUMAN_CHOICES, repr=False)
    """Not an option: the ids that ``double_yakuman`` may name."""


_OPTION_FIELDS = {f.name: f for f in dataclasses.fields(RiichiOptions)
                  if f.name not in ("preset", "known_double_yakuman")}
OPTION_NAMES: tuple[str, ...] = tuple(_OPTION_FIELDS)


def _coerce(name: str, value: object, where: str) -> object:
    """Check one option's value and bring it to the dataclass's type."""
    default = _OPTION_FIELDS[name].default

    def bad(expected: str) -> InvalidRequestError:
        return InvalidRequestError(f"{where}: option {name!r} must be {expected}, got {value!r}")

    if name == "red_fives":
        if isinstance(value, bool):
            return 3 if value else 0
        if isinstance(value, int) and 0 <= value <= 4:
            return value
        raise bad("a count 0-4 or true/false")
    if name == "double_yakuman":
        if isinstance(value, bool):
            return DOUBLE_YAKUMAN_USUAL if value else ()
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            unknown = [v for v in value if v not in DOUBLE_YAKUMAN_CHOICES]
            if unknown:
                raise UnknownRulesError(
                    f"{where}: unknown double yakuman {', '.join(map(repr, unknown))}; "
                    f"known: {', '.join(DOUBLE_YAKUMAN_CHOICES)}")
            return tuple(dict.fromkeys(value))
        raise bad("true/false or a list of yakuman ids")
    if name == "kazoe":
        if value not in KAZOE_CHOICES:
            raise bad("one of " + "|".join(KAZOE_CHOICES))
        return value
    if name == "renhou":
        if value not in RENHOU_CHOICES:
            raise bad("one of " + "|".join(RENHOU_CHOICES))
        return value
    if name == "double_wind_pair_fu":
        if isinstance(value, bool) or value not in (2, 4):
            raise bad("2 or 4")
        return value
    if name == "honba_value":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value % 3:
            raise bad("a non-negative multiple of 3")
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    raise AssertionError(f"option {name} has no coercion")  # pragma: no cover - table and code out of step


def _apply(base: RiichiOptions, values: dict, where: str) -> RiichiOptions:
    unknown = [k for k in values if k not in _OPTION_FIELDS]
    if unknown:
        raise UnknownRulesError(
            f"{where}: unknown rule option{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
            f"known: {', '.join(OPTION_NAMES)}")
    changes: dict[str, Any] = {k: _coerce(k, v, where) for k, v in values.items()}  # each checked by _coerce
    return dataclasses.replace(base, **changes)


@cache
def load_preset(name: str) -> RiichiOptions:
    """The options of one preset (its TOML ``[scoring]`` table over the defaults)."""
    if name not in PRESETS:
        raise UnknownRulesError(f"unknown riichi preset {name!r}; known: {', '.join(PRESETS)}")
    path = PRESET_DIR / f"{name}.toml"
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    scoring = data.get("scoring", {})
    return _apply(RiichiOptions(preset=name), scoring, f"preset {name} ({path.name})")


def resolve_rules(rules: object) -> RiichiOptions:
    """Options for a request's ``rules`` value: a preset name or ``{"preset": name, option: value}``."""
    if rules is None:
        return load_preset(DEFAULT_PRESET)
    if isinstance(rules, str):
        return load_preset(rules)
    if isinstance(rules, dict):
        # the same rules arrive with every hand of a session: look them up by their values, then
        # check the names and the value types (1 == True, but only true is a valid switch)
        values = tuple(rules.values())
        try:
            hit = _RESOLVED.get(values)
        except TypeError:  # a list value (double_yakuman): not memoised
            return _resolve_dict(rules)
        if hit is not None and hit[0] == tuple(rules) and hit[1] == tuple(map(type, values)):
            return hit[2]
        options = _resolve_dict(rules)
        if len(_RESOLVED) > 256:
            _RESOLVED.clear()
        _RESOLVED[values] = (tuple(rules), tuple(map(type, values)), options)
        return options
    raise InvalidRequestError('"rules" must be a preset name or an object with "preset" and options')


_RESOLVED: dict[tuple, tuple[tuple, tuple, RiichiOptions]] = {}


def _resolve_dict(rules: dict) -> RiichiOptions:
    """Options for a ``{"preset": name, option: value}`` override (memoised per preset and overrides)."""
    name = rules.get("preset", DEFAULT_PRESET)
    if not isinstance(name, str):
        raise InvalidRequestError("rules.preset must be a preset name")
    try:
        # the value types are part of the key: 1 == True, but only true is a valid switch
        return _with_overrides(name, tuple(rules.items()), tuple(map(type, rules.values())))
    except TypeError:  # a list value (double_yakuman): make it hashable, or let the slow path name it
        pass
    try:
        return _with_overrides(name, tuple((k, tuple(v) if isinstance(v, list) else v)
                                           for k, v in rules.items()), tuple(map(type, rules.values())))
    except TypeError:
        return _apply(load_preset(name), {k: v for k, v in rules.items() if k != "preset"}, "rules")


@lru_cache(maxsize=256)
def _with_overrides(name: str, items: tuple, types: tuple) -> RiichiOptions:
    base = load_preset(name)
    overrides = {k: list(v) if isinstance(v, tuple) else v for k, v in items if k != "preset"}
    if not overrides:
        return base
    return _apply(base, overrides, "rules")


def red_limits(options: RiichiOptions) -> tuple[int, int, int]:
    """Most red fives allowed per suit (m, p, s)."""
    if options.red_fives == 0:
        return (0, 0, 0)
    if options.red_fives == 4:
        return (1, 2, 1)
    return (1, 1, 1)


def describe(options: RiichiOptions) -> dict:
    """The options as plain JSON values (for documentation and results)."""
    out = {}
    for name in OPTION_NAMES:
        value = getattr(options, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out
