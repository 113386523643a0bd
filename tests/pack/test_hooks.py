"""The bundled packs give a house rule places to hook: setup steps with ids, run before the
first end check; variables' lists that grow; events at the hinges of procedures; an id on
every policy rule and an open list of what greedy thinks a card is worth. Each is tried the
way a designer would: an overlay, then the command or the game that shows it working."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.api import load
from engine.bots import make_bot
from engine.errors import PackError
from engine.pack.loader import rulesets_dir

HOUSE = {pack: rulesets_dir() / pack / "house"
         for pack in ("theyre-coming", "defcon-z", "roll-them-bones")}
BRUTE = HOUSE["theyre-coming"] / "brute.yaml"
CRAWLER = HOUSE["theyre-coming"] / "crawler.yaml"
FLARE = HOUSE["defcon-z"] / "flare-gun.yaml"
BAT = HOUSE["roll-them-bones"] / "bat.yaml"


def _write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text)
    return path


def _play(game, players: int, seed: int, bots: str = "greedy"):
    """A whole game by bots; the labels chosen and the state at the end."""
    seats = [make_bot(bots, seed * 10 + s, game) for s in range(players)]
    state = game.new_state(players=players, seed=seed)
    chosen = []
    while not state.over:
        d = state.decision()
        if d is None:
            break
        label = seats[d.player].choose(state, d)
        chosen.append(label)
        state.apply(label)
    return chosen, state


# ---------- setup steps ----------

def test_the_brute_with_no_other_zombies_plays_real_games(horde):
    """Its Brutes were put in the pool by a flow step, after the end check that ends setup:
    with no Runners and no S'ploders every game was won in 0 turns."""
    r = horde("sim", "theyre-coming", "--house", "brute", "--set", "runners=0",
              "--set", "sploders=0", "-n", "5", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["length"]["turns"]["min"] > 0
    assert out["games"] == 5


def test_a_setup_step_goes_where_the_overlay_says_and_runs_before_the_first_end_check(tmp_path):
    house = _write(tmp_path, "few.yaml", "extends: theyre-coming\n"
                   "params: {shamblers: {default: 0}, runners: {default: 0}, sploders: {default: 0}}\n"
                   "setup:\n"
                   "  - {id: three, before: total, do: \"repeat 3:\\n    spawn('runner', pool)\"}\n")
    game = load("theyre-coming", house=[house])
    assert [s["id"] for s in game.raw["setup"]] == \
        ["shamblers", "runners", "sploders", "three", "total"]
    state = game.new_state(players=1, seed=1)
    assert not state.over and state.vars["total"] == 3
    assert Counter(e["id"] for e in state.ents.values())["runner"] == 3


def test_a_setup_step_that_names_no_step_is_an_error_at_its_line(tmp_path):
    house = _write(tmp_path, "slip.yaml", "extends: theyre-coming\nsetup:\n"
                   "  - {id: brutes, before: totl, do: \"game.total += 0\"}\n"
                   "  - {id: runers, do: \"game.total += 0\"}\n"
                   "  - {id: runner, remove: true}\n")
    with pytest.raises(PackError) as exc:
        load("theyre-coming", house=[house])
    text = str(exc.value)
    assert "slip.yaml:3:" in text and "no item with id 'totl'" in text and "'total'" in text
    assert "slip.yaml:5:" in text and "'runner' to remove" in text and "'runners'" in text
    # a new step with a do: is an addition, even with a name close to an existing one
    assert "runers" not in text


def test_a_setup_step_is_removed_or_the_setup_replaced_by_an_overlay(tmp_path):
    gone = _write(tmp_path, "gone.yaml", "extends: theyre-coming\nsetup:\n"
                  "  - {id: runners, remove: true}\n")
    state = load("theyre-coming", house=[gone]).new_state(players=1, seed=1)
    assert state.vars["total"] == 70
    assert Counter(e["id"] for e in state.ents.values())["runner"] == 0
    race = load("theyre-coming", mode="zombie-race")
    assert [s["id"] for s in race.raw["setup"]] == ["total"]


# ---------- variables' lists grow ----------

def test_two_house_rules_that_each_add_a_zombie_kind_keep_both():
    game = load("theyre-coming", house=[BRUTE, CRAWLER])
    assert game.vars_init["more_zombies"] == ["brute", "crawler"]
    state = game.new_state(players=1, seed=1)
    kinds = Counter(e["id"] for e in state.ents.values())
    assert kinds["brute"] == 5 and kinds["crawler"] == 10
    assert state.vars["total"] == 65  # Kamikaze's 50, the Brutes and the Crawlers


def test_a_variable_list_is_replaced_only_when_the_overlay_says_so(tmp_path):
    house = _write(tmp_path, "only.yaml", "extends: theyre-coming\n"
                   "vars:\n  more_zombies: {replace: true, items: [mine]}\n"
                   "turn:\n  steps: [1]\n")
    game = load("theyre-coming", house=[BRUTE, house])
    assert game.vars_init["more_zombies"] == ["mine"]
    assert game.turn_init["steps"] == [1]


# ---------- events at the hinges ----------

def test_a_trigger_counts_every_zombie_killed_and_every_card_drawn(tmp_path):
    kills = _write(tmp_path, "kills.yaml", "extends: theyre-coming\nvars: {tally: 0}\n"
                   "triggers:\n  - {id: tally, on: zombie_killed, do: game.tally += 1}\n")
    chosen, state = _play(load("theyre-coming", house=[kills]), 1, 3)
    assert state.vars["tally"] == len(state.zones["killed"]) > 0
    drawn = _write(tmp_path, "drawn.yaml", "extends: defcon-z\nvars: {drawn: 0}\n"
                   "triggers:\n  - {id: drawn, on: card_drawn, if: \"event.player == players[1]\","
                   " do: game.drawn += 1}\n")
    state = load("defcon-z", house=[drawn]).new_state(players=3, seed=1)
    assert state.vars["drawn"] == len(state.zones["hand#1"]) > 0


def test_an_event_nobody_listens_to_is_not_logged():
    _, state = _play(load("theyre-coming"), 1, 3)
    assert any(e["t"] == "event" and e["e"] == "entered" for e in state.log)  # crush listens
    assert not any(e["t"] == "event" and e["e"] != "entered" for e in state.log)


def test_greedy_wounds_crawlers_and_kills_them_in_two_hits():
    game = load("theyre-coming", house=[CRAWLER])
    legs = killed = 0
    for seed in range(4):
        _, state = _play(game, 1, seed)
        texts = [e.get("text", "") for e in state.log]
        legs += sum("loses its legs" in t for t in texts)
        killed += sum(state.ents[u]["id"] == "crawler" for u in state.zones["killed"])
    assert legs > 0 and killed > 0
    assert legs >= killed  # every crawler killed was wounded first


# ---------- policies: ids, and what a card is worth ----------

@pytest.mark.parametrize("pack", sorted(HOUSE))
def test_every_policy_rule_of_the_bundled_packs_has_an_id(pack):
    for name, policy in load(pack).raw.get("policies", {}).items():
        missing = [k for k, r in enumerate(policy["rules"]) if "id" not in r]
        assert missing == [], f"{pack} policy {name}: rules {missing} have no id"


def test_greedy_values_the_flare_gun_by_one_entry_and_plays_it_rather_than_discarding_it():
    game = load("defcon-z", house=[FLARE])
    chosen = Counter()
    for seed in (3, 5, 7):  # games where greedy, not knowing its worth, threw one away
        labels, _ = _play(game, 3, seed)
        chosen.update(x.split("(")[0] for x in labels if "flare-gun" in x)
    assert chosen["flare-gun"] > 0
    assert chosen["discard"] + chosen["trim"] == 0


def test_greedy_swings_the_bat_when_the_roll_is_one_kill_short():
    game = load("roll-them-bones", house=[BAT])
    swung = 0
    for seed in range(10):
        labels, state = _play(game, 3, seed)
        swung += labels.count("bat")
    assert swung > 0
