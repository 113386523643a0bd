"""Reading YAML with positions, and every trap of untrusted YAML rejected cleanly."""

import time

import pytest
import yaml

from engine.errors import PackError, Span
from engine.pack import yamlspan
from engine.pack.yamlspan import compose_file, compose_text, node_at, plain, span_name

BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


@pytest.fixture(params=["C", "Python"])
def loader(request, monkeypatch):
    """Run a test with PyYAML's C loader and with its pure-Python fallback."""
    if request.param == "C":
        if not hasattr(yaml, "CSafeLoader"):
            pytest.skip("PyYAML without libyaml")
        monkeypatch.setattr(yamlspan, "_Loader", yaml.CSafeLoader)
    else:
        monkeypatch.setattr(yamlspan, "_Loader", yaml.SafeLoader)
    return request.param


def problems_of(text):
    with pytest.raises(PackError) as info:
        compose_text(text, "t.yaml")
    return info.value.problems


def test_spans_point_at_values_and_keys(loader):
    text = "pack: demo\nparams:\n  blocks: 16\nlist:\n  - a\n  - {b: 1}\n"
    node = compose_text(text, "t.yaml")
    assert node.span == Span("t.yaml", 1, 1)
    assert node.value["pack"].span == Span("t.yaml", 1, 7)
    assert node_at(node, ["params", "blocks"]).span == Span("t.yaml", 3, 11)
    assert node.value["params"].key_span("blocks") == Span("t.yaml", 3, 3)
    assert node_at(node, ["list", 1]).span == Span("t.yaml", 6, 5)
    assert node_at(node, ["list", 1, "b"]).span == Span("t.yaml", 6, 9)


def test_scalar_styles_and_end_spans(loader):
    text = "a: plain\nb: 'single'\nc: \"double\"\nd: |\n  line one\n  line two\ne: >\n  folded\n"
    node = compose_text(text, "t.yaml").value
    assert [node[k].style for k in "abcde"] == [None, "'", '"', "|", ">"]
    assert node["a"].end_span == Span("t.yaml", 1, 9)
    assert node["d"].value == "line one\nline two\n"
    assert node["d"].span == Span("t.yaml", 4, 4)
    assert node["a"].key_spans is None and node["d"].end_span.line == 7


def test_node_at_stops_at_the_deepest_node_that_exists():
    node = compose_text("a:\n  b: [1, 2]\n", "t.yaml")
    assert node_at(node, ["a", "b", 1]).value == 2
    assert node_at(node, ["a", "b", 7]) is node.value["a"].value["b"]
    assert node_at(node, ["a", "zz", "y"]) is node.value["a"]
    assert node_at(node, []) is node


def test_plain_gives_python_values():
    node = compose_text("a: [1, {b: true}]\nc: ~\n", "t.yaml")
    assert plain(node) == {"a": [1, {"b": True}], "c": None}


@pytest.mark.parametrize(("text", "value"), [
    ("true", True), ("False", False), ("TRUE", True),
    ("null", None), ("~", None), ("", None),
    ("12", 12), ("-3", -3), ("+4", 4), ("012", 12),
    ("1.5", 1.5), ("-2.0e3", -2000.0), (".5", 0.5),
    ("no", "no"), ("yes", "yes"), ("on", "on"), ("off", "off"), ("y", "y"),
    ("12:30", "12:30"), ("1_000", "1_000"), ("0x1F", "0x1F"), ("0o17", "0o17"),
    (".inf", ".inf"), ("hello world", "hello world"),
])
def test_plain_scalars_resolve_yaml_1_2_style(loader, text, value):
    got = compose_text(f"v: {text}\n", "t.yaml").value["v"].value
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("text", ["'12'", '"true"', "'~'", '""', "|\n  3\n"])
def test_quoted_and_block_scalars_are_strings(text):
    assert isinstance(compose_text(f"v: {text}\n", "t.yaml").value["v"].value, str)


def test_duplicate_key_points_at_the_second_occurrence(loader):
    (problem,) = problems_of("a: 1\nb:\n  c: 1\n  c: 2\n")
    assert problem.span == Span("t.yaml", 4, 3)
    assert "duplicate key 'c'" in problem.message and "line 3" in problem.message


@pytest.mark.parametrize("tagged", [
    "!!python/object/apply:os.system ['echo hi']", "!foo bar", "!!str 3", "!!map {a: 1}", "! x",
])
def test_any_tag_is_rejected(loader, tagged):
    (problem,) = problems_of(f"ok: 1\nv: {tagged}\n")
    assert "tags are not allowed" in problem.message
    assert problem.span == Span("t.yaml", 2, 4)


def test_all_tags_are_reported_at_once():
    assert len(problems_of("a: !x 1\nb: !y 2\n")) == 2


@pytest.mark.parametrize(("text", "words"), [
    ("1: a\n", "mapping key 1 is a number"),
    ("true: a\n", "true/false"),
    ("~: a\n", "cannot be empty"),
    ("[1, 2]: a\n", "a list cannot be a mapping key"),
    ("? {a: 1}\n: b\n", "a mapping cannot be a mapping key"),
])
def test_mapping_keys_must_be_strings(loader, text, words):
    (problem,) = problems_of(text)
    assert words in problem.message and problem.span.line == 1


