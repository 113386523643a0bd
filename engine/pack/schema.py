"""Check packs and scenarios against their JSON Schemas, with messages a designer can act on.

jsonschema's own messages are written for programmers ("'sixteen' is not of type
'integer'", "Additional properties are not allowed ('acitons' was unexpected)") and carry a
JSON path, not a file position. Here every error becomes a `Problem` whose span is the YAML
position of the offending value (or key), and whose message names the place the way the pack
is written: `params.blocks: expected an integer, got 'sixteen'`.

Schemas are read once from `schemas/` and each variant gets one reused validator: building
a validator compiles the schema's references, which is too slow to repeat per file.

Most packs have no problem at all, so each value is first given to a quick check
(`engine.pack.quickschema`) that can only say "certainly passes"; jsonschema runs, and is
imported, only when it does not.

Nothing is remembered between processes: a check read back from disk would let a planted
file make an invalid pack pass, and the quick check already makes a valid pack cheap.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from typing import TYPE_CHECKING, Any

from engine import resources
from engine.errors import Problem, did_you_mean
from engine.pack.quickschema import compile_schema
from engine.pack.yamlspan import Node, node_at, plain

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator, ValidationError

_TYPE_NAMES = {
    "integer": "an integer", "number": "a number", "string": "a string",
    "boolean": "true or false", "object": "a mapping", "array": "a list", "null": "nothing",
}


def validate(node: Node, *, overlay: bool = False) -> list[Problem]:
    """Everything wrong with a pack tree (or, with `overlay`, with one overlay file)."""
    return _checked("pack", overlay, node)


def validate_scenario(node: Node) -> list[Problem]:
    """Everything wrong with the shape of a scenario file."""
    return _checked("scenario", False, node)


def _checked(name: str, overlay: bool, node: Node) -> list[Problem]:
    instance = plain(node)
    if _quickly_passes(name, overlay, instance):
        return []
    return _check(_validator(name, overlay), node, instance)


@cache
def _schema_bytes(name: str) -> bytes:
    return (resources.data_dir("schemas") / f"{name}.schema.json").read_bytes()


@cache
def _validator_class():
    from jsonschema import Draft202012Validator, validators

    # A bool is not an integer and 2.0 is not one either: later stages count with these.
    types = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool))
    return validators.extend(Draft202012Validator, type_checker=types)


def __getattr__(name: str):
    """`_Validator`, the validator class, made on first use (tests/bench checks our
    schemas with it) so that importing this module does not import jsonschema."""
    if name == "_Validator":
        return _validator_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _schema(name: str, overlay: bool) -> dict:
    schema = json.loads(_schema_bytes(name).decode("utf-8"))
    return _relaxed(schema) if overlay else schema


@cache
def _validator(name: str, overlay: bool) -> Draft202012Validator:
    # Not check_schema(schema): checking our own schemas against the metaschema cost as
    # much as loading a pack, on every start. Tests check them once (tests/bench).
    return _validator_class()(_schema(name, overlay))


@cache
def _quick(name: str, overlay: bool):
    return compile_schema(_schema(name, overlay))


def _quickly_passes(name: str, overlay: bool, instance: Any) -> bool:
    """True when the value certainly passes (engine.pack.quickschema): then jsonschema,
    which finds and words the problems, need not be imported at all."""
    quick = _quick(name, overlay)
    try:
        return quick is not None and quick(instance)
    except RecursionError:
        return False


# The lists an overlay merges by id (engine.pack.overlay): there, an item may also say
# where it goes or that it goes, and the list may be replaced whole.
_BY_ID = ("card", "kind", "action", "trigger", "end_rule", "invariant", "flow_node",
          "policy_rule", "setup_step")
_DIRECTIVES = {"before": {"type": ["string", "integer"]}, "after": {"type": ["string", "integer"]},
               "remove": {"const": True}}


def _relaxed(schema: dict) -> dict:
    """The schema for one overlay file: mappings there are partial (they merge into the
    base by key, list items by id), so nothing is required except an item's `id`, which the
    merge needs; an item with an id may say `before:`, `after:` or `remove: true`, and a
    list may be `{replace: true, items: [...]}`. The merged tree is validated against the
    full schema afterwards, so a flow node patched by id need not say what kind it is."""
    schema = copy.deepcopy(schema)
    for name, shape in schema["$defs"].items():
        if name == "flow" or (shape.get("type") == "array"
                              and shape.get("items", {}).get("$ref", "")[8:] in _BY_ID):
            schema["$defs"][name] = _or_replaced(shape)
        if shape.get("x-node") == "do":
            shape["properties"]["do"] = {}  # a patch may give a repeat's body, a list
    for key, shape in schema["properties"].items():
        if shape.get("type") == "array" and shape.get("items", {}).get("$ref", "")[8:] in _BY_ID:
            schema["properties"][key] = _or_replaced(shape)
    schema["$defs"]["var_value"] = _or_replaced(schema["$defs"]["var_value"])  # lists grow
    setup = schema["properties"]["setup"]  # steps by id, or statements
    setup["else"] = {"if": {"type": "object"}, "then": _or_replaced(setup["then"])["then"],
                     "else": setup["else"]}
    for holder in (schema["$defs"]["policy"]["properties"],):
        holder["rules"] = _or_replaced(holder["rules"])
    todo: list[Any] = [schema]
    while todo:
        item = todo.pop()
        if isinstance(item, list):
            todo.extend(item)
            continue
        if not isinstance(item, dict):
            continue
        if "required" in item and "properties" in item:
            kept = [k for k in item["required"] if k == "id"]
            if kept:
                item["required"] = kept
            else:
                del item["required"]
        props = item.get("properties")
        if isinstance(props, dict) and "id" in props and "before" not in props:
            props.update(_DIRECTIVES)
        branches = item.get("anyOf")
        if branches and all(set(b) == {"required"} for b in branches):
            del item["anyOf"]  # "needs one of ..." does not hold for a partial mapping
        todo.extend(v for k, v in item.items() if k not in ("if", "not"))
    return schema


def overlay_schema() -> dict:
    """The schema an editor checks an overlay (a mode, a house rule) or an included file
    against: the relaxed pack schema, with no top-level key required. It is written to
    `schemas/overlay.schema.json` (tests/pack keep that file equal to this)."""
    schema = _relaxed(json.loads(_schema_bytes("pack").decode("utf-8")))
    schema.pop("required", None)
    schema["$id"] = "https://horde.invalid/schemas/overlay.schema.json"
    schema["title"] = "horde overlay (mode, house rule or included file)"
    schema["$comment"] = ("Generated from pack.schema.json by engine.pack.schema.overlay_schema "
                          "(write_overlay_schema): a partial pack that merges into "
                          "the pack it extends. Do not edit by hand.")
    return schema


def _or_replaced(shape: dict) -> dict:
    """A list schema that also takes `{replace: true, items: [...]}`."""
    return {"if": {"type": "object"},
            "then": {"type": "object", "additionalProperties": False,
                     "required": ["replace", "items"],
                     "properties": {"replace": {"const": True}, "items": copy.deepcopy(shape)}},
            "else": shape}


def _check(validator: Draft202012Validator, node: Node, instance: Any) -> list[Problem]:
    what = validator.schema.get("title", "the file")
    problems: dict[tuple, Problem] = {}
    for error in validator.iter_errors(instance):
        for problem in _problems(error, node, what):
            # A value that is not a mapping satisfies every `required` test in the flow
            # node's if/else chain, so the same complaint can arrive by two routes.
            problems.setdefault((problem.message, problem.span), problem)
    return sorted(problems.values(),
                  key=lambda p: (p.span.file, p.span.line, p.span.col) if p.span else ("", 0, 0))


def _where(path, what: str) -> str:
    """`actions[2].who` for a JSON path, or `the pack` for the top."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text or what


