"""The bundled house-rule examples are written without copying the base: each adds to it
by id, and the bots play it (greedy plays the Crowbar, inserted next to the Keys)."""

from engine.api import load
from engine.pack.loader import rulesets_dir

CROWBAR = rulesets_dir() / "roll-them-bones" / "house" / "crowbar.yaml"
FLARE = rulesets_dir() / "defcon-z" / "house" / "flare-gun.yaml"
BRUTE = rulesets_dir() / "theyre-coming" / "house" / "brute.yaml"


def test_crowbar_adds_a_card_an_action_and_one_greedy_rule_after_keys():
    base, game = load("roll-them-bones"), load("roll-them-bones", house=[CROWBAR])
    rules = [r.get("id") for r in game.raw["policies"]["greedy"]["rules"]]
    assert rules == [r.get("id") for r in base.raw["policies"]["greedy"]["rules"]][:2] + \
        ["crowbar"] + rules[3:]
    assert rules[1] == "keys"
    assert game.cards["crowbar"].count == 2


def test_flare_gun_leaves_every_base_invariant_as_it_is_and_its_count_is_a_param():
    base, game = load("defcon-z"), load("defcon-z", house=[FLARE])
    assert game.raw["invariants"] == base.raw["invariants"]
    assert sum(c.count for c in game.cards.values() if c.zone == "deck") == 52
    more = load("defcon-z", house=[FLARE], params={"flares": 5})
    assert sum(c.count for c in more.cards.values() if c.zone == "deck") == 55
    state = more.new_state(players=3, seed=1)
    assert state.vars["event_cards"] == 55  # what the deck's invariant counts against


def test_brute_is_a_new_kind_in_kamikaze_put_in_the_pool_by_one_inserted_setup_step():
    base, game = load("theyre-coming", mode="kamikaze"), load("theyre-coming", house=[BRUTE])
    assert game.mode == "kamikaze" and game.kinds["brute"].fields["health"] == 3
    assert [n.get("id") for n in game.raw["setup"]] == \
        ["shamblers", "runners", "sploders", "brutes", "total"]
    assert game.raw["flow"] == base.raw["flow"]
    assert game.raw["procedures"] == base.raw["procedures"]
