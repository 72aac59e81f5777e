"""Warm-started fits (``studies.train.fit``'s ``start``, ``playtest train --warm-start``): a fit that begins at
the kept model keeps what it knew of positions the new rows do not cover, and a fresh fit does not."""

import numpy as np
import pytest

from simulator.core.learned import LINEAR, M_WEIGHTS, TANH, model_size
from studies.train import fit
from strategies.learned import weights_path
from cli_support import assert_refused, invoke, tree
from test_learned import numpy_value

N_FEATURES, COVERED = 8, 4   # the new rows vary the first COVERED features only; the rest stay at 0


def start_model(kind, hidden, seed):
    rng = np.random.default_rng(seed)
    model = np.concatenate([[kind, N_FEATURES, hidden], rng.normal(0, 0.5, model_size(kind, N_FEATURES, hidden) - 3)])
    model[M_WEIGHTS] = 0.25
    return model


def rows(model, count, seed, covered=COVERED):
    """``count`` feature rows varying the first ``covered`` features, and ``model``'s values there."""
    x = np.zeros((count, N_FEATURES))
    x[:, :covered] = np.random.default_rng(seed).normal(0, 1, (count, covered))
    return x, np.array([numpy_value(model, r) for r in x])


def test_a_warm_linear_fit_on_the_starting_models_own_values_returns_it():
    start = start_model(LINEAR, 0, 1)
    x, y = rows(start, 40, 2)
    np.testing.assert_allclose(fit(x, y, start=start), start, atol=1e-9)


def test_a_warm_linear_fit_pulls_toward_the_start_and_a_fresh_one_toward_zero():
    """On few noisy rows of a model near the start, the warm fit's weights are nearer the truth than a fresh
    fit's, and on the features the rows never vary it keeps the start's weights exactly (a fresh fit has 0)."""
    start = start_model(LINEAR, 0, 3)
    truth = start.copy()
    truth[M_WEIGHTS + 1:M_WEIGHTS + 1 + COVERED] += 0.1
    x, y = rows(truth, 12, 4)
    y = y + np.random.default_rng(5).normal(0, 0.3, y.size)
    warm, fresh = fit(x, y, start=start), fit(x, y)
    uncovered = slice(M_WEIGHTS + 1 + COVERED, None)
    np.testing.assert_allclose(warm[uncovered], start[uncovered])
    assert np.all(fresh[uncovered] == 0)
    assert np.abs(warm - truth)[M_WEIGHTS:].sum() < np.abs(fresh - truth)[M_WEIGHTS:].sum()


def test_a_warm_network_keeps_the_starting_models_values_where_the_rows_do_not_reach():
    """A network fitted to its own values on rows that vary half the features: warm-started, it still values
    rows that vary the other half about as the start does; fitted fresh, it does not (random weights there)."""
    hidden = 6
    start = start_model(TANH, hidden, 6)
    x, y = rows(start, 600, 7)
    warm, fresh = fit(x, y, start=start), fit(x, y, "tanh", hidden)
    assert warm[2] == hidden and fresh.size == warm.size
    unseen = np.random.default_rng(8).normal(0, 1, (200, N_FEATURES))
    truth = np.array([numpy_value(start, r) for r in unseen])
    warm_error = np.abs([numpy_value(warm, r) for r in unseen] - truth).mean()
    fresh_error = np.abs([numpy_value(fresh, r) for r in unseen] - truth).mean()
    assert warm_error < 0.5 * fresh_error, (warm_error, fresh_error)
    assert warm_error < 0.25 * truth.std(), (warm_error, truth.std())


def test_a_warm_start_of_another_design_is_one_error_line_and_writes_nothing(tmp_path):
    before = tree(tmp_path)
    result = invoke("train", "forks", "--start", weights_path("forks"), "--warm-start", "--design", "linear",
                    "--out", tmp_path / "m.npy", "--rounds", "1", "--games", "4", "--deals", "4")
    assert_refused(result, "warm start", "tanh, 16 hidden units")
    assert tree(tmp_path) == before


@pytest.mark.parametrize("warm", [False, True])
def test_training_from_a_start_fits_in_its_design_warm_or_not(warm):
    """Nim's shipped model is linear: with --start and no --design, every round's fit is linear too."""
    from playtest import api

    start = np.load(weights_path("nim"))
    result = api.train("nim", seed=3, rounds=2, games=10, budget=8, deals=10, start=start, warm=warm)
    assert all(r.model[0] == LINEAR and r.model.size == start.size for r in result.info["training"].rounds)
    assert ("warm=True" in result.info["provenance"]["command"]) == warm


@pytest.mark.parametrize("warm", [False, True])
def test_ctrl_c_during_a_network_fit_stops_the_fit(monkeypatch, warm):
    """scikit-learn's MLP catches KeyboardInterrupt in its epochs, warns and returns; ``fit`` raises it again,
    so Ctrl-C stops a training run rather than letting it go on with a cut-short model."""
    from sklearn.neural_network import MLPRegressor

    start = start_model(TANH, 4, 9)
    x, y = rows(start, 300, 10)
    epochs = []

    def interrupt(self, *args):
        epochs.append(1)
        if len(epochs) > (2 if warm else 1):   # after the warm start's one-epoch set-up
            raise KeyboardInterrupt

    monkeypatch.setattr(MLPRegressor, "_update_no_improvement_count", interrupt)
    with pytest.raises(KeyboardInterrupt):
        fit(x, y, "tanh", 4, start=start if warm else None)
