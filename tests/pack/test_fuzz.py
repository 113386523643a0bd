"""Damaged packs: whatever the text, loading gives a tree or a PackError, nothing else."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import PackError
from engine.pack.loader import load_tree
from engine.pack.schema import validate
from engine.pack.yamlspan import compose_text

PACK = """\
pack: fuzz
title: "Fuzz: a pack"
players: {min: 1, max: 4}
params:
  goal: 10
  health: {default: 3, min: 1}
dice:
  d6: {faces: [1, 2, 3, 4, 5, 6]}
zones:
  deck: {shuffle: true}
anchors: &a {x: [1, *a]}
cards:
  - {id: boost, count: 2, zone: deck}
  - &card {id: shield, count: 1}
flow:
  - repeat: {until: game.over}
    do:
      - ask: main
        pass: true
      - do: |
          turn.need = roll(d6)
actions:
  - id: draw-card
    at: [main]
    if: 'holds(me, "x")'
    do: "draw(deck, me.hand)"
"""
# The valid text is the starting point; one line is deliberately broken (`anchors`) so that
# small mutations also reach the "alias inside its own anchor" path.
VALID = PACK.replace("anchors: &a {x: [1, *a]}\n", "")

NOISE = list(":-[]{}&*!|>'\"#,?%@` \n\t0a-_Z") + ["\x00", "\xe9", "\u2028", "  ", "- ", ": "]


@st.composite
def damaged(draw, text=VALID):
    """`text` after a few random edits of characters and lines."""
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["del", "dup", "put", "insert", "del_line", "dup_line", "swap"]))
        if op in ("del_line", "dup_line", "swap"):
            lines = text.splitlines(keepends=True) or [""]
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if op == "del_line":
                del lines[i]
            elif op == "dup_line":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
            continue
        i = draw(st.integers(0, max(len(text) - 1, 0)))
        noise = draw(st.sampled_from(NOISE) | st.characters(codec="utf-8"))
        if op == "del":
            text = text[:i] + text[i + 1:]
        elif op == "dup":
            text = text[:i] + text[i:i + 1] * 2 + text[i + 1:]
        elif op == "put":
            text = text[:i] + noise + text[i + 1:]
        else:
            text = text[:i] + noise + text[i:]
    return text


def test_the_starting_pack_is_valid():
    assert validate(compose_text(VALID, "fuzz.yaml")) == []


@settings(max_examples=300, deadline=None)
@given(damaged() | damaged(PACK))
def test_damaged_text_composes_and_validates_or_raises_pack_error(text):
    try:
        validate(compose_text(text, "fuzz.yaml"))
    except PackError as e:
        assert e.problems and all(p.message for p in e.problems)
        str(e)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=damaged())
def test_damaged_pack_file_loads_or_raises_pack_error(tmp_path, text):
    # tmp_path is shared by the examples; each one overwrites the same file.
    path = tmp_path / "pack.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_tree(str(path))
    except PackError as e:
        assert e.problems


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(NOISE), max_size=60).map("".join))
def test_arbitrary_text_never_escapes_as_another_exception(text):
    try:
        compose_text(text, "fuzz.yaml")
    except PackError:
        pass
