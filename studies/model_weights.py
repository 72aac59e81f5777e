"""A learned model vector (``simulator.core.learned``) as weights on standardised features, and back.

The fits of ``studies.train`` and ``studies.choices`` work on features
standardised by a mean and a scale per feature; the model vector the players
read takes the raw features. ``standardised`` and ``raw`` convert between the
two, folding the standardisation into the first layer (the weights of a
linear model):

* linear: ``theta = [bias, w...]``;
* a network of ``hidden`` units: ``theta = [w1 (hidden x features, by row), b1, w2, b2]``
  (``network_parts`` splits it).
"""

import numpy as np

from simulator.core.learned import LINEAR, M_FEATURES, M_HIDDEN, M_KIND, M_WEIGHTS, model_size


def network_parts(theta, n_features, hidden):
    """``(w1, b1, w2, b2)`` of a network's weights ``theta``: views, ``w1`` of shape (hidden, features)."""
    cut = hidden * n_features
    return theta[:cut].reshape(hidden, n_features), theta[cut:cut + hidden], theta[cut + hidden:cut + 2 * hidden], \
        theta[-1]


def standardised(model, mean, scale):
    """The weights ``theta`` of ``model`` on features standardised as ``(features - mean) / scale``: the same
    values on the standardised features as ``model`` gives on the raw ones."""
    kind, nf, hidden = int(model[M_KIND]), int(model[M_FEATURES]), int(model[M_HIDDEN])
    w = np.asarray(model[M_WEIGHTS:], np.float64)
    if kind == LINEAR:
        return np.concatenate([[w[0] + w[1:] @ mean], w[1:] * scale])
    w1, b1, w2, b2 = network_parts(w, nf, hidden)
    return np.concatenate([(w1 * scale).ravel(), b1 + w1 @ mean, w2, [b2]])


def raw(kind, n_features, hidden, theta, mean, scale):
    """The model vector of design ``kind`` (``hidden`` units; 0 for linear) whose values on the raw features are
    those of the weights ``theta`` on the standardised ones (the inverse of ``standardised``)."""
    head = [kind, n_features, hidden]
    if kind == LINEAR:
        w = theta[1:] / scale
        model = np.concatenate([head, [theta[0] - w @ mean], w])
    else:
        w1, b1, w2, b2 = network_parts(theta, n_features, hidden)
        w1 = w1 / scale
        model = np.concatenate([head, w1.ravel(), b1 - w1 @ mean, w2, [b2]])
    assert model.size == model_size(kind, n_features, hidden)
    return model
