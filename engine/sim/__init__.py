"""Batch simulation and its statistics: many games with bots, reproducible from one seed."""

from engine.sim.batch import simulate
from engine.sim.seeds import derive_seed
from engine.sim.stats import GameRecord, SimResult

__all__ = ["GameRecord", "SimResult", "derive_seed", "simulate"]
