"""What names mean in one pack: the compile-time environment of the effect language.

Built once per compiled pack from its sections (params, dice, zones, fields, procedures);
the compiler resolves every name of every snippet against it before anything runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Env:
    params: dict[str, Any] = field(default_factory=dict)
    dice: set[str] = field(default_factory=set)
    zones: dict[str, bool] = field(default_factory=dict)  # name -> per player?
    player_fields: dict[str, str] = field(default_factory=dict)  # name -> type
    ent_fields: set[str] = field(default_factory=set)
    turn_vars: dict[str, str] = field(default_factory=dict)  # name -> type
    game_vars: dict[str, str] = field(default_factory=dict)
    cards: set[str] = field(default_factory=set)  # card and piece-kind ids
    effect_procs: dict[str, list[str]] = field(default_factory=dict)
    flow_procs: dict[str, list[str]] = field(default_factory=dict)
    pure_procs: set[str] = field(default_factory=set)  # effect procs usable in conditions
    consts: dict[str, tuple[Any, str]] = field(default_factory=dict)  # name -> (value, type)
    words: dict[str, Any] = field(default_factory=dict)  # builtin name -> the pack's own fn(S, ...)
    # typed names (engine.dsl.names): name kind -> the names it may be ('card' is `cards`);
    # procedure -> {parameter: name kind}; entity field -> the one type its values have
    names: dict[str, set[str]] = field(default_factory=dict)
    proc_kinds: dict[str, dict[str, str]] = field(default_factory=dict)
    ent_types: dict[str, str] = field(default_factory=dict)
    # what the pack's snippets read, for `horde validate`'s warnings (engine.pack.lint)
    params_read: set[str] = field(default_factory=set)
    param_spans: dict[str, Any] = field(default_factory=dict)  # where each is declared
    zones_read: set[str] = field(default_factory=set)
    # the pack's `emit(...)` calls: (event name, or None when worked out in play; Span; fields)
    emits: list[tuple[str | None, Any, tuple[str, ...]]] = field(default_factory=list)
    # every snippet compiled, (tree, locate: its positions -> the pack's Span), for the
    # analyses of `horde validate` (engine.pack.valuefacts)
    snippets: list[tuple[Any, Any]] = field(default_factory=list)
    # ('turn' or 'game', name) read by text compiled later (a view, a metric), and where
    # each turn and game variable is declared (engine.pack.timefacts)
    vars_read: set[tuple[str, str]] = field(default_factory=set)
    var_spans: dict[tuple[str, str], Any] = field(default_factory=dict)


def type_of_value(v: Any) -> str:
    """The language type of a literal init value."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, str):
        return "str"
    if isinstance(v, list):
        return "list"
    return "any"
