"""`horde serve` in a real browser: headless Chromium (Debian's) driven by Playwright opens
the page, reads the game's terminal as the browser receives it, clicks two of the choices
it shows, and checks through the autosaved record that the game made exactly those two
decisions.

The page draws the game on a canvas, so there is no text to read in it: the test keeps its
own copy of the terminal (pyte, fed with the bytes the page's websocket receives) to find
where a choice is written, and clicks that cell of the canvas. Slow (a browser and a game
process), so CI runs it once, on its first Python.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from engine.cli.session import natural
from engine.errors import HordeError
from engine.record import check, last_state

pytestmark = pytest.mark.slow

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PACK, SEATS, SEED = "roll-them-bones", ["human", "random"], 1
HUMAN = 0
WAIT = 60  # seconds for the game to draw or to answer a click
QUIET = 0.5  # seconds without output after which the screen is taken as drawn


def needed(reason: str):
    """Skip, for `reason`; in CI, which installs everything the test needs, fail."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}: CI installs it (.ci/run)")
    pytest.skip(reason)


def chromium() -> str:
    path = shutil.which("chromium")
    if path is None:
        needed("Debian's chromium is not installed (apt-get install chromium)")
    return path


def module(name: str):
    try:
        return importlib.import_module(name)
    except ImportError:
        needed(f"{name} is not installed (pip install -e '.[web]')")


class Terminal:
    """What the page's terminal shows, rebuilt from the bytes its websocket receives."""

    def __init__(self, pyte, page):
        self.pyte, self.page = pyte, page
        self.screen = None
        self.stream = None
        self.last = time.time()  # when the screen last changed
        page.on("websocket", self.watch)

    def watch(self, websocket) -> None:
        query = parse_qs(urlsplit(websocket.url).query)
        self.resize(int(query["width"][0]), int(query["height"][0]))
        websocket.on("framereceived", self.received)
        websocket.on("framesent", self.sent)

    def resize(self, columns: int, lines: int) -> None:
        if self.screen is None:
            self.screen = self.pyte.Screen(columns, lines)
            self.stream = self.pyte.ByteStream(self.screen)
        else:
            self.screen.resize(lines, columns)

    def received(self, payload) -> None:
        if isinstance(payload, bytes):  # the game's output; text frames are the server's
            self.stream.feed(payload)
            self.last = time.time()

    def drawn(self, unlike: str | None = None) -> bool:
        """Drawn (and other than `unlike`, the screen before a click), and nothing new for
        a while: what it shows is the game's present."""
        return (self.screen is not None and time.time() - self.last > QUIET
                and self.text() != unlike)

    def sent(self, payload) -> None:
        message = json.loads(payload)
        if message[0] == "resize":
            self.resize(message[1]["width"], message[1]["height"])

    def text(self) -> str:
        return "\n".join(self.screen.display) if self.screen is not None else ""

    def find(self, word: str) -> tuple[int, int] | None:
        """(line, column) where `word` is written on its own (not inside a longer label),
        when it is written once: twice, and one of them may be the log's."""
        found = []
        for y, line in enumerate(self.screen.display if self.screen else []):
            x = line.find(word)
            while x >= 0:
                before = line[x - 1] if x else " "
                after = line[x + len(word)] if x + len(word) < len(line) else " "
                if not _label_char(before) and not _label_char(after):
                    found.append((y, x))
                x = line.find(word, x + 1)
        return found[0] if len(found) == 1 else None

    def click(self, word: str) -> None:
        """A click on the middle of `word` where the canvas draws it."""
        y, x = self.find(word)
        box = self.page.locator(".xterm-screen").bounding_box()
        width = box["width"] / self.screen.columns
        height = box["height"] / self.screen.lines
        self.page.mouse.click(box["x"] + (x + len(word) / 2) * width, box["y"] + (y + 0.5) * height)


def _label_char(c: str) -> bool:
    return c.isalnum() or c in "-_=(),."


def record_in(data: Path) -> dict | None:
    """The autosaved record of the one game played, if written yet."""
    found = []
    for path in data.rglob("*.json") if data.is_dir() else []:
        try:
            found.append(check(json.loads(path.read_text())))
        except (ValueError, OSError, HordeError):  # another file of the data folder
            continue
    return max(found, key=lambda r: len(r["decisions"]), default=None)


def the_start():
    """The game served, up to the person's first decision, made as `horde play` makes it:
    the state before the game has a record to read it from."""
    from engine.api import load
    from engine.bots import make_bot
    from engine.sim.seeds import bot_seed

    game = load(PACK)
    bots = [make_bot(spec, bot_seed(SEED, 0, s), game) for s, spec in enumerate(SEATS)]
    state = game.new_state(players=len(SEATS), seed=SEED)
    while (d := state.decision()) is not None and d.player != HUMAN:
        state.apply(bots[d.player].choose(state, d))
    return state


def wait_for(what: str, test, page, terminal):
    deadline = time.monotonic() + WAIT
    while (result := test()) is None or result is False:
        if time.monotonic() > deadline:
            pytest.fail(f"waited {WAIT} s for {what}; the screen:\n{terminal.text()}")
        page.wait_for_timeout(100)
    return result


def click_a_choice(data: Path, page, terminal, before: str | None) -> str:
    """Click one of the person's choices where the screen shows it; the record must gain
    that decision, and only after the ones it had. `before` is the screen when the last
    click was made: until the screen is another, it is the old one. Returns the screen
    when this click was made."""
    wait_for("the screen to be drawn anew", lambda: terminal.drawn(unlike=before), page, terminal)
    record = record_in(data)
    state = last_state(record) if record is not None else the_start()
    d = state.decision()
    assert d is not None and d.player == HUMAN
    labels = sorted(d.actions, key=natural)
    label = wait_for(f"one of the choices {labels} on the screen, once",
                     lambda: next((a for a in labels if terminal.find(a)), None), page, terminal)
    made = list(state.history)
    screen = terminal.text()
    terminal.click(label)
    after = wait_for(f"the decision {label!r} in the record", lambda: (
        r if (r := record_in(data)) and len(r["decisions"]) > len(made) else None), page, terminal)
    assert after["decisions"][len(made)] == label  # the choice clicked, nothing else
    assert after["decisions"][:len(made)] == made
    return screen


def test_two_decisions_by_clicking_in_the_browser(serve, tmp_path):
    executable = chromium()
    sync_api = module("playwright.sync_api")
    pyte = module("pyte")
    served = serve(PACK, "--players", ",".join(SEATS), "--seed", str(SEED))
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            terminal = Terminal(pyte, page)
            page.goto(served.url, wait_until="domcontentloaded")
            page.wait_for_selector("body.-first-byte", timeout=WAIT * 1000)
            first = click_a_choice(served.data, page, terminal, None)
            second = click_a_choice(served.data, page, terminal, first)
            record = record_in(served.data)
            assert (record["pack"], record["seed"], record["bots"]) == (PACK, SEED, SEATS)
            wait_for("the screen after the second click", lambda: terminal.drawn(unlike=second),
                     page, terminal)
            page.screenshot(path=str(tmp_path / "serve.png"))  # to look at after a run by hand
        finally:
            browser.close()
    output = served.stop()
    assert "Traceback" not in output
    assert "failed to start" not in output
