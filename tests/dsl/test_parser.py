"""Parser edge cases that the expression corpus cannot state as one line each."""

from __future__ import annotations

import pytest

from engine.dsl.parser import parse_program
from engine.errors import DSLSyntaxError


def test_a_number_too_long_for_python_is_a_syntax_error_with_its_place():
    with pytest.raises(DSLSyntaxError) as info:
        parse_program("x = " + "9" * 5000)
    assert "number is longer than" in str(info.value)
    assert info.value.pos == (1, 5)
