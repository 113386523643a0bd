"""What the table shows besides the board, from each pack's words: the hand with its cards'
texts and the playable ones marked, the goal and each player's progress (honouring --set),
the glossary, and the reason a finished game gives (the `why:` of the end rule that fired)."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

import engine
from engine.bots import make_bot
from engine.errors import PackError
from engine.render import Renderer, result_text
from engine.render.template import compile_template

GAMES = [("roll-them-bones", None, 3, "random"), ("theyre-coming", None, 1, "random"),
         ("theyre-coming", "zombie-race", 2, "random"), ("defcon-z", None, 2, "greedy"),
         ("defcon-z", "cooperative", 2, "greedy")]


def text(renderable) -> str:
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(renderable)
    return out.getvalue()


def finish(game, players: int, bots: str, seed: int):
    S = game.new_state(players=players, seed=seed)
    seats = [make_bot(bots, seed * 10 + i, game) for i in range(players)]
    while not S.over:
        d = S.decision()
        S.apply(seats[d.player].choose(S, d))
    return S


@pytest.mark.parametrize(("pack", "mode", "players", "bots"), GAMES)
def test_every_pack_says_its_goal_and_why_its_game_ended(pack, mode, players, bots):
    game = engine.load(pack, mode=mode)
    r = Renderer(game)
    S = game.new_state(players=players, seed=1)
    shown = text(r.goal(S, 0))
    assert shown.startswith("Goal: ") and "P0 (you): " in shown
    end = finish(game, players, bots, 1)
    said = result_text(end)
    assert re.match(r"(P\d( and P\d)? wins?|P0 loses|everyone loses|turn limit)", said)
    if not end.limit_hit:
        assert ": " in said, said  # a reason after the result


def test_the_goal_honours_set():
    game = engine.load("defcon-z", params={"win_kills": "6"})
    shown = text(Renderer(game).goal(game.new_state(seed=1), 1))
    assert "with 6 kills" in shown and "0/6 kills" in shown and "15" not in shown


def test_defcon_z_says_who_reached_the_helipad_and_with_what():
    game = engine.load("defcon-z", mode="competitive")
    S = finish(game, 2, "greedy", 1)
    assert S.winners
    w = S.winners[0]
    p = S.pl[w]
    assert result_text(S) == (f"P{w} wins: on the Helipad with {p['kills']} kills and "
                              f"{p['infection']} infection counter" + ("" if p["infection"] == 1 else "s"))


def test_roll_them_bones_says_what_each_roll_achieved():
    game = engine.load("roll-them-bones")
    S = finish(game, 3, "random", 7)
    lines = [e["text"] for e in S.log if e.get("t") == "msg"]
    assert any(re.fullmatch(r"P\d rolls \d+ kills against \d+ zombies: the street is clear", t)
               for t in lines)
    assert any(re.fullmatch(r"P\d rolls only \d+ kills against \d+ zombies: they bite", t)
               for t in lines)
    assert any(re.fullmatch(r"P\d runs \d+ blocks: block \d+ of 16", t) for t in lines)
    assert re.fullmatch(r"P\d wins: escaped by helicopter with \d health left, after \d+ turns",
                        result_text(S))


def test_the_hand_shows_every_card_with_its_text_and_marks_the_playable_ones():
    game = engine.load("defcon-z")
    S = game.new_state(players=2, seed=2)
    d = S.decision()
    shown = sorted(d.actions)
    hand = text(Renderer(game).hand(S, d.player, shown))
    assert "Unwelcome Guest (choice 3): Any time: put a zombie" in hand
    assert "Butterfingers (choice 2): Any time: another player drops 2 bullets." in hand
    assert Renderer(game).hand(S, None) is None  # a spectator has no hand
    other = text(Renderer(game).hand(S, 1 - d.player))  # not their decision: nothing marked
    assert "▶" not in other and "choice" not in other and other.strip()


def test_the_glossary_explains_dice_faces_weapons_pieces_and_tiles():
    rtb = Renderer(engine.load("roll-them-bones")).glossary()
    assert ("dice", "zombie2", "kills 2 zombies") in rtb
    assert [n for s, n, _ in rtb if s == "dice"] == ["zombie", "zombie2", "run", "run2", "item",
                                                     "event"]  # each face once
    assert any(s == "columns" and n == "Zombies" and "black die" in t for s, n, t in rtb)
    tcg = Renderer(engine.load("theyre-coming")).glossary()
    names = {(s, n) for s, n, _ in tcg}
    assert ("cards", "Pistol (6 shots)") in names and ("pieces", "Runner (R)") in names
    assert any(s == "columns" and "x4: 4 shots" in t for s, _, t in tcg)
    dz = Renderer(engine.load("defcon-z")).glossary()
    assert any(s == "tiles" and n == "Foodlandia" and "+1 heart" in t for s, n, t in dz)


def test_a_misspelt_name_in_a_template_is_a_pack_error():
    game = engine.load("roll-them-bones")
    with pytest.raises(PackError, match="unknown param 'helth'"):
        compile_template(game, "health {params.helth}", {}, None, "view.goal.text")
    with pytest.raises(PackError, match="never closed"):
        compile_template(game, "health {params.health", {}, None, "view.goal.text")
    t = compile_template(game, "{{literal}} {params.blocks}", {}, None, "x")
    assert t.render(game.new_state(seed=1)) == "{literal} 16"


def test_log_lines_read_ids_as_names():
    from engine.render.table import id_names, named
    names = id_names(engine.load("theyre-coming"))
    assert named("P0 picks up a pistol-6", names) == "P0 picks up a Pistol (6 shots)"
    names = id_names(engine.load("defcon-z"))
    assert named("P1 must play supply-drop on town-square", names) == \
        "P1 must play Automatic: Supply Drop on Town Square"
    assert named("the pistol of P0 jams", names) == "the pistol of P0 jams"  # a word stays


def test_words_for_the_table_leave_the_pack_hash_alone():
    import copy

    from engine.model import pack_hash
    game = engine.load("roll-them-bones")
    raw = copy.deepcopy(game.raw)
    before = pack_hash(raw, game.params, game.mode)
    assert before == game.hash
    raw["end"][0]["why"] = "other words {p.health}"
    raw["dice"]["zombie_item"]["faces"][2]["text"] = "other words"
    raw["view"]["goal"] = {"text": "other words"}
    raw["view"]["hand"] = {"tags": {"item": "other words"}}
    raw["kinds"] = [{"id": "x", "name": "X", "text": "words"}]
    with_kinds = pack_hash(raw, game.params, game.mode)
    for item in raw["kinds"]:
        item.pop("name"), item.pop("text")
    assert pack_hash(raw, game.params, game.mode) == with_kinds
    del raw["kinds"]
    assert pack_hash(raw, game.params, game.mode) == before
    raw["end"][0]["when"] = "false"  # what decides play still counts
    assert pack_hash(raw, game.params, game.mode) != before
