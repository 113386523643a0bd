"""Pieces on a grid: spawning, limits per cell, markers, steps with events, saving, drawing."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.board.cell import Cell
from engine.errors import PackError, RuleRuntimeError
from tests.board.conftest import PACK, do, ev, write_pack


def test_spawn_places_a_piece_with_its_kind_fields(grid):
    do(grid, "spawn('pawn', cell(2, 2)); spawn('pawn', box)")
    assert ev(grid, "count(pieces())") == 1 and ev(grid, "count(box)") == 1
    assert ev(grid, "piece_at(cell(2, 2)).speed") == 1
    assert ev(grid, "top(box).cell") is None
    assert ev(grid, "on_board(piece_at(cell(2, 2)))") is True


def test_a_cell_holds_one_piece_but_markers_do_not_count(grid):
    do(grid, "spawn('trap', cell(3, 3)); spawn('pawn', cell(3, 3))")
    assert ev(grid, "piece_at(cell(3, 3)).id") == "pawn"
    assert ev(grid, "count(pieces_at(cell(3, 3)))") == 2
    assert ev(grid, "free(cell(3, 3))") is False
    assert ev(grid, "cell(3, 3) in empty_cells()") is False
    with pytest.raises(RuleRuntimeError, match="full"):
        do(grid, "spawn('pawn', cell(3, 3))")


def test_pieces_filter_by_kind(grid):
    do(grid, "spawn('trap', cell(3, 3)); spawn('pawn', cell(4, 4)); spawn('pawn', cell(5, 5))")
    assert ev(grid, "count(pieces('pawn'))") == 2
    assert ev(grid, "count(pieces(['pawn', 'trap']))") == 3


def test_a_step_announces_the_cell_entered_and_returns_who_was_there(grid):
    do(grid, "spawn('trap', cell(4, 3)); spawn('pawn', cell(3, 3))")
    do(grid, "game.seen = [str(x.id) for x in step(piece_at(cell(3, 3)), cell(4, 3))]")
    # the trigger ran after the effect: it saw the event's cell
    assert ev(grid, "game.entered") == 1
    assert ev(grid, "game.seen") == ["trap", Cell(4, 3)]
    assert ev(grid, "piece_at(cell(4, 3)).id") == "pawn"


def test_a_step_is_one_adjacent_cell_and_respects_the_limit(grid):
    do(grid, "spawn('pawn', cell(3, 3)); spawn('pawn', cell(4, 3))")
    with pytest.raises(RuleRuntimeError, match="not next to"):
        do(grid, "step(piece_at(cell(3, 3)), cell(5, 3))")
    with pytest.raises(RuleRuntimeError, match="full"):
        do(grid, "step(piece_at(cell(3, 3)), cell(4, 3))")
    do(grid, "step(piece_at(cell(3, 3)), cell(4, 3), true)")
    assert ev(grid, "count(pieces_at(cell(4, 3)))") == 2


def test_lift_takes_a_piece_off_the_board(grid):
    do(grid, "spawn('pawn', cell(3, 3))")
    do(grid, "lift(piece_at(cell(3, 3)), box)")
    assert ev(grid, "count(pieces())") == 0
    assert ev(grid, "top(box).cell") is None
    assert ev(grid, "free(cell(3, 3))") is True


def test_pieces_off_the_board_have_no_place(grid):
    do(grid, "spawn('pawn', box)")
    with pytest.raises(RuleRuntimeError, match="not on the board"):
        ev(grid, "distance(top(box), exit)")
    with pytest.raises(RuleRuntimeError, match="not on the board"):
        do(grid, "place(top(box), cell(11, 1))")


def test_action_labels_name_cells_as_row_comma_col(grid):
    assert grid.decision().actions == [f"place(cell=1,{c})" for c in range(1, 6)]
    grid.apply("place(cell=1,3)")
    assert "place(cell=1,3)" not in grid.decision().actions
    assert ev(grid, "piece_at(cell(1, 3)).id") == "pawn"


def test_cells_survive_saving_and_loading(grid):
    grid.apply("place(cell=1,2)")
    do(grid, "game.seen = [cell(2, 2), exit, start]")
    data = json.loads(json.dumps(grid.to_dict()))
    back = grid.game.state_from_dict(data)
    assert back.to_dict() == grid.to_dict()
    assert ev(back, "piece_at(cell(1, 2)).cell") == Cell(1, 2)
    assert ev(back, "game.seen[0]") == Cell(2, 2)
    assert back.decision().actions == grid.decision().actions


def test_clones_are_independent(grid):
    grid.apply("place(cell=1,2)")
    before = grid.to_dict()
    c = grid.clone()
    do(c, "step(piece_at(cell(1, 2)), cell(2, 2))")
    assert grid.to_dict() == before  # records too: they are shared until written
    assert ev(grid, "piece_at(cell(1, 2)) != none") is True
    assert ev(c, "piece_at(cell(1, 2))") is None


def test_the_drawing_fits_80_columns_and_shows_pieces_and_rings(grid):
    do(grid, "spawn('pawn', cell(1, 2)); spawn('trap', cell(9, 3))")
    text = grid.game.extensions["board"].render(grid, None)
    plain = text.plain
    assert max(len(line) for line in plain.split("\n")) <= 80
    assert "P" in plain and "*" in plain and "exit" in plain
    assert "far" in plain and "near" in plain


def test_a_good_section_loads(tmp_path):
    assert engine.load(write_pack(tmp_path)).extensions["board"].rows == 10


@pytest.mark.parametrize("old, new, message", [
    ("  cols: 5\n", "  cols: 5\n  colz: 3\n", "unknown key 'colz'"),
    ("pieces: table", "pieces: tabel", "'pieces' must name a zone"),
    ("markers: [trap]", "markers: [trapp]", "marker 'trapp' is not a kind"),
    ("start: {rows: 1}", "start: {rows: [0, 1]}", "'rows' must be"),
    ('corner: {cells: ["1,1", "2,1"]}', 'corner: {cells: ["1,1", "12,1"]}', "is not a cell"),
    ("exit: {row: 10.5, col: 3}", "exit: {row: 10.5}", "point 'exit'"),
    ("moves: king", "moves: queen", "'moves' must be one of"),
    ("type: grid", "type: gird", "board type must be one of"),
    ("prefer: [orthogonal, column]", "prefer: [diagonal]", "'prefer' is a list"),
    ("start: {rows: 1}", "box: {rows: 1}", "already a name"),
])
def test_section_problems_point_at_the_board(tmp_path, old, new, message):
    path = tmp_path / "pack.yaml"
    text = PACK.replace("MOVES", "king")
    assert old in text
    path.write_text(text.replace(old, new))
    with pytest.raises(PackError) as info:
        engine.load(str(path))
    assert message in str(info.value)
    assert "pack.yaml:" in str(info.value)


def test_pieces_on_a_cell_filter_by_kind(grid):
    do(grid, "spawn('trap', cell(3, 3)); spawn('pawn', cell(3, 3))")
    assert ev(grid, "piece_at(cell(3, 3), 'trap').id") == "trap"
    assert ev(grid, "count(pieces_at(cell(3, 3), ['pawn']))") == 1
    assert ev(grid, "piece_at(cell(4, 3), 'pawn')") is None


def scanned(S, c) -> list[int]:
    """The pieces on cell c, found the slow way: every piece of the zone, in zone order."""
    board = S.game.extensions["board"]
    return [u for u in S.zones[board.zone] if S.ents[u].get("cell") == c]


def test_the_cell_index_agrees_with_the_entities_through_clones_and_saves():
    game = engine.load("theyre-coming", mode="kamikaze")
    board = game.extensions["board"]
    rng = random.Random(3)
    n = 0
    for seed in range(4):
        S = game.new_state(players=1, seed=seed)
        while not S.over:
            n += 1
            if n % 7 == 0:
                S = S.clone()
            elif n % 11 == 0:
                S = game.state_from_dict(json.loads(json.dumps(S.to_dict())))
            for c in board.all_cells():
                assert board.uids_on(S, c) == scanned(S, c), (n, c)
            S.apply(rng.choice(S.decision().actions))
    assert n > 40


def test_a_clone_moves_without_touching_the_original_index(grid):
    do(grid, "spawn('pawn', cell(1, 2))")
    assert ev(grid, "free(cell(1, 2))") is False  # the original's index is made
    c = grid.clone()
    do(c, "step(piece_at(cell(1, 2)), cell(2, 2))")
    assert ev(grid, "free(cell(1, 2))") is False and ev(grid, "free(cell(2, 2))") is True
    assert ev(c, "free(cell(1, 2))") is True and ev(c, "free(cell(2, 2))") is False


def test_a_piece_moved_off_the_board_by_other_means_no_longer_counts(grid):
    do(grid, "spawn('trap', cell(3, 3)); spawn('pawn', cell(3, 3))")
    assert ev(grid, "free(cell(3, 3))") is False
    do(grid, "move(piece_at(cell(3, 3)), box)")
    assert ev(grid, "free(cell(3, 3))") is True
    assert ev(grid, "[p.id for p in pieces_at(cell(3, 3))]") == ["trap"]
    assert ev(grid, "cell(3, 3) in free_cells()") is True


def test_an_action_that_fails_halfway_leaves_the_pieces_where_they_were(tmp_path):
    extra = """
  - id: shove
    at: go
    do: |
      step(piece_at(cell(2, 3)), cell(2, 4))
      step(piece_at(cell(2, 4)), cell(3, 4))
