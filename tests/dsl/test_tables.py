"""The shipped LALR tables (engine/dsl/effects.lalr.json) against the grammar: they are
what Lark builds from grammar/effects.lark today, and a parser loaded from them reads every
snippet as a parser built from the grammar does, node for node, error for error."""

from __future__ import annotations

import functools
import random
import re

import pytest

import engine
from engine.dsl import parser, tables
from engine.errors import DSLSyntaxError
from engine.pack.loader import list_packs

from .test_corpus import _chunks


@functools.cache
def built():
    """Lark's parser with its tables built from the grammar in this process."""
    return tables.build(tables.grammar_text(), tables.indenter())


def outcome(text: str) -> str:
    """What reading `text` gives: the AST, or the error with its position."""
    try:
        return repr(parser._ToAst().transform(parser._parse_tree(text)))
    except DSLSyntaxError as exc:
        return f"{exc} at {getattr(exc, 'pos', None)}"


def alike(text: str) -> None:
    """The shipped tables and the built ones read `text` the same way, errors included."""
    shipped = outcome(text)
    real = parser._parser
    parser._parser = built
    try:
        fresh = outcome(text)
    finally:
        parser._parser = real
    assert shipped == fresh, text


def pack_snippets(monkeypatch) -> set[str]:
    seen: set[str] = set()
    real = parser._parse_tree

    def record(text):
        seen.add(text)
        return real(text)

    monkeypatch.setattr(parser, "_parse_tree", record)
    parser.parse_program.cache_clear()
    parser.parse_expr.cache_clear()
    try:
        for info in list_packs():
            for mode in [None, *info.modes]:
                engine.load(info.id, mode=mode)
            for house in info.house:
                engine.load(info.id, house=[house])
    finally:
        parser.parse_program.cache_clear()
        parser.parse_expr.cache_clear()
    return seen


def test_the_shipped_tables_are_made_from_this_grammar():
    assert tables.main(["--check"]) == 0, "grammar/effects.lark changed: run python -m engine.dsl.tables"


def test_writing_the_tables_twice_gives_the_same_file():
    grammar, post = tables.grammar_text(), tables.indenter()
    assert tables.serialize(grammar, post) == tables.serialize(grammar, post)


def test_a_grammar_the_tables_were_not_made_from_gets_tables_of_its_own(monkeypatch):
    made = []
    real = tables.build
    monkeypatch.setattr(tables, "build", lambda g, p: made.append(g) or real(g, p))
    other = tables.grammar_text() + "\n// one more comment\n"
    lark = tables.load(other, tables.indenter())
    assert made == [other]
    assert lark.parse("x = 1\n").data == "start"


def test_without_the_file_lark_builds_the_tables(monkeypatch):
    made = []
    real = tables.build
    monkeypatch.setattr(tables, "build", lambda g, p: made.append(g) or real(g, p))
    monkeypatch.setattr(tables, "TABLES", "no-such-tables.json")
    lark = tables.load(tables.grammar_text(), tables.indenter())
    assert made and lark.parse("x = 1\n").data == "start"


def test_the_shipped_tables_are_used_with_this_grammar(monkeypatch):
    monkeypatch.setattr(tables, "build", lambda g, p: pytest.fail("built the tables"))
    lark = tables.load(tables.grammar_text(), tables.indenter())
    assert lark.source_path == "<deserialized>"


def test_the_keywords_are_the_grammars_words():
    words = set(re.findall(r'"([a-z]+)"', tables.grammar_text()))
    assert parser.KEYWORDS == words


def test_every_snippet_of_the_bundled_packs_reads_alike(monkeypatch):
    texts = pack_snippets(monkeypatch)
    assert len(texts) > 100
    for text in sorted(texts):
        alike(text)


def test_the_expression_corpus_reads_alike():
    for param in _chunks():
        alike(param.values[0])


