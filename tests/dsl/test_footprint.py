"""Footprints: what a snippet may read and write, and the end checks they let the machine skip."""

from __future__ import annotations

import difflib
import gc
from pathlib import Path

import pytest

import engine
from engine.dsl import footprint
from engine.dsl.facts import RESULT
from engine.dsl.footprint import ANY, OTHER
from engine.flow import effects
from tests.dsl.footprint_golden import HERE as FOOTPRINTS
from tests.dsl.footprint_golden import PACKS, lines
from tests.goldens.playthrough import name

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini"


@pytest.fixture(scope="module")
def game():
    return engine.load(MINI)


def _action(game, name):
    return next(a for a in game.actions if a.id == name)


def test_writes_follow_procedures_and_builtins(game):
    assert footprint.writes(game, _action(game, "poke").fx) == {"tag"}
    assert footprint.writes(game, _action(game, "score").fx) == {"score", OTHER}  # bump: a field, emit
    assert footprint.writes(game, _action(game, "draw").fx) == {OTHER}  # zones only


def test_reads_of_conditions(game):
    assert footprint.reads(game, _action(game, "poke").guard or _action(game, "poke").cond) == {"tag", "rounds"}
    assert footprint.reads(game, game.end[0].when) == {"score"}
    assert footprint.reads(game, game.invariants[0].check) == {OTHER}


@pytest.mark.parametrize("source, expected", [
    ("current.score = 1", {"score"}),
    ("x.seat = 1", {"seat"}),  # a value of unknown type: the field by its name
    ("e.power = 1", {"power"}),  # an entity's record, written in place
    ("game.trace += [1]", {"trace"}),
    ("xs['k'] = 1", {"k"}),
    ("xs[n] = 1", {ANY}),  # a computed key
    ("y = 1\ny -= 1", {ANY}),  # a local changed in place: it may be a list the state holds
    ("bump(n=1, p=me)", {ANY}),  # a procedure called by name: not followed
    ("bump(me, 1)", {"score", OTHER}),  # followed: a field, and emit
    ("forever(1)", {ANY}),  # a procedure that calls itself
    ("draw(deck, me.hand)", {OTHER}),
    ("win(me)", {RESULT}),
    ("copy(e, pile)", {ANY}),  # a builtin that does not say what it writes
    ("roll(d6)\nlog('hi')\nlog('{} has {}', me, me.score)", set()),
])
def test_writes_of_effects(game, source, expected):
    scope = {"me": "player", "x": "any", "e": "ent", "xs": "list", "n": "int"}
    assert footprint.writes(game, game.compile_expr(source, scope, effect=True)) == expected


@pytest.mark.parametrize("source, expected", [
    ("count([1, 2])", set()),  # the size of a list reads what the list does, no zone
    ("empty([p for p in players if p.tag == ''])", {"tag"}),
    ("count(me.hand)", {OTHER}),
    ("'ace' in me.hand", {OTHER}),
    ("me.score", {"score"}),
    ("current.score", {ANY, "score"}),  # the current player changes between effects
    ("turn.acted + game.rounds", {ANY, "acted", "rounds"}),  # and so does the turn
    ("e.id", {"id"}),
    ("twice(me.score)", {"score"}),
    ("opponents(me)", {ANY}),  # a builtin that does not say what it reads
])
def test_reads_of_expressions(game, source, expected):
    scope = {"me": "player", "e": "ent"}
    assert footprint.reads(game, game.compile_expr(source, scope)) == expected


def test_the_size_of_a_procedures_list_reads_no_zone(tmp_path):
    """`count(p())` reads a zone only when p's value may be one: not when p makes a list."""
    text = (MINI / "pack.yaml").read_text().replace("  twice:\n", "  listed:\n    value: '[1, 2]'\n"
                                                    "  zoned:\n    value: me_hand()\n  me_hand:\n"
                                                    "    value: deck\n  twice:\n")
    (tmp_path / "pack.yaml").write_text(text)
    g = engine.load(tmp_path)
    assert footprint.reads(g, g.compile_expr("count(listed())")) == set()
    assert footprint.reads(g, g.compile_expr("count(zoned())")) == {OTHER}


@pytest.mark.parametrize(("pack", "mode"), PACKS, ids=[name(p, m)[:-4] for p, m in PACKS])
def test_every_snippet_of_every_pack_has_its_golden_footprint(pack, mode):
    """What the analyses answer for each snippet of each pack and mode, as reviewed in
    tests/dsl/footprints/ (written by the analyses of generated Python these replaced,
    and unchanged since). To change them on purpose: `python -m tests.dsl.footprint_golden`."""
    want = (FOOTPRINTS / name(pack, mode)).read_text(encoding="utf-8").splitlines()
    got = lines(pack, mode)
    if got != want:
        diff = list(difflib.unified_diff(want, got, "golden", "now", n=1, lineterm=""))
        pytest.fail(f"{name(pack, mode)}: footprints changed:\n" + "\n".join(diff[:40]))


@pytest.mark.parametrize("a, b, met", [
    ({"x"}, {"y"}, False), ({"x"}, {"x", "y"}, True), ({OTHER}, {OTHER}, True),
    ({"x"}, {OTHER}, False), ({ANY}, set(), True), (set(), {ANY}, True),
])
def test_meet(a, b, met):
    assert footprint.meet(frozenset(a), frozenset(b)) is met


def test_end_checks_run_only_after_effects_that_may_matter():
    """Roll Them Bones ends when everyone is out: rolling dice cannot do that, being
    bitten can. Skipping the other checks leaves every game as it was: the same seeds
    give the same logs (the fingerprints of tests/bench cover whole games)."""
    g = engine.load("roll-them-bones")
    rolls = next(n.fx for n in g.nodes if n.kind == "do" and n.fx.facts.builtins == {"roll", "log"})
    bitten = next(n.fx for n in g.nodes if n.kind == "do" and "hurt" in n.fx.facts.procs)
    assert not effects.may_end(g, rolls)
    assert effects.may_end(g, bitten)


def test_a_game_whose_end_holds_at_the_start_is_over_at_once(tmp_path):
    """Effects skip the end check when they cannot change what it reads, so the check
    made when the flow starts is what ends a game that is over before it begins."""
    text = (MINI / "pack.yaml").read_text()
    assert 'when: "any([p.score >= params.goal' in text
    (tmp_path / "pack.yaml").write_text(text.replace(
        'when: "any([p.score >= params.goal', 'when: "any([p.tag == \'\' or p.score >= params.goal'))
    S = engine.load(tmp_path).new_state(players=2, seed=1)
    assert S.over


def test_snippets_compiled_and_dropped_get_their_own_footprints(game):
    """A scenario's setup is compiled for one run and dropped; a snippet made later may get
    its `id()`. Every snippet must still be judged by its own code, not a dropped one's."""
    sources = ["me.score = 1", "game.rounds = 1", "me.tag = 'x'"]
    expected = [{"score"}, {"rounds"}, {"tag"}]
    me = {"me": "player"}
    for k in range(300):
        c = game.compile_expr(sources[k % 3], effect=True, scope=me)
        assert footprint.writes(game, c) == expected[k % 3]
        assert effects.may_end(game, c) is (k % 3 == 0)  # the end reads `score`
        del c
        # the snippet is freed now (it sits in reference cycles), so its id is free; the young
        # generations hold it, and collecting only those keeps this fast beside a whole
        # suite's worth of old objects (a full collection each time took a minute there)
        gc.collect(1)
