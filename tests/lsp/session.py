"""A language client for the tests: `horde lsp` started as a subprocess (pytest-lsp), and
helpers to open a file and wait for its diagnostics."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "rulesets"
SERVER = [sys.executable, "-c", "from engine.cli.app import main; main()", "lsp"]
WAIT = 60  # seconds: a generous bound on one check of the biggest bundled pack


def horde_client(scope: str = "module"):
    """A fixture: an initialized client of a fresh `horde lsp`, shut down at the end."""
    @pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope=scope)
    async def client(lsp_client: LanguageClient):
        await lsp_client.initialize_session(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=ROOT.as_uri()))
        yield
        await lsp_client.shutdown_session()
    return client


async def diagnostics(client: LanguageClient, uri: str) -> list[lsp.Diagnostic]:
    """The next diagnostics published for `uri` (the caller took the last ones away)."""
    async def wait():
        while uri not in client.diagnostics:
            await asyncio.sleep(0.02)
        return list(client.diagnostics[uri])
    return await asyncio.wait_for(wait(), WAIT)


async def open_file(client: LanguageClient, path: Path, text: str | None = None,
                    version: int = 1) -> tuple[str, list[lsp.Diagnostic]]:
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
        uri, "yaml", version, path.read_text(encoding="utf-8") if text is None else text)))
    return uri, await diagnostics(client, uri)


async def change(client: LanguageClient, uri: str, text: str, version: int) -> list[lsp.Diagnostic]:
    """Replace the whole text of `uri`; its diagnostics then."""
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version, uri),
        [lsp.TextDocumentContentChangeWholeDocument(text)]))
    return await diagnostics(client, uri)


async def close(client: LanguageClient, uri: str) -> None:
    """Close `uri`, and see its diagnostics cleared."""
    client.diagnostics.pop(uri, None)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    assert await diagnostics(client, uri) == []


def position(text: str, needle: str, offset: int = 0, nth: int = 0) -> lsp.Position:
    """Where the `nth` `needle` of `text` is, `offset` characters in."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    row = text.count("\n", 0, at)
    return lsp.Position(row, at - (text.rfind("\n", 0, at) + 1) + offset)
