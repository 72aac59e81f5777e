"""The learned player ``learned``: one strategy in every game, played by ``simulator.core.learned``.

Like ``mcts`` it does not read an observation vector through the game's
dispatcher: the game loop hands the seat's decision to the learned player,
which determinizes the state once for its seat and scores each legal move by
a model of its seat's final win share from what it then observes. Its entry
in a game's dispatcher is that game's ``random``, a placeholder the kernels
never call for it.

Its parameter vector IS the model (``simulator.core.learned``: ``[kind,
n_features, n_hidden, weights...]``). The default is the model shipped in
the game's strategy package (``strategies/<game>/learned.npy``), which
``playtest train GAME`` reproduces from its seed (the benchmark journal, bench/journal/);
``--param learned=@FILE`` plays a model of one's own (a ``.npy`` file, or a
text file of numbers). ``mcts`` with rollout = the number of ``learned``
scores its leaves with that model instead of rolling out (its parameters
follow the horizon, the shipped model when left out).
"""

from pathlib import Path

import numpy as np

from simulator.core.learned import KINDS, M_HIDDEN, M_KIND, check_model
from strategies.games import package
from strategies.strategy import Strategy

NAME = "learned"
MODEL_FILE = "learned.npy"   # the shipped model's file in each game's strategy package


def weights_path(game):
    """Where the shipped model of ``game`` (its registry name) is: ``MODEL_FILE`` in its strategy package's
    folder (``strategies.games.package``)."""
    return Path(__file__).parent / package(game).rsplit(".", 1)[1] / MODEL_FILE


def shipped_model(game, n_features):
    """The shipped model of ``game`` as a tuple of floats (validated for ``n_features``)."""
    return tuple(float(x) for x in check_model(np.load(weights_path(game)), n_features))


def learned_strategy(placeholder, game, engine):
    """The ``learned`` built-in of ``game`` with its shipped model; ``placeholder`` (the game's ``random``) fills
    its dispatcher slot."""
    model = shipped_model(game, engine.N_FEATURES)
    design = KINDS[int(model[M_KIND])] + (f" network of {int(model[M_HIDDEN])} hidden units" if model[M_HIDDEN]
                                          else " model")
    return Strategy(NAME, placeholder, model,
                    f"scores each move by a {design} trained by expert iteration (playtest train: fitted to "
                    f"the seats' win shares or to expert's moves); params=the model, --param learned=@FILE.npy "
                    f"for your own")
