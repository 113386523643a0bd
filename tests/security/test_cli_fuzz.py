"""No input reaches an internal error: Hypothesis throws random text (lone surrogates and
control characters included) and numbers (huge, negative, decimal, NaN, infinite, 1e308,
-0) at every option of every command, at each field of a game record (`replay`, `resume`)
and of a scenario (`scenario`, `validate`), and at a person's answers in `play`. Each run
ends with exit code 0 or 1 and never an "internal error" or a traceback.

Arguments hold no NUL character (no command line can: the OS ends a C string there); paths
to write are names inside the test's own folder; counts of games are small or out of range,
never a long run. The commands run in-process, as the `horde` fixture runs them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
MINI = str(ROOT / "tests" / "engine" / "fixtures" / "mini")
EXAMPLES = 40
# `horde check` runs Hypothesis itself: inside this test, a @given within a @given
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large, HealthCheck.nested_given])

# Any character but NUL: lone surrogates (as a file name with bytes that are not UTF-8
# reaches Python), C0 and C1 controls, bidi controls, and the rest of Unicode.
CHARS = st.one_of(st.characters(exclude_categories=(), exclude_characters="\x00"),
                  st.sampled_from("\x1b\x9b\u202e\u2066\ud800\udc80\udfff\x7f\r\n\t:=,;%"))
TEXT = st.text(CHARS, max_size=24)
EDGES = ["0", "-0", "1", "-1", "2", "1e308", "-1e308", "1e-308", "nan", "NaN", "inf", "-inf",
         "Infinity", "0.5", "-0.5", "1.", ".5", "0x10", "1_000", "١", "৪", "9" * 40,
         "-" + "9" * 40, "1" + "0" * 400, str(2**31), str(2**63), str(2**64), str(-(2**63) - 1)]
NUMBER = st.one_of(st.sampled_from(EDGES), st.integers().map(str),
                   st.floats(allow_nan=True, allow_infinity=True).map(str))
# How many games or examples: never a long run. Out of range, or 1-3.
COUNT = st.one_of(st.sampled_from([e for e in EDGES if e not in ("1", "2")]),
                  st.integers(1, 3).map(str), st.integers(max_value=0).map(str),
                  st.integers(min_value=10**7).map(str), TEXT)
VALUE = st.one_of(TEXT, NUMBER)


def _not_a_long_wait(text: str) -> bool:
    try:
        seconds = float(text)
    except ValueError:
        return True
    return not 0.01 < seconds < 1e6 or math.isnan(seconds)


DELAY = VALUE.filter(_not_a_long_wait)


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HORDE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


def run(*args, input: bytes | None = None):
    """The command, in-process; it must end with 0 or 1, in words (no traceback)."""
    from typer.testing import CliRunner

    from engine.cli.app import app

    result = CliRunner().invoke(app, [str(a) for a in args], input=input)
    words = result.output
    assert "internal error" not in words and "Traceback" not in words, (args, words)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        (args, repr(result.exception))
    assert result.exit_code in (0, 1), (args, result.exit_code, words)
    return result


def _file(tmp_path: Path):
    """A name of a file to write, inside the test's folder."""
    return TEXT.filter(lambda t: "/" not in t).map(lambda t: str(tmp_path / ("out" + t)))


