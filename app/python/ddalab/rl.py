"""Reinforcement learning over ddalab: the environment player as a Gymnasium environment.

``EnvironmentEnv`` follows the Gymnasium API (``reset``, ``step``, ``action_space``,
``observation_space``, ``render``, ``close``) without depending on gymnasium: when gymnasium is
importable it subclasses ``gymnasium.Env`` and uses its spaces, otherwise the small stand-ins
``Discrete`` and ``Box`` below. The agent is the environment player; the regular seats are played
by the experiment's C++ players. docs/python.md ("Reinforcement learning") is the guide.
"""
import numbers

import numpy as np

from . import _ddalab

try:  # optional: the environment is a gymnasium.Env when gymnasium is there
    import gymnasium as _gymnasium
    from gymnasium import spaces as _gym_spaces
except ImportError:  # not a Debian package: the stand-ins below keep the same contract
    _gymnasium = None
    _gym_spaces = None

__all__ = ["EnvironmentEnv", "Discrete", "Box", "default_max_outcomes", "GYMNASIUM"]

# Whether the spaces and the base class are gymnasium's (True) or this module's stand-ins.
GYMNASIUM = _gymnasium is not None


class Discrete:
    """Stand-in for gymnasium.spaces.Discrete: the integers 0 .. n - 1."""

    def __init__(self, n, seed=None):
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
            raise ValueError(f"Discrete(n): expected a positive integer, got {n!r}")
        self.n = int(n)
        self.shape = ()
        self.dtype = np.dtype(np.int64)
        self._rng = np.random.default_rng(seed)

    def seed(self, seed=None):
        self._rng = np.random.default_rng(seed)

    def sample(self, mask=None):
        """A uniform draw, among the ones `mask` (int8 of length n) marks when given."""
        if mask is None:
            return np.int64(self._rng.integers(self.n))
        allowed = np.flatnonzero(np.asarray(mask) == 1)
        if len(np.asarray(mask)) != self.n or len(allowed) == 0:
            raise ValueError(f"Discrete.sample(mask): expected n = {self.n} flags, some 1")
        return np.int64(self._rng.choice(allowed))

    def contains(self, x):
        if isinstance(x, (bool, np.bool_)):
            return False
        if isinstance(x, np.ndarray):
            if x.shape != () or not np.issubdtype(x.dtype, np.integer):
                return False
            x = x.item()
        return isinstance(x, numbers.Integral) and 0 <= int(x) < self.n

    __contains__ = contains

    def __repr__(self):
        return f"Discrete({self.n})"


class Box:
    """Stand-in for gymnasium.spaces.Box: arrays of `shape` and `dtype` within [low, high]."""

    def __init__(self, low, high, shape, dtype=np.float32, seed=None):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.low = np.full(self.shape, low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype)
        self._rng = np.random.default_rng(seed)

    def seed(self, seed=None):
        self._rng = np.random.default_rng(seed)

    def sample(self):
        """As gymnasium's unbounded Box: a standard normal draw (clipped to the bounds)."""
        draw = self._rng.standard_normal(self.shape)
        return np.clip(draw, self.low, self.high).astype(self.dtype)

    def contains(self, x):
        if not isinstance(x, np.ndarray):
            return False
        return (x.shape == self.shape and np.can_cast(x.dtype, self.dtype)
                and bool(np.all(x >= self.low)) and bool(np.all(x <= self.high)))

    __contains__ = contains

    def __repr__(self):
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"


def default_max_outcomes(game):
    """K for `game` (a ddalab.Game): the most outcomes one environment node of it can offer, as
    the game declares it from its rules and parameters (``Game.max_chance_outcomes()``, not from
    playouts, which can miss a rare node); None when the game (a plug-in) declares no bound."""
    return game.max_chance_outcomes()


def _check_count(value, name, minimum, maximum=2**64 - 1):
    if value is None:
        return None
    if (isinstance(value, bool) or not isinstance(value, numbers.Integral)
            or not minimum <= value <= maximum):
        raise ValueError(f"{name}: expected an integer in {minimum}..{maximum} or None, "
                         f"got {value!r}")
    return int(value)


_Base = _gymnasium.Env if GYMNASIUM else object


