"""The builder's checks of names: what each kind of name may be (typed card, kind, tag, icon
and action names for the compiler), and that every trigger hooks an event something emits
and reads only fields that event has. Split from build.py, whose Builder mixes them in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.dsl import ast, names
from engine.dsl.builtins import BUILTINS
from engine.dsl.env import Env, type_of_value
from engine.dsl.parser import parse_expr, parse_program
from engine.dsl.values import Face
from engine.errors import DSLSyntaxError, Problem, Span, did_you_mean, locator
from engine.pack import events


class NameChecks:
    """Methods of `engine.pack.build.Builder` (its `env`, `raw` and `fail`)."""

    env: Env
    raw: dict
    problems: list[Problem]

    if TYPE_CHECKING:  # the Builder's own
        def node(self, *path): ...
        def fail(self, msg: str, *path, hint: str | None = None, span: Span | None = None) -> None: ...

    def typed_names(self, dice: dict, cards: dict, kinds: dict, procs: dict) -> None:
        """What the names of each kind may be (engine.dsl.names), the one type of each field
        of cards and kinds (when their values agree), and the kinds of the procedures'
        parameters, for the compiler's checks of literal names and field writes."""
        env = self.env
        env.names["tag"] = {t for c in [*cards.values(), *kinds.values()] for t in c.tags}
        env.names["icon"] = {i for faces in dice.values() for f in faces if isinstance(f, Face)
                             for i in f.icons}
        env.names["action"] = {a["id"] for a in self.raw.get("actions") or [] if isinstance(a, dict)} | {"pass"}
        seen: dict[str, set[str]] = {}
        for c in [*cards.values(), *kinds.values()]:
            for name, v in c.fields.items():
                seen.setdefault(name, set()).add(type_of_value(v))
        env.ent_types = {n: ts.pop() for n, ts in seen.items() if len(ts) == 1 and "any" not in ts}
        trees = {}
        for name, spec in procs.items():
            if name in env.flow_procs:
                continue
            src = spec.get("value", spec.get("do"))
            try:
                tree = parse_expr(src) if "value" in spec else parse_program(src)
            except (DSLSyntaxError, TypeError, AttributeError):  # said when it is compiled
                continue
            trees[name] = (list(spec.get("params", [])), tree)
        env.proc_kinds = names.param_kinds(trees, BUILTINS)

    def check_shadowing(self, procs: dict) -> None:
        """A procedure named like a builtin would answer every call of that builtin, the
        base pack's own included (a house rule's `count` replaces the engine's for every
        rule); a procedure parameter so named hides the builtin inside it."""
        section = self.node("procedures")
        for name, spec in procs.items():
            if name in BUILTINS:
                self.fail(f"procedure '{name}' has the name of a builtin: it would replace "
                          f"{name}() for every rule of the pack", span=section.key_span(name),
                          hint=f"give it a name of its own (e.g. my_{name})")
            params = spec.get("params") if isinstance(spec, dict) else None
            for k, p in enumerate(params if isinstance(params, list) else []):
                if isinstance(p, str) and p in BUILTINS:
                    self.fail(f"procedure '{name}': parameter '{p}' has the name of a builtin",
                              "procedures", name, "params", k,
                              hint=f"give it a name of its own (e.g. {p}_)")

    def check_triggers(self, nodes, extensions: dict) -> None:
        """A trigger on an event that nothing announces would never run: an error, unless
        the pack emits an event whose name it works out in play (`emit(x)`)."""
        if events.dynamic_emit(self.env) is not None:
            return
        known = events.emitters_of(nodes, self.env, extensions, self.raw.get("turn_names") or {})
        for k, t in enumerate(self.raw.get("triggers") or []):
            on = t.get("on")
            if isinstance(on, str) and on not in known:
                self.fail(f"trigger on '{on}': no event of that name is emitted", "triggers", k, "on",
                          hint=did_you_mean(on, known) or "the engine announces "
                          f"{', '.join(n for n in events.ENGINE_EVENTS)} (docs/events.md); "
                          "a pack announces its own with emit('name')")
            elif isinstance(on, str):
                self.check_event_fields(k, t, on, {f for src in known[on] for f in src.fields})

    def check_event_fields(self, k: int, trigger: dict, on: str, fields: set[str]) -> None:
        """`event.x` in a trigger reads a field its event has, wherever it is emitted."""
        for key in ("if", "do"):
            text = trigger.get(key)
            if not isinstance(text, str):
                continue
            try:
                tree = parse_expr(text) if key == "if" else parse_program(text)
            except DSLSyntaxError:
                continue  # said where it is compiled
            locate = locator(self.node("triggers", k, key))
            for node, _ in ast.walk(tree):
                if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) and \
                        node.obj.id == "event" and node.name not in fields:
                    self.problems.append(Problem(
                        f"event '{on}' has no field '{node.name}'", locate(node.pos),
                        did_you_mean(node.name, fields) or f"its fields: {', '.join(sorted(fields)) or 'none'}"))

    # ---------- sections ----------
