"""The events of a pack: which the engine announces for every pack, which the pack does.

A trigger (`on: EVENT`) runs when its event is announced. Some events the engine announces
for every pack (a turn starting and ending, the flow reaching an ask or a window, a round
ending): they let a house rule hook a moment of the game without copying the flow. The
others a pack announces itself, with `emit('name', field=...)` in its snippets or a
board's `enter_event`. `emitters(game)` says, for a built game, every event it can
announce, where, and with what fields: what the load-time check of triggers, `horde doc`
and the docs (docs/events.md) all read, so they cannot disagree.

Announcing an event nobody listens to costs nothing: the engine only announces a
lifecycle event when a trigger is on it (the flow's code is generated with the
announcement only then), so games of a pack without such triggers play as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import Span

POINT_PREFIX = "point:"


@dataclass(frozen=True)
class EngineEvent:
    fields: tuple[str, ...]  # what `event.<field>` a trigger on it may read
    text: str  # one line, for the docs and `horde doc`


# The lifecycle events. `point:<name>` stands for one event per ask or window of the flow.
ENGINE_EVENTS: dict[str, EngineEvent] = {
    "turn_start": EngineEvent(("player",), "a player's turn starts, before the first step of its flow"),
    "turn_end": EngineEvent(("player",), "a player's turn is over: its flow is done or it called "
                                         "end_turn() (not announced when the turn ended the game)"),
    "round_end": EngineEvent(("round",), "the last turn of a round is over (`round` counts from "
                                         "1): only in a pack whose turn_names say how many turns "
                                         "make a round (`turn_names: {rounds: ...}`)"),
    POINT_PREFIX + "<name>": EngineEvent(("point", "player"),
                                         "the flow reaches the ask or window <name>, before anyone "
                                         "is asked (`player`: whose turn it is)"),
}

# the turn_names word that says how many turns a round is
ROUNDS = "rounds"


def point_event(point: str) -> str:
    """The event announced when the flow reaches ask or window `point`."""
    return POINT_PREFIX + point


@dataclass(frozen=True)
class Source:
    """Where an event is announced: by the engine (`span` None) or at a place in the pack."""

    span: Span | None
    fields: tuple[str, ...]

    def __str__(self) -> str:
        return str(self.span) if self.span is not None else "engine"


def emitters(game) -> dict[str, list[Source]]:
    """Every event `game` may announce -> where each announcement is and its fields: the
    engine's lifecycle events (one `point:<name>` per ask and window of its flow, and
    `round_end` only where the pack has rounds), the pack's `emit('name', ...)` calls with
    a literal name and its board's `enter_event`."""
    return emitters_of(game.nodes, game.env, game.extensions, game.turn_names)


def emitters_of(nodes, env, extensions: dict, turn_names) -> dict[str, list[Source]]:
    """`emitters` of the parts of a game, for the builder that is making one."""
    out: dict[str, list[Source]] = {}
    for name, ev in ENGINE_EVENTS.items():
        if name.startswith(POINT_PREFIX) or name == "round_end" and ROUNDS not in turn_names:
            continue
        out[name] = [Source(None, ev.fields)]
    fields = ENGINE_EVENTS[POINT_PREFIX + "<name>"].fields
    for node in nodes:
        if node.point is not None:
            out.setdefault(point_event(node.point), []).append(Source(node.span, fields))
    for name, span, names in env.emits:
        if name is not None:
            out.setdefault(name, []).append(Source(span, names))
    for ext in extensions.values():
        for name, (span, names) in ext.events().items():
            out.setdefault(name, []).append(Source(span, names))
    return out


def dynamic_emit(env) -> Span | None:
    """Where the pack (its compile-time `env`) first emits an event whose name is worked
    out as it plays (`emit(x)`), or None: then no event can be said to be emitted nowhere."""
    for name, span, _ in env.emits:
        if name is None:
            return span
    return None
