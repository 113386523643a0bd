"""The flow machine: turn structure as data, suspended at decisions."""
