"""What the cold start no longer does on every run is still checked, once, here.

`engine.pack.schema` used to check its schemas against the JSON Schema metaschema each
time a process loaded its first pack; that alone cost about as much as loading a pack.
The schemas are part of the code, so checking them belongs with the tests.
"""

from __future__ import annotations

import pytest

from engine.pack.schema import _Validator, _validator


@pytest.mark.parametrize(("name", "overlay"), [("pack", False), ("pack", True),
                                               ("scenario", False)])
def test_schemas_are_valid_json_schemas(name, overlay):
    _Validator.check_schema(_validator(name, overlay).schema)
