"""A linear softmax policy over the bindings' observation tensor and action ids."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np


def features(observation: Any) -> Any:
    """The tensor, squashed (``sign(x) * log1p(|x|)``) so that pesos and flags mix."""
    x = np.asarray(observation, dtype=np.float64)
    return np.sign(x) * np.log1p(np.abs(x))


class LinearPolicy:
    """``p(a) ∝ exp(w[a] · features(obs))`` over the legal ids (``mask`` 1)."""

    def __init__(self, size: int, actions: int, weights: Any = None) -> None:
        self.w = np.zeros((actions, size)) if weights is None else np.asarray(weights)

    def probabilities(self, observation: Any, mask: Any) -> tuple[Any, Any]:
        """(legal ids, their probabilities)."""
        legal = np.flatnonzero(mask)
        logits = self.w[legal] @ features(observation)
        logits -= logits.max()
        p = np.exp(logits)
        return legal, p / p.sum()

    def sample(self, observation: Any, mask: Any, rng: np.random.Generator) -> int:
        """A legal id drawn from the policy."""
        legal, p = self.probabilities(observation, mask)
        return int(rng.choice(legal, p=p))

    def best(self, observation: Any, mask: Any) -> int:
        """The most likely legal id."""
        legal, p = self.probabilities(observation, mask)
        return int(legal[int(np.argmax(p))])

    def reinforce(self, observation: Any, mask: Any, action: int, step: float) -> None:
        """One REINFORCE step: ``w += step * grad log p(action)``."""
        legal, p = self.probabilities(observation, mask)
        x = features(observation)
        grad = -p[:, None] * x[None, :]
        grad[int(np.flatnonzero(legal == action)[0])] += x
        self.w[legal] += step * grad

    def save(self, path: Path) -> None:
        """Write the weights (.npz)."""
        np.savez_compressed(path, w=self.w)

    @classmethod
    def load(cls, path: Path) -> LinearPolicy:
        """Read weights written by :meth:`save`."""
        w = np.load(path)["w"]
        return cls(w.shape[1], w.shape[0], w)
