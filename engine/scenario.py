"""Scenarios: rules as tests. Fix a situation, force dice, make decisions, check outcomes.

A scenario file holds one scenario (a mapping) or several (a list of mappings):

    scenario: a failed roll costs one health
    rules: [RTB-10]
    pack: dice-race
    setup: "players[0].distance = 5"      # statements, run after setup, before the flow
    rolls: [6, hit, run, run, run, run, run]      # forced faces, in order (or {die: [...]})
    decisions: [pass]                     # labels, applied in order
    expect:                               # expressions that must all be true at the end
      - players[0].health == 2
    at:                                   # ...and at named moments
      - point: after_black
        offered: ["shield(*"]

The whole format (`turns:`, `play_on:`, `offered:`, `at:`, `expect_law:`, ...) is
docs/scenarios.md; engine.scenario_spec reads a scenario against its pack, this module
plays it. The game stops when the script runs out: at the decision then pending, or when
the turn in which it ran out is over, so a scenario says nothing about turns it does not
script unless it asks to (`play_on: true`, `turns:`).

Every forced roll must be used, every decision must be legal when its turn comes and every
moment must be reached, so a scenario cannot pass by accident because the game never
reached the situation it names. `pack:` is a pack id, or a path relative to the scenario
file (or to the working folder).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from engine.api import load
from engine.errors import HordeError, PackError, Problem, ScenarioFailure
from engine.flow.machine import run_effect
from engine.laws import Watch, determinism
from engine.pack.schema import validate_scenario
from engine.pack.yamlspan import compose_file, plain
from engine.scenario_spec import Checks, Moment, Script, read


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
        if expected and expected in exc.report(limit=None):
            return ScenarioResult(name, where, rules, True)
        return ScenarioResult(name, where, rules, False, f"error: {exc}")
    if spec.get("expect_error"):
        return ScenarioResult(name, where, rules, False,
                              f"expected an error containing {spec['expect_error']!r}, got none")
    return ScenarioResult(name, where, rules, True, state=state)


def pack_ref(pack: str, base_dir: Path) -> str:
    """What a scenario's `pack:` names: a pack file or folder next to the scenario file (as
    horde check writes them), else a pack id or path as given."""
    near = base_dir / pack
    if not Path(pack).is_absolute() and (near.is_file() or (near / "pack.yaml").is_file()):
        return str(near.resolve())
    return pack


def _run(spec: dict, node, base_dir: Path):
    house = tuple(str((base_dir / h).resolve()) if not Path(h).is_absolute() else h
                  for h in spec.get("house", []))
    params = tuple(sorted((spec.get("params") or {}).items()))
    try:
        game = _game(pack_ref(spec["pack"], base_dir), spec.get("mode"), params, house)
    except HordeError as exc:  # what the load cannot place is the scenario's `pack:` line
        where = node.value["pack"].span
        if all(p.span is not None for p in exc.problems):
            raise
        raise PackError([p if p.span is not None else Problem(p.message, where, p.hint)
                         for p in exc.problems]) from None
    script = read(game, spec, node)
    laws = spec.get("expect_law") or []
    S = _play(game, script, [laws] if isinstance(laws, str) else laws)
    if S.forced:
        left = S.forced if isinstance(S.forced, list) else sum(S.forced.values(), [])
        raise ScenarioFailure(f"{len(left)} forced roll(s) were never used: {S.forced}")
    _hold(S, script.end)
    for m in script.moments:
        if m.kind == "turn":
            _hold(_replay_to_turn(game, script, m, S), m.checks)
    return S


def _hold(S, checks: Checks) -> None:
    failed = checks.failures(S)
    if failed:
        where = "" if checks.when == "at the end" else f"{checks.when}: "
        raise ScenarioFailure(where + "; ".join(failed) + "\n" + describe(S))


def _new_state(game, script: Script, prepare_more=None):
    def prepare(S):
        if script.setup is not None:
            run_effect(S, script.setup, {})
        S.forced = ({die: list(v) for die, v in script.rolls.items()}
                    if isinstance(script.rolls, dict) else list(script.rolls))
        if script.turns is not None:
            S.stop_turns = script.turn_count(S, script.turns)
        elif not script.decisions and not script.play_on:
            _stop_when_scripted(S)
        if prepare_more is not None:
            prepare_more(S)

    return game.new_state(players=script.players, seed=script.seed, prepare=prepare)


def _stop_when_scripted(S) -> None:
    """Stop at the next turn start (not before turn 1 is played) once no forced roll is
    left: the turn in which the script runs out is played to its end, and no further."""
    S.stop_turns = max(S.turns, 1)
    S.stop_scripted = True


def _arm(S, script: Script, k: int) -> None:
    """Before the last decision (k is 1-based) is taken, arm the stop."""
    if k == len(script.decisions) and script.turns is None and not script.play_on:
        _stop_when_scripted(S)


def _play(game, script: Script, laws: list[str]):
    """Set up, force the rolls, take the decisions, and check the decision and point
    moments as they come; with `laws`, check those engine laws (engine.laws) on the first
    state and after every decision."""
    watch = Watch(game, laws) if laws else None
    S = _new_state(game, script, watch.start if watch is not None else None)
    if watch is not None:
        _lawful(watch.check(S), "at the start")
    asked: Counter = Counter()  # point -> times a decision was asked there

    def moments(k: int) -> None:
        d = S.decision()
        if d is not None:
            asked[d.point] += 1
        for m in script.moments:
            if (m.kind == "decision" and m.value == k or
                    m.kind == "point" and d is not None and d.point == m.value
                    and asked[m.value] == m.nth):
                _hold(S, m.checks)

    moments(0)
    for k, label in enumerate(script.decisions, 1):
        d = S.decision()
        if d is None:
            raise ScenarioFailure(f"decision {k} ({label!r}): the game is already over")
        if label not in d.index:
            raise ScenarioFailure(f"decision {k} ({label!r}) is not legal for P{d.player} "
                                  f"at {d.point}; legal: {', '.join(d.actions)}")
        _arm(S, script, k)
        if watch is None:
            S.apply(label)
        else:
            taken = watch.apply(S, label)
            _lawful(watch.check(S) + taken, f"after decision {k} ({label!r})")
        moments(k)
    unreached = []
    for m in script.moments:
        if m.kind == "point" and asked[m.value] < m.nth:
            unreached.append(f"{m.span}: moment never reached: {m.name()}; a decision was "
                             f"asked there {asked[m.value]} time(s)")
        if m.kind == "turn":
            t = script.turn_count(S, m.value)
            if not (S.turns > t or S.over and S.turns >= t):
                unreached.append(
                    f"{m.span}: moment never reached: {m.name()} ({t} turn(s)); the scenario "
                    f"stopped in turn {S.turns}" + ("" if S.over else " at a decision"))
    if unreached:
        raise ScenarioFailure("\n".join(unreached) + "\n    hint: more rolls or decisions, "
                              "or play_on: true, play further")
    if "determinism" in laws:
        again = _new_state(game, script)
        for k, label in enumerate(script.decisions, 1):
            _arm(again, script, k)
            again.apply(label)
        _lawful(determinism(S, again), "replaying the same decisions")
    return S


def _replay_to_turn(game, script: Script, m: Moment, S):
    """The state after turn t (moment m): the scenario played again, stopped at the start of
    turn t + 1 as `turns: t` stops it. `_play` has checked that the game got that far."""
    t = script.turn_count(S, m.value)

    def stop(R):
        R.stop_turns = t
        R.stop_scripted = False

    R = _new_state(game, script, stop)
    for label in script.decisions:
        if R.decision() is None:
            break
        R.apply(label)
    return R


def _lawful(broken: list, when: str) -> None:
    if broken:
        raise ScenarioFailure(f"law broken {when}: " + "; ".join(map(str, broken)))


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
