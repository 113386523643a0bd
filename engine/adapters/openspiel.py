"""Every pack as an OpenSpiel game: `load_game(pack, mode=None, players=N, **params)`.

Needs the optional extra: `pip install -e '.[agents]'`. The game is registered with
pyspiel under a short name (`horde_<pack>_<mode>`), every bundled pack and mode on import,
so `pyspiel.load_game(name, {...})` and OpenSpiel's own serialization work in any process
that imports this module; a game pickles as its pack, mode and params, so it loads in a
worker that never loaded it. Its type (utility, information) and bounds follow what the
pack declares or what is worked out from it (engine.agents.gametype). Chance is explicit
(engine.agents.chance): every roll, draw and shuffle step is a chance node, so
`serialize=True` simulation tests can replay games.

Actions are the pack's fixed action ids (engine.agents.actions); the observation string
and tensor are the seat's view (engine.agents.observe). The information state adds a
digest, of constant size, chained after every move from what the seat saw: each action
(only which action it was when it names an entity the seat cannot see; chance draws left
out, they may be private) and, once the action is done, the seat's observation. Each seat
also remembers the hidden entities it saw go where they are (engine.agents.memory), and
`resampler` re-deals only the rest. A game stops, as a draw, after `max_game_length`
moves (decisions and chance events together) — the pack's `agents: max_game_length`, or
by default MOVES_PER_TURN per turn of the pack's turn limit; `turns` stops it sooner, as horde's turn limit does.
"""

from __future__ import annotations

import functools
import hashlib
import math
import random
import re
from typing import Any

import numpy as np
import pyspiel

import engine
from engine.agents import gametype, observe
from engine.agents.memory import Memory
from engine.agents.seats import Seat
from engine.dsl.values import E
from engine.errors import HordeError, did_you_mean
from engine.hidden import determinize

MOVES_PER_TURN = 100  # moves one turn may take, for the default max_game_length
MOVES_NO_TURN_LIMIT = 100_000  # max_game_length of a pack without a turn limit


def short_name(pack: str, mode: str | None) -> str:
    name = f"horde_{pack}" + (f"_{mode}" if mode else "")
    return re.sub(r"[^a-z0-9_]", "_", name.lower())


@functools.cache
def _load(pack, mode, params: tuple = ()):
    """A pack loaded once per process: every game object of a name and params shares it."""
    return engine.load(pack, mode=mode, params=dict(params) or None)


def _plain_params(hg) -> dict:
    return {k: v for k, v in hg.params.items() if type(v) in (int, float, bool, str)}


def load_game(pack: str, mode: str | None = None, players: int | None = None, **params):
    """The pack (id or path) as a `pyspiel.Game`; `params`: the pack's params, and `turns`,
    `max_game_length` of the adapter."""
    name = register(pack, mode)
    given = dict(params)
    if players is not None:
        given["players"] = players
    _check_params(name, given)
    return pyspiel.load_game(name, given)


def register(pack, mode: str | None = None, raw: dict | None = None) -> str:
    """Register the pack (id or path) and mode with pyspiel, once; its short name. `raw`:
    the merged pack, when it is known without building the game (the bundled packs)."""
    name = short_name(str(pack).rstrip("/").split("/")[-1], mode)
    if name in pyspiel.registered_names():
        first = _TYPES.get(name, (pack, mode))
        if first != (pack, mode) and _where(first[0]) != _where(pack):
            raise HordeError(f"{pack}: its game would be '{name}', the name of {first[0]}'s "
                             "already in this process",
                             hint="give the pack's folder another name")
        return name
    if raw is None:
        raw = _load(pack, mode).raw
    players = raw.get("players") or {}
    pmin = int(players.get("min", 1))
    params = {k: v.get("default") if isinstance(v, dict) else v
              for k, v in (raw.get("params") or {}).items()}
    spec = {"players": int(players.get("default", pmin)), "turns": 0, "max_game_length": 0,
            **{k: v for k, v in params.items() if type(v) in (int, float, bool, str)}}
    about = gametype.meta(raw)
    title = raw.get("title", raw.get("pack", ""))
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"horde: {title}" + (f" ({mode})" if mode else ""),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION if about.perfect
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_UTILITY.get(about.returns, pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=int(players.get("max", 1)), min_num_players=pmin,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=spec)
    _TYPES[name] = (pack, mode)
    _SPECS[name] = spec
    cls = type(f"HordeGame_{name}", (HordeGame,), {"TYPE": game_type})
    pyspiel.register_game(game_type, cls)
    return name


