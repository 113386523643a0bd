"""Whole games at the table in a pseudo-terminal, as a person plays them (issue 19's
"done when"): DEFCON Z against two greedy bots with every tile placed and every step
taken from what the map shows, and Roll Them Bones with nothing of the person's own
hidden from them before their next prompt. Waits are on the screen, never on the clock.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.cli.test_play_pty import PROMPT, screen, spawn
from tests.cli.tilemap_screen import last_map, offers_on, pawn_square

pexpect = pytest.importorskip("pexpect")

LIMIT = 600  # prompts before a game that never ends fails the test


def numbered(shown: str) -> dict[str, int]:
    """The choices of the last list on the screen: what is printed -> its number."""
    block = shown[shown.rindex("your choice"):]
    return {label: int(k) for k, label in re.findall(r"(\d+)\. (\S+(?: rot=\d+\))?)", block)}


DZ_GAME = ("--seed", "4", "--set", "win_kills=4")  # short: 4 kills on the Helipad win


def play_from_the_map(child) -> tuple[int, int, str]:
    """Play P0's every decision from what the screen shows: a tile where the map numbers a
    placement, a step to a square next to the pawn on the map, else pass (or stop, or the
    first choice). (tiles placed, steps taken, the last screen)."""
    placed = stepped = 0
    k = child.expect([PROMPT, pexpect.EOF])
    for _ in range(LIMIT):
        if k == 1:
            return placed, stepped, screen(child)
        shown = screen(child)
        choices = numbered(shown)
        offers = offers_on(shown) if "placing " in shown else {}
        steps = {(int(x), int(y)): n for label, n in choices.items()
                 if (m := re.fullmatch(r"move\(to=(-?\d+),(-?\d+)\)", label))
                 for x, y in [m.groups()]}
        if offers:  # a tile to place: a number read off the map
            n = min(offers)
            (tx, ty), rot = offers[n]
            child.sendline(str(n))
            k = child.expect([PROMPT, pexpect.EOF])
            assert re.search(rf"P0 places .+ at {tx},{ty} turned {rot}", screen(child))  # a tile by name
            placed += 1
        elif steps:  # a step: a square next to the pawn, as the map shows it
            x, y = pawn_square(shown, 0)
            near = sorted(sq for sq in steps if abs(sq[0] - x) + abs(sq[1] - y) == 1)
            assert near == sorted(steps), ((x, y), sorted(steps))  # nothing offered elsewhere
            child.sendline(str(steps[near[stepped % len(near)]]))
            k = child.expect([PROMPT, pexpect.EOF])
            stepped += 1
        else:
            child.sendline(str(choices.get("pass", choices.get("stop", 1))))
            k = child.expect([PROMPT, pexpect.EOF])
    raise AssertionError("the game did not end")


def test_a_whole_defcon_z_game_played_from_the_map(tmp_path):
    save = tmp_path / "game.json"
    child = spawn("play", "defcon-z", "--players", "human,greedy,greedy", *DZ_GAME,
                  "--save", str(save), tmp_path=tmp_path)
    placed, stepped, end = play_from_the_map(child)
    assert "Game over: " in end
    child.close()
    assert child.exitstatus == 0
    assert placed >= 3 and stepped >= 3, (placed, stepped)
    assert len(json.loads(save.read_text())["decisions"]) > placed + stepped
    assert last_map(end)  # the last screen still draws the map


def test_a_whole_roll_them_bones_game_shows_the_person_everything_of_their_own(tmp_path):
    import engine.record as record
    from engine.codec import log_seen_by
    from engine.render import log_line

    save = tmp_path / "game.json"
    child = spawn("play", "roll-them-bones", "--players", "human,random,random", "--seed",
                  "3", "--save", str(save), tmp_path=tmp_path)
    chunks = []  # what the screen showed before each prompt, and after the last one
    k = child.expect([PROMPT, pexpect.EOF])
    for _ in range(LIMIT):
        chunks.append(screen(child))
        if k == 1:
            break
        child.sendline(str(numbered(chunks[-1]).get("pass", 1)))
        k = child.expect([PROMPT, pexpect.EOF])
    child.close()
    assert child.exitstatus == 0
    rec = json.loads(save.read_text())
    states = list(record.replay(rec, str(save)))
    # where the log stood at each of the person's decisions, then at the end
    marks = [len(S.log) for S in states if (d := S.decision()) is not None and d.player == 0]
    marks.append(len(states[-1].log))
    assert len(marks) == len(chunks)
    log = log_seen_by(states[-1], 0)
    start = 0
    mine = 0
    for chunk, stop in zip(chunks, marks, strict=True):
        flat = " ".join(chunk.split())
        for entry in log[start:stop]:
            line = log_line(entry)
            if line and re.search(r"\bP0\b", line):  # the person's own: on screen by now
                words = " ".join(line.split())
                assert words in flat, (words, chunk[-2000:])
                mine += 1
        start = stop
    assert mine > 10
    assert any("P0 is out of the game" in c for c in chunks)  # seed 3: the knock-out
