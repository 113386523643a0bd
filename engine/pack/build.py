"""Compile a loaded, schema-valid pack tree into a `Game`: the semantic checks.

Every name is resolved and every snippet compiled here, once. Problems are collected, not
raised one by one, and each points into the YAML file it came from: a snippet's own
line/column is shifted onto the line/column of the string in the file.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine import extensions as ext_mod
from engine.dsl import ast
from engine.dsl.compiler import Compiled, compile_snippet
from engine.dsl.env import Env, type_of_value
from engine.dsl.parser import parse_expr, parse_program
from engine.errors import DSLSyntaxError, PackError, Problem, Span, did_you_mean, locator
from engine.flow.nodes import ActionDef, EndDef, PolicyDef, PolicyRule, TriggerDef
from engine.game import Game
from engine.model import CardDef, FieldDef, Invariant, ZoneDef, pack_hash
from engine.pack.dicefaces import build_dice
from engine.pack.flowbuild import FlowBuilder
from engine.pack.namecheck import NameChecks
from engine.pack.yamlspan import plain

DEFAULT_LIMITS = {"turns": 5000, "steps": 20_000_000, "effect_steps": 200_000, "depth": 40}
# Copies of cards made at setup, a per-player zone's for every seat: the schema bounds one
# card's count (1,000), this their sum. The bundled packs make at most 50; ten thousand
# entities still set up in a blink, where a count of 10**9 took gigabytes.
MAX_CARDS = 10_000
# What `--set` accepts as a whole number: ASCII digits only (int() also reads '৪' as 4).
_WHOLE = re.compile(r"[-+]?[0-9]+")


def _conjuncts(tree) -> list:
    if isinstance(tree, ast.BinOp) and tree.op == "and":
        return _conjuncts(tree.left) + _conjuncts(tree.right)
    return [tree]


def _conjoin(parts: list):
    out = parts[0]
    for p in parts[1:]:
        out = ast.BinOp(out.pos, "and", out, p)
    return out


def _names(tree) -> set[str]:
    """Every bare name used in an expression tree."""
    return {node.id for node, _ in ast.walk(tree) if isinstance(node, ast.Name)}


class Builder(NameChecks):
    def __init__(self, tree, *, params: dict | None = None, mode: str | None = None,
                 files: list[str] | None = None, house: list[str] | None = None,
                 sources=None):
        self.tree = tree
        self.raw: dict = plain(tree)
        self.overrides = dict(params or {})
        self.mode = mode
        self.files = files or []
        self.house = house or []
        self.sources = sources
        self.problems: list[Problem] = []
        self.env = Env()

    # ---------- helpers ----------
    def node(self, *path):
        n = self.tree
        for key in path:
            v = n.value
            if isinstance(v, dict) and key in v:
                n = v[key]
            elif isinstance(v, list) and isinstance(key, int) and 0 <= key < len(v):
                n = v[key]
            else:
                break
        return n

    def fail(self, msg: str, *path, hint: str | None = None, span: Span | None = None) -> None:
        self.problems.append(Problem(msg, span or getattr(self.node(*path), "span", None), hint))

    def compile_split(self, path: tuple, scope: dict[str, str], params: set[str]):
        """Compile a condition as (guard, rest): the `and`-conjuncts that mention none of
        `params`, and the others. Legal-action enumeration checks the guard once before
        enumerating parameter values, so an action nobody can take costs one check."""
        n = self.node(*path)
        if not params or not isinstance(n.value, str):
            return None, self.compile(path, expr=True, scope=scope)
        try:
            tree = parse_expr(n.value)
        except DSLSyntaxError:
            return None, self.compile(path, expr=True, scope=scope)
        parts = _conjuncts(tree)
        guard = [p for p in parts if not (_names(p) & params)]
        rest = [p for p in parts if _names(p) & params]
        if not guard:
            return None, self.compile(path, expr=True, scope=scope)
        locate = locator(n)
        out: list[Compiled | None] = []
        for group in (guard, rest):
            if not group:
                out.append(None)
                continue
            c, probs = compile_snippet(_conjoin(group), self.env, scope, expr=True, pure=True,
                                       label=".".join(map(str, path)))
            for p in probs:
                self.problems.append(Problem(p.message, locate(p.pos), p.hint))
            if c is not None:
                c.locate = locate
            out.append(c)
        return out[0], out[1]

    def compile(self, path: tuple, *, expr: bool, scope: dict[str, str] | None = None,
                pure: bool | None = None, text: Any = None) -> Compiled | None:
        """Compile the snippet at `path` (a string in the tree)."""
        n = self.node(*path)
        src = text if text is not None else n.value
        if isinstance(src, bool) or isinstance(src, int) or src is None:
            src = json.dumps(src) if not isinstance(src, bool) else ("true" if src else "false")
            if src == "null":
                src = "none"
        if not isinstance(src, str):
            self.fail("expected effect-language text here", *path)
            return None
        locate = locator(n)
        try:
            tree = parse_expr(src) if expr else parse_program(src)
        except DSLSyntaxError as exc:
            self.problems.append(Problem(exc.problem.message, locate(getattr(exc, "pos", None)),
                                         exc.problem.hint))
            return None
        label = ".".join(str(p) for p in path)
        c, probs = compile_snippet(tree, self.env, scope or {}, expr=expr,
                                   pure=expr if pure is None else pure, label=label)
        for p in probs:
            self.problems.append(Problem(p.message, locate(p.pos), p.hint))
        if c is not None:
            c.locate = locate
            self.env.snippets.append((tree, locate))
            for event, fields, pos in c.emits:
                self.env.emits.append((event, locate(pos), fields))
        return c

    def whole(self, path: tuple, value: Any, default: int | None, most: int) -> int | None:
        """A count of the pack (a card's copies, a zone's capacity) written as a number or
        as an expression of params (`count: params.flares`), worked out once, at load."""
        if value is None or (isinstance(value, int) and not isinstance(value, bool)):
            return default if value is None else value
        c = self.compile(path, expr=True)
        try:
            got = c.fn(None, {}) if c is not None else None
        except Exception:  # it reads the game's state, which does not exist yet
            got = None
        if isinstance(got, int) and not isinstance(got, bool) and 0 <= got <= most:
            return got
        if c is not None:
            self.fail(f"expected a whole number 0..{most}, or an expression of params that "
                      f"gives one (got {got!r})", *path)
        return default

    def build_params(self) -> dict:
        out: dict = {}
        for name, spec in (self.raw.get("params") or {}).items():
            out[name] = spec["default"] if isinstance(spec, dict) else spec
            self.env.param_spans[name] = self.node("params", name).span
        for name, value in self.overrides.items():
            if name not in out:
                self.fail(f"unknown param '{name}'", "params",
                          hint=did_you_mean(name, out) or f"params: {', '.join(out) or 'none'}")
                continue
            out[name] = self.coerce_param(name, out[name], value)
        for name, spec in (self.raw.get("params") or {}).items():
            if isinstance(spec, dict):
                self.check_param_bounds(name, spec, out[name])
        return out

    def check_param_bounds(self, name: str, spec: dict, v) -> None:
        def whole(x) -> bool:
            return isinstance(x, int) and not isinstance(x, bool)

        lo, hi = spec.get("min"), spec.get("max")
        for key, bound in (("min", lo), ("max", hi)):
            if bound is not None and not whole(bound):
                self.fail(f"param '{name}': {key} must be a whole number, got {bound!r}",
                          "params", name, key)
        if whole(v) and (whole(lo) and v < lo or whole(hi) and v > hi):
            self.fail(f"param '{name}' = {v} is outside {lo}..{hi}", "params", name)
        if "choices" in spec and v not in spec["choices"]:
            self.fail(f"param '{name}' = {v!r} is not one of {spec['choices']}", "params", name)

    def coerce_param(self, name: str, default, value):
        if not isinstance(value, str) or isinstance(default, str):
            if isinstance(default, bool) != isinstance(value, bool):
                self.fail(f"param '{name}' must be {type(default).__name__}, got {value!r}", "params", name)
            return value
        if isinstance(default, bool):
            if value.lower() in ("true", "false"):
                return value.lower() == "true"
            self.fail(f"param '{name}' must be true or false, got {value!r}", "params", name)
            return default
        if isinstance(default, int):
            try:
                if _WHOLE.fullmatch(value.strip()):
                    return int(value)
            except ValueError:  # longer than Python converts (int_max_str_digits)
                pass
            self.fail(f"param '{name}' must be an integer (digits 0-9), got {value!r}",
                      "params", name)
            return default
        return value

    def build_dice(self) -> dict[str, list]:
        return build_dice(self)

    def build_zones(self) -> dict[str, ZoneDef]:
        zones = {}
        for name, spec in (self.raw.get("zones") or {}).items():
            spec = spec or {}
            capacity = self.whole(("zones", name, "capacity"), spec.get("capacity"), None, MAX_CARDS)
            zones[name] = ZoneDef(name, spec.get("per") == "player", bool(spec.get("shuffle")),
                                  capacity, spec.get("visible", "all"), spec.get("refill"))
        for name, z in zones.items():
            if z.refill is not None and z.refill not in zones:
                self.fail(f"zone '{name}' refills from unknown zone '{z.refill}'", "zones", name,
                          "refill", hint=did_you_mean(z.refill, zones))
        return zones

    def build_cards(self, section: str, zones) -> dict[str, CardDef]:
        out: dict[str, CardDef] = {}
        for k, c in enumerate(self.raw.get(section) or []):
            cid = c["id"]
            if cid in out:
                self.fail(f"{section[:-1]} id '{cid}' is declared twice", section, k, "id")
            for key in ("zone", "discard"):
                z = c.get(key)
                if z is not None and z not in zones:
                    self.fail(f"{cid}: unknown zone '{z}'", section, k, key, hint=did_you_mean(z, zones))
            count = self.whole((section, k, "count"), c.get("count"), 1, 1000)
            out[cid] = CardDef(cid, 1 if count is None else count, c.get("zone"), c.get("discard"),
                               frozenset(c.get("tags", [])), dict(c.get("fields") or {}),
                               c.get("name", cid), c.get("text", ""), self.node(section, k).span)
        return out

    def check_card_total(self, cards: dict[str, CardDef], zones: dict[str, ZoneDef]) -> None:
        seats = (self.raw.get("players") or {}).get("max", 1)
        total = sum(c.count * (seats if zones[c.zone].per_player else 1)
                    for c in cards.values() if c.zone in zones)
        if total > MAX_CARDS:
            self.fail(f"the cards make {total:,} copies at setup (a per-player zone's once "
                      f"for each of {seats} seats); a pack makes at most {MAX_CARDS:,}", "cards")

    def build_player_fields(self) -> dict[str, FieldDef]:
        out = {}
        for name, spec in (self.raw.get("player") or {}).items():
            if not isinstance(spec, dict):
                spec = {"init": spec}
            t = spec.get("type") or type_of_value(spec.get("init"))
            out[name] = FieldDef(name, t, spec.get("init"), spec.get("min"), spec.get("max"),
                                 self.node("player", name).span, spec.get("visible", "all"),
                                 spec.get("die"))
            die = spec.get("die")
            if die is not None and die not in self.env.dice:
                self.fail(f"player field '{name}': unknown die '{die}'", "player", name, "die",
                          hint=did_you_mean(die, self.env.dice))
            if (die is None) != (spec.get("visible") != "owner"):
                self.fail(f"player field '{name}': a private field (visible: owner) holds "
                          "faces of a die, and only it says which", "player", name,
                          hint="give both `visible: owner` and `die: NAME`, or neither")
            self.env.player_fields[name] = t
        return out

    def field_values(self, fields: dict[str, FieldDef]) -> None:
        """Compile string inits and bounds of int/bool fields (they are expressions)."""
        for name, f in fields.items():
            for key in ("init", "min", "max"):
                v = getattr(f, key)
                if isinstance(v, str) and f.type in ("int", "bool"):
                    setattr(f, key, self.compile(("player", name, key), expr=True))

    # ---------- the whole pack ----------
    def build(self) -> Game:
        raw = self.raw
        env = self.env
        params = self.build_params()
        env.params = params
        dice = self.build_dice()
        env.dice = set(dice)
        zones = self.build_zones()
        env.zones = {n: z.per_player for n, z in zones.items()}
        cards = self.build_cards("cards", zones)
        self.check_card_total(cards, zones)
        kinds = self.build_cards("kinds", zones)
        env.cards = set(cards) | set(kinds)
        env.ent_fields = {f for c in [*cards.values(), *kinds.values()] for f in c.fields}
        fields = self.build_player_fields()
        vars_init = dict(raw.get("vars") or {})
        turn_init = dict(raw.get("turn") or {})
        for ns, section, names in (("game", "vars", vars_init), ("turn", "turn", turn_init)):
            for name in names:
                env.var_spans[(ns, name)] = self.node(section).key_span(name)
        env.game_vars = {k: type_of_value(v) for k, v in vars_init.items()}
        env.turn_vars = {k: type_of_value(v) for k, v in turn_init.items()}
        procs = raw.get("procedures") or {}
        self.check_shadowing(procs)
        for name, spec in procs.items():
            if "flow" in spec:
                env.flow_procs[name] = list(spec.get("params", []))
            else:
                env.effect_procs[name] = list(spec.get("params", []))
                if "value" in spec:
                    env.pure_procs.add(name)
        extensions = self.build_extensions()
        self.typed_names(dice, cards, kinds, procs)
        self.field_values(fields)

        effect_procs = {}
        for name, spec in procs.items():
            if name in env.flow_procs:
                continue
            scope = {p: "any" for p in spec.get("params", [])}
            if "value" in spec:
                c = self.compile(("procedures", name, "value"), expr=True, scope=scope)
            else:
                c = self.compile(("procedures", name, "do"), expr=False, scope=scope)
            if c is not None:
                effect_procs[name] = (list(spec.get("params", [])), c)

        fb = FlowBuilder(self)
        root = fb.seq(("flow",), raw.get("flow") or [], {})
        flow_procs = {}
        for name, spec in procs.items():
            if name in env.flow_procs:
                scope = {p: "any" for p in spec.get("params", [])}
                flow_procs[name] = fb.seq(("procedures", name, "flow"), spec["flow"], scope)

        actions = self.build_actions(fb.points)
        actions_at: dict[str, list[ActionDef]] = {}
        for a in actions:
            for pt in a.at:
                actions_at.setdefault(pt, []).append(a)
        triggers: dict[str, list[TriggerDef]] = {}
        for k, t in enumerate(raw.get("triggers") or []):
            scope = {"event": "any"}
            cond = self.compile(("triggers", k, "if"), expr=True, scope=scope) if "if" in t else None
            fx = self.compile(("triggers", k, "do"), expr=False, scope=scope)
            if fx is not None:
                triggers.setdefault(t["on"], []).append(
                    TriggerDef(t["on"], cond, fx, self.node("triggers", k).span))
        end = []
        for k, e in enumerate(raw.get("end") or []):
            when = self.compile(("end", k, "when"), expr=True)
            winners = self.compile(("end", k, "winners"), expr=True) if "winners" in e else None
            if when is not None:
                end.append(EndDef(when, winners, self.node("end", k).span))
        invariants = []
        for k, inv in enumerate(raw.get("invariants") or []):
            path = ("invariants", k) if isinstance(inv, str) else ("invariants", k, "check")
            name = inv if isinstance(inv, str) else inv.get("name", inv["check"])
            c = self.compile(path, expr=True)
            if c is not None:
                invariants.append(Invariant(name, c, self.node(*path).span))
        policies = self.build_policies(actions)
        setup = self.build_setup(raw.get("setup"))
        score = self.compile(("score",), expr=True) if "score" in raw else None
        value = self.compile(("value",), expr=True, scope={"me": "player"}) \
            if "value" in raw else None
        turn_names = {name: self.compile(("turn_names", name), expr=True)
                      for name in raw.get("turn_names") or {}}
        self.check_triggers(fb.nodes, extensions)
        limits = {**DEFAULT_LIMITS, **(raw.get("limits") or {})}
        players = raw.get("players") or {}
        pmin, pmax = int(players.get("min", 1)), int(players.get("max", 1))
        if self.problems:
            raise PackError(self.problems)
        digest = pack_hash(raw, params, self.mode)
        return Game(
            pack_id=raw.get("pack") or raw.get("extends", "?"), mode=self.mode,
            title=raw.get("title", raw.get("pack", "")), params=params, env=env,
            players_min=pmin, players_max=pmax,
            players_default=int(players.get("default", pmin)),
            dice=dice, cards=cards, kinds=kinds, zones=zones, player_fields=fields,
            vars_init=vars_init, turn_init=turn_init, nodes=fb.nodes, root=root,
            actions=actions, actions_at=actions_at, triggers=triggers,
            effect_procs=effect_procs, flow_procs=flow_procs, end=end, invariants=invariants,
            setup=setup, limits=limits, view=raw.get("view") or {},
            policies=policies, metrics=raw.get("metrics") or {}, raw=raw,
            hash=digest, files=self.files, house=self.house, sources=self.sources,
            extensions=extensions, score=score, value=value,
            highscores=bool(raw.get("highscores")), turn_names=turn_names)

    def build_setup(self, spec: Any) -> tuple[Compiled, ...]:
        """The setup's steps, run in order before the first end check: one block of
        statements, or a list of `{id, do}` steps an overlay inserts its own among."""
        if not spec:
            return ()
        if not isinstance(spec, list):
            return tuple(c for c in [self.compile(("setup",), expr=False)] if c is not None)
        steps = (self.compile(("setup", k, "do"), expr=False) for k in range(len(spec)))
        return tuple(c for c in steps if c is not None)

    def build_extensions(self) -> dict:
        out = {}
        for section, factory in ext_mod.FACTORIES.items():
            if section in self.raw:
                ext = factory(self.raw[section], self.node(section), self)
                if ext is None:
                    continue
                out[section] = ext
                for name, (value, t) in ext.env_names().items():
                    self.env.consts[name] = (value, t)
                self.env.words.update(ext.words())
        return out

    def build_policies(self, actions: list[ActionDef]) -> dict[str, PolicyDef]:
        """Declarative bots: ordered preferences over the pack's actions."""
        by_id = {a.id: a for a in actions}
        out = {}
        for name, spec in (self.raw.get("policies") or {}).items():
            rules = []
            for k, r in enumerate(spec.get("rules", [])):
                path = ("policies", name, "rules", k)
                ids = (r["play"],) if isinstance(r["play"], str) else tuple(r["play"])
                scope: dict[str, str] = {"me": "player"}
                for aid in ids:
                    if aid in ("*", "pass"):
                        continue
                    if aid not in by_id:
                        self.fail(f"policy '{name}': no action '{aid}'", *path, "play",
                                  hint=did_you_mean(aid, by_id))
                        continue
                    for pname, dom in by_id[aid].params:
                        t = dom.type
                        scope[pname] = t.split(":", 1)[1] if t.startswith("list:") else "any"
                cond = self.compile((*path, "if"), expr=True, scope=scope) if "if" in r else None
                score = self.compile((*path, "score"), expr=True, scope=scope) if "score" in r else None
                rules.append(PolicyRule(ids, cond, score, self.node(*path).span))
            out[name] = PolicyDef(name, rules, spec.get("otherwise", "random"), spec.get("text", ""))
        return out

    def build_actions(self, points: set[str]) -> list[ActionDef]:
        out = []
        seen: set[str] = set()
        for k, a in enumerate(self.raw.get("actions") or []):
            aid = a["id"]
            if aid in seen:
                self.fail(f"action id '{aid}' is declared twice", "actions", k, "id")
            seen.add(aid)
            at = a.get("at", [])
            at = (at,) if isinstance(at, str) else tuple(at)
            for j, pt in enumerate(at):
                if pt not in points:
                    self.fail(f"action '{aid}': no ask or window named '{pt}' in the flow",
                              "actions", k, "at", j if not isinstance(a.get("at"), str) else None,
                              hint=did_you_mean(pt, points))
            who = a.get("who", "current")
            scope: dict[str, str] = {"me": "player"}
            params = []
            for j, (pname, dom) in enumerate((a.get("params") or {}).items()):
                c = self.compile(("actions", k, "params", pname), expr=True, scope=scope)
                if c is not None:
                    params.append((pname, c))
                    t = c.type
                    scope[pname] = t.split(":", 1)[1] if t.startswith("list:") else "any"
                del j, dom
            guard, cond = (self.compile_split(("actions", k, "if"), scope, {p for p, _ in params})
                           if "if" in a else (None, None))
            fx = self.compile(("actions", k, "do"), expr=False, scope=scope) if "do" in a else None
            out.append(ActionDef(aid, at, who, params, cond, fx, self.node("actions", k).span,
                                 a.get("text", ""), guard))
        return out
