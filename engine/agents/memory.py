"""What each seat remembers of what it saw: the entities it still knows in zones hidden from it.

A player who peeks at the top tiles of a face-down stack and puts them back knows them
afterwards; `State.view` shows only the stack's size, so an agent (and a determinization
for it) would forget them. A `Memory` follows one game move by move, for every seat, by
one rule kept simple on purpose:

- after every move, a seat knows every entity it can see (in a zone it may look in —
  `visible: all`, or `owner` for its own zones — or on no zone at all, as a board's pieces);
- an entity it knew stays known while it sits in a zone hidden from it;
- it is forgotten when the seat can no longer tell where it is: it moves between two zones
  both hidden from the seat, or a move that drew at random (a chance event) shuffled its
  zone or took an entity out of it to a place hidden from the seat (a random draw, or one
  the seat cannot tell from it). Entities made inside a hidden zone are not known.

So a seat may forget more than a careful player would (a deterministic draw in a move that
also rolls a die), never less. Only the agent-facing state keeps a memory (the OpenSpiel
adapter); ordinary play, `horde sim` and the bots keep none and play as before. The cost of
a move is one pass over the entities in zones, whatever the game's length.
`engine.hidden.determinize(..., known=memory.known(seat))` keeps what the seat knows where
it truly is.
"""

from __future__ import annotations

from engine.hidden import hidden_zone_keys


def _where(S) -> dict[int, str]:
    """uid -> the zone it is in, for every entity in a zone."""
    return {u: key for key, uids in S.zones.items() for u in uids}


class Memory:
    """Per seat, the uids it knows among the entities in zones hidden from it."""

    __slots__ = ("seats", "where", "next_uid")

    def __init__(self, S):
        self.seats: list[frozenset[int]] = [frozenset()] * len(S.pl)
        self.where = _where(S)  # where the entities were after the last move
        self.next_uid = S.next_uid  # every uid below it existed then

    def known(self, seat: int) -> frozenset[int]:
        """The entities in zones hidden from `seat` that it knows (where they are, and what)."""
        return self.seats[seat]

    def update(self, S, drew: bool, shuffled=()) -> None:
        """After a move: `drew`, whether it made a chance draw; `shuffled`, the zones it
        shuffled (engine.agents.chance)."""
        where, before = _where(S), self.where
        left = [(z0, where.get(u)) for u, z0 in before.items() if where.get(u) != z0] if drew else []
        for seat, was in enumerate(self.seats):
            hidden = set(hidden_zone_keys(S, seat))
            lost = set(shuffled).union(z0 for z0, z1 in left if z0 in hidden and z1 in hidden)
            now = set()
            for key in hidden:
                if key in lost:
                    continue
                for u in S.zones[key]:
                    z0 = before.get(u)
                    if z0 == key:
                        if u in was:
                            now.add(u)
                    elif z0 is None:
                        if u < self.next_uid:  # on no zone before: seen
                            now.add(u)
                    elif z0 not in hidden:  # seen going there
                        now.add(u)
            self.seats[seat] = frozenset(now)
        self.where, self.next_uid = where, S.next_uid

    def copy(self) -> Memory:
        c = Memory.__new__(Memory)
        c.seats, c.where, c.next_uid = list(self.seats), self.where, self.next_uid
        return c

    def __deepcopy__(self, memo) -> Memory:  # its parts are never changed in place
        return self.copy()
