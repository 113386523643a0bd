"""A pack's names never stand for the generated code's own (SECURITY.md, "generated code").

Generated code has names of its own (`S` the state, `L` the locals, `_items`, `stack`...)
and a pack's names behind a prefix of their kind (`v_S`, `_pc_x`, `_zr_hand`). These
tests give the pack names drawn from Python's keywords, its builtins, dunders, those
helpers, prefixes and other scripts, in every place a name can stand, and check that a
snippet either compiles and does what it says (the helper it is named like still works)
or is refused with a position; and that every prefixed name in the code that bundled
packs compile to is a pack name of that kind, so no helper is named in their space.
"""

from __future__ import annotations

import keyword
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.dsl import pysource
from engine.dsl.builtins import BUILTINS
from engine.dsl.compiler import compile_snippet
from engine.dsl.parser import KEYWORDS as DSL_KEYWORDS
from engine.dsl.parser import parse_program
from engine.errors import DSLSyntaxError, HordeError
from engine.flow.labels import legal_bindings
from engine.flow.machine import evaluate

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini"
HELPERS = ["S", "L", "_items", "_get", "_set", "_in", "_type", "_P", "_E", "_list", "_o", "_v", "_",
           "_snippet", "_direct", "_D", "_proc", "_CATCH", "stack", "fr", "i", "k", "found", "seats",
           "evaluate", "push", "_b_count", "_pc_bump", "_zr_deck", "_c_x", "_pm_goal", "v_x", "_my_rec"]
NAMES = sorted({*keyword.kwlist, *keyword.softkwlist, "__debug__", "__import__", "__class__",
                "__builtins__", "__name__", "__dict__", "print", "eval", "exec", "open", "globals",
                *HELPERS, "ﬁeld", "ñ", "x٣", "\u212a", "é", "x y", "1x", ""})
IDENT = st.one_of(st.sampled_from(NAMES), st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True))

# snippets with a name in every place one stands; `check` says what a compiled one does
TEMPLATES = [
    ("{a} = 2\ngame.rounds = {a} + 1", lambda S, a, b: S.vars["rounds"] == 3),
    ("game.rounds = 0\nfor {a} in [1, 2]:\n    game.rounds += {a}", lambda S, a, b: S.vars["rounds"] == 3),
    ("game.rounds = sum([{a} * 2 for {a} in [1, 2]])", lambda S, a, b: S.vars["rounds"] == 6),
    ("{a} = [1]\n{b} = 2\ngame.rounds = count({a}) + {b}", lambda S, a, b: a == b or S.vars["rounds"] == 3),
    ("emit('hit', {a}=1, {b}=2)", lambda S, a, b: S.events[-1] == ("hit", {a: 1, b: 2})),
    ("log('{{}}', 1, {a}=1)", None), ("roll(d6, {a}=1)", None), ("min(1, 2, {a}=3)", None),
    ("bump(me, {a}=1)", None), ("bump({a}=me, n=1)", None), ("twice({a}=1)", None),
    ("x = me.{a}", None), ("me.{a} = 1", None), ("me.{a} += 1", None), ("x = event.{a}", None),
    ("turn.{a} = 1", None), ("game.{a} += 1", None), ("x = params.{a}", None), ("x = {a}.{b}", None),
    ("{a}.{b} = 1", None), ("x = {a}[0]", None), ("{a}(1)", None), ("x = {a}({b}=1)", None),
    ("call {a}()", None), ("call {a}({b}=1)", None), ("x = [{a} for {b} in players]", None),
    ("repeat 2:\n    {a} = 1", None), ("if {a}:\n    {b} = 1\nelif {b}:\n    pass", None),
]


@pytest.fixture(scope="module")
def mini():
    g = engine.load(MINI)
    return g, g.new_state(players=2, seed=1)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=st.sampled_from(TEMPLATES), a=IDENT, b=IDENT)
def test_any_name_in_any_place_compiles_right_or_is_refused_at_a_position(mini, template, a, b):
    g, base = mini
    src = template[0].format(a=a, b=b)
    try:
        tree = parse_program(src)
    except DSLSyntaxError as exc:
        line, col = exc.pos
        assert 1 <= line <= src.count("\n") + 1 and col >= 1
        return
    c, problems = compile_snippet(tree, g.env, {"me": "player"}, expr=False, pure=False)
    if problems:
        assert all(p.pos[0] >= 1 and p.pos[1] >= 1 for p in problems), problems
        assert not any("internal" in p.message for p in problems), problems
        return
    S = base.clone()
    try:
        evaluate(S, c, {"me": S.players[0]})
    except HordeError:
        return  # a rule error at run time (a value of the wrong kind), said in the pack's words
    if template[1] is not None:
        assert template[1](S, a, b), (src, c.source)