@pytest.mark.parametrize("text", [
    "", "\n", "   ", "# only a comment", "\n\nx = 1\n\n", "x = 1  # note\ny = 2",
    "(a).b = 1", "(a.b) = 1", "(a) = 1", "a[0].b[1] += 2", "x = (a + b) * c", "x = ((a))",
    "(a + b)", "(a); b", "- (a) . b", "not not a", "a < b < c", "a not in b", "a in b in c",
    "x.if = 1", "if = 1", "f(if=1)", "a inb", "x = a andb", "iffy = 1", "x = a + b not in c",
    "a * -b in c and not d or e", "not a == b and c", "a == not b", "not a < b < c", "a not b",
    "f(a, b=1, c, d=2,)", "f(,)", "f(a b)", "[1, 2,]", "[,]", "[x for x in xs if a if b]",
    "if a: b = 1\nelif c: d\nelse: pass", "if a:\n  b\n c", "if a:\n    b\n  c\n",
    "for x in xs: pass\nrepeat 3:\n  call p(x, k=[1])\n  # c\n\n  y -= 1\n",
    "x = 'a\\'b' + \"c\\n\"", "x = '∞'", "x ∞ 1", "x = ٣", "x\t= 1", "x = 1\r\n", "a = \\\n 1",
    "x = " + "9" * 5000, "x = 'open", "f(\n  a,\n  # c\n  b)\n", ")", "a = (1", "\n  x = 1",
    "x = " + "(" * 70 + "1" + ")" * 70, "x = " + "-" * 70 + "1", "x = " + "f(" * 25 + ")" * 25,
])
def test_edge_cases_read_alike(text):
    alike(text)


# ---- generated snippets, valid and slightly broken ----

NAMES = ["a", "b", "xs", "me", "p_1", "_z", "andy", "inx", "iffy", "nothing"]
KEYWORDS = ["if", "in", "not", "true", "none", "call", "pass", "for", "or", "else", "repeat"]
BINOPS = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"]
NOISE = ["(", ")", ":", "\n", " ", "    ", "=", ",", "#", "[", "]", "not ", "if ", ";", ".",
         "-", "+=", "'", "\t", "\\\n", "9"]


