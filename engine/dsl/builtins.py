"""The generic vocabulary of the effect language: dice, zones, players, collections, flow.

Each builtin is a plain function `fn(S, *args)` taking the running `State` first, registered
with a signature the resolver checks at load time (argument count, which arguments must
name a card, a die or a zone), a flag saying whether it changes the state, and what it
touches (engine.dsl.facts), which the compiler records in the facts of every snippet that
calls it. Conditions and action domains may only call pure builtins, so computing legal
actions never changes the game. Other modules (boards, for instance) register more
builtins the same way.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.dsl.facts import ANY, OTHER, RESULT
from engine.dsl.logline import fit_line
from engine.dsl.nesting import compared
from engine.dsl.values import E_OF, E, Face, P, Z
from engine.dsl.work import charge_text, say
from engine.errors import RuleRuntimeError


@dataclass(frozen=True)
class Builtin:
    name: str
    fn: Callable
    # kinds: any int bool str player ent zone die list, or a kind of name (engine.dsl.names:
    # card tag icon action, a text checked at load); '?' = optional
    args: tuple[str, ...]
    returns: str
    effect: bool
    varargs: bool
    doc: str
    reads: frozenset[str]  # what it touches: keys of the state (engine.dsl.facts)
    writes: frozenset[str]
    frames: bool  # it may push or pop the flow's frames, or is not known not to
    ends: bool  # it may end the game
    # what a list it returns holds, for agents' declared action spaces (engine.agents.domains):
    # seat, card, piece, cell, step (a cell next to its first argument), spot, rotation,
    # range, arg0/arg1 (some of that argument's items); None: not said
    domain: str | None = None
    # what it charges to the step budget besides its call's step (`CHARGES`), when its work
    # grows with what it is given (engine.dsl.work, docs/limits.md); None: nothing more
    charges: str | None = None

    @property
    def min_args(self) -> int:
        return sum(1 for a in self.args if not a.endswith("?"))

    @property
    def max_args(self) -> int | None:
        return None if self.varargs else len(self.args)


BUILTINS: dict[str, Builtin] = {}

# What a builtin's `charges` say it charges, as docs/limits.md tells it. `items` is charged
# by the call, before the builtin runs: the compiler passes each argument that may be a list
# or a zone through `work.sized`; the others the builtin charges itself, before the work.
CHARGES = {
    "items": "a step per item of each list, and per entity of each zone, it is given",
    "made": "a step per item of the list it makes",
    "text": "a step per character of the text it makes, made within 1,000,000 characters",
    "log": "a step per line of the game's log",
}


def builtin(name: str, args: str = "", returns: str = "any", effect: bool = False,
            varargs: bool = False, *, reads: Iterable[str] | None = None,
            writes: Iterable[str] | None = None, frames: bool = True, ends: bool = False,
            domain: str | None = None, charges: str | None = None):
    """Register `fn(S, ...)` as the builtin `name`. `args` is a space-separated kind list.

    What it touches, for the analyses that skip work which cannot matter: the keys of the
    state it `reads` and `writes` (engine.dsl.facts; a key may be a name no rule can
    spell, like a board's own variable). Unsaid, it reads everything, and an effect
    writes everything. `frames`: it may push or pop the flow's frames, which a builtin
    is taken to do unless it says not (the core vocabulary below); `ends`: it may end
    the game; `domain`: what a list it returns holds (`Builtin.domain`); `charges`: what
    its work costs the step budget (`CHARGES`)."""
    if charges is not None and charges not in CHARGES:
        raise ValueError(f"builtin {name}: charges={charges!r} is not one of {sorted(CHARGES)}")
    read = frozenset(reads) if reads is not None else frozenset({ANY})
    written = frozenset(writes) if writes is not None else frozenset({ANY} if effect else ())

    def register(fn):
        BUILTINS[name] = Builtin(name, fn, tuple(args.split()), returns, effect, varargs,
                                 (fn.__doc__ or "").strip(), read, written, frames, ends, domain,
                                 charges)
        return fn

    return register


# The core vocabulary: words that touch no frame. Most read only their arguments (_ARGS)
# or zones and the places of entities (_ZONES). Dice, chance and the log change only the
# dice stream and the log, which no rule reads (`logged` reads everything): they write
# nothing. Who won or lost (RESULT) is read only by `winners()`, which reads everything.
_core = functools.partial(builtin, frames=False)
_ARGS = ()
_ZONES = (OTHER,)


def _compared(S, vals):
    """`vals` (a list or the arguments of a call), about to be compared with one another:
    a list of lists is charged what it holds written out (engine.dsl.nesting)."""
    return compared(S, list(vals) if type(vals) is tuple else vals)


def _items(S, x):
    """Lists and zones both iterate: a zone as the entities in it, bottom to top."""
    if type(x) is Z:
        return list(map(E_OF, S.zone(x)))
    if isinstance(x, list):
        return x
    raise RuleRuntimeError(f"expected a list or a zone, got {S.describe(x)}")


# ---- collections ----
@_core("count", "any", "int", reads=_ZONES)
def _count(S, x):
    """How many things are in a list or a zone."""
    if type(x) is Z:
        try:
            return len(S.zones[x.key])
        except KeyError:
            return len(S.zone(x))
    return len(_items(S, x))


@_core("empty", "any", "bool", reads=_ZONES)
def _empty(S, x):
    """True when a list or zone holds nothing."""
    if type(x) is Z:  # _count(S, x) == 0, written out: conditions ask this all the time
        try:
            return not S.zones[x.key]
        except KeyError:
            return len(S.zone(x)) == 0
    return len(_items(S, x)) == 0


@_core("any", "list", "bool", reads=_ARGS, charges="items")
def _any(S, xs):
    """True when some value of the list is true."""
    return any(_items(S, xs))


@_core("all", "list", "bool", reads=_ARGS, charges="items")
def _all(S, xs):
    """True when every value of the list is true (and for an empty list)."""
    return all(_items(S, xs))


@_core("sum", "list", "int", reads=_ARGS, charges="items")
def _sum(S, xs):
    """The sum of a list of numbers."""
    return sum(_items(S, xs))


@_core("min", "any", "any", varargs=True, reads=_ARGS, charges="items")
def _min(S, *xs):
    """The smallest of the arguments, or of one list argument (none if it is empty)."""
    vals = _items(S, xs[0]) if len(xs) == 1 else xs
    return min(_compared(S, vals)) if vals else None


@_core("max", "any", "any", varargs=True, reads=_ARGS, charges="items")
def _max(S, *xs):
    """The largest of the arguments, or of one list argument (none if it is empty)."""
    vals = _items(S, xs[0]) if len(xs) == 1 else xs
    return max(_compared(S, vals)) if vals else None


@_core("abs", "int", "int", reads=_ARGS)
def _abs(S, x):
    """Absolute value."""
    return abs(x)


@_core("range", "int int?", "list", reads=_ARGS, domain="range", charges="made")
def _range(S, a, b=None):
    """`range(n)` is 0..n-1, `range(a, b)` is a..b-1."""
    r = range(a) if b is None else range(a, b)
    if len(r) > 10_000:
        raise RuleRuntimeError(f"range of {len(r)} values is too large (limit 10000)")
    S.charge(len(r))
    return list(r)


@_core("first", "any", "any", reads=_ARGS)
def _first(S, xs):
    """The first value of a list or the bottom entity of a zone, or none."""
    if type(xs) is Z:  # the bottom one alone, not the zone's list
        lst = S.zone(xs)
        return E(lst[0]) if lst else None
    items = _items(S, xs)
    return items[0] if items else None


@_core("sorted", "list", "list", reads=_ARGS, domain="arg0", charges="items")
def _sorted(S, xs):
    """The list in ascending order."""
    return sorted(_compared(S, _items(S, xs)))


# ---- players ----
@_core("opponents", "player", "list:player", domain="seat")
def _opponents(S, p):
    """Every player but `p`, in seat order after `p`."""
    n = len(S.pl)
    return [S.players[(p.i + k) % n] for k in range(1, n)]


@_core("next_player", "player", "player")
def _next_player(S, p):
    """The player to the left (next seat)."""
    return S.players[(p.i + 1) % len(S.pl)]


@_core("seat", "player", "int", reads=_ARGS)
def _seat(S, p):
    """A player's seat number (0-based)."""
    return p.i


# ---- zones and entities ----
@_core("top", "zone", "ent", reads=_ZONES)
def _top(S, z):
    """The top entity of a zone, or none if it is empty."""
    lst = S.zone(z)
    return E(lst[-1]) if lst else None


@_core("cards", "zone", "list:ent", reads=_ZONES, domain="card", charges="items")
def _cards(S, z):
    """The entities in a zone, bottom to top."""
    try:  # S.zone(z), which says what is wrong if this fails
        lst = S.zones[z.key]
    except (KeyError, AttributeError):
        lst = S.zone(z)
    return list(map(E_OF, lst))


@_core("has", "zone card", "bool", reads=_ZONES, charges="items")
def _has(S, z, card):
    """True when the zone holds an entity with this card id."""
    # This runs in most legality checks: the zone is looked up in place (S.zone says why
    # when it cannot be) and scanned by a loop rather than any(generator).
    try:
        lst = S.zones[z.key]
    except (KeyError, AttributeError):
        lst = S.zone(z)
    ents = S.ents
    for u in lst:
        if ents[u]["id"] == card:
            return True
    return False


def zone_ids(S, z) -> set[str] | frozenset[str]:
    """The card or kind ids in a zone: `has(z, c)` is `c in zone_ids(S, z)`, for code that
    asks the same zone about several cards (legality plans, engine.flow.labels)."""
    try:
        lst = S.zones[z.key]
    except (KeyError, AttributeError):
        lst = S.zone(z)  # which says what is wrong
    if not lst:
        return _NO_IDS  # most hands are empty most of the time
    ents = S.ents
    if len(lst) == 1:  # a hand of one card, the next most usual
        return {ents[lst[0]]["id"]}
    return {ents[u]["id"] for u in lst}


_NO_IDS: frozenset[str] = frozenset()


@_core("find", "zone card", "ent", reads=_ZONES, charges="items")
def _find(S, z, card):
    """The topmost entity with this card id in the zone, or none."""
    ents = S.ents
    for u in reversed(S.zone(z)):
        if ents[u]["id"] == card:
            return E(u)
    return None


@_core("tagged", "any tag", "bool", reads=_ARGS)
def _tagged(S, e, tag):
    """True when the entity's card or kind carries the tag."""
    return e is not None and tag in S.game.tag_sets[S.ents[e.i]["id"]]


@_core("zone_of", "ent", "zone", reads=_ZONES)
def _zone_of(S, e):
    """The zone an entity is in."""
    return S.zone_ref(S.ents[e.i]["@z"])


@_core("owner", "any", "player", reads=_ZONES)
def _owner(S, x):
    """The player who owns a per-player zone (or the entity's zone), or none."""
    z = S.zone_ref(S.ents[x.i]["@z"]) if type(x) is E else x
    return S.players[z.owner] if z is not None and z.owner >= 0 else None


@_core("draw", "zone zone", "ent", effect=True, writes=_ZONES)
def _draw(S, src, dst):
    """Move the top entity of `src` onto `dst`; refills `src` first if it is empty and has a
    `refill` zone. Returns the entity, or none when nothing is left."""
    lst = S.zone(src)
    if not lst:
        S.refill(src)
        lst = S.zone(src)
        if not lst:
            return None
    uid = lst[-1]
    S.move_ent(uid, dst)
    return E(uid)


@_core("move", "ent zone str?", effect=True, writes=_ZONES)
def _move(S, e, dst, where="top"):
    """Move an entity onto a zone (`'bottom'` to slide it under)."""
    if e is None:
        raise RuleRuntimeError("move: no entity to move (none)")
    S.move_ent(e.i, dst, bottom=(where == "bottom"))


@_core("discard", "ent", effect=True, writes=_ZONES)
def _discard(S, e):
    """Move an entity to the discard zone its card declares."""
    if e is None:
        raise RuleRuntimeError("discard: no entity to discard (none)")
    S.move_ent(e.i, S.game.discard_zone(S.ents[e.i]["id"], S))


@_core("shuffle", "zone", effect=True, writes=_ZONES, charges="items")
def _shuffle(S, z):
    """Shuffle a zone with the game's RNG."""
    S.shuffle_list(S.zone(z))


@_core("copy", "ent zone", "ent", effect=True)
def _copy(S, e, dst):
    """A new entity with the same id and fields as `e`, put on top of `dst`; returns it.
    Copies break conservation unless the card or kind says `conserved: false`."""
    if e is None:
        raise RuleRuntimeError("copy: no entity to copy (none)")
    rec = S.ents[e.i]
    fields = {k: v for k, v in rec.items() if k not in ("id", "@z", "cell")}  # not its place
    uid = S.new_entity(rec["id"], fields)
    S.move_ent(uid, dst)
    return E(uid)


# ---- dice and chance ----
@_core("roll", "die int?", "any", effect=True, writes=(), charges="made")
def _roll(S, die, n=None, *, seen_by=None):
    """Roll a die once (a face), or `n` times (a list of faces). `seen_by=p` rolls in
    private: the log shows the faces to `p` alone (keep them in a `visible: owner` field)."""
    seat = None
    if seen_by is not None:
        if type(seen_by) is not P:
            raise RuleRuntimeError(f"roll: seen_by must be a player, got {S.describe(seen_by)}")
        seat = seen_by.i
    if n is None:
        return S.roll_dice(die, 1, seat)[0]
    if n < 0 or n > 1000:
        raise RuleRuntimeError(f"roll: cannot roll {n} dice")
    S.charge(n)
    return S.roll_dice(die, n, seat)


@_core("icons", "list icon", "int", reads=_ARGS, charges="items")
def _icons(S, faces, icon):
    """How many of `icon` a list of faces shows (a face with `{hit: 2}` counts 2)."""
    total = 0
    for f in faces:
        if type(f) is Face and icon in f.icons:  # most faces show none of a given icon
            total += f.icons[icon]
    return total


@_core("choice", "list", "any", effect=True, writes=(), charges="items")
def _choice(S, xs):
    """A value of the list chosen at random (none if empty)."""
    items = _items(S, xs)
    return items[S.rand_below(len(items))] if items else None


@_core("random", "int", "int", effect=True, writes=())
def _random(S, n):
    """A random integer in 0..n-1."""
    return S.rand_below(n)


# ---- game end, events, log ----
def _as_players(S, x):
    if type(x) is P:
        return [x]
    return list(_items(S, x))


@_core("win", "any", effect=True, writes=(RESULT,), ends=True, charges="items")
def _win(S, who):
    """End the game: `who` (a player or a list of players) wins."""
    S.finish(winners=_as_players(S, who))


@_core("lose", "any", effect=True, writes=(RESULT,), charges="items")
def _lose(S, who):
    """Mark a player (or list) as having lost; the game goes on unless the flow ends it."""
    for p in _as_players(S, who):
        if p.i not in S.losers:
            S.losers.append(p.i)


@_core("end_game", "", effect=True, writes=(RESULT,), ends=True)
def _end_game(S):
    """End the game now, with no winner."""
    S.finish(winners=[])


@_core("end_turn", "", effect=True, writes=_ZONES)
def _end_turn(S):
    """Abandon the rest of the current turn: the flow continues with the next turn."""
    S.end_turn_requested = True


@_core("emit", "str", effect=True, varargs=True, writes=_ZONES)
def _emit(S, event, **fields):
    """Announce an event; triggers `on:` it run right after the current effect."""
    S.emit(event, fields)


@_core("log", "str", effect=True, varargs=True, writes=(), charges="text")
def _log(S, fmt, *args):
    """Write a line to the game log: `log('{} rolls {}', current, turn.black)`."""
    texts = [S.describe(a) for a in args]
    try:
        fit_line(fmt, texts)
        text = fmt.format(*texts)
    except (IndexError, KeyError, ValueError):
        text = fmt + " " + " ".join(texts)
    say(S, text)


@_core("str", "any", "str", reads=_ARGS, charges="text")
def _str(S, x):
    """A value as text, as the log shows it."""
    return charge_text(S, S.describe(x))


# ---- looking at the game as a whole (scenario expectations, metrics, invariants) ----
@_core("winners", "", "list:player", domain="seat")
def _winners(S):
    """The players who have won (empty while the game goes on, or after a draw)."""
    return [S.players[i] for i in S.winners]


@_core("game_over", "", "bool")
def _game_over(S):
    """True once the game has ended."""
    return S.over


@_core("turn_count", "", "int")
def _turn_count(S):
    """How many turns have started so far."""
    return S.turns


@_core("can", "action", "bool")
def _can(S, label):
    """True when the pending decision offers an action with this label (or this action id)."""
    d = S.decision()
    if d is None:
        return False
    return label in d.index or any(a.split("(", 1)[0] == label for a in d.actions)


@_core("deciding", "", "player")
def _deciding(S):
    """The player the pending decision asks, or none."""
    d = S.decision()
    return S.players[d.player] if d else None


@_core("logged", "str", "bool", charges="log")
def _logged(S, text):
    """True when some log message contains `text`."""
    S.charge(len(S.log))
    return any(e.get("t") == "msg" and text in e.get("text", "") for e in S.log)
