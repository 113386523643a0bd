"""A quick yes-or-not-sure check of a value against one of our JSON Schemas.

jsonschema is the schema check: its errors become the problems a pack's author reads. But
importing it and building its validator cost about 100 ms of every first load, and its
check of a big pack some 50 ms more, nearly always to find nothing wrong. This module turns
a schema into plain Python closures that answer one question: does the value certainly
pass? `engine.pack.schema` runs jsonschema whenever the answer is not a plain yes, so
every problem is still found, placed and worded by the same code as before.

It knows the keywords our schemas use (draft 2020-12 semantics, with the integer type
`engine.pack.schema` gives jsonschema: a bool or a float is no integer). A schema with any
other keyword, or a `$ref` outside its own document, gets no quick check at all. Where a
comparison could go either way (an `enum` of lists, `1` against `1.0`), the answer is "not
sure". tests/pack/test_quickschema.py holds it to jsonschema's verdict.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

# Keywords that say nothing about validity (x-... are ours, for messages and overlays).
_NOTES = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description", "default",
                    "examples"})
_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}
_SCALARS = (str, int, float, bool, type(None))


class Unknown(Exception):
    """The schema uses something this module does not check."""


def compile_schema(schema: dict) -> Check | None:
    """A function that is True only for values `schema` certainly accepts; None when the
    schema uses something this module does not know."""
    try:
        return _Compiler(schema).check(schema)
    except Unknown:
        return None


class _Compiler:
    def __init__(self, root: dict):
        self.root = root
        self.refs: dict[str, Check] = {}

    def check(self, schema: Any) -> Check:
        if schema is True:
            return lambda x: True
        if schema is False:
            return lambda x: False
        if not isinstance(schema, dict):
            raise Unknown
        parts = []
        for key, value in schema.items():
            if key in _NOTES or key.startswith("x-") or key in ("then", "else"):
                continue
            make = getattr(self, "k_" + key.lstrip("$"), None)
            if make is None:
                raise Unknown(key)
            parts.append(make(value, schema))
        return _all(parts)

    # -- keywords; each gives a check of the whole value --
    def k_ref(self, ref, schema) -> Check:
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise Unknown(ref)
        if ref not in self.refs:
            self.refs[ref] = lambda x: False  # a cycle sees this until it is filled in
            target: Any = self.root
            for step in ref[1:].split("/")[1:]:
                step = step.replace("~1", "/").replace("~0", "~")
                if not isinstance(target, dict) or step not in target:
                    raise Unknown(ref)
                target = target[step]
            self.refs[ref] = self.check(target)
        table = self.refs
        return lambda x: table[ref](x)

    def k_type(self, types, schema) -> Check:
        return _type_test(types)

    def k_enum(self, options, schema) -> Check:
        if not all(isinstance(o, _SCALARS) for o in options):
            raise Unknown("enum")
        return lambda x: isinstance(x, _SCALARS) and any(type(o) is type(x) and o == x
                                                         for o in options)

    def k_const(self, value, schema) -> Check:
        return self.k_enum([value], schema)

    def k_properties(self, props, schema) -> Check:
        checks = [(name, self.check(sub)) for name, sub in props.items()]

        def properties(x):
            if not isinstance(x, dict):
                return True
            return all(name not in x or check(x[name]) for name, check in checks)
        return properties

    def k_patternProperties(self, patterns, schema) -> Check:
        checks = [(re.compile(p), self.check(sub)) for p, sub in patterns.items()]

        def pattern_properties(x):
            if not isinstance(x, dict):
                return True
            return all(check(v) for p, check in checks for k, v in x.items()
                       if isinstance(k, str) and p.search(k))
        return pattern_properties

    def k_additionalProperties(self, extra, schema) -> Check:
        known = set(schema.get("properties", {}))
        patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
        check = self.check(extra)

        def additional(x):
            if not isinstance(x, dict):
                return True
            for k, v in x.items():
                if k in known:
                    continue
                if patterns and not isinstance(k, str):
                    return False  # not sure how jsonschema matches a key that is no string
                if any(p.search(k) for p in patterns):
                    continue
                if not check(v):
                    return False
            return True
        return additional

    def k_required(self, names, schema) -> Check:
        return _required_test(names)

    def k_propertyNames(self, sub, schema) -> Check:
        check = self.check(sub)
        return lambda x: not isinstance(x, dict) or all(check(k) for k in x)

    def k_items(self, sub, schema) -> Check:
        if "prefixItems" in schema:
            raise Unknown("prefixItems")
        check = self.check(sub)
        return lambda x: not isinstance(x, list) or all(check(v) for v in x)

    def k_minItems(self, n, schema) -> Check:
        return lambda x: not isinstance(x, list) or len(x) >= n

    def k_minLength(self, n, schema) -> Check:
        return lambda x: not isinstance(x, str) or len(x) >= n

    def k_pattern(self, pattern, schema) -> Check:
        search = re.compile(pattern).search
        return lambda x: not isinstance(x, str) or search(x) is not None

    def k_minimum(self, n, schema) -> Check:
        number = _TYPES["number"]
        return lambda x: not number(x) or x >= n

    def k_maximum(self, n, schema) -> Check:
        number = _TYPES["number"]
        return lambda x: not number(x) or x <= n

    def k_anyOf(self, subs, schema) -> Check:
        checks = [self.check(s) for s in subs]
        return lambda x: any(c(x) for c in checks)

    def k_allOf(self, subs, schema) -> Check:
        return _all([self.check(s) for s in subs])

    def k_not(self, sub, schema) -> Check:
        test = _exact(sub)
        return lambda x: not test(x)

    def k_if(self, sub, schema) -> Check:
        test = _exact(sub)  # which branch applies must be known, not guessed
        then = self.check(schema.get("then", True))
        orelse = self.check(schema.get("else", True))
        return lambda x: then(x) if test(x) else orelse(x)


def _exact(schema: Any) -> Check:
    """jsonschema's own verdict for the small schemas `if` and `not` hold (a type, required
    keys, a choice of those); anything else is Unknown."""
    if not isinstance(schema, dict):
        raise Unknown("if")
    parts: list[Check] = []
    for key, value in schema.items():
        if key in _NOTES or key.startswith("x-"):
            continue
        if key == "type":
            parts.append(_type_test(value))
        elif key == "required":
            parts.append(_required_test(value))
        elif key == "anyOf":
            parts.append(_any([_exact(s) for s in value]))
        else:
            raise Unknown(key)
    return _all(parts)


def _type_test(types) -> Check:
    names = [types] if isinstance(types, str) else types
    if not all(t in _TYPES for t in names):
        raise Unknown("type")
    tests = [_TYPES[t] for t in names]
    return tests[0] if len(tests) == 1 else (lambda x: any(t(x) for t in tests))


def _required_test(names) -> Check:
    return lambda x: not isinstance(x, dict) or all(n in x for n in names)


def _any(tests: list[Check]) -> Check:
    return lambda x: any(t(x) for t in tests)


def _all(parts: list[Check]) -> Check:
    if not parts:
        return lambda x: True
    if len(parts) == 1:
        return parts[0]
    return lambda x: all(p(x) for p in parts)
