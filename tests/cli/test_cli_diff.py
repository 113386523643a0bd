"""`horde diff` item by item: each added, changed and removed item by id, with its line."""

from __future__ import annotations


def test_diff_names_each_item_and_field_with_the_line_it_was_written_on(horde, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(
        "extends: theyre-coming\n"
        "triggers:\n"
        "  - {id: crush, if: \"false\"}\n"
        "flow:\n"
        "  - {id: shout, after: begin, do: \"log('here they come')\"}\n"
        "  - {id: rounds, do: [{id: round-end, remove: true}]}\n")
    r = horde("diff", "theyre-coming", house)
    assert r.exit_code == 0, r.output
    lines = [line.strip() for line in r.output.splitlines()]
    crush = '~ triggers[id=crush].if: "event.piece.crush" -> "false"  ('
    assert any(line.startswith(crush) and line.endswith("house.yaml:3)") for line in lines)
    assert any(line.startswith("+ flow[id=shout]  (") and line.endswith("house.yaml:5)")
               for line in lines)
    removed = [line for line in lines if line.startswith("- flow[id=rounds].do[id=round-end]")]
    assert removed and "pack.yaml:" in removed[0]
