"""What must hold in every reachable state of a pack: the single place that says so.

Two families of laws. The pack's own: its `invariants:` and every `min:`/`max:` of a player
field (`violations(state)`). The engine's own, true of every pack: no card, token or piece
appears or vanishes and each is in exactly one place; legal actions are sorted and unique;
a clone and a saved-and-loaded copy equal the state and share its future; a player's view
holds nothing from zones hidden from them, and their agent observation stays the same when
entities are renamed and those zones shuffled; a game ends (within its turn limit and decision
budget) and never comes back to a situation it was already in; the same seed and decisions
give the same game.

`Watch` follows one game and checks them after every step. `horde check`, the property
tests and scenarios with `expect_law:` all use it, so they agree on what "broken" means.
Each `Violation` says how a scenario can show it again: an expression that is false while
the law is broken (`expect`), or else the name of the law (`key`) for `expect_law:`.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from engine import rng
from engine.agents import observe
from engine.agents.relabel import derangement, shuffled, twin
from engine.codec import state_view
from engine.dsl.compiler import Compiled
from engine.errors import HordeError, Span
from engine.flow.machine import evaluate
from engine.flow.nodes import REPEAT
from engine.hidden import hidden_zone_keys
from engine.snapshot import UNSTEP, RecordMemo, fingerprint, situation

LAWS = {
    "invariants": "the pack's invariants and player field bounds hold",
    "conservation": "no card, token or piece appears or vanishes, and each is in exactly one place",
    "legal-actions": "legal actions are sorted and unique, and each can be taken",
    "round-trip": "a clone and a saved-and-loaded copy equal the state and share its future",
    "view": "a player's view shows nothing from zones hidden from them, and their observation "
            "names no entity by its engine number nor depends on the order of those zones",
    "ends": "the game ends: within its turn limit and the decision budget, never coming back "
            "to a situation it was in",
    "determinism": "the same seed and the same decisions give the same game",
}


@dataclass
class Violation:
    law: str
    span: Span | None
    detail: str = ""
    key: str = "invariants"  # the family in LAWS (or 'rules' for a rule that failed)
    expect: str | None = None  # an expression that is false while this law is broken

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        return f"{where}{self.law}" + (f" ({self.detail})" if self.detail else "")


# ---------- the pack's own laws ----------
def _bound(S, b, player) -> object:
    if isinstance(b, Compiled):
        return evaluate(S, b, {"p": player})
    return b


def _invariant_text(g, k: int) -> str | None:
    raw = (g.raw.get("invariants") or [])
    if k >= len(raw):
        return None
    inv = raw[k]
    text = inv if not isinstance(inv, dict) else inv.get("check")
    return text if isinstance(text, str) else None


def _bounds_text(g, name: str) -> str | None:
    """`all([...])` over the players: the field's bounds as one expression."""
    spec = (g.raw.get("player") or {}).get(name)
    if not isinstance(spec, dict):
        return None
    parts = []
    for key, op in (("min", ">="), ("max", "<=")):
        b = spec.get(key)
        if isinstance(b, int) and not isinstance(b, bool):
            parts.append(f"p.{name} {op} {b}")
        elif isinstance(b, str):
            parts.append(f"p.{name} {op} ({b})" if " " in b.strip() else f"p.{name} {op} {b}")
    return f"all([{' and '.join(parts)} for p in players])" if parts else None


def violations(S) -> list[Violation]:
    """Every invariant or field bound that does not hold in `S` (empty when all is well).

    Looking is not playing: the work of checking is not charged to the game's step budget,
    so a checked game and an unchecked one stay the same."""
    steps, fx = S.steps, S.fx_steps
    try:
        return _violations(S)
    finally:
        S.steps, S.fx_steps = steps, fx