"""
    text = PACK.replace("MOVES", "king").replace("    do: spawn('pawn', cell)\n",
                                                 "    do: spawn('pawn', cell)\n" + extra)
    (tmp_path / "pack.yaml").write_text(text)
    S = engine.load(str(tmp_path / "pack.yaml")).new_state(players=1, seed=1)
    do(S, "spawn('pawn', cell(2, 3)); spawn('pawn', cell(3, 4))")
    assert ev(S, "free(cell(2, 3))") is False  # the index of S is made
    with pytest.raises(RuleRuntimeError, match="full"):
        S.apply("shove")  # the first step is taken, the second fails: all of it is undone
    assert ev(S, "free(cell(2, 3))") is False and ev(S, "free(cell(2, 4))") is True
    assert ev(S, "piece_at(cell(2, 3)).cell") == Cell(2, 3)


def test_a_rule_cannot_set_a_pieces_cell_itself(grid):
    """The board indexes pieces by cell, so only its words move them: writing `.cell`
    is refused when the pack loads (a piece) or when the rule runs (a value of unknown
    type), never left to make the index wrong."""
    do(grid, "spawn('pawn', cell(1, 1))")
    with pytest.raises(PackError, match="cell is kept by its board"):
        grid.game.compile_expr("piece_at(cell(1, 1)).cell = cell(2, 2)", effect=True)
    with pytest.raises(RuleRuntimeError, match="cell is kept by its board"):
        do(grid, "for p in [piece_at(cell(1, 1)), 1]:\n    p.cell = cell(2, 2)")
    assert ev(grid, "on_board(piece_at(cell(1, 1)))") is True


def test_board_words_are_the_boards_own_methods(grid):
    """A pack's snippets call its board's methods directly (Extension.words); the
    registered builtin, which finds the board first, answers the same."""
    from engine.dsl.builtins import BUILTINS

    board = grid.game.extensions["board"]
    c = grid.game.compile_expr("neighbors(cell(2, 2))")
    assert c.fn.__globals__["_b_neighbors"] == board.neighbors
    assert ev(grid, "neighbors(cell(2, 2))") == BUILTINS["neighbors"].fn(grid, ev(grid, "cell(2, 2)"))
