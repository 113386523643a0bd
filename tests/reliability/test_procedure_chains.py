"""A long chain of procedures calling each other is analysed without Python's recursion.

What an effect may write (engine.dsl.footprint) and whether it may push a frame
(engine.flow.steppers) follow the procedures it calls; a pack whose effect starts a chain
of hundreds of procedures, each calling the next only when there is something left to do,
plays its short calls and stops nowhere. (The analyses once walked the chain by recursion,
and such a pack stopped with "the rules nested deeper than Python can follow".)
"""

from __future__ import annotations

from pathlib import Path

import engine
from engine.dsl import footprint
from engine.flow import steppers

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini"
LINKS = 600


def test_a_chain_of_procedures_is_followed_to_its_end(tmp_path):
    chain = "".join(f"  c{k}:\n    params: [n]\n    do: |\n      if n > 0:\n          c{k + 1}(n - 1)\n"
                    for k in range(LINKS))
    chain += f"  c{LINKS}:\n    params: [n]\n    do: me_score(n)\n  me_score:\n    params: [n]\n" \
             "    do: game.rounds = n\n"
    text = (MINI / "pack.yaml").read_text().replace("procedures:\n", "procedures:\n" + chain)
    text = text.replace("    do: bump(me, n)\n", "    do: |\n      bump(me, n)\n      c0(0)\n")
    (tmp_path / "pack.yaml").write_text(text)
    game = engine.load(tmp_path)
    fx = next(a for a in game.actions if a.id == "score").fx
    assert footprint.writes(game, fx) == {"score", "@other", "rounds"}  # the chain's last link too
    assert steppers.contained(game, game.effect_procs["c0"][1])
    S = game.new_state(players=2, seed=1)
    played = 0
    while not S.over:
        d = S.decision()
        S.apply(next((a for a in d.actions if a.startswith("score")), d.actions[0]))
        played += 1
    assert played >= 2 and S.turns >= 2
