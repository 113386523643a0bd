"""What a pack's YAML can make one load do: every file read once, and bounded in all.

Each test gives a small input that the cap under test turns into a clear error (or a
single read) and that would cost far more without it.
"""

from pathlib import Path

import pytest

from engine.errors import PackError
from engine.pack import loader, yamlspan
from engine.pack.loader import MAX_INCLUDE_DEPTH, load_tree
from engine.pack.yamlspan import plain
from tests.packfiles import no_bundled_packs, write  # noqa: F401 - a fixture

pytestmark = pytest.mark.usefixtures("no_bundled_packs")


def messages(folder: Path) -> list[str]:
    with pytest.raises(PackError) as info:
        load_tree(str(folder), validate=False)
    return [p.message for p in info.value.problems]


def test_each_included_file_is_read_once_however_often_it_is_reached(tmp_path, monkeypatch):
    """f0 includes f1..f4, f1 includes f2..f5, ...: 4**n routes, n files."""
    n = 12
    files = {"pack.yaml": "pack: p\ninclude: [f0.yaml]\n"}
    for i in range(n):
        nxt = [f"f{j}.yaml" for j in range(i + 1, min(i + 5, n))]
        files[f"f{i}.yaml"] = f"params: {{p{i}: {i}}}\n" + (f"include: [{', '.join(nxt)}]\n"
                                                            if nxt else "")
    write(tmp_path, files)
    reads: list[str] = []
    real = loader.compose_bytes

    def counting(data, name, *args, **kwargs):
        reads.append(name)
        return real(data, name, *args, **kwargs)

    monkeypatch.setattr(loader, "compose_bytes", counting)
    tree = load_tree(str(tmp_path), validate=False)
    assert plain(tree.node)["params"] == {f"p{i}": i for i in range(n)}
    assert len(reads) == len(set(reads)) == n + 1


def test_a_load_reads_at_most_max_files(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "MAX_FILES", 8)
    files = {f"f{i}.yaml": f"params: {{p{i}: {i}}}\n" for i in range(10)}
    files["pack.yaml"] = f"pack: p\ninclude: [{', '.join(sorted(files))}]\n"
    found = messages(write(tmp_path, files))
    assert found and all("already read 8 files, the most one load reads" in m for m in found)


def test_includes_nest_at_most_max_include_depth(tmp_path):
    n = MAX_INCLUDE_DEPTH + 3
    files = {f"f{i}.yaml": f"include: [f{i + 1}.yaml]\n" for i in range(n)}
    files[f"f{n}.yaml"] = "title: deep\n"
    files["pack.yaml"] = "pack: p\ninclude: [f0.yaml]\n"
    found = messages(write(tmp_path, files))
    assert found == [f"include 'f{MAX_INCLUDE_DEPTH}.yaml': includes nest more than "
                     f"{MAX_INCLUDE_DEPTH} files deep"]


def test_the_same_file_included_many_times_counts_each_time(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlspan, "MAX_LOAD_NODES", 2_000)
    big = "params:\n" + "".join(f"  p{i}: {i}\n" for i in range(300))  # ~600 values
    write(tmp_path, {"big.yaml": big, "pack.yaml": "pack: p\ninclude: [" +
                     ", ".join(["big.yaml"] * 5) + "]\n"})
    found = messages(tmp_path)
    assert found == ["the files of this load together hold more than 2,000 values"]


def test_all_files_of_a_load_together_are_bounded_in_values(tmp_path, monkeypatch):
    """Aliases let a small file stand for many values: the load adds them up."""
    monkeypatch.setattr(yamlspan, "MAX_LOAD_NODES", 5_000)
    files = {f"f{i}.yaml": f"x{i}: &a [" + ", ".join(["1"] * 40) + "]\n"
             f"y{i}: [" + ", ".join(["*a"] * 40) + "]\n" for i in range(4)}  # ~1,700 each
    files["pack.yaml"] = "pack: p\ninclude: [f0.yaml, f1.yaml, f2.yaml, f3.yaml]\n"
    found = messages(write(tmp_path, files))
    assert found == ["the files of this load together hold more than 5,000 values"]


def test_all_files_of_a_load_together_are_bounded_in_bytes(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlspan, "MAX_LOAD_BYTES", 10_000)
    comment = "# " + "x" * 3_000 + "\n"
    files = {f"f{i}.yaml": comment + f"title: t{i}\n" for i in range(4)}
    files["pack.yaml"] = "pack: p\ninclude: [f0.yaml, f1.yaml, f2.yaml, f3.yaml]\n"
    found = messages(write(tmp_path, files))
    assert found == ["the files of this load together are more than 10,000 bytes"]
