"""`horde lsp` ends cleanly when its client says shutdown, then exit."""

from __future__ import annotations

import pytest

pytest.importorskip("pygls")
pytest.importorskip("pytest_lsp")

from lsprotocol import types as lsp  # noqa: E402
from pytest_lsp import ClientServerConfig  # noqa: E402

from tests.lsp.session import ROOT, SERVER  # noqa: E402


@pytest.mark.asyncio
async def test_shutdown_and_exit_end_the_server():
    client = await ClientServerConfig(server_command=SERVER).start()
    try:
        found = await client.initialize_session(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=ROOT.as_uri()))
        assert found.server_info is not None and found.server_info.name == "horde"
        await client.shutdown_session()
        assert client._server is not None and client._server.returncode == 0
    finally:
        await client.stop()
