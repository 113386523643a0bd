"""Editors: every bundled YAML names its schema, `horde schema` says where the schemas are,
and the overlay schema is the relaxed pack schema, kept in step with it."""

from __future__ import annotations

import json
import re

from engine import resources
from engine.pack.loader import rulesets_dir
from engine.pack.schema import overlay_schema

_COMMENT = re.compile(r"# yaml-language-server: \$schema=(\S+)\n")


def test_every_bundled_yaml_names_a_schema_that_exists():
    files = sorted(rulesets_dir().glob("*/**/*.yaml"))
    assert len(files) > 10
    for path in files:
        found = _COMMENT.match(path.read_text())
        assert found, f"{path}: no $schema comment on its first line"
        wanted = "pack" if path.name == "pack.yaml" else "overlay"
        target = (path.parent / found.group(1)).resolve()
        assert target == (resources.data_dir("schemas") / f"{wanted}.schema.json").resolve()


def test_the_overlay_schema_file_is_generated_from_the_pack_schema():
    text = (resources.data_dir("schemas") / "overlay.schema.json").read_text()
    assert json.loads(text) == overlay_schema(), \
        "run: python -c 'from engine.pack.schema import write_overlay_schema as w; w()'"


def test_horde_schema_prints_the_path_or_the_schema(horde):
    r = horde("schema", "scenario")
    assert r.exit_code == 0 and r.output.strip().endswith("scenario.schema.json")
    r = horde("schema", "pack", "--print")
    assert json.loads(r.output)["$id"].endswith("pack.schema.json")
    r = horde("schema", "pak")
    assert r.exit_code == 1 and "did you mean 'pack'" in r.output