class EnvironmentEnv(_Base):
    """The environment player of `game` as a Gymnasium environment.

    Parameters: `game` a catalog id (or a ddalab.Game, whose params are then used), `players`
    the regular seats as in a batch file (list of ids or {"id": ..., ...}), `coefficients` F's
    weights ({metric key: weight}), `game_params` the game's parameters, `max_rounds` an episode
    cut (truncated = True once the game has completed that many rounds at an agent decision;
    None: the game's own end only), `seed` the seed of the games dealt by ``reset()`` without a
    seed, `max_outcomes` K (default: the game's bound from its rules, ``default_max_outcomes``),
    `invalid_action` what an action outside the mask does: "raise" (ValueError, the default) or
    "natural" (the outcome is drawn by its natural probability, as e-random draws it, and
    ``info["invalid_action"]`` is True): agents and checkers that sample the whole action space
    without the mask (gymnasium's ``check_env``) then work in games whose nodes have fewer than K
    outcomes.

    Action i = the i-th outcome of the current environment node in the game's order
    (``State.chance_outcomes()``); ``info["action_mask"]`` marks the valid ones; an invalid action
    raises ValueError (or is drawn naturally: `invalid_action`). Reward = the change of F (``State.fun(coefficients)``) since the previous
    agent decision, F before the first being 0: an episode's return is the game's F at its end.
    Observation = ``State.features()`` followed by the K natural probabilities of the outcomes
    (0 where no outcome), as float32.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game, players, coefficients, game_params=None, max_rounds=None,
                 seed=None, max_outcomes=None, render_mode=None, invalid_action="raise"):
        if isinstance(game, _ddalab.Game):
            if game_params is not None:
                raise ValueError("game_params: give them in the ddalab.Game or here, not both")
            game, game_params = game.id, game.params
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: expected None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        if invalid_action not in ("raise", "natural"):
            raise ValueError("invalid_action: expected 'raise' or 'natural', "
                             f"got {invalid_action!r}")
        self.invalid_action = invalid_action
        if isinstance(players, (str, dict)) or not hasattr(players, "__iter__"):
            raise ValueError(f"players: expected a list of player ids or objects, got {players!r}")
        self.experiment = _ddalab.Experiment({
            "game": {"id": game, "params": {} if game_params is None else game_params},
            "players": [{"id": p} if isinstance(p, str) else p for p in players],
            "environment": {"id": "e-random"},
            "coefficients": coefficients,
        })
        self.game = self.experiment.game
        self.coefficients = self.experiment.coefficients
        self.max_rounds = _check_count(max_rounds, "max_rounds", 1)
        seed = _check_count(seed, "seed", 0)
        self.max_outcomes = _check_count(max_outcomes, "max_outcomes", 1)
        if self.max_outcomes is None:
            self.max_outcomes = default_max_outcomes(self.game)
        if self.max_outcomes is None:
            raise ValueError(f"max_outcomes: game {self.game.id!r} has no known bound on its "
                             "outcomes per environment node; give it")
        spaces = _gym_spaces if GYMNASIUM else None
        self.num_features = len(self.game.new_initial_state(0).features())
        shape = (self.num_features + self.max_outcomes,)
        self.action_space = (spaces.Discrete(self.max_outcomes) if spaces
                             else Discrete(self.max_outcomes))
        self.observation_space = (spaces.Box(-np.inf, np.inf, shape, np.float32) if spaces
                                  else Box(-np.inf, np.inf, shape, np.float32))
        self._seeds = np.random.default_rng(seed)
        self.state = None  # the game being played (a ddalab.State), after reset()
        self.lineup = None
        self._outcomes = []
        self._fun = 0.0

    # ---- the Gymnasium API ----

    def reset(self, seed=None, options=None):
        """Deals the game of `seed` (the runner's game of that seed) with fresh seats' players
        and plays up to the first environment node. Without a seed, the next game seed comes
        from the generator seeded by the constructor's `seed` (or by the last reset's seed)."""
        seed = _check_count(seed, "seed", 0)
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"options: expected a dict or None, got {options!r}")
        if GYMNASIUM:
            super().reset(seed=seed)
        if seed is None:
            seed = int(self._seeds.integers(0, 2**63))
        else:  # later seedless resets continue from this seed, as gymnasium's np_random does
            self._seeds = np.random.default_rng(seed)
        self.state = self.game.new_initial_state(seed)
        self.lineup = self.experiment.lineup()
        self._fun = 0.0
        self._advance()
        if self.state.is_terminal():
            raise RuntimeError(f"game {self.game.id!r} of seed {seed} ended before any "
                               "environment node: nothing for the environment player to do")
        return self._observation(), self._info(self.state.fun(self.coefficients))

    def step(self, action):
        """Applies the outcome `action` (its index among the node's outcomes), lets the seats
        play to the next environment node or the end; returns (obs, reward, terminated,
        truncated, info)."""
        if self.state is None:
            raise RuntimeError("step() before reset()")
        if self.state.is_terminal() or self._truncated():
            raise RuntimeError("step() after the episode ended: call reset()")
        index, invalid = self._checked_action(action)
        self.state.apply(self._outcomes[index][0])
        self._advance()
        fun = self.state.fun(self.coefficients)
        reward = fun - self._fun
        self._fun = fun
        terminated = self.state.is_terminal()
        truncated = not terminated and self._truncated()
        info = self._info(fun)
        info["invalid_action"] = invalid
        return self._observation(), float(reward), terminated, truncated, info

    def render(self):
        """The state as text ('ansi'); None without a render mode."""
        if self.render_mode == "ansi" and self.state is not None:
            return self.state.to_string()
        return None

    def close(self):
        self.state = None
        self.lineup = None
        self._outcomes = []

    # ---- helpers for policies ----

    def outcomes(self):
        """The current node's (outcome, natural probability) pairs, action i being the i-th."""
        return list(self._outcomes)

    def action_mask(self):
        mask = np.zeros(self.max_outcomes, dtype=np.int8)
        mask[:len(self._outcomes)] = 1
        return mask

    def natural_action(self):
        """The action the experiment's e-random environment player takes here: drawn by the
        natural probabilities from the game's own natural-chance stream, so an episode played
        by it is the runner's e-random game of the same seed."""
        chosen = self.lineup.choose(self.state)
        return next(i for i, (a, _) in enumerate(self._outcomes) if a == chosen)

    # ---- inside ----

    def _advance(self):
        """The seats play until an environment node or the end."""
        state, lineup = self.state, self.lineup
        while not state.is_terminal() and not state.is_environment_node():
            state.apply(lineup.choose(state))
        self._outcomes = state.chance_outcomes()
        if len(self._outcomes) > self.max_outcomes:
            raise RuntimeError(f"an environment node of {self.game.id!r} offers "
                               f"{len(self._outcomes)} outcomes, more than max_outcomes = "
                               f"{self.max_outcomes}: give a larger max_outcomes")

    def _truncated(self):
        return self.max_rounds is not None and self.state.rounds() >= self.max_rounds

    def _checked_action(self, action):
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, numbers.Integral):
            raise ValueError(f"step({action!r}): expected an integer action")
        if not 0 <= action < len(self._outcomes):
            if self.invalid_action == "natural" and 0 <= action < self.max_outcomes:
                return self.natural_action(), True
            raise ValueError(f"step({action}): this node has {len(self._outcomes)} outcomes "
                             f"(valid actions 0..{len(self._outcomes) - 1}; see "
                             "info['action_mask'])")
        return int(action), False

    def _observation(self):
        features = self.state.features()
        if len(features) != self.num_features:
            raise RuntimeError(f"{self.game.id!r}: State.features() gave {len(features)} "
                               f"numbers, expected {self.num_features} (fixed per game)")
        obs = np.zeros(self.num_features + self.max_outcomes, dtype=np.float32)
        obs[:self.num_features] = features
        for i, (_, probability) in enumerate(self._outcomes):
            obs[self.num_features + i] = probability
        return obs

    def _info(self, fun):
        return {
            "action_mask": self.action_mask(),
            "outcomes": [a for a, _ in self._outcomes],
            "fun": fun,
            "rounds": self.state.rounds(),
            "seed": self.state.seed,
        }

