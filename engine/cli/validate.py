"""`horde validate`: check packs (with all their modes and house rules), overlays and
scenario files, and report every problem at once.

A pack is checked the way it will be played: the base pack, then the base with each of
its modes, then with each of its house-rule examples, each compiled by `engine.load` and
its `view:` compiled by the renderer. Its `metrics:` are compiled
too, as `horde sim` will. A problem of the base pack shows up in every one of
those loads; it is reported once. So is a warning (engine.pack.lint): what loads but can
never matter in play. Warnings leave the exit status 0, unless `--strict`.

With `--play N`, what loads is then played by bots (engine.coverage): what no game reached
is a warning at its line (never an error: a game may just be rare), what broke in play a
problem.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from engine.api import load
from engine.cli.common import AllErrorsOpt, JsonOpt, err, out, whole, yaml_files
from engine.errors import HordeError, PackError, Problem, cut, more_line, problems_shown

# Each mode and house rule is one more load and compile of the whole pack: the bundled
# packs have at most six; a pack with thousands would keep validate busy for hours.
MAX_OVERLAYS = 64


@dataclass
class Outcome:
    """One argument's verdict."""

    name: str
    summary: str
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _unique(problems: list[Problem]) -> list[Problem]:
    seen: set = set()
    out_: list[Problem] = []
    for p in problems:
        key = (p.message, p.span, p.hint)
        if key not in seen:
            seen.add(key)
            out_.append(p)
    return out_


def _load(ref, problems: list[Problem], **kw):
    """Load and compile (view included); collect problems instead of raising them."""
    from engine.agents.domains import domain_problems
    from engine.agents.gametype import returns_problems
    from engine.pack.valuefacts import value_problems
    from engine.pack.zonefacts import zone_problems
    from engine.render.spec import compile_view
    from engine.sim.batch import compile_metrics
    try:
        game = load(ref, **kw)
        compile_view(game)
    except HordeError as exc:
        problems.extend(exc.problems)
        return None
    try:  # what `horde sim` compiles when a batch is played
        compile_metrics(game)
    except HordeError as exc:
        problems.extend(exc.problems)
    problems.extend(value_problems(game) + zone_problems(game) + domain_problems(game)
                    + returns_problems(game))
    return game


def _warn(game, warned: list[Problem], overlay: Path | None = None):
    """Add the warnings of `game` (loaded with mode or house rule `overlay`) to `warned`."""
    from engine.pack.lint import warnings
    if game is not None:
        warned.extend(warnings(game, overlay))
    return game


def _overlay(ref, problems: list[Problem], warned: list[Problem], base: tuple[list, list],
             base_ref, overlay: Path, **kw):
    """Load `ref` with an overlay (`kw`: its mode or house rule, or none when `ref` is the
    overlay file) and add its problems and warnings; those it causes in `base_ref`'s
    files, which the base load (`base`: its problems and warnings) has not, are shown at
    the overlay's line (engine.pack.blame)."""
    from engine.pack.blame import repoint
    from engine.pack.changes import changes
    from engine.pack.loader import load_tree
    found: list[Problem] = []
    said: list[Problem] = []
    game = _warn(_load(ref, found, **kw), said, overlay)
    mine = str(overlay.resolve())
    if any(p.span is not None and str(Path(p.span.file).resolve()) != mine for p in found + said):
        try:
            before, after = load_tree(base_ref), load_tree(ref, **kw)
        except HordeError:
            pass
        else:
            ours = sorted(set(after.files) - set(before.files))
            diff = changes(before.node, after.node)
            found = repoint(found, base[0], ours, diff)
            said = repoint(said, base[1], ours, diff)
    problems.extend(found)
    warned.extend(said)
    return game


