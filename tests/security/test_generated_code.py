"""No pack text forms Python the compiler did not mean (SECURITY.md, "generated code").

Snippets compile to Python source. A named argument used to be written into it as it
was, so `emit('hit', class=1)` or `roll(d6, lambda=1)` gave Python's own SyntaxError from
inside horde, and an operator or a param's value reached the source as text. Now a
name stands there only behind a prefix of its kind or as a checked keyword, a value only
as a literal or by name, an operator only from a fixed table; and generated code that
still does not compile is a clear error, not a crash.
"""

from __future__ import annotations

import keyword
from pathlib import Path

import pytest

import engine
from engine.dsl import ast, pysource
from engine.dsl.compiler import compile_snippet
from engine.dsl.parser import KEYWORDS, parse_program
from engine.errors import DSLSyntaxError, HordeError, PackError
from engine.flow.machine import evaluate

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini"
# Python's keywords that are names in the effect language (not its own keywords, `if`...)
PYTHON_WORDS = sorted({*keyword.kwlist, *keyword.softkwlist, "__debug__"} - KEYWORDS)


@pytest.fixture(scope="module")
def game():
    return engine.load(MINI)


def _run(game, src: str):
    """Compile effect `src` and run it on a new state; the state."""
    S = game.new_state(players=2, seed=1)
    evaluate(S, game.compile_expr(src, effect=True), {})
    return S


def pack_with(tmp_path: Path, action_do: str) -> tuple[Path, int]:
    """The mini pack with one more action doing `action_do`; the line of its `do:`."""
    text = (MINI / "pack.yaml").read_text()
    head, tail = text.split("actions:\n", 1)
    extra = f"  - id: probe\n    at: main\n    do: \"{action_do}\"\n"
    (tmp_path / "pack.yaml").write_text(head + "actions:\n" + extra + tail)
    return tmp_path / "pack.yaml", head.count("\n") + 4


# ---- named arguments ----

@pytest.mark.parametrize("word", PYTHON_WORDS)
def test_an_event_field_may_be_named_like_a_python_keyword(game, word):
    S = _run(game, f"emit('hit', {word}=1, other=2)")
    assert S.events[-1] == ("hit", {word: 1, "other": 2})


def test_a_trigger_reads_a_field_named_like_a_python_keyword(game):
    S = game.new_state(players=2, seed=1)
    c = game.compile_expr("event.class + event.lambda", {"event": "any"})
    assert evaluate(S, c, {"event": {"class": 2, "lambda": 3}}) == 5


@pytest.mark.parametrize("word", PYTHON_WORDS)
@pytest.mark.parametrize("call", ["roll(d6, {}=1)", "log('x', {}=1)", "min(1, 2, {}=3)", "abs(1, {}=2)"])
def test_a_builtin_given_a_python_keyword_says_it_is_no_parameter(game, call, word):
    with pytest.raises(PackError) as exc:
        game.compile_expr(call.format(word), effect=True)
    name = call.split("(")[0]
    assert f"'{word}' is not a parameter of {name}()" in str(exc.value)
    assert "SyntaxError" not in str(exc.value)


@pytest.mark.parametrize("word", ["class", "None", "lambda", "import", "__debug__"])
def test_a_procedure_given_a_python_keyword_says_it_is_no_parameter(game, word):
    with pytest.raises(PackError) as exc:
        game.compile_expr(f"bump(current, {word}=1)", effect=True)
    assert f"'{word}' is not a parameter of bump()" in str(exc.value)
    assert "its parameters: p, n" in str(exc.value)


def test_a_keyword_argument_error_points_into_the_pack(tmp_path):
    path, line = pack_with(tmp_path, "roll(d6, class=1)")
    with pytest.raises(PackError) as exc:
        engine.load(tmp_path)
    assert f"{path}:{line}:" in str(exc.value)
    assert "'class' is not a parameter of roll()" in str(exc.value)


@pytest.mark.parametrize(("src", "said"), [
    ("emit('x', a=1, a=2)", "emit(): 'a' is given twice"),
    ("bump(current, 1, n=2)", "bump(): 'n' is given twice"),
    ("bump(p=current, n=1, n=2)", "bump(): 'n' is given twice"),
    ("call bump(current, 1, p=current)", "unknown flow procedure"),
    # the builtin's own parameters: Python would say "got multiple values for argument"
    ("emit('x', event=1)", "emit(): a named argument cannot be called 'event'"),
    ("emit('x', S=1)", "emit(): a named argument cannot be called 'S'"),
])
def test_named_arguments_that_cannot_be_given(game, src, said):
    with pytest.raises(PackError) as exc:
        game.compile_expr(src, effect=True)
    assert said in str(exc.value)


def test_a_procedure_parameter_named_like_a_python_keyword_works(tmp_path):
    text = (MINI / "pack.yaml").read_text().replace(
        "procedures:\n", "procedures:\n  add:\n    params: [class, lambda]\n    value: class + lambda\n", 1)
    (tmp_path / "pack.yaml").write_text(text)
    g = engine.load(tmp_path)
    S = g.new_state(players=2, seed=1)
    assert evaluate(S, g.compile_expr("add(1, 2) + add(lambda=3, class=4)"), {}) == 10


# ---- values, operators, names ----

class _Sneaky:
    """A param value a program gives, whose repr is code."""

    def __repr__(self):
        return "__import__('os').getpid()"


@pytest.mark.parametrize("value", [_Sneaky(), 10 ** 40, [[1, 2], [3]], 2.5])
def test_a_param_that_is_no_literal_is_given_by_name(value):
    g = engine.load(MINI, params={"loop": value})
    c = g.compile_expr("params.loop")
    assert "__import__" not in c.source and "_pm_loop" in c.source
    assert evaluate(g.new_state(players=2, seed=1), c, {}) is value


