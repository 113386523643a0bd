"""`horde lsp` diagnostics, through a real client: the bundled packs and house rules are
clean; a slip in a house rule shows where it is written, its fix is offered and applied,
and the diagnostic goes; broken, huge and deeply nested buffers get a diagnostic."""

from __future__ import annotations

import pytest

pytest.importorskip("pygls")
pytest.importorskip("pytest_lsp")

from lsprotocol import types as lsp  # noqa: E402

from tests.lsp.session import RULESETS, change, close, horde_client, open_file  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = horde_client()

BUNDLED = sorted([*RULESETS.glob("*/pack.yaml"), *RULESETS.glob("*/house/*.yaml")])
CROWBAR = RULESETS / "roll-them-bones" / "house" / "crowbar.yaml"


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(RULESETS)))
async def test_a_bundled_pack_or_house_rule_has_no_diagnostics(client, path):
    uri, found = await open_file(client, path)
    await close(client, uri)
    assert found == []


async def test_a_slip_is_shown_where_it_is_typed_fixed_by_its_action_and_cleared(client):
    text = CROWBAR.read_text(encoding="utf-8")
    slip = text.replace("at: after_success", "at: after_sucess")
    uri, found = await open_file(client, CROWBAR, slip)
    assert len(found) == 1
    d = found[0]
    row = slip[:slip.index("after_sucess")].count("\n")
    assert d.range == lsp.Range(lsp.Position(row, 8), lsp.Position(row, 8 + len("after_sucess")))
    assert "no ask or window named 'after_sucess'" in d.message
    assert d.severity == lsp.DiagnosticSeverity.Error

    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri), d.range, lsp.CodeActionContext([d])))
    assert actions is not None and len(actions) == 1
    action = actions[0]
    assert isinstance(action, lsp.CodeAction) and action.edit is not None and action.edit.changes
    [edit] = action.edit.changes[uri]
    assert (edit.range, edit.new_text) == (d.range, "after_success")

    lines = slip.split("\n")
    lines[row] = lines[row][:8] + edit.new_text + lines[row][8 + len("after_sucess"):]
    assert await change(client, uri, "\n".join(lines), 2) == []
    await close(client, uri)


async def test_a_warning_is_a_warning(client):
    text = CROWBAR.read_text(encoding="utf-8").replace(
        "title:", "params:\n  unread: {default: 1}\ntitle:", 1)
    uri, found = await open_file(client, CROWBAR, text)
    await close(client, uri)
    assert [d.severity for d in found] == [lsp.DiagnosticSeverity.Warning]
    assert "unread" in found[0].message and found[0].range.start.line == 6


@pytest.mark.parametrize(("text", "says"), [
    ("extends: roll-them-bones\ncards: [1, 2\n", "expected"),
    ("x" * (10 * 1024 * 1024), "the limit is"),
    ("a: " + "[" * 5000 + "]" * 5000 + "\n", "nesting depth"),
], ids=["unclosed", "10MB", "nested"])
async def test_a_malformed_buffer_gets_one_diagnostic(client, tmp_path, text, says):
    uri, found = await open_file(client, tmp_path / "broken.yaml", text)
    await close(client, uri)
    assert len(found) == 1 and says in found[0].message


SCENARIO = """\
- scenario: a slip in a scenario
  pack: roll-them-bones
  players: 2
  setup: move(find(event_stack, 'adrenaline-rsh'), players[0].event)
  rolls: [6, 1, zombie, zombie, run, zombie, zombie, zombie]
  expect:
    - players[0].health == 3
"""


async def test_a_scenario_file_is_checked_and_its_slip_fixed(client, tmp_path):
    uri, found = await open_file(client, tmp_path / "slip.yaml", SCENARIO)
    assert len(found) == 1 and "no card or piece kind 'adrenaline-rsh'" in found[0].message
    start = SCENARIO.split("\n")[3].index("adrenaline-rsh")
    assert found[0].range == lsp.Range(lsp.Position(3, start), lsp.Position(3, start + len("adrenaline-rsh")))
    [action] = await client.text_document_code_action_async(lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri), found[0].range, lsp.CodeActionContext(found)))
    assert isinstance(action, lsp.CodeAction) and action.edit is not None and action.edit.changes
    [edit] = action.edit.changes[uri]
    assert (edit.range, edit.new_text) == (found[0].range, "adrenaline-rush")
    assert await change(client, uri, SCENARIO.replace("adrenaline-rsh", "adrenaline-rush"), 2) == []
    await close(client, uri)
