"""Balance tools: batch simulation, statistics, measures, comparisons, sweeps and plots."""

from engine.sim.parallel import simulate
from engine.sim.result import GameRecord, SimResult
from engine.sim.seeds import derive_seed

__all__ = ["GameRecord", "SimResult", "derive_seed", "simulate"]
