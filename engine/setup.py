"""Making a fresh state: zones, players, card copies, shuffles, the pack's setup steps.

Every setup step runs before the flow starts, so before the first end check: a house rule's
step (pieces it adds) is in place when the game is first asked whether it is over."""

from __future__ import annotations

from engine.copying import copy_records, copy_value, copy_zones
from engine.dsl.values import Z
from engine.flow import effects, machine
from engine.state import State


def _deal_cards(S, game, players: int, keep: bool) -> None:
    """Make every card's copies in its zone. Every game of a pack for the same number of
    players starts with the same cards in the same places, so with `keep` the first one's
    are kept (`_copy_cards`) for the next ones."""
    for card in game.cards.values():
        if card.zone is None:
            continue
        owners = range(players) if game.zones[card.zone].per_player else [-1]
        for owner in owners:
            for _ in range(card.count):
                uid = S.new_entity(card.id, card.fields)
                S.move_ent(uid, Z(card.zone, owner))
    if keep:
        game.program.dealt[players] = (copy_records(S.ents), copy_zones(S.zones), S.next_uid,
                                       S.deep_uids())


def _copy_cards(S, made) -> None:
    ents, zones, next_uid, deep = made
    S.ents = copy_records(ents)
    S.zones = copy_zones(zones)
    S.next_uid = next_uid
    S.own_all(deep)


def _run_setup(S, steps) -> None:
    """The setup's steps as one effect: its triggers and the end check run once, after the
    last step, so a game is not over before a later step has put its pieces out."""
    S.fx_steps = 0
    S.charge(1)
    for c in steps:
        try:
            c.fn(S, {})
        except effects.CATCH as exc:
            raise effects.located(exc, c) from None
    g = S.game
    effects.after_effect(S, None if any(effects.may_end(g, c) for c in steps) else steps[-1])


def setup_state(game, players: int, seed: int, prepare=None, chance=None) -> State:
    """`chance`: the draws of an explicit-chance setup (engine.agents.chance)."""
    S = State(game, players, seed)
    S.chance = chance
    for z in game.zones.values():
        if z.per_player:
            for i in range(players):
                S.zones[f"{z.name}#{i}"] = []
        else:
            S.zones[z.name] = []
    # a player's record is a copy of the template, then the fields whose initial value is
    # an expression worked out for that player, field by field as declared
    template, worked_out = game.program.player_template
    for i in range(players):
        S.cur = i
        rec = copy_value(template)
        for name, c in worked_out:
            rec[name] = effects.evaluate(S, c, {})
        S.pl[i] = rec
    S.cur = 0
    fresh = not S.ents and S.next_uid == 1  # no entity made yet: the usual deal
    made = game.program.dealt.get(players) if fresh else None
    if made is not None:
        _copy_cards(S, made)
    else:
        _deal_cards(S, game, players, keep=fresh)
    for ext in game.extensions.values():
        ext.setup(S)
    for z in game.zones.values():
        if z.shuffle:
            for key in ([f"{z.name}#{i}" for i in range(players)] if z.per_player else [z.name]):
                S.shuffle_list(S.zones[key])
    if game.setup:
        _run_setup(S, game.setup)
    if prepare is not None:
        prepare(S)
    S.log.append({"t": "start", "players": players, "seed": seed})
    machine.start(S)
    return S