def _words_of(files) -> set[str]:
    return {w for f in files for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", Path(f).read_text())}


def _names(code):
    yield from (*code.co_names, *code.co_varnames, *code.co_cellvars, *code.co_freevars)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            yield from _names(const)


def test_no_prefix_is_the_start_of_another():
    for p in pysource.PREFIXES:
        assert pysource.IDENT.fullmatch(p + "x")
        assert not keyword.iskeyword(p + "x")
        assert not [q for q in pysource.PREFIXES if q != p and q.startswith(p)], p


@pytest.mark.parametrize("ref", [str(MINI), "roll-them-bones", "theyre-coming", "defcon-z"])
def test_every_prefixed_name_in_generated_code_is_a_pack_name_of_its_kind(ref, monkeypatch):
    compiled = []
    real = pysource.compile_source

    def record(source, filename, span=None):
        code = real(source, filename, span)
        compiled.append(code)
        return code

    monkeypatch.setattr(pysource, "compile_source", record)
    g = engine.load(ref)
    S = g.new_state(players=min(max(2, g.players_min), g.players_max), seed=3)
    r = random.Random(3)
    for _ in range(60):  # steppers, plans, windows, direct procedures and the end check
        if S.over:
            break
        S.apply(r.choice(S.decision().actions))
    words = _words_of(g.files)
    kinds = {"v_": words, "_b_": set(BUILTINS), "_c_": set(g.env.consts), "_pc_": set(g.effect_procs),
             "_pm_": set(g.env.params), "_zr_": set(g.env.zones), "_my_zone_": set(g.env.zones),
             "_my_ids_": set(g.env.zones)}
    assert set(kinds) == set(pysource.PREFIXES)
    seen = set()
    for code in compiled:
        for name in _names(code):
            for prefix, allowed in kinds.items():
                if name.startswith(prefix):
                    assert name[len(prefix):] in allowed, f"{name} in {code.co_filename}"
                    seen.add(prefix)
    assert {"v_", "_b_", "_pc_"} <= seen and len(compiled) > 20


# procedures and action parameters whose names are Python's words or the helpers' (the
# schema's identifiers: lowercase ASCII); each one is compiled, called directly and inlined
WORDS = sorted({w for w in [*keyword.kwlist, *keyword.softkwlist, *HELPERS, "print", "eval"]
                if re.fullmatch(r"[a-z_][a-z0-9_]*", w) and w not in DSL_KEYWORDS})


def test_procedures_and_parameters_named_like_python_s_words(tmp_path):
    procs = "".join(f"  {w}:\n    params: [{w}]\n    value: {w} + 1\n" for w in WORDS)
    procs += "".join(f"  do_{w}:\n    params: [n]\n    do: |\n      for {w} in [n]:\n"
                     f"          game.rounds += {w}\n" for w in WORDS)
    acts = "".join(f"  - id: act-{k}\n    at: main\n    params: {{{w}: '[1, 2]'}}\n    if: {w} > 1\n"
                   f"    do: game.rounds += {w}\n" for k, w in enumerate(WORDS))
    text = (MINI / "pack.yaml").read_text().replace("procedures:\n", "procedures:\n" + procs, 1)
    (tmp_path / "pack.yaml").write_text(text.replace("actions:\n", "actions:\n" + acts, 1))
    g = engine.load(tmp_path)
    S = g.new_state(players=2, seed=1)
    for w in WORDS:
        assert evaluate(S, g.compile_expr(f"{w}(1) + {w}({w}=2)"), {}) == 5, w
        before = S.vars["rounds"]
        evaluate(S, g.compile_expr(f"do_{w}(3)", effect=True), {})
        assert S.vars["rounds"] == before + 3, w
    actions = legal_bindings(S, "main", S.cur, {})  # through the legality plan
    assert all(f"act-{k}({w}=2)" in actions and f"act-{k}({w}=1)" not in actions for k, w in enumerate(WORDS))
