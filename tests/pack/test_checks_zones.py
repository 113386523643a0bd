"""Facts about zones (engine.pack.zonefacts): a card looked for in a zone it never enters."""

from __future__ import annotations

from tests.pack.checks import said

RELIC = ("zones:\n  vault: {}\ncards:\n  - {id: relic, zone: vault}\nactions:\n"
         "  - id: relic\n    at: main\n    if: \"count(vault) > 0 or has(me.hand, 'relic')\"\n"
         "    do: me.score += 1\n")


def test_a_card_looked_for_in_a_zone_it_never_enters(horde, tmp_path):
    assert said(horde, tmp_path, RELIC) == [
        ("house.yaml", 9, "this test is never true: card 'relic' never enters zone 'hand' "
                          "(it can be in vault)")]
    control = RELIC + "  - {id: take, at: main, if: 'count(vault) > 0', do: 'draw(vault, me.hand)'}\n"
    assert said(horde, tmp_path, control) == []
