"""Hover, completion, go-to-definition, references and the outline of one file, from its
`Analysis` (the names of its pack) and the text the editor holds."""

from __future__ import annotations

import os
import re
from pathlib import Path

from lsprotocol import types as lsp

from engine.errors import Span
from engine.lsp import schemanav
from engine.lsp.analysis import Analysis
from engine.lsp.names import SECTIONS, Name
from engine.lsp.text import char_col, key_path, span_range, utf16_col, word_at

# Keys whose value is an id, and the kinds of names it may be.
ID_KEYS = {"at": ("point",), "on": ("event",), "before": ("flow step", "policy rule"),
           "after": ("flow step", "policy rule"), "play": ("action",), "call": ("procedure",),
           "zone": ("zone",), "discard": ("zone",)}
_KEY_BEFORE = re.compile(r"([A-Za-z_]+)\s*:\s+(?:\[\s*)?(?:[\w\-:]+\s*,\s*)*[\w\-:]*$")
_KEY_ONLY = re.compile(r"\s*(-\s+)?[\w-]*")
_ASSIGNED = re.compile(r"(?:^|\s)([a-z_]\w*)\s*(?:=(?!=)|\+=|-=)|\bfor\s+([a-z_]\w*)\s+in\b")
_ROOTS = ("me", "game", "turn", "params", "event", "players", "current", "true", "false", "none")
MAX_REFERENCES = 1000


def _schema_name(a: Analysis) -> str:
    return "overlay" if a.kind in ("overlay", "fragment") else "pack"


def _builtins() -> dict:
    import engine.board  # noqa: F401 - board building blocks register their builtins
    from engine.dsl.builtins import BUILTINS
    return BUILTINS


def _signature(name: str) -> str:
    b = _builtins()[name]
    args = ", ".join(b.args) + (", ..." if b.varargs else "")
    return f"{name}({args}) -> {b.returns}"


def location(span: Span) -> lsp.Location:
    pos = lsp.Position(max(span.line - 1, 0), max(span.col - 1, 0))
    return lsp.Location(Path(os.path.abspath(span.file)).as_uri(), lsp.Range(pos, pos))


def _describe(n: Name) -> str:
    head = f"**{n.kind}** `{n.name}`" + (f" — {n.text}" if n.text else "")
    fields = "\n".join(f"- {k}: `{v}`" for k, v in n.fields.items() if v not in (None, ""))
    where = f"\n\ndefined at {n.span}" if n.span is not None else ""
    return head + (f"\n\n{fields}" if fields else "") + where


def _names(a: Analysis, word: str, before: str = "") -> list[Name]:
    """What `word` names; after a key that takes ids (`at:`), only names of its kinds."""
    found = list(a.names.by_name.get(word, []))
    if a.base is not None and not found:
        found = list(a.base.by_name.get(word, []))
    return _expected(found, before)


def _expected(found: list[Name], before: str) -> list[Name]:
    """The names of the kinds expected where `word` is written (after `before`): those a key
    takes (`at:` a point), a card or kind in a snippet's string; else all."""
    key = _KEY_BEFORE.search(before)
    kinds = ID_KEYS.get(key.group(1), ()) if key else ()
    if not kinds and (before.count("'") % 2 or before.count('"') % 2):
        kinds = ("card", "kind")
    return [n for n in found if n.kind in kinds] or found


def hover(a: Analysis, lines: list[str], row: int, col16: int) -> lsp.Hover | None:
    line = lines[row] if row < len(lines) else ""
    col = char_col(line, col16)
    word, start, end = word_at(line, col)
    if not word:
        return None
    path = key_path(lines, row, col)
    parts: list[str] = []
    if line[end:end + 1] == ":" and not schemanav.is_snippet(_schema_name(a), path):
        text = schemanav.keys(_schema_name(a), path).get(word)
        if text:
            parts.append(f"**{word}** — {text}")
    if not parts and word in _builtins() and line[end:].lstrip().startswith("("):
        parts.append(f"```\n{_signature(word)}\n```\n{' '.join(_builtins()[word].doc.split())}")
    if not parts:
        parts = [_describe(n) for n in _names(a, word, line[:start])[:4]]
    if not parts:
        return None
    rng = lsp.Range(lsp.Position(row, utf16_col(line, start)), lsp.Position(row, utf16_col(line, end)))
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, "\n\n---\n\n".join(parts)), rng)


