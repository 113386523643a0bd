"""Coverage by play: what games played by bots never reach in a pack.

Static checks (engine.pack.lint and the *facts modules) find what can never matter; play
finds what merely never happens: an action never offered or never chosen, a trigger that
never fires, an end rule that never ends a game, a card never drawn or played, a policy
rule never taken, an invariant that breaks. `horde validate --play N` reports each at its
file:line (engine.coverage.report); `horde sim`, `compare` and `check` print one line.

Counting costs nothing when it is off: nothing in the flow counts. A game played for
coverage is played from a copy of the Game whose triggers count (engine.coverage.watch),
and what the driver sees at each decision (offered, chosen, the rule a policy bot took)
and after it (where each card is) is all the rest.
"""

from engine.coverage.items import Item, items_of
from engine.coverage.tally import Tally

__all__ = ["Item", "Tally", "items_of"]
