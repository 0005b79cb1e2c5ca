"""PettingZoo AEC environments of the referee's games (``pip install -e '.[interop]'``).

``env("<game>", players=4, **options)`` returns a :class:`RefereeEnv`:

* agents ``player_0 .. player_{N-1}`` (seat order); the agent to act is the seat to
  move, so turns follow the game's own order (not a fixed rotation);
* observations ``{"observation": float32[S], "action_mask": int8[A]}``: the hashed
  tensor of the seat's protocol view (:func:`referee.interop.encoding.view_tensor`,
  ``S`` = :func:`~referee.interop.encoding.tensor_size`) and 1 for each legal action id
  (:func:`~referee.interop.encoding.action_codec`, ``A`` ids; all 0 when the agent is
  not to move); actions are ``Discrete(A)``;
* chance is resolved inside ``reset`` and ``step`` from the generator the referee uses,
  ``referee.api.rng.match_rng(seed, "chance")`` for ``reset(seed=seed)``, so the same seed
  and the same moves give the same game as ``referee play --seed``;
* rewards are 0 until the end, then ``score + 0.001 * (seats - rank)`` (as OpenSpiel's
  ``returns()``, :mod:`referee.interop.openspiel`); ``max_plies`` (0: none) truncates
  the game after that many plies, with the same rewards of the unfinished position;
* ``render_mode="ansi"``: ``render()`` returns a text of the position; ``"html"``:
  ``render()`` writes the viewer page of the episode so far at ``html_path`` (as
  ``referee view`` draws a record) and returns its path.

Raises :class:`referee.api.engine.OptionError` for a bad seat count or option, and
:class:`~referee.interop.encoding.ActionIdError` for an action id that is not legal.
"""

from __future__ import annotations

import secrets
import tempfile
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from referee.api.engine import CHANCE, TERMINAL
from referee.api.rng import KEYED, match_rng
from referee.games import get_game
from referee.interop.encoding import action_codec, tensor_size, view_tensor, view_text
from referee.interop.episode import Episode

TIE_NUDGE = 0.001
"""Per rank step added to the final scores in the rewards."""


def env(
    game: str,
    players: int = 4,
    render_mode: str | None = None,
    *,
    max_plies: int = 0,
    html_path: str = "episode.html",
    **options: Any,
) -> RefereeEnv:
    """An AEC environment of ``game`` (a name of ``referee games``) for ``players``
    seats and the game's ``options`` (``--option`` names and values)."""
    return RefereeEnv(
        game, players, render_mode=render_mode, max_plies=max_plies, html_path=html_path, **options
    )


class RefereeEnv(AECEnv):
    """The AEC environment of one game, seat count and option set (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "html"],
        "name": "referee",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int = 4,
        *,
        render_mode: str | None = None,
        max_plies: int = 0,
        html_path: str = "episode.html",
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = get_game(game)
        self.game.check_seats(players)
        self.seats = players
        self.options = self.game.parse_options(options)
        self.codec = action_codec(self.game)
        self.size = tensor_size(self.game)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of ansi, html, not {render_mode!r}")
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.html_path = html_path
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), np.int8),
            }
        )
        self._observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self._action_spaces = {
            a: spaces.Discrete(self.codec.num_actions) for a in self.possible_agents
        }
        self.seed: int | None = None
        self.episode: Episode | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``Dict(observation=Box(float32[S]), action_mask=Box(int8[A]))``."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(A)``: the game's action ids."""
        return self._action_spaces[agent]

    # -- episode ---------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` (default: a random one) keys its chance."""
        self.seed = int(seed) if seed is not None else secrets.randbits(63)
        self._chance = match_rng(self.seed, "chance", KEYED)
        self.episode = Episode(self.game, self.seats, self.options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()

    def _advance(self) -> None:
        """Resolve chance, then select the seat to move or end the game."""
        ep = self.episode
        assert ep is not None
        state = ep.state
        while state.to_move() == CHANCE and not self._cut():
            ep.chance(state.sample_chance(self._chance))
        who = state.to_move()
        if who == TERMINAL or self._cut():
            ended = self.terminations if who == TERMINAL else self.truncations
            scores, ranks = state.scores(), state.ranks()
            for s, agent in enumerate(self.possible_agents):
                ended[agent] = True
                self.rewards[agent] = float(scores[s]) + TIE_NUDGE * (self.seats - ranks[s])
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[who]

    def _cut(self) -> bool:
        ep = self.episode
        return bool(self.max_plies) and ep is not None and ep.ply >= self.max_plies

    def step(self, action: Any) -> None:
        """Play action id ``action`` for the selected agent (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        ep = self.episode
        assert ep is not None
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        ep.move(self.codec.decode(ep.state, int(action)))
        self._advance()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: view tensor and action mask."""
        ep = self.episode
        assert ep is not None
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(self.codec.num_actions, np.int8)
        state = ep.state
        if state.to_move() == seat and not self._cut():
            mask[self.codec.legal_ids(state)] = 1
        return {"observation": view_tensor(state.view(seat), self.size), "action_mask": mask}

    def render(self) -> str | None:
        """``ansi``: the position as text; ``html``: write the viewer page, return its
        path; no render mode: ``None``."""
        ep = self.episode
        if self.render_mode is None or ep is None:
            return None
        if self.render_mode == "html":
            with tempfile.TemporaryDirectory() as tmp:
                record = ep.write_record(Path(tmp) / "episode.jsonl", seed=self.seed)
                from referee.viewer import write_viewer

                return str(write_viewer(record, self.html_path))
        state = ep.state
        who = state.to_move()
        lines = [f"{self.game.title}, {self.seats} seats, seed {self.seed}, ply {ep.ply}"]
        if ep.lines:
            last = ep.lines[-1]
            lines.append(f"last ply: {view_text(last)}")
        if who == TERMINAL or self._cut():
            lines.append(f"scores: {state.scores()} ranks: {state.ranks()}")
        else:
            lines.append(f"to move: player_{who}")
            lines.append(f"view of player_{who}: {view_text(state.view(who))}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""