def _where(pack) -> str:
    """The pack file a pack id or path names, to tell two names of one pack from two packs."""
    from engine.pack.loader import resolve_ref
    try:
        return str(resolve_ref(pack))
    except HordeError:
        return str(pack)


def register_bundled() -> list[str]:
    """Register every bundled pack and each of its modes (done on import), so
    `pyspiel.load_game(name)` works by a bundled game's name in any process that imports this
    module: a spawned worker, a Ray worker, one unpickling a game. Reads the packs' files
    (unchecked: a game is checked when it is loaded), never builds a game."""
    from engine.pack.loader import PACK_FILE, load_tree, rulesets_dir
    from engine.pack.yamlspan import plain

    names = []
    folder = rulesets_dir()
    packs = sorted(d for d in folder.iterdir() if (d / PACK_FILE).is_file()) if folder.is_dir() else []
    for pack in packs:
        for mode in (None, *sorted(m.stem for m in (pack / "modes").glob("*.yaml"))):
            try:
                raw = plain(load_tree(pack.name, mode=mode, validate=False).node)
            except HordeError:  # a broken pack is loaded, and its error shown, on use
                continue
            if isinstance(raw, dict):
                names.append(register(pack.name, mode, raw))
    return names


_UTILITY = {"win-loss": pyspiel.GameType.Utility.GENERAL_SUM,
            "zero-sum": pyspiel.GameType.Utility.ZERO_SUM,
            "constant-sum": pyspiel.GameType.Utility.CONSTANT_SUM}


def _game_again(pack, mode, params: dict):
    """A pickled game back (`HordeGame.__reduce__`), in this process or another."""
    given = dict(params)
    return load_game(pack, mode, **given)


def _state_again(game, data: str):
    """A pickled state back (`HordeSpielState.__reduce__`): `game` is unpickled first, so
    its name is registered in this process, then OpenSpiel's own state pickle (its history
    and the state's attributes) is read."""
    del game
    state = HordeSpielState.__new__(HordeSpielState)
    pyspiel.State.__setstate__(state, data)
    return state


C_INT = range(-(1 << 31), 1 << 31)  # what an OpenSpiel int parameter holds (a C++ int)


def _check_params(name: str, given: dict) -> None:
    """Each param is one the game declares, of its type and, for a whole number, one C++
    can hold: a HordeError naming it, not a failed cast inside pyspiel. The pack itself
    checks the values against its own ranges when the game is built."""
    spec = _SPECS.get(name)
    if spec is None:  # registered by other code than load_game: pyspiel checks for itself
        return
    for key, value in given.items():
        if key not in spec:
            hint = did_you_mean(str(key), spec)
            raise HordeError(f"{name}: no param '{key}'",
                             hint=hint or f"its params: {', '.join(sorted(spec))}")
        kind = type(spec[key])
        ok = type(value) is kind or (kind is float and type(value) is int)
        if not ok:
            raise HordeError(f"{name}: param '{key}' = {value!r:.60} is not "
                             f"{_KINDS.get(kind, kind.__name__)}")
        if kind is int and value not in C_INT:
            raise HordeError(f"{name}: param '{key}' is outside {C_INT.start:,}..."
                             f"{C_INT.stop - 1:,}, what OpenSpiel can hold")
        if key in ("turns", "max_game_length") and value < 0:
            raise HordeError(f"{name}: param '{key}' = {value} is negative",
                             hint="0 (the default) leaves the game's own limit")
        if kind is float and not math.isfinite(value):
            raise HordeError(f"{name}: param '{key}' = {value} is not a finite number")


_KINDS = {int: "a whole number", float: "a number", bool: "true or false", str: "text"}


_TYPES: dict[str, tuple] = {}  # short name -> (pack, mode)
_SPECS: dict[str, dict] = {}  # short name -> its parameter specification
_CONFIGS: dict[tuple, Config] = {}  # (short name, params) -> what its games share


