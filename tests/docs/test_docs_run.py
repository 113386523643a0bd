"""The docs run: every transcript in README.md and docs/*.md is executed and its output
compared with what the command prints today, so a documented output cannot drift.

The conventions are docs/architecture.md's "Docs that run": a transcript is a plain or
`text` fence of `$ horde ...` commands, each followed by what it prints; machine figures
(durations, games/s, dates) are masked on both sides, paths are compared relative to the
repository or the page's folder, and a `...` line stands for any lines; a `yaml` fence
headed `# NAME.yaml` is written to NAME.yaml first; what follows a `P0> ` prompt is typed;
`<!-- illustrative: why -->` before a fence says it is not run, `<!-- slow: why -->` runs
it under `@pytest.mark.slow`.

Each page's transcripts run in order, in one temporary folder of that page (with `rulesets`,
`examples` and `tests` linked from the repository), as subprocesses running `engine.cli.app.main` as
the `horde` script does, at a terminal width of 120 columns.
"""

from __future__ import annotations

import difflib
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\S*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
MARK = re.compile(r"<!--\s*(illustrative|slow)\b[^>]*-->\s*\n\s*$")
NAMED_FILE = re.compile(r"\A#\s*([\w.-]+\.ya?ml)\b")
PROMPT = re.compile(r"^(P\d+> )(.*)$")
TIMEOUT = 600
COLUMNS = 120  # the terminal width the transcripts are shown at


@dataclass
class Run:
    """One command of a transcript with the output the page shows for it."""

    page: Path
    line: int
    command: str
    expected: list[str]
    slow: bool


@dataclass
class Page:
    """What a page shows: its files (name -> text, with the fence's line) and its runs, in order."""

    path: Path
    steps: list[tuple[int, object]] = field(default_factory=list)
    unmarked: list[int] = field(default_factory=list)


def read_page(path: Path) -> Page:
    page = Page(path)
    text = path.read_text(encoding="utf-8")
    for m in FENCE.finditer(text):
        lang, body = m.group(1), m.group(2)
        line = text.count("\n", 0, m.start()) + 1
        mark = MARK.search(text, 0, m.start())
        kind = mark.group(1) if mark and mark.end() == m.start() else None
        if kind == "illustrative":
            continue
        if lang in ("yaml", "yml"):
            named = NAMED_FILE.match(body)
            if named:
                page.steps.append((line, (named.group(1), body)))
            continue
        if lang not in ("", "text", "console"):  # sh: commands to type; python, json: no output shown
            continue
        lines = body.rstrip("\n").split("\n")
        if not lines[0].startswith("$ "):
            page.unmarked.append(line)
            continue
        for k, cmd_line in enumerate(lines):
            if not cmd_line.startswith("$ "):
                continue
            out: list[str] = []
            for later in lines[k + 1 :]:
                if later.startswith("$ "):
                    break
                out.append(later)
            if out:
                page.steps.append((line + 1 + k, Run(path, line + 1 + k, cmd_line[2:], out, kind == "slow")))
    return page


READ = {p: read_page(p) for p in PAGES}
RUNS = [step for page in READ.values() for _, step in page.steps if isinstance(step, Run)]


