"""`State`: one game in progress, as plain data, plus the mechanics effects use.

Everything that changes during a game lives here as lists, dicts, ints, strings and the
reference values of `engine.dsl.values`: player records, entities, zones, game and turn
variables, the flow machine's frame stack, the RNG word, the log. That is what makes a
state cheap to clone, savable mid-turn and replayable. The public API follows OpenSpiel:
`decision()`, `apply()`, `is_terminal()`, `returns()`, `clone()`, `to_dict()`.
"""

from __future__ import annotations

from itertools import chain
from struct import Struct
from typing import TYPE_CHECKING, Any

from engine import rng
from engine.codec import state_to_dict, state_view
from engine.dsl.values import E, Face, P, Z
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


def copy_value(v):
    """Copy what is mutable in a stored value (lists, dicts); references are immutable."""
    t = type(v)
    if t is list:
        # most lists and records hold no list or dict: one C-level scan, one C-level copy
        return v.copy() if _flat(map(type, v)) else [copy_value(x) for x in v]
    if t is dict:
        c = v.copy()
        if not _flat(map(type, c.values())):  # copy only the lists and dicts again
            for k, x in c.items():
                tx = type(x)
                if tx is list or tx is dict:
                    c[k] = copy_value(x)
        return c
    return v


def copy_records(recs: dict) -> dict:
    """`copy_value` of a dict of records (entities), with one C-level copy of each record
    when no record holds a list or a dict, as is usual."""
    if _all_hashable(_values(map(dict.values, recs.values()))):
        return dict(zip(recs, map(dict.copy, recs.values()), strict=False))
    return {u: copy_value(e) for u, e in recs.items()}


def copy_zones(zones: dict) -> dict:
    """A copy of a state's zones: each list of uids copied in C."""
    return dict(zip(zones, map(list.copy, zones.values()), strict=False))


def holds_containers(record: dict) -> bool:
    """Whether a record holds a list or a dict, which an effect can change in place (such
    records are copied with their state: see `State.clone`)."""
    return not _flat(map(type, record.values()))


def copy_record_list(recs: list) -> list:
    """`copy_value` of a list of records (players), the same way."""
    if _all_hashable(_values(map(dict.values, recs))):
        return list(map(dict.copy, recs))
    return [copy_value(e) for e in recs]


def _all_hashable(values) -> bool:
    """True when every value is hashable, so none is a list or a dict. Records hold a dozen
    values each; hashing them in C (strings keep their hash) is about twice as fast as
    asking each one's type. Any doubt (an unhashable value) answers False."""
    try:
        return _not_sentinel(values)
    except Exception:
        return False


_flat = frozenset({list, dict}).isdisjoint  # _flat(types): none of them is list or dict
_not_sentinel = frozenset({object()}).isdisjoint  # hashes each value; a list or dict raises
_values = chain.from_iterable


class _Lanes:
    """The constants that run splitmix64 for `n` consecutive states at once (see `draws`)."""

    __slots__ = ("rep", "steps", "mask", "unpack", "size")

    def __init__(self, n: int):
        mask = rng.MASK
        self.rep = sum(1 << (128 * i) for i in range(n))  # a word copied into every lane
        self.steps = sum((((i + 1) * 0x9E3779B97F4A7C15) & mask) << (128 * i) for i in range(n))
        self.mask = mask * self.rep  # the low 64 bits of every lane
        self.unpack = Struct("<" + "Q8x" * n).unpack  # every lane's low 64 bits
        self.size = 16 * n


class _LaneTable(dict):
    def __missing__(self, n: int) -> _Lanes:
        lanes = self[n] = _Lanes(n)
        return lanes


_LANES = _LaneTable()
LANES_MAX = 64  # more draws than this are made that many at a time
AHEAD = 32  # words drawn at a time for fewer (see `State.words`)
_WALK = [(n * 0x9E3779B97F4A7C15) & rng.MASK for n in range(LANES_MAX + 1)]  # n steps of the state


def draws(r: int, n: int) -> tuple[int, ...]:
    """The n 64-bit words that n steps of `rng.next_u64` from state `r` give, bit for bit,
    in a dozen operations on one integer instead of a dozen per draw. Each draw has a
    128-bit lane of its own: a lane's product by a 64-bit constant fits in it, and masking
    every lane back to 64 bits before each product keeps what a shift brought down from
    the next lane out of it. 1 <= n <= LANES_MAX."""
    lanes = _LANES[n]
    m = lanes.mask
    x = (r * lanes.rep + lanes.steps) & m  # lane i: the state after i + 1 steps
    x = ((x ^ (x >> 30)) & m) * 0xBF58476D1CE4E5B9 & m
    x = ((x ^ (x >> 27)) & m) * 0x94D049BB133111EB & m
    x ^= x >> 31  # what the next lane brings into this one's high half is not read
    return lanes.unpack(x.to_bytes(lanes.size, "little"))


