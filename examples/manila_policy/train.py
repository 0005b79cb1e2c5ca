#!/usr/bin/env python3
"""Self-play training of a linear softmax policy for Manila through the PettingZoo
binding (REINFORCE with a per-game baseline, plain NumPy), saved for ``bot.py``.

    .venv/bin/python examples/manila_policy/train.py --minutes 3 --out runs/manila_policy.npz

Each episode seats the current policy in every seat of a 3-seat game
(``referee.interop.pettingzoo.env("manila", players=3)``, seeded per episode), plays
it out, and moves each seat's action probabilities towards its own choices in
proportion to how far its final score beat the table's mean.  Prints the average
winning score every 50 episodes.  Needs the ``interop`` extra.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from examples.manila_policy.policy import LinearPolicy
from referee.interop.pettingzoo import env


def train(minutes: float, out: Path, seed: int = 0, rate: float = 0.05) -> LinearPolicy:
    """Train for ``minutes`` of wall time and save the weights at ``out`` (.npz)."""
    e = env("manila", players=3)
    policy = LinearPolicy(e.size, e.codec.num_actions)
    rng = np.random.default_rng(seed)
    deadline = time.monotonic() + 60 * minutes
    episode, winners = 0, []
    while time.monotonic() < deadline:
        e.reset(seed=seed * 1_000_003 + episode)
        steps: list[tuple[str, np.ndarray, np.ndarray, int]] = []
        for agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            action = policy.sample(obs["observation"], obs["action_mask"], rng)
            steps.append((agent, obs["observation"], obs["action_mask"], action))
            e.step(action)
        assert e.episode is not None
        scores = np.array(e.episode.state.scores(), dtype=float)
        advantage = (scores - scores.mean()) / (scores.std() + 1.0)
        for agent, observation, mask, action in steps:
            seat = int(agent.split("_")[1])
            policy.reinforce(observation, mask, action, rate * advantage[seat])
        winners.append(scores.max())
        episode += 1
        if episode % 50 == 0:
            print(f"episode {episode}: mean winning score {np.mean(winners[-50:]):.1f}", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    policy.save(out)
    print(f"{episode} episodes; weights in {out}")
    return policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--out", type=Path, default=Path("runs/manila_policy.npz"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    train(args.minutes, args.out, args.seed)


if __name__ == "__main__":
    main()
