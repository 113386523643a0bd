"""`horde check`: hunt for games that break a pack's laws, and hand back the smallest one.

`play` runs one game under `engine.laws.Watch`, choosing each decision with a function it
is given; `run_check` lets Hypothesis choose (a seed, a player count, an index per
decision), so a failing game shrinks to few decisions; `report` turns the smallest failure
into plain words and a scenario file that fails the same way.
"""

from engine.check.driver import CheckResult, database_path, run_check
from engine.check.play import Broken, Failure, play

__all__ = ["Broken", "CheckResult", "Failure", "database_path", "play", "run_check"]