class Config:
    """What every game object of one short name and params shares. It is kept here, not on
    the game: pyspiel may hand a state a fresh Python object for the same C++ game, one
    without the attributes its constructor set."""

    def __init__(self, pack, mode, params: dict):
        base = _load(pack, mode)
        self.full = full = {"players": base.players_default, "turns": 0, "max_game_length": 0,
                            **_plain_params(base), **params}
        own = {k: full[k] for k in _plain_params(base) if full[k] != base.params[k]}
        self.hg = hg = _load(pack, mode, tuple(sorted(own.items()))) if own else base
        self.n = n = int(full["players"])
        self.turns = int(full["turns"]) or None
        limit = hg.limits.get("turns") or 0
        if self.turns:
            limit = min(limit, self.turns) if limit else self.turns
        self.meta = about = gametype.meta(hg.raw)
        gametype.compiled_each(hg)  # a wrong `returns:` expression: an error now, not at the end
        self.max_moves = int(full["max_game_length"]) or about.max_game_length or (
            limit * MOVES_PER_TURN if limit else MOVES_NO_TURN_LIMIT)
        self.space = hg.action_space(n)
        self.layout = observe.layout(hg, n)
        self.max_outcomes = about.max_chance_outcomes or gametype.chance_outcomes_bound(
            hg, hg.new_state(players=n))
        self.initial = hg.new_state(players=n, explicit_chance=True)  # its setup remembered
        if self.turns:
            self.initial.stop_turns = self.turns
        self.key: tuple = ("", {})

    def __deepcopy__(self, memo):  # shared by every state of its games
        return self

    def __reduce__(self):
        return (config, (None, *self.key))


def config(game=None, name: str = "", params: dict | None = None) -> Config:
    if game is not None:
        name, params = game.get_type().short_name, game.get_parameters()
    key = (name, tuple(sorted((params or {}).items())))
    got = _CONFIGS.get(key)
    if got is None:
        pack, mode = _TYPES[name]
        got = _CONFIGS[key] = Config(pack, mode, dict(params or {}))
        got.key = (name, dict(params or {}))
    return got


class HordeGame(pyspiel.Game):
    """A pack's game; one subclass per registered pack and mode says which (`TYPE`). It
    pickles as the pack, mode and params it is loaded from (`_game_again`), so it loads in a
    process that never loaded it, and one where its class was never made."""

    TYPE: Any = None

    def __init__(self, params=None):
        cfg = config(name=self.TYPE.short_name, params=dict(params or {}))
        lo, hi, total = gametype.utility(cfg.hg.raw, cfg.meta.returns)
        info = pyspiel.GameInfo(
            num_distinct_actions=cfg.space.size, max_chance_outcomes=cfg.max_outcomes,
            num_players=cfg.n, min_utility=lo, max_utility=hi, utility_sum=total,
            max_game_length=cfg.max_moves)
        super().__init__(self.TYPE, info, cfg.full)

    def __reduce__(self):
        name = self.get_type().short_name
        pack, mode = _TYPES[name]
        return (_game_again, (pack, mode, dict(self.get_parameters())))

    def new_initial_state(self):
        return HordeSpielState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return Observer(config(self), iig_obs_type)


class HordeSpielState(pyspiel.State):
    def __init__(self, game: HordeGame):
        super().__init__(game)
        self.g = cfg = config(game)
        self.S = cfg.initial.clone()
        self.moves = 0
        self.seen = [b""] * cfg.n  # per seat, the digest of what it observed and did
        self.memory = Memory(self.S)  # per seat, what it saw and still knows where it is
        self.texts: tuple = (None, 0, {})  # (S, moves, seat -> its observation string then)

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.S.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return self.S.current_player()

    def _legal_actions(self, player):
        return self.S.legal_action_ids()

    def chance_outcomes(self):
        got = self.S.chance_outcomes()
        if len(got) > self.g.max_outcomes:  # OpenSpiel sizes its arrays by the bound
            raise HordeError(f"a chance node has {len(got):,} outcomes, more than the game's "
                             f"max_chance_outcomes {self.g.max_outcomes:,}",
                             hint="raise agents: max_chance_outcomes in the pack, or leave "
                                  "it out (`horde check` tries it)")
        return got

    def _apply_action(self, action):
        actor = self.current_player()
        S = self.S
        drew = S.is_chance_node()
        # each seat's digest chains the actions taken as it saw them (a chance draw may be
        # private) and, once an action is done, what the seat then observes
        moves = [b""] * self.g.n if drew else _moves_seen(S, actor, int(action))
        if drew:
            S.apply_chance(int(action))
        else:
            S.apply(int(action))
        self.moves += 1
        if S.is_chance_node():  # the action waits for more draws: nothing seen changed
            if not drew:
                self.seen = [_chain(h, m) for h, m in zip(self.seen, moves, strict=True)]
            return
        self.memory.update(S, drew, S.chance.shuffled if drew else ())
        self.seen = [_chain(h, m + self.text(p).encode())
                     for p, (h, m) in enumerate(zip(self.seen, moves, strict=True))]

    def text(self, player: int | None) -> str:
        """`observe.observation` of S for `player`, made once per move: the digest, the
        observation and the information state all ask for it. Kept with the S it is of,
        so a state given another S (a resampled one) makes it again."""
        S = self.S
        of, moves, texts = self.texts
        if of is not S or moves != self.moves:
            texts = {}
            self.texts = (S, self.moves, texts)
        got = texts.get(player)
        if got is None:
            got = texts[player] = observe.observation(S, player)
        return got

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{action}"
        return self.g.space.label(int(action))

    def is_terminal(self):
        return self.S.is_terminal() or self.moves >= self.g.max_moves

    def returns(self):
        if not self.S.is_terminal():
            return [0.0] * self.g.n
        return gametype.returns(self.S, self.g.meta.returns)

    def __reduce__(self):  # with its game, which pickles as its pack, mode and params
        return (_state_again, (self.get_game(), pyspiel.State.__getstate__(self)))

    def __str__(self):
        return self.text(None)


