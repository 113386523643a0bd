"""The local high-score table: finished games' scores, kept between sessions.

A pack opts in with `highscores: true` and says how a game scores with `score:` (an
expression of the effect language). Whatever plays a game to its end — `horde play`, a
script — calls `record_score(game, state)`; nothing here knows which packs keep scores.

The table is one JSON file, `scores.json`, in the user's data folder: `$HORDE_DATA_DIR`
if set (tests point it at a temporary folder), else `$XDG_DATA_HOME/horde`, else
`~/.local/share/horde`. It is rewritten whole through a temporary file that is flushed,
fsynced and renamed over the old one, so a crash mid-write leaves the old table intact;
a lock file keeps two games that end at once from losing each other's score.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from engine.atomic import write_text
from engine.errors import HordeError

FILE = "scores.json"
FORMAT = 1
KEEP = 100  # entries kept per pack and mode


class ScoresError(HordeError):
    """The high-score table cannot be read or written."""


def data_dir() -> Path:
    """The folder horde keeps the user's data in."""
    override = os.environ.get("HORDE_DATA_DIR")
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "horde"


def scores_path() -> Path:
    return data_dir() / FILE


def load(path: Path | None = None) -> list[dict]:
    """Every recorded entry (best first within each pack and mode); [] if none yet."""
    path = path or scores_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise ScoresError(f"cannot read the high-score table {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _corrupt(path, f"not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or \
            not isinstance(data.get("scores"), list):
        raise _corrupt(path, "not a horde high-score table")
    entries = data["scores"]
    for e in entries:
        if not (isinstance(e, dict) and isinstance(e.get("pack"), str)
                and isinstance(e.get("score"), int) and not isinstance(e.get("score"), bool)):
            raise _corrupt(path, "an entry without a pack or a whole-number score")
    return entries


def _corrupt(path: Path, why: str) -> ScoresError:
    return ScoresError(f"the high-score table {path} is damaged: {why}",
                       hint="move it away to start a new table (no score was written)")


def save(entries: list[dict], path: Path | None = None) -> None:
    """Replace the table with `entries`, atomically."""
    path = path or scores_path()
    text = json.dumps({"format": FORMAT, "scores": entries}, indent=1, ensure_ascii=False)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, text + "\n")
    except OSError as exc:
        raise ScoresError(f"cannot write the high-score table {path}: {exc.strerror}") from None
    except HordeError as exc:
        raise ScoresError(f"cannot write the high-score table {path}: "
                          f"{exc.problem.message}") from None


@contextmanager
def _locked(path: Path):
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock, the rename stays atomic
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def score_of(game, state) -> int | None:
    """The game's score as its pack defines it (`score:`), or None if it defines none."""
    if game.score is None:
        return None
    from engine.flow.machine import evaluate
    value = evaluate(state, game.score, {})
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScoresError(f"the pack's score is {state.describe(value)}, not a whole number")
    return value


def _changed_params(game) -> dict:
    specs = game.raw.get("params") or {}
    out = {}
    for name, value in game.params.items():
        spec = specs.get(name)
        default = spec.get("default") if isinstance(spec, dict) else spec
        if value != default:
            out[name] = value
    return out


def record_score(game, state, *, name: str | None = None, path: Path | None = None) -> dict | None:
    """Add a finished game's score to the table if its pack keeps high scores.

    Returns the new entry with its `rank` among games of the same pack and mode (1 is
    best), or None when the pack keeps no scores or the game is not over."""
    if not game.highscores or not state.is_terminal():
        return None
    value = score_of(game, state)
    if value is None:
        return None
    path = path or scores_path()
    entry = {
        "pack": game.pack_id, "mode": game.mode or "", "score": value,
        "when": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "players": len(state.pl), "seed": state.seed, "turns": state.turns,
        "params": _changed_params(game), "name": name or "",
    }
    with _locked(path):
        entries = load(path)
        entries.append(entry)
        entries = _trimmed(entries)
        save(entries, path)
    same = [e for e in entries if (e["pack"], e.get("mode", "")) == (entry["pack"], entry["mode"])]
    rank = next((k + 1 for k, e in enumerate(same) if e is entry), None)
    return {**entry, "rank": rank}


def _trimmed(entries: list[dict]) -> list[dict]:
    """Best first within each pack and mode (earlier first on ties), KEEP of each."""
    groups: dict[tuple, list[dict]] = {}
    for e in entries:
        groups.setdefault((e["pack"], e.get("mode", "")), []).append(e)
    out: list[dict] = []
    for key in sorted(groups):
        ranked = sorted(groups[key], key=lambda e: -e["score"])  # stable: ties keep order
        out += ranked[:KEEP]
    return out


def top(pack: str | None = None, mode: str | None = None, limit: int = 10,
        path: Path | None = None) -> list[dict]:
    """The best entries, best first, optionally of one pack (and mode)."""
    entries = [e for e in load(path) if (pack is None or e["pack"] == pack)
               and (mode is None or e.get("mode", "") == mode)]
    entries.sort(key=lambda e: -e["score"])
    return entries[:limit]