def _show(value: Any) -> str:
    """A value as it would be written in YAML, shortened, for 'got ...' parts."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    return str(value)


def _problems(error: ValidationError, root: Node, what: str) -> list[Problem]:
    """One jsonschema error as one or more Problems (one per unknown or missing key)."""
    path = list(error.absolute_path)
    node = node_at(root, path)
    where = _where(path, what)
    kind, schema, value = error.validator, error.schema, error.instance
    if kind == "additionalProperties" and isinstance(value, dict):
        return _unknown_keys(error, node, where)
    if kind == "required" and isinstance(value, dict):
        return [Problem(f"{where}: missing required key '{key}'", node.span)
                for key in error.validator_value if key not in value]
    if "propertyNames" in error.absolute_schema_path and isinstance(value, str):
        described = _described(error)
        return [Problem(f"{where}: key {_show(value)} is not {described}",
                        node.key_span(value))]
    if isinstance(schema, dict) and "x-error" in schema and kind in ("anyOf", "oneOf", "not"):
        return [Problem(f"{where}: {schema['x-error']}", node.span)]
    if kind in ("anyOf", "oneOf"):
        return _alternatives(error, root, what)
    return [Problem(f"{where}: {_sentence(error)}", node.span)]


def _sentence(error: ValidationError) -> str:
    """What is wrong with one value, without saying where."""
    kind, expected, value = error.validator, error.validator_value, error.instance
    if kind == "type":
        text = f"expected {_types(expected)}, got {_show(value)}"
        if isinstance(value, str) and not value.isascii() and any(c.isdigit() for c in value):
            text += " (a number is written with the digits 0-9)"  # '৪' looks like 8, is 4
        return text
    if kind in ("enum", "const"):
        options = expected if kind == "enum" else [expected]
        text = f"expected one of {', '.join(_show(o) for o in options)}, got {_show(value)}"
        hint = did_you_mean(value, options) if isinstance(value, str) else None
        return f"{text} ({hint})" if hint else text
    if kind == "pattern":
        return f"{_show(value)} is not {_described(error)}"
    if kind == "minimum":
        return f"{_show(value)} is less than the minimum, {expected}"
    if kind == "maximum":
        return f"{_show(value)} is more than the maximum, {expected}"
    if kind == "minItems":
        return f"needs at least {expected} item{'s' if expected != 1 else ''}"
    if kind == "minLength":
        return "must not be empty"
    if kind is None or kind == "not":  # a `false` schema, or a `not` without a message
        return "not allowed here"
    return error.message


def _types(expected: Any) -> str:
    names = [_TYPE_NAMES.get(t, t) for t in ([expected] if isinstance(expected, str) else expected)]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _described(error: ValidationError) -> str:
    schema = error.schema if isinstance(error.schema, dict) else {}
    return schema.get("description") or f"matching {schema.get('pattern', '?')}"


def _unknown_keys(error: ValidationError, node: Node, where: str) -> list[Problem]:
    schema = error.schema
    known = list(schema.get("properties", {}))
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    extra = [k for k in error.instance if k not in known and not any(p.search(k) for p in patterns)]
    problems = []
    for key in extra:
        span = node.key_span(key)
        owner = schema.get("x-node")
        if owner and key in _node_keys():
            message = (f"{where}: '{key}' cannot share a flow node with '{owner}' "
                       f"(a flow node has exactly one of {', '.join(_node_keys())})")
        else:
            hint = did_you_mean(key, known)
            message = f"unknown key '{key}' in {where}" + (f" ({hint})" if hint else "")
        problems.append(Problem(message, span))
    return problems


@cache
def _node_keys() -> tuple[str, ...]:
    """The flow-node keys, in the order the schema defines their shapes."""
    defs = _validator("pack", False).schema["$defs"]
    return tuple(d["x-node"] for d in defs.values() if "x-node" in d)


def _alternatives(error: ValidationError, root: Node, what: str) -> list[Problem]:
    """An anyOf/oneOf failure, told from the branch the value was evidently meant for.

    A branch that only failed on the value's type was not meant for this value; if every
    branch failed that way, the value's type was wrong for all of them, and the message
    lists the types that would do.
    """
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context or ():
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    meant = [errs for errs in branches.values()
             if not all(e.validator == "type" and not e.relative_path for e in errs)]
    if meant:
        chosen = min(meant, key=len)
        return [p for sub in chosen for p in _problems(sub, root, what)]
    types: list[str] = []
    for errs in branches.values():
        for e in errs:
            expected = e.validator_value
            types.extend(t for t in ([expected] if isinstance(expected, str) else expected)
                         if t not in types)
    node = node_at(root, list(error.absolute_path))
    where = _where(error.absolute_path, what)
    if not types:
        return [Problem(f"{where}: {error.message}", node.span)]
    return [Problem(f"{where}: expected {_types(types)}, got {_show(error.instance)}", node.span)]



def write_overlay_schema() -> None:
    """Rewrite `schemas/overlay.schema.json` after pack.schema.json changed."""
    target = resources.data_dir("schemas") / "overlay.schema.json"
    target.write_text(json.dumps(overlay_schema(), indent=2, ensure_ascii=False) + "\n")
