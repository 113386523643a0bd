"""The quick schema check (engine/pack/quickschema.py) against jsonschema: it may say "not
sure" about anything, but whatever it passes, jsonschema passes too. The bundled packs,
their modes and house rules pass it, so a first load needs no jsonschema."""

from __future__ import annotations

import copy
import functools
import random
from pathlib import Path

import pytest

from engine.pack import quickschema, schema
from engine.pack.loader import list_packs, load_tree
from engine.pack.yamlspan import compose_file, plain

FIXTURES = Path(__file__).parent / "fixtures"
SCENARIOS = Path(__file__).parent.parent / "scenarios"
VARIANTS = [("pack", False), ("pack", True), ("scenario", False)]


def jsonschema_passes(name: str, overlay: bool, value) -> bool:
    return next(iter(schema._validator(name, overlay).iter_errors(value)), None) is None


def quick(name: str, overlay: bool, value) -> bool:
    return schema._quick(name, overlay)(value)


@pytest.mark.parametrize(("name", "overlay"), VARIANTS)
def test_our_schemas_get_a_quick_check(name, overlay):
    assert schema._quick(name, overlay) is not None


@functools.cache
def bundled() -> list[tuple[str, bool, object]]:
    """(schema, overlay, value) of every bundled pack, mode and house rule file."""
    out = []
    for info in list_packs():
        for mode in [None, *info.modes]:
            out.append(("pack", False, plain(load_tree(info.id, mode=mode, validate=False).node)))
        for sub in ("modes", "house"):
            for path in sorted((info.path / sub).glob("*.yaml")):
                out.append(("pack", True, plain(compose_file(path))))
    return out


def test_the_bundled_packs_pass_quickly():
    for name, overlay, value in bundled():
        assert quick(name, overlay, value)
        assert jsonschema_passes(name, overlay, value)


def test_fixtures_and_scenarios_pass_quickly_only_when_they_pass():
    files = sorted(FIXTURES.rglob("*.yaml")) + sorted(SCENARIOS.rglob("*.yaml"))
    assert files
    for path in files:
        try:
            value = plain(compose_file(path))
        except Exception:  # noqa: BLE001 - broken YAML is the loader's business
            continue
        for name, overlay in VARIANTS:
            if quick(name, overlay, value):
                assert jsonschema_passes(name, overlay, value), (path, name, overlay)


ODD_VALUES = [True, False, 0, 1, -1, 2.0, 1.5, "", "x", "Bad Id", "a-b", "me.x", None, [], {},
              [1], ["x"], {"x": 1}, {"id": "x"}, {"do": "x"}, {"repeat": {"times": 1}}]


def mutate(r: random.Random, value):
    """`value` with one place changed: a value swapped, a key dropped, added or renamed."""
    value = copy.deepcopy(value)
    path, here = [], value
    while isinstance(here, (dict, list)) and here and r.random() < 0.85:
        key = r.choice(list(here)) if isinstance(here, dict) else r.randrange(len(here))
        path.append((here, key))
        here = here[key]
    if not path:
        return r.choice(ODD_VALUES)
    parent, key = path[-1]
    pick = r.random()
    if isinstance(parent, dict) and pick < 0.2:
        del parent[key]
    elif isinstance(parent, dict) and pick < 0.3:
        parent[key + r.choice(["s", "_x", "-x"])] = parent.pop(key)
    elif isinstance(parent, dict) and pick < 0.4:
        parent[r.choice(["extra", "if", "do", "id", "x-y", "zz_z"])] = r.choice(ODD_VALUES)
    elif isinstance(parent, list) and pick < 0.3:
        del parent[key]
    else:
        parent[key] = r.choice(ODD_VALUES)
    return value


@pytest.mark.parametrize("seed", range(2))
def test_what_passes_quickly_passes_jsonschema(seed):
    r = random.Random(seed)
    cases = bundled()
    passed = failed = 0
    for _ in range(200):
        name, overlay, value = r.choice(cases)
        bent = mutate(r, value)
        if quick(name, overlay, bent):
            passed += 1
            assert jsonschema_passes(name, overlay, bent), bent
        else:
            failed += 1
    assert passed > 15 and failed > 15


def test_a_close_call_is_left_to_jsonschema():
    assert quickschema.compile_schema({"enum": [1]})(1.0) is False
    from engine.pack.schema import _Validator

    assert _Validator({"enum": [1]}).is_valid(1.0)


def test_unknown_keywords_get_no_quick_check():
    assert quickschema.compile_schema({"type": "object", "dependentRequired": {}}) is None
    assert quickschema.compile_schema({"$ref": "other.json#/x"}) is None
    assert quickschema.compile_schema({"if": {"minLength": 1}, "then": {}}) is None
    assert quickschema.compile_schema({"type": "decimal"}) is None


@pytest.mark.parametrize(("sub", "value", "verdict"), [
    ({"type": "integer"}, True, False), ({"type": "integer"}, 2.0, False),
    ({"type": "number"}, 2.0, True), ({"enum": [1]}, True, False),
    ({"enum": ["a", 1]}, 1, True), ({"const": None}, None, True),
    ({"pattern": "^a"}, 3, True), ({"pattern": "^a"}, "ba", False), ({"minimum": 1}, "0", True),
    ({"not": {"required": ["a"]}}, {"a": 1}, False), ({"not": {"required": ["a"]}}, [], False),
    ({"not": {"required": ["a"]}}, {"b": 1}, True),
    ({"if": {"type": "object"}, "then": {"required": ["a"]}, "else": {"type": "string"}}, 1, False),
    ({"additionalProperties": False, "patternProperties": {"^x-": {}}}, {"x-a": 1}, True),
    ({"items": {"type": "string"}, "minItems": 1}, [], False),
])
def test_single_keywords_agree_with_jsonschema(sub, value, verdict):
    check = quickschema.compile_schema(sub)
    assert check(value) is verdict
    from engine.pack.schema import _Validator

    assert _Validator(sub).is_valid(value) is verdict
