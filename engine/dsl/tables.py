"""The effect language's LALR tables, made once from grammar/effects.lark and shipped.

Lark builds its LALR tables from the grammar in about a second of CPU, more than reading
all of a pack's snippets; a person typing `horde play` would pay it on every start. So the
tables Lark builds are written, with Lark's own `serialize`, to `effects.lalr.json` beside
this module (shipped in the package, read with importlib.resources), and a new process
loads them with Lark's deserialize path (`Lark._load_from_dict`, what Lark's standalone
parser generator uses) instead of building them. The file is data, not code, and never
pickled (nothing of a process is kept on disk: SECURITY.md).

The file names the grammar it was made from (its SHA-256); with another grammar it is not
used and Lark builds the tables itself. `python -m engine.dsl.tables` writes the file again
after a grammar change; `--check` says whether it is current (tests/dsl/test_tables.py runs
it).
"""

from __future__ import annotations

import hashlib
import json
import sys
from importlib import resources as importlib_resources
from pathlib import Path
from typing import Any

from engine import resources

TABLES = "effects.lalr.json"
OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}


def grammar_text() -> str:
    return (resources.data_dir("grammar") / "effects.lark").read_text(encoding="utf-8")


def indenter() -> Any:
    """The grammar's post-lexer: indentation into _INDENT/_DEDENT tokens, as Python's."""
    from lark.indenter import Indenter

    class Indent(Indenter):
        NL_type = "_NL"
        OPEN_PAREN_types = ["LPAR", "LSQB"]
        CLOSE_PAREN_types = ["RPAR", "RSQB"]
        INDENT_type = "_INDENT"
        DEDENT_type = "_DEDENT"
        tab_len = 4

    return Indent()


def grammar_sha256(grammar: str) -> str:
    return hashlib.sha256(grammar.encode()).hexdigest()


def build(grammar: str, postlex: Any) -> Any:
    """Lark's parser made from the grammar: the tables built, as when no file fits."""
    from lark import Lark

    return Lark(grammar, postlex=postlex, **OPTIONS)


def serialize(grammar: str, postlex: Any) -> str:
    """The tables of `grammar` as the JSON text of the shipped file."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = build(grammar, postlex).memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}  # given on load
    data["parser"]["parser"] = _numbered(data["parser"]["parser"])
    doc = {"grammar_sha256": grammar_sha256(grammar), "data": data, "memo": memo}
    return json.dumps(_keyed(doc), indent=None, separators=(",", ":"), sort_keys=True) + "\n"


def _numbered(table: dict) -> dict:
    """The parse table with its states and tokens numbered in an order of their own.

    Lark numbers states in the order it meets its item sets, which are kept in a set hashed
    by identity: the same grammar gives other numbers in another process. Here tokens are
    numbered by name and states in the order a walk from the start states reaches them (each
    state's actions taken by token name), so the same grammar always writes the same file.
    """
    names = sorted(table["tokens"].values())
    token_no = {name: k for k, name in enumerate(names)}
    states = table["states"]
    order: dict[int, int] = {}
    todo = [table["start_states"][s] for s in sorted(table["start_states"])]
    todo += [table["end_states"][s] for s in sorted(table["end_states"])]
    while todo:
        state = todo.pop(0)
        if state in order:
            continue
        order[state] = len(order)
        actions = states[state]
        for tok in sorted(actions, key=lambda t: table["tokens"][t]):
            kind, arg = actions[tok]
            if kind == 0:  # shift: arg is the next state
                todo.append(arg)
    for state in sorted(states):  # unreachable from a start (none in an LALR table): kept, last
        order.setdefault(state, len(order))

    def action(kind: int, arg: Any) -> list:
        return [kind, order[arg] if kind == 0 else arg]

    return {
        "tokens": {k: name for k, name in enumerate(names)},
        "states": {order[st]: {token_no[table["tokens"][t]]: action(*a) for t, a in sorted(
            acts.items(), key=lambda ta: table["tokens"][ta[0]])} for st, acts in sorted(
            states.items(), key=lambda sa: order[sa[0]])},
        "start_states": {k: order[v] for k, v in table["start_states"].items()},
        "end_states": {k: order[v] for k, v in table["end_states"].items()},
        **{k: v for k, v in table.items() if k not in ("tokens", "states", "start_states", "end_states")},
    }


def _keyed(value: Any) -> Any:
    """JSON keeps string keys only: an int key is written as `"#12"` and read back as 12."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(k, str) and k.startswith("#"):
                raise ValueError(f"a key of Lark's tables starts with '#': {k!r}")
            out[f"#{k}" if isinstance(k, int) else k] = _keyed(v)
        return out
    if isinstance(value, list | tuple):
        return [_keyed(v) for v in value]
    return value


def _unkeyed(pairs: list[tuple[str, Any]]) -> dict:
    return {int(k[1:]) if k.startswith("#") else k: v for k, v in pairs}


def load(grammar: str, postlex: Any) -> Any:
    """The parser: from the shipped tables when they were made from this grammar, else built."""
    from lark import Lark

    try:
        text = importlib_resources.files(__package__).joinpath(TABLES).read_text(encoding="utf-8")
        doc = json.loads(text, object_pairs_hook=_unkeyed)
        if doc["grammar_sha256"] == grammar_sha256(grammar):
            return Lark._load_from_dict(doc["data"], doc["memo"], postlex=postlex,
                                        propagate_positions=OPTIONS["propagate_positions"])
    except Exception:  # noqa: BLE001 - no file, or one another Lark cannot read: build, as without it
        pass
    return build(grammar, postlex)


def main(argv: list[str]) -> int:
    path = Path(__file__).with_name(TABLES)
    fresh = serialize(grammar_text(), indenter())
    if argv == ["--check"]:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != fresh:
            print(f"{path}: not made from grammar/effects.lark; run python -m engine.dsl.tables")
            return 1
        print(f"{path}: current")
        return 0
    if argv:
        print("usage: python -m engine.dsl.tables [--check]")
        return 2
    path.write_text(fresh, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