def mask(lines: list[str], folder: str) -> list[str]:
    """The machine's figures replaced by placeholders, on the documented and the printed side."""
    out = []
    for line in lines:
        for root in (folder, str(ROOT)):
            line = line.replace(root + os.sep, "").replace(root, ".")
        line = re.sub(r"\b\d[\d,]*(\.\d+)? games/s\b", "N games/s", line)
        line = re.sub(r"\b\d+(\.\d+)? ?(s|ms|min)\b", "N s", line)
        line = re.sub(r"\b\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?", "DATE", line)
        line = re.sub(r"\(Python \d+\.\d+\.\d+\)", "(Python X)", line)
        out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether `actual` is `expected` with each `...` line standing for any number of lines."""
    pattern = "".join(".*?" if e.strip() == "..." else re.escape(e + "\n") for e in expected)
    return re.fullmatch(pattern, "".join(a + "\n" for a in actual), re.S) is not None


_FOLDERS: dict[Path, Path] = {}


def folder_of(page: Path) -> Path:
    """The page's working folder, made once: the repository's packs and test files linked in."""
    if page not in _FOLDERS:
        d = Path(tempfile.mkdtemp(prefix="horde-docs-"))
        for name in ("rulesets", "examples", "tests"):
            (d / name).symlink_to(ROOT / name)
        (d / "cache").mkdir()
        _FOLDERS[page] = d
    return _FOLDERS[page]


def run(command: str, folder: Path, typed: str | None) -> list[str]:
    args = command.split("#", 1)[0].split()
    assert args[0] == "horde", f"a transcript runs horde, not {args[0]!r}"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "COLUMNS": str(COLUMNS),
        "HORDE_CACHE_DIR": str(folder / "cache"),
        "HORDE_DATA_DIR": str(folder / "data"),
        "NO_COLOR": "1",
        "TERM": "dumb",
    }
    proc = subprocess.run(
        [sys.executable, "-c", "from engine.cli.app import main; main()", *args[1:]],
        cwd=folder,
        env=env,
        input=typed or "",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    out = proc.stdout + proc.stderr
    return out.split("\n")


def typed_input(expected: list[str]) -> str | None:
    typed = [m.group(2) for m in map(PROMPT.match, expected) if m]
    return "".join(t + "\n" for t in typed) if typed else None


def echo_input(actual: list[str], typed: str | None) -> list[str]:
    """The printed output with each prompt followed by what was typed at it, as a terminal shows it."""
    if typed is None:
        return actual
    answers = iter(typed.splitlines())
    text = "\n".join(actual)
    return re.sub(r"(P\d+> )", lambda m: m.group(1) + next(answers, "") + "\n", text).split("\n")


def prepare(page: Path, upto: int) -> Path:
    """The page's folder with the page's named files that come before line `upto` written in it
    (a transcript that reads what an earlier one wrote runs after it: tests run in page order)."""
    folder = folder_of(page)
    for line, step in READ[page].steps:
        if line >= upto:
            break
        if isinstance(step, tuple):
            name, body = step
            (folder / name).write_text(body, encoding="utf-8")
    return folder


def params():
    for r in RUNS:
        marks = [pytest.mark.xdist_group(f"docs-{r.page.name}")]
        if r.slow:
            marks.append(pytest.mark.slow)
        yield pytest.param(r, id=f"{r.page.relative_to(ROOT)}:{r.line}", marks=marks)


@pytest.mark.parametrize("r", params())
def test_transcript_prints_what_the_page_shows(r: Run):
    folder = prepare(r.page, r.line)
    typed = typed_input(r.expected)
    actual = echo_input(run(r.command, folder, typed), typed)
    want, got = mask(r.expected, str(folder)), mask(actual, str(folder))
    if not matches(want, got) and os.environ.get("HORDE_DOCS_UPDATE") and update(r, actual, str(folder)):
        return
    if not matches(want, got):
        diff = "\n".join(difflib.unified_diff(want, got, "documented", "printed today", lineterm=""))
        pytest.fail(f"{r.page.relative_to(ROOT)}:{r.line}: `{r.command}` prints something else now:\n{diff}")


def update(r: Run, actual: list[str], folder: str) -> bool:
    """With HORDE_DOCS_UPDATE=1, write what the command prints today in place of what the page
    shows (for a maintainer who changed an output on purpose: review the diff before committing).
    Blocks with `...` lines are left for a person to edit; returns whether the page was written."""
    if any(e.strip() == "..." for e in r.expected):
        return False
    printed = []
    for line in actual:
        for root in (folder, str(ROOT)):
            line = line.replace(root + os.sep, "").replace(root, ".")
        printed.append(line.rstrip())
    while printed and not printed[-1]:
        printed.pop()
    old = "$ " + r.command + "\n" + "".join(e + "\n" for e in r.expected)
    text = r.page.read_text(encoding="utf-8")
    if text.count(old) != 1:
        return False
    r.page.write_text(text.replace(old, "$ " + r.command + "\n" + "".join(p + "\n" for p in printed)),
                      encoding="utf-8")
    return True


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_plain_fence_is_a_transcript_or_says_it_illustrates(page: Path):
    where = ", ".join(f"{page.name}:{n}" for n in READ[page].unmarked)
    assert not READ[page].unmarked, (
        f"fences without a language that are not `$ horde` transcripts: {where}; "
        "put `<!-- illustrative: why -->` on the line before each, or make it a transcript"
    )


def test_the_runner_finds_the_transcripts_it_should():
    assert len(RUNS) >= 10
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert not matches(["a", "d"], ["a", "b", "d"])
    assert mask(["0.43 s, 464 games/s", "/tmp/x/game.json"], "/tmp/x") == ["N s, N games/s", "game.json"]
