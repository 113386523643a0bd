"""A tile map at the table: the tile a person places is drawn in each rotation, and every
legal placement is numbered on the map with the number that chooses it."""

from __future__ import annotations

import re

from tests.cli.tilemap_screen import offers_on

DZ = ("play", "defcon-z", "--players", "human,greedy,greedy", "--seed", 3)


def test_each_placement_is_numbered_on_the_map_as_it_is_listed(horde):
    r = horde(*DZ, input="1\nq\n")  # seed 3: a pass, then P0 places McCormick Animal Hospital
    screen = r.output[:r.output.rindex("P0> ")]
    assert "placing McCormick Animal Hospital: n:r on the map is choice n" in screen
    assert re.search(r"^ {4}:0 +:90 +:180 +:270$", screen, re.M)  # the tile, turned
    listed = {int(k): ((int(x), int(y)), int(rot)) for k, x, y, rot in
              re.findall(r"(\d+)\. place\(at=(-?\d+),(-?\d+), rot=(\d+)\)", screen)}
    assert len(listed) == 12
    assert offers_on(screen) == listed


def test_the_number_read_off_the_map_places_the_tile_there(horde):
    first = horde(*DZ, input="1\nq\n").output
    (k, ((tx, ty), rot)), *_ = sorted(offers_on(first).items(), key=lambda o: -o[0])
    r = horde(*DZ, input=f"1\n{k}\nq\n")
    assert f"P0 places mccormick-animal-hospital at {tx},{ty} turned {rot}" in r.output


def test_no_numbers_on_the_map_when_the_choice_is_not_a_placement(horde):
    r = horde(*DZ, input="q\n")  # the first prompt: play a card or pass
    assert "placing " not in r.output and not re.search(r"\d+:\d+ ", r.output)
