"""Scenarios: rules as tests. Fix a situation, force dice, make decisions, check outcomes.

A scenario file holds one scenario (a mapping) or several (a list of mappings):

    scenario: a failed roll costs one health
    rules: [RTB-10]
    pack: dice-race
    players: 2
    seed: 1
    setup: "players[0].distance = 5"      # statements, run after setup, before the flow
    rolls: [6, hit, run, run, run, run, run]      # forced outcomes for the next rolls
    decisions: [pass]                     # labels, applied in order
    turns: 1                              # optional: freeze the game after this many turns
    expect:                               # expressions that must all be true at the end
      - players[0].health == 2
    expect_law: [conservation]            # optional: engine laws (engine.laws.LAWS) that
                                          # must hold after every decision

Every forced roll must be used and every decision must be legal when its turn comes, so a
scenario cannot pass by accident because the game never reached the situation it names.
`pack:` is a pack id, or a path relative to the scenario file (or to the working folder).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from engine.api import load
from engine.errors import HordeError, PackError, Problem, ScenarioFailure
from engine.flow.machine import evaluate, run_effect
from engine.laws import Watch, determinism
from engine.pack.schema import validate_scenario
from engine.pack.yamlspan import compose_file, plain


@dataclass
class ScenarioResult:
    name: str
    file: str
    rules: list[str]
    ok: bool
    message: str = ""
    state: object = field(default=None, repr=False)


@functools.lru_cache(maxsize=64)
def _game(pack: str, mode: str | None, params: tuple, house: tuple):
    return load(pack, mode=mode, params=dict(params), house=list(house))


def load_file(path: str | Path) -> list:
    """The scenario nodes of a file, schema-checked (a PackError lists every problem)."""

    root = compose_file(Path(path))
    nodes = root.value if isinstance(root.value, list) else [root]
    problems: list[Problem] = []
    for n in nodes:
        problems += validate_scenario(n)
    if problems:
        raise PackError(problems)
    return nodes


def run_node(node, base_dir: Path) -> ScenarioResult:

    spec = plain(node)
    name = spec["scenario"]
    where = str(node.span)
    rules = list(spec.get("rules", []))
    try:
        state = _run(spec, node, base_dir)
    except ScenarioFailure as exc:
        return ScenarioResult(name, where, rules, False, str(exc))
    except HordeError as exc:
        expected = spec.get("expect_error")
        if expected and expected in str(exc):
            return ScenarioResult(name, where, rules, True)
        return ScenarioResult(name, where, rules, False, f"error: {exc}")
    if spec.get("expect_error"):
        return ScenarioResult(name, where, rules, False,
                              f"expected an error containing {spec['expect_error']!r}, got none")
    return ScenarioResult(name, where, rules, True, state=state)


def _run(spec: dict, node, base_dir: Path):
    house = tuple(str((base_dir / h).resolve()) if not Path(h).is_absolute() else h
                  for h in spec.get("house", []))
    params = tuple(sorted((spec.get("params") or {}).items()))
    pack = spec["pack"]
    near = base_dir / pack  # a pack file or folder next to the scenario, as horde check writes
    if not Path(pack).is_absolute() and (near.is_file() or (near / "pack.yaml").is_file()):
        pack = str(near.resolve())
    game = _game(pack, spec.get("mode"), params, house)
    setup = None
    if spec.get("setup"):
        setup = game.compile_expr(spec["setup"], effect=True, where=_child(node, "setup"))
    checks = [(text, game.compile_expr(text, where=_child(node, "expect", k)))
              for k, text in enumerate(spec.get("expect", []))]

    laws = spec.get("expect_law") or []
    S = _play(game, spec, setup, [laws] if isinstance(laws, str) else laws)
    if S.forced:
        raise ScenarioFailure(f"{len(S.forced)} forced roll(s) were never used: {S.forced}")
    failed = [text for text, c in checks if not evaluate(S, c, {})]
    if failed:
        raise ScenarioFailure("expectation failed: " + "; ".join(failed) + "\n" + describe(S))
    return S


def _play(game, spec: dict, setup, laws: list[str]):
    """Set up, force the rolls and take the decisions; with `laws`, check those engine laws
    (engine.laws) on the first state and after every decision."""
    watch = Watch(game, laws) if laws else None

    def prepare(S):
        if setup is not None:
            run_effect(S, setup, {})
        S.forced = list(spec.get("rolls", []))
        S.stop_turns = spec.get("turns")
        if watch is not None:
            watch.start(S)

    def new_state():
        return game.new_state(players=spec.get("players"), seed=spec.get("seed", 0),
                              prepare=prepare)

    S = new_state()
    if watch is not None:
        _lawful(watch.check(S), "at the start")
    for k, label in enumerate(spec.get("decisions", [])):
        d = S.decision()
        if d is None:
            raise ScenarioFailure(f"decision {k + 1} ({label!r}): the game is already over")
        if label not in d.index:
            raise ScenarioFailure(f"decision {k + 1} ({label!r}) is not legal for P{d.player} "
                                  f"at {d.point}; legal: {', '.join(d.actions)}")
        if watch is None:
            S.apply(label)
        else:
            taken = watch.apply(S, label)
            _lawful(watch.check(S) + taken, f"after decision {k + 1} ({label!r})")
    if "determinism" in laws:
        again = new_state()
        for label in spec.get("decisions", []):
            again.apply(label)
        _lawful(determinism(S, again), "replaying the same decisions")
    return S


def _lawful(broken: list, when: str) -> None:
    if broken:
        raise ScenarioFailure(f"law broken {when}: " + "; ".join(map(str, broken)))


def _child(node, *path):
    for key in path:
        v = node.value
        if isinstance(v, dict) and key in v:
            node = v[key]
        elif isinstance(v, list) and isinstance(key, int) and key < len(v):
            node = v[key]
    return node


def describe(S) -> str:
    """A compact dump of a state for failure messages."""
    lines = []
    for i, p in enumerate(S.pl):
        lines.append(f"  P{i}: " + ", ".join(f"{k}={S.describe(v)}" for k, v in p.items()))
    d = S.decision()
    deciding = f"P{d.player} at {d.point}: {d.actions}" if d else "-"
    lines.append(f"  over={S.over} winners={S.winners} turn={S.turns} deciding={deciding}")
    msgs = [e["text"] for e in S.log if e.get("t") == "msg"][-8:]
    lines += [f"  log: {m}" for m in msgs]
    return "\n".join(lines)


def run_file(path: str | Path) -> list[ScenarioResult]:
    path = Path(path)
    return [run_node(n, path.parent) for n in load_file(path)]
