#!/usr/bin/env python3
"""The trained Manila policy as a referee bot (``train.py`` writes its weights).

    python3 examples/manila_policy/bot.py [--weights FILE]

``--weights`` defaults to ``runs/manila_policy.npz`` under the repository root.

It computes the same observation tensor and action ids as the bindings from the
view and legal actions the referee sends, and plays the most likely legal id.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from referee.botkit import Bot, run

ROOT = Path(__file__).resolve().parents[2]


class PolicyBot(Bot):
    """Plays the policy's most likely legal action."""

    name = "manila-linear-policy"

    def __init__(self, weights: Path) -> None:
        self.weights = weights

    def on_start(self) -> None:
        from examples.manila_policy.policy import LinearPolicy
        from referee.interop.encoding import action_codec, tensor_size

        self.policy = LinearPolicy.load(self.weights)
        self.codec = action_codec(self.game)
        self.size = tensor_size(self.game)

    def choose(self, view: Any, legal: list[Any], events: list[Any]) -> int:
        import numpy as np

        from referee.interop.encoding import view_tensor

        ids = [self.codec.encode(None, a) for a in legal]  # type: ignore[arg-type]
        mask = np.zeros(self.codec.num_actions, np.int8)
        mask[ids] = 1
        chosen = self.policy.best(view_tensor(view, self.size), mask)
        return ids.index(chosen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weights", type=Path, default=ROOT / "runs" / "manila_policy.npz")
    args = parser.parse_args()
    run(PolicyBot(args.weights.resolve()))


if __name__ == "__main__":
    main()
