"""One local Ray for the whole test run: starting it takes seconds on a small machine."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def cluster():
    """This machine as a Ray cluster (`--cluster local` joins it too), or the test skips."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[cluster]')")
    import ray

    from engine.sim.cluster import connect

    yield connect("local")
    ray.shutdown()
