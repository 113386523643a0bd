"""User text becomes a number only when written with the digits 0-9.

Python's int() and float() read every script's digits, and `\\d` matches them: the
Bengali '৪', which looks like an 8, would be read as 4. Each place text from a pack, a
scenario or the command line becomes a number refuses such digits instead.
"""

from types import SimpleNamespace

import pytest

import engine
import engine.bots.mcts  # noqa: F401 - registers the mcts bot
from engine.bots.base import BOTS
from engine.errors import DSLSyntaxError, HordeError, PackError
from engine.pack import loader
from engine.pack.loader import load_tree
from engine.pack.yamlspan import compose_text
from engine.sim.measures import parse_measure
from engine.sim.sweep import parse_param, parse_target

BENGALI_EIGHT_LOOKALIKE = "৪"  # U+09EA BENGALI DIGIT FOUR


def test_the_effect_language_refuses_other_digits():
    from engine.dsl.parser import parse_expr

    with pytest.raises(DSLSyntaxError, match=r"expected a number \(digits 0-9\), got '৪'"):
        parse_expr(f"{BENGALI_EIGHT_LOOKALIKE} + 1")


def test_a_param_set_on_the_command_line_refuses_other_digits():
    with pytest.raises(PackError) as info:
        engine.load("roll-them-bones", params={"blocks": BENGALI_EIGHT_LOOKALIKE})
    assert "param 'blocks' must be an integer (digits 0-9), got '৪'" in str(info.value)
    assert engine.load("roll-them-bones", params={"blocks": "8"}).params["blocks"] == 8


def test_yaml_reads_other_digits_as_text_and_the_schema_says_why(tmp_path, monkeypatch):
    assert compose_text("n: ৪\n").value["n"].value == "৪"
    monkeypatch.setattr(loader, "rulesets_dir", lambda: tmp_path)
    (tmp_path / "pack.yaml").write_text("pack: p\nplayers: {max: ৪}\n", encoding="utf-8")
    with pytest.raises(PackError) as info:
        load_tree(str(tmp_path))
    (problem,) = info.value.problems
    assert problem.message == ("players.max: expected an integer, got '৪' "
                               "(a number is written with the digits 0-9)")


def test_sweep_ranges_and_targets_refuse_other_digits():
    with pytest.raises(HordeError, match=r"digits 0-9"):
        parse_param("blocks=৪:১২")
    assert parse_param("blocks=৪,8").values == ["৪", 8]  # a word: the pack then refuses it
    with pytest.raises(HordeError, match=r"digits 0-9"):
        parse_target("win_rate=০.৫")


def test_a_seat_number_refuses_other_digits():
    result = SimpleNamespace(players=4, metric_names=[])
    assert parse_measure("win_rate:1", result) == ("win_rate", 1)
    with pytest.raises(HordeError, match="no seat ১"):
        parse_measure("win_rate:১", result)


def test_a_bot_budget_refuses_other_digits():
    with pytest.raises(HordeError, match="give iterations"):
        BOTS["mcts"]("৪", 1, None)


def test_a_board_cell_refuses_other_digits():
    from engine.board.grid import _CELL_TEXT

    assert _CELL_TEXT.fullmatch("3,4") and not _CELL_TEXT.fullmatch("৪,1")


@pytest.mark.parametrize("args", [
    ["sim", "roll-them-bones", "-n", BENGALI_EIGHT_LOOKALIKE],
    ["sim", "roll-them-bones", "-n", "2", "--seed", BENGALI_EIGHT_LOOKALIKE],
    ["sim", "roll-them-bones", "-n", "2", "--jobs", BENGALI_EIGHT_LOOKALIKE],
    ["check", "roll-them-bones", "--time", BENGALI_EIGHT_LOOKALIKE],
    ["scores", "-n", BENGALI_EIGHT_LOOKALIKE],
    ["play", "roll-them-bones", "--players", "random,random", "--delay", BENGALI_EIGHT_LOOKALIKE],
])
def test_command_line_numbers_refuse_other_digits(horde, args):
    result = horde(*args)
    assert result.exit_code == 1  # a usage error, before anything runs
    words = " ".join(result.output.replace("│", " ").split())  # the error box wraps lines
    assert "written with the digits 0-9, got '৪'" in words


def test_command_line_numbers_keep_their_minimum_and_defaults(horde):
    assert "less than the minimum, 1" in horde("sim", "roll-them-bones", "-n", "0").output
    result = horde("sim", "roll-them-bones", "-n", "2", "--seed", "-5", "--json")
    assert result.exit_code == 0 and '"seed": -5' in result.output
