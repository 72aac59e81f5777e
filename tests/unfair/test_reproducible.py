"""Trial i of seed s is the same whatever the number of threads."""

import numba
import numpy as np
import pytest

from simulator.unfair import fame, gems, panoramas, wishing_well
from simulator.unfair.setup import load_setup


def raw(study, seed):
    setup = load_setup()
    if study is panoramas:
        cfg = panoramas.panoramas_config(setup)
        return [panoramas.simulate_kernel(seed, 700, 8, np.asarray(cfg.lengths, np.int64),
                                          (cfg.spaces, cfg.other_attractions, cfg.skip_cost),
                                          (cfg.partial, cfg.complete, cfg.vistas_penalty)).sum(axis=0)]
    out = study.simulate(setup, trials=700, seed=seed)
    return [x for x in out if isinstance(x, np.ndarray)]


@pytest.mark.parametrize("study", [wishing_well, fame, gems, panoramas], ids=lambda m: m.__name__.split(".")[-1])
def test_same_results_on_one_and_two_threads(study):
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = raw(study, 21)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = raw(study, 21)
    finally:
        numba.set_num_threads(before)
    other_seed = raw(study, 22)
    for a, b, c in zip(one, two, other_seed):
        np.testing.assert_array_equal(a, b)
    assert any(not np.array_equal(a, c) for a, c in zip(one, other_seed))
