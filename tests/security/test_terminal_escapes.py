"""Text from a pack, overlay, record, save or scenario never drives the terminal.

A copy of a bundled pack is given a hostile title, card text, log line and metric name: a
screen clear (ESC[2J), a clipboard write (OSC 52), a right-to-left override (U+202E), a C1
CSI (0x9B) and DEL; a record names a bot with the same and a lone surrogate. Each command
that shows such text prints it escaped (`\\x1b[2J`), ends with exit 0 or 1, and never with
an internal error.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from engine.pack.loader import rulesets_dir

# What YAML's double quotes turn into the hostile characters themselves.
HOSTILE_YAML = r"\e[2J\e]52;c;aGk=\a\u202eX\x9b\x7f"
HOSTILE = "\x1b[2J\x1b]52;c;aGk=\x07\u202eX\x9b\x7f"
SHOWN = r"\x1b[2J"  # how the screen clear must read on the screen
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                 "\ud800-\udfff]")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def pack(tmp_path) -> Path:
    """roll-them-bones with hostile text in its title, a card's text, a log line and a
    metric's name."""
    folder = tmp_path / "packs" / "roll-them-bones"
    shutil.copytree(rulesets_dir() / "roll-them-bones", folder)
    path = folder / "pack.yaml"
    text = path.read_text()
    for old, new in [
        ("title: Zombies!!! Roll Them Bones!", f'title: "Bones {HOSTILE_YAML}"'),
        ('text: "After the black die: need 2 fewer zombies."', f'text: "Grenade {HOSTILE_YAML}"'),
        ("""            do: |
              turn.black = roll(black)
              turn.last = 'black'
              log('{} meets {} zombies', current, turn.black)""",
         """            do: "turn.black = roll(black); turn.last = 'black'; log('{} meets {} """
         f"""zombies {HOSTILE_YAML}', current, turn.black)\""""),
        ('  winner_distance: "max([p.distance for p in players])"',
         f'  winner_distance: "max([p.distance for p in players])"\n  "m{HOSTILE_YAML}": "1"'),
    ]:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text)
    return folder


def clean(result, *, shown: bool = True) -> str:
    """The command's output, checked: no raw control, bidi or surrogate character, exit 0
    or 1, no internal error; with `shown`, the hostile text was there, escaped."""
    text = result.output
    assert result.exit_code in (0, 1), text[-2000:]
    assert "internal error" not in text
    raw = RAW.search(text)
    assert raw is None, f"raw {raw[0]!r} in: {text[max(raw.start() - 80, 0):raw.end() + 80]!r}"
    if shown:
        assert SHOWN in text
    return text


def test_play_with_bots_shows_title_and_log_escaped(horde, pack):
    text = clean(horde("play", pack, "-p", "random,random", "--seed", "3"))
    assert "meets" in text and f"zombies {SHOWN}" in text


def _record(horde, pack, tmp_path) -> Path:
    save = tmp_path / "game.json"
    clean(horde("play", pack, "-p", "random,random", "--seed", "3", "--save", save))
    return save


def test_replay_shows_a_record_s_bot_names_escaped(horde, pack, tmp_path):
    save = _record(horde, pack, tmp_path)
    data = json.loads(save.read_text())
    data["bots"] = [f"bot{HOSTILE}", "random"]
    save.write_text(json.dumps(data))
    text = clean(horde("replay", save))
    assert "bot" + SHOWN in text
    data["bots"] = [f"bot{HOSTILE}\ud800", "random"]
    save.write_text(json.dumps(data))  # \ud800 written as JSON writes it: a lone surrogate
    text = clean(horde("replay", save), shown=False)  # refused as input (tests/security/test_input_errors.py)
    assert "\\ud800" in text and "lone surrogate" in text


def test_resume_names_a_record_s_bots_escaped(horde, pack, tmp_path):
    save = tmp_path / "stopped.json"
    clean(horde("play", pack, "-p", "human,random", "--seed", "3", "--save", save,
                input="q\n"))
    data = json.loads(save.read_text())
    data["bots"] = [f"bot{HOSTILE}", "random"]
    save.write_text(json.dumps(data))
    clean(horde("resume", save))  # an unknown bot: a clear error, its name escaped
    clean(horde("resume", save, "--players", "random,random"))


@pytest.mark.parametrize("markdown", [False, True])
def test_doc_escapes_plain_and_markdown(horde, pack, markdown):
    clean(horde("doc", pack, *(["--markdown"] if markdown else [])))


def test_diff_escapes_bidi_and_escapes(horde, pack, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(f'extends: {pack / "pack.yaml"}\n'
                     'cards: [{id: first-aid, text: "\\u202eZ\\e[2J"}]\n')  # short: shown whole
    text = clean(horde("diff", pack, house), shown=False)
    assert "\\u202e" in text


def test_list_escapes_titles(horde, pack, monkeypatch):
    monkeypatch.setattr("engine.pack.loader.rulesets_dir", lambda: pack.parent)
    clean(horde("list"))


def test_validate_escapes_problems_and_the_lines_they_quote(horde, pack, tmp_path):
    house = tmp_path / "bad.yaml"
    house.write_text(f'extends: {pack / "pack.yaml"}\n'
                     f'remove: {{actions: ["{HOSTILE_YAML}"]}}  # \u202e raw\n')
    text = clean(horde("validate", house))
    assert "actions has no item" in text
    clean(horde("validate", pack), shown=False)


def test_sim_and_compare_tables_and_csv(horde, pack, tmp_path):
    csv = tmp_path / "games.csv"
    clean(horde("sim", pack, "--games", "3", "--csv", csv), shown=False)
    assert RAW.search(csv.read_text()) is None and SHOWN in csv.read_text()
    house = tmp_path / "house.yaml"
    house.write_text(f'extends: {pack / "pack.yaml"}\nparams:\n  blocks: {{default: 10}}\n')
    clean(horde("compare", pack, "base", str(house), "--games", "3", "--csv", csv),
          shown=False)
    assert RAW.search(csv.read_text()) is None and SHOWN in csv.read_text()


def test_scenario_names_and_failures_escaped(horde, pack, tmp_path):
    scenario = tmp_path / "hostile.yaml"
    scenario.write_text(f'- scenario: "name {HOSTILE_YAML}"\n'
                        f"  pack: {pack}\n  players: 2\n  seed: 1\n"
                        f'  expect_error: "never {HOSTILE_YAML}"\n')
    text = clean(horde("scenario", scenario))
    assert "name " + SHOWN in text


def test_scores_table_escapes_bots_and_params(horde, tmp_path):
    """A resumed record's bot names and params reach the high-score table."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "scores.json").write_text(json.dumps({"format": 1, "scores": [
        {"pack": "theyre-coming", "mode": "death-comes-knocking", "score": 5, "players": 1,
         "turns": 3, "bots": [f"b{HOSTILE}"], "params": {"lives": f"4{HOSTILE}"},
         "when": "2026-01-01T00:00:00", "name": ""}]}))
    text = clean(horde("scores"), shown=False)
    assert "\\u202e" in text
