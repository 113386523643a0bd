"""`horde doc` on every pack and mode names every point of its flow and every event it
can announce, and shows a house rule's additions like the base's."""

from __future__ import annotations

import pytest

from engine.api import load
from engine.cli.doc import render
from engine.pack.events import emitters
from engine.pack.loader import list_packs, rulesets_dir

GAMES = [(p.id, None) for p in list_packs()] + [(p.id, m) for p in list_packs() for m in p.modes]


@pytest.mark.parametrize("pack, mode", GAMES, ids=[f"{p}-{m}" for p, m in GAMES])
def test_doc_names_every_point_and_event(pack, mode):
    game = load(pack, mode=mode)
    text = render(game)
    points = {n.point for n in game.nodes if n.point is not None}
    assert points
    for point in points:
        assert f" {point} (who:" in text, point
    for event in emitters(game):
        assert f"\n  {event}: emitted by" in text, event
    for param in game.params:
        assert f"params.{param}:" in text


def _flow_ids(nodes) -> list[str]:
    out = []
    for node in nodes if isinstance(nodes, list) else ():
        if isinstance(node, dict):
            out += [node["id"]] if "id" in node else []
            for key in ("then", "else", "do"):
                out += _flow_ids(node.get(key))
    return out


@pytest.mark.parametrize("pack, mode", GAMES, ids=[f"{p}-{m}" for p, m in GAMES])
def test_doc_names_every_flow_step_an_overlay_can_hook(pack, mode):
    game = load(pack, mode=mode)
    text = render(game)
    steps = text[text.index("Setup and flow steps"):text.index("Events")]
    ids = _flow_ids(game.raw.get("flow"))
    setup = game.raw.get("setup")
    ids += [s["id"] for s in setup] if isinstance(setup, list) else []
    for proc in (game.raw.get("procedures") or {}).values():
        ids += _flow_ids(proc.get("flow") if isinstance(proc, dict) else None)
    assert ids
    for ident in ids:
        assert f"[{ident}] " in steps, ident


def test_doc_shows_a_house_rules_flow_step_where_it_goes(horde, tmp_path):
    house = tmp_path / "shout.yaml"
    house.write_text("extends: roll-them-bones\nprocedures:\n  turn:\n    flow:\n"
                     "      - id: skip\n        else:\n"
                     "          - {id: shout, after: roll-black, do: \"log('{} shouts', current)\"}\n")
    r = horde("doc", "roll-them-bones", "--house", house)
    assert r.exit_code == 0, r.output
    assert "[roll-black] do: turn.black = roll(black) ...\n" \
           "              [shout] do: log('{} shouts', current)\n" in r.output


def test_doc_shows_a_house_rules_card_action_and_rule_in_markdown(horde):
    house = rulesets_dir() / "roll-them-bones" / "house" / "crowbar.yaml"
    r = horde("doc", "roll-them-bones", "--house", house, "--markdown")
    assert r.exit_code == 0, r.output
    assert "## Flow points" in r.output
    assert "  - action crowbar(who: current)" in r.output
    assert "- crowbar x2 in item_stack [item]" in r.output
    assert "  - [crowbar] play crowbar" in r.output
