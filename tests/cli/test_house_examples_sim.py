"""The bundled house-rule examples play to the end with the bots (a few seeds here; the
report gives -n 50), and greedy really plays the Crowbar and the Baseball Bat its inserted
rules name."""

from __future__ import annotations

import json

import pytest

from engine.pack.loader import rulesets_dir


@pytest.mark.parametrize("pack, house, n", [("roll-them-bones", "crowbar", 6),
                                            ("roll-them-bones", "bat", 6),
                                            ("theyre-coming", "brute", 4),
                                            ("theyre-coming", "crawler", 4),
                                            ("defcon-z", "flare-gun", 1)])
def test_a_house_example_plays_to_the_end_with_greedy(horde, pack, house, n):
    path = rulesets_dir() / pack / "house" / f"{house}.yaml"
    r = horde("sim", pack, "--house", path, "-n", str(n), "--seed", "3", "--bots", "greedy",
              "--json")
    assert r.exit_code == 0, r.output
    result = json.loads(r.output)
    assert result["games"] == n and result["limit_hits"] == 0
    if house == "brute":
        assert result["mode"] == "kamikaze"
    if house in ("crowbar", "bat"):
        assert any(a["action"] == house and a["games"] > 0 for a in result["actions"])