def test_quoted_number_key_is_fine():
    assert plain(compose_text("'1': a\n", "t.yaml")) == {"1": "a"}


def test_billion_laughs_is_rejected_instantly(loader):
    assert len(BILLION_LAUGHS.encode()) < 400
    start = time.perf_counter()
    (problem,) = problems_of(BILLION_LAUGHS)
    assert time.perf_counter() - start < 0.5
    assert "expands to more than 100,000 values" in problem.message


def test_a_large_document_without_aliases_is_stopped_while_reading(monkeypatch):
    monkeypatch.setattr(yamlspan, "MAX_NODES", 50)
    (problem,) = problems_of("".join(f"k{i}: {i}\n" for i in range(40)))
    assert "more than 50 values" in problem.message and problem.span.line == 25


def test_aliases_below_the_limit_are_expanded():
    node = compose_text("a: &x {k: [1, 2]}\nb: *x\n", "t.yaml")
    assert plain(node) == {"a": {"k": [1, 2]}, "b": {"k": [1, 2]}}


def test_an_anchor_inside_itself_is_rejected(loader):
    (problem,) = problems_of("a: &x [1, *x]\n")
    assert "contains it" in problem.message


@pytest.mark.parametrize("depth", [65, 10_000, 300_000])
def test_deep_nesting_is_a_pack_error(loader, depth):
    # 300,000 levels would crash the C composer outright; it must never get there.
    (problem,) = problems_of("[" * depth + "]" * depth)
    # Newer PyYAML scanners refuse very deep nesting themselves (at 1000 levels), before our
    # own limit is checked: either way it is one clear problem on the first line.
    assert "nesting" in problem.message
    assert problem.span.line == 1
    if depth < 1000:
        assert "nesting deeper than 64 levels" in problem.message
        assert problem.span == Span("t.yaml", 1, 65)


def test_unclosed_deep_nesting_is_a_pack_error():
    (problem,) = problems_of("[" * 10_000)
    assert "nesting" in problem.message


def test_nesting_at_the_limit_is_fine():
    assert compose_text("[" * 64 + "]" * 64, "t.yaml").value


def test_deep_nesting_through_aliases_is_caught(loader):
    text = "a: &x " + "[" * 40 + "]" * 40 + "\nb: " + "[" * 30 + "*x" + "]" * 30 + "\n"
    (problem,) = problems_of(text)
    assert "nesting deeper than 64 levels" in problem.message


def test_recursion_in_the_python_composer_is_reported_cleanly(monkeypatch):
    # Only reachable if the depth check were off; the composer must still not escape.
    monkeypatch.setattr(yamlspan, "_Loader", yaml.SafeLoader)
    monkeypatch.setattr(yamlspan, "MAX_DEPTH", 10**9)
    (problem,) = problems_of("[" * 700 + "]" * 700)
    assert "nesting" in problem.message


def test_syntax_error_position(loader):
    (problem,) = problems_of("a: 1\nb: [1, 2\nc: 3\n")
    assert problem.message.startswith("YAML syntax error")
    assert problem.span.file == "t.yaml" and problem.span.line == 3


@pytest.mark.parametrize("text", ["a: 1\n---\nb: 2\n", "a: *nope\n", "a: \x01\n", "a:\tb: c\n"])
def test_other_yaml_errors_are_pack_errors(loader, text):
    (problem,) = problems_of(text)
    assert "YAML syntax error" in problem.message and problem.span.line >= 1


def test_empty_document_is_none():
    assert compose_text("# nothing\n", "t.yaml").value is None


def test_overlong_number_is_reported():
    (problem,) = problems_of("a: " + "9" * 5000 + "\n")
    assert "longer than" in problem.message


def test_file_size_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlspan, "MAX_BYTES", 100)
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * 200 + "\n")
    with pytest.raises(PackError, match="the limit is 100"):
        compose_file(path)


def test_not_utf8(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"a: 1\nb: \xff\n")
    with pytest.raises(PackError) as info:
        compose_file(path, "bad.yaml")
    assert info.value.problems[0].span == Span("bad.yaml", 2, 4)


def test_missing_file(tmp_path):
    with pytest.raises(PackError, match="cannot read"):
        compose_file(tmp_path / "nope.yaml")


def test_file_names_are_relative_to_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    path = tmp_path / "sub" / "x.yaml"
    path.write_text("a: 1\na: 2\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PackError) as info:
        compose_file(path)
    assert info.value.problems[0].span == Span("sub/x.yaml", 2, 1)
    assert "sub/x.yaml:2:1: duplicate key 'a'" in str(info.value)
    assert "    a: 2\n    ^" in str(info.value)  # the excerpt reads the file by that name
    monkeypatch.chdir(tmp_path / "sub")
    assert span_name(tmp_path / "x.yaml") == str(tmp_path / "x.yaml")