def _moves_seen(S, actor: int, action: int) -> list[bytes]:
    """Action id `action` of `actor` as each seat saw it: the whole id, or only which
    action it was when it names an entity the seat cannot see (as `State.view` masks the
    log: `restack(hidden)`)."""
    d = S.decision()
    act, args = d.bindings[S._label_of_id(action)]
    named = [v.i for v in args.values() if type(v) is E]
    whole = f"{actor}:{action};".encode()
    short = f"{actor}:{'pass' if act is None else act.id};".encode()
    return [whole if p == actor or not any(
        not observe.can_see(S, S.ents.get(u, {}).get("@z"), p) for u in named) else short
        for p in range(len(S.pl))]


def _chain(digest: bytes, more: bytes) -> bytes:
    return hashlib.blake2b(digest + more, digest_size=16).digest()


class Observer:
    """OpenSpiel's PyObserver: the seat's view (engine.agents.observe); with perfect recall,
    the digest of what it saw and did before too (`HordeSpielState.seen`)."""

    def __init__(self, game: Config, iig_obs_type=None):
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        # with perfect recall there is no tensor (the game type says it provides none): the
        # seat's view now is no information state, and a digest is no vector to learn from
        self.tensor = None if self.recall else np.zeros(game.layout.size, np.float32)
        self.dict = {} if self.recall else {"observation": self.tensor}

    def set_from(self, state, player):
        t = self.tensor
        if t is None:
            raise pyspiel.SpielError("horde games provide no information state tensor "
                                     "(provides_information_state_tensor is False): use "
                                     "information_state_string, or observation_tensor")
        t.fill(0)
        for i, v in observe.entries(state.S, player):
            t[i] = v

    def string_from(self, state, player):
        text = state.text(player)
        return state.seen[player].hex() + " " + text if self.recall else text


class HordeBot(pyspiel.Bot):
    """A `pyspiel.Bot` playing `player` with horde's bot of `spec` (engine.bots.make_bot:
    `random`, `greedy`, `mcts:200`, ...); it decides on a copy that rolls inside
    (engine.agents.seats), never on the chance state itself."""

    def __init__(self, game, player: int, spec: str, seed: int = 0):
        pyspiel.Bot.__init__(self)
        self._player = player
        self.seat = Seat(config(game).hg, spec, seed)

    def player_id(self):
        return self._player

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_policy(self):
        return False

    def step(self, state):
        return self.seat.decide(state.S)


def resampler(seed: int = 0):
    """`resample(state, player)`: a state `player` cannot tell from `state`, for OpenSpiel's
    `ISMCTSBot.set_resampler`: what the seat cannot see and does not remember re-dealt by
    horde's determinization (engine.hidden), the log and history as it may read them, its
    memory and its own digest of what it saw kept."""
    rng = random.Random(seed)

    def resample(state, player):
        new = state.clone()
        new.S = determinize(state.S, player, rng, known=state.memory.known(player), past=True)
        return new

    return resample


register_bundled()
