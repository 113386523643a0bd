"""`State`: one game in progress, as plain data, plus the mechanics effects use.

Everything that changes during a game lives here as lists, dicts, ints, strings and the
reference values of `engine.dsl.values`: player records, entities, zones, game and turn
variables, the flow machine's frame stack, the RNG word, the log. That is what makes a
state cheap to clone, savable mid-turn and replayable. The public API follows OpenSpiel:
`decision()`, `apply()`, `is_terminal()`, `returns()`, `clone()`, `to_dict()`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import rng
from engine.codec import state_to_dict, state_view
from engine.copying import copy_record_list, copy_value, copy_zones, holds_containers
from engine.dice import Randomness
from engine.dsl.values import E, Face, P, Z
from engine.dsl.work import list_text
from engine.errors import RuleRuntimeError, StateError, did_you_mean
from engine.flow import effects, machine
from engine.flow.decision import Binding, Decision
from engine.journal import Journal

if TYPE_CHECKING:
    from engine.game import Game


# Entities (cards, tokens, pieces) one game may make, its deal included: the packs make a
# few hundred; a count of 10**9 would otherwise build 10**9 records (docs/limits.md).
MAX_ENTITIES = 100_000
# Players at one table: a record, zones and a bot each, and a report with a row each. The
# pack schema bounds `players.max` by the same number; this holds for a Game made in code.
MAX_PLAYERS = 64


def check_players(game: Game, n: int) -> None:
    """`n` players may play `game`: within the pack's range, and within MAX_PLAYERS."""
    if not game.players_min <= n <= game.players_max:
        raise StateError(f"{game.title} is for {game.players_min} to {game.players_max} "
                         f"players, not {n:,}")
    if n > MAX_PLAYERS:
        raise StateError(f"{n:,} players is more than the {MAX_PLAYERS} a game may have",
                         hint=f"{game.title} allows up to {game.players_max:,}; play with fewer")