def _options(tmp_path: Path) -> dict[str, dict]:
    file = _file(tmp_path)
    seats = st.one_of(VALUE, st.lists(st.one_of(TEXT, st.sampled_from(
        ["random", "greedy", "human", "mcts:1", "search:1", "policy:x", "mcts:1e308",
         "mcts:-1", "search:iters=nan", "mcts:0.0s"])), max_size=5).map(",".join))
    balance = {"-n": COUNT, "--seed": NUMBER, "--jobs": COUNT, "--players": seats,
               "--bots": seats, "--set": st.builds("{}={}".format, TEXT, VALUE),
               "--mode": TEXT, "--house": TEXT, "--json": None, "--csv": file, "--plot": file,
               "PACK": VALUE}
    param = st.one_of(st.builds("{}={}:{}".format, st.sampled_from(["goal", "loop"]), NUMBER,
                                NUMBER),
                      st.builds("{}={}:{}:{}".format, st.sampled_from(["goal", "loop"]), NUMBER,
                                NUMBER, NUMBER),
                      st.builds("{}={}".format, TEXT, VALUE))
    measures = st.sampled_from(["win_rate", "win_rate:0", "win_rate:9", "turns", "balance",
                                "metric:x", "no_winner"])
    return {
        "sim": {"base": ["sim", MINI, "-n", "1"], "options": balance},
        "compare": {"base": ["compare", MINI, "base", "goal=4", "-n", "1"],
                    "options": {**balance, "VARIANT": VALUE}},
        "sweep": {"base": ["sweep", MINI, "--param", "goal=2:3", "-n", "1"],
                  "options": {**balance, "--param": param,
                              "--target": st.one_of(st.builds("{}={}".format, measures, NUMBER),
                                                    VALUE),
                              "--measure": st.one_of(measures, TEXT)}},
        "check": {"base": ["check", MINI, "-n", "1"],
                  "options": {"-n": COUNT, "--seed": NUMBER, "--max-steps": COUNT,
                              "--time": VALUE, "--players": VALUE, "--out": file,
                              "--set": balance["--set"], "--mode": TEXT, "--house": TEXT,
                              "PACK": VALUE}},
        "play": {"base": ["play", MINI, "--players", "random,random"],
                 "options": {"--seed": NUMBER, "--delay": DELAY, "--save": file,
                             "--set": balance["--set"], "--players": seats, "--mode": TEXT,
                             "--house": TEXT, "--scores-for-bots": None, "PACK": VALUE}},
        "validate": {"base": ["validate"],
                     "options": {"TARGET": VALUE, "--strict": None, "--json": None}},
        "doc": {"base": ["doc", MINI],
                "options": {"--mode": TEXT, "--house": TEXT, "--markdown": None, "PACK": VALUE}},
        "diff": {"base": ["diff", MINI], "options": {"HOUSE": VALUE, "PACK": VALUE}},
        "schema": {"base": ["schema"], "options": {"WHICH": VALUE, "--print": None}},
        "scores": {"base": ["scores"],
                   "options": {"PACK": VALUE, "--mode": TEXT, "-n": NUMBER}},
        "scenario": {"base": ["scenario"], "options": {"PATH": VALUE}},
        "replay": {"base": ["replay"], "options": {"FILE": VALUE, "--step": None}},
        "resume": {"base": ["resume"],
                   "options": {"FILE": VALUE, "--players": seats, "--save": file,
                               "--delay": DELAY}},
    }


def _command_line(data, tmp_path: Path, command: str) -> list[str]:
    """The command's base line with one to three of its options (or arguments) fuzzed."""
    table = _options(tmp_path)[command]
    args = list(table["base"])
    names = data.draw(st.lists(st.sampled_from(sorted(table["options"])), min_size=1,
                               max_size=3), label="options")
    for name in names:
        strategy = table["options"][name]
        if strategy is None:  # a flag
            args.append(name)
        elif name == "PACK" and len(args) > 1:  # in place of the pack
            args[1] = data.draw(strategy, label=name)
        elif name.isupper():  # another argument
            args.append(data.draw(strategy, label=name))
        else:
            args += [name, data.draw(strategy, label=name)]
    return args


@pytest.mark.parametrize("command", ["sim", "compare", "sweep", "check", "play", "validate",
                                     "doc", "diff", "schema", "scores", "scenario", "replay",
                                     "resume"])
@FUZZ
@given(data=st.data())
def test_no_option_reaches_an_internal_error(tmp_path, command, data):
    run(*_command_line(data, tmp_path, command))


@FUZZ
@given(answers=st.lists(st.one_of(TEXT, NUMBER, st.sampled_from(["q", "?", "u", "log", "1"])),
                        max_size=6))
def test_no_answer_at_the_prompt_reaches_an_internal_error(answers):
    """What a person types, as bytes: text that is not UTF-8 (a lone surrogate's bytes)
    included. The game stops at the end of the input."""
    typed = "".join(a.replace("\n", " ") + "\n" for a in answers)
    run("play", MINI, "--players", "human,random", "--seed", "1",
        input=typed.encode("utf-8", "surrogatepass"))


