"""Training data for the learned model: games played by any lineup, with the positions the learned player scores.

``record_games`` is a template that ``simulator.core.kernels.bind_recorder``
binds per engine, like the game loop (``play_game``, whose decisions it makes
the same way: the search, the learned player or the strategy dispatcher).
It records the features of what a seat observes where the learned player
(``simulator.core.learned.learned_move``) evaluates it:

* ``at_decision`` True (the player looks ahead to its seat's next
  decision): at every decision of a seat, before it moves, what that seat
  then observes;
* ``at_decision`` False (the player scores the position right after its
  move): after every decision that does not end the game, what the seat
  that moved then observes.

After the game each recorded row gets its target: that seat's final win
share (1/k of a k-way shared win). A finished game is never recorded: the
player scores it by its real win share, not by the model.
"""

import numpy as np

from simulator.core.bound import unbound
from simulator.core.learned import win_shares
from simulator.core.state import is_terminal, to_move

# the names the templates here are bound with (simulator.core.bound)
(LEARNED_SID, SEARCH_SID, apply, choose, features, learned_player, new_search, new_state, observe, reset,
 result, search) = unbound(
    "LEARNED_SID", "SEARCH_SID", "apply", "choose", "features", "learned_player", "new_search", "new_state",
    "observe", "reset", "result", "search")


def record_games(arrays, sids, params, seed, start, count, at_decision, feats, game_of, seat_of, target, scores,
                 standing, seat_stats, game_stats):
    """Kernel template: play games ``start .. start+count-1`` of run ``seed`` one after another; return the rows.

    Row r holds ``feats[r, :N_FEATURES]`` (the features of what seat
    ``seat_of[r]`` observes in game ``game_of[r]``: when it is to move, with
    ``at_decision``, else right after its move) and ``target[r]``, that
    seat's win share of the game. ``scores``... are one game's output rows.
    Returns -1 when ``feats`` has too few rows (call again with more), or
    -(2+seat) when that seat's strategy chose illegally.
    """
    state = new_state(arrays, params)
    buf = new_search(arrays, params, sids)
    lbuf = buf[-1]
    obs, feat, share = lbuf[2], lbuf[3], lbuf[7]
    no_trace = np.empty(0, np.int64)
    row = 0
    for k in range(start, start + count):
        first = row
        reset(state, arrays, seed, k, no_trace, False)
        mover = -1
        while True:
            seat = to_move(state) if at_decision else mover
            if is_terminal(state):
                break
            if seat >= 0:
                if row == feats.shape[0]:
                    return -1
                observe(state, arrays, seat, obs)
                features(obs, feat)
                for j in range(feat.size):
                    feats[row, j] = feat[j]
                game_of[row], seat_of[row] = k, seat
                row += 1
            mover = to_move(state)
            if sids[mover] == SEARCH_SID:
                action = search(state, arrays, sids, params, buf, scores, standing, seat_stats,
                                game_stats)
            elif sids[mover] == LEARNED_SID:
                action = learned_player(state, arrays, sids, params, buf, scores, standing,
                                        seat_stats, game_stats)
            else:
                action = choose(state, arrays, sids, params)
            if action < 0:
                return -(2 + mover)
            apply(state, arrays, action, no_trace, False)
        result(state, arrays, scores, standing, seat_stats, game_stats)
        win_shares(standing, share)
        for r in range(first, row):
            target[r] = share[seat_of[r]]
    return row