def _item(label: str, kind: lsp.CompletionItemKind, detail: str = "", doc: str = "") -> lsp.CompletionItem:
    return lsp.CompletionItem(label, kind=kind, detail=detail or None,
                              documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, doc) if doc else None)


def _id_items(a: Analysis, kinds: tuple[str, ...]) -> list[lsp.CompletionItem]:
    seen: dict[str, lsp.CompletionItem] = {}
    for names in (a.names, a.base):
        for n in names.of_kind(*kinds) if names is not None else []:
            seen.setdefault(n.name, _item(n.name, lsp.CompletionItemKind.Reference, n.kind, _describe(n)))
    return list(seen.values())


def _locals(lines: list[str], row: int) -> set[str]:
    """Names a snippet assigns or loops over, in the block around `row`."""
    top, depth = row, len(lines[row]) - len(lines[row].lstrip()) if row < len(lines) else 0
    while top > 0 and (not lines[top - 1].strip() or len(lines[top - 1]) - len(lines[top - 1].lstrip()) >= depth):
        top -= 1
    bottom = row
    while bottom + 1 < len(lines) and (not lines[bottom + 1].strip()
                                       or len(lines[bottom + 1]) - len(lines[bottom + 1].lstrip()) >= depth):
        bottom += 1
    return {m.group(1) or m.group(2) for ln in lines[top:bottom + 1] for m in _ASSIGNED.finditer(ln)}


def completion(a: Analysis, lines: list[str], row: int, col16: int) -> list[lsp.CompletionItem]:
    line = lines[row] if row < len(lines) else ""
    col = char_col(line, col16)
    before = line[:col]
    schema = _schema_name(a)
    path = key_path(lines, row, col)
    snippet = schemanav.is_snippet(schema, path)
    if not snippet and _KEY_ONLY.fullmatch(before):
        return [_item(k, lsp.CompletionItemKind.Property, "key", d)
                for k, d in schemanav.keys(schema, path).items()]
    if snippet:
        if before.count("'") % 2 or before.count('"') % 2:  # inside a string: card and kind ids
            return _id_items(a, ("card", "kind"))
        items = [_item(n, lsp.CompletionItemKind.Function, _signature(n), " ".join(b.doc.split()))
                 for n, b in sorted(_builtins().items())]
        items += [_item(n, lsp.CompletionItemKind.Function, "procedure") for n in
                  sorted({x.name for x in _id_items_names(a, "procedure")})]
        items += [_item(n, lsp.CompletionItemKind.Variable, "local") for n in sorted(_locals(lines, row))]
        items += [_item(n, lsp.CompletionItemKind.Keyword) for n in _ROOTS]
        return items
    key = _KEY_BEFORE.search(before)
    name = key.group(1) if key else (path[-1] if path else "")
    if name == "extends":
        from engine.pack.loader import list_packs
        return [_item(p.id, lsp.CompletionItemKind.Module, "pack", p.title or "") for p in list_packs()]
    if name in ID_KEYS:
        return _id_items(a, ID_KEYS[name])
    return []


def _id_items_names(a: Analysis, kind: str) -> list[Name]:
    return [n for names in (a.names, a.base) if names is not None for n in names.of_kind(kind)]


def definition(a: Analysis, lines: list[str], row: int, col16: int, here: Path) -> list[lsp.Location]:
    """An overlay's id: the base item it patches; any other name: where it is defined."""
    line = lines[row] if row < len(lines) else ""
    word, start, _ = word_at(line, char_col(line, col16))
    if not word:
        return []
    at_cursor = Span(str(here), row + 1, start + 1)
    out: list[lsp.Location] = []
    for names in (a.base, a.names):
        found = _expected(names.by_name.get(word, []) if names is not None else [], line[:start])
        for n in found:
            if n.span is not None and not _same(n.span, at_cursor):
                out.append(location(n.span))
        if out:
            break
    return out


