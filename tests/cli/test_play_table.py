"""Playing at the table as a person: news since the last decision, help at the prompt,
stopping and saying how to go on, words (plurals, a solo loss), bots' scores, `horde list`."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console

import engine
from engine.cli.seen import Feed
from engine.render import Renderer
from engine.render.panels import singular
from tests.cli.conftest import PACK


def test_the_news_before_the_first_decision_starts_at_turn_one(horde):
    # seed 3: the person's first decision comes at turn 7; the 8 last log lines began at turn 5
    r = horde("play", PACK, "--players", "human,random", "--seed", 3, input="q\n")
    first_prompt = r.output.index("P0, your choice")
    news = r.output[:first_prompt]
    for turn in range(1, 8):
        assert f"— turn {turn}: P" in news
    assert "P0 is bitten (health 2)" in news


def test_the_person_sees_their_own_knock_out(horde):
    r = horde("play", PACK, "--players", "human,random", "--seed", 3, input="pass\n" * 40)
    news, _, _ = r.output.rpartition("Game over")
    assert "› P0 is out of the game" in news  # marked as being about them
    assert "▶ for you (P0): Health 1/3 → 0/3" in news and "Status — → out" in news


def test_question_mark_explains_each_choice_with_the_card_text(horde):
    r = horde("play", PACK, "--players", "human,random", "--seed", 3, input="?\nrules\nlog\nq\n")
    assert "fear(target=1)" in r.output
    assert "card fear: Any time: a player skips their next turn." in r.output
    assert "target = player P1" in r.output
    assert "pass: do nothing here" in r.output
    assert "First to escape wins." in r.output  # rules: the pack's description
    assert "is not a choice here" not in r.output
    # the point's own words at the prompt, not only its internal name
    assert "turn_end: the end of the turn" in r.output


def test_q_prints_the_exact_resume_command(horde, tmp_path):
    save = tmp_path / "my game.json"
    r = horde("play", PACK, "--players", "human,random", "--seed", 3, "--save", save,
              input="q\n")
    assert r.exit_code == 0, r.output
    assert f"to go on with it: horde resume '{save}'" in r.output
    autosaved = horde("play", PACK, "--players", "human,random", "--seed", 3, input="q\n")
    assert "to go on with it: horde resume --last" in autosaved.output


def test_replay_step_stops_on_q(horde, tmp_path):
    saved = tmp_path / "game.json"
    horde("play", PACK, "--players", "random,random", "--seed", 2, "--save", saved)
    total = len(json.loads(saved.read_text())["decisions"])
    assert total > 2
    r = horde("replay", saved, "--step", input="\nq\n\n\n")
    assert r.exit_code == 0
    assert f"Stopped after decision 1/{total}" in r.output
    assert f"decision 2/{total}" not in r.output


def test_one_is_singular():
    assert singular("P0 meets 1 zombies") == "P0 meets 1 zombie"
    assert singular("P0 kills the zombie (1 kills)") == "P0 kills the zombie (1 kill)"
    for kept in ("P0 meets 11 zombies", "-1 zombies", "1.1 zombies", "1 bus", "1 class"):
        assert singular(kept) == kept


def test_one_player_is_one_player(horde):
    r = horde("play", PACK, "--players", "human", "--seed", 1, input="q\n")
    assert "1 player (human)" in r.output


def test_a_solo_loss_reads_as_a_loss_with_its_score(horde, tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path))
    r = horde("play", "theyre-coming", "--mode", "death-comes-knocking", "--players", "random",
              "--seed", 1)
    assert "Game over: P0 loses with a score of " in r.output


def test_bots_scores_stay_out_of_the_table_unless_asked_and_are_marked(horde, tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path))
    args = ("play", "theyre-coming", "--mode", "death-comes-knocking", "--players", "random",
            "--seed", 1)
    r = horde(*args)
    assert "score not recorded: bots played" in r.output
    assert "no scores yet" in horde("scores").output
    horde(*args, "--scores-for-bots")
    entries = json.loads(horde("scores", "--json").output)
    assert [e["bots"] for e in entries] == [["random"]]
    assert "17 (bot)" in horde("scores").output


def test_scores_of_a_misspelt_pack_suggest_the_closest(horde, tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path))
    r = horde("scores", "theyre-comming")
    assert r.exit_code == 1
    assert "did you mean 'theyre-coming'?" in r.output
    assert horde("scores", "theyre-coming").exit_code == 0  # a real pack with no scores yet


def test_list_never_breaks_a_name_when_piped(horde):
    out = horde("list").output  # CliRunner's output is not a terminal: 80 columns
    for name in ("death-comes-knocking", "overwhelming-odds", "roll-them-bones", "long-game"):
        assert name in out


@pytest.fixture(scope="module")
def defcon():
    return engine.load("defcon-z")


def test_news_never_shows_a_hidden_card_to_another_seat(defcon):
    """Hot seat: each seat's news is its own view of the log. P0 puts map tiles back face
    down (the scene of tests/engine/test_hidden_info.py): P1's news says only that it
    happened, P0's names the tiles."""
    from engine.flow.machine import run_effect
    from tests.engine.test_hidden_info import TOWER

    setup = defcon.compile_expr(TOWER, effect=True)

    def prepare(S):
        run_effect(S, setup, {})
        S.forced = [1, 1]

    S = defcon.new_state(players=2, seed=1, prepare=prepare)
    feed = Feed(Renderer(defcon))
    for label in ["place(at=0,-1, rot=0)", "stop", "shamble(z=zombie@1,-3)",
                  "restack(tile=corner)", "restack(tile=diner)", "restack(tile=pawn-shop)"]:
        S.apply(label)
    theirs = "\n".join(t.plain for t in feed.take(S, 1))
    mine = "\n".join(t.plain for t in feed.take(S, 0))
    assert "restack(hidden)" in theirs and "tile=" not in theirs.split("restack")[1]
    assert "restack(tile=corner)" in mine
    assert "place(at=0,-1, rot=0)" in theirs  # a tile placed in public stays readable
    board = Renderer(defcon).render(S, 1)  # the board's own log panel masks it too
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(board)
    assert "restack(tile=" not in console.export_text()


