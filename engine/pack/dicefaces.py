"""The `dice:` section: each die's faces, as written or worked out from params at load.

A face is a number, or a mapping of icons (`{hit: 2, name: brains}`). A die whose faces
depend on the game's params writes them as expressions: the whole list as one
(`faces: "range(1, params.sides + 1)"`), or any face of a list as one
(`faces: [1, 2, "params.top"]`). Expressions are worked out once, when the pack loads with
its params, and must give whole numbers; a die with none, or too many, is an error at the
line that says so, which `horde validate` reports like any other.
"""

from __future__ import annotations

from typing import Any

from engine.dsl.values import Face

FACE_WORDS = frozenset({"name", "text"})  # the keys of a die face that are no icons
MAX_FACES = 1000


class _AtLoad:
    """What an expression of params runs on at load: no game yet, and nothing to charge
    (`range` charges the steps of the list it makes to the running game)."""

    __slots__ = ()

    def charge(self, n: int) -> None:
        pass


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _text(v: Any) -> str:
    """A value as the language writes it (`true`, not Python's `True`)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(map(_text, v)) + "]"
    return "none" if v is None else repr(v)


def _worked_out(builder, path: tuple) -> Any:
    """The value of the expression of params at `path`, or None (its problem reported)."""
    c = builder.compile(path, expr=True)
    if c is None:
        return None
    try:
        return c.fn(_AtLoad(), {})
    except Exception as exc:  # it reads the game's state, which does not exist yet
        builder.fail(f"die faces must be worked out from params at load: {exc}", *path,
                     hint="use only params, numbers and pure builtins such as range()")
        return None


def build_dice(builder) -> dict[str, list]:
    """Each die's faces: numbers, or Faces whose icons are every key but its words
    (`name`, and `text`, what the face means for the legend)."""
    dice = {}
    for name, spec in (builder.raw.get("dice") or {}).items():
        written = spec.get("faces", [])
        path = ("dice", name, "faces")
        if isinstance(written, str):
            got = _worked_out(builder, path)
            if got is not None and not (isinstance(got, list) and all(_whole(f) for f in got)):
                builder.fail(f"die '{name}': faces must give a list of whole numbers, "
                             f"got {_text(got)}", *path)
                got = None
            if got is None:  # its problem said: the die is known, so rolls of it raise none
                dice[name] = [0]
                continue
            written = got
        faces: list = []
        for k, f in enumerate(written):
            if isinstance(f, dict):
                icons = {i: c for i, c in f.items() if i not in FACE_WORDS}
                faces.append(Face(name, k, icons, f.get("name")))
            elif isinstance(f, str):
                got = _worked_out(builder, (*path, k))
                if got is not None and not _whole(got):
                    builder.fail(f"die '{name}': face {k} must give a whole number, got {_text(got)}",
                                 *path, k)
                faces.append(got if _whole(got) else 0)
            else:
                faces.append(f)
        if not faces:
            builder.fail(f"die '{name}' has no faces", "dice", name)
        elif len(faces) > MAX_FACES:
            builder.fail(f"die '{name}' has {len(faces):,} faces; a die has at most {MAX_FACES:,}",
                         *path)
        dice[name] = faces
    return dice
