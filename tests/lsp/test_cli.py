"""`horde lsp` without the extra: it says how to install it."""

from __future__ import annotations

import sys


def test_without_the_extra_it_says_how_to_install_it(horde, monkeypatch):
    monkeypatch.delitem(sys.modules, "engine.lsp.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)  # what an import without pygls meets
    result = horde("lsp")
    assert result.exit_code == 1
    assert "pygls is not installed" in result.output and "pip install 'horde[lsp]'" in result.output