def test_a_bot_that_thinks_long_shows_thinking_with_its_time(monkeypatch):
    """The indicator appears once THINK_AFTER has passed (set to 0 here); the bot's
    'thinking' is a wait on what the screen shows, never on the clock."""
    import threading

    from engine.cli import session

    monkeypatch.setattr(session, "THINK_AFTER", 0.0)
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=80)
    shown = threading.Event()

    class Watch(io.StringIO):
        def write(self, s):
            if "thinking…" in s:
                shown.set()
            return screen.write(s)

    console.file = Watch()
    with session.Thinking(console, "P1 (mcts:200)"):
        assert shown.wait(30)  # the bot is still choosing: the line is on the screen
    text = screen.getvalue()
    assert re.search(r"P1 \(mcts:200\) thinking… \d+\.\d s", text)
    assert text.endswith("\r\x1b[K")  # wiped once the bot has chosen


def test_no_thinking_line_when_the_output_is_not_a_terminal(monkeypatch):
    from engine.cli import session

    monkeypatch.setattr(session, "THINK_AFTER", 0.0)
    console = Console(file=io.StringIO(), force_terminal=False)
    with session.Thinking(console, "P1 (random)") as t:
        pass
    assert t.thread is None and console.file.getvalue() == ""


def test_players_means_the_seats_in_every_command(horde):
    """--players is a number of seats or who sits at each, in play as in sim and compare."""
    listed = json.loads(horde("sim", PACK, "-n", 10, "--seed", 1, "--players", "greedy,random",
                              "--json").output)
    counted = json.loads(horde("sim", PACK, "-n", 10, "--seed", 1, "--players", 2, "--bots",
                               "greedy,random", "--json").output)
    listed.pop("seconds"), counted.pop("seconds")
    assert listed == counted and listed["bots"] == ["greedy", "random"]
    r = horde("play", PACK, "--players", 2, "--seed", 1, input="q\n")
    assert "2 players (human, random)" in r.output
    both = horde("sim", PACK, "-n", 10, "--players", "greedy,random", "--bots", "random")
    assert both.exit_code == 1 and "--bots is not needed" in both.output
    assert horde("compare", PACK, "--set", "health=4", "-n", 10, "--players", "greedy,random"
                 ).exit_code == 0
