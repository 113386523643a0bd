"""`FlowProgram`: what the engine makes of one Game to play it, built with it, owned by it.

A `Game` is frozen, shared by every state played from it. Playing it takes more: the
stepper of every flow node (`steppers.py`), the legality plan and window check of every
decision point (`plans.py`), the end check (`machine.py`), the tables labels are written
from, the log entries of dice rolls, a fresh player's record and a fresh deal. They are
named attributes of one object per Game (`Game.program`): the cheap tables made with it,
the generated functions on first need (a game reaches few of its points at first, and the
first state must be quick). All depend on the Game alone, so every state shares them; one
thread at a time plays a game's states (parallel simulations use processes), so filling a
table takes no lock. Hot paths read the tables into locals, and generated code holds those
it looks into (`_steppers`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.dsl.compiler import Compiled
from engine.dsl.values import Face
from engine.flow import machine, plans, steppers
from engine.flow.nodes import SEQ
from engine.flow.plans import Plan, Window

if TYPE_CHECKING:
    from engine.game import Game


class FlowProgram:
    """The steppers, plans, checks and tables of one Game (see the module's docstring)."""

    __slots__ = ("game", "steppers", "done_at", "parents", "boundary", "turn_lists", "end_check",
                 "end_watch", "may_end", "plans", "windows", "fx_reads_locals", "labellings", "texts",
                 "tests", "rolls", "player_template", "dealt")

    def __init__(self, game: Game):
        self.game = game
        self.steppers: dict[int, Callable] = {}  # node -> its stepper (`stepper`)
        # node -> the counter at which its frame is done (-1: never known so)
        self.done_at = tuple(len(n.children) if n.kind == SEQ else -1 for n in game.nodes)
        # node -> the node whose frame its frame sits on, or its `if`; the nodes whose frames
        # start a scope: procedure bodies and the root (see `steppers.frame_of`)
        self.parents: dict[int, int] = _parents(game.nodes)
        self.boundary = frozenset({game.root, *game.flow_procs.values()})
        self.turn_lists = tuple(k for k, v in game.turn_init.items() if type(v) is list)
        self.end_check: Callable[[Any], None] = self._first_end_check  # machine.make_end_check
        self.end_watch: frozenset[str] | None = None  # what the end conditions read, once asked
        self.may_end: dict[Compiled, bool] = {}  # effect -> machine.may_end
        self.plans: dict[tuple[str, bool], Plan] = {}  # (point, asking the current player?) -> plan
        self.windows: dict[str, Window] = {}  # point -> its window check
        # the actions whose effect reads a flow local besides `me` and its parameters
        self.fx_reads_locals = frozenset(a.id for a in game.actions if a.fx is not None and _reads_locals(a))
        self.labellings: dict[tuple[str, str], tuple] = {}  # (action id, parameter) -> labels._labelling
        self.texts: dict[type, dict] = {}  # type -> value -> its text in labels (labels._text)
        self.tests: dict[tuple[str, str], tuple | None] = {}  # (action id, part) -> plans._prepared
        self.rolls = {die: _roll_plan(die, faces) for die, faces in game.dice.items()}
        # every player field with its constant initial value; the fields whose initial value
        # is an expression, in order
        fields = game.player_fields.items()
        self.player_template = ({name: None if isinstance(f.init, Compiled) else f.init for name, f in fields},
                                [(name, f.init) for name, f in fields if isinstance(f.init, Compiled)])
        self.dealt: dict[int, tuple] = {}  # players -> the first fresh deal (setup.py)

    # made on first use (the tables hold functions and plans, never a false value)
    def stepper(self, nid: int) -> Callable:
        """The stepper of node `nid`."""
        return self.steppers.get(nid) or self.steppers.setdefault(nid, steppers.make(self.game, nid))

    def plan(self, point: str, is_cur: bool) -> Plan:
        """The legality plan of `point` for the current player or the others."""
        key = (point, is_cur)
        return self.plans.get(key) or self.plans.setdefault(key, plans.make_plan(self.game, point, is_cur))

    def window(self, point: str) -> Window:
        """The window check of `point`."""
        return self.windows.get(point) or self.windows.setdefault(point, plans.make_window(self.game, point))

    def _first_end_check(self, S) -> None:
        self.end_check = machine.make_end_check(self.game)
        self.end_check(S)


def _parents(nodes) -> dict[int, int]:
    """node -> its parent; a node that two nodes name as a child has none."""
    parents: dict[int, int] = {}
    shared = set()
    for nid, node in enumerate(nodes):
        for kid in (*node.children, node.then, node.orelse, node.body):
            if kid is not None:
                if kid in parents:
                    shared.add(kid)
                parents[kid] = nid
    for kid in shared:
        del parents[kid]
    return parents


def _reads_locals(action) -> bool:
    uses = action.fx.uses
    return uses is None or not set(uses) <= {"me", *(n for n, _ in action.params)}


def _roll_plan(die: str, faces: list) -> tuple[list, list | None, int]:
    """(faces, the log entry of each face, how many faces) of die `die`; no entries when a
    face's text is not fixed (a face of another type than a number, a text or a face with
    icons), or the die has no faces: those roll one by one."""
    entries = None
    if faces and all(type(f) in (int, str, Face) for f in faces):
        entries = [{"t": "roll", "die": die, "v": f.text if type(f) is Face else str(f)} for f in faces]
    return faces, entries, len(faces)

