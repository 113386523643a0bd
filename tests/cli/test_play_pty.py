"""`horde play` in a pseudo-terminal, keystroke by keystroke, as a person plays it.

Each test starts the real command (120×45, as the issue's player had it), answers its
prompts and reads the screen. Waits are on what the screen shows, never on the clock;
the timeout only stops a broken game from hanging the suite.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
PROMPT = r"P\d> "
WAIT = 20  # seconds before a test gives up on a screen that never comes


def _default_ctrl_c() -> None:
    """Ctrl-C as a person's terminal has it: a suite started in the background of a shell
    without job control inherits SIGINT ignored, and would hand that on to the game."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str, tmp_path: Path) -> pexpect.spawn:
    """The command in a pty, played line by line: `--plain` (a terminal would otherwise
    open the full-screen table, which tests/tui drives)."""
    if args and args[0] in ("play", "resume", "replay"):
        args = (args[0], "--plain", *args[1:])
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HORDE_DATA_DIR": str(tmp_path),
           "COLUMNS": "120", "LINES": "45", "TERM": "xterm"}
    child = pexpect.spawn(sys.executable, ["-c", "from engine.cli.app import main; main()",
                                           *args], env=env, encoding="utf-8",
                          dimensions=(45, 120), timeout=WAIT, preexec_fn=_default_ctrl_c)
    child.delaybeforesend = None  # each answer waits for its prompt already
    return child


def screen(child) -> str:
    """What came since the last wait, as the person read it (no colours)."""
    return ANSI.sub("", child.before + (child.after if isinstance(child.after, str) else ""))


def play_out(child, shown: str, answer: str = "pass", limit: int = 300) -> str:
    """Answer the prompt on screen (`shown`) and every next one with `answer` (or the
    first choice) until the game ends; what was shown meanwhile."""
    seen = []
    for _ in range(limit):
        labels = re.findall(r"^ +\d+\. (\S+)$", shown, re.M)
        child.sendline(answer if answer in labels else "1")
        k = child.expect([PROMPT, pexpect.EOF])
        shown = screen(child)
        seen.append(shown)
        if k == 1:
            return "".join(seen)
    raise AssertionError("the game did not end")


def test_roll_them_bones_shows_the_persons_own_knock_out_and_card_texts(tmp_path):
    child = spawn("play", "roll-them-bones", "--players", "human,random", "--seed", "3",
                  tmp_path=tmp_path)
    child.expect(PROMPT)
    first = screen(child)
    assert "— turn 1: P0 —" in first  # the news goes back to the first turn
    child.sendline("?")
    child.expect(PROMPT)
    assert "card fear: Any time: a player skips their next turn." in screen(child)
    rest = play_out(child, first)
    news, _, end = rest.rpartition("Game over")
    assert "P0 is out of the game" in news  # seen before the game is over
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_at_a_prompt_saves_a_record_that_resume_accepts(tmp_path, horde):
    save = tmp_path / "game.json"
    child = spawn("play", "roll-them-bones", "--players", "human,random", "--seed", "3",
                  "--save", str(save), tmp_path=tmp_path)
    child.expect(PROMPT)
    child.sendline("pass")  # P0 keeps its card: more prompts come
    child.expect(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    out = screen(child)
    assert f"to go on with it: horde resume {save}" in out
    child.close()
    assert child.exitstatus == 130
    assert save.is_file()
    again = horde("resume", save, input="q\n")
    assert again.exit_code == 0, again.output
    assert re.search(r"resumed after [1-9]\d* decisions?", again.output)


def until(child, shown: str, wanted: str, limit: int = 40) -> str:
    """Answer 1 until a prompt offers a label containing `wanted`; that screen."""
    for _ in range(limit):
        if re.search(rf"^ +\d+\. \S*{re.escape(wanted)}", shown, re.M):
            return shown
        child.sendline("1")
        child.expect(PROMPT)
        shown = screen(child)
    raise AssertionError(f"no choice with {wanted!r} came")


def square_of(board: str, seat: int) -> tuple[int, int]:
    """Where the map shows `seat`'s pawn (or the pawns' `*`), read off its own rulers."""
    lines = board.splitlines()
    k = max(i for i, line in enumerate(lines) if re.fullmatch(r" {4}[-\d ]*\d *", line))
    columns = {p: int(m[0]) for m in re.finditer(r"-?\d+", lines[k])
               for p in range(m.end() - 2, m.end())}
    for line in lines[k + 1:]:
        row = re.match(r" *(-?\d+) [#. Z0-9*bh]", line)
        if row is None:
            if line.startswith("legend"):
                break
            continue
        for p, ch in enumerate(line):
            if p >= 4 and ch in (str(seat), "*") and p in columns:
                return columns[p], int(row[1])
    raise AssertionError("no pawn on the map")


def test_defcon_z_map_coordinates_match_the_labels_offered(tmp_path):
    child = spawn("play", "defcon-z", "--players", "human,greedy", "--seed", "3",
                  tmp_path=tmp_path)
    child.expect(PROMPT)
    shown = until(child, screen(child), "move(to=")
    assert "legend: . street · # building" in shown
    assert "Town S = Town Square" in shown  # full names of the tiles cut short
    x, y = square_of(shown[shown.rindex("seen by P0"):], 0)
    targets = [(int(a), int(b)) for a, b in re.findall(r"move\(to=(-?\d+),(-?\d+)\)", shown)]
    assert targets
    for tx, ty in targets:  # every square offered is next to the pawn, as the map shows it
        assert abs(tx - x) + abs(ty - y) == 1, ((x, y), (tx, ty))
    child.sendline("?")
    child.expect(PROMPT)
    assert "(column " in screen(child) and "Move one square" in screen(child)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_theyre_coming_legend_help_and_choices_in_natural_order(tmp_path):
    child = spawn("play", "theyre-coming", "--players", "human,random", "--seed", "3",
                  tmp_path=tmp_path)
    child.expect(PROMPT)
    shown = until(child, screen(child), "cell=10,")
    assert "legend: S shambler · R runner · X sploder" in shown
    numbered = re.findall(r"(\d+)\. \S*\(cell=(\d+),(\d+)\)", shown)
    cells = [(int(r), int(c)) for _, r, c in sorted(numbered, key=lambda n: int(n[0]))]
    assert cells == sorted(cells) and cells[0][0] < 10  # 8,1 before 10,1
    child.sendline("?")
    child.expect(PROMPT)
    assert "cell = " in screen(child)
    child.sendline("q")
    child.expect(pexpect.EOF)