def _stems(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


def check_pack(pack_file: Path) -> Outcome:
    """The base pack, each mode, each house rule: what each load finds, and each house
    rule of the base checked in every mode too (engine.pack.modefacts: a point a mode
    never reaches)."""
    from engine.pack.modefacts import mode_problems
    folder = pack_file.parent
    problems: list[Problem] = []
    warned: list[Problem] = []
    game = _warn(_load(pack_file, problems), warned)
    modes, house = _stems(folder / "modes"), _stems(folder / "house")
    if len(modes) + len(house) > MAX_OVERLAYS:
        problems.append(Problem(f"{folder}: {len(modes)} modes and {len(house)} house rules, "
                                f"more than the {MAX_OVERLAYS} validate checks (the first ones)"))
        modes = modes[:MAX_OVERLAYS]
        house = house[:MAX_OVERLAYS - len(modes)]
    base = (list(problems), list(warned))
    games = {m.stem: _overlay(pack_file, problems, warned, base, pack_file, m, mode=m.stem)
             for m in modes}
    checks = [([("the base game", game)], {str(Path(f).resolve()) for f in game.files})] if game else []
    checks += [([(f"mode '{m}'", g)], {str(Path(folder / "modes" / f"{m}.yaml").resolve())})
               for m, g in games.items() if g is not None]
    combos = MAX_OVERLAYS
    for h in house:
        g = _overlay(pack_file, problems, warned, base, pack_file, h, house=[h])
        if g is None:
            continue
        mode = next((m for m in games if str(Path(folder / "modes" / f"{m}.yaml").resolve())
                     in {str(Path(f).resolve()) for f in g.files}), None)
        loads = [(f"mode '{mode}'" if mode else "the base game", g)]
        for m in games if mode is None else ():  # a house rule of the base goes with every mode
            if combos > 0:
                combos -= 1
                found: list[Problem] = []
                loads.append((f"mode '{m}'", _load(pack_file, found, mode=m, house=[h])))
                known = {(p.message, p.span) for p in problems}  # the house rule's own, in that mode
                problems.extend(Problem(f"{p.message} (with mode '{m}')", p.span, p.hint) for p in found
                                if (p.message, p.span) not in known and p.span is not None
                                and Path(p.span.file).resolve() == h.resolve())
        checks.append(([(label, x) for label, x in loads if x is not None], {str(h.resolve())}))
    for loads, files in checks:
        errors, warnings = mode_problems(loads, files)
        problems.extend(errors)
        warned.extend(warnings)
    parts = ["base"]
    if modes:
        parts.append(_plural(len(modes), "mode"))
    if house:
        parts.append(_plural(len(house), "house rule"))
    name = game.pack_id if game is not None else folder.name
    return Outcome(name, ", ".join(parts), _unique(problems), _unique(warned))


def check_scenarios(path: Path, nodes) -> Outcome:
    """Schema, pack and what the pack must have (engine.scenario_spec) of every scenario in a
    file, without running them."""
    from engine.pack.yamlspan import plain
    from engine.scenario import load_file, pack_ref
    from engine.scenario_spec import read
    problems: list[Problem] = []
    try:
        nodes = load_file(path)
    except PackError as exc:
        return Outcome(str(path), "scenarios", exc.problems)
    for node in nodes:
        spec = plain(node)
        house = [str((path.parent / h).resolve()) for h in spec.get("house", [])]
        found: list[Problem] = []  # resolved as `horde scenario` does: next to the file
        game = _load(pack_ref(spec["pack"], path.parent), found, mode=spec.get("mode"),
                     params=spec.get("params") or {}, house=house)
        where = node.value["pack"].span  # what the load cannot place is the scenario's
        problems.extend(p if p.span is not None else Problem(p.message, where, p.hint)
                        for p in found)
        if game is None:
            continue
        try:  # its snippets, dice, faces, actions, points and turn words
            read(game, spec, node)
        except HordeError as exc:
            problems.extend(exc.problems)
    return Outcome(str(path), _plural(len(nodes), "scenario"), _unique(problems))


def _extended(path: Path, ref: str) -> Path | str | None:
    """What overlay `path` extends (`extends: ref`): a file next to it, or a pack id."""
    from engine.pack.loader import resolve_ref
    near = (path.parent / ref)
    if near.is_file():
        return near
    try:
        return resolve_ref(ref)
    except HordeError:
        return None


def check_file(path: Path) -> Outcome:
    from engine.pack.yamlspan import compose_file
    try:
        root = compose_file(path)
    except PackError as exc:
        return Outcome(str(path), "file", exc.problems)
    value = root.value
    items = value if isinstance(value, list) else [root]
    if items and all(isinstance(n.value, dict) and "scenario" in n.value for n in items):
        return check_scenarios(path, items)
    if isinstance(value, dict) and "pack" in value and path.name == "pack.yaml":
        return check_pack(path)
    problems: list[Problem] = []
    warned: list[Problem] = []
    kind = "overlay" if isinstance(value, dict) and "extends" in value else "pack"
    if kind == "overlay" and isinstance(value["extends"].value, str):
        base_ref = _extended(path, value["extends"].value)
        base: tuple[list, list] = ([], [])
        if base_ref is not None:
            _warn(_load(base_ref, base[0]), base[1])
        game = _overlay(path, problems, warned, base, base_ref or path, path)
        if game is not None:
            from engine.pack.modefacts import mode_problems
            errors, warnings = mode_problems([("its flow", game)], {str(path.resolve())})
            problems.extend(errors)
            warned.extend(warnings)
    else:
        game = _warn(_load(path, problems), warned, path if kind == "overlay" else None)
    return Outcome(game.pack_id if game and kind == "pack" else str(path), kind,
                   _unique(problems), _unique(warned))


def check_target(arg: str) -> list[Outcome]:
    """The verdicts for one argument: a pack id, a pack folder, a YAML file or a folder."""
    from engine.pack.confine import links_out
    from engine.pack.loader import PACK_FILE, resolve_ref
    path = Path(arg).expanduser()
    if path.is_dir() and not (path / PACK_FILE).is_file():
        files = yaml_files([path])
        if not files:
            return [Outcome(arg, "folder", [Problem(f"{arg}: no pack.yaml and no .yaml files")])]
        return [Outcome(str(f), "file", [Problem(f"{f} leads outside {arg}; not read")])
                if links_out(f, path) else check_file(f) for f in files]
    if path.is_file():
        return [check_file(path)]
    try:
        return [check_pack(resolve_ref(arg))]
    except PackError as exc:
        return [Outcome(arg, "pack", exc.problems)]


def _problem_dict(p: Problem) -> dict:
    d: dict = {"file": None, "line": None, "col": None}
    d.update(p.to_dict())
    d.update(message=cut(p.message), hint=cut(p.hint) if p.hint else None)
    return d


def _play_targets(arg: str) -> list[str]:
    """What `--play` plays for one argument: a folder's files one by one, else itself."""
    from engine.pack.loader import PACK_FILE
    path = Path(arg).expanduser()
    if path.is_dir() and not (path / PACK_FILE).is_file():
        return [str(f) for f in yaml_files([path])]
    return [arg]


def _play(targets: list[str], outcomes: list[Outcome], n: int, mode, house, seed: int) -> list:
    """Play each target's games (engine.coverage.run); what play shows wrong becomes the
    outcome's problems. [(outcome, coverage)]; stops at Ctrl-C with what was played."""
    from engine.coverage.run import play
    found = []
    k = 0
    for arg in targets:
        for ref in _play_targets(arg):
            o = outcomes[k] if k < len(outcomes) else None
            k += 1
            if o is None or o.problems:  # what does not load cannot be played
                continue
            cov = play(ref, n, mode=mode, house=house, seed=seed)
            if cov is None:
                continue
            o.problems += cov.tally.problems
            found.append((o, cov))
            if cov.tally.interrupted:
                return found
    return found


def validate(
    targets: Annotated[list[str], typer.Argument(
        metavar="PATH_OR_PACK...",
        help="Pack ids, pack folders, pack/overlay YAML files, scenario files or folders.")],
    as_json: JsonOpt = False,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Warnings are problems: exit 1 when there is one.")] = False,
    play_n: Annotated[int | None, typer.Option(
        "--play", metavar="N", parser=whole(1),
        help="Also play N games with each of the pack's policies and with random bots, in "
             "every mode the file applies to, and warn of what they never reach.")] = None,
    mode: Annotated[str | None, typer.Option(
        "--mode", "-m", help="With --play: play this mode only.")] = None,
    house: Annotated[list[str] | None, typer.Option(
        "--house", metavar="FILE", help="With --play: add this house rule to every game played. "
        "Repeatable.")] = None,
    seed: Annotated[int, typer.Option(
        "--seed", "-s", parser=whole(), help="With --play: the master seed of the games (game "
        "k is the one `horde sim --seed` plays k-th).")] = 0,
    all_errors: AllErrorsOpt = False,
) -> None:
    """Check packs (base, every mode, every house rule), overlays and scenario files;
    with --play, play them and report what no game reached."""
    from engine.coverage.run import MAX_PLAY
    if play_n is None and (mode or house):
        raise HordeError("--mode and --house choose the games --play plays",
                         hint="add --play N (e.g. --play 20)")
    if play_n is not None and play_n > MAX_PLAY:
        raise HordeError(f"--play {play_n}: at most {MAX_PLAY} games per mode and bot",
                         hint="docs/limits.md says why")
    outcomes = [o for t in targets for o in check_target(t)]
    if strict:
        for o in outcomes:
            o.problems, o.warnings = o.problems + o.warnings, []
    covered = _play(targets, outcomes, play_n, mode, list(house or []), seed) if play_n else []
    coverage = {id(o): cov for o, cov in covered}
    problems = [p for o in outcomes for p in o.problems]
    warned = [w for o in outcomes for w in o.warnings]
    console = out()
    if as_json:
        limit = problems_shown()
        report = {"valid": not problems,
                  "problems": [_problem_dict(p) for p in problems[:limit]],
                  "warnings": [_problem_dict(w) for w in warned[:limit]],
                  "more_problems": len(problems[limit:]) if limit is not None else 0,
                  "more_warnings": len(warned[limit:]) if limit is not None else 0,
                  "checked": [{"name": o.name, "summary": o.summary, "valid": not o.problems}
                              for o in outcomes]}
        if play_n:
            from engine.coverage.report import to_json
            report["coverage"] = [to_json(o.name, cov.tally, cov.variants, cov.mine)
                                  for o, cov in covered]
        console.file.write(json.dumps(report, indent=1) + "\n")
    else:
        left = problems_shown()  # one budget for the whole run, problems and warnings alike
        hidden = {"problem": 0, "warning": 0}
        for o in outcomes:
            if o.problems:
                console.print(Text(f"✗ {o.name} ({o.summary}): "
                                   f"{_plural(len(o.problems), 'problem')}", style="red"))
            else:
                console.print(Text(f"✓ {o.name} ({o.summary})"
                                   + (f": {_plural(len(o.warnings), 'warning')}" if o.warnings else ""),
                                   style="green"))
            for word, found, style in (("problem", o.problems, ""),
                                       ("warning", o.warnings, "yellow")):
                shown = found if left is None else found[:left]
                for k in range(0, len(shown), 100):  # Rich's cost is per call; its memory per text
                    console.print(Text("\n".join(("warning: " if style else "") + p.format()
                                                 for p in shown[k:k + 100]), style=style))
                hidden[word] += len(found) - len(shown)
                if left is not None:
                    left -= len(shown)
            cov = coverage.get(id(o))
            if cov is not None:
                left = _print_coverage(console, cov, left, hidden)
        for word, n in hidden.items():
            if n:
                console.print(Text(more_line(n, word)))
    if any(cov.tally.interrupted for _, cov in covered):
        err().print(Text("Interrupted: reporting the games that were played.", style="yellow"))
        raise typer.Exit(130)
    if problems:
        raise typer.Exit(1)


def _print_coverage(console, cov, left: int | None, hidden: dict) -> int | None:
    """The played line, the summary and the warnings of one argument's games."""
    from engine.coverage.report import played, summary, warnings
    tally = cov.tally
    console.print(Text(f"  {played(tally, cov.variants)}"))
    console.print(Text(f"  {summary(tally.counts(cov.mine))}"))
    found = warnings(tally, cov.mine)
    shown = found if left is None else found[:left]
    for k in range(0, len(shown), 100):
        console.print(Text("\n".join("warning: " + p.format() for p in shown[k:k + 100]),
                           style="yellow"))
    hidden["warning"] += len(found) - len(shown)
    return None if left is None else left - len(shown)


def register(app: typer.Typer) -> None:
    app.command("validate")(validate)
