"""`horde sim` and `horde compare` warn when a variant's new action is never played by a
seat's policy bot: otherwise they report "no significant change" with confidence."""

from __future__ import annotations

from tests.packfiles import write

NEW_ACTION = ("extends: roll-them-bones\nactions:\n  - id: crowbar\n    at: after_black\n"
              "    if: \"true\"\n    do: \"log('crowbar')\"\n")


def test_sim_and_compare_warn_of_a_new_action_greedy_never_plays(horde, tmp_path):
    house = write(tmp_path, {"crowbar.yaml": NEW_ACTION}) / "crowbar.yaml"
    said = "policy 'greedy' never plays action 'crowbar'"
    r = horde("sim", "roll-them-bones", "--house", house, "-n", "2", "--bots", "greedy", "--json")
    assert r.exit_code == 0, r.output
    assert said in r.stderr and said not in r.stdout  # the JSON report stays clean
    r = horde("compare", "roll-them-bones", "base", house, "-n", "2", "--bots", "greedy")
    assert r.exit_code == 0, r.output
    assert said in r.stderr
    r = horde("compare", "roll-them-bones", "base", house, "-n", "2", "--bots", "random")
    assert said not in r.stderr  # random bots play every action