def _violations(S) -> list[Violation]:
    g = S.game
    out: list[Violation] = []
    for k, inv in enumerate(g.invariants):
        if not evaluate(S, inv.check, {}):
            out.append(Violation(inv.name, inv.span, expect=_invariant_text(g, k)))
    for name, f in g.player_fields.items():
        if f.min is None and f.max is None:
            continue
        for i, rec in enumerate(S.pl):
            v = rec.get(name)
            lo = _bound(S, f.min, S.players[i])
            hi = _bound(S, f.max, S.players[i])
            if lo is not None and v < lo or hi is not None and v > hi:
                out.append(Violation(f"player field '{name}' stays within {lo}..{hi}", f.span,
                                     f"P{i}.{name} = {v}", expect=_bounds_text(g, name)))
    if len(set(S.winners)) != len(S.winners):
        out.append(Violation("a player wins at most once", None, f"winners {S.winners}"))
    return out


# ---------- conservation ----------
def unconserved(g) -> frozenset[str]:
    """Ids whose number may change: cards with `conserved: false`, and piece kinds (rules
    spawn and remove pieces) unless they say `conserved: true`."""
    out = set()
    for section, default in (("cards", True), ("kinds", False)):
        for c in g.raw.get(section) or ():
            if not c.get("conserved", default):
                out.add(c["id"])
    return frozenset(out)


def entity_counts(S, skip: frozenset[str] = frozenset()) -> Counter:
    """How many entities of each card or kind id exist."""
    return Counter(e["id"] for e in S.ents.values() if e["id"] not in skip)


def _def_span(g, cid: str) -> Span | None:
    d = g.cards.get(cid) or g.kinds.get(cid)
    return d.span if d else None


def conservation(S, base: Counter | None, skip: frozenset[str] = frozenset()) -> list[Violation]:
    """Counts of ids unchanged since `base`; each entity in one zone, or on the board (an
    entity with a `cell`), and every zone list agreeing with where its entities say they are."""
    if _conserved(S, base, skip):
        return []
    g = S.game
    law = LAWS["conservation"]
    out: list[Violation] = []
    if base is not None:
        now = entity_counts(S, skip)
        for cid in sorted(set(now) | set(base)):
            if now[cid] != base[cid]:
                verb = "appeared" if now[cid] > base[cid] else "vanished"
                out.append(Violation(law, _def_span(g, cid), f"'{cid}': {base[cid]} at the start, "
                                     f"{now[cid]} now (a copy {verb})", "conservation"))
    seen: dict[int, str] = {}
    for key, uids in S.zones.items():
        for u in uids:
            ent = S.ents.get(u)
            what = f"entity #{u} ({ent['id'] if ent else '?'})"
            if u in seen:
                out.append(Violation(law, None, f"{what} is in zone {seen[u]} and in zone {key}",
                                     "conservation"))
            elif ent is None:
                out.append(Violation(law, None, f"zone {key} lists entity #{u}, which does not "
                                     "exist", "conservation"))
            elif ent.get("@z") != key:
                out.append(Violation(law, _def_span(g, ent["id"]), f"{what} is listed in zone "
                                     f"{key} but says it is in {ent.get('@z')}", "conservation"))
            seen[u] = key
    for u, ent in S.ents.items():
        z = ent.get("@z")
        if z is None and ent.get("cell") is None:
            out.append(Violation(law, _def_span(g, ent["id"]), f"entity #{u} ({ent['id']}) is "
                                 "nowhere: in no zone and not on the board", "conservation"))
        elif z is not None and u not in seen:
            out.append(Violation(law, _def_span(g, ent["id"]), f"entity #{u} ({ent['id']}) says "
                                 f"it is in zone {z}, which does not list it", "conservation"))
    return out


def _conserved(S, base: Counter | None, skip: frozenset[str]) -> bool:
    """Whether `conservation` finds nothing, asked in a few whole-table passes: the same
    counts, no entity listed twice, the zone lists and the entities' own `@z` the same
    map, and no entity both out of every zone and off the board."""
    if base is not None and entity_counts(S, skip) != base:
        return False
    zones = S.zones
    listed = {u: key for key, uids in zones.items() for u in uids}
    if len(listed) != sum(map(len, zones.values())):
        return False
    said = {u: z for u, e in S.ents.items() if (z := e.get("@z")) is not None}
    if listed != said:
        return False
    return len(said) == len(S.ents) or all(e.get("cell") is not None for e in S.ents.values()
                                           if e.get("@z") is None)


