"""Legal actions at a decision point, each bound to its parameters under a stable label.

A label is `id` or `id(param=value, ...)` with values written as players read them: a
player by seat, an entity by its card or kind id (plus its place when it has one). Labels
are what logs, saves, replays, scenarios and the CLI use, so they must not depend on
anything but the state.
"""

from __future__ import annotations

from itertools import repeat
from operator import itemgetter

from engine.dsl.values import E, P
from engine.flow.effects import evaluate
from engine.flow.plans import _Redo


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
