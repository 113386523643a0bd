"""A private roll: `roll(die, seen_by=p)` kept in a `visible: owner` player field is seen by
`p` alone, in every view of the state (State.view and its log, the agents' observations and
tensors), and a determinization for another seat rolls it anew."""

from __future__ import annotations

import json
import random

import pytest

from engine.agents import observe
from engine.api import load
from engine.codec import log_seen_by
from engine.errors import PackError, RuleRuntimeError
from engine.hidden import Peeked, determinize, sealed

PACK = """\
pack: cups
players: {min: 2, max: 3}
dice:
  d6: {faces: [1, 2, 3, 4, 5, 6]}
player:
  die: {type: any, init: none, visible: owner, die: d6}
  cup: {type: any, init: "[]", visible: owner, die: d6}
  bid: {type: int, init: 0}
flow:
  - do: |
      for p in players:
        p.die = roll(d6, seen_by=p)
        p.cup = roll(d6, 3, seen_by=p)
  - ask: go
actions:
  - {id: go, at: go, do: "me.bid = 1\\nend_game()"}
"""


@pytest.fixture
def pack(tmp_path):
    (tmp_path / "pack.yaml").write_text(PACK)
    return tmp_path


def dealt(pack, seed=3):
    S = load(pack).new_state(players=2, seed=seed)
    S.decision()
    return S


def other_rolls(S, seat: int, die: int, cup: list[int]):
    """The same state with seat `seat`'s private rolls changed."""
    T = S.clone()
    T.pl[seat]["die"], T.pl[seat]["cup"] = die, cup
    return T


def test_only_the_roller_sees_the_faces(pack):
    S = dealt(pack)
    mine = S.pl[1]
    assert S.view(1)["pl"][1] == {"die": mine["die"], "cup": mine["cup"], "bid": 0}
    for viewer in (0, None):
        assert S.view(viewer)["pl"][1] == {"die": {"hidden": 1}, "cup": {"hidden": 3}, "bid": 0}
    rolls = [e for e in S.view(0)["log"] if e["t"] == "roll"]
    assert [("v" in e, e["s"]) for e in rolls] == [(True, 0)] * 4 + [(False, 1)] * 4
    assert [e for e in log_seen_by(S, 0) if e["t"] == "roll"] == rolls
    assert "v" in [e for e in S.view(1)["log"] if e["t"] == "roll"][-1]


def test_what_another_seat_sees_does_not_depend_on_the_faces(pack):
    S = dealt(pack)
    T = other_rolls(S, 1, 7 - S.pl[1]["die"], [7 - f for f in S.pl[1]["cup"]])
    assert S.pl != T.pl
    assert json.dumps(S.view(0)) == json.dumps(T.view(0))
    assert observe.observation(S, 0) == observe.observation(T, 0)
    assert observe.tensor(S, 0) == observe.tensor(T, 0)
    assert observe.observation(S, 1) != observe.observation(T, 1)
    a, b = determinize(S, 0, random.Random(5)), determinize(T, 0, random.Random(5))
    assert a.pl == b.pl and a.pl[0] == S.pl[0]
    assert all(f in range(1, 7) for f in [a.pl[1]["die"], *a.pl[1]["cup"]])
    assert len(a.pl[1]["cup"]) == 3


def test_a_sealed_state_hides_the_faces_and_draws_what_determinize_draws(pack):
    S = dealt(pack)
    with sealed(S, 0) as draw:
        assert S.pl[0]["die"] in range(1, 7)
        with pytest.raises(Peeked):
            S.pl[1]["die"] + 1
        rng = random.Random(9)
        draw(rng)
    assert S.pl[1]["die"] in range(1, 7)  # put back
    again = random.Random(9)
    determinize(S, 0, again)
    assert rng.getstate() == again.getstate()


def test_the_view_law_holds(horde, pack):
    result = horde("check", pack, "-n", "20", "--seed", "1")
    assert result.exit_code == 0, result.output


def test_seen_by_must_be_a_player(pack):
    (pack / "pack.yaml").write_text(PACK.replace("seen_by=p)\n        p.cup", "seen_by=3)\n        p.cup"))
    with pytest.raises(RuleRuntimeError, match="roll: seen_by must be a player, got 3"):
        dealt(pack)


def test_a_misnamed_argument_is_placed_with_what_roll_takes(pack):
    (pack / "pack.yaml").write_text(PACK.replace("roll(d6, seen_by=p)", "roll(d6, seen=p)"))
    with pytest.raises(PackError) as info:
        load(pack)
    (problem,) = info.value.problems
    assert problem.message == "'seen' is not a parameter of roll()"
    assert problem.hint == "roll() takes seen_by="
    assert problem.span.line == 12


def test_a_private_field_says_its_die(pack):
    (pack / "pack.yaml").write_text(PACK.replace("visible: owner, die: d6}\n  cup", "visible: owner}\n  cup"))
    with pytest.raises(PackError, match="a private field .visible: owner. holds faces of a die"):
        load(pack)


def test_the_players_table_hides_another_seats_private_column(pack):
    from engine.render.panels import Renderer

    (pack / "pack.yaml").write_text(PACK + 'view:\n  players:\n    - {label: Cup, value: "p.cup"}\n'
                                    '    - {label: Bid, value: "p.bid"}\n')
    S = dealt(pack)
    r = Renderer(S.game)
    mine = str(S.pl[0]["cup"])  # [2, 5, 3]
    assert r.cells(S, 0, 0) == [("Cup", mine), ("Bid", "0")]
    assert r.cells(S, 1, 0) == [("Cup", "hidden"), ("Bid", "0")]
    assert r.cells(S, 0, None)[0] == ("Cup", "hidden")
