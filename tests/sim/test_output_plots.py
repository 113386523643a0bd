"""Files the balance tools write: atomic, per-game CSV rows, and pictures."""

from __future__ import annotations

import csv
import sys

import pytest

from engine.atomic import write_atomic, write_text
from engine.errors import HordeError
from engine.sim import simulate
from engine.sim.compare import compare
from engine.sim.measures import report
from engine.sim.output import write_csv
from engine.sim.parallel import Batch, run_batches
from engine.sim.sweep import combinations, parse_param, sweep

PNG = b"\x89PNG"


@pytest.fixture(scope="module")
def small(rtb):
    return simulate(rtb, 2, ["greedy", "random"], 12, seed=1, records=True)


def test_a_failed_write_leaves_the_old_file_alone(tmp_path):
    path = tmp_path / "out.csv"
    write_text(path, "old\n")

    def broken(tmp):
        with open(tmp, "w") as f:
            f.write("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(HordeError, match="No space left"):
        write_atomic(path, broken)
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]
    with pytest.raises(HordeError, match="does not exist"):
        write_text(tmp_path / "missing" / "x.csv", "")


def test_csv_has_one_row_per_game(small, tmp_path):
    path = tmp_path / "games.csv"
    write_csv(path, [small])
    with path.open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12
    assert "variant" not in rows[0]
    assert rows[3]["game"] == "3" and rows[3]["seed"] == str(small.records[3].seed)
    assert rows[0]["metric:winner_distance"] == str(small.records[0].metrics["winner_distance"])
    uses = [int(rows[0][k]) for k in rows[0] if k.startswith("uses:")]
    assert sum(uses) == small.records[0].decisions


def test_plots_are_images(small, rtb, tmp_path):
    from engine.sim.plots import compare_plot, sim_plot, sweep_plot
    sim_plot(report(small), small.tally.turns, tmp_path / "sim.png", "title")
    assert (tmp_path / "sim.png").read_bytes().startswith(PNG)
    a, b = run_batches([Batch.of(rtb, 2, ["random"], 8, 0, "a", records=True),
                        Batch.of(rtb, 2, ["greedy"], 8, 0, "b", records=True)])
    compare_plot(compare([a, b]), [a.tally.turns, b.tally.turns],
                 tmp_path / "cmp.png", "title")
    assert (tmp_path / "cmp.png").read_bytes().startswith(PNG)
    for names, target in ((["x=1:2"], 0.4), (["r=easy,hard"], None), (["x=1:2", "y=1:2"], 0.4),
                          (["x=1:2", "y=3:4"], None)):
        ranges = [parse_param(n) for n in names]
        combos = combinations(ranges)
        results = [a, b, a, b][:len(combos)]
        sw = sweep(ranges, combos, results, "win_rate", target)
        out = tmp_path / f"sweep{names[0]}{len(names)}{target}.png"
        sweep_plot(sw, out, "title")
        assert out.read_bytes().startswith(PNG)
    ranges = [parse_param(n) for n in ("x=1", "y=1", "z=1")]
    with pytest.raises(HordeError, match="one or two params"):
        sweep_plot(sweep(ranges, combinations(ranges), [a], "win_rate", None), out, "t")


def test_without_matplotlib_the_error_says_what_to_install(small, tmp_path, monkeypatch):
    from engine.sim.plots import sim_plot
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(HordeError) as exc:
        sim_plot(report(small), [1], tmp_path / "x.png", "t")
    assert "horde[plot]" in str(exc.value)
    assert not (tmp_path / "x.png").exists()
