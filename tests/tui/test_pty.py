"""`horde play` in a real pseudo-terminal of 80x24, read back through a terminal emulator
(pyte) as a person would see it. Waits are on what the screen shows; the timeout only
stops a broken game from hanging the suite."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60


class Terminal:
    """A child process in an 80x24 pty and the screen it has drawn."""

    def __init__(self, *args: str, tmp_path: Path, size=(24, 80)):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HORDE_DATA_DIR": str(tmp_path),
               "TERM": "xterm-256color", "COLUMNS": str(size[1]), "LINES": str(size[0])}
        env.pop("TEXTUAL_DRIVER", None)
        self.child = pexpect.spawn(sys.executable, ["-c", "from engine.cli.app import main; main()",
                                                    *args], env=env, dimensions=size,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.screen = pyte.Screen(size[1], size[0])
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""

    def pump(self) -> None:
        try:
            while True:
                data = self.child.read_nonblocking(65536, timeout=0.05)
                self.raw += data
                self.stream.feed(data)
        except (pexpect.TIMEOUT, pexpect.EOF):
            return

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, pattern: str) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            self.pump()
            if re.search(pattern, self.text()):
                time.sleep(0.2)  # the rest of the frame
                self.pump()
                return self.text()
            if not self.child.isalive():
                self.pump()
                break
        raise AssertionError(f"never on screen: {pattern}\n{self.text()}")

    def finish(self) -> None:
        """Read everything until the process has exited."""
        deadline = time.monotonic() + WAIT
        while self.child.isalive() and time.monotonic() < deadline:
            self.pump()
        self.pump()
        assert not self.child.isalive(), "the game did not end"

    def send(self, keys: str) -> None:
        self.child.send(keys)

    def close(self) -> None:
        if self.child.isalive():
            self.child.kill(signal.SIGKILL)


def numbered(screen: str, label: str) -> str:
    m = re.search(rf"(\d+)\. {re.escape(label)}\b", screen)
    assert m, screen
    return m.group(1)


def test_defcon_z_first_tile_placement_shows_map_choices_and_hand_at_once(tmp_path):
    term = Terminal("play", "defcon-z", "--players", "human,random", "--seed", "1",
                    tmp_path=tmp_path)
    try:
        first = term.wait_for(r"your choice")
        term.send(numbered(first, "pass"))
        screen = term.wait_for(r"\d\. place\(at=")
        assert re.search(r"\b\d:(0|90|180|270)\b", screen)  # the numbered placements on the map
        assert "t0" in screen and "Town S" in screen  # the map and its coordinates
        assert re.search(r"\d\. place\(at=-?\d+,-?\d+, rot=\d+\)", screen)  # the choices
        assert "hand" in screen and re.search(r"Pistol|First Aid|Antiviral", screen)  # the hand
        # beside the choices, the tile the highlighted choice places, turned as it would lie
        first_rot = re.search(r"1\. place\(at=-?\d+,-?\d+, rot=(\d+)\)", screen).group(1)
        assert re.search(rf"│ \w[\w ]* :{first_rot} +│", screen), screen
        assert re.search(r"│ (\.\.|##|  )(\.\.|##|  )(\.\.|##|  ) +│", screen), screen
        # the legend of what the visible map shows, in one line under it
        assert re.search(r"\. street", screen) and "* pawns" in screen, screen
        term.send("\x1b[B")  # arrow down: the second choice's tile
        second_rot = re.search(r"2\. place\(at=-?\d+,-?\d+, rot=(\d+)\)", screen).group(1)
        assert re.search(rf"│ \w[\w ]* :{second_rot} +│", term.wait_for(rf" :{second_rot} +│"))
        term.send("?")
        legend = term.wait_for(r"legend:")  # the whole legend in the help
        assert "building" in legend
        term.send("\x1b")
        term.wait_for(r"your choice")
        term.send("q")
        term.wait_for(r"Leave the game\?")
        term.send("y")
        term.finish()
        assert b"horde resume --last" in term.raw
    finally:
        term.close()
    assert list((tmp_path / "games").glob("*.json"))  # autosaved


def test_hot_seat_leaves_no_hand_in_the_scrollback(tmp_path):
    """The app draws in the terminal's alternate screen, so nothing of it reaches the
    scrollback; the pass-the-device screen shows no hand; and once the game is left, the
    normal screen holds no card text."""
    term = Terminal("play", "roll-them-bones", "--players", "human,human", "--seed", "3",
                    tmp_path=tmp_path)
    try:
        passing = term.wait_for(r"Pass the device to P\d")
        first = re.search(r"Pass the device to P(\d)", passing).group(1)
        assert "hand" not in passing.lower() and "choice" not in passing
        term.send("\r")
        screen = term.wait_for(r"your choice")
        assert f"P{first}, your choice" in screen
        other = "1" if first == "0" else "0"
        for _ in range(40):  # P{first} decides until the device goes to the other person
            term.send(numbered(screen, "pass") if re.search(r"\d\. pass\b", screen) else "1")
            time.sleep(0.3)
            screen = term.wait_for(rf"your choice|Pass the device to P{other}")
            if f"Pass the device to P{other}" in screen:
                break
        passing = screen
        assert f"Pass the device to P{other}" in passing
        assert "your choice" not in passing and "hand" not in passing.lower()
        term.send("\x03")  # Ctrl-C: leave at once, saved
        term.finish()
    finally:
        term.close()
    enter, leave = term.raw.find(b"\x1b[?1049h"), term.raw.rfind(b"\x1b[?1049l")
    assert 0 <= enter < leave  # everything drawn between these is off the scrollback
    before, after = term.raw[:enter], term.raw[leave:]
    for text in (before, after):
        assert b"choice" not in text and b"hand" not in text.lower()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_leaves_the_game_saved(tmp_path, sig):
    term = Terminal("play", "theyre-coming", "--players", "human,random", "--seed", "5",
                    tmp_path=tmp_path)
    try:
        screen = term.wait_for(r"your choice")
        term.send("1")
        term.wait_for(r"your choice")
        term.child.kill(sig)
        term.finish()
    finally:
        term.close()
    assert term.child.exitstatus == 130
    saved = list((tmp_path / "games").glob("*.json"))
    assert len(saved) == 1
    assert len(json.loads(saved[0].read_text())["decisions"]) >= 1, screen
