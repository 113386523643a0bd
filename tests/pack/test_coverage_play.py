"""Coverage by play (`horde validate --play N`, engine.coverage): what games played by bots
never reach is reported at its file:line, and only the overlay's own items for an overlay.
Each slip here passes `validate --strict` without --play; its control, the same rule
without the slip, is covered and not reported."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.pack.checks import MINI

HOUSE = f"""extends: {MINI}
triggers:
  - id: never
    on: bumped
    if: "count(pile) > 1"
    do: "event.who.tag = 'never'"
  - id: drawn
    on: bumped
    if: "count(deck) < 5"
    do: "event.who.tag = 'drawn'"
actions:
  - id: late
    at: main
    if: "game.rounds > 2"
    do: "me.score += 0"
  - id: second
    at: main
    if: "game.rounds == 2"
    do: "me.score += 0"
cards:
  - {{id: joker, count: 1, zone: pile, discard: pile}}
  - {{id: three, count: 1, zone: deck, discard: pile}}
policies:
  greedy:
    rules:
      - {{id: too-late, play: late}}
      - {{id: bump, play: score, if: "game.rounds == 1"}}
      - {{id: third-round, play: second, if: "game.rounds == 3"}}
      - {{id: draw, play: draw}}
    otherwise: random
"""


@pytest.fixture
def house(tmp_path) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(HOUSE)
    return path


def _line(path: Path, needle: str) -> int:
    return next(k for k, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def _played(horde, *args) -> dict:
    r = horde("validate", "--json", *args)
    report = json.loads(r.output)
    assert r.exit_code == (0 if report["valid"] else 1)
    return report


def _never(report) -> list[tuple[str, int, str]]:
    return [(Path(n["file"]).name, n["line"], n["message"])
            for cov in report["coverage"] for n in cov["never"]]


def test_the_slips_pass_the_static_checks(horde, house):
    report = _played(horde, "--strict", house)
    assert report["valid"] and report["warnings"] == [] and "coverage" not in report


def test_a_trigger_that_never_fires_in_play_is_reported_at_its_line_and_its_control_is_not(
        horde, house):
    never = _never(_played(horde, house, "--play", "10"))
    assert ("house.yaml", _line(house, "id: never"),
            "trigger 'never' (on bumped) never fired in 20 games") in never
    assert not [n for n in never if "'drawn'" in n[2]]


def test_an_action_never_offered_and_a_policy_rule_never_taken(horde, house):
    never = _never(_played(horde, house, "--play", "10"))
    assert ("house.yaml", _line(house, "id: late"),
            "action 'late' was never offered in 20 games") in never
    assert ("house.yaml", _line(house, "id: too-late"),
            "policy 'greedy' rule 'too-late' never decided in 10 games played by 'greedy'") in never
    assert ("house.yaml", _line(house, "id: third-round"),
            "policy 'greedy' rule 'third-round' never decided in 10 games played by 'greedy'") in never
    for control in ("'second'", "'bump'", "'draw'"):  # offered, chosen, taken
        assert not [n for n in never if control in n[2]], control


def test_a_card_never_drawn(horde, house):
    never = _never(_played(horde, house, "--play", "10"))
    assert ("house.yaml", _line(house, "id: joker"),
            "card 'joker' was never drawn in 20 games") in never
    assert not [n for n in never if "'three' was never drawn" in n[2]]


def test_an_overlay_reports_only_what_it_adds_or_changes(horde, house):
    base = _never(_played(horde, MINI, "--play", "5"))
    assert ("pack.yaml", _line(MINI, "id: crash"),
            "action 'crash' was never offered in 5 games") in base  # no policy: random bots
    mine = _never(_played(horde, house, "--play", "5"))
    assert mine and {f for f, _, _ in mine} == {"house.yaml"}


def test_a_patched_item_is_the_overlays(horde, tmp_path):
    """Patching one key of the base's action makes the action the overlay's to report."""
    path = tmp_path / "patch.yaml"
    path.write_text(f"extends: {MINI}\nactions:\n  - id: poke\n    if: \"game.rounds == 5\"\n")
    assert _never(_played(horde, path, "--play", "5")) == [
        ("pack.yaml", _line(MINI, "id: poke"), "action 'poke' was never offered in 5 games")]


def test_json_shape(horde, house):
    report = _played(horde, house, "--play", "3")
    assert set(report) == {"valid", "problems", "warnings", "more_problems", "more_warnings",
                           "checked", "coverage"}
    [cov] = report["coverage"]
    assert cov["name"] == str(house) and cov["games"] == 6 and not cov["interrupted"]
    assert cov["variants"] == ["the base game"]
    assert cov["batches"] == [{"variant": "the base game", "bots": "policy:greedy", "games": 3},
                              {"variant": "the base game", "bots": "random", "games": 3}]
    assert cov["counts"]["action"] == {"offered": [1, 2], "chosen": [1, 2]}
    assert cov["counts"]["trigger"] == {"fired": [1, 2]}
    assert cov["counts"]["rule"] == {"taken": [2, 4]}
    first = cov["never"][0]
    assert set(first) == {"kind", "item", "facet", "file", "line", "col", "message", "hint"}
    assert (first["kind"], first["item"], first["facet"]) == ("action", "action 'late'", "offered")


def test_the_text_report(horde, house):
    r = horde("validate", house, "--play", "3")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[1:3] == [
        "  played 6 games (the base game; bots: greedy, random)",
        "  coverage: 1/2 actions offered, 1/2 chosen, 1/2 triggers fired, 1/2 cards drawn, "
        "0/2 played, 2/4 policy rules taken"]
    assert f"warning: {house}:{_line(house, 'id: never')}:5: trigger 'never' (on bumped) " \
           "never fired in 6 games" in r.output
    assert "its `if` never held" in r.output


def test_strict_leaves_coverage_as_warnings(horde, house):
    assert horde("validate", "--strict", house, "--play", "3").exit_code == 0


def test_a_broken_invariant_is_a_problem(horde, tmp_path):
    path = tmp_path / "inv.yaml"
    path.write_text(f"extends: {MINI}\ninvariants:\n  - id: empty-hands\n"
                    "    check: \"all([count(p.hand) == 0 for p in players])\"\n")
    assert horde("validate", "--strict", path).exit_code == 0  # nothing static to see
    report = _played(horde, path, "--play", "5")
    assert not report["valid"]
    [p] = report["problems"]
    assert (Path(p["file"]).name, p["line"]) == ("inv.yaml", 3)
    assert re.fullmatch(r"invariant 'empty-hands' broken in play \(the base game, random bots, "
                        r"game \d+, seed \d+, after \d+ decisions\)", p["message"])
    assert p["hint"] == "`horde check` finds the shortest game that breaks it"


def test_mode_and_house_need_play_and_play_is_capped(horde, house):
    r = horde("validate", MINI, "--house", house)
    assert r.exit_code == 1 and "--mode and --house choose the games --play plays" in r.output
    r = horde("validate", MINI, "--play", "1001")
    assert r.exit_code == 1 and "--play 1001: at most 1000 games per mode and bot" in r.output


def test_house_adds_to_every_game(horde, house):
    report = _played(horde, MINI, "--house", house, "--play", "3")
    names = {n["item"] for cov in report["coverage"] for n in cov["never"]}
    assert "action 'late'" in names and "action 'crash'" in names  # a pack: all its items


def test_ctrl_c_reports_what_was_played(horde, house, monkeypatch):
    from engine.coverage import watch
    played = []
    one = watch.Watch.one

    def stop_after_four(self, *args):
        if len(played) == 4:
            raise KeyboardInterrupt
        played.append(1)
        return one(self, *args)

    monkeypatch.setattr(watch.Watch, "one", stop_after_four)
    r = horde("validate", house, "--play", "10")
    assert r.exit_code == 130
    assert "played 4 games (the base game; bots: greedy) — interrupted" in r.output
    assert "Interrupted: reporting the games that were played." in r.output


def test_sim_compare_and_check_print_one_coverage_line(horde, house):
    r = horde("sim", MINI, "--house", house, "-n", "10")
    assert r.exit_code == 0, r.output
    assert "coverage: 4/8 actions chosen (validate --play for the list)" in r.output
    rep = json.loads(horde("sim", MINI, "--house", house, "-n", "10", "--json").output)
    assert rep["coverage"] == {"actions": 8, "chosen": 4,
                               "never_chosen": ["crash", "recurse", "spin", "late"]}
    assert "wins" in rep  # the keys it had stay
    r = horde("compare", MINI, "base", f"house:{house}", "-n", "10")
    assert "coverage (base): 3/6 actions chosen (validate --play for the list)" in r.output
    assert f"coverage (house:{house}): 4/8 actions chosen" in r.output
    r = horde("check", MINI, "--house", house, "-n", "5", "--seed", "1")
    assert "coverage: 4/8 actions offered, 3/8 chosen (validate --play for the list)" in r.output


def test_every_mode_the_file_applies_to(horde, tmp_path):
    """A pack plays its base game and each mode; a house rule of the base, the same; a mode,
    itself only, reporting only its own items."""
    from tests.pack.test_checks_modes import _pack
    folder = _pack(tmp_path / "p", {"h.yaml": "extends: ../pack.yaml\nactions:\n  - id: wave\n"
                                              "    at: main\n    if: game.rounds > 1\n"
                                              "    do: me.score += 0\n"})
    both = ["the base game", "mode 'quick'"]
    assert _played(horde, folder, "--play", "2")["coverage"][0]["variants"] == both
    assert _played(horde, folder / "house" / "h.yaml", "--play", "2")["coverage"][0]["variants"] == both
    assert _played(horde, folder / "house" / "h.yaml", "--play", "2", "--mode", "quick"
                   )["coverage"][0]["variants"] == ["mode 'quick'"]
    mode = _played(horde, folder / "modes" / "quick.yaml", "--play", "2")
    assert mode["coverage"][0]["variants"] == ["mode 'quick'"]
    assert mode["coverage"][0]["counts"] == {}  # the mode adds a flow, no item
