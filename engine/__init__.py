"""horde: a declarative rules engine for tabletop zombie games."""
