"""`horde validate` finds a scenario's `pack: ../pack.yaml` next to the scenario file, as
`horde scenario` does, whatever the working folder; a pack it cannot find is an error at
the scenario's `pack:` line, for both commands."""

from __future__ import annotations

SCENARIO = """\
- scenario: a pack next to the scenario
  pack: {pack}
  players: 2
  rolls: [1, zombie, run, zombie, zombie, zombie, zombie]
  expect:
    - players[0].distance == 2
"""


def test_a_scenarios_relative_pack_is_found_next_to_it(horde, pack_copy, tmp_path,
                                                       monkeypatch):
    folder = pack_copy / "tests"
    folder.mkdir()
    (folder / "s.yaml").write_text(SCENARIO.format(pack="../pack.yaml"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    r = horde("validate", folder / "s.yaml")
    assert r.exit_code == 0, r.output
    assert horde("scenario", folder / "s.yaml").exit_code == 0


def test_a_scenarios_missing_pack_is_an_error_at_its_line(horde, pack_copy):
    path = pack_copy / "s.yaml"
    path.write_text(SCENARIO.format(pack="../pakc.yaml"))
    for command in ("validate", "scenario"):
        r = horde(command, path)
        assert r.exit_code == 1
        assert f"{path}:2:9: no pack or file named '../pakc.yaml'" in r.output, command