# ---------- decisions ----------
def legal_order(S) -> list[Violation]:
    d = S.decision()
    if d is None or d.actions == sorted(set(d.actions)):
        return []
    return [Violation(LAWS["legal-actions"], None, f"legal actions {d.actions}", "legal-actions")]


def explore(S, limit: int | None = None, offset: int = 0) -> dict[str, object]:
    """Legal actions taken each on its own clone: label -> the clone after it, or the
    exception taking it raised (a rule error, or a bug). With `limit`, at most that many
    actions, spread evenly over the sorted list starting at `offset` (a decision with a
    hundred moves would otherwise cost a hundred plays)."""
    d = S.decision()
    labels = d.actions if d else []
    if limit is not None and len(labels) > limit:
        n = len(labels)
        labels = sorted({labels[(offset + k * n // limit) % n] for k in range(limit)})
    out: dict[str, object] = {}
    for label in labels:
        c = S.clone()
        c.transactional = False  # a failed clone is thrown away: no need for a rollback copy
        try:
            c.apply(label)
        except Exception as exc:  # noqa: BLE001 - any failure means the action cannot be taken
            out[label] = exc
        else:
            c.transactional = S.transactional
            out[label] = c
    return out


# ---------- views ----------
def _shown(S, key: str, player: int | None) -> bool:
    name, _, owner = key.partition("#")
    vis = S.game.zones[name].visible
    return vis == "all" or (vis == "owner" and player is not None and owner == str(player))


def _refs(v, found: set[int]) -> None:
    if isinstance(v, dict):
        if len(v) == 1 and "$e" in v and isinstance(v["$e"], int):
            found.add(v["$e"])
        for x in v.values():
            _refs(x, found)
    elif isinstance(v, list):
        for x in v:
            _refs(x, found)


def view_leaks(S, d: dict | None = None) -> list[Violation]:
    """Entities of zones hidden from a player (or a spectator) that their view still shows:
    as a record, as a zone's list, or as a reference anywhere in the state. `d` is the
    state's `to_dict()` when it is at hand."""
    out: list[Violation] = []
    for player in [*range(len(S.pl)), None]:
        hidden = {u for key, uids in S.zones.items() if not _shown(S, key, player) for u in uids}
        if not hidden:
            continue
        if d is None:
            d = S.to_dict()
        # the log and the history hold text only (labels name cards, not places)
        v = state_view(S, player, d, logs=False)
        shown = {int(u) for u in v.get("ents", {})}
        for lst in v.get("zones", {}).values():
            if isinstance(lst, list):
                shown.update(lst)
        refs: set[int] = set()
        _refs({k: x for k, x in v.items() if k != "ents"}, refs)
        leaked = sorted((shown | refs) & hidden)
        if leaked:
            who = f"P{player}" if player is not None else "a spectator"
            ids = ", ".join(f"#{u} ({S.ents[u]['id']})" for u in leaked[:5])
            out.append(Violation(LAWS["view"], None, f"{who} can see {ids}", "view"))
    return out


def relabel_leaks(S, rng) -> list[Violation]:
    """Each seat's (and a spectator's) observation, string and tensor, that changes when
    every entity is renamed (engine.agents.relabel) and the zones hidden from it shuffled:
    information states chain observations and action ids, so they hold too."""
    if len(S.ents) < 2:
        return []
    T = twin(S, derangement(list(S.ents), rng))
    zones, out = T.zones, []
    for player in [*range(len(S.pl)), None]:
        shuffled(T, zones, set(hidden_zone_keys(S, player)), rng)
        what, a, b = None, observe.seen_by(S, player), observe.seen_by(T, player)
        if repr(a) != repr(b):
            what = "observation (" + ", ".join(k for k in a if repr(a[k]) != repr(b[k])) + ")"
        elif player is not None and observe.tensor(S, player) != observe.tensor(T, player):
            what = "observation tensor"
        if what:
            who = f"P{player}" if player is not None else "a spectator"
            out.append(Violation(LAWS["view"], None, f"{who}'s {what} changes when entities "
                                 "are renamed or the zones hidden from them shuffled: it tells "
                                 "what they cannot see", "view"))
    return out


# ---------- ending ----------
def determinism(S, again) -> list[Violation]:
    """`again` replayed `S`'s seed and decisions: both logs must be the same."""
    if again.log == S.log and again.to_dict() == S.to_dict():
        return []
    if again.log == S.log:
        detail = f"same log, but the states differ in {_diff(S.to_dict(), again.to_dict())}"
    else:
        k = next((i for i, (a, b) in enumerate(zip(S.log, again.log, strict=False))
                  if a != b),
                 min(len(S.log), len(again.log)))
        detail = (f"log entry {k}: {S.log[k] if k < len(S.log) else '-'} the first time, "
                  f"{again.log[k] if k < len(again.log) else '-'} the second")
    return [Violation(LAWS["determinism"], None, detail, "determinism")]


# Copies of states waiting for a second state in their situation (see `Watch._ends`).
WAITING_MAX = 256


# The laws whose check costs a few plays of the game each time (copies, views).
COSTLY = frozenset({"round-trip", "view"})


class Watch:
    """The engine's laws (and the pack's) over one game: call `start(S)` once setup is done
    (pass it as `new_state(prepare=...)`), `check(S)` once on every state, and take every
    decision through `apply(S, label)`. `costly=False` skips the `COSTLY` laws for one
    step (long games check them on a sample of their states)."""

    def __init__(self, game, laws: Iterable[str] = LAWS):
        self.game = game
        self.laws = set(laws)
        unknown = self.laws - set(LAWS)
        if unknown:
            raise HordeError(f"unknown law(s): {', '.join(sorted(unknown))}",
                             hint=f"laws: {', '.join(LAWS)}")
        self.skip = unconserved(game)
        self.base: Counter | None = None
        self.seen: dict[bytes, int] = {}  # fingerprint -> the decision after which it was seen
        # situation -> (a copy of the only state seen in it, its decision): see `_ends`
        self.waiting: dict[tuple, tuple] = {}
        self.opened: set[tuple] = set()  # situations whose every state was fingerprinted
        self.epoch: tuple | None = (-1, 0)  # (turns, draws) of the latest state (`_ends`)
        self.origin = 0  # the RNG word draws are counted from
        self.uncounted = frozenset(k for k, n in enumerate(game.nodes) if n.kind == REPEAT
                                   and n.cond is not None and n.max is None)
        self.steps = 0
        self.logged = 0  # log entries already checked to survive saving
        self.memo = RecordMemo()  # the records' encodings, shared by every law's look

    def start(self, S) -> None:
        self.base = entity_counts(S, self.skip)
        self.origin = S.rng

    def check(self, S, costly: bool = True) -> list[Violation]:
        """Every law of one state that does not hold."""
        on = self.laws if costly else self.laws - COSTLY
        out: list[Violation] = []
        if "invariants" in on:
            out += violations(S)
        if "conservation" in on:
            out += conservation(S, self.base, self.skip)
        if "legal-actions" in on:
            out += legal_order(S)
        d = self.memo.to_dict(S) if "view" in on else None  # one encoding for both laws
        if "view" in on:
            out += view_leaks(S, d)
            if self.steps % 2 == 0:  # every other look: it costs two observations a seat
                out += relabel_leaks(S, random.Random(self.steps))
        if "ends" in on:
            out += self._ends(S, d)
        return out

    def _ends(self, S, d: dict | None) -> list[Violation]:
        """Fingerprinting every state would cost more than playing it, so only states that
        could be equal are compared.

        The fingerprint covers the turn count and the RNG word. The turn count only grows,
        and the RNG word is a counter of draws (`engine.rng`: each draw adds a fixed odd
        step), so the pair, the epoch, never comes back once left: when it moves on, what
        was seen before can be forgotten. Within an epoch, a state is fingerprinted only
        once another state was seen in the same situation (`situation`, a few parts of the
        fingerprint: states in different situations differ); until then a copy of it
        waits (a clone shares the records). Past WAITING_MAX waiting copies the oldest is
        fingerprinted as if its situation had come back: the same answer, found earlier.
        Should the epoch ever go back, every state is fingerprinted from then on."""
        law = LAWS["ends"]
        if S.over:
            return []
        limit = self.game.limits["turns"]
        if limit and S.turns > limit:
            return [Violation(law, None, f"turn {S.turns} started past the turn limit of "
                              f"{limit} turns", "ends")]
        epoch = (S.turns, ((S.rng - self.origin) * UNSTEP) & rng.MASK)
        if self.epoch is not None and epoch != self.epoch:
            if epoch > self.epoch:
                self.seen, self.waiting, self.opened = {}, {}, set()
            else:  # not a counter after all: keep and compare everything from now on
                self.epoch = None
                for waiting in list(self.waiting):
                    self._open(waiting, self.waiting.pop(waiting))
        if self.epoch is not None:
            self.epoch = epoch
        key = situation(S, self.uncounted) if self.epoch is not None else None
        if key is not None and key not in self.opened:
            first = self.waiting.pop(key, None)
            if first is None:
                if len(self.waiting) >= WAITING_MAX:
                    old = next(iter(self.waiting))
                    self._open(old, self.waiting.pop(old))
                self.waiting[key] = (S.clone(record=False), self.steps)
                return []
            self._open(key, first)
        fp = fingerprint(S, d, self.memo)
        if fp in self.seen:
            k = self.seen[fp]
            return [Violation(law, None, f"after decision {self.steps} the game is back where "
                              f"it was after decision {k}: it can go on forever", "ends")]
        self.seen[fp] = self.steps
        return []

    def _open(self, key: tuple, first: tuple) -> None:
        T, k = first
        self.seen.setdefault(fingerprint(T, None, self.memo), k)
        self.opened.add(key)

    def apply(self, S, label: str, after=None, costly: bool = True) -> list[Violation]:
        """Take `label` in `S` (in place), checking that a clone and a saved-and-loaded copy
        equal `S` before and still equal it after taking the same action. `after` is a clone
        that already took it (from `explore`). A rule error propagates, as from `S.apply`."""
        if "round-trip" not in self.laws or not costly:
            S.apply(label)
            self.steps += 1
            return []
        law = LAWS["round-trip"]
        out = self._log_round_trip(S)
        enc = self.memo.to_dict
        before = enc(S)
        twins = [("a clone", S.clone())]
        try:
            twins.append(("a saved and loaded copy", _reloaded(self.game, before)))
        except Exception as exc:  # noqa: BLE001 - a state that cannot be saved breaks the law
            out.append(Violation(law, None, f"the state cannot be saved and loaded: "
                                 f"{type(exc).__name__}: {exc}", "round-trip"))
        for name, T in twins:
            if (got := enc(T, (S, before))) != before:
                out.append(Violation(law, None, f"{name} differs from the state in "
                                     f"{_diff(before, got)}", "round-trip"))
        S.apply(label)
        self.steps += 1
        now = enc(S)
        for name, T in twins:
            if name == "a clone" and after is not None:
                T = after
            else:
                try:
                    T.apply(label)
                except HordeError as exc:
                    out.append(Violation(law, None, f"{name} could not take {label}: {exc}",
                                         "round-trip"))
                    continue
            if (got := enc(T, (S, now))) != now:
                out.append(Violation(law, None, f"after {label}, {name} differs in "
                                     f"{_diff(now, got)}", "round-trip"))
        return out

    def _log_round_trip(self, S) -> list[Violation]:
        """The log entries written since the last look survive JSON unchanged. (The log only
        grows, so checking each entry once covers it without re-encoding the whole log.)"""
        new = S.log[self.logged:]
        self.logged = len(S.log)
        for entry in new:
            try:
                same = json.loads(json.dumps(entry)) == entry
            except (TypeError, ValueError):
                same = False
            if not same:
                return [Violation(LAWS["round-trip"], None, f"log entry {entry!r} does not "
                                  "survive saving", "round-trip")]
        return []


def _reloaded(game, d: dict):
    """`d` saved as JSON and loaded again; the log is checked apart (`_log_round_trip`)."""
    rest = {k: v for k, v in d.items() if k != "log"}
    data = json.loads(json.dumps(rest))
    data["log"] = list(d["log"])
    return game.state_from_dict(data)


def _diff(a: dict, b: dict) -> str:
    keys = [k for k in a if a.get(k) != b.get(k)] + [k for k in b if k not in a]
    return ", ".join(keys) or "nothing visible"
