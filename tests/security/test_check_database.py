"""`horde check`'s example database is untrusted data (SECURITY.md, "the cache folder").

Hypothesis's own folder database read every name in a key folder as a file, whole: a FIFO
planted there hung `horde check`, a link to /dev/zero was read until memory ran out, and a
`hypothesis` folder replaced by a link was written through. Each case here runs the real
command in a subprocess, with a timeout and an address-space ceiling as guards, and asks
for a prompt end with exit 0 or 1 and no traceback.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from engine.check.database import ENTRY_BYTES, FolderDatabase
from tests.check.conftest import fixture

# A game that loops at once: `horde check` fails (exit 1) within a second and keeps it.
ARGS = ["check", "roll-them-bones", "--house", fixture("endless"), "--set", "health=5", "-n", "5"]
MEMORY = 2 << 30


def _ceiling() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _check(cache: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, HORDE_CACHE_DIR=str(cache))
    env.pop("HORDE_NO_CACHE", None)
    r = subprocess.run([sys.executable, "-c", "from engine.cli.app import main; main()", *ARGS,
                        "-o", str(tmp_path / "repro.yaml")], env=env, capture_output=True,
                       text=True, timeout=120, preexec_fn=_ceiling)
    text = r.stdout + r.stderr
    assert r.returncode in (0, 1), text
    assert "Traceback" not in text and "internal error" not in text, text
    return r


@pytest.fixture
def cache(tmp_path) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    return folder


def _key_folders(cache: Path, tmp_path: Path) -> list[Path]:
    """The key folders a first, failing check made (Hypothesis names them by hashes)."""
    assert _check(cache, tmp_path).returncode == 1
    folders = [p for p in (cache / "hypothesis").glob("*/*") if p.is_dir()]
    assert folders, "the first check kept no failure"
    return folders


def _plant(cache: Path, tmp_path: Path, make) -> None:
    for folder in _key_folders(cache, tmp_path):
        make(folder / "0123456789abcdef")


def test_a_fifo_entry_is_not_waited_on(cache, tmp_path):
    _plant(cache, tmp_path, os.mkfifo)
    assert _check(cache, tmp_path).returncode == 1


def test_an_entry_linked_to_dev_zero_is_not_read(cache, tmp_path):
    _plant(cache, tmp_path, lambda p: p.symlink_to("/dev/zero"))
    assert _check(cache, tmp_path).returncode == 1


def test_a_huge_entry_is_not_read(cache, tmp_path):
    def huge(p: Path) -> None:
        with open(p, "wb") as f:
            f.truncate(8 << 30)  # sparse: 8 GiB to read, nothing on disk
    _plant(cache, tmp_path, huge)
    assert _check(cache, tmp_path).returncode == 1


def test_a_linked_database_folder_is_refused_and_not_written_through(cache, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (cache / "hypothesis").symlink_to(elsewhere)
    r = _check(cache, tmp_path)
    assert r.returncode == 1
    assert f"warning: not using the example database: {cache / 'hypothesis'} is a link" in r.stderr
    assert not any(elsewhere.iterdir())


def test_a_linked_key_folder_is_not_written_through(cache, tmp_path):
    folders = _key_folders(cache, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    config = folders[0].parent
    for folder in folders:
        for entry in folder.iterdir():
            entry.unlink()
        folder.rmdir()
    config.rmdir()
    config.symlink_to(elsewhere)
    r = _check(cache, tmp_path)
    assert "is a link" in r.stderr
    assert not any(elsewhere.iterdir())


def test_a_cache_folder_others_can_write_is_named_in_a_warning(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    r = _check(shared, tmp_path)
    assert f"the cache folder {shared} is not a private folder of this user's" in r.stderr
    assert not any(shared.iterdir())


def test_a_known_failure_is_still_kept_and_read(cache, tmp_path):
    """The control: a plain database keeps working, entries Hypothesis wrote included."""
    folders = _key_folders(cache, tmp_path)
    assert any(p.is_file() for folder in folders for p in folder.iterdir())
    r = _check(cache, tmp_path)
    assert r.returncode == 1 and "warning" not in r.stderr


def test_entries_are_written_over_links_never_through_them(tmp_path):
    base = tmp_path / "cache"
    base.mkdir(mode=0o700)
    db = FolderDatabase(base, "hypothesis", "config")
    db.save(b"key", b"first")
    (folder,) = (base / "hypothesis" / "config").iterdir()
    target = tmp_path / "target"
    target.write_bytes(b"")
    from engine.check.database import _hash
    (folder / _hash(b"value")).symlink_to(target)
    db.save(b"key", b"value")
    assert target.read_bytes() == b""
    assert sorted(db.fetch(b"key")) == [b"first", b"value"]
    db.save(b"key", b"x" * (ENTRY_BYTES + 1))  # too big to be read back: not kept
    assert len(db.fetch(b"key")) == 2
    db.delete(b"key", b"first")
    assert db.fetch(b"key") == [b"value"]