def _same(span: Span, other: Span) -> bool:
    return span.line == other.line and span.col == other.col and \
        os.path.realpath(span.file) == os.path.realpath(other.file)


def references(a: Analysis, lines: list[str], row: int, col16: int, here: Path) -> list[lsp.Location]:
    """Every place the name under the cursor is written, in the files of the load (as read)."""
    line = lines[row] if row < len(lines) else ""
    word, _, _ = word_at(line, char_col(line, col16))
    if not word or (word not in a.names.by_name and (a.base is None or word not in a.base.by_name)):
        return []
    pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")
    texts = {p: b.decode("utf-8", "replace") for p, b in a.texts.items()}
    texts[os.path.realpath(here)] = "\n".join(lines)
    out: list[lsp.Location] = []
    for path, text in sorted(texts.items()):
        for k, ln in enumerate(text.split("\n")):
            for m in pattern.finditer(ln):
                pos = lsp.Range(lsp.Position(k, utf16_col(ln, m.start())), lsp.Position(k, utf16_col(ln, m.end())))
                out.append(lsp.Location(Path(path).as_uri(), pos))
                if len(out) >= MAX_REFERENCES:
                    return out
    return out


def symbols(a: Analysis, lines: list[str]) -> list[lsp.DocumentSymbol]:
    """The outline of this file: its sections, each with the names it defines, and the
    flow steps that have an id."""
    from engine.lsp.names import Names
    if a.doc is None or not isinstance(a.doc.value, dict):
        return []
    own = Names(a.doc)
    out = []
    starts = sorted(a.doc.key_span(k).line - 1 for k in a.doc.value) + [len(lines)]
    for section in a.doc.value:
        kind = SECTIONS.get(section)
        children = [_symbol(lines, n) for ns in own.by_name.values() for n in ns
                    if n.span is not None and (n.kind == kind or (section == "flow" and n.kind == "flow step"
                                                                  and n.text != "setup")
                                               or (section == "setup" and n.kind == "flow step"
                                                   and n.text == "setup")
                                               or (section == "procedures" and n.kind == "flow step"
                                                   and n.text.startswith("procedures.")))]
        span = a.doc.key_span(section)
        sym = _symbol(lines, Name(section, section, span, ""))
        sym.kind = lsp.SymbolKind.Namespace
        sym.children = sorted(children, key=lambda s: (s.range.start.line, s.range.start.character)) or None
        last = max(next(s for s in starts if s > sym.range.start.line) - 1, sym.range.start.line)
        sym.range = lsp.Range(lsp.Position(sym.range.start.line, 0),
                              lsp.Position(last, utf16_col(lines[last], len(lines[last])) if last < len(lines) else 0))
        out.append(sym)
    return out


_SYMBOL_KINDS = {"param": lsp.SymbolKind.Variable, "zone": lsp.SymbolKind.Array, "card": lsp.SymbolKind.Object,
                 "kind": lsp.SymbolKind.Class, "action": lsp.SymbolKind.Method, "trigger": lsp.SymbolKind.Event,
                 "procedure": lsp.SymbolKind.Function, "flow step": lsp.SymbolKind.Key}


def _symbol(lines: list[str], n: Name) -> lsp.DocumentSymbol:
    assert n.span is not None
    row, start, _, end = span_range(lines, n.span)
    text = lines[row] if row < len(lines) else ""
    rng = lsp.Range(lsp.Position(row, utf16_col(text, start)), lsp.Position(row, utf16_col(text, end)))
    return lsp.DocumentSymbol(n.name, _SYMBOL_KINDS.get(n.kind, lsp.SymbolKind.Field), rng, rng,
                              detail=n.kind)