class State(Randomness):
    __slots__ = ("game", "pl", "players", "ents", "zones", "vars", "turn", "stack",
                 "log", "over", "winners", "losers", "cur", "turns", "steps", "fx_steps",
                 "depth", "next_uid", "events", "end_turn_requested", "limit_hit",
                 "seed", "_decision", "transactional", "history", "stop_turns", "stop_scripted",
                 "fx_cap", "step_cap", "own", "deep")  # and Randomness's

    # ---------- construction ----------
    def __init__(self, game: Game, players: int, seed: int):
        if players > MAX_PLAYERS:
            check_players(game, players)
        self.game = game
        self.seed = seed
        self.players = [P(i) for i in range(players)]
        self.rng = rng.seed_state(seed)
        self._ahead: tuple = (None, (), 0)  # words drawn ahead (see `words`)
        self.ents: dict[int, dict] = {}
        self.own: set[int] = set()  # uids whose records only this state holds (see ent_w)
        self.deep: set[int] = set()  # uids whose records may hold a list or a dict (see clone)
        self.zones: dict[str, list[int]] = {}
        self.vars = {k: copy_value(v) for k, v in game.vars_init.items()}
        self.turn = {k: copy_value(v) for k, v in game.turn_init.items()}
        self.stack: list[list] = []
        self.log = Journal()  # of dicts; its copies share their past
        self.over = False
        self.winners: list[int] = []
        self.losers: list[int] = []
        self.cur = 0
        self.turns = 0
        self.steps = 0
        self.fx_steps = 0
        self.depth = 0
        self.forced: list = []
        self.next_uid = 1
        self.events: list = []
        self.end_turn_requested = False
        self.limit_hit = False
        self._decision: Decision | None = None
        self.transactional = True
        self.history = Journal()  # of labels
        self.stop_turns: int | None = None  # scenarios: freeze the game after this many turns
        self.stop_scripted = False  # scenarios: ...but only once no forced roll is left
        self.fx_cap = game.limits["effect_steps"]  # the budgets, read on every charge
        self.step_cap = game.limits["steps"]
        self.pl: list[dict] = [{} for _ in range(players)]
        self.chance = None  # explicit chance (engine.agents.chance): None, rolls inside

    # ---------- the public API ----------
    def decision(self) -> Decision | None:
        """Who decides now and among which labelled actions; None when the game is over."""
        if self.over:
            return None
        if self._decision is None:
            self._decision = machine.current_decision(self)
        return self._decision

    def legal_actions(self) -> list[str]:
        d = self.decision()
        return d.actions if d else []

    def current_player(self) -> int | None:
        d = self.decision()
        return d.player if d else None

    def apply(self, action: str | Binding) -> None:
        """Take this legal action — a `Binding` of the decision, or its label — then run the
        rules until the next decision."""
        if self.chance is not None and not self.chance.running:
            from engine.agents import chance
            return chance.apply(self, action)
        d = self._decision  # self.decision(), without a call when it is known
        if d is None or self.over:
            d = self.decision()
        if d is None:
            raise StateError("the game is over: no action can be taken")
        if type(action) is not str:  # a Binding, or an action id (engine.agents.actions)
            action = self._label_of(d, action) if type(action) is not int else self._label_of_id(action)
        if action not in d.bindings:  # d.index
            raise StateError(f"'{action}' is not a legal action now",
                             hint=did_you_mean(action, d.actions) or
                             f"legal: {', '.join(d.actions[:12])}")
        try:
            snapshot = self.clone() if self.transactional else None
        except RecursionError:
            raise RuleRuntimeError("a value of the game holds lists within lists nested deeper "
                                   "than Python can copy", hint="a rule that wraps a list in "
                                   "a list again and again (x = [x]) makes one") from None
        try:
            machine.apply_action(self, d, action)
        except Exception as exc:
            if snapshot is not None:
                self._restore(snapshot)
            if isinstance(exc, RecursionError):  # what the caps missed, in the pack's words
                raise effects.too_deep(exc) from None
            raise
        self.history.append(action)

    @staticmethod
    def _label_of(d: Decision, b) -> str:
        """The label of binding `b`, which must be one of decision `d`'s: a binding kept from
        another decision, or made up, names an action that may not be legal now."""
        if not isinstance(b, Binding):
            raise StateError(f"an action is a Binding of the decision or its label, not "
                             f"{type(b).__name__}")
        if b.label in d.bindings and d.binding(b.label) == b:
            return b.label
        raise StateError(f"'{b.label}' is not a legal action now",
                         hint=f"legal: {', '.join(d.actions[:12])}")

    def legal_action_ids(self) -> list[int]:
        """The ids of the legal actions in the game's fixed action space, ascending
        (`Game.action_space`); `apply` takes one."""
        from engine.agents.actions import legal_action_ids
        return legal_action_ids(self)

    def _label_of_id(self, i: int) -> str:
        from engine.agents.actions import label_of_id
        return label_of_id(self, i)

    # explicit chance (engine.agents.chance): random events as nodes a caller picks
    def is_chance_node(self) -> bool:
        return self.chance is not None and self.chance.pending is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        from engine.agents import chance
        return chance.outcomes(self)

    def apply_chance(self, outcome: int) -> None:
        from engine.agents import chance
        chance.apply_chance(self, outcome)

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        """+1 for winners, -1 for losers (and everyone else once somebody won), else 0: a
        team loss (every seat lost, nobody won) is all -1, a draw all 0."""
        won = set(self.winners)
        out = []
        for i in range(len(self.pl)):
            if i in won:
                out.append(1.0)
            elif won or i in self.losers:
                out.append(-1.0)
            else:
                out.append(0.0)
        return out

    def view(self, player: int | None) -> dict:
        """What `player` may see (None: a spectator): hidden zones show only their size."""
        return state_view(self, player)

    def to_dict(self) -> dict:
        return state_to_dict(self)

    def clone(self, record: bool = True, reseed: int | None = None) -> State:
        """An independent copy. Its log and history share their past with this state's
        (`engine.journal`); `record=False` starts them empty, for a search bot's throwaway
        copies, which never read them. `reseed`: the copy rolls its own dice from this
        seed, so copies a search makes do not all see the same future."""
        c = State.__new__(State)
        c.game = self.game
        c.seed = self.seed
        c.players = self.players
        c.pl = copy_record_list(self.pl)
        # records are shared until written (`ent_w`): both states now share them all
        c.ents = ents = self.ents.copy()
        self.own = set()
        c.own = set()
        deep = self.deep
        if deep:  # a list or dict inside a record can be changed in place: those are copied
            for u in deep:
                if u in ents:
                    ents[u] = copy_value(ents[u])
        c.deep = set(deep)
        c.zones = copy_zones(self.zones)
        c.vars = copy_value(self.vars)
        c.turn = copy_value(self.turn)
        cv = copy_value
        c.stack = [[n, k, L if L is None else cv(L), x if x is None else cv(x), f]
                   for n, k, L, x, f in self.stack]
        c.rng = self.rng
        c._ahead = (None, (), 0)  # a copy keeps no words ahead: one made to hide the RNG has none
        c.log = self.log.fork() if record else Journal()
        c.over = self.over
        c.winners = list(self.winners)
        c.losers = list(self.losers)
        c.cur = self.cur
        c.turns = self.turns
        c.steps = self.steps
        c.fx_steps = 0
        c.depth = 0
        f = self.forced
        c.forced = {k: list(v) for k, v in f.items()} if type(f) is dict else list(f)
        c.next_uid = self.next_uid
        c.events = []
        c.end_turn_requested = False
        c.limit_hit = self.limit_hit
        c._decision = self._decision
        c.transactional = self.transactional
        c.history = self.history.fork() if record else Journal()
        c.stop_turns = self.stop_turns
        c.stop_scripted = self.stop_scripted
        c.fx_cap = self.fx_cap
        c.step_cap = self.step_cap
        c.chance = None if self.chance is None else self.chance.copy()
        if reseed is not None:
            from engine.agents.chance import reseed as fresh
            fresh(c, reseed)
        return c

    def _restore(self, other: State) -> None:
        for name in Randomness.__slots__ + State.__slots__:
            setattr(self, name, getattr(other, name))

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo) -> State:  # a deep copy is a clone, made the quick way
        return self.clone()

    def __reduce__(self):  # pickles through to_dict (engine.agents.pickling)
        from engine.agents.pickling import reduce_state
        return reduce_state(self)

    # ---------- mechanics used by builtins ----------
    def charge(self, n: int) -> None:
        """Count `n` steps against the per-effect and per-game budgets: every charge is this
        one (generated code writes it out, `pysource.charge_lines`)."""
        self.fx_steps += n
        self.steps += n
        if self.fx_steps <= self.fx_cap and self.steps <= self.step_cap:
            return
        lim = self.game.limits
        if self.fx_steps > lim["effect_steps"]:
            raise RuleRuntimeError(f"an effect took more than {lim['effect_steps']} steps "
                                   "(a loop that does not end?)")
        if self.steps > lim["steps"]:
            raise RuleRuntimeError(f"the game took more than {lim['steps']} steps")

    def zone(self, z: Z) -> list[int]:
        try:
            return self.zones[z.key]
        except KeyError:
            raise RuleRuntimeError(f"no zone {z.key}") from None
        except AttributeError:
            raise RuleRuntimeError(f"expected a zone, got {self.describe(z)}") from None

    def zone_ref(self, key: str | None) -> Z | None:
        if key is None:
            return None
        name, _, owner = key.partition("#")
        return Z(name, int(owner) if owner else -1)

    def ent_w(self, uid: int) -> dict:
        """Entity `uid`'s record, to write in. Clones share their records (a search bot clones
        thousands of states and changes a few pieces of each) until one of them writes: the
        first write after a clone copies the record. Every write to a record goes through here;
        a write to a record taken from `ents` directly could change a clone's too."""
        if uid in self.own:
            return self.ents[uid]
        rec = self.ents[uid] = self.ents[uid].copy()
        self.own.add(uid)
        return rec

    # `own` and `deep` are State's alone (see `ent_w`, `clone`): a slip would let a write show in a clone
    def own_all(self, deep: frozenset[int] | None = None) -> None:
        """Every record is this state's alone (just made, loaded or copied for it); `deep`:
        those that may hold a list or a dict (`deep_uids`), else each record is looked at."""
        self.own = set(self.ents)
        self.deep = set(deep) if deep is not None else {u for u, e in self.ents.items() if holds_containers(e)}

    def deep_uids(self) -> frozenset[int]:
        return frozenset(self.deep)

    def mark_deep(self, uid: int) -> None:
        """Record `uid` now holds a list or a dict, which a write changes in place: clones copy it."""
        self.deep.add(uid)

    def share(self, uid: int) -> None:
        """Record `uid` is held outside this state too (a table keyed by records): a write copies it."""
        self.own.discard(uid)

    def move_ent(self, uid: int, dst: Z, bottom: bool = False) -> None:
        ent = self.ents[uid] if uid in self.own else self.ent_w(uid)
        try:  # self.zone(dst), which says what is wrong if this fails
            target = self.zones[dst.key]
        except (KeyError, AttributeError):
            target = self.zone(dst)
        zd = self.game.zones.get(dst.name)  # its capacity: game.zone_capacity(dst.name)
        if zd is not None and zd.capacity is not None and len(target) >= zd.capacity and uid not in target:
            raise RuleRuntimeError(f"zone {dst.key} is full (capacity {zd.capacity})")
        src = ent.get("@z")
        if src is not None:
            self.zones[src].remove(uid)
        if bottom:
            target.insert(0, uid)
        else:
            target.append(uid)
        ent["@z"] = dst.key

    def new_entity(self, kind: str, fields: dict) -> int:
        uid = self.next_uid
        if uid > MAX_ENTITIES:
            raise RuleRuntimeError(f"a game may make at most {MAX_ENTITIES:,} entities, and "
                                   f"this one would be '{kind}' number {uid:,}",
                                   hint="a card's count, or a rule that copies without end?")
        self.next_uid += 1
        self.ents[uid] = {"id": kind, "@z": None, **copy_value(fields)}
        self.own.add(uid)
        if fields and holds_containers(fields):
            self.deep.add(uid)
        return uid

    def refill(self, z: Z) -> None:
        src = self.game.zone_refill(z.name)
        if src is None:
            return
        from_z = Z(src, z.owner if self.game.env.zones.get(src) else -1)
        moved = list(self.zone(from_z))
        for uid in moved:
            self.move_ent(uid, z)
        self.shuffle_list(self.zone(z))
        if moved:
            self.log.append({"t": "msg", "text": f"{z.key} refilled from {from_z.key}"})

    def emit(self, event: str, fields: dict) -> None:
        self.events.append((event, fields))

    def call_flow(self, proc: str, args: dict) -> None:
        effects.push_proc(self, proc, args)

    def finish(self, winners: list[P], limit: bool = False) -> None:
        if self.over:
            return
        self.over = True
        self.winners = sorted({p.i for p in winners})
        self.limit_hit = limit
        self.log.append({"t": "end", "winners": list(self.winners), "limit": limit})

    def describe(self, v: Any) -> str:
        """A value as players read it in logs and labels."""
        t = type(v)
        if t is P:
            return f"P{v.i}"
        if t is int or t is str:
            return str(v)
        if t is E:
            ent = self.ents.get(v.i)
            return ent["id"] if ent else f"#{v.i}"
        if t is Z:
            return v.key
        if t is Face:
            return v.text
        if t is list:  # within MAX_LEN characters, each list in it written out once
            return list_text(self, v)
        if v is True:
            return "true"
        if v is False:
            return "false"
        if v is None:
            return "none"
        return self.game.describe_extra(v)
