"""The events a pack can hook (engine.pack.events): the engine's lifecycle events are
announced when a trigger listens, and a trigger on an event nothing emits is a load-time
error at its `on:` with did-you-mean."""

from __future__ import annotations

import pytest

import engine
from engine.bots import make_bot
from engine.errors import PackError
from engine.pack import events
from engine.resources import data_dir
from tests.packfiles import write


def _load(tmp_path, pack: str, text: str):
    write(tmp_path, {"house.yaml": f"extends: {pack}\n{text}"})
    return engine.load(pack, house=[tmp_path / "house.yaml"])


def _problems(tmp_path, pack: str, text: str):
    with pytest.raises(PackError) as info:
        _load(tmp_path, pack, text)
    return info.value.problems


def _play(g, seed: int = 1):
    S = g.new_state(players=2, seed=seed)
    bots = [make_bot("random", 7 + i, g) for i in range(2)]
    while not S.over and (d := S.decision()) is not None:
        S.apply(bots[d.player].choose(S, d))
    return S


def test_a_trigger_on_an_event_nothing_emits_is_an_error_with_did_you_mean(tmp_path):
    probs = _problems(tmp_path, "roll-them-bones",
                      "triggers:\n  - {on: turn_ned, do: \"log('x')\", id: t5}\n"
                      "  - {on: 'point:after_blak', do: \"log('x')\", id: t1}\n")
    assert [(p.span.line, p.span.col) for p in probs] == [(3, 10), (4, 10)]
    assert str(probs[0].span.file).endswith("house.yaml")
    assert probs[0].message == "trigger on 'turn_ned': no event of that name is emitted"
    assert (probs[0].hint, probs[1].hint) == ("did you mean 'turn_end'?", "did you mean 'point:after_black'?")


def test_round_end_exists_only_where_the_pack_has_rounds(tmp_path):
    probs = _problems(tmp_path, "roll-them-bones", "triggers:\n  - {on: round_end, do: \"log('x')\", id: t6}\n")
    assert "'round_end'" in probs[0].message
    assert "round_end" in events.emitters(engine.load("theyre-coming"))


def test_turn_end_and_points_are_announced_to_their_triggers(tmp_path):
    g = _load(tmp_path, "roll-them-bones",
              "vars: {ends: 0, blacks: 0, who: -1}\ntriggers:\n"
              "  - {on: turn_end, do: \"game.ends += 1\\ngame.who = seat(event.player)\", id: t2}\n"
              "  - {on: 'point:after_black', do: \"game.blacks += event.point == 'after_black'\", id: t8}\n")
    S = _play(g)
    assert S.vars["blacks"] == S.turns > 2
    assert S.vars["ends"] == S.turns - 1  # the turn that ended the game is not announced
    assert S.vars["who"] >= 0


def test_round_end_counts_rounds(tmp_path):
    g = _load(tmp_path, "theyre-coming", "vars: {seen: []}\ntriggers:\n"
              "  - {on: round_end, do: \"game.seen = game.seen + [event.round]\", id: t3}\n")
    S = _play(g)
    per_round = g.params["waves"]
    assert S.turns > per_round
    assert S.vars["seen"] == list(range(1, (S.turns - 1) // per_round + 1))


def test_emitters_say_where_each_event_comes_from():
    found = events.emitters(engine.load("theyre-coming"))
    assert [str(s) for s in found["turn_start"]] == ["engine"]
    assert found["entered"][0].fields == ("piece", "cell", "origin", "others")  # the board's
    lines = (data_dir("rulesets") / "theyre-coming" / "pack.yaml").read_text().splitlines()
    where = next(i for i, line in enumerate(lines, 1) if "enter_event:" in line)
    assert str(found["entered"][0].span).endswith(f"pack.yaml:{where}:16")
    assert all(str(s.span).startswith("rulesets/theyre-coming") for s in found["point:fight"])
    assert set(events.ENGINE_EVENTS) >= {"turn_start", "turn_end", "round_end"}


def test_a_trigger_reads_only_fields_its_event_has(tmp_path):
    probs = _problems(tmp_path, "theyre-coming",
                "triggers:\n  - {on: entered, if: \"event.peice != none\", do: \"log('{}', event.cell)\", id: a}\n"
                      "  - {on: turn_end, do: \"log('{}', event.round)\", id: t4}\n")
    assert [(p.span.line, p.span.col, p.message, p.hint) for p in probs] == [
        (3, 24, "event 'entered' has no field 'peice'", "did you mean 'piece'?"),
        (4, 35, "event 'turn_end' has no field 'round'", "its fields: player")]
