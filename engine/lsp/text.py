"""Where things are in the text an editor holds: the word under the cursor, the YAML keys
above a line (read from indentation, so a half-typed buffer still has them), and ranges.

LSP positions are 0-based lines and UTF-16 columns; horde's spans are 1-based lines and
columns in characters. Pack files are nearly always ASCII; a line with characters outside
the Basic Multilingual Plane is measured in UTF-16 units here.
"""

from __future__ import annotations

import re

from engine.errors import Span

_WORD = re.compile(r"[A-Za-z0-9_:\-]+")
_KEY = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z0-9_\-]+)\s*:(?:\s|$)")
_ITEM = re.compile(r"^(\s*)-(\s+|$)")


def utf16_col(line: str, col: int) -> int:
    """The UTF-16 column of character column `col` (0-based) of `line`."""
    return col + sum(1 for ch in line[:col] if ord(ch) > 0xFFFF)


def char_col(line: str, col16: int) -> int:
    """The character column of UTF-16 column `col16` of `line`."""
    units = 0
    for k, ch in enumerate(line):
        if units >= col16:
            return k
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def word_at(line: str, col: int) -> tuple[str, int, int]:
    """The word (id characters, ':' for `point:x` events) around character column `col`,
    with its start and end columns; a trailing ':' (a key's) is not part of it."""
    for m in _WORD.finditer(line):
        if m.start() <= col <= m.end():
            word = m.group().rstrip(":")
            return word, m.start(), m.start() + len(word)
    return "", col, col


def span_range(lines: list[str], span: Span) -> tuple[int, int, int, int]:
    """(line, start, line, end), 0-based character columns, of the token starting at `span`:
    a quoted string without its quotes, else the word there, else the rest of the line."""
    row = max(span.line - 1, 0)
    text = lines[row] if row < len(lines) else ""
    start = min(max(span.col - 1, 0), len(text))
    if text[start:start + 1] in ('"', "'"):
        close = text.find(text[start], start + 1)
        if close > start:
            return row, start + 1, row, close
    m = _WORD.match(text, start)
    if m:
        return row, start, row, start + len(m.group().rstrip(":") or m.group())
    return row, start, row, max(len(text.rstrip()), start + 1)


def indent_of(line: str) -> int:
    """Where a line's content starts, a list item's dash counted as indentation."""
    m = _ITEM.match(line)
    if m:
        return len(m.group(0)) if line.strip() != "-" else len(m.group(1)) + 2
    return len(line) - len(line.lstrip(" "))


def key_path(lines: list[str], row: int, col: int | None = None) -> list[str]:
    """The mapping keys (and '[]' for list items) that hold the text at `row`, outermost
    first, read from the indentation of the lines above. The key written on `row` itself
    is included when the cursor (`col`) is past its colon."""
    path: list[str] = []
    here = lines[row] if row < len(lines) else ""
    m = _KEY.match(here)
    if m and col is not None and col > m.end(2):
        path.append(m.group(2))
    if here.strip():
        limit = len(here) - len(here.lstrip(" "))
        if _ITEM.match(here):
            path.append("[]")
    else:
        limit = col if col is not None else 0
    for k in range(row - 1, -1, -1):
        line = lines[k]
        stripped = line.strip()
        ind = len(line) - len(line.lstrip(" "))
        if not stripped or stripped.startswith("#") or ind >= limit:
            continue
        key = _KEY.match(line)
        if _ITEM.match(line):
            # `- key: v`: a line below as deep as `key` is a sibling key of the item
            if key and indent_of(line) < limit:
                path.append(key.group(2))
            path.append("[]")
        elif key:
            path.append(key.group(2))
        limit = ind
        if limit == 0:
            break
    path.reverse()
    return path
