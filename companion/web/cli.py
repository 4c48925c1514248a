"""``companion serve``: the tablet page and the JSON API on waitress."""

from __future__ import annotations

import argparse
import importlib
import os
import socket
import sqlite3
import sys
import threading

DEFAULT_PORT = 8000


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the tablet scoreboard and the JSON API",
        description="Serve the tablet page and the JSON API with waitress. Open the printed address on the tablet.",
    )
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: all, so tablets reach it)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument(
        "--instance",
        metavar="DIR",
        default="instance",
        help="folder for the SQLite database and saved corrections (default ./instance, created if missing)",
    )
    parser.add_argument("--threads", type=int, default=4, help="waitress worker threads (default 4)")
    parser.set_defaults(func=serve)


def lan_address() -> str | None:
    """This machine's LAN address, found without sending a packet.

    Connecting a UDP socket only asks the kernel which interface would route there; no datagram leaves.
    The hostname lookup is the fallback for machines without a route to a private network."""
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                address = sock.getsockname()[0]
        except OSError:
            continue
        if address and not address.startswith(("127.", "0.")):
            return address
    try:
        address = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return None if address.startswith(("127.", "0.")) else address


def urls(host: str, port: int) -> list[str]:
    """The addresses to open in a browser for a server listening on ``host``."""
    if host in ("0.0.0.0", "", "::"):
        found = ["127.0.0.1"]
        lan = lan_address()
        if lan:
            found.append(lan)
    else:
        found = [host]
    return [f"http://{f'[{h}]' if ':' in h else h}:{port}/" for h in found]


def warm_up() -> None:
    """The recogniser's models loaded while the server starts (companion.vision.warm_up), so that the first photo
    read at the table does not wait for them. Where they cannot be loaded the server still keeps the table: one line
    says why, and a photo sent says it again (model_missing)."""
    try:
        importlib.import_module("companion.vision").warm_up()
    except Exception as exc:  # the reason, whatever it is, belongs on the console, not in a traceback
        print(f"note: the recognition models were not loaded ahead of the first photo: {exc}", file=sys.stderr)


def kept_for_finetune(corrections: str, photos: str) -> str:
    """What the page has kept for ``companion train --finetune`` (the tiles corrected, as labelled crops in
    ``corrections``, and the photos checked, with their labels, in ``photos``) and the command that adapts the
    recogniser to them; "" where nothing is kept. A club's corrections teach the nets its set, its flowers first
    (models/TRAINING-LOG.md, "A club's flowers by fine-tuning"), but only once someone runs that command."""
    from companion.kept import finetune_command, kept_counts

    kept, _ = kept_counts(corrections, photos)
    command = finetune_command(corrections, photos, kept)
    if command is None:
        return ""
    first = kept["first_read"]
    read = (f" (read first: {first['right'] / first['tiles']:.1%} of their tiles right, {first['whole']} of "
            f"{first['photos']} whole)" if first["tiles"] else "")
    return (f"kept for adapting the recogniser to this club's tiles: {kept['corrections']} corrected tile(s), "
            f"{kept['photos']} checked photo(s){read}; with the train extra: {command}")


def serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        print(f"error: --port must be between 1 and 65535, not {args.port}", file=sys.stderr)
        return 2
    import waitress

    from companion.web import create_app

    instance = os.path.abspath(args.instance)
    try:
        app = create_app({"INSTANCE_PATH": instance})
        from companion.table.store import Store

        Store(app.config["DATABASE"])  # create the file and schema now, so a bad folder fails here
    except (OSError, sqlite3.Error) as exc:
        print(f"error: cannot use instance folder {instance}: {exc}", file=sys.stderr)
        return 2
    print(f"Mahjong Companion - data in {app.config['DATABASE']}")
    for url in urls(args.host, args.port):
        print(f"  open on the tablet: {url}")
    if kept := kept_for_finetune(app.config["CORRECTIONS_DIR"], app.config["PHOTOS_DIR"]):
        print(f"  {kept}")
    sys.stdout.flush()
    threading.Thread(target=warm_up, name="companion-warm-up", daemon=True).start()
    try:
        waitress.serve(app, host=args.host, port=args.port, threads=max(1, args.threads), ident="companion")
    except OSError as exc:
        print(f"error: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0