# ---------- records ----------

JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.sampled_from([2**63, 2**64, -(2**63) - 1,
                                                                       10**30]),
              st.floats(allow_nan=True, allow_infinity=True), TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=8)


@pytest.fixture(scope="module")
def mini_record(tmp_path_factory) -> dict:
    """The record of a whole game of the mini pack, and of one stopped before its end."""
    from engine import record as records

    folder = tmp_path_factory.mktemp("records")
    path = folder / "game.json"
    from typer.testing import CliRunner

    from engine.cli.app import app
    result = CliRunner().invoke(app, ["play", MINI, "--players", "human,random", "--seed", "1",
                                      "--save", str(path)], input="1\n1\nq\n")
    assert result.exit_code == 0, result.output
    return records.load(path)


RECORD_FIELDS = ["format", "pack", "mode", "house", "params", "players", "seed", "bots",
                 "pack_hash", "hash_version", "decisions"]


@pytest.mark.parametrize("command", ["replay", "resume"])
@FUZZ
@given(data=st.data())
def test_no_record_field_reaches_an_internal_error(tmp_path, mini_record, command, data):
    record = json.loads(json.dumps(mini_record))
    for field in data.draw(st.lists(st.sampled_from(RECORD_FIELDS), min_size=1, max_size=2,
                                    unique=True), label="fields"):
        record[field] = data.draw(_field_value(field, record[field]), label=field)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, allow_nan=True))  # NaN and Infinity, as JSON allows
    run(command, path, input=b"q\n")


def _field_value(field: str, now):
    """A fuzzed value for a record field: anything JSON holds, or one of its items fuzzed
    (a list of labels with one of them bad, a house entry with a bad path)."""
    options = [JSON]
    if isinstance(now, list) and now:
        options.append(st.builds(lambda k, v: [*now[:k % len(now)], v, *now[k % len(now) + 1:]],
                                 st.integers(0, 100), JSON))
    if field == "house":
        options.append(st.lists(st.fixed_dictionaries({"path": VALUE, "sha256": VALUE}),
                                max_size=2))
    if field == "params":
        options.append(st.dictionaries(st.sampled_from(["goal", "loop"]).map(str) | TEXT,
                                       st.one_of(VALUE, st.integers(), st.booleans()),
                                       max_size=2))
    return st.one_of(*options)


# ---------- scenarios ----------

SCENARIO = {"scenario": "a fuzzed scenario", "pack": MINI, "players": 2, "seed": 1,
            "rolls": [3, 4], "decisions": ["1"], "expect": ["game.rounds >= 0"]}
SCENARIO_FIELDS = [*SCENARIO, "rules", "description", "mode", "house", "params", "setup",
                   "at", "offered", "not_offered", "play_on", "turns", "expect_error",
                   "expect_law"]


@pytest.mark.parametrize("command", ["scenario", "validate"])
@FUZZ
@given(data=st.data())
def test_no_scenario_field_reaches_an_internal_error(tmp_path, command, data):
    scenario = dict(SCENARIO)
    for field in data.draw(st.lists(st.sampled_from(SCENARIO_FIELDS), min_size=1, max_size=2,
                                    unique=True), label="fields"):
        scenario[field] = data.draw(JSON, label=field)
    path = tmp_path / "scenario.yaml"
    # as YAML writes it: text that no file can hold is written as an escape (\ud800)
    path.write_text(yaml.safe_dump([scenario], allow_unicode=False))
    run(command, path)


@pytest.mark.parametrize("command", ["play", "resume"])
def test_a_delay_past_the_clock_is_refused_not_slept(horde, command):
    # time.sleep of 10^40 seconds raised OverflowError (timestamp out of range for time_t)
    where = ["--last"] if command == "resume" else [MINI, "--players", "random,random"]
    r = horde(command, *where, "--plain", "--delay", "9" * 40)
    assert r.exit_code == 1 and "more than the maximum, 3600" in r.output, r.output
