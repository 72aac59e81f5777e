"""Training data for the learned model: games played by any lineup, with every decision's features recorded.

``record_games`` is a template that ``simulator.core.kernels.bind_recorder``
binds per engine, like the game loop (``play_game``, whose decisions it makes
the same way: the search, the learned player or the strategy dispatcher).
After every decision it writes the features of what the seat that moved
then observes (the position the learned player scores when it considers
that move), and after the game each recorded row's target: that seat's
final win share (1/k of a k-way shared win).
"""

import numpy as np

from simulator.core.learned import win_shares
from simulator.core.state import is_terminal, to_move


def record_games(arrays, sids, params, seed, start, count, feats, game_of, seat_of, target, scores, standing,
                 seat_stats, game_stats):
    """Kernel template: play games ``start .. start+count-1`` of run ``seed`` one after another; return the rows.

    Row r holds ``feats[r, :N_FEATURES]`` (the features of seat
    ``seat_of[r]`` right after its move in game ``game_of[r]``; decisions
    that end the game are not recorded) and ``target[r]``, that seat's win
    share of the game. ``scores``... are one game's output rows. Returns -1
    when ``feats`` has too few rows (call again with more), or -(2+seat)
    when that seat's strategy chose illegally.
    """
    state = new_state(arrays, params)  # noqa: F821 (bound)
    buf = new_search(arrays, params, sids)  # noqa: F821 (bound)
    lbuf = buf[-1]
    obs, feat, share = lbuf[2], lbuf[3], lbuf[7]
    no_trace = np.empty(0, np.int64)
    row = 0
    for k in range(start, start + count):
        first = row
        reset(state, arrays, seed, k, no_trace, False)  # noqa: F821 (bound)
        while not is_terminal(state):
            p = to_move(state)
            if sids[p] == SEARCH_SID:  # noqa: F821 (bound)
                action = search(state, arrays, sids, params, buf, scores, standing, seat_stats,  # noqa: F821
                                game_stats)
            elif sids[p] == LEARNED_SID:  # noqa: F821 (bound)
                action = learned_player(state, arrays, sids, params, buf, scores, standing,  # noqa: F821
                                        seat_stats, game_stats)
            else:
                action = choose(state, arrays, sids, params)  # noqa: F821 (bound)
            if action < 0:
                return -(2 + p)
            apply(state, arrays, action, no_trace, False)  # noqa: F821 (bound)
            if is_terminal(state):
                break
            if row == feats.shape[0]:
                return -1
            observe(state, arrays, p, obs)  # noqa: F821 (bound)
            features(obs, feat)  # noqa: F821 (bound)
            for j in range(feat.size):
                feats[row, j] = feat[j]
            game_of[row], seat_of[row] = k, p
            row += 1
        result(state, arrays, scores, standing, seat_stats, game_stats)  # noqa: F821 (bound)
        win_shares(standing, share)
        for r in range(first, row):
            target[r] = share[seat_of[r]]
    return row
