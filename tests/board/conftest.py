"""A small pack with a grid board, written to a temporary folder for each test module.

Fixtures: `grid_game` (king moves), `orth_game` (orthogonal moves), `grid` (a fresh state)."""

from __future__ import annotations

import textwrap

import pytest

import engine
from engine.flow.machine import evaluate, run_effect

PACK = """
pack: grid-test
title: Grid test
players: {min: 1, max: 1}
zones:
  table: {}
  box: {}
kinds:
  - {id: pawn, glyph: P, fields: {speed: 1}}
  - {id: trap, glyph: '*', fields: {speed: 0}}
vars: {entered: 0, seen: []}
board:
  type: grid
  rows: 10
  cols: 5
  moves: MOVES
  pieces: table
  capacity: 1
  markers: [trap]
  enter_event: entered
  prefer: [orthogonal, column]
  regions:
    start: {rows: 1}
    corner: {cells: ["1,1", "2,1"]}
  points:
    exit: {row: 10.5, col: 3}
  view: {point: exit, rings: "[['far', 8], ['near', 2]]"}
triggers:
  - on: entered
    do: |
      game.entered += 1
      game.seen = game.seen + [event.cell]
flow:
  - repeat: {times: 3}
    do:
      - ask: go
actions:
  - id: place
    at: go
    params: {cell: "free_cells(start)"}
    do: spawn('pawn', cell)
"""


def write_pack(folder, moves: str = "king", extra: str = "") -> str:
    path = folder / "pack.yaml"
    path.write_text(textwrap.dedent(PACK).replace("MOVES", moves) + extra)
    return str(path)


@pytest.fixture(scope="module")
def grid_game(tmp_path_factory):
    return engine.load(write_pack(tmp_path_factory.mktemp("grid")))


@pytest.fixture(scope="module")
def orth_game(tmp_path_factory):
    return engine.load(write_pack(tmp_path_factory.mktemp("orth"), moves="orthogonal"))


@pytest.fixture
def grid(grid_game):
    """A fresh one-player state of the grid test pack."""
    return grid_game.new_state(players=1, seed=1)


def ev(S, text: str):
    """The value of an expression in state S."""
    return evaluate(S, S.game.compile_expr(text), {})


def do(S, text: str) -> None:
    """Run effect statements on state S (with their events and triggers)."""
    run_effect(S, S.game.compile_expr(text, effect=True), {})
