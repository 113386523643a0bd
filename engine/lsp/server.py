"""The protocol side of `horde lsp` (pygls): documents opened and edited, each checked in
the background after a pause in typing, and the requests answered from the last check.

One worker thread checks files, one at a time (a check is a few loads of the pack). A
request waits only for the first check of its file; after that it is answered from the
last one while the next runs. A check whose document changed meanwhile is dropped, not
published.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from engine.errors import Problem
from engine.lsp import diagnostics as diag
from engine.lsp import features
from engine.lsp.analysis import Analysis, analyse

DEBOUNCE = 0.3  # seconds of quiet after a change before the file is checked
log = logging.getLogger(__name__)


class HordeServer(LanguageServer):
    def __init__(self) -> None:
        from engine.cli.app import version
        super().__init__("horde", version().split(" ")[1],
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="horde-check")
        self.analyses: dict[str, Analysis] = {}
        self.pending: dict[str, asyncio.Task] = {}

    def schedule(self, uri: str, delay: float) -> None:
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self._check(uri, delay))

    async def _check(self, uri: str, delay: float) -> None:
        await asyncio.sleep(delay)
        path = to_fs_path(uri)
        if path is None or uri not in self.workspace.text_documents:
            return
        doc = self.workspace.get_text_document(uri)
        version, text = doc.version, doc.source
        others = {to_fs_path(u): d.source for u, d in self.workspace.text_documents.items() if u != uri}
        loop = asyncio.get_running_loop()
        try:
            found = await loop.run_in_executor(self.pool, analyse, Path(path), text,
                                               {p: t for p, t in others.items() if p})
        except Exception as exc:  # noqa: BLE001 - said to the editor, never a dead server
            log.exception("checking %s", uri)
            found = Analysis(Path(path), "file")
            found.problems = [Problem(f"horde could not check this file: {type(exc).__name__}: {exc}")]
        now = self.workspace.text_documents.get(uri)
        if now is None or now.version != version:  # closed or changed meanwhile
            return
        self.analyses[uri] = found
        lines = text.split("\n")
        out = [diag.diagnostic(p, found.path, lines, lsp.DiagnosticSeverity.Error) for p in found.problems]
        out += [diag.diagnostic(w, found.path, lines, lsp.DiagnosticSeverity.Warning) for w in found.warnings]
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, out, version=version))

    async def analysis(self, uri: str) -> tuple[Analysis | None, list[str]]:
        """The last check of `uri` and the text as it is now. Only the first check of a file
        is waited for: later, a request is answered from the one before the edit."""
        task = self.pending.get(uri)
        if uri not in self.analyses and task is not None and not task.done():
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                pass
        doc = self.workspace.text_documents.get(uri)  # only what the editor opened
        return (None, []) if doc is None else (self.analyses.get(uri), doc.source.split("\n"))


def build() -> HordeServer:
    server = HordeServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: HordeServer, params: lsp.DidOpenTextDocumentParams):
        ls.schedule(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: HordeServer, params: lsp.DidChangeTextDocumentParams):
        ls.schedule(params.text_document.uri, DEBOUNCE)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: HordeServer, params: lsp.DidSaveTextDocumentParams):
        ls.schedule(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: HordeServer, params: lsp.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.analyses.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: HordeServer, params: lsp.HoverParams):
        a, lines = await ls.analysis(params.text_document.uri)
        return None if a is None else features.hover(a, lines, params.position.line, params.position.character)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[":", "'", '"', " "]))
    async def completion(ls: HordeServer, params: lsp.CompletionParams):
        a, lines = await ls.analysis(params.text_document.uri)
        items = [] if a is None else features.completion(a, lines, params.position.line, params.position.character)
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: HordeServer, params: lsp.DefinitionParams):
        uri = params.text_document.uri
        a, lines = await ls.analysis(uri)
        return None if a is None else features.definition(
            a, lines, params.position.line, params.position.character, a.path) or None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: HordeServer, params: lsp.ReferenceParams):
        a, lines = await ls.analysis(params.text_document.uri)
        return None if a is None else features.references(
            a, lines, params.position.line, params.position.character, a.path) or None

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def symbols(ls: HordeServer, params: lsp.DocumentSymbolParams):
        a, lines = await ls.analysis(params.text_document.uri)
        return None if a is None else features.symbols(a, lines)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    async def code_action(ls: HordeServer, params: lsp.CodeActionParams):
        uri = params.text_document.uri
        _, lines = await ls.analysis(uri)
        return diag.code_actions(uri, lines, params.context.diagnostics) or None

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: HordeServer, params: None):
        ls.pool.shutdown(wait=False, cancel_futures=True)

    return server


def serve(tcp: int | None = None) -> None:
    server = build()
    if tcp is None:
        server.start_io()
    else:
        server.start_tcp("127.0.0.1", tcp)
