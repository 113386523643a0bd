"""Legal actions at a decision point, each bound to its parameters under a stable label.

A label is `id` or `id(param=value, ...)` with values written as players read them: a
player by seat, an entity by its card or kind id (plus its place when it has one). Labels
are what logs, saves, replays, scenarios and the CLI use, so they must not depend on
anything but the state.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress, repeat
from operator import itemgetter
from typing import NamedTuple

from engine.dsl import builtins as core
from engine.dsl import pysource
from engine.dsl.inline import PlanTest, plan_test
from engine.dsl.values import E, P
from engine.flow.effects import evaluate


class Plan(NamedTuple):
    """The legality checks of one point, for the current player or for the others, in one
    function (`make_plan`, kept by `FlowProgram.plan`)."""

    actions: list  # the actions offered
    check: Callable | None  # (S, me) -> the indices of those whose parameter-free condition
    # holds; None when a condition cannot join a plan (legal_bindings asks the careful way)
    inlined: int  # the steps it charges


class Window(NamedTuple):
    """The window check of one point (`make_window`, kept by `FlowProgram.window`)."""

    # (S, seats) -> (k, hand): k the index of the first seat that may act (len(seats): none);
    # hand what the check found out about it, for legal_bindings, or None: the plan's
    # answer, maybe one domain's values with the steps they charged
    check: Callable
    # (a budget test, (the zones the current seat's actions first need a card in, the zones
    # the other seats' do)): while they are empty for every seat asked and the test holds,
    # the check answers that nobody may act (`_empty_handed`); None when it cannot so
    skip: tuple[str, tuple[set, set]] | None


def _value_label(S, v) -> str:
    t = type(v)
    if t is P:
        return str(v.i)
    if t is E:
        ent = S.ents[v.i]
        cell = ent.get("cell")
        return ent["id"] if cell is None else ent["id"] + "@" + _text(S, cell)
    return _text(S, v)


def _put_labelled(S, a, name: str, values: list, out: dict) -> None:
    """`out[label] = (a, {name: v})` for every value, labelled `a.id(name=<value>)`: one loop,
    as a decision may list dozens of pieces (f-strings: one new string per label). A piece
    whose record is the one it had when last labelled gets that label again (see `_labelling`).
    Values that share a label are told apart by uid (`#uid`)."""
    head, last, places, plains = _labelling(S.game, a, name)
    before = len(out)
    ents = S.ents
    seen_of = last.get
    # the labels made for the last type of place seen, and of other value seen
    made_of: type | None = None
    plain_of: type | None = None
    made: dict = {}
    plain: dict = {}
    for v in values:
        if type(v) is E:
            u = v.i
            ent = ents[u]
            seen = seen_of(u)
            if seen is not None and seen[0] is ent:
                out[seen[1]] = seen[2]
                continue
            cell = ent.get("cell")
            if cell is None:
                out[f"{head}{ent['id']})"] = (a, {name: v})
                continue
            if type(cell) is not made_of:
                made_of = type(cell)
                made = places.setdefault(made_of, {})
            try:
                lab = made[ent["id"]][cell]
            except (KeyError, TypeError):  # not made yet, or unhashable
                lab = f"{head}{ent['id']}@{_text(S, cell)})"
                _remember(made, ent["id"], cell, lab)
            out[lab] = bound = (a, {name: v})
            if type(cell) is tuple and len(last) < 100_000:
                try:
                    hash(cell)  # a tuple of values that cannot change
                except TypeError:
                    continue
                S.share(u)  # from now on, a write to this piece's record copies it first
                last[u] = (ent, lab, bound)
        elif type(v) is P:
            out[f"{head}{v.i})"] = (a, {name: v})
        else:
            if type(v) is not plain_of:
                plain_of = type(v)
                plain = plains.setdefault(plain_of, {})
            try:
                lab = plain[v]
            except (KeyError, TypeError):  # not made yet, or unhashable
                lab = f"{head}{_text(S, v)})"
                try:
                    if len(plain) < 100_000:
                        plain[v] = lab
                except TypeError:
                    pass
            out[lab] = (a, {name: v})
    if len(out) - before < len(values):  # two values share a label (this action's all start with head)
        for lab in [lab for lab in out if lab.startswith(head)]:
            del out[lab]
        for v in values:
            out[head + _value_label(S, v) + (f"#{v.i})" if type(v) is E else ")")] = (a, {name: v})


def _labelling(game, a, name: str) -> tuple[str, dict, dict, dict]:
    """What labelling parameter `name` of action `a` keeps in this game, for all its states:
    the head of its labels `a.id(name=`; the piece last bound by uid; the labels made for
    pieces, by type of place, kind and place; the labels made for other values, by type
    and value. A board's pieces are labelled again at every decision, mostly unchanged, and
    a label depends on nothing but the piece's kind and place, or the value (see `_text`).

    The piece last bound, uid -> (record, label, binding) (bindings are only read): a
    record is remembered only when its place is a tuple of values that cannot change, and
    then no state may write it in place: every write to a record goes through
    `State.ent_w` (or first asks `State.own`), and the piece's uid is taken out of the
    labelling state's `own`, so a write copies the record first (its other holders,
    clones, hold no uid of it in `own` either). The same record object is then the same
    place and kind."""
    kept = game.program.labellings.get((a.id, name))
    if kept is None:
        kept = game.program.labellings[a.id, name] = (f"{a.id}({name}=", {}, {}, {})
    return kept


def _remember(made: dict, kind: str, place, label: str) -> None:
    try:
        of_kind = made.get(kind)
        if of_kind is None:
            of_kind = made[kind] = {}
        if len(of_kind) < 100_000:
            of_kind[place] = label
    except TypeError:  # an unhashable place is described every time
        pass


def _value_texts(S, values: list) -> list[str]:
    """`_value_label(S, v)` for every value: places, numbers... all of one type from the
    remembered texts in one C-level pass, entities in one loop (a pass per step of an
    entity's text costs more than the loop), others one by one."""
    types = set(map(type, values))
    t = types.pop() if len(types) == 1 else None
    if t is not None and t is not E and t is not P:
        return _same_texts(S, t, values)
    ents = S.ents
    out = []
    texts_of: type | None = None
    texts: dict = {}
    for v in values:
        if type(v) is not E:
            out.append(_value_label(S, v))
            continue
        ent = ents[v.i]
        cell = ent.get("cell")
        if cell is None:
            out.append(ent["id"])
            continue
        if type(cell) is not texts_of:
            texts_of = type(cell)
            texts = _texts(S, texts_of)
        try:
            text = texts[cell]
        except (KeyError, TypeError):
            text = _text(S, cell)
        out.append(f"{ent['id']}@{text}")
    return out


def _same_texts(S, t: type, values: list) -> list[str]:
    """`_text(S, v)` for values all of type `t`, from the remembered texts in one pass
    when they were all seen before."""
    try:
        return list(map(_texts(S, t).__getitem__, values))
    except (KeyError, TypeError):  # one not seen yet, or unhashable
        return list(map(_text, repeat(S), values))


def _texts(S, t: type) -> dict:
    by_type = S.game.program.texts
    texts = by_type.get(t)
    if texts is None:
        texts = by_type[t] = {}
    return texts


def _text(S, v) -> str:
    """`S.describe(v)` for a value that is not an entity. Such a value reads the same in
    every state of a game (a place, a number, a face), and boards have many places that
    every decision labels again: so the text is remembered, per game and value type."""
    texts = _texts(S, type(v))
    try:
        return texts[v]
    except KeyError:
        text = S.describe(v)
        if len(texts) < 100_000:
            texts[v] = text
        return text
    except TypeError:  # unhashable: a list
        return S.describe(v)


def legal_bindings(S, point: str, seat: int, base: dict, hand: tuple | None = None) -> dict[str, tuple]:
    """label -> (ActionDef, {param: value}) for every legal binding of `seat` at `point`.
    `hand`, when given, is what a window check that stopped at `seat` in this state found
    out (see `Window.check`): the plan's answer, maybe one domain's values, so neither is
    asked again."""
    out: dict[str, tuple] = {}
    actions = S.game.actions_at.get(point)
    if not actions:
        return out
    # Asking what is legal is not playing: its work is not charged to the game's budget
    # (nor to the effect's), so a state's data and fate do not depend on how often
    # someone looked at its decision.
    steps, fx_steps = S.steps, S.fx_steps
    try:
        _collect(S, point, actions, seat, base, out, False, hand)
    except Exception:
        # Conditions and domains are pure, so doing it all again changes nothing; this
        # time every snippet runs through `evaluate`, which puts the error where it is.
        out.clear()
        S.steps, S.fx_steps = steps, fx_steps
        _collect(S, point, actions, seat, base, out, True)
    finally:
        S.steps, S.fx_steps = steps, fx_steps
    return out


def _collect(S, point: str, actions, seat: int, base: dict, out: dict, careful: bool,
             hand: tuple | None = None) -> None:
    """Windows ask every seat at every point, and mostly nobody can act: so the quick way
    checks every action's parameter-free condition in one generated function (a *plan*);
    `careful` runs each snippet through `evaluate` instead, to report an error well. With
    what a window check handed over (`hand`: the plan's answer, and maybe the values of
    one action's domain), only their step charges are left to make."""
    is_cur = seat == S.cur
    me = S.players[seat]
    L = {**base, "me": me}  # action snippets see `me` and their parameters, set and unset in turn
    if not careful:
        program = S.game.program
        acts, check, inlined = program.plans.get((point, is_cur)) or program.plan(point, is_cur)
        found = j = values = None
        if hand is not None:
            found, j, values, steps, fx_steps = hand
            S.fx_steps += inlined
            S.steps += inlined
        elif check is not None:
            found = check(S, me)
        if found is not None:
            for k in found:
                a = acts[k]
                if k == j:  # the domain's values, as found: only its steps are left to charge
                    S.fx_steps += fx_steps
                    S.steps += steps
                    if S.fx_steps > S.fx_cap or S.steps > S.step_cap:
                        raise _Redo
                    _add_single(S, a, L, out, _call, values)
                elif a.params:
                    (_add_single if len(a.params) == 1 else _add_bindings)(S, a, L, out, _call)
                else:
                    out[a.id] = (a, {})
            return
    for a in actions:
        who = a.who
        if who == "current" and not is_cur or who == "others" and is_cur:
            continue
        guard = a.guard
        if guard is not None and not evaluate(S, guard, L):
            continue
        if a.params:
            _add_bindings(S, a, L, out, evaluate)
        elif a.cond is None or evaluate(S, a.cond, L):
            out[a.id] = (a, {})


def _add_bindings(S, a, L: dict, out: dict, evaluate) -> None:
    """Every binding of `a`'s parameters for which its condition holds, labelled."""
    if len(a.params) == 1:
        _add_single(S, a, L, out, evaluate)
        return
    found: list[dict] = []
    _bind(S, a, 0, L, {}, found, evaluate)
    if not found:
        return
    labels = _bound_labels(S, a, found)
    dup = len(set(labels)) < len(labels)
    for args, lab in zip(found, labels, strict=True):
        out[_label(S, a, args, True) if dup else lab] = (a, args)


def _bound_labels(S, a, found: list[dict]) -> list[str]:
    """`_label(S, a, args, False)` for every binding in `found`, one parameter's values at a
    time; binding by binding when that fails, to fail at the same binding as always."""
    try:
        parts: list = [repeat(a.id + "(")]
        for k, (name, _) in enumerate(a.params):
            parts += [repeat(f"{', ' if k else ''}{name}="),
                      _value_texts(S, list(map(itemgetter(name), found)))]
        parts.append(repeat(")"))
        return list(map("".join, zip(*parts, strict=False)))  # the repeats never end
    except Exception:
        return [_label(S, a, args, False) for args in found]


def _add_single(S, a, L: dict, out: dict, evaluate, values=None) -> None:
    """`_add_bindings` for an action with one parameter, the usual case, whose bindings a
    decision may list by the dozen (every piece that can move): `_bind` and `_label`
    without their loops over parameters. `values`: the domain's, when already known."""
    name, domain = a.params[0]
    cond = a.cond
    if values is None:
        values = domain.fn(S, L) if evaluate is _call else evaluate(S, domain, L)
    if type(values) is not list:
        values = list(values)
    if cond is not None:
        saved = L.get(name, _UNSET)
        kept = []
        for v in values:
            L[name] = v
            if evaluate(S, cond, L):
                kept.append(v)
        if saved is _UNSET:
            L.pop(name, None)
        else:
            L[name] = saved
        values = kept
    if values:
        _put_labelled(S, a, name, values, out)


def _call(S, c, L):
    return c.fn(S, L)


def needs_locals(game, point: str) -> bool:
    """Whether an action at `point` reads a flow local (besides `me` and its parameters):
    if none does, the machine need not gather them before asking who can act."""
    for a in game.actions_at.get(point, ()):
        own = {"me", *(name for name, _ in a.params)}
        snippets = [a.guard, a.cond, a.fx, *(c for _, c in a.params)]
        if any(c is not None and (c.uses is None or not set(c.uses) <= own) for c in snippets):
            return True
    return False


# ---- plans: the legality checks of one point as one function ----

def _offered(game, point: str, is_cur: bool) -> list:
    return [a for a in game.actions_at.get(point, ())
            if not (a.who == "current" and not is_cur or a.who == "others" and is_cur)]


def _tests(game, acts, ns: dict, domains: bool = False):
    """(per action, its plan test (the test of its parameter-free condition) and with
    `domains` the test that its first domain binds something, each None when there is
    none, and whether that test's values are the domain's; the calls inlined into plan
    tests and into domain tests; hoisted lookups; per action, the zones of `me` it needs a
    card in, one of them, before anything else, each with the card it needs there or None
    for any) for the actions `acts`, their names put in `ns`; or None when a condition
    cannot join a plan."""
    inlined = [0, 0]
    tests: list[tuple[str | None, str | None, bool]] = []
    held: list[tuple[tuple[str, str | None], ...] | None] = []
    hoisted: dict[str, str] = {}
    for a in acts:
        cond = a.guard if a.params else a.cond
        ready = None if cond is None else _prepared(game, a, "if", cond)
        if cond is not None and ready is None:
            return None
        # an empty first domain binds nothing: an action that offers one card of the
        # player's hand is not offered with an empty hand (the domain runs only when
        # the guard holds, as it would when binding). Only windows ask this: binding
        # evaluates the domain anyway, and some domains are costly.
        domain = a.params[0][1] if domains and a.params else None
        in_domain = None if domain is None else _prepared(game, a, "domain", domain)
        if in_domain is None:
            domain = None
        pair: list[str | None] = []
        for n, (part, prepared) in enumerate(((cond, ready), (domain, in_domain))):
            if part is None or prepared is None:
                pair.append(None)
                continue
            inlined[n] += prepared.calls
            ns.update(prepared.names)  # the snippets' names: builtins, constants, procedures
            hoisted.update(prepared.hoisted)
            pair.append(f"({prepared.test})")
        # the values of a domain test are those of the domain when it inlines no call (whose
        # steps are charged up front, not where they happen); binding takes them as they are
        # when the action has only that parameter
        same = in_domain is not None and in_domain.calls == 0 and len(a.params) == 1
        tests.append((pair[0], pair[1], same))
        first = ready if cond is not None else in_domain
        zones = None if first is None else first.held
        if zones is None and in_domain is not None and ready is not None and ready.plain:
            zones = in_domain.held  # a condition that cannot fail, then a domain that needs a card
        held.append(zones)
    return tests, inlined, hoisted, held


def _exec(game, lines: list[str], ns: dict, name: str):
    from engine.dsl.procs import direct_proc

    for proc in [n for n in ns if n.startswith("_pc_")]:
        ns[proc] = direct_proc(game, proc[len("_pc_"):])
    ns.update(__builtins__={}, _Redo=_Redo, _zone_ids=core.zone_ids, _NO_IDS=frozenset())
    return pysource.run("\n".join(lines) + "\n", name, ns)


def make_plan(game, point: str, is_cur: bool) -> Plan:
    """The plan of the actions `point` offers to the current player, or to the others."""
    acts = _offered(game, point, is_cur)
    ns: dict = {}
    made = _tests(game, acts, ns)
    if made is None:
        return Plan(acts, None, 0)
    tests, (inlined, _), hoisted, _ = made
    # Inlined procedures neither check the depth limit nor charge their step: the plan
    # does both up front (at most one step per inlined call). Going over a budget, like
    # any error, sends legal_bindings the careful way, which says exactly what happened.
    lines = ["def _plan(S, v_me):"]
    if inlined:
        lines += [f"    if S.depth >= {pysource.whole(game.limits['depth'])}:",
                  "        raise _Redo",
                  *pysource.charge_lines(inlined, "    ", over="raise _Redo")]
    lines += [f"    {name} = {text}" for name, text in hoisted.items()]
    lines.append("    found = []")
    for k, (test, _, _) in enumerate(tests):
        lines += [f"    found.append({k})"] if test is None else \
            [f"    if {test}:", f"        found.append({k})"]
    lines.append("    return found")
    return Plan(acts, _exec(game, lines, ns, f"<horde:plan {point}>")["_plan"], inlined)


def first_may_act(S, point: str, seats: list[int]) -> int:
    """The index in `seats` of the first seat that may have a legal action at `point` (its
    window check); len(seats) when none may. A seat may act when it has a legal action."""
    return S.game.program.window(point).check(S, seats)[0]


def make_window(game, point: str) -> Window:
    """The window check of one point: both plans' tests, and the tests that first domains
    bind something, run seat by seat without a list of results, stopping at the first seat
    that may act. Every plan test of a seat is run, so the seat it stops at gets the plan's
    answer, handed over with it; and for a seat that cannot act that is no more work than
    stopping at the first test that holds, as none does. The budget checks are the plan's,
    and the step counts are restored: asking changes nothing."""
    ns: dict = {"enumerate": enumerate, "len": len, "Exception": Exception}
    plans = [_tests(game, _offered(game, point, is_cur), ns, domains=True) for is_cur in (True, False)]
    empty, skip = _empty_handed(game, plans, ns)
    lines = ["def _first(S, seats):",
             "    steps, fx_steps = S.steps, S.fx_steps",
             "    cur = S.cur",
             "    players = S.players",
             *empty,
             "    try:",
             "        for k, i in enumerate(seats):",
             "            v_me = players[i]",
             "            try:"]
    for is_cur, made in zip((True, False), plans, strict=True):
        lines.append(f"                {'if' if is_cur else 'else'}{' i == cur' if is_cur else ''}:")
        pad = " " * 20
        if made is None:
            lines.append(pad + "return k, None")  # a condition no plan can hold: ask the careful way
            continue
        lines += [pad + line for line in _seat(game, ns, *made)]
    lines += ["            except Exception:",
              "                return k, None  # legal_bindings will find out, carefully",
              "        return len(seats), None",
              "    finally:",
              "        S.steps, S.fx_steps = steps, fx_steps"]
    return Window(_exec(game, lines, ns, f"<horde:window {point}>")["_first"], skip)


def _seat(game, ns: dict, tests: list, inlined: list, hoisted: dict, held: list) -> list[str]:
    """The window's code for one seat `i`: `return k, hand` when it may act, handing over
    the plan's answer, and the first domain it found to bind something when binding can
    take its values (with the steps their evaluation charged); else on to the next seat."""
    steps = sum(inlined)
    lines = [f"S.steps, S.fx_steps = steps + {steps}, fx_steps + {steps}"]
    if steps:
        depth = pysource.whole(game.limits["depth"])
        lines += [f"if S.depth >= {depth} or S.fx_steps > S.fx_cap or S.steps > S.step_cap:",
                  "    return k, None"]
    if not tests:
        return [*lines, "pass"]
    any_card = _holds_any(held, ns, plain=True) if None not in held else None
    if any_card:  # every test first needs a card: none held, none may act
        lines += [f"if not ({any_card}):", "    continue"]
    lines += [f"{name} = {text}" for name, text in hoisted.items()]
    if any_card:
        plays = _holds_any(held, ns, hoisted)  # the cards held are looked at once, hoisted
        if plays != any_card:
            lines += [f"if not ({plays}):", "    continue"]
    lines += [f"_a{j} = {cond}" for j, (cond, _, _) in enumerate(tests) if cond is not None]
    found = ", ".join(f"_a{j}" if cond is not None else "True" for j, (cond, _, _) in enumerate(tests))
    ns.update(_list=list, _compress=compress, **{f"_range{len(tests)}": range(len(tests))})
    hand = f"_found = _list(_compress(_range{len(tests)}, ({found},)))"  # the indices of the tests that hold
    for j, (cond, domain, same) in enumerate(tests):
        body = []
        if domain is None:
            body += [hand, "return k, (_found, None, None, 0, 0)"]
        elif same:
            body += ["_s, _f = S.steps, S.fx_steps",
                     f"_v = {domain}",
                     "if _v:",
                     "    " + hand,
                     f"    return k, (_found, {j}, _v, S.steps - _s, S.fx_steps - _f)"]
        else:
            body += [f"if {domain}:", "    " + hand, "    return k, (_found, None, None, 0, 0)"]
        if cond is not None:
            lines += [f"if _a{j}:", *("    " + line for line in body)]
        elif domain is not None:
            lines += body
        else:
            return lines + body  # an action with no test: the seat may act
    return lines


def _holds_any(held: list[tuple[tuple[str, str | None], ...]], ns: dict, hoisted: dict | None = None,
               plain: bool = False) -> str:
    """The test that seat `i` holds a card one of the tests `held` first needs: for each
    zone, any card when one test takes any card there, else one of the cards the tests
    name (their ids put in `ns`). A hand of cards that no action here plays is passed
    over as an empty one: every test of the seat would be false at its first look. With
    `plain`, any card in those zones; with `hoisted`, the ids of a zone's cards are taken
    from the hoisted lookups when they have them."""
    wanted: dict[str, set | None] = {}
    for needs in held:
        for zone, card in needs:
            ids = wanted.setdefault(zone, set())
            if ids is not None:
                if card is None:
                    wanted[zone] = None
                else:
                    ids.add(card)
    tests = []
    for zone in sorted(wanted):
        ids = wanted[zone]
        if ids is None or plain:
            tests.append(f"S.zones[_zr_{zone}[i].key]")
        elif hoisted is not None and f"_my_ids_{zone}" in hoisted:
            tests.append(f"not {_plays(ns, ids)}.isdisjoint(_my_ids_{zone})")
        else:
            name = _plays(ns, ids)
            tests.append(f"(S.zones[_zr_{zone}[i].key] and not {name}.isdisjoint(_zone_ids(S, _zr_{zone}[i])))")
    return " or ".join(tests)


def _plays(ns: dict, ids: set) -> str:
    """The name in `ns` of the set of card ids `ids`."""
    wanted = frozenset(ids)
    names = [k for k in ns if k.startswith("_plays")]
    name = next((k for k in names if ns[k] == wanted), f"_plays{len(names)}")
    ns[name] = wanted
    return name


def _held_zones(held: list) -> set[str]:
    """The zones the tests `held` first need a card in."""
    return {zone for needs in held for zone, _ in needs}


def _empty_handed(game, plans: list, ns: dict) -> tuple[list[str], tuple | None]:
    """(code that answers `len(seats)` at once when no seat holds a card in any of the zones
    every action of the window first needs one in (a card one of them plays): the usual
    window, which the seat-by-seat loop would pass over seat after seat. Only when that loop
    surely would: each seat's plan (`_tests` for the current seat, then the others) is one
    that passes over an empty hand, and the step budget has room for the most steps any of
    them charges before looking (else the loop stops at that seat); what `Window.skip`
    says)."""
    hands, zones, most = [], [], 0
    for made in plans:
        if made is None:
            return [], None
        tests, inlined, _, held = made
        if tests and None in held:  # an action with no test holds no card either
            return [], None
        most = max(most, sum(inlined))
        hands.append(_holds_any(held, ns) if tests else "False")
        zones.append(_held_zones(held) if tests else set())
    return [f"    if {_room(game, most, 'steps', 'fx_steps')}:",
            "        try:",
            "            for i in seats:",
            f"                if ({hands[0]}) if i == cur else ({hands[1]}):",
            "                    break",
            "            else:",
            "                return len(seats), None",
            "        except Exception:",
            "            pass  # the loop below finds out, seat by seat"], \
        (_room(game, most, "S.steps", "S.fx_steps"), tuple(zones))


def _room(game, most: int, steps: str, fx_steps: str) -> str:
    """The test that the budgets have room for `most` more steps after `steps`, `fx_steps`."""
    return f"S.depth < {pysource.whole(game.limits['depth'])} and {fx_steps} + {most} <= S.fx_cap and " \
        f"{steps} + {most} <= S.step_cap" if most else "True"


def _prepared(game, a, part: str, c) -> PlanTest | None:
    """Condition `c`, part `part` of action `a` (its "if" or its first "domain"), as a plan
    test (engine.dsl.inline), or None when it cannot join a plan; made once per game: an
    action offered at several points shares its condition among plans."""
    tests = game.program.tests
    key = (a.id, part)
    if key not in tests:
        tests[key] = plan_test(game, c)
    return tests[key]


class _Redo(Exception):
    """A plan cannot answer exactly: work it out the careful way."""


def _bind(S, a, k, L, args, found, evaluate) -> None:
    if k == len(a.params):
        if a.cond is None or evaluate(S, a.cond, L):
            found.append(dict(args))
        return
    name, domain = a.params[k]
    saved = L.get(name, _UNSET)
    for v in evaluate(S, domain, L):
        L[name] = v
        args[name] = v
        _bind(S, a, k + 1, L, args, found, evaluate)
    if saved is _UNSET:
        L.pop(name, None)
    else:
        L[name] = saved
    args.pop(name, None)


_UNSET = object()


def _label(S, a, args: dict, unique: bool) -> str:
    parts = []
    for name, _ in a.params:
        v = args[name]
        text = _value_label(S, v)
        if unique and type(v) is E:
            text += f"#{v.i}"
        parts.append(f"{name}={text}")
    return f"{a.id}({', '.join(parts)})"
