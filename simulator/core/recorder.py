"""Training data for the learned model: games played by any lineup, with the positions the learned player scores.

``record_games`` is a template that ``simulator.core.kernels.bind_recorder``
binds per engine, like the game loop (``play_game``, whose decisions it makes
the same way: the search, the learned player or the strategy dispatcher).
It records the features of what a seat observes where a player evaluates
it, as ``positions`` says:

* ``AT_DECISION`` (the learned player, ``simulator.core.learned.learned_move``,
  looks ahead to its seat's next decision): at every decision of a seat,
  before it moves, what that seat then observes;
* ``AFTER_MOVE`` (the learned player scores the position right after its
  move): after every decision that does not end the game, what the seat
  that moved then observes;
* ``EVERY_SEAT`` (the search's learned leaf, ``leaf_shares``, scores every
  seat at the position after any move, mid-trick included): after every
  decision that does not end the game, what each seat then observes, one
  row per seat.

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

AFTER_MOVE, AT_DECISION, EVERY_SEAT = 0, 1, 2   # where record_games records (``positions``)


def record_games(arrays, sids, params, seed, start, count, positions, rows, outputs):
    """Kernel template: play games ``start .. start+count-1`` of run ``seed`` one after another; return the rows.

    ``rows`` is the record ``(feats, game_of, seat_of, target)``: row r
    holds ``feats[r, :N_FEATURES]`` (the features of what seat
    ``seat_of[r]`` observes in game ``game_of[r]`` at one of the
    ``positions``: ``AT_DECISION``, ``AFTER_MOVE`` or ``EVERY_SEAT``, see
    the module) and ``target[r]``, that seat's win share of the game.
    ``outputs`` is the record ``(scores, standing, seat_stats, game_stats)``
    of one game's output rows, written by each game in turn.
    Returns -1 when ``feats`` has too few rows (call again with more), or
    -(2+seat) when that seat's strategy chose illegally.
    """
    feats, game_of, seat_of, target = rows
    scores, standing, seat_stats, game_stats = outputs
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
            if is_terminal(state):
                break
            if positions == EVERY_SEAT:
                lo, hi = 0, (sids.size if mover >= 0 else 0)
            else:
                seat = to_move(state) if positions == AT_DECISION else mover
                lo, hi = seat, (seat + 1 if seat >= 0 else seat)
            for p in range(lo, hi):
                if row == feats.shape[0]:
                    return -1
                observe(state, arrays, p, obs)
                features(obs, feat)
                for j in range(feat.size):
                    feats[row, j] = feat[j]
                game_of[row], seat_of[row] = k, p
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