class State:
    __slots__ = ("game", "pl", "players", "ents", "zones", "vars", "turn", "stack", "rng",
                 "log", "over", "winners", "losers", "cur", "turns", "steps", "fx_steps",
                 "depth", "forced", "next_uid", "events", "end_turn_requested", "limit_hit",
                 "seed", "_decision", "transactional", "history", "stop_turns", "stop_scripted",
                 "fx_cap", "step_cap", "own", "deep", "_ahead", "chance")

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
        for name in State.__slots__:
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

    def words(self, n: int) -> tuple[int, ...]:
        """The RNG's next n words (1 <= n <= LANES_MAX), its state moved on n steps: what
        n steps of `rng.next_u64` give. They are drawn at least AHEAD at a time (`draws`),
        and those not used yet are kept with the state they follow: a turn's dice, rolled
        a few at a time, take them from one draw. Kept words are used only while the state
        is the one they follow, so a state set any other way (a load, a determinization)
        just draws anew."""
        r = self.rng
        key, ahead, i = self._ahead
        if key != r or i + n > len(ahead):
            ahead = draws(r, n if n > AHEAD else AHEAD)
            i = 0
        self.rng = r = (r + _WALK[n]) & 0xFFFFFFFFFFFFFFFF
        self._ahead = (r, ahead, i + n)
        return ahead[i:i + n]

    def rand_below(self, n: int) -> int:
        if n <= 0:
            raise RuleRuntimeError(f"cannot choose among {n} possibilities")
        if self.chance is not None:
            return self.chance.draw(n)
        return self.words(1)[0] % n

    def roll_dice(self, die: str, n: int) -> list:
        """Roll a die `n` times, logging each roll. Dice rolls are the commonest use of the
        RNG: their words are drawn together (`words`). A face's log entry is made once per
        game and shared by every roll that shows it (nothing changes a log entry once it is
        written)."""
        faces, entries, k = self.game.program.rolls[die]
        if self.forced or entries is None or n <= 0 or self.chance is not None:
            return self._roll_one_by_one(die, n)
        if n > LANES_MAX:
            return self.roll_dice(die, LANES_MAX) + self.roll_dice(die, n - LANES_MAX)
        out = []
        log = self.log.append
        for w in self.words(n):
            j = w % k
            log(entries[j])
            out.append(faces[j])
        return out

    def _roll_one_by_one(self, die: str, n: int) -> list:
        """`roll_dice` with forced rolls to use first (scenarios), or faces of any type."""
        faces = self.game.dice[die]
        k = len(faces)
        if k <= 0 < n:
            self.rand_below(k)  # which says why not
        log = self.log.append
        out = []
        for _ in range(n):
            value = self._forced_face(die) if self.forced else None
            if value is None:
                value = faces[self.rand_below(k)]
            t = type(value)  # describe(value), with the two kinds of faces first
            log({"t": "roll", "die": die,
                 "v": str(value) if t is int else value.text if t is Face else self.describe(value)})
            out.append(value)
        return out

    def _forced_face(self, die: str):
        """The next forced roll for `die`, or None: `forced` is a list of rolls for any die
        in order, or a dict of lists by die (a die with none left is dropped from it)."""
        forced = self.forced
        if type(forced) is not dict:
            return self.game.forced_face(die, forced.pop(0))
        queue = forced.get(die)
        if not queue:
            return None
        value = queue.pop(0)
        if not queue:
            del forced[die]
        return self.game.forced_face(die, value)

    def shuffle_list(self, lst: list) -> None:
        """Fisher-Yates with the game's RNG, its draws made together (`words`)."""
        i = len(lst) - 1
        if self.chance is not None:  # a draw at a time, each a chance event
            self.chance.shuffled.update(k for k, v in self.zones.items() if v is lst)
            for k in range(i, 0, -1):
                j = self.rand_below(k + 1)
                lst[k], lst[j] = lst[j], lst[k]
            return
        while i > 0:
            for w in self.words(min(i, LANES_MAX)):
                j = w % (i + 1)
                lst[i], lst[j] = lst[j], lst[i]
                i -= 1

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
        if t is list:  # a loop, not a comprehension: no function made for every roll logged
            parts = []
            for x in v:
                parts.append(x.text if type(x) is Face else self.describe(x))
            return "[" + ", ".join(parts) + "]"
        if v is True:
            return "true"
        if v is False:
            return "false"
        if v is None:
            return "none"
        return self.game.describe_extra(v)
