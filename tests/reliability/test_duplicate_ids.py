"""Two items with one id in one list of one file are an error naming both places.

Lists of items merge by id (docs/overlays.md), so one file giving an id twice is
ambiguous: in an overlay the second new card silently replaced the first, and in a base
pack a patch of a repeated flow-node id hit the first. Each case below is refused with
both places (file:line:col); its control, the same ids in different lists or in
different files, still loads.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import engine
from engine.errors import PackError
from engine.pack.loader import rulesets_dir

PACK = "roll-them-bones"
CARD = "zone: item_stack, discard: item_discard, tags: [item]"


def _problems(tmp_path: Path, text: str, name: str = "house.yaml") -> list[str]:
    house = tmp_path / name
    house.write_text(text)
    with pytest.raises(PackError) as info:
        engine.load(PACK, house=[house])
    return [str(p.span) + ": " + p.message for p in info.value.problems]


def _twice(path: Path, where: str, ident: str, second: tuple[int, int],
           first: tuple[int, int]) -> str:
    return (f"{path}:{second[0]}:{second[1]}: {where}: id '{ident}' is given twice in this "
            f"list (first at {path}:{first[0]}:{first[1]})")


def test_two_new_cards_with_one_id_in_an_overlay(tmp_path):
    got = _problems(tmp_path, f"""extends: {PACK}
cards:
  - {{id: flare, count: 1, {CARD}}}
  - {{id: flare, count: 5, {CARD}}}
""")
    assert got == [_twice(tmp_path / "house.yaml", "cards", "flare", (4, 10), (3, 10))]


def test_two_new_cards_with_their_own_ids_are_both_added(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(f"""extends: {PACK}
cards:
  - {{id: flare, count: 1, {CARD}}}
  - {{id: flare2, count: 5, {CARD}}}
""")
    game = engine.load(PACK, house=[house])
    assert game.cards["flare"].count == 1 and game.cards["flare2"].count == 5


def test_two_patches_of_one_action_in_an_overlay(tmp_path):
    got = _problems(tmp_path, f"""extends: {PACK}
actions:
  - {{id: grenade, if: "false"}}
  - {{id: grenade, who: current}}
""")
    assert got == [_twice(tmp_path / "house.yaml", "actions", "grenade", (4, 10), (3, 10))]


def test_two_policy_rules_with_one_id_in_an_overlay(tmp_path):
    got = _problems(tmp_path, f"""extends: {PACK}
policies:
  greedy:
    rules:
      - {{id: keys, play: keys}}
      - {{id: keys, play: first-aid}}
""")
    assert got == [_twice(tmp_path / "house.yaml", "policies.greedy.rules", "keys", (6, 14),
                          (5, 14))]


def test_two_flow_nodes_with_one_id_deep_in_an_overlay(tmp_path):
    got = _problems(tmp_path, f"""extends: {PACK}
flow:
  - id: rounds
    do:
      - id: turns
        do:
          - {{id: shout, before: turn, do: "log('hey')"}}
          - {{id: shout, after: turn, do: "log('ho')"}}
""")
    assert got == [_twice(tmp_path / "house.yaml", "flow[0].do[0].do", "shout", (8, 18),
                          (7, 18))]


def test_one_id_in_two_lists_of_a_flow_is_no_duplicate(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(f"""extends: {PACK}
procedures:
  turn:
    flow:
      - id: skip
        then:
          - {{id: note, do: "log('skipped')"}}
        else:
          - {{id: note, after: turn-start, do: "log('playing')"}}
""")
    engine.load(PACK, house=[house])


def test_a_house_rule_may_patch_what_the_pack_declares(tmp_path):
    """The same id in two files is a patch, not a duplicate: what overlays are for."""
    house = tmp_path / "house.yaml"
    house.write_text(f"extends: {PACK}\ncards:\n  - {{id: grenade, count: 5}}\n")
    assert engine.load(PACK, house=[house]).cards["grenade"].count == 5


@pytest.fixture
def pack(tmp_path) -> Path:
    folder = tmp_path / "mine"
    shutil.copytree(rulesets_dir() / PACK, folder)
    return folder


def _edit(pack: Path, old: str, new: str) -> None:
    path = pack / "pack.yaml"
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))


def test_two_nested_flow_nodes_with_one_id_in_a_base_pack(pack):
    lines = (pack / "pack.yaml").read_text().split("\n")
    first = lines.index("          - id: turn-start") + 1
    second = lines.index("          - id: roll-black") + 1  # the line the error names
    _edit(pack, "          - id: roll-black\n", "          - id: turn-start\n")
    with pytest.raises(PackError) as info:
        engine.load(pack)
    (problem,) = info.value.problems
    assert (problem.span.line, problem.span.col) == (second, 17)
    assert problem.message == ("procedures.turn.flow[0].else: id 'turn-start' is given twice "
                               f"in this list (first at {pack / 'pack.yaml'}:{first}:17)")


def test_two_cards_with_one_id_in_a_base_pack_name_both_lines(pack):
    _edit(pack, "  - {id: shotgun, count: 3,", "  - {id: grenade, count: 3,")
    with pytest.raises(PackError) as info:
        engine.load(pack)
    assert [str(p.span) + ": " + p.message for p in info.value.problems] == [
        _twice(pack / "pack.yaml", "cards", "grenade", (56, 10), (54, 10))]


def test_a_duplicate_in_an_included_file_is_placed_there(pack):
    (pack / "more.yaml").write_text(f"cards:\n  - {{id: flare, {CARD}}}\n"
                                    f"  - {{id: flare, {CARD}}}\n")
    _edit(pack, "pack: roll-them-bones\n", "pack: roll-them-bones\ninclude: [more.yaml]\n")
    with pytest.raises(PackError) as info:
        engine.load(pack)
    assert [str(p.span) + ": " + p.message for p in info.value.problems] == [
        _twice(pack / "more.yaml", "cards", "flare", (3, 10), (2, 10))]


def test_validate_shows_both_places(horde, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(f"extends: {PACK}\nflow:\n  - {{id: rounds, do: [{{id: turns}}, "
                     "{id: turns}]}\n")
    r = horde("validate", house)
    assert r.exit_code == 1
    assert (f"{house}:3:41: flow[0].do: id 'turns' is given twice in this list (first at "
            f"{house}:3:28)") in r.output
