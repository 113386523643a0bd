"""Read YAML safely, keeping where every value was written.

Rule packs are shared between people, so their YAML is untrusted input. PyYAML's ordinary
loaders are wrong for it in several ways: they keep the last of two duplicate keys without a
word, construct objects from tags, read `no` as False and `12:30` as 750, recurse once per
nesting level (the C composer crashes the interpreter at ~100,000 levels, the Python one
raises RecursionError), and expand aliases without bound (a 342-byte file can stand for
half a billion values).

So this module never uses PyYAML's constructors. It reads the event stream first (flat,
cheap) to reject tags and deep nesting before the recursive composer ever sees them, then
composes the node graph, measures its *expanded* size with memoisation before anything walks
it, and finally builds `Node`s itself, resolving scalars the YAML 1.2 way. Every `Node`
carries the `Span` of its start so later stages (schema, effect-language compiler) can point
at `file:line:col`.

A file is read only if it is a regular file (a FIFO would block the read, a device never
end it), and its text is kept for the excerpts of errors (`engine.errors.remember_source`).
MAX_BYTES, MAX_DEPTH and MAX_NODES bound one file; a `Budget` bounds all the files of one
load together, so a pack cannot multiply its size by being many files.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceStartEvent,
)
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from engine.errors import PackError, Problem, Span, remember_source
from engine.pack.yamlhints import layout_hint

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 100_000
# All the files of one load together: four and five times one file's share, some hundred
# times what the biggest bundled pack needs, and a second or two of reading at most.
MAX_LOAD_BYTES = 4 * MAX_BYTES
MAX_LOAD_NODES = 5 * MAX_NODES

# The C loader is ~10x faster; the pure-Python one is a complete fallback.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    """The composer without implicit tags: it would match every scalar against PyYAML's
    YAML 1.1 patterns, for tags nothing reads (`resolve_plain` decides what a scalar is,
    and explicit tags are refused before composing)."""

    _TAGS = {ScalarNode: "tag:yaml.org,2002:str", SequenceNode: "tag:yaml.org,2002:seq",
             MappingNode: "tag:yaml.org,2002:map"}

    def resolve(self, kind, value, implicit):
        return self._TAGS[kind]


_INT = re.compile(r"[-+]?[0-9]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NULLS = {"", "~", "null", "Null", "NULL"}
_NUMBER_START = frozenset("+-.0123456789")  # what _INT and _FLOAT can start with
# Python refuses to parse longer integers (int_max_str_digits); say so instead of crashing.
_MAX_DIGITS = 4000


class Node:
    """One YAML value and where it was written.

    `value` is a `dict[str, Node]`, a `list[Node]` or a plain scalar. `span` is the node's
    start; for mappings `key_spans` holds where each key was written (errors about a key
    point there). For scalars `style` is PyYAML's style character (`|`, `>`, `"`, `'`, or
    None when plain) and `end_span` is where the scalar ends. The text of a block scalar
    (`|`, `>`) starts on the line after `span`.
    """

    __slots__ = ("value", "span", "style", "end_span", "key_spans")

    def __init__(
        self,
        value: Any,
        span: Span,
        style: str | None = None,
        end_span: Span | None = None,
        key_spans: dict[str, Span] | None = None,
    ):
        self.value = value
        self.span = span
        self.style = style
        self.end_span = end_span
        self.key_spans = key_spans

    def __repr__(self) -> str:
        return f"Node({self.value!r} @ {self.span})"

    def key_span(self, key: str) -> Span:
        """Where `key` of this mapping was written (the mapping's own span if unknown)."""
        return (self.key_spans or {}).get(key, self.span)


def span_name(path: Path) -> str:
    """How a file is named in spans: relative to the working directory when below it,
    so editors and terminals make `file:line:col` clickable; absolute otherwise."""
    full = Path(os.path.abspath(path))
    try:
        return full.relative_to(Path.cwd()).as_posix()
    except (ValueError, OSError):
        return str(full)


class Budget:
    """What is left for the rest of one load: bytes read and values composed or merged."""

    def __init__(self):
        self.bytes = self.max_bytes = MAX_LOAD_BYTES
        self.nodes = self.max_nodes = MAX_LOAD_NODES

    @property
    def spent(self) -> bool:
        """True once the load went past it: its problem is told, and nothing more is read."""
        return self.bytes < 0 or self.nodes < 0

    def too_many(self, span: Span | None) -> Problem:
        self.nodes = -1
        return Problem(f"the files of this load together hold more than {self.max_nodes:,} "
                       "values", span, hint="an include or an alias repeats all it names")


def compose_file(path: Path, display_name: str | None = None,
                 budget: Budget | None = None) -> Node:
    """Read and compose one YAML file; raise PackError listing everything wrong with it."""
    name = display_name or span_name(path)
    return compose_bytes(read_bytes(path, name), name, budget)


def compose_bytes(data: bytes, name: str, budget: Budget | None = None) -> Node:
    """Compose the bytes of a file (`name` in spans), charged to `budget`."""
    if budget is not None:
        budget.bytes -= len(data)
        if budget.bytes < 0:
            raise PackError([Problem(f"the files of this load together are more than "
                                     f"{budget.max_bytes:,} bytes", Span(name, 1, 1))])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise PackError([Problem("file is not valid UTF-8", Span(name, line, col))]) from None
    return compose_text(text, name, budget)


# Files an editor holds unsaved, by real path: read in place of the disk (the language
# server checks what is being typed). Only files the loader admits are ever looked up.
_UNSAVED: ContextVar[Mapping[str, bytes] | None] = ContextVar("unsaved", default=None)


@contextmanager
def unsaved(texts: Mapping[str, bytes]) -> Iterator[None]:
    """Within it, `read_bytes` of a path in `texts` (real paths) gives its bytes, not the disk's."""
    token = _UNSAVED.set(texts)
    try:
        yield
    finally:
        _UNSAVED.reset(token)


def read_bytes(path: Path, name: str) -> bytes:
    """The bytes of regular file `path`. It is looked at before it is opened, and opened
    without waiting (a FIFO swapped in meanwhile is then seen, not waited on)."""
    held = _UNSAVED.get()
    if held:
        data = held.get(os.path.realpath(path))
        if data is not None:
            if len(data) > MAX_BYTES:
                raise PackError([_too_big(len(data), name)])
            return data
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise PackError([_not_regular(name)])
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise PackError([_not_regular(name)])
            if info.st_size > MAX_BYTES:
                raise PackError([_too_big(info.st_size, name)])
            data = f.read(MAX_BYTES + 1)
    except (OSError, ValueError) as e:  # ValueError: a NUL in the name
        raise PackError([Problem(f"cannot read {name}: {getattr(e, 'strerror', None) or e}")]
                        ) from None
    if len(data) > MAX_BYTES:
        raise PackError([_too_big(len(data), name)])
    return data


def compose_text(text: str, filename: str = "<string>", budget: Budget | None = None) -> Node:
    """Compose YAML text into a Node tree; raise PackError listing everything wrong with it.
    With `budget`, its values are taken from what the load has left."""
    if len(text) > MAX_BYTES:
        raise PackError([_too_big(len(text), filename)])
    remember_source(filename, text)
    problems: list[Problem] = []
    scan = _Scan(budget)
    if not scan.run(text, filename, problems):
        raise PackError(problems)
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as e:
        raise PackError([*problems, _syntax_problem(e, text, filename)]) from None
    except RecursionError:
        # The event scan bounds nesting, so this is only a last line of defence.
        problems.append(Problem(f"nesting deeper than {MAX_DEPTH} levels", Span(filename, 1, 1)))
        raise PackError(problems) from None
    if root is None:
        if problems:
            raise PackError(problems)
        return Node(None, Span(filename, 1, 1))
    # Without aliases the graph is the tree the scan counted and measured already.
    size = _check_graph(root, filename, problems, scan) if scan.aliases else scan.values
    if size is None:
        raise PackError(problems)
    node = _Builder(filename, problems).build(root)
    if problems:
        raise PackError(problems)
    if budget is not None:
        budget.nodes -= size
    return node


def plain(node: Node) -> Any:
    """The plain Python value (dicts, lists, scalars) of a Node tree."""
    value = node.value
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def node_at(node: Node, path: Sequence[str | int]) -> Node:
    """The node at `path` below `node`, or the deepest node on the way that exists.

    Used to turn a jsonschema error's `absolute_path` into a file position: when the path
    leads to something missing, the nearest existing parent is the best place to point.
    """
    for step in path:
        value = node.value
        if isinstance(value, dict) and isinstance(step, str) and step in value:
            node = value[step]
        elif (
            isinstance(value, list)
            and isinstance(step, int)
            and not isinstance(step, bool)
            and 0 <= step < len(value)
        ):
            node = value[step]
        else:
            break
    return node


def resolve_plain(text: str) -> Any:
    """A plain (unquoted) scalar's value, YAML 1.2 core schema style.

    Only true/false are booleans and only decimal numbers are numbers: `yes`, `on`, `12:30`
    and `1_000` stay strings, because game designers write them as words and times.
    """
    if text in _BOOLS:
        return _BOOLS[text]
    if text in _NULLS:
        return None
    if text[0] not in _NUMBER_START:  # most scalars are words: no pattern can match them
        return text
    if _INT.fullmatch(text):
        if len(text) > _MAX_DIGITS:
            raise ValueError(f"number is longer than {_MAX_DIGITS} digits")
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return text


def _not_regular(name: str) -> Problem:
    return Problem(f"{name} is not a regular file",
                   hint="a pack is made of ordinary .yaml files (no FIFOs or devices)")


def _too_big(size: int, name: str) -> Problem:
    return Problem(f"file is {size:,} bytes; the limit is {MAX_BYTES:,}", Span(name, 1, 1))


def _too_many(span: Span) -> Problem:
    return Problem(f"this document expands to more than {MAX_NODES:,} values", span,
                   hint="each alias (*name) repeats its anchor's whole content; use fewer")


def _mark_span(mark, filename: str) -> Span:
    return Span(filename, mark.line + 1, mark.column + 1)


def _short_tag(tag: str) -> str:
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix):] if tag.startswith(prefix) else tag


class _Scan:
    """The flat event stream, checked for tags, depth and size before anything composes it.

    This runs before `yaml.compose` because the composer recurses per nesting level and
    would crash (C) or raise RecursionError (Python) on a deeply nested file. It also notes
    whether the file has aliases: without them the composed graph needs no measuring.
    """

    _START = (ScalarEvent, MappingStartEvent, SequenceStartEvent)
    _OPEN = (MappingStartEvent, SequenceStartEvent)

    def __init__(self, budget: Budget | None):
        self.aliases = False
        self.values = 0
        self.budget = budget
        # The most values this file may stand for: its own limit, or what the load has left.
        self.limit = MAX_NODES if budget is None else max(min(MAX_NODES, budget.nodes), 0)

    def too_many(self, span: Span) -> Problem:
        budget = self.budget
        return budget.too_many(span) if budget is not None and self.limit < MAX_NODES \
            else _too_many(span)

    def run(self, text: str, filename: str, problems: list[Problem]) -> bool:
        """False means stop here: `problems` says why."""
        depth = values = 0
        start, opening, limit = self._START, self._OPEN, self.limit
        try:
            for event in yaml.parse(text, Loader=_Loader):
                kind = type(event)
                if kind in start:
                    values += 1
                    if values > limit:  # too big even before aliases: stop reading now
                        problems.append(self.too_many(_mark_span(event.start_mark, filename)))
                        return False
                    if event.tag is not None:
                        problems.append(Problem(
                            f"tags are not allowed (found '{_short_tag(event.tag)}')",
                            _mark_span(event.start_mark, filename),
                            hint="write plain values; quote a string that starts with '!'",
                        ))
                    if kind in opening:
                        depth += 1
                        if depth > MAX_DEPTH:
                            problems.append(Problem(f"nesting deeper than {MAX_DEPTH} levels",
                                                    _mark_span(event.start_mark, filename)))
                            return False
                elif isinstance(event, CollectionEndEvent):
                    depth -= 1
                elif kind is AliasEvent:
                    self.aliases = True
        except yaml.YAMLError as e:
            problems.append(_syntax_problem(e, text, filename))
            return False
        self.values = values
        return True


def _syntax_problem(error: yaml.YAMLError, text: str, filename: str) -> Problem:
    """PyYAML's error as `file:line:col: YAML syntax error: ...`."""
    if isinstance(error, yaml.reader.ReaderError):
        # Reader positions are bytes in the C reader and characters in the Python one;
        # finding the offending character itself is right for both.
        index = text.find(chr(error.character)) if isinstance(error.character, int) else -1
        index = max(index, 0)
        line = text.count("\n", 0, index) + 1
        col = index - (text.rfind("\n", 0, index) + 1) + 1
        return Problem(f"YAML syntax error: {error.reason} (character {error.character:#x})",
                       Span(filename, line, col))
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    span = _mark_span(mark, filename) if mark is not None else Span(filename, 1, 1)
    message = getattr(error, "problem", None) or str(error)
    context = getattr(error, "context", None)
    context_mark = getattr(error, "context_mark", None)
    if context and context_mark is not None and context_mark is not mark:
        message = f"{message} ({context} at line {context_mark.line + 1})"
    elif context:
        message = f"{message} ({context})"
    span, hint = layout_hint(text, span, message)
    return Problem(f"YAML syntax error: {message}", span, hint)


def _children(ynode) -> list:
    if isinstance(ynode, SequenceNode):
        return ynode.value
    if isinstance(ynode, MappingNode):
        return [part for pair in ynode.value for part in pair]
    return []


def _check_graph(root, filename: str, problems: list[Problem], scan: _Scan) -> int | None:
    """The size of the composed graph as it would be expanded, measured without expanding
    it; None if it is too big or too deep (`problems` says why).

    Aliases make the graph a DAG (or, with an anchor inside itself, a cycle). Sizes and
    heights are memoised per node identity, so a billion-laughs file costs a few hundred
    steps. The walk is iterative: the graph can be deeper than the text through aliases.
    """
    measured: dict[int, tuple[int, int]] = {}  # id -> (expanded size, nesting height)
    on_path: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        ynode, done = stack.pop()
        key = id(ynode)
        kids = _children(ynode)
        if done:
            on_path.discard(key)
            size = 1 + sum(measured[id(k)][0] for k in kids)
            height = (0 if isinstance(ynode, ScalarNode) else 1) + max(
                (measured[id(k)][1] for k in kids), default=0)
            if size > scan.limit:
                problems.append(scan.too_many(_mark_span(ynode.start_mark, filename)))
                return None
            measured[key] = (size, height)
            continue
        if key in measured:
            continue
        on_path.add(key)
        stack.append((ynode, True))
        for kid in kids:
            if id(kid) in on_path:
                problems.append(Problem("an alias refers to a collection that contains it",
                                        _mark_span(kid.start_mark, filename)))
                return None
            if id(kid) not in measured:
                stack.append((kid, False))
    if measured[id(root)][1] > MAX_DEPTH:
        # Follow the tallest child down to the first level past the limit.
        ynode = root
        for _ in range(MAX_DEPTH):
            ynode = max(_children(ynode), key=lambda k: measured[id(k)][1])
        problems.append(Problem(f"nesting deeper than {MAX_DEPTH} levels (through aliases)",
                                _mark_span(ynode.start_mark, filename)))
        return None
    return measured[id(root)][0]


class _Builder:
    """Turns a checked node graph into Nodes. Recursion is safe here: depth is bounded."""

    def __init__(self, filename: str, problems: list[Problem]):
        self.filename = filename
        self.problems = problems
        # An alias shares the anchor's Node, so the tree costs what the text costs.
        self.built: dict[int, Node] = {}

    def build(self, ynode) -> Node:
        done = self.built.get(id(ynode))
        if done is not None:
            return done
        span = _mark_span(ynode.start_mark, self.filename)
        if isinstance(ynode, ScalarNode):
            node = self._scalar(ynode, span)
        elif isinstance(ynode, SequenceNode):
            node = Node([self.build(k) for k in ynode.value], span)
        else:
            node = self._mapping(ynode, span)
        self.built[id(ynode)] = node
        return node

    def _scalar(self, ynode, span: Span) -> Node:
        style = ynode.style or None  # the C loader says '' for plain, the Python one None
        value: Any = ynode.value
        if style is None:
            try:
                value = resolve_plain(ynode.value)
            except ValueError as e:
                self.problems.append(Problem(str(e), span,
                                             hint="quote it to make it a string"))
        end = _mark_span(ynode.end_mark, self.filename)
        return Node(value, span, style, end)

    def _mapping(self, ynode, span: Span) -> Node:
        value: dict[str, Node] = {}
        key_spans: dict[str, Span] = {}
        for knode, vnode in ynode.value:
            kspan = _mark_span(knode.start_mark, self.filename)
            key = self._key(knode, kspan)
            if key is None:
                continue
            if key in value:
                first = key_spans[key]
                self.problems.append(Problem(
                    f"duplicate key '{key}' (first at line {first.line})", kspan,
                    hint="YAML would keep only one of them; merge the two entries"))
                continue
            value[key] = self.build(vnode)
            key_spans[key] = kspan
        return Node(value, span, key_spans=key_spans)

    def _key(self, knode, span: Span) -> str | None:
        if not isinstance(knode, ScalarNode):
            kind = "list" if isinstance(knode, SequenceNode) else "mapping"
            self.problems.append(Problem(f"a {kind} cannot be a mapping key", span))
            return None
        key = self._scalar(knode, span).value
        if isinstance(key, str):
            return key
        if key is None:
            message = "a mapping key cannot be empty or null"
        else:
            kind = "true/false" if isinstance(key, bool) else "a number"
            message = f"mapping key {knode.value} is {kind}, not a string"
        self.problems.append(Problem(message, span,
                                     hint=f"quote it: '{knode.value}':" if knode.value else None))
        return None
