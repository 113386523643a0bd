"""Every pack as a PettingZoo AEC environment: `env(pack, mode=None, players=N, **params)`.

Needs the optional extra: `pip install -e '.[agents]'`. Agents are `player_0`...; each
acts through a `Discrete` space of the pack's fixed action ids (engine.agents.actions) and
observes a dict: `observation`, the seat's tensor (engine.agents.observe), and
`action_mask`, 1 for each legal id. Chance rolls inside, from the seed `reset` is given,
as in `horde sim`; a reset without a seed plays the next seed of the env's random stream
(PettingZoo's convention). Rewards come at the end: each seat's return. A game cut short
by `turns` ends as horde's turn limit ends one (terminated, a draw); one that reaches
`max_moves` decisions is truncated. `policy(env, spec)` plays agents with horde's bots.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

import engine
from engine.agents import gametype, observe
from engine.agents.seats import Seat
from engine.game import Game

MAX_MOVES = 100_000  # decisions before an episode is truncated, unless `max_moves` says


class HordeEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "horde", "is_parallelizable": False}

    def __init__(self, pack, mode=None, players=None, render_mode=None, turns=None,
                 max_moves=MAX_MOVES, **params):
        super().__init__()
        self.game = pack if isinstance(pack, Game) else engine.load(pack, mode=mode, params=params or None)
        self.n = self.game.players_default if players is None else players
        self.turns, self.max_moves, self.render_mode = turns, max_moves, render_mode
        self.space = self.game.action_space(self.n)
        self._returns = gametype.meta(self.game.raw).returns  # rewards as OpenSpiel's returns
        self.layout = observe.layout(self.game, self.n)
        self.metadata = {**self.metadata, "name": f"horde_{self.game.pack_id}"}
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        box = spaces.Box(-np.inf, np.inf, (self.layout.size,), np.float32)
        mask = spaces.Box(0, 1, (self.space.size,), np.int8)
        self._obs_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                            for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self.S: Any = None  # the game under way, from reset() on
        self.np_random: np.random.Generator | None = None  # seeds unseeded resets' games
        self.np_random_seed: int | None = None

    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    def reset(self, seed=None, options=None):
        """A new game: `seed` gives the game `horde sim --seed` plays and seeds the env's
        random stream; without it the game's seed is the stream's next number (PettingZoo's
        convention: a first reset without a seed starts the stream from fresh entropy)."""
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(int(seed) % (1 << 64))
            game_seed = int(seed)
        else:
            if self.np_random is None:
                self.np_random, self.np_random_seed = seeding.np_random(None)
            game_seed = int(self.np_random.integers(0, 1 << 63))
        self.S = self.game.new_state(players=self.n, seed=game_seed)
        if self.turns:
            self.S.stop_turns = self.turns
        self.moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._settle()

    def _settle(self) -> None:
        """After a move: whose turn it is, or the end and its rewards."""
        if self.S.over:
            for a, r in zip(self.possible_agents, gametype.returns(self.S, self._returns), strict=True):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        elif self.moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.S.current_player()]
            return
        self.agent_selection = self.agents[0]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        obs = np.zeros(self.layout.size, np.float32)
        for i, v in observe.entries(self.S, seat):
            obs[i] = v
        mask = np.zeros(self.space.size, np.int8)
        if not self.S.over and self.S.current_player() == seat:
            mask[self.S.legal_action_ids()] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.S.apply(int(action))
        self.moves += 1
        self._clear_rewards()
        self._settle()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return observe.observation(self.S, None)
        return None

    def close(self):
        pass


def env(pack, mode=None, players=None, **params) -> HordeEnv:
    """The pack (id, path, or a loaded Game) as an AEC environment; `params`: the pack's params, and
    `turns`, `max_moves`, `render_mode` of the environment."""
    return HordeEnv(pack, mode=mode, players=players, **params)


def policy(env: HordeEnv, spec: str, seed: int = 0):
    """`act(agent, obs) -> action`: horde's bot of `spec` (engine.bots.make_bot) playing every
    agent it is asked for, one bot per agent (seeded `seed` + its seat), deciding on a copy of
    the game with dice of its own (engine.agents.seats); None for an agent that is done."""
    seats: dict[str, Seat] = {}

    def act(agent: str, obs=None):
        if env.terminations[agent] or env.truncations[agent]:
            return None
        seat = seats.get(agent)
        if seat is None:
            seat = seats[agent] = Seat(env.game, spec, seed + env.possible_agents.index(agent))
        return seat.decide(env.S)

    return act
