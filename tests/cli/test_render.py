"""The terminal renderer: what each viewer may see, and that it fits 80 columns."""

from __future__ import annotations

import dataclasses
import io

import pytest
from rich.console import Console
from rich.text import Text

import engine
from engine.dsl.values import Z
from engine.errors import PackError
from engine.render import Renderer, result_text
from engine.render.values import bar
from tests.cli.conftest import PACK


def text_of(renderable, width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def deal(S):
    """Give P0 and P1 the first item of the stack each, before the game starts."""
    for seat in (0, 1):
        S.move_ent(S.zones["item_stack"][-1], Z("item", seat))


@pytest.fixture(scope="module")
def game():
    return engine.load(PACK)


@pytest.fixture
def state(game):
    return game.new_state(players=3, seed=5, prepare=deal)


def item_of(S, seat: int) -> str:
    return S.ents[S.zones[f"item#{seat}"][0]]["id"]


def test_a_player_sees_their_own_hidden_zone_and_only_the_size_of_others(state):
    mine, theirs = item_of(state, 0), item_of(state, 1)
    shown = text_of(Renderer(state.game).render(state, 0))
    p0 = next(line for line in shown.splitlines() if "P0 (you)" in line)
    p1 = next(line for line in shown.splitlines() if " P1" in line and "(you)" not in line)
    assert mine in p0
    assert "hidden (1)" in p1 and (theirs not in p1 or theirs == mine)


def test_a_spectator_sees_no_hidden_zone(state):
    shown = text_of(Renderer(state.game).render(state, None))
    assert "spectator" in shown
    assert "(you)" not in shown
    p0 = next(line for line in shown.splitlines() if " P0" in line)
    assert "hidden (1)" in p0


def test_the_view_fits_80_columns(game):
    S = game.new_state(players=6, seed=9)
    shown = text_of(Renderer(game, names=["random"] * 6).render(S, 2))
    assert max(len(line) for line in shown.splitlines()) <= 80
    assert "Distance" in shown and "to decide" in shown


def test_int_with_max_is_a_bar_and_bool_with_text_shows_it(state):
    assert bar(3, 5).plain == "███░░ 3/5"
    assert bar(0, 0).plain == "░░░░░ 0/0"
    state.pl[1]["out"] = True
    shown = text_of(Renderer(state.game).render(state, None))
    p1 = next(line for line in shown.splitlines() if " P1" in line)
    assert p1.rstrip().endswith("out")


def test_extension_pictures_are_shown(game):
    from engine.extensions import Extension

    class Picture(Extension):
        def render(self, S, viewer):
            return Text(f"[picture for {viewer}]")

    g = engine.load(PACK)
    g = dataclasses.replace(g, extensions={**g.extensions, "picture": Picture()})
    shown = text_of(Renderer(g).render(g.new_state(players=2, seed=1), 1))
    assert "[picture for 1]" in shown


def test_markup_in_values_is_printed_as_is(state):
    state.turn["dice"] = ["[bold]x[/bold]"]
    shown = text_of(Renderer(state.game).render(state, None))
    assert "[bold]x[/bold]" in shown


def test_a_malformed_view_is_a_pack_error_with_hints():
    g = dataclasses.replace(engine.load(PACK), view={"players": [{"label": "X", "value": "p.distanse"}],
                                                      "zone": ["nope"]})
    with pytest.raises(PackError) as exc:
        Renderer(g)
    text = str(exc.value)
    assert "did you mean 'distance'" in text
    assert "unknown section 'zone'" in text
    with pytest.raises(PackError, match="item_stack"):
        Renderer(dataclasses.replace(g, view={"zones": ["item_stak"], "turn": "x"}))


def test_result_text(game):
    S = game.new_state(players=2, seed=1)
    assert result_text(S) == "not finished"
    S.over, S.winners = True, [0, 1]
    assert result_text(S) == "P0 and P1 win"
    S.winners, S.limit_hit = [], True
    assert result_text(S) == "turn limit reached: no winner"
