"""Hover, completion, go-to-definition, references and the outline of `horde lsp`, through
a real client, on each bundled pack: a pack file and a house rule of each."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest.importorskip("pytest_lsp")

from lsprotocol import types as lsp  # noqa: E402

from tests.lsp.session import RULESETS, close, horde_client, open_file, position  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = horde_client()


def doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri)


async def hover(client, uri, text, needle, offset=1, nth=0) -> str:
    found = await client.text_document_hover_async(lsp.HoverParams(doc(uri), position(text, needle, offset, nth)))
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    return found.contents.value


async def labels(client, uri, text, needle, offset) -> set[str]:
    found = await client.text_document_completion_async(
        lsp.CompletionParams(doc(uri), position(text, needle, offset)))
    assert isinstance(found, lsp.CompletionList)
    return {i.label for i in found.items}


async def definition(client, uri, text, needle, offset=1) -> list[tuple[str, int]]:
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(doc(uri), position(text, needle, offset)))
    assert isinstance(found, list)
    return [(Path(loc.uri.removeprefix("file://")).name, loc.range.start.line + 1) for loc in found]


def line_of(path: Path, needle: str) -> int:
    text = path.read_text(encoding="utf-8")
    return text[:text.index(needle)].count("\n") + 1


async def symbols(client, uri) -> dict[str, list[str]]:
    found = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc(uri)))
    assert found is not None
    return {s.name: [c.name for c in s.children or []] for s in found if isinstance(s, lsp.DocumentSymbol)}


async def test_roll_them_bones(client):
    path = RULESETS / "roll-them-bones" / "house" / "crowbar.yaml"
    text = path.read_text(encoding="utf-8")
    uri, found = await open_file(client, path)
    assert found == []
    # a card id in a string: the card, with its text and where it is written
    said = await hover(client, uri, text, "'crowbar')", 2)
    assert "**card** `crowbar`" in said and "that icon is a run" in said and "crowbar.yaml:9" in said
    # a die face: its legend
    assert "**face** `item` — draw an item" in await hover(client, uri, text, "'item') > 0", 2)
    # a builtin call: its signature and doc line
    said = await hover(client, uri, text, "log(")
    assert "log(" in said and "->" in said
    # a key: the schema's description
    assert "**at** — " in await hover(client, uri, text, "at:", 0)
    # a flow point after `at:`; builtins in a snippet
    assert {"after_success", "after_black"} <= await labels(client, uri, text, "at: after_success", 4)
    assert {"use_item", "log", "icons"} <= await labels(client, uri, text, "turn.runs", 0)
    assert "roll-them-bones" in await labels(client, uri, text, "extends: roll-them-bones", 9)
    # a policy rule's `after:` goes to the base rule it is placed beside
    pack = RULESETS / "roll-them-bones" / "pack.yaml"
    assert await definition(client, uri, text, "keys}", 1) == [("pack.yaml", line_of(pack, "{id: keys, play"))]
    assert (await symbols(client, uri))["actions"] == ["crowbar"]
    await close(client, uri)


async def test_theyre_coming(client):
    path = RULESETS / "theyre-coming" / "pack.yaml"
    text = path.read_text(encoding="utf-8")
    uri, found = await open_file(client, path)
    assert found == []
    call = text[text.index("call: ") + 6:].split()[0]
    said = await hover(client, uri, text, f"call: {call}", 7)
    assert f"**procedure** `{call}`" in said
    procs = text.index("\nprocedures:")
    assert await definition(client, uri, text, f"call: {call}", 7) == [
        ("pack.yaml", text[:text.index(f"\n  {call}:", procs)].count("\n") + 2)]
    outline = await symbols(client, uri)
    assert {"params", "zones", "cards", "actions", "triggers", "flow", "procedures"} <= set(outline)
    assert outline["actions"] and outline["cards"]
    keys = await labels(client, uri, text.replace("\nactions:\n", "\nactions:\n  \n", 1),
                        "\nactions:\n  \n", len("\nactions:\n  "))
    assert keys and keys <= {"id", "at", "who", "params", "if", "do", "name", "domains", "text"} | keys
    await close(client, uri)
    # a house rule that extends a mode: its setup step is placed before the base's step
    brute = RULESETS / "theyre-coming" / "house" / "brute.yaml"
    btext = brute.read_text(encoding="utf-8")
    uri, found = await open_file(client, brute)
    assert found == []
    where = await definition(client, uri, btext, "before: total", 8)
    assert where == [("pack.yaml", text[:text.index("  - id: total")].count("\n") + 1)]
    assert "**kind** `brute`" in await hover(client, uri, btext, "spawn('brute'", 8)
    await close(client, uri)


async def test_defcon_z(client):
    path = RULESETS / "defcon-z" / "house" / "flare-gun.yaml"
    text = path.read_text(encoding="utf-8")
    uri, found = await open_file(client, path)
    assert found == []
    # the id a new greedy rule is placed before: the base policy's rule
    policy = RULESETS / "defcon-z" / "policy.yaml"
    assert await definition(client, uri, text, "before: let-go", 8) == [
        ("policy.yaml", line_of(policy, "id: let-go"))]
    said = await hover(client, uri, text, "'flare-gun')", 2)
    assert "**card** `flare-gun`" in said and "Flare Gun" in said
    assert {"end_discard"} <= await labels(client, uri, text, "at: end_discard", 4)
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=True), text_document=doc(uri),
        position=position(text, "'flare-gun')", 2)))
    assert refs and len(refs) >= 4
    assert (await symbols(client, uri))["cards"] == ["flare-gun"]
    await close(client, uri)
