"""Game records: a played game as the few facts that reproduce it, and their replay.

A record is not a save of the final state: it is the pack reference, mode, house rules,
params, player count, seed and the list of decision labels. The engine is deterministic,
so replaying the labels from the same seed rebuilds every state of the game. That only
holds for the same rules, so a record also keeps the compiled pack's hash and the sha256
of each house-rule file, and replay refuses (one clear error) when either changed or a
label is not legal where it comes.

    {"format": 1, "pack": "some-pack", "mode": null,
     "house": [{"path": "/abs/quick.yaml", "sha256": "..."}], "params": {"goal": "20"},
     "players": 3, "seed": 7, "bots": ["human", "random", "random"],
     "pack_hash": "c5f93b40268711e2", "hash_version": 2, "decisions": ["pass", "draw", ...]}

`hash_version` says how `pack_hash` was computed (`engine.model.pack_hash`). Records
made before it existed have none: their hash is version 1, which sorted the pack's keys,
and they are checked against that one, so they still replay.

A record is untrusted input (anyone can hand one over): it is read up to MAX_BYTES, every
field is checked for type and range before any of it is used (each bot spec as `make_bot`
would check it, budgets capped), and a problem is one StateError naming the file and the
field.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from engine.api import load as load_pack
from engine.atomic import MiB, read_json, write_text
from engine.bots.base import check_spec
from engine.errors import HordeError, StateError
from engine.model import HASH_VERSION, pack_hash
from engine.pack.loader import PACK_FILE, resolve_ref, rulesets_dir

FORMAT = 1
_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
# The longest bundled game is some 2,500 decisions (60 KB). 100,000 decisions of labels up
# to ~35 characters fit in 4 MiB; a bigger file is no record, and parsing it could take
# hundreds of MiB of memory.
MAX_BYTES = 4 * MiB
MAX_DECISIONS = 100_000
SEEDS = range(-(1 << 63), 1 << 64)  # signed or unsigned 64 bits: the RNG keeps 64 bits


def file_sha256(path: str | Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def pack_ref(ref: str | Path) -> str:
    """How a record names the pack: a bundled pack by id, anything else by absolute path,
    so the record replays from any working directory."""
    text = str(ref)
    if _ID.fullmatch(text) and (rulesets_dir() / text / PACK_FILE).is_file():
        return text
    return str(Path(text).expanduser().resolve())


def house_file(entry: str | Path, ref: str | Path) -> Path:
    """The file a house-rule argument names: a path, or the name of a house-rule example."""
    path = Path(str(entry)).expanduser()
    if path.is_file():
        return path.resolve()
    candidate = resolve_ref(ref).parent / "house" / f"{entry}.yaml"
    if candidate.is_file():
        return candidate.resolve()
    raise HordeError(f"house rule '{entry}': no such file or house rule")


def make_record(state, ref: str | Path, house: Sequence[str | Path] = (),
                params: dict | None = None, bots: Sequence[str] = ()) -> dict:
    """The record of `state`'s game so far (it need not be over)."""
    game = state.game
    return {
        "format": FORMAT,
        "pack": pack_ref(ref),
        "mode": game.mode,
        "house": [{"path": str(p), "sha256": file_sha256(p)}
                  for p in (house_file(h, ref) for h in house)],
        "params": dict(params or {}),
        "players": len(state.pl),
        "seed": state.seed,
        "bots": list(bots),
        "pack_hash": game.hash,
        "hash_version": HASH_VERSION,
        "decisions": list(state.history),
    }


def save(record: dict, path: str | Path) -> None:
    """Write atomically: a crash mid-write leaves the old file, never half a record."""
    write_text(path, json.dumps(record, indent=1) + "\n")


_FIELDS: dict[str, type | tuple[type, ...]] = {
    "pack": str, "mode": (str, type(None)), "house": list, "params": dict, "players": int,
    "seed": int, "bots": list, "pack_hash": str, "decisions": list}


def load(path: str | Path) -> dict:
    """A record read from `path` and checked for shape (a StateError if it is not one)."""
    try:
        data = read_json(path, MAX_BYTES)
    except OSError as exc:
        raise StateError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise StateError(f"{path}: not a game record ({exc})") from None
    return check(data, str(path))


