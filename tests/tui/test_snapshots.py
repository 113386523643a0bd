"""Screenshots of each pack's first decision at 80x24 and 120x45 (a fixed seed), compared
with the SVGs under __snapshots__ (`pytest --snapshot-update` writes them again)."""

from __future__ import annotations

import pytest

from tests.tui.conftest import table_app

PACKS = [("roll-them-bones", None), ("theyre-coming", None), ("defcon-z", "competitive")]
SIZES = [(80, 24), (120, 45)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize(("pack", "mode"), PACKS, ids=[p for p, _ in PACKS])
def test_the_first_decision(snap_compare, pack, mode, size):
    app = table_app(pack, mode, seed=7)

    async def until_choices(pilot):
        while not app.shown:
            await pilot.pause(0.02)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=until_choices)
