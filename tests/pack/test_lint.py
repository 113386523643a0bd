"""Warnings (engine.pack.lint): a pack that loads but says something that can never make a
difference in play. `horde validate` shows them and exits 0; `--strict` makes them errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from engine.pack.lint import policy_warnings, warnings
from tests.packfiles import write

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini" / "pack.yaml"


@pytest.fixture
def overlay(tmp_path):
    """An overlay of the mini test pack with `text` added, written into tmp_path."""
    def make(text: str) -> Path:
        return write(tmp_path, {"house.yaml": f"extends: {MINI}\n{text}"}) / "house.yaml"
    return make


def _said(game) -> list[tuple[int, str]]:
    return [(w.span.line, w.message) for w in warnings(game)]


def test_the_bundled_packs_but_one_warn_of_nothing():
    assert _said(engine.load(MINI)) == [(7, "param 'loop' is read by no rule: setting it changes nothing")]
    assert warnings(engine.load("roll-them-bones")) == warnings(engine.load("theyre-coming")) == []


def test_a_policy_that_passes_before_an_action_never_plays_it(overlay):
    g = engine.load(MINI, house=[overlay(
        "policies:\n  lazy:\n    rules:\n      - {play: draw}\n      - {play: pass}\n"
        "      - {play: poke}\n")])
    said = [(w.span.line, w.message) for w in policy_warnings(g, "lazy")]
    # poke is offered at the window `start`, where pass always is; score and draw at the
    # ask `main`, which may not be passed: the pass rule never matches there
    assert said == [(6, "policy 'lazy' never plays action 'poke': this rule (pass, with no `if`) "
                        "comes first wherever it is offered")]
    assert policy_warnings(g, "lazy", only={"draw"}) == []


def test_a_pass_rule_with_a_condition_or_a_star_above_stops_nothing(overlay):
    g = engine.load(MINI, house=[overlay(
        "policies:\n  a: {rules: [{play: pass, if: 'game.rounds > 1'}]}\n"
        "  b: {rules: [{play: '*', score: '1'}, {play: pass}]}\n")])
    assert policy_warnings(g, "a") == policy_warnings(g, "b") == []


def test_an_idle_ask_an_unread_param_and_a_card_nobody_draws(overlay):
    g = engine.load(MINI, house=[overlay(
        "params: {spare: 4}\nzones: {attic: {}}\n"
        "cards:\n  - {id: ace, count: 2, zone: deck, discard: pile, tags: [high], fields: {power: 3}}\n"
        "  - {id: two, count: 3, zone: deck, discard: pile, fields: {power: 1}}\n"
        "  - {id: relic, zone: attic}\n"
        "flow:\n  - for_each: {var: p, in: players, turn: true}\n    do:\n      - ask: nothing\n"
        "      - window: start\n      - ask: main\n")])
    assert _said(g) == [
        (11, "no action is offered at ask 'nothing': it never asks anything"),
        (7, "param 'loop' is read by no rule: setting it changes nothing"),
        (2, "param 'spare' is read by no rule: setting it changes nothing"),
        (7, "card 'relic' starts in zone 'attic', which no rule draws from or looks at"),
    ]


def test_validate_shows_warnings_and_strict_fails_on_them(horde, overlay):
    path = overlay("params: {spare: 4}\n")
    r = horde("validate", path)
    assert r.exit_code == 0, r.output
    # of the overlay's own params only: the base pack's unread `loop` is the base's to fix
    assert "1 warning" in r.output and "param 'spare' is read by no rule" in r.output
    r = horde("validate", "--strict", path)
    assert r.exit_code == 1 and "param 'spare'" in r.output
    report = json.loads(horde("validate", "--json", path).output)
    assert report["valid"] and [w["line"] for w in report["warnings"]] == [2]


def test_a_param_a_metric_reads_is_read(overlay):
    g = engine.load(MINI, house=[overlay("metrics: {looped: 'params.loop * 2'}\n")])
    assert _said(g) == []
