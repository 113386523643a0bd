"""What the static-checks tests share: an overlay of the mini test pack written to a
folder and `horde validate --json --strict` run on it, as a designer would."""

from __future__ import annotations

import json
from pathlib import Path

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini" / "pack.yaml"


def said(horde, folder: Path, text: str, base: Path = MINI) -> list[tuple[str, int, str]]:
    """(file name, line, message) of every problem and warning `validate --strict` reports
    for an overlay of `base` with `text` added."""
    path = folder / "house.yaml"
    path.write_text(f"extends: {base}\n{text}")
    result = horde("validate", "--json", "--strict", path)
    report = json.loads(result.output)
    assert result.exit_code == (0 if report["valid"] else 1)
    return [(Path(p["file"]).name if p["file"] else "", p["line"], p["message"])
            for p in report["problems"]]