class Gen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def name(self) -> str:
        return self.r.choice(KEYWORDS) if self.r.random() < 0.01 else self.r.choice(NAMES)

    def sp(self) -> str:
        return self.r.choice(["", " ", " ", "  "])

    def gap(self, indent: int) -> str:
        """Inside brackets: spaces, or a line break, comments and any indentation."""
        if self.r.random() < 0.1:
            comment = " # c" if self.r.random() < 0.5 else ""
            return comment + "\n" + " " * self.r.randrange(0, indent + 6)
        return self.sp()

    def args(self, d: int) -> str:
        parts = []
        for _ in range(self.r.randrange(0, 4)):
            value = self.expr(d + 1)
            parts.append(f"{self.name()}{self.sp()}={self.sp()}{value}"
                         if self.r.random() < 0.3 else value)
        tail = "," if parts and self.r.random() < 0.2 else ""
        return f"{self.gap(0)}{(',' + self.gap(0)).join(parts)}{tail}{self.gap(0)}"

    def atom(self, d: int) -> str:
        r = self.r
        pick = r.randrange(0, 12 if d < 6 else 5)
        if pick == 0:
            return r.choice(["0", "7", "12", "007"])
        if pick == 1:
            return r.choice(["'s'", '"d q"', "'a\\'b'", "'\\n'", "'∞'", "''"])
        if pick == 2:
            return r.choice(["true", "false", "none"])
        if pick in (3, 4):
            return self.name()
        if pick in (5, 6):
            return f"{self.name()}({self.args(d)})"
        if pick == 7:
            return f"({self.gap(0)}{self.expr(d + 1)}{self.gap(0)})"
        if pick == 8:
            items = [self.expr(d + 1) for _ in range(r.randrange(0, 4))]
            tail = "," if items and r.random() < 0.2 else ""
            return f"[{self.gap(0)}{', '.join(items)}{tail}]"
        if pick == 9:
            cond = f" if {self.expr(d + 1)}" if r.random() < 0.5 else ""
            return f"[{self.expr(d + 1)} for {self.name()} in {self.expr(d + 1)}{cond}]"
        if pick == 10:
            return f"{self.atom(d + 1)}.{self.name()}"
        return f"{self.atom(d + 1)}[{self.expr(d + 1)}]"

    def expr(self, d: int = 0) -> str:
        return self.prec(d)[0]

    def prec(self, d: int) -> tuple[str, int]:
        """An expression and how tightly it binds (or 1 ... atom 8); an operand that binds
        less tightly than its operator needs gets brackets, as a person would write it."""
        r = self.r
        pick = r.random()
        if d > 5 or pick < 0.45:
            return self.atom(d), 8
        if pick < 0.55:
            return f"-{self.sp()}{self.operand(d, 7)}", 7
        if pick < 0.62:
            return f"not {self.operand(d, 3)}", 3
        op = r.choice(BINOPS)
        level = {"or": 1, "and": 2, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}.get(op, 4)
        pad = " " if op[0].isalpha() else self.sp()
        left = self.operand(d, level + (level == 4))
        return f"{left}{pad}{op}{pad}{self.operand(d, level + 1)}", level

    def operand(self, d: int, least: int) -> str:
        text, level = self.prec(d + 1)
        return text if level >= least else f"({text})"

    def target(self) -> str:
        pick = self.r.randrange(0, 4)
        if pick == 0:
            return f"{self.atom(2)}.{self.name()}"
        if pick == 1:
            return f"{self.atom(2)}[{self.expr(2)}]"
        if pick == 2 and self.r.random() < 0.2:
            return f"({self.name()})"
        return self.name()

    def small(self) -> str:
        r = self.r
        pick = r.randrange(0, 6)
        if pick == 0:
            return "pass"
        if pick == 1:
            return f"call {self.name()}({self.args(1)})"
        if pick in (2, 3):
            op = r.choice(["=", "=", "+=", "-=", "*="])
            return f"{self.target()}{self.sp()}{op}{self.sp()}{self.expr()}"
        return self.expr()

    def simple(self) -> str:
        return "; ".join(self.small() for _ in range(1 if self.r.random() < 0.8 else 2))

    def suite(self, indent: int, d: int) -> str:
        if self.r.random() < 0.3:
            return " " + self.simple() + "\n"
        inner = indent + self.r.choice([2, 4])
        return "\n" + self.block(inner, d + 1)

    def statement(self, indent: int, d: int) -> str:
        r = self.r
        pad = " " * indent
        pick = r.randrange(0, 10 if d < 3 else 6)
        if pick < 6:
            return pad + self.simple() + ("  # note" if r.random() < 0.1 else "") + "\n"
        if pick < 8:
            text = f"{pad}if {self.expr()}:{self.suite(indent, d)}"
            for _ in range(r.randrange(0, 2)):
                text += f"{pad}elif {self.expr()}:{self.suite(indent, d)}"
            if r.random() < 0.4:
                text += f"{pad}else:{self.suite(indent, d)}"
            return text
        if pick == 8:
            return f"{pad}for {self.name()} in {self.expr()}:{self.suite(indent, d)}"
        return f"{pad}repeat {self.expr()}:{self.suite(indent, d)}"

    def block(self, indent: int, d: int = 0) -> str:
        lines = []
        for _ in range(self.r.randrange(1, 4)):
            if self.r.random() < 0.1:
                lines.append(self.r.choice(["\n", " " * indent + "# comment\n", "   \n"]))
            lines.append(self.statement(indent, d))
        return "".join(lines)

    def program(self) -> str:
        text = self.block(0) if self.r.random() < 0.7 else self.expr()
        if self.r.random() < 0.1:
            text = self.r.choice(["\n", "# head\n", "  "]) + text
        if self.r.random() < 0.5:
            text = text.rstrip("\n")
        return text

    def broken(self, text: str) -> str:
        for _ in range(self.r.randrange(1, 3)):
            at = self.r.randrange(0, len(text) + 1)
            if self.r.random() < 0.5 and text:
                text = text[:at] + text[at + 1:]
            else:
                text = text[:at] + self.r.choice(NOISE) + text[at:]
        return text


@pytest.mark.parametrize("chunk", range(4))
def test_generated_snippets_read_alike(chunk):
    for seed in range(chunk * 200, (chunk + 1) * 200):
        gen = Gen(seed)
        text = gen.program()
        alike(text)
        alike(gen.broken(text))
