"""Test-suite wide setup: every scenario file under tests/scenarios is a test."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import settings

from engine.scenario import load_file, run_node

# In CI the property and fuzz tests replay the same examples on every run: a red build must
# mean a change broke something, not that a new random example was drawn. Locally they
# explore new examples each run (and remember failures in .hypothesis/).
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


# The run never reads or writes the user's cache folder (horde check's example database):
# it gets an empty one of its own, which subprocesses inherit, and which goes when the run
# ends.
os.environ["HORDE_CACHE_DIR"] = tempfile.mkdtemp(prefix="horde-test-cache-")
atexit.register(shutil.rmtree, os.environ["HORDE_CACHE_DIR"], True)
# every game played is autosaved to the data folder: the tests' games go to one of their own
os.environ["HORDE_DATA_DIR"] = tempfile.mkdtemp(prefix="horde-test-data-")
atexit.register(shutil.rmtree, os.environ["HORDE_DATA_DIR"], True)


@pytest.fixture
def horde():
    """Run the `horde` command in-process; no traceback may ever reach its output."""
    from typer.testing import CliRunner

    from engine.cli.app import app

    runner = CliRunner()

    def invoke(*args, input: str | None = None):
        result = runner.invoke(app, [str(a) for a in args], input=input)
        assert "Traceback" not in result.output
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result

    return invoke


def pytest_collect_file(parent, file_path):
    if file_path.suffix in (".yaml", ".yml") and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        for k, node in enumerate(load_file(self.path)):
            name = node.value["scenario"].value if isinstance(node.value, dict) else f"#{k}"
            yield ScenarioItem.from_parent(self, name=f"{k}: {name}", node=node)


class ScenarioItem(pytest.Item):
    def __init__(self, *, node, **kw):
        super().__init__(**kw)
        self.node = node
        # No fixtures, like a test function that takes none: plugins that wrap every test's
        # run (pytest-lsp's pytest_runtest_call) look for `funcargs` and, without it, return
        # before their `yield`, which pluggy turns into an error of every scenario.
        self.funcargs: dict = {}

    def runtest(self):
        result = run_node(self.node, self.path.parent)
        if not result.ok:
            raise ScenarioError(result)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioError):
            r = excinfo.value.result
            return f"{r.file}: scenario '{r.name}' failed:\n{r.message}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario: {self.name}"


class ScenarioError(Exception):
    def __init__(self, result):
        super().__init__(result.message)
        self.result = result
