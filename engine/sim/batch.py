"""One game of a batch, played by bots, fast and reproducibly (the batches and the worker
processes that play them are `engine.sim.parallel`).

Each game and each bot gets its own seed derived from the batch seed and its position
(`engine.sim.seeds`), so game 517 of a batch is the same game whether it runs first, last,
alone or in another worker process. States run non-transactionally: nobody needs an
illegal move rolled back here, and skipping the snapshot before every action is most of a
random game's cost.

Besides who won and how long it took, a game's record keeps how often each seat chose each
action and the pack's `metrics:` evaluated on the final state.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine.bots import is_human, make_bot
from engine.errors import HordeError, PackError, Problem, RuleRuntimeError
from engine.flow.machine import evaluate, too_deep
from engine.pack.loader import load_tree
from engine.sim.result import GameRecord, SimResult
from engine.sim.seeds import bot_seed, game_seed


def seat_specs(bots: Sequence[str], players: int) -> list[str]:
    """One bot spec per seat: the list cycles over the seats (default random everywhere)."""
    specs = [b.strip() for b in bots if b.strip()] or ["random"]
    return [specs[i % len(specs)] for i in range(players)]


def check_bots(game, specs: list[str]) -> None:
    """Every spec names a bot (not a person) that can play this pack; errors say which seat."""
    for seat, spec in enumerate(specs):
        if is_human(make_bot(spec, 0, game)):
            raise HordeError(f"seat {seat} is '{spec}': a simulation needs bots at every seat")


def compile_metrics(game) -> list[tuple[str, object]]:
    """The pack's `metrics:` (name -> expression), compiled against its names.

    A problem is reported at its place in the pack's files: the node tree is loaded again
    for the positions only when something is wrong."""
    section = game.metrics or {}
    if not isinstance(section, dict):
        raise PackError([Problem("metrics: expected a mapping of name -> expression")])
    try:
        return _compile_metrics(game, section, None)
    except PackError:
        nodes = _metrics_node(game)
        if nodes is None:
            raise
        return _compile_metrics(game, section, nodes)


def _compile_metrics(game, section: dict, nodes) -> list[tuple[str, object]]:
    out, problems = [], []
    for name, text in section.items():
        where = nodes.value.get(name) if nodes is not None else None
        if isinstance(text, bool | int):
            text = str(text).lower()
        if not isinstance(text, str):
            problems.append(Problem(f"metrics.{name}: expected an expression",
                                    getattr(where, "span", None)))
            continue
        try:
            out.append((str(name), game.compile_expr(text, where=where)))
        except PackError as exc:
            problems += exc.problems
    if problems:
        raise PackError(problems)
    return out


def _metrics_node(game):
    if game.sources is None:
        return None
    try:
        root = load_tree(game.sources.ref, mode=game.mode, house=game.sources.house,
                         validate=False, sources=game.sources).node
    except PackError:
        return None
    node = root.value.get("metrics") if isinstance(root.value, dict) else None
    return node if node is not None and isinstance(node.value, dict) else None


def _metric_value(S, name: str, c):
    try:
        v = evaluate(S, c, {})
    except RuleRuntimeError as exc:  # compiled without positions: point at the metric's line
        if exc.problem.span is None:
            node = _metrics_node(S.game)
            exc.problem.span = getattr(node.value.get(name), "span", None) if node else None
        raise
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int | float):
        return v
    raise HordeError(f"metric '{name}' must be a number or true/false, got {S.describe(v)}")


def play_one(game, players: int, specs: list[str], seed: int, index: int,
             metrics: list | None = None) -> GameRecord:
    """Game `index` of the batch with master seed `seed`, played to the end."""
    if metrics is None:
        metrics = compile_metrics(game)
    gseed = game_seed(seed, index)
    seats = [make_bot(spec, bot_seed(seed, index, s), game) for s, spec in enumerate(specs)]
    state = game.new_state(players=players, seed=gseed)
    state.transactional = False
    uses: list[dict[str, int]] = [{} for _ in range(players)]
    decisions = 0
    try:
        while not state.over:
            d = state.decision()
            if d is None:
                break
            label = seats[d.player].choose(state, d)
            action = d.bindings[label][0] if label in d.bindings else None
            aid = "pass" if action is None else action.id
            uses[d.player][aid] = uses[d.player].get(aid, 0) + 1
            state.apply(label)
            decisions += 1
        values = {name: _metric_value(state, name, c) for name, c in metrics}
    except HordeError as exc:
        _which_game(exc, index, gseed)
        raise
    except (RecursionError, MemoryError) as exc:  # what the caps missed (a bot copying a
        # state whose lists nest past Python's stack, say), in the pack's words
        raise _which_game(too_deep(exc), index, gseed) from None
    all_lost = state.over and not state.winners and not state.limit_hit and \
        all(v < 0 for v in state.returns())  # a team loss: every seat lost, and no draw
    # A game stopped by the turn limit counted the turn it never started.
    return GameRecord(index, gseed, tuple(state.winners), state.turns, state.limit_hit, decisions,
                      tuple(uses), values, all_lost)


def _which_game(exc: HordeError, index: int, gseed: int) -> HordeError:
    for problem in exc.problems[:1]:  # say which game, so it can be replayed alone
        problem.message = f"game {index} (seed {gseed}): {problem.message}"
    return exc


def new_result(game, players: int, specs: list[str], seed: int, n: int,
               records: bool = False) -> SimResult:
    house = [Path(h).name for h in game.sources.house] if game.sources is not None else []
    return SimResult(game.pack_id, game.mode, dict(game.params), players, specs, seed,
                     requested=n, metric_names=[str(k) for k in (game.metrics or {})],
                     house=house, keep_records=records)
