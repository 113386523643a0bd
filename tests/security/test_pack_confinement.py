"""What a pack's text can make the loader read, and what an error message quotes.

A pack's own files (pack.yaml, its includes, modes/ and house/ files) stay inside the
pack's folder, symlinks followed; a house rule the user names may extend a pack file
anywhere, and nothing else; only regular .yaml files are read; an error quotes only text
the loader read as a pack file.
"""

import os
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli.app import build_app
from engine.errors import PackError, Problem, Span
from engine.pack.loader import load_tree, resolve_ref
from engine.pack.yamlspan import compose_file, plain
from tests.packfiles import no_bundled_packs, write  # noqa: F401 - a fixture

SECRET = "password: hunter2-not-a-pack\n"
PACK = "pack: p\nparams: {goal: 3}\n"


pytestmark = pytest.mark.usefixtures("no_bundled_packs")


def problems(*args, **kwargs) -> list[Problem]:
    with pytest.raises(PackError) as info:
        load_tree(*args, **kwargs)
    return info.value.problems


def printed(found: list[Problem]) -> str:
    return str(PackError(found))


@pytest.fixture
def secret(tmp_path) -> Path:
    path = tmp_path / "secret.yaml"
    path.write_text(SECRET)
    return path


def test_a_pack_file_cannot_extend_an_absolute_path(tmp_path, secret):
    write(tmp_path, {"p/pack.yaml": PACK, "p/modes/m.yaml": f"extends: {secret}\n"})
    found = problems(str(tmp_path / "p"), mode="m")
    assert [p.message for p in found] == [f"extends '{secret}' leaves the pack folder"]
    assert "hunter2" not in printed(found)


def test_a_pack_file_cannot_extend_outside_with_dot_dot(tmp_path, secret):
    write(tmp_path, {"p/pack.yaml": PACK, "p/house/h.yaml": "extends: ../../secret.yaml\n"})
    found = problems(str(tmp_path / "p"), house=["h"])
    assert [p.message for p in found] == ["extends '../../secret.yaml' leaves the pack folder"]
    assert "hunter2" not in printed(found)


def test_proc_files_are_not_read_through_extends(tmp_path):
    write(tmp_path, {"h.yaml": "extends: /proc/self/status\n"})
    found = problems(str(tmp_path / "h.yaml"))
    assert [p.message for p in found] == ["extends '/proc/self/status': not a pack file"]
    assert "Umask" not in printed(found)


@pytest.mark.parametrize("where", ["modes/evil.yaml", "house/evil.yaml"])
def test_a_symlinked_mode_or_house_rule_is_not_read(tmp_path, secret, where):
    write(tmp_path, {"p/pack.yaml": PACK})
    (tmp_path / "p" / where).parent.mkdir()
    (tmp_path / "p" / where).symlink_to(secret)
    kwargs = {"mode": "evil"} if where.startswith("modes") else {"house": ["evil"]}
    found = problems(str(tmp_path / "p"), **kwargs)
    assert len(found) == 1 and "leaves the pack folder" in found[0].message
    assert "hunter2" not in printed(found)


def test_a_symlinked_house_rule_named_by_path_is_still_a_pack_file(tmp_path, secret):
    """Where the file is written decides: a link in a pack's house/ is that pack's file."""
    write(tmp_path, {"p/pack.yaml": PACK})
    (tmp_path / "p" / "house").mkdir()
    (tmp_path / "p" / "house" / "evil.yaml").symlink_to(secret)
    found = problems(str(tmp_path / "p"), house=[str(tmp_path / "p" / "house" / "evil.yaml")])
    assert "leaves the pack folder" in found[0].message and "hunter2" not in printed(found)


def test_a_symlinked_pack_yaml_is_not_read(tmp_path, secret):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "pack.yaml").symlink_to(secret)
    with pytest.raises(PackError) as info:
        resolve_ref(str(tmp_path / "p"))
    assert "leaves the pack folder" in str(info.value) and "hunter2" not in str(info.value)
    found = problems(str(tmp_path / "p"))
    assert "leaves the pack folder" in found[0].message and "hunter2" not in printed(found)


def test_a_symlinked_include_that_stays_inside_is_fine(tmp_path):
    write(tmp_path, {"p/pack.yaml": "pack: p\ninclude: [link.yaml]\n",
                     "p/parts/real.yaml": "params: {goal: 4}\n"})
    (tmp_path / "p" / "link.yaml").symlink_to(tmp_path / "p" / "parts" / "real.yaml")
    assert plain(load_tree(str(tmp_path / "p"), validate=False).node)["params"] == {"goal": 4}


