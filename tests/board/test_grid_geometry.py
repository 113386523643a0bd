"""Grid geometry: cells, regions, points, distances, blocks and steps toward a point."""

from __future__ import annotations

from engine.board.cell import Cell
from tests.board.conftest import do, ev


def test_cells_read_as_row_comma_col(grid):
    assert ev(grid, "cell(1, 3)") == Cell(1, 3)
    assert ev(grid, "str(cell(1, 3))") == "1,3"
    assert ev(grid, "cell(4, 2).row") == 4 and ev(grid, "cell(4, 2).col") == 2
    assert len(ev(grid, "cells()")) == 50


def test_regions_and_points_are_names(grid):
    assert ev(grid, "cells_in(start)") == [Cell(1, c) for c in range(1, 6)]
    assert ev(grid, "cells_in(corner)") == [Cell(1, 1), Cell(2, 1)]
    assert ev(grid, "within(cell(1, 4), start)") is True
    assert ev(grid, "within(cell(2, 4), start)") is False
    assert ev(grid, "exit.col") == 3


def test_distance_to_a_point_past_the_last_row_is_rounded_up(grid):
    assert [ev(grid, f"distance(cell(1, {c}), exit)") for c in range(1, 6)] == [10] * 5
    assert [ev(grid, f"distance(cell(10, {c}), exit)") for c in range(1, 6)] == [2, 1, 1, 1, 2]
    assert ev(grid, "distance(cell(9, 1), exit)") == 2
    assert ev(grid, "distance(cell(2, 2), cell(5, 3))") == 3


def test_orthogonal_boards_count_manhattan_steps(orth_game):
    S = orth_game.new_state(players=1, seed=1)
    assert ev(S, "distance(cell(2, 2), cell(5, 3))") == 4
    assert ev(S, "neighbors(cell(5, 3))") == [Cell(4, 3), Cell(5, 2), Cell(5, 4), Cell(6, 3)]
    assert ev(S, "distance(cell(10, 1), exit)") == 3


def test_neighbors_and_areas_stop_at_the_edge(grid):
    assert len(ev(grid, "neighbors(cell(5, 3))")) == 8
    assert ev(grid, "neighbors(cell(1, 1))") == [Cell(1, 2), Cell(2, 1), Cell(2, 2)]
    assert len(ev(grid, "area(cell(5, 3))")) == 9
    assert ev(grid, "area(cell(1, 1))") == [Cell(1, 1), Cell(1, 2), Cell(2, 1), Cell(2, 2)]
    assert len(ev(grid, "area(cell(5, 3), 2)")) == 25


def test_closer_steps_prefer_straight_then_the_target_column(grid):
    assert ev(grid, "closer_steps(cell(5, 1), exit)") == [Cell(6, 1), Cell(6, 2)]
    assert ev(grid, "closer_steps(cell(3, 5), exit)") == [Cell(4, 5), Cell(4, 4)]
    assert ev(grid, "closer_steps(cell(5, 3), exit)") == [Cell(6, 3), Cell(6, 2), Cell(6, 4)]
    # never sideways at equal distance, never away: only the diagonal is closer here
    assert ev(grid, "closer_steps(cell(9, 1), exit)") == [Cell(10, 2)]
    assert ev(grid, "closer_steps(cell(10, 1), exit)") == [Cell(10, 2)]
    # next to the point nothing on the board is closer
    assert ev(grid, "closer_steps(cell(10, 3), exit)") == []


def test_closer_steps_skip_full_cells_unless_passing_through(grid):
    do(grid, "spawn('pawn', cell(6, 3))")
    assert ev(grid, "closer_steps(cell(5, 3), exit)") == [Cell(6, 2), Cell(6, 4)]
    assert ev(grid, "closer_steps(cell(5, 3), exit, true)") == [Cell(6, 3), Cell(6, 2), Cell(6, 4)]
    # a marker does not block
    do(grid, "spawn('trap', cell(6, 2))")
    assert ev(grid, "closer_steps(cell(5, 3), exit)") == [Cell(6, 2), Cell(6, 4)]


def test_a_piece_is_not_in_its_own_way(grid):
    do(grid, "spawn('pawn', cell(5, 3))")
    assert ev(grid, "closer_steps(piece_at(cell(5, 3)), exit)") == \
        [Cell(6, 3), Cell(6, 2), Cell(6, 4)]


def test_farther_steps_go_back_but_never_off_the_board(grid):
    assert ev(grid, "farther_steps(cell(5, 3), exit)") == [Cell(4, 3), Cell(4, 2), Cell(4, 4)]
    assert ev(grid, "farther_steps(cell(1, 2), exit)") == []


def test_closest_first_orders_by_distance_then_board_order(grid):
    do(grid, "spawn('pawn', cell(2, 2)); spawn('pawn', cell(9, 4)); spawn('pawn', cell(9, 3))")
    order = ev(grid, "[str(p.cell) for p in closest_first(pieces(), exit)]")
    assert order == ["9,3", "9,4", "2,2"]


def test_each_game_asks_its_own_board(grid, orth_game):
    """Board words remember the board they asked last; two games in turn must not mix."""
    orth = orth_game.new_state(players=1, seed=1)
    for _ in range(2):
        assert ev(grid, "distance(cell(2, 2), cell(5, 3))") == 3
        assert ev(orth, "distance(cell(2, 2), cell(5, 3))") == 4
        assert len(ev(grid, "neighbors(cell(5, 3))")) == 8
        assert len(ev(orth, "neighbors(cell(5, 3))")) == 4


def test_areas_are_remembered_as_they_are_made(grid):
    """`area` keeps each block it makes (geometry never changes): every answer is the
    block worked out afresh, and a list of its own, which a rule may change."""
    board = grid.game.ext("board")
    for c in board.order:
        for radius in range(-1, 4):
            made = [Cell(r, k) for r in range(c[0] - radius, c[0] + radius + 1)
                    for k in range(c[1] - radius, c[1] + radius + 1) if Cell(r, k) in board.cellset]
            first = board.area(grid, c, radius)
            first.append("changed")
            assert board.area(grid, c, radius) == made
    assert ev(grid, "area(cell(5, 3), true)") == ev(grid, "area(cell(5, 3), 1)")
