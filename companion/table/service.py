"""What the web layer calls: create, read and change games, every change checked first.

``append_event`` folds the stored events with the new one before writing, so an event that
does not fit (unknown player, impossible han/fu, riichi below 1000 ...) raises ``TableError``
and nothing is stored. Retries with a known ``client_id`` return the state unchanged.
"""

from __future__ import annotations

from companion.errors import TableError
from companion.table.game import fold, preview, preview_detail
from companion.table.store import ConflictError, Store


def create_game(store: Store, preset: str, overrides: dict | None, players: list[str]) -> dict:
    """Check the rules and players, store the game, return its state (``id`` included)."""
    game = store.create_game(preset, overrides or {}, players)
    return fold(game, []).to_dict()


def game_state(store: Store, game_id: str) -> dict:
    """The state of a stored game (see ``GameState.to_dict``)."""
    game, events = store.load(game_id)
    return fold(game, events).to_dict()


def preview_event(store: Store, game_id: str, event: dict) -> dict:
    """Point changes by player that ``event`` would cause; raises like ``append_event`` would."""
    game, events = store.load(game_id)
    return preview(game, events, event)


def preview_event_detail(store: Store, game_id: str, event: dict) -> dict:
    """``preview_detail`` for a stored game: deltas, per-winner detail and the state after."""
    game, events = store.load(game_id)
    return preview_detail(game, events, event)


def append_event(store: Store, game_id: str, event: dict, client_id: str, expected_seq: int) -> dict:
    """Validate ``event`` against the game, store it, return the new state.

    The state carries ``"append": {"seq": n, "duplicate": bool}``. A repeated ``client_id``
    stores nothing and returns the current state with ``duplicate`` true. A stale
    ``expected_seq`` raises ``ConflictError``; an event that does not fit raises ``TableError``."""
    if not isinstance(event, dict):
        raise TableError("an event must be a JSON object with a type")
    game, events = store.load(game_id)
    for e in events:
        if e.get("client_id") == client_id:
            state = fold(game, events).to_dict()
            state["append"] = {"seq": e["seq"], "duplicate": True}
            return state
    current = len(events) + 1
    if expected_seq != current:
        raise ConflictError(f"the game has changed: the next event is number {current}, "
                            f"not {expected_seq!r}; reload and enter it again", current)
    body = {k: v for k, v in event.items() if k not in ("seq", "client_id")}
    state = fold(game, events + [{**body, "seq": current}])
    seq, duplicate = store.append(game_id, body, client_id, expected_seq, finished=state.finished)
    if duplicate or seq != current:  # another thread stored this client's event in between
        state = fold(*store.load(game_id))
    out = state.to_dict()
    out["append"] = {"seq": seq, "duplicate": duplicate}
    return out
