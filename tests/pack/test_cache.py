"""The user's cache (docs/cache.md): what it keeps, that a load from it is the same load,
and that a missing, damaged or switched-off cache only costs time."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

import engine
from engine import resources
from engine.dsl import parser
from engine.errors import PackError
from engine.pack import schema
from engine.pack.yamlspan import compose_text

HERE = Path(__file__).parent
MINI = HERE.parent / "engine" / "fixtures" / "mini"
CORPUS = HERE.parent / "dsl" / "corpus"


def forget() -> None:
    """What this process remembers of the cache and of parsing: as if it had just started."""
    parser._CACHE.reset()
    parser.parse_program.cache_clear()
    parser.parse_expr.cache_clear()
    parser._parser.cache_clear()
    schema._Passed._each.clear()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.delenv("HORDE_NO_CACHE", raising=False)
    monkeypatch.setenv("HORDE_CACHE_DIR", str(folder))
    forget()
    yield folder
    forget()


def kinds(folder: Path) -> list[str]:
    return sorted(p.name.split("-", 1)[0] for p in folder.iterdir())


def play(game, seed: int = 5, steps: int = 300) -> list[str]:
    """The labels of a game with seeded random choices."""
    rng, state, labels = random.Random(seed), game.new_state(seed=seed), []
    for _ in range(steps):
        if state.is_terminal():
            break
        label = rng.choice(state.decision().actions)
        state.apply(label)
        labels.append(label)
    return labels


def no_lark(*_):
    raise AssertionError("parsed with Lark although the cache has this snippet")


def no_jsonschema(*_):
    raise AssertionError("validated with jsonschema although the cache says it passed")


@pytest.mark.parametrize(("pack", "mode"), [("roll-them-bones", None),
                                            ("theyre-coming", "romerio"),
                                            ("defcon-z", "competitive")])
def test_a_load_from_the_cache_is_the_same_load(cache, monkeypatch, pack, mode):
    first = engine.load(pack, mode=mode)
    assert kinds(cache) == ["parse", "valid"]  # the quick reader needed no Lark tables
    forget()
    monkeypatch.setattr(parser, "_parse_tree", no_lark)
    monkeypatch.setattr(schema, "_validator", no_jsonschema)
    again = engine.load(pack, mode=mode)
    assert again.hash == first.hash
    assert play(again) == play(first)


def corpus() -> list[str]:
    texts = []
    for path in sorted(CORPUS.glob("*.txt")):
        for chunk in path.read_text().split("\n---\n"):
            lines = [ln for ln in chunk.strip().splitlines() if not ln.startswith("#")]
            texts.append("\n".join(lines).strip())
    return [t for t in texts if t] + [
        "if a:\n    b = 1\n  c = 2", "x = (1", "a +", "'open", "@", "[x for x in]",
        "(" * (parser.MAX_NESTING + 5) + "1" + ")" * (parser.MAX_NESTING + 5),
        "if x:\n    call p(1, k=2)\nelif y:\n    pass\nelse:\n    repeat 3:\n        z -= 1",
    ]


def outcome(text: str) -> str:
    try:
        return repr(parser._ToAst().transform(parser._parse_tree(text)))
    except Exception as exc:  # noqa: BLE001 - the error is part of the outcome
        return f"{type(exc).__name__}: {exc} at {getattr(exc, 'pos', None)}"


def test_parser_tables_from_the_cache_parse_and_fail_alike(cache, monkeypatch):
    built = [outcome(t) for t in corpus()]
    assert kinds(cache) == ["lalr"]
    assert any(o.startswith("DSLSyntaxError") for o in built)
    parser._parser.cache_clear()

    import lark

    def no_build(*args, **kwargs):
        raise AssertionError("built the tables although the cache has them")

    monkeypatch.setattr(lark.Lark, "__init__", no_build)
    assert [outcome(t) for t in corpus()] == built


def test_every_ast_survives_its_json_form():
    for text in corpus():
        try:
            prog = parser.parse_program(text)
        except engine.HordeError:
            continue
        encoded = json.loads(json.dumps(parser._encode(prog)))
        assert repr(parser._decode(encoded)) == repr(prog)


@pytest.mark.parametrize("damage", [b"", b"{", b"[1, 2]", b'{"x": "[\\"Nope\\", 1, 1]"}',
                                    b'{"#int": 5}', b"\xff\xfe"])
def test_damaged_cache_files_are_no_cache(cache, damage):
    first = engine.load(MINI)
    for path in cache.iterdir():
        path.write_bytes(damage)
    forget()
    assert play(engine.load(MINI)) == play(first)


def test_errors_are_the_same_with_a_warm_cache(cache, tmp_path):
    pack = shutil.copytree(MINI, tmp_path / "mini")
    text = (pack / "pack.yaml").read_text()
    engine.load(pack)  # its snippets and its schema checks are in the cache now

    def failure() -> str:
        forget()
        with pytest.raises(PackError) as info:
            engine.load(pack)
        return str(info.value)

    for old, new, said in [("do: game.rounds += 1", "do: game.rounds += (1", "unexpected"),
                           ("title:", "titel:", "titel")]:
        assert old in text
        (pack / "pack.yaml").write_text(text.replace(old, new, 1))
        message = failure()
        assert said in message
        assert failure() == message


def test_schema_passes_are_remembered_by_content(cache, monkeypatch):
    node = compose_text("pack: a\ntitle: A\n", "a.yaml")
    first = schema.validate(node, overlay=True)
    assert first == []
    schema._Passed._each.clear()
    monkeypatch.setattr(schema, "_validator", no_jsonschema)
    monkeypatch.setattr(schema, "_quickly_passes", lambda *_: False)  # the cache alone
    assert schema.validate(node, overlay=True) == []
    with pytest.raises(AssertionError):  # another kind of check is another key
        schema.validate(node)
    passed = schema._Passed.of("pack")
    assert passed.key(False, {"a": 1}) != passed.key(False, {"a": "1"})
    assert passed.key(False, {"a": 1}) != passed.key(False, {"a": True})


def test_no_cache_when_switched_off_or_impossible(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("HORDE_CACHE_DIR", str(folder))
    monkeypatch.setenv("HORDE_NO_CACHE", "1")
    assert resources.cache_dir() is None
    forget()
    try:
        game = engine.load(MINI)
        assert not folder.exists()
        monkeypatch.delenv("HORDE_NO_CACHE")
        folder.write_text("a file where the folder should be")
        assert resources.cache_dir() is None
        forget()
        assert play(engine.load(MINI)) == play(game)
    finally:
        forget()


def test_old_versions_are_pruned(tmp_path, monkeypatch):
    monkeypatch.delenv("HORDE_NO_CACHE", raising=False)
    monkeypatch.setenv("HORDE_CACHE_DIR", str(tmp_path))
    for k in range(resources.KEEP_VERSIONS + 3):
        resources.write_cache(f"parse-{k}.json", b"{}")
    resources.write_cache("valid-x.json", b"[]")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len([n for n in names if n.startswith("parse-")]) == resources.KEEP_VERSIONS
    assert "valid-x.json" in names and not any(n.endswith(".tmp") for n in names)



def test_a_full_snippet_file_keeps_what_its_writer_used(cache, monkeypatch):
    monkeypatch.setattr(parser, "MAX_CACHED", 3)

    def saved() -> set[str]:
        (path,) = cache.glob("parse-*.json")
        return set(json.loads(path.read_bytes()))

    for text in ("a = 1", "b = 2", "c = 3", "d = 4"):
        parser.parse_program(text)
    parser.save_cache()
    assert saved() == {"a = 1", "b = 2", "c = 3", "d = 4"}
    forget()
    parser.parse_program("a = 1")
    parser.parse_program("e = 5")
    parser.save_cache()
    assert saved() == {"a = 1", "e = 5"}


def test_code_that_cannot_be_identified_caches_nothing(cache, monkeypatch):
    assert resources.code_identity("engine.dsl.parser") is not None
    assert resources.code_identity("engine.dsl.parser", "no_such_module_here") is None
    monkeypatch.setattr(resources, "code_identity", lambda *modules: None)
    parser._version.cache_clear()
    try:
        first = engine.load(MINI)
        assert not cache.exists() or not any(cache.iterdir())
    finally:
        parser._version.cache_clear()
    forget()
    assert play(engine.load(MINI)) == play(first)
