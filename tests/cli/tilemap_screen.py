"""Reading a tile map off the screen as a person does: its rulers, the numbers of the
placements offered on it, where the pawns stand. Only what is printed is read, never the
labels of the choices."""

from __future__ import annotations

import re

TILE_W = 7  # characters per tile on the screen: three squares of two, and a gap


def last_map(screen: str) -> list[str]:
    """The lines of the last map drawn on `screen`, from its tile ruler to its legend."""
    lines = screen.splitlines()
    top = max(k for k, line in enumerate(lines) if re.fullmatch(r" {4}(t-?\d+ *)+", line))
    end = next(k for k in range(top, len(lines)) if lines[k].startswith("legend"))
    return lines[top:end]


def _tile_columns(ruler: str) -> dict[int, int]:
    """Screen column -> tile column, from the `t-1    t0` ruler over the map."""
    return {p: int(m[1]) for m in re.finditer(r"t(-?\d+)", ruler)
            for p in range(m.start(), m.start() + TILE_W)}


def offers_on(screen: str) -> dict[int, tuple[tuple[int, int], int]]:
    """Choice number -> (tile position, rotation), as the map shows `n:r` at a position."""
    lines = last_map(screen)
    columns = _tile_columns(lines[0])
    out = {}
    ty = None
    for line in lines[2:]:
        head = re.match(r" *t(-?\d+) ", line)
        if head is not None:
            ty = int(head[1])
        for m in re.finditer(r"(\d+):(\d+)", line):
            out[int(m[1])] = ((columns[m.start()], ty), int(m[2]))
    return out


def square_columns(ruler: str) -> dict[int, int]:
    """Screen column -> square column, from the ruler of square numbers: one number a
    square, or where they do not fit in two characters, the first of a tile's three
    (`-15…`)."""
    if "…" in ruler:
        return {m.start() + 2 * c + i: int(m[1]) + c for m in re.finditer(r"(-?\d+)…", ruler)
                for c in range(3) for i in range(2)}
    return {p: int(m[0]) for m in re.finditer(r"-?\d+", ruler)
            for p in range(m.end() - 2, m.end())}


def pawn_square(screen: str, seat: int) -> tuple[int, int] | None:
    """The square the map shows `seat`'s pawn (or a `*` of several pawns) on."""
    lines = last_map(screen)
    columns = square_columns(lines[1])
    found = None
    for line in lines[2:]:
        row = re.match(r" *(-?\d+) ", line)
        if row is None:
            continue
        line = re.sub(r"\d+:\d+", lambda m: " " * len(m[0]), line)  # placements offered
        for p, ch in enumerate(line):
            if p >= 4 and p in columns and (ch == str(seat) or ch == "*" and found is None):
                if ch == str(seat):
                    return columns[p], int(row[1])
                found = columns[p], int(row[1])
    return found