def test_a_param_that_is_a_literal_is_folded_in():
    c = engine.load(MINI, params={"loop": 7}).compile_expr("params.loop + 1")
    assert "(7 + 1)" in c.source


def _compile(tree, scope=None):
    return compile_snippet(tree, engine.load(MINI).env, scope or {}, expr=True, pure=True)


@pytest.mark.parametrize("op", ["**", "+ 0 +", "if 1 else", "is", ""])
def test_an_operator_comes_from_the_table_only(op):
    """The parser makes only the language's operators; a tree with another one (made by
    other code) is refused, not written out."""
    tree = ast.BinOp((1, 1), op, ast.Const((1, 1), 1), ast.Const((1, 5), 2))
    c, problems = _compile(tree)
    assert c is None and "unsupported operator" in problems[0].message


def test_an_assignment_operator_comes_from_the_table_only():
    tree = ast.Program((1, 1), (ast.Assign((1, 1), ast.Name((1, 1), "x"), "= 1; y =", ast.Const((1, 5), 2)),))
    c, problems = compile_snippet(tree, engine.load(MINI).env, {}, expr=False, pure=False)
    assert c is None and "unsupported assignment" in problems[0].message


@pytest.mark.parametrize("bad", ["a) or (b", "x y", "ﬁeld", "", "1x", "x\n"])
def test_a_name_that_is_no_identifier_never_reaches_the_source(bad):
    """The parser makes only ASCII identifiers; a tree with another (made by other code) is
    an internal error before anything is compiled."""
    with pytest.raises(HordeError, match="cannot be a name in generated code"):
        _compile(ast.Name((1, 1), bad), {bad: "any"})
    with pytest.raises(HordeError, match="cannot be a name in generated code"):
        pysource.name("v_", bad)


def test_names_are_ascii_and_unnormalised():
    """Python reads `v_ﬁeld` as `v_field` (NFKC): the language has ASCII names only, so
    two names horde tells apart stay two; and a digit of another script is no number."""
    for src, char in [("x = ﬁeld", "ﬁ"), ("ﬁeld = 1", "ﬁ"), ("x = me.ﬁeld", "ﬁ"), ("x = ３", "３"),
                      ("x = ٣", "٣"), ("\u212a = 1", "\u212a")]:
        with pytest.raises(DSLSyntaxError) as exc:
            parse_program(src)
        want = "expected a number (digits 0-9), got" if char.isdigit() else "unexpected character"
        assert exc.value.problem.message == f"{want} {char!r}"
        assert exc.value.pos == (1, src.index(char) + 1)
    assert parse_program("x = 'ﬁeld ３'  # ﬁ").body[0].value.value == "ﬁeld ３"


def test_a_number_cannot_be_indexed(game):
    with pytest.raises(PackError, match="a number has no elements"):
        game.compile_expr("(1 + 2)[0]")


# ---- the net: generated code that does not compile ----

def test_generated_code_that_does_not_compile_is_an_error_at_the_snippet(tmp_path, monkeypatch):
    """Should the compiler ever write broken Python, the pack fails to load with an error at
    the snippet's place that says so, instead of a SyntaxError from inside horde."""
    path, line = pack_with(tmp_path, "game.rounds = 1 + 2")
    monkeypatch.setitem(pysource.OPERATORS, "+", ")")
    with pytest.raises(PackError) as exc:
        engine.load(tmp_path)
    text = str(exc.value)
    assert f"{path}:{line}:" in text
    assert "internal: generated code did not compile (SyntaxError" in text
    assert "bug in horde" in text


def test_the_net_turns_a_compile_error_into_a_horde_error():
    with pytest.raises(pysource.GeneratedCodeError) as exc:
        pysource.run("def f(:\n", "<horde:test>", {})
    assert str(exc.value).startswith("internal: generated code did not compile (SyntaxError")
    assert isinstance(exc.value, HordeError)


@pytest.mark.parametrize("error", [SyntaxError, RecursionError, MemoryError, ValueError, OverflowError])
def test_the_net_catches_every_way_compiling_can_fail(monkeypatch, error):
    """Which sources hit Python's compile limits differs between versions (3.13 compiles
    3,000 unary minuses and 21 nested loops that 3.11 refuses), so each failure is made
    to happen here."""
    def fails(*args):
        raise error("too deep")
    monkeypatch.setattr(pysource, "compile", fails, raising=False)  # found before the builtin
    with pytest.raises(pysource.GeneratedCodeError) as exc:
        pysource.run("x = 1\n", "<horde:test>", {})
    assert str(exc.value).startswith(f"internal: generated code did not compile ({error.__name__}")


def test_python_s_warnings_about_generated_code_are_not_shown(game, recwarn):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # `python -W error`: a warning would be an error
        with pytest.raises(PackError, match="a number has no elements"):
            game.compile_expr("params.loop[0]")  # 5[0]: a param's type is its value's
        c = game.compile_expr("max(params.loop, 1)[0]")  # 5[0] again, of a value of no known type
    assert not recwarn.list
    with pytest.raises(HordeError, match="a value of the wrong kind"):
        evaluate(game.new_state(players=2, seed=1), c, {})


def test_a_limit_is_written_only_as_a_whole_number():
    assert pysource.whole(40) == "40"
    for bad in ("40", 4.0, None, "1 or __import__('os')"):
        with pytest.raises(HordeError, match="cannot be a number in generated code"):
            pysource.whole(bad)
