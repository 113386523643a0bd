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

from engine.atomic import MiB, read_json, write_text
from engine.errors import HordeError
from engine.flow.machine import evaluate

FILE = "scores.json"
FORMAT = 1
KEEP = 100  # entries kept per pack and mode
# An entry is about 250 bytes: 4 MiB holds KEEP entries of some 160 packs and modes.
MAX_BYTES = 4 * MiB


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
        data = read_json(path, MAX_BYTES)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise ScoresError(f"cannot read the high-score table {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise _corrupt(path, str(exc)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or \
            not isinstance(data.get("scores"), list):
        raise _corrupt(path, "not a horde high-score table")
    for k, e in enumerate(data["scores"], 1):
        why = _bad_entry(e)
        if why:
            raise _corrupt(path, f"entry {k}: {why}")
    return data["scores"]


# What an entry may hold, and of which type (`pack` and `score` it must): a table with
# anything else is damaged, so no part of horde meets a null mode or a text score.
_ENTRY = {"pack": str, "score": int, "mode": str, "when": str, "players": int, "seed": int,
          "turns": int, "params": dict, "name": str, "bots": list}
_TYPE_NAMES = {str: "text", int: "a whole number", dict: "an object", list: "a list"}


def _bad_entry(e) -> str | None:
    if not isinstance(e, dict):
        return "not an object"
    for key, typ in _ENTRY.items():
        if key not in e:
            if key in ("pack", "score"):
                return f"no '{key}'"
        elif not isinstance(e[key], typ) or isinstance(e[key], bool):
            return f"'{key}' is not {_TYPE_NAMES[typ]}"
    return None


def _corrupt(path: Path, why: str) -> ScoresError:
    return ScoresError(f"the high-score table {path} is damaged: {why}",
                       hint="move it away to start a new table")


def save(entries: list[dict], path: Path | None = None) -> None:
    """Replace the table with `entries`, atomically."""
    path = path or scores_path()
    text = json.dumps({"format": FORMAT, "scores": entries}, indent=1, ensure_ascii=False)
    _make_folder(path)
    try:
        write_text(path, text + "\n")
    except HordeError as exc:
        raise ScoresError(exc.problem.message, hint=exc.problem.hint) from None


def _make_folder(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ScoresError(f"cannot make the folder {path.parent} for the high-score table: "
                          f"{exc.strerror}", hint="HORDE_DATA_DIR, if set, must name a folder") \
            from None


@contextmanager
def _locked(path: Path):
    """Hold the table's lock file (never following a link, never waiting on a pipe)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock, the rename stays atomic
        yield
        return
    _make_folder(path)
    lock = path.with_name(path.name + ".lock")
    try:
        fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            os.close(fd)
            raise
    except OSError as exc:
        raise ScoresError(f"cannot lock the high-score table with {lock}: {exc.strerror}",
                          hint="if it is not a file, move it away: horde makes a new one") \
            from None
    try:
        yield
    finally:
        os.close(fd)  # and with it the lock


def score_of(game, state) -> int | None:
    """The game's score as its pack defines it (`score:`), or None if it defines none."""
    if game.score is None:
        return None
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


def record_score(game, state, *, name: str | None = None, path: Path | None = None,
                 bots: list[str] | None = None) -> dict | None:
    """Add a finished game's score to the table if its pack keeps high scores; `bots`:
    the specs of the bots that played, kept so the table can mark a bot's game.

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
    if bots:
        entry["bots"] = [str(b) for b in bots]
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
