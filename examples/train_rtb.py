"""Train a small policy on Roll Them Bones with REINFORCE, against horde's greedy bot.

A linear softmax policy over the seat's observation tensor (legal actions only, through
the action mask), learnt with the REINFORCE policy gradient and a running-mean baseline,
plays seat 0 of a two-player game through the PettingZoo environment; horde's `greedy`
bot plays seat 1. numpy only; run from the repository's root:

    python examples/train_rtb.py --episodes 300

It prints the learner's win rate against greedy every `--every` episodes, then the win
rate of the trained policy (its likeliest action) and of a uniformly random one over the
same evaluation games.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from engine.adapters.pettingzoo import env, policy  # noqa: E402

LEARNER = "player_0"


def features(obs: np.ndarray) -> np.ndarray:
    """The tensor squashed into -1..1 (counts and distances grow past one-hot's 1)."""
    return obs / (1.0 + np.abs(obs))


class Softmax:
    """A linear softmax policy over legal action ids."""

    def __init__(self, n_obs: int, n_actions: int):
        self.W = np.zeros((n_actions, n_obs))
        self.b = np.zeros(n_actions)

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        z = self.W @ x + self.b
        z = np.where(mask, z, -np.inf)
        z = np.exp(z - z[mask].max())
        return z / z.sum()


def play(e, pi: Softmax | None, opponent, rng, seed: int, explore: bool = True):
    """One game from `e.reset(seed=seed)`: the learner's (x, mask, probs, action) steps,
    and its return. `pi` None plays uniformly at random; `explore` False its likeliest."""
    e.reset(seed=seed)
    steps, ret = [], 0.0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            if agent == LEARNER:
                ret = float(reward)
            e.step(None)
            continue
        if agent != LEARNER:
            e.step(opponent(agent, obs))
            continue
        mask = obs["action_mask"].astype(bool)
        x = features(obs["observation"])
        if pi is None:
            p = mask / mask.sum()
        else:
            p = pi.probs(x, mask)
        a = int(rng.choice(len(p), p=p)) if explore or pi is None else int(np.argmax(p))
        steps.append((x, p, a))
        e.step(a)
    return steps, ret


def train(episodes: int = 300, lr: float = 0.05, seed: int = 0, every: int = 100,
          evaluate: int = 100, out=print) -> dict:
    """REINFORCE for `episodes` games; returns the figures it printed."""
    e = env("roll-them-bones", players=2)
    greedy = policy(e, "greedy", seed=seed)
    rng = np.random.default_rng(seed)
    n_obs = e.observation_space(LEARNER)["observation"].shape[0]
    pi = Softmax(n_obs, e.action_space(LEARNER).n)
    baseline, wins, decisions = 0.0, [], 0
    for k in range(1, episodes + 1):
        steps, ret = play(e, pi, greedy, rng, seed=int(rng.integers(1 << 31)))
        decisions += len(steps)
        adv = ret - baseline
        baseline += 0.05 * (ret - baseline)
        for x, p, a in steps:  # d log p(a) / d logits = onehot(a) - p
            g = -p
            g[a] += 1.0
            pi.W += lr * adv * np.outer(g, x)
            pi.b += lr * adv * g
        wins.append(ret > 0)
        if k % every == 0:
            out(f"episode {k}: won {np.mean(wins[-every:]):.0%} of the last {every} against greedy")
    eval_seeds = [10_000 + i for i in range(evaluate)]
    trained = np.mean([play(e, pi, greedy, rng, s, explore=False)[1] > 0 for s in eval_seeds])
    random_ = np.mean([play(e, None, greedy, rng, s)[1] > 0 for s in eval_seeds])
    out(f"after {episodes} games ({decisions} decisions): the trained policy wins "
        f"{trained:.0%} of {evaluate} games against greedy, a random one {random_:.0%}")
    return {"decisions": decisions, "trained": float(trained), "random": float(random_)}


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--episodes", type=int, default=300, help="training games")
    ap.add_argument("--lr", type=float, default=0.05, help="learning rate")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--every", type=int, default=100, help="print the win rate this often")
    ap.add_argument("--evaluate", type=int, default=100, help="evaluation games")
    return ap


def main(argv=None) -> None:
    a = parser().parse_args(argv)
    train(a.episodes, a.lr, a.seed, a.every, a.evaluate)


if __name__ == "__main__":
    main()
