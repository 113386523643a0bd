"""How one value of the effect language reads in a terminal cell, seen by one viewer.

Hidden information stays hidden here: a zone's cards are shown only if the viewer may see
that zone (`visible: all`, or `owner` and the zone is the viewer's own), otherwise only its
size; an entity lying in such a zone shows as `hidden`. A spectator (viewer None) sees
only what everybody sees.
"""

from __future__ import annotations

from rich.text import Text

from engine.dsl.values import E, Z
from engine.errors import printable

BAR_CELLS = 5


def zone_visible(game, key: str, viewer: int | None) -> bool:
    name, _, owner = key.partition("#")
    zdef = game.zones.get(name)
    if zdef is None:
        return False
    if zdef.visible == "all":
        return True
    return zdef.visible == "owner" and viewer is not None and owner == str(viewer)


def bar(value: int, high: int) -> Text:
    """`███░░ 3/5`: a fixed-width bar, so long tracks still fit a narrow table."""
    filled = 0 if high <= 0 else round(BAR_CELLS * max(0, min(value, high)) / high)
    text = Text("█" * filled, style="green")
    text.append("░" * (BAR_CELLS - filled), style="dim")
    text.append(f" {value}/{high}")
    return text


def show(S, v, viewer: int | None, high=None, when_true: str | None = None) -> Text:
    """The cell for value `v` (`high`: the max of an int; `when_true`: a bool's text)."""
    if isinstance(v, bool):
        if when_true is not None:
            return Text(printable(when_true) if v else "", style="bold red" if v else "")
        return Text("yes" if v else "no")
    if isinstance(v, int) and isinstance(high, int) and not isinstance(high, bool):
        return bar(v, high)
    return Text(printable(plain(S, v, viewer)))


def plain(S, v, viewer: int | None) -> str:
    t = type(v)
    if t is Z:
        return _zone(S, v.key, viewer)
    if t is E:
        return _entity(S, v.i, viewer)
    if t is list:
        return "[" + ", ".join(plain(S, x, viewer) for x in v) + "]"
    if v is None:
        return "—"
    return S.describe(v)


def _zone(S, key: str, viewer: int | None) -> str:
    uids = S.zones.get(key, [])
    if not uids:
        return "—"
    if not zone_visible(S.game, key, viewer):
        return f"hidden ({len(uids)})"
    return ", ".join(S.ents[u]["id"] for u in uids)


def _entity(S, uid: int, viewer: int | None) -> str:
    ent = S.ents.get(uid)
    if ent is None:
        return f"#{uid}"
    where = ent.get("@z")
    if where is not None and not zone_visible(S.game, where, viewer):
        return "hidden"
    return S.describe(E(uid))
