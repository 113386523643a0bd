"""The benchmark harness: how fast the engine plays each pack, next to a hand-written program.

`python -m bench` (see `bench.__main__` and bench/README.md). Not part of the installed
package: it lives next to the tests and measures the working tree it sits in.
"""
