"""A family's house rules as one frozen dataclass, read from a request's ``rules`` value.

``rules`` is the family's preset name, or ``{"preset": name, <option>: value, ...}``.
An option the dataclass does not have is refused with its name (UnknownRulesError);
a value of the wrong kind is refused by the dataclass itself, whose
``__post_init__`` uses the ``require_*`` checks below so that every family words
the same mistake the same way.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo:
...     cap: int = 8
...     def __post_init__(self) -> None:
...         require_choice("cap", self.cap, (8, 10, 13))
>>> options_from_rules({"preset": "demo", "cap": 10}, Demo, preset="demo", family="demo").cap
10
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import MISSING, fields, is_dataclass
from typing import TypeVar

from companion.errors import InvalidRequestError, UnknownRulesError

OptionsT = TypeVar("OptionsT")


def option_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def options_from_rules(rules: object, cls: type[OptionsT], *, preset: str, family: str) -> OptionsT:
    """``cls`` built from ``rules``: the preset name (or None) gives the defaults.

    ``family`` names the rules in messages ("Hong Kong", "classical", ...)."""
    assert is_dataclass(cls)
    if rules is None or rules == preset:
        return cls()
    if isinstance(rules, str):
        raise UnknownRulesError(f"the {family} rules score the preset {preset!r}, not {rules!r}")
    if not isinstance(rules, dict):
        raise InvalidRequestError(f'"rules" must be {preset!r} or an object {{"preset": {preset!r}, <option>: ...}}, '
                                  f"got {rules!r}")
    named = rules.get("preset", preset)
    if named != preset:
        raise UnknownRulesError(f"the {family} rules score the preset {preset!r}, not {named!r}")
    known = option_names(cls)
    given = {k: v for k, v in rules.items() if k != "preset"}
    unknown = sorted(k for k in given if k not in known)
    if unknown:
        raise UnknownRulesError(
            f"unknown {family} rule option(s): {', '.join(unknown)}; known: {', '.join(known)}"
        )
    return cls(**given)


def require_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidRequestError(f"rules option {name} must be true or false, got {value!r}")


def require_whole(name: str, value: object, low: int = 0, high: int | None = None, high_name: str = "") -> None:
    """A whole number in ``low..high`` (JSON true/false are not numbers here); ``high_name`` says what
    the upper bound is when it comes from another option."""
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= low and (high is None or value <= high)
    if not ok:
        top = f"{high_name} ({high})" if high_name else f"{high}"
        bound = f">= {low}" if high is None else f"from {low} to {top}"
        raise InvalidRequestError(f"rules option {name} must be a whole number {bound}, got {value!r}")


def require_positive(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise InvalidRequestError(f"rules option {name} must be a positive number, got {value!r}")


def require_choice(name: str, value: object, choices: Iterable[object], wording: str | None = None) -> None:
    """``value`` one of ``choices``; ``wording`` replaces the generated list of choices in the message."""
    choices = tuple(choices)
    # True == 1 in Python; a JSON true is never a numeric choice
    if isinstance(value, bool) and not any(isinstance(c, bool) for c in choices) or value not in choices:
        listed = wording or ", ".join("null" if c is None else str(c) for c in choices)
        raise InvalidRequestError(f"rules option {name} must be {'' if wording else 'one of '}{listed}, got {value!r}")


def require_types_of_defaults(options: object, choices: dict[str, tuple] | None = None) -> None:
    """Each field of the same kind as its default (bool, whole number >= 0, text), and in ``choices``.

    For option classes whose fields are plain switches, counts and names."""
    for f in fields(options):  # type: ignore[arg-type]
        value = getattr(options, f.name)
        expected = type(f.default)
        if f.default is MISSING:
            continue
        if expected is bool:
            require_bool(f.name, value)
        elif expected is int:
            require_whole(f.name, value)
        elif not isinstance(value, expected):
            raise InvalidRequestError(f"rules option {f.name} must be a {expected.__name__}, got {value!r}")
        if choices and f.name in choices:
            require_choice(f.name, value, choices[f.name])
