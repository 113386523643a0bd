"""The example packs (examples/) validate strictly and play to the end with bots, loaded
by their folders as a user would."""

import json
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name", ["pig", "liars-dice"])
def test_an_example_validates_strictly_and_plays_to_the_end(horde, name):
    pack = EXAMPLES / name
    assert (pack / "RULES-NOTES.md").is_file()
    result = horde("validate", pack, "--strict")
    assert result.exit_code == 0, result.output
    for bots in ("random", "greedy"):
        result = horde("sim", pack, "-n", "50", "--seed", "1", "--bots", bots, "--json")
        assert result.exit_code == 0, result.output
        report = json.loads(result.output)
        assert (report["games"], report["limit_hits"], report["no_winner"]) == (50, 0, 0)
        assert sum(report["wins"].values()) == 50  # every game has its winner
