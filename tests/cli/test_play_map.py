"""A tile map at the table: the tile a person places is drawn in each rotation, and every
legal placement is numbered on the map with the number that chooses it."""

from __future__ import annotations

import re

from tests.cli.tilemap_screen import offers_on

DZ = ("play", "defcon-z", "--players", "human,greedy,greedy", "--seed", 3)


def test_each_placement_is_numbered_on_the_map_as_it_is_listed(horde):
    r = horde(*DZ, input="1\nq\n")  # seed 3: a pass, then P0 places McCormick Animal Hospital
    screen = r.output[:r.output.rindex("P0> ")]
    assert "placing McCormick Animal Hospital (n:r on the map: choice n" in screen
    assert re.search(r"^ {4}:0 +:90 +:180 +:270$", screen, re.M)  # the tile, turned
    listed = {int(k): ((int(x), int(y)), int(rot)) for k, x, y, rot in
              re.findall(r"(\d+)\. place\(at=(-?\d+),(-?\d+), rot=(\d+)\)", screen)}
    assert len(listed) == 12
    assert offers_on(screen) == listed


def test_the_number_read_off_the_map_places_the_tile_there(horde):
    first = horde(*DZ, input="1\nq\n").output
    (k, ((tx, ty), rot)), *_ = sorted(offers_on(first).items(), key=lambda o: -o[0])
    r = horde(*DZ, input=f"1\n{k}\nq\n")
    assert f"P0 places McCormick Animal Hospital at {tx},{ty} turned {rot}" in r.output


def test_no_numbers_on_the_map_when_the_choice_is_not_a_placement(horde):
    r = horde(*DZ, input="q\n")  # the first prompt: play a card or pass
    assert "placing " not in r.output and not re.search(r"\d+:\d+ ", r.output)


def test_the_players_table_says_what_its_short_column_labels_mean(horde):
    r = horde(*DZ, input="q\n")
    words = " ".join(r.output[r.output.index("columns: "):].split())
    assert words.startswith("columns: Hrt hearts · Bul bullets")
    for label in ("Inf infection", "Fol followers", "Kit Dr. Tilton's kit: ready"):
        assert label in words
    assert "* several pawns" in r.output  # and the map's `*`


def test_a_column_help_must_be_words(horde, pack_copy):
    from tests.cli.conftest import edit
    edit(pack_copy / "pack.yaml", '{label: Item, value: "p.item"}',
         '{label: Item, value: "p.item", help: [1]}')
    r = horde("validate", pack_copy)
    assert r.exit_code == 1 and "view.players[2].help: expected a string, got a list" in r.output
    edit(pack_copy / "pack.yaml", "help: [1]", 'help: "the item card you hold"')
    r = horde("play", pack_copy, "--players", "human,random", "--seed", 3, input="q\n")
    assert "columns: Item the item card you hold" in r.output


def test_the_stored_log_counts_a_first_kill_in_good_words():
    import random

    import engine
    from engine.render.panels import singular

    S = engine.load("defcon-z").new_state(players=2, seed=1)
    pick = random.Random(1)
    while not S.over:
        S.apply(pick.choice(S.decision().actions))
    kills = [e["text"] for e in S.log if "kills the zombie" in e.get("text", "")]
    assert any(text.endswith("(kills: 1)") for text in kills)
    assert all(singular(text) == text for text in kills)


def test_help_calls_a_placement_a_tile_position_not_a_square(horde):
    r = horde(*DZ, input="1\n?\nq\n")
    assert "at = the tile position t-1, t0 (column t-1, row t0; 1:0 on the map)" in r.output
    assert "rot = turned 0° clockwise" in r.output
    assert "at = the square" not in r.output
