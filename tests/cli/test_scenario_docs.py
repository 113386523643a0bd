"""docs/scenarios.md documents the scenario format: every YAML example on it is a scenario
that must pass, and every key of the format has an example there."""

from __future__ import annotations

import json
import re

import pytest

from engine.pack.loader import rulesets_dir
from engine.pack.yamlspan import compose_text
from engine.scenario import run_node

DOCS = rulesets_dir().parent / "docs"
PAGE = DOCS / "scenarios.md"
SCHEMA = rulesets_dir().parent / "schemas" / "scenario.schema.json"


def examples() -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("k", range(len(examples())))
def test_every_example_on_the_page_passes(k):
    node = compose_text(examples()[k], str(PAGE))
    result = run_node(node, DOCS)
    assert result.ok, f"docs/scenarios.md example {k + 1} ({result.name}): {result.message}"


def test_every_key_of_the_format_has_an_example():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    keys = set(schema["properties"]) | set(schema["$defs"]["moment"]["properties"])
    shown = {m for text in examples() for m in re.findall(r"^[ -]*([a-z_]+):", text, re.M)}
    assert keys - shown == set()


def test_the_page_is_linked_from_the_readme_and_the_pack_format():
    for page in (rulesets_dir().parent / "README.md", DOCS / "pack-format.md", DOCS / "cli.md"):
        assert "scenarios.md" in page.read_text(encoding="utf-8"), page
