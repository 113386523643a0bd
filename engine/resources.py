"""Where the bundled rulesets, schemas and grammar live.

In a wheel they are package data under `engine/_bundled/`; in a source checkout (editable
install, tests) they are the top-level folders next to `engine/`. Never the working
directory: `horde` must behave the same from any folder.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def data_dir(name: str) -> Path:
    """The folder `rulesets`, `schemas` or `grammar`."""
    bundled = resources.files("engine") / "_bundled" / name
    if bundled.is_dir():
        return Path(str(bundled))
    return Path(__file__).resolve().parent.parent / name
