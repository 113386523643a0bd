"""Nothing on disk outside a pack shapes how it loads (SECURITY.md, "the cache folder").

horde once kept parsed snippets, parser tables and passed schema checks in the user's
cache folder; an edited entry reached the generated Python and ran during a plain
`horde validate`, a planted "passed" entry let an invalid pack through, and a folder shared
between users carried one user's files into another's run. Loading now reads and writes
nothing there; the folder holds only `horde check`'s example database, and only when it is
a private folder of this user's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import engine
from engine import resources
from engine.check.driver import database_path
from engine.dsl import parser
from engine.errors import PackError

MINI = Path(__file__).parent.parent / "engine" / "fixtures" / "mini"


def _forget() -> None:
    parser.parse_program.cache_clear()
    parser.parse_expr.cache_clear()
    parser._parser.cache_clear()


@pytest.fixture
def planted(tmp_path, monkeypatch) -> Path:
    """A cache folder full of files an attacker wrote, in the names the old cache used."""
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    marker = tmp_path / "ran"
    code = f"__import__('pathlib').Path({str(marker)!r}).write_text('x')"
    snippet = {"game.rounds += 1": json.dumps(["Program", 1, 1, [["Assign", 1, 1, code]]])}
    for name in ("parse-0.json", "valid-0.json", "lalr-0.json"):
        (folder / name).write_text(json.dumps(snippet))
    os.mkfifo(folder / "parse-fifo.json")
    (folder / "lalr-zero.json").symlink_to("/dev/zero")
    monkeypatch.delenv("HORDE_NO_CACHE", raising=False)
    monkeypatch.setenv("HORDE_CACHE_DIR", str(folder))
    _forget()
    yield folder
    _forget()
    assert not marker.exists(), "a file in the cache folder ran as code"


def test_loading_reads_and_writes_nothing_in_the_cache_folder(planted):
    before = sorted(p.name for p in planted.iterdir())
    game = engine.load(MINI)
    game.new_state(2, seed=1)
    assert sorted(p.name for p in planted.iterdir()) == before


def test_an_invalid_pack_fails_whatever_the_cache_folder_holds(planted, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((MINI / "pack.yaml").read_text().replace("players: {min: 1", "players: {min: one"))
    with pytest.raises(PackError, match="players.min"):
        engine.load(bad)


def test_the_cli_validates_with_a_planted_cache(planted, horde):
    result = horde("validate", str(MINI))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o722])
def test_a_folder_others_can_write_is_not_used(tmp_path, monkeypatch, mode):
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(mode)
    monkeypatch.setenv("HORDE_CACHE_DIR", str(folder))
    assert resources.cache_dir() is None
    assert database_path("mini") is None


def test_a_link_to_a_folder_is_not_used(tmp_path, monkeypatch):
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(real)
    monkeypatch.setenv("HORDE_CACHE_DIR", str(link))
    assert resources.cache_dir() is None


def test_a_private_folder_holds_the_check_database(tmp_path, monkeypatch):
    folder = tmp_path / "mine"
    monkeypatch.setenv("HORDE_CACHE_DIR", str(folder))
    assert resources.cache_dir() == folder
    assert folder.stat().st_mode & 0o777 == 0o700
    assert database_path("mini") is not None