def test_an_id_is_not_looked_up_above_the_pack_folder(tmp_path):
    """`extends: outer` must not pick up some pack.yaml in a folder above the pack."""
    write(tmp_path, {"pack.yaml": "pack: outer\n" + SECRET, "p/pack.yaml": PACK,
                     "p/modes/m.yaml": "extends: outer\n"})
    found = problems(str(tmp_path / "p"), mode="m")
    assert [p.message for p in found] == [
        "extends 'outer': no pack with this id and no such file"]


def test_a_house_rule_the_user_names_may_extend_a_pack_file_anywhere(tmp_path):
    write(tmp_path, {"other/p/pack.yaml": PACK, "other/p/modes/m.yaml": "extends: p\n",
                     "mine/h.yaml": "extends: ../other/p/pack.yaml\nparams: {goal: 9}\n",
                     "mine/hm.yaml": "extends: ../other/p/modes/m.yaml\n"})
    tree = load_tree(str(tmp_path / "other" / "p"), house=[str(tmp_path / "mine" / "h.yaml")])
    assert plain(tree.node)["params"] == {"goal": 9}
    tree = load_tree(str(tmp_path / "other" / "p"), house=[str(tmp_path / "mine" / "hm.yaml")])
    assert tree.mode == "m"


def test_a_house_rule_the_user_names_cannot_extend_other_files(tmp_path, secret):
    write(tmp_path, {"p/pack.yaml": PACK, "h.yaml": "extends: secret.yaml\n",
                     "notes.txt": SECRET, "t.yaml": "extends: notes.txt\n"})
    for house in ("h.yaml", "t.yaml"):
        found = problems(str(tmp_path / "p"), house=[str(tmp_path / house)])
        assert len(found) == 1 and found[0].message.endswith("not a pack file"), found
        assert "hunter2" not in printed(found)


def test_only_yaml_files_are_read(tmp_path):
    write(tmp_path, {"p/pack.yaml": "pack: p\ninclude: [notes.txt]\n", "p/notes.txt": SECRET})
    found = problems(str(tmp_path / "p"))
    assert [p.message for p in found] == ["include 'notes.txt': not a .yaml file"]
    assert "hunter2" not in printed(found)


@pytest.fixture
def fifo(tmp_path):
    """A FIFO with a writer waiting: a loader that opened it would read SECRET, not hang."""
    path = tmp_path / "fifo.yaml"
    os.mkfifo(path)

    def feed():
        with open(path, "w") as f:
            f.write(SECRET)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    yield path
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # let the writer finish
    writer.join()
    os.close(fd)


def test_a_fifo_named_as_a_house_rule_is_refused_not_read(tmp_path, fifo):
    write(tmp_path, {"p/pack.yaml": PACK})
    found = problems(str(tmp_path / "p"), house=[str(fifo)])
    assert len(found) == 1 and "not a regular file" in found[0].message
    with pytest.raises(PackError, match="not a regular file"):
        compose_file(fifo)


def test_an_error_quotes_only_text_that_was_read(tmp_path, secret):
    assert Problem("oops", Span(str(secret), 1, 1)).format() == f"{secret}:1:1: oops"
    path = write(tmp_path, {"bad.yaml": "a: 1\na: 2\n"}) / "bad.yaml"
    with pytest.raises(PackError) as info:
        compose_file(path)
    path.write_text("a: 1\nchanged: since\n")  # the excerpt is of the text as it was read
    assert "    a: 2\n    ^" in str(info.value) and "changed" not in str(info.value)


def test_control_characters_are_not_printed_as_they_are():
    problem = Problem("unknown key '\x1b[2J'", Span("x.yaml", 1, 1), hint="\u202eevil")
    text = problem.format()
    assert "\x1b" not in text and "\u202e" not in text
    assert "unknown key '\\x1b[2J'" in text and "\\u202eevil" in text


def test_validate_does_not_follow_a_symlink_out_of_a_folder(tmp_path, secret):
    write(tmp_path, {"dir/ok.yaml": "a: 1\n"})
    (tmp_path / "dir" / "link.yaml").symlink_to(secret)
    result = CliRunner().invoke(build_app(), ["validate", str(tmp_path / "dir")])
    assert result.exit_code == 1
    assert "leads outside" in result.output and "hunter2" not in result.output


def test_scenario_does_not_follow_a_symlink_out_of_a_folder(tmp_path, secret):
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "link.yaml").symlink_to(secret)
    result = CliRunner().invoke(build_app(), ["scenario", str(tmp_path / "dir")])
    assert result.exit_code == 1
    assert "leads outside" in result.output and "hunter2" not in result.output
