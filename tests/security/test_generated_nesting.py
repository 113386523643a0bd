"""Snippets nested past what Python compiles are refused at their place, with a way out.

Python compiles at most 20 loops inside each other in one function ("too many statically
nested blocks"), 100 levels of indentation, and an `elif` chain by recursion; 21 nested
`for` loops in a pack gave that SyntaxError from inside horde. The compiler now refuses
more than MAX_BLOCKS nested blocks and MAX_BRANCH_DEPTH levels of ifs, elifs and loops;
expressions are capped by the parser (MAX_NESTING), and whatever is left under that cap
compiles, in a snippet, a procedure's direct function and a legality plan alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.dsl.parser import MAX_NESTING
from engine.dsl.procs import direct_proc
from engine.dsl.pysource import MAX_BLOCKS, MAX_BRANCH_DEPTH
from engine.errors import DSLSyntaxError, HordeError, PackError, RuleRuntimeError
from engine.flow.labels import legal_bindings
from engine.flow.machine import evaluate
from engine.flow.plans import first_may_act

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini"


@pytest.fixture(scope="module")
def game():
    return engine.load(MINI)


def loops(n: int, kinds=("for x{k} in [1, 2]:", "repeat 1:", "if true:")) -> str:
    """`n` blocks inside each other, of the kinds in turn, adding to game.rounds inside."""
    lines = ["    " * k + kinds[k % len(kinds)].format(k=k) for k in range(n)]
    return "\n".join([*lines, "    " * n + "game.rounds += 1"])


def test_blocks_up_to_the_limit_compile_and_run(game):
    S = game.new_state(players=2, seed=1)
    before = S.vars["rounds"]
    evaluate(S, game.compile_expr(loops(MAX_BLOCKS), effect=True), {})
    assert S.vars["rounds"] == before + 2 ** len(range(0, MAX_BLOCKS, 3))


@pytest.mark.parametrize("kinds", [("for x{k} in [1]:",), ("repeat 1:",), ("if true:",),
                                   ("for x{k} in [1]:", "if true:")])
def test_one_block_more_is_refused_at_its_line(tmp_path, kinds):
    text = (MINI / "pack.yaml").read_text()
    head, tail = text.split("actions:\n", 1)
    body = "\n".join("      " + line for line in loops(MAX_BLOCKS + 1, kinds).split("\n"))
    (tmp_path / "pack.yaml").write_text(head + "actions:\n  - id: deep\n    at: main\n    do: |\n"
                                        + body + "\n" + tail)
    with pytest.raises(PackError) as exc:
        engine.load(tmp_path)
    line = head.count("\n") + 5 + MAX_BLOCKS  # the innermost block's own line
    assert f"pack.yaml:{line}:{7 + 4 * MAX_BLOCKS}: blocks nested more than {MAX_BLOCKS} deep; " \
           "move the inner part into a procedure" in str(exc.value)
    assert "SyntaxError" not in str(exc.value)


def test_a_procedure_s_direct_function_holds_blocks_up_to_the_limit(tmp_path):
    """A procedure's body is compiled once more, inside a try (2 of Python's 20 blocks)."""
    text = (MINI / "pack.yaml").read_text()
    body = "\n".join("      " + line for line in loops(MAX_BLOCKS, ("for x{k} in [n]:",)).split("\n"))
    text = text.replace("procedures:\n", "procedures:\n  deep:\n    params: [n]\n    do: |\n" + body + "\n", 1)
    (tmp_path / "pack.yaml").write_text(text)
    g = engine.load(tmp_path)
    S = g.new_state(players=2, seed=1)
    before = S.vars["rounds"]
    direct_proc(g, "deep")(S, 1)
    assert S.vars["rounds"] == before + 1
    assert g.effect_procs["deep"][1].direct.__name__ == "_direct"  # not the general way


def _chain(elifs: int, orelse: bool) -> str:
    src = "if game.rounds == -1:\n    pass\n" + "elif game.rounds == -1:\n    pass\n" * elifs
    return src + ("else:\n    game.rounds += 1\n" if orelse else "")


def test_an_elif_chain_up_to_the_limit_compiles(game):
    S = game.new_state(players=2, seed=1)
    before = S.vars["rounds"]
    evaluate(S, game.compile_expr(_chain(MAX_BRANCH_DEPTH - 1, True), effect=True), {})
    assert S.vars["rounds"] == before + 1


def test_a_longer_elif_chain_is_refused(game):
    """Python compiles `elif` as an `if` in the `else` before it, by recursion: 5000
    branches ran out of stack inside compile() (RecursionError)."""
    for src in (_chain(MAX_BRANCH_DEPTH, False), _chain(5000, True),
                "for x in [1]:\n" + "\n".join("    " + ln for ln in _chain(MAX_BRANCH_DEPTH - 1, True).split("\n"))):
        with pytest.raises(PackError) as exc:
            game.compile_expr(src, effect=True)
        assert f"ifs, elifs and loops nested more than {MAX_BRANCH_DEPTH} deep" in str(exc.value)


# Expressions: every form nested as deep as the parser lets it compiles (Python refuses
# more than 200 brackets inside each other, and recurses on the depth of a tree).
FORMS = ["-({})", "not ({})", "1 not in ({})", "1 in [{}]", "abs({})", "[{}]", "[1][{}]",
         "[y for y in ({})]", "bump(n={}, p=current)", "min({}, 1)", "({}) + 1", "log('{{}}', {})",
         "twice({})", "[current][{}].score", "count([{}])", "players[{}].hand", "({})[0]"]


@pytest.mark.parametrize("form", FORMS)
def test_every_expression_the_parser_takes_compiles(game, form):
    src, n = "1", 0
    while True:
        deeper = form.format(src)
        try:
            game.compile_expr(deeper, effect=True)
        except PackError as exc:
            if "nested too deeply" in str(exc):
                break
            assert "internal" not in str(exc)  # a type error (a number indexed) is fine
        src, n = deeper, n + 1
        assert n <= MAX_NESTING
    assert n >= 10
    with pytest.raises(DSLSyntaxError):
        from engine.dsl.parser import parse_program

        parse_program(form.format(src))


def _deep_pack(tmp_path: Path, leaf: str, cond: str) -> Path:
    text = (MINI / "pack.yaml").read_text()
    text = text.replace("procedures:\n", f"procedures:\n  deep:\n    params: [x]\n    value: \"{leaf}\"\n", 1)
    text = text.replace("actions:\n", "actions:\n  - id: probe\n    at: start\n    who: current\n"
                                      f"    if: \"{cond}\"\n    do: pass\n", 1)
    (tmp_path / "pack.yaml").write_text(text)
    return tmp_path


def _nest(form: str, n: int, inner: str) -> str:
    for _ in range(n):
        inner = form.format(inner)
    return inner


@pytest.mark.parametrize("form", ["({}) not in [1]", "1 not in [{}]"])
def test_a_procedure_written_into_a_deep_condition_still_compiles(tmp_path, form):
    """Legality plans write leaf `value:` procedures into the conditions that call them:
    a condition at the parser's limit calling a procedure at the limit is twice as deep,
    which rewriting it (recursively, in Python) could not take when the plan was made
    some 400 calls deep in a stack (a bot's search): it is then left as it was."""
    n = next(n for n in range(MAX_NESTING, 0, -1) if _parses(_nest(form, n, "deep(1)")))
    g = engine.load(_deep_pack(tmp_path, _nest(form, n, "x"), _nest(form, n - 3, "deep(1)")))
    S = _in_deep_stack(400, lambda: g.new_state(players=2, seed=1))  # which reaches the window
    for ask in (lambda: first_may_act(S, "start", [0, 1]), lambda: legal_bindings(S, "start", S.cur, {})):
        try:
            ask()
        except RuleRuntimeError:
            pass  # the values do not fit; what matters is that the plan compiled


def _in_deep_stack(frames: int, f):
    return f() if frames == 0 else _in_deep_stack(frames - 1, f)


def _parses(src: str) -> bool:
    from engine.dsl.parser import parse_expr

    try:
        parse_expr(src)
    except HordeError:
        return False
    return True
