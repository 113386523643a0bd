"""A die's faces may be worked out from params at load: the whole list as one expression,
or any face of a list; validate places a bad one at its line."""

import json

from engine.api import load

PACK = """\
pack: faces
players: {min: 1, max: 2}
params:
  sides: {default: 6, min: 2, max: 20}
dice:
  d: {faces: "range(1, params.sides + 1)"}
  odd: {faces: [1, "params.sides", "params.sides * 2"]}
vars: {last: 0}
flow:
  - do: |
      game.last = roll(d) + roll(odd)
      end_game()
"""


def _write(tmp_path, text):
    path = tmp_path / "pack.yaml"
    path.write_text(text)
    return path


def test_faces_follow_the_params(tmp_path):
    path = _write(tmp_path, PACK)
    assert load(path).dice == {"d": [1, 2, 3, 4, 5, 6], "odd": [1, 6, 12]}
    assert load(path, params={"sides": 3}).dice == {"d": [1, 2, 3], "odd": [1, 3, 6]}


def test_rolls_land_on_the_faces_the_params_make(tmp_path):
    game = load(_write(tmp_path, PACK), params={"sides": 2})
    seen = set()
    for seed in range(40):
        S = game.new_state(players=1, seed=seed)
        assert S.decision() is None and S.is_terminal()
        seen.add(S.vars["last"])
    assert seen == {2, 3, 4, 5, 6}  # {1, 2} + {1, 2, 4}


def _problems(horde, tmp_path, faces: str):
    path = _write(tmp_path, PACK.replace('"range(1, params.sides + 1)"', faces))
    result = horde("validate", "--json", "--strict", path)
    assert result.exit_code == 1
    return [(p["line"], p["col"], p["message"]) for p in json.loads(result.output)["problems"]]


def test_bad_faces_are_placed_by_validate(horde, tmp_path):
    assert _problems(horde, tmp_path, '"range(1, params.sidez + 1)"') == [
        (6, 24, "unknown param 'sidez'")]
    assert _problems(horde, tmp_path, '"game.last"')[0][:2] == (6, 15)
    assert _problems(horde, tmp_path, '"[1, true]"') == [
        (6, 14, "die 'd': faces must give a list of whole numbers, got [1, true]")]
    assert _problems(horde, tmp_path, '[1, "params.sides > 2"]') == [
        (6, 18, "die 'd': face 1 must give a whole number, got true")]
    assert _problems(horde, tmp_path, '"range(0)"') == [(6, 6, "die 'd' has no faces")]
