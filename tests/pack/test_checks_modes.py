"""Facts about modes (engine.pack.modefacts): an overlay is checked in every mode it can
be applied to. The pack here is the mini test pack with its turn in a flow procedure;
its mode `quick` has a flow of its own that never calls it, so never opens `start`."""

from __future__ import annotations

import json
from pathlib import Path

import engine
from tests.pack.checks import MINI, said

RTB = Path(engine.__file__).parent.parent / "rulesets" / "roll-them-bones" / "pack.yaml"
QUICK = """extends: ../pack.yaml
flow:
  replace: true
  items:
    - repeat: {until: "game.rounds >= 2"}
      do:
        - do: game.rounds += 1
        - for_each: {var: p, in: players, turn: true}
          do:
            - ask: main
"""


def _pack(folder: Path, house: dict[str, str]) -> Path:
    text = MINI.read_text().replace("  loop: 5\n", "").replace(
        """          - window: start
          - ask: main
          - do: "game.trace = game.trace + [current.seat]"
procedures:
""", """          - call: turn
procedures:
  turn:
    flow:
      - window: start
      - ask: main
      - do: "game.trace = game.trace + [current.seat]"
""")
    (folder / "modes").mkdir(parents=True)
    (folder / "house").mkdir()
    (folder / "pack.yaml").write_text(text)
    (folder / "modes" / "quick.yaml").write_text(QUICK)
    for name, body in house.items():
        (folder / "house" / name).write_text(body)
    return folder


def _said(horde, folder: Path) -> list[tuple[str, int, str]]:
    report = json.loads(horde("validate", "--json", "--strict", folder).output)
    return [(Path(p["file"]).name, p["line"], p["message"]) for p in report["problems"]]


WAVE = "extends: {}\nactions:\n  - id: wave\n    at: {}\n    do: me.score += 1\n"


def test_an_action_at_a_point_the_mode_it_extends_never_reaches(horde, tmp_path):
    assert _said(horde, _pack(tmp_path / "a", {"w.yaml": WAVE.format("../modes/quick.yaml", "start")})) == [
        ("w.yaml", 3, "action 'wave' is at 'start', which mode 'quick' never reaches: it never happens")]
    assert _said(horde, _pack(tmp_path / "b", {"w.yaml": WAVE.format("../modes/quick.yaml", "main")})) == []


def test_a_house_rule_of_the_base_is_checked_in_every_mode(horde, tmp_path):
    assert _said(horde, _pack(tmp_path / "a", {"w.yaml": WAVE.format("../pack.yaml", "start")})) == [
        ("w.yaml", 3, "action 'wave' is at 'start', which mode 'quick' never reaches: it does nothing there")]
    assert _said(horde, _pack(tmp_path / "b", {"w.yaml": WAVE.format("../pack.yaml", "main")})) == []


def test_who_others_at_a_window_that_asks_only_the_current_player(horde, tmp_path):
    rule = "actions:\n  - id: cheer\n    at: after_success\n    who: {}\n    do: current.skips = 0\n"
    found = [x for x in said(horde, tmp_path, rule.format("others"), base=RTB) if "policy" not in x[2]]
    assert found == [("house.yaml", 3, "action 'cheer' is `who: others`, but the window "
                                       "'after_success' asks only current: it is never offered")]
    assert [x for x in said(horde, tmp_path, rule.format("current"), base=RTB) if "policy" not in x[2]] == []


def test_a_house_rule_s_trigger_on_an_event_a_mode_never_emits(horde, tmp_path):
    quiet = "procedures:\n  bump:\n    params: [p, n]\n    do: p.score += n\n"
    trig = "extends: ../pack.yaml\ntriggers:\n  - id: waved\n    on: {}\n    do: game.rounds += 0\n"
    for name, on, want in (("a", "bumped", [("w.yaml", 4, "trigger on 'bumped': no event of that name "
                                                        "is emitted (with mode 'quick')")]),
                           ("b", "turn_start", [])):
        folder = _pack(tmp_path / name, {"w.yaml": trig.format(on)})
        (folder / "modes" / "quick.yaml").write_text("extends: ../pack.yaml\n" + quiet)
        assert [x for x in _said(horde, folder) if x[0] == "w.yaml"] == want