def check(data, where: str = "record") -> dict:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StateError(f"{where}: not a game record (format {FORMAT} expected)")
    why = _malformed(data)
    if why:
        raise StateError(f"{where}: corrupt game record: {why}")
    for seat, spec in enumerate(data["bots"]):
        try:  # `resume` makes these bots: the budgets they ask for are capped as typed ones
            check_spec(spec)
        except HordeError as exc:
            raise StateError(f"{where}: 'bots' item {seat + 1} (P{seat}): {exc.problem.message}",
                             hint=exc.problem.hint) from None
    return data


def _malformed(data: dict) -> str | None:
    """What is wrong with a record's fields, or None."""
    for key, typ in _FIELDS.items():
        value = data.get(key)
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            return f"'{key}' is missing or malformed"
    if data["seed"] not in SEEDS:
        return "'seed' is not a 64-bit number"
    version = data.get("hash_version", 1)
    if type(version) is not int or version not in (1, HASH_VERSION):
        return f"'hash_version' is not 1 or {HASH_VERSION} (a newer horde's record?)"
    if len(data["decisions"]) > MAX_DECISIONS:
        return f"more than {MAX_DECISIONS:,} decisions"
    if not all(isinstance(d, str) for d in data["decisions"]):
        return "decisions must be labels"
    if not all(isinstance(b, str) for b in data["bots"]) or \
            len(data["bots"]) not in (0, data["players"]):
        return "'bots' must name one bot per player"
    if not all(isinstance(v, str | int) for v in data["params"].values()):
        return "'params' values must be text, numbers or true/false"
    for h in data["house"]:
        if not (isinstance(h, dict) and isinstance(h.get("path"), str)
                and isinstance(h.get("sha256"), str)):
            return "malformed house entry"
    return None


def load_game(record: dict, where: str = "record"):
    """The game a record was played with, refusing if its rules changed since."""
    for h in record["house"]:
        path = Path(h["path"])
        if not path.is_file():
            raise StateError(f"{where}: its house rule file {path} is missing")
        if file_sha256(path) != h["sha256"]:
            raise StateError(f"{where}: house rule file {path} changed since the game was "
                             "recorded", hint="a replay needs the exact rules the game was played with")
    game = load_pack(record["pack"], mode=record["mode"], params=record["params"],
                     house=[h["path"] for h in record["house"]])
    version = record.get("hash_version", 1)
    digest = game.hash if version == HASH_VERSION else \
        pack_hash(game.raw, game.params, game.mode, version)
    if digest != record["pack_hash"]:
        raise StateError(f"{where}: the rules of {record['pack']} changed since the game was "
                         f"recorded (pack hash {digest}, recorded {record['pack_hash']})",
                         hint="a replay needs the exact rules the game was played with")
    return game


def _start(record: dict, where: str):
    """The first state of a recorded game, its record and rules checked."""
    check(record, where)
    game = load_game(record, where)
    try:
        return game.new_state(players=record["players"], seed=record["seed"])
    except StateError as exc:  # a player count the pack does not allow
        raise StateError(f"{where}: {exc.problem.message}") from None


def last_state(record: dict, where: str = "record"):
    """The state a recorded game stopped in (its end, or where the players left it), rebuilt
    and checked as `replay` does, without keeping the states on the way."""
    state = _start(record, where)
    for k, label in enumerate(record["decisions"]):
        _take(state, k, label, where)
    return state


def _take(state, k: int, label: str, where: str) -> None:
    """Decision k+1 of a record, refused when the game is over or the label not legal."""
    d = state.decision()
    shown = label if len(label) <= 80 else label[:80] + "..."
    if d is None:
        raise StateError(f"{where}: decision {k + 1} ('{shown}'): the game is already over")
    if label not in d.index:
        raise StateError(f"{where}: decision {k + 1} ('{shown}') is not legal for "
                         f"P{d.player} at {d.point}", hint=f"legal: {', '.join(d.actions[:12])}")
    state.apply(label)


def replay(record: dict, where: str = "record") -> Iterator:
    """The states of a recorded game: the start, then one after each decision."""
    state = _start(record, where)
    yield state
    for k, label in enumerate(record["decisions"]):
        state = state.clone()
        _take(state, k, label, where)
        yield state
