"""Plans: the legality checks of one decision point as one generated function.

Asking "which actions may this seat take here?" means testing each action's condition,
and at a window, seat by seat. A plan tests every parameter-free condition of a point in
one function, with the leaf procedures written into it on the language's tree
(engine.dsl.inline) and the budgets checked up front; a window check runs both plans'
tests seat by seat and stops at the first seat that may act. When a plan cannot answer
exactly it raises `_Redo` and engine.flow.labels works the answer out the careful way.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from typing import NamedTuple

from engine.dsl import builtins as core
from engine.dsl import pysource
from engine.dsl.inline import PlanTest, plan_test


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
