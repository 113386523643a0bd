"""Facts: what a snippet does, recorded by the compiler from the language's own tree."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.dsl.facts import ANY, reached

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini"
SCOPE = {"me": "player", "e": "ent"}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Mini, with a flow procedure to start and procedures calling each other."""
    text = (MINI / "pack.yaml").read_text().replace("procedures:\n", """procedures:
  again:
    flow:
      - do: game.rounds += 1
  ping:
    params: [n]
    do: pong(n)
  pong:
    params: [n]
    do: ping(n)
  apex:
    do: |
      left()
      right()
  left:
    do: bottom()
  right:
    do: bottom()
  bottom:
    do: roll(d6)
""")
    path = tmp_path_factory.mktemp("facts")
    (path / "pack.yaml").write_text(text)
    return engine.load(path)


def facts(game, text, effect=True):
    return game.compile_expr(text, SCOPE, effect=effect).facts


def test_calls_of_procedures_builtins_and_flows(game):
    f = facts(game, "bump(me, 1)\nfor z in me.hand:\n    discard(z)\ncall again()")
    assert (f.procs, f.builtins, f.flows, f.binds) == ({"bump"}, {"discard"}, {"again"}, {"z"})
    assert f.frames and not f.ends and not f.pure  # `call` pushes a frame


def test_what_ends_the_game_or_is_not_followed(game):
    assert facts(game, "win(me)").ends and not facts(game, "lose(me)").ends
    assert facts(game, "bump(n=1, p=me)").frames  # by name: through Game.call_effect_proc
    assert not facts(game, "bump(me, 1)").frames


def test_pure_expressions_and_the_lists_they_make(game):
    f = facts(game, "[p.score for p in players if twice(p.score) > 1]", effect=False)
    assert f.pure and f.makes_list and f.binds == {"p"} and f.procs == {"twice"}
    assert not facts(game, "count([1])", effect=False).makes_list
    assert not facts(game, "roll(d6)").pure  # writes nothing a rule reads, but is an effect


def test_globals_are_the_names_the_code_reads(game):
    c = game.compile_expr("twice(me.score) + count(deck) + count([1])", SCOPE)
    assert c.facts.globals == {"_pc_twice", "_b_count", "_zr_deck", "_py_len", "_add"}
    assert c.facts.globals <= set(c.fn.__globals__) | {"_pc_twice"}


def test_a_board_word_is_not_known_to_leave_the_frames_alone():
    dz = engine.load("defcon-z")
    f = dz.compile_expr("pieces()").facts
    assert f.frames and f.reads == {ANY} and f.builtins == {"pieces"}


def test_reached_follows_procedures_once_and_stops_at_cycles(game):
    apex = game.effect_procs["apex"][1].facts
    found = reached(game.effect_procs, apex)
    assert found is not None and len(found) == 4  # apex, left, right, bottom: each once
    assert reached(game.effect_procs, facts(game, "ping(1)")) is None  # ping and pong call each other
    assert reached(game.effect_procs, facts(game, "bump(me, 1)")) is not None
    assert reached({}, facts(game, "bump(me, 1)")) is None  # a procedure the game lacks
    assert reached(game.effect_procs, None) is None  # no facts: nothing known
