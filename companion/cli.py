"""The ``companion`` command: each area adds its own subcommands."""

from __future__ import annotations

import argparse
import importlib
import sys

# modules that provide register(subparsers); a module that is missing is skipped so that
# one unfinished area never breaks the others' commands
_AREAS = ("companion.score_cli", "companion.vision.cli", "companion.web.cli")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Mahjong Companion")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _AREAS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
