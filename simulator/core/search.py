"""Information-set Monte Carlo tree search over the state verbs, for every game.

The player is *single-observer information-set MCTS* (SO-ISMCTS; Cowling,
Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG
4(2), 2012, algorithm 2). One tree is grown from the searching seat's
information set. Each iteration

1. copies the live state and *determinizes* it for the searching seat (the
   engine's ``determinize`` resamples everything that seat cannot see; the
   search then reseeds every random lane, chance included, from its own
   stream, so nothing hidden in the live state's streams can leak in);
2. descends the tree, at each node considering only the children whose
   move key is legal in this determinization, by UCB1 with availability
   counts (``reward / visits + c * sqrt(ln(availability) / visits)``), or,
   with a move prior (the guided search ``expert``: a ``temperature`` > 0
   after the learned model in its vector, ``prior_temperature``), by PUCT,
   ``reward / visits + c * prior * sqrt(availability) / (1 + visits)``,
   where a child's prior is the softmax at that temperature of the
   children's *first values* over the children available in this
   determinization: with the learned leaf (design A), the value its first
   iteration backed up for the seat that moved into it, i.e. the model's
   value of the position right after the move (the learned move value);
   with random rollouts (design B, ``leaf_design``), the model's value of
   that position for that seat, computed when the child is expanded;
3. expands one untried legal move key, chosen uniformly;
4. plays the game to its end with the rollout policy (uniform over legal
   actions, or a built-in heuristic for every seat; uniform in design B),
   or with ``horizon`` h >= 1 only up to the h-th evaluation point ahead
   (below); or, with the *learned leaf* (rollout = the id of ``learned``,
   design A), does not roll out:
   every seat's value of the expanded node's position, by the learned model
   of ``simulator.core.learned`` from that seat's observation, floored and
   normalised into shares (``leaf_shares``), is the iteration's result;
5. credits every node on the path with the value of the final state, from
   the standing the engine's ``result`` writes there, for the seat that
   moved into the node: with ``horizon`` 0 its win share (1/k of a k-way
   shared win, as in the results), with a horizon its rank share.

The evaluation points (only in a game whose engine declares them in
``EVALUATION_POINT``, e.g. the end of a deal or of a round)
are where an iteration may stop: the engine's ``horizon_mark``
grows by one each time play passes one, and once it has grown by
``horizon`` from its value in the searched state the iteration neither
descends the tree nor rolls out further. The standing there is the one
``result`` writes at that point (e.g. the game totals after the deal, or
the final scoring applied to the state as it stands), or at the
end of the game if it ends first. The rank
share of a seat is ``(players - 1 - rank) / (players - 1)``, rank 0 the
highest standing (1 for the leader, 0 for the last), tied seats sharing the
mean of their ranks' values. It gives the seats that do not lead a
gradient, which the win share of a standing one deal ahead does not
(the benchmark journal, bench/journal/).

Tree nodes are *move keys*, not action ids: the engine's ``move_key`` names
a legal action as any watching seat identifies it (the card played, the card
or slot bought; never a position in a hidden hand), so a node is one move as
the searching seat observes it, the node of SO-ISMCTS (see the paper, 4.2).
At each node of an iteration the search lists the legal actions of its
determinization, keys them, and applies, for the key it descends to or
expands, the action of this determinization that has that key: an
opponent's node collects the same observed move (the same card) across
determinizations, although the card sits at a different position of the
hidden hand in each. Actions with one key are the same move (identical
cards). The searching seat's *own* moves are keyed by their action id and
their card together (``MAX_KEYS + action``, with the ``move_key`` stored
beside it in the node): the seat sees its own hand, so its action id names
one card in every determinization of its information, and two copies of
one card in its hand (two wilds, say) are two moves, as in the tree of
action ids; where an id of the seat names another card in another
determinization (deeper in the tree: a card dealt or passed to it there)
it is another node, so a node never mixes two cards (keying the seat's
own moves by card alone played weaker: the benchmark journal,
bench/journal/). The decision
is the root child visited most often, visit ties going to the higher mean
value, then to the lower key (the lower action id); the action returned
is the live state's action with that id and card.

A search seat's parameter vector (``strategies.search`` documents and
validates it): ``[iterations, exploration, rollout, forbid, horizon, rollout
params...]`` where ``rollout`` is -1 for uniform random rollouts or the
strategy id of a built-in heuristic, whose parameter vector follows;
``forbid`` a bit mask of the engine's action classes (``ACTION_CLASSES``)
the seat never takes when it has another option: in the game, in its tree
and in its random rollouts (restricted play; a heuristic rollout policy is
not restricted); ``horizon`` 0 (play to the end of the game) or h >= 1 (to
the h-th evaluation point ahead); with rollout = ``learned`` the model's
numbers follow, and then, for ``expert``, the prior's temperature and the
design (``leaf_design``: ``LEARNED_LEAF`` or ``RANDOM_ROLLOUT``;
``strategies.expert``). The search draws only from its own seat's
stream, so it is reproducible like every strategy.

``new_search`` and ``search`` are templates: ``simulator.core.kernels``
binds them to an engine's verbs (``new_state``, ``copy_state``,
``determinize``, ``legal_actions``, ``move_key``, ``action_class``,
``apply``, ``result``, ``horizon_mark``, ``choose``, ``observe``,
``features``), its ``MAX_ACTIONS``
and ``MAX_KEYS``, the search strategy's id ``SEARCH_SID``, the learned
player's ``LEARNED_SID``, the learned leaf ``leaf_shares`` and its buffers
``new_learned`` (``simulator.core.learned``; the last entry of the search's).
"""

import math

import numba as nb
import numpy as np

from simulator.core.bound import unbound
from simulator.core.learned import LINEAR, M_FEATURES, M_HIDDEN, M_KIND, M_WEIGHTS, win_shares
from simulator.core.learned import value as model_value
from simulator.core.rng import randint, reseed_from
from simulator.core.state import is_terminal, to_move

# the names the templates here are bound with (simulator.core.bound)
(LEARNED_SID, MAX_ACTIONS, MAX_KEYS, SEARCH_SID, action_class, apply, choose, copy_state, determinize, features,
 horizon_mark, leaf_shares, legal_actions, move_key, new_learned, new_state, observe, result) = unbound(
    "LEARNED_SID", "MAX_ACTIONS", "MAX_KEYS", "SEARCH_SID", "action_class", "apply", "choose", "copy_state",
    "determinize", "features", "horizon_mark", "leaf_shares", "legal_actions", "move_key", "new_learned",
    "new_state", "observe", "result")

P_ITERATIONS, P_EXPLORATION, P_ROLLOUT, P_FORBID, P_HORIZON, P_ROLLOUT_PARAMS = range(6)
MAX_ITERATIONS = 1 << 20   # the tree of one decision holds at most this many nodes (+1)
LEARNED_LEAF, RANDOM_ROLLOUT = 0, 1   # leaf_design: expert's design A (the model scores the leaf) and design B


def new_search(arrays, params, sids):
    """Template: one thread's search buffers, sized for the largest budget among the search seats."""
    cap = 1
    for s in range(sids.size):
        if sids[s] == SEARCH_SID:
            cap = max(cap, int(params[s, P_ITERATIONS]) + 1)
    return (new_state(arrays, params),                  # the determinized copy
            np.empty(cap, np.int64),                    # parent
            np.empty(cap, np.int64),                    # move key that leads to the node
            np.empty(cap, np.int64),                    # seat that took it
            np.empty(cap, np.int64),                    # first child
            np.empty(cap, np.int64),                    # next sibling
            np.empty(cap, np.float64),                  # visits
            np.empty(cap, np.float64),                  # availability
            np.empty(cap, np.float64),                  # summed win share of the seat that moved
            np.empty(MAX_ACTIONS, np.int64),            # legal actions
            np.zeros(MAX_KEYS + MAX_ACTIONS, np.int64),  # stamp: key legal here
            np.zeros(MAX_KEYS + MAX_ACTIONS, np.int64),  # stamp: key has a child (or is listed)
            np.zeros(1, np.int64),                      # stamp counter
            np.empty(4, np.uint64),                     # the searching seat's stream
            np.empty(sids.size, np.int64),              # rollout strategy per seat
            np.zeros(params.shape, np.float64),         # rollout parameters per seat
            np.empty(sids.size, np.float64),            # a rollout's win share per seat
            np.empty(0, np.int64),                      # no trace
            np.empty(MAX_ACTIONS, np.int64),            # the legal actions' keys
            np.empty(MAX_KEYS + MAX_ACTIONS, np.int64),  # an action of each legal key here
            np.empty((0, 3), np.int64),                 # the tree log (empty: off; see search)
            np.empty((0, 4), np.uint64),                # the stream at each iteration's start (with the log)
            np.empty(MAX_KEYS + MAX_ACTIONS, np.int64),  # the card (move_key) of an own key here
            np.empty(cap, np.int64),                    # the card (move_key) of the move that leads to the node
            np.empty(cap, np.float64),                  # the node's first value for its mover (the prior's logit)
            new_learned(arrays, params, sids))          # the learned leaf's buffers (last)


@nb.njit(cache=True)
def _after_model(params, seat, offset):
    """The number ``offset`` places after the learned model in a search seat's parameter row (the model follows
    the horizon), 0 when the row ends before it. Jit-compiled."""
    base = P_ROLLOUT_PARAMS
    nf, nh = int(params[seat, base + M_FEATURES]), int(params[seat, base + M_HIDDEN])
    size = M_WEIGHTS + (1 + nf if int(params[seat, base + M_KIND]) == LINEAR else nh * nf + 2 * nh + 1)
    return params[seat, base + size + offset] if base + size + offset < params.shape[1] else 0.0


@nb.njit(cache=True)
def prior_temperature(params, seat):
    """The move prior's temperature of a search seat that holds the learned model: the number right after the
    model in its parameter row (0 when the row ends with the model: no prior, UCB1). Jit-compiled."""
    return _after_model(params, seat, 0)


@nb.njit(cache=True)
def leaf_design(params, seat):
    """How a search seat that holds the learned model ends an iteration: the number after the prior's
    temperature, ``LEARNED_LEAF`` (0, also when the row ends before it: the model scores the leaf) or
    ``RANDOM_ROLLOUT`` (1: random rollouts to the horizon, the model giving only the prior). Jit-compiled."""
    return int(_after_model(params, seat, 1))


@nb.njit(cache=True)
def _rank_shares(standing, share):
    """``share[p]``: seat p's rank share of a standing, ``(players - 1 - rank) / (players - 1)`` with rank 0 the
    best (1 for the leader, 0 for the last); tied seats share the mean of their ranks' values. Jit-compiled."""
    n = standing.size
    for p in range(n):
        better, tied = 0, 0
        for q in range(n):
            better += 1 if standing[q] > standing[p] else 0
            tied += 1 if standing[q] == standing[p] else 0
        share[p] = (n - 1 - better - (tied - 1) / 2) / (n - 1) if n > 1 else 1.0


def allowed_actions(state, arrays, actions, forbid):
    """Template: the legal actions of the seat to move, less those of the classes in ``forbid``.

    Writes them into ``actions[:n]`` (in the engine's order) and returns
    ``n``; when every legal action is forbidden, all of them stay (the rules
    come first). Calls ``legal_actions`` once: the allowed actions are swapped
    to the front, so the forbidden ones are still there when none is allowed.
    """
    n = legal_actions(state, arrays, actions)
    if forbid == 0:
        return n
    m = 0
    for i in range(n):
        a = actions[i]
        if action_class(state, arrays, a) & forbid == 0:
            actions[i] = actions[m]
            actions[m] = a
            m += 1
    return m if m > 0 else n


def search(state, arrays, sids, params, buf, scores, standing, seat_stats, game_stats):
    """Template: the action the search seat to move takes in ``state`` (which is left unchanged).

    ``scores``, ``standing``, ``seat_stats`` and ``game_stats`` are the game's
    output rows, used as scratch for the rollouts' results (the caller writes
    the real result after the game). Tree nodes are move keys (the engine's
    ``move_key``) for the other seats' moves, action id and card for the
    searching seat's own; the action applied for a key is the one of the
    determinization at hand. The decision is the most-visited root child,
    visit ties going to the higher mean value, then to the lower key.

    With a non-empty tree log (``buf[20]``, rows ``(iteration, node,
    action)``, and ``buf[21]``, the searching seat's stream at the start of
    each iteration; tests use it), every step taken in the tree is recorded
    while there is room.
    """
    (work, parent, key, mover, child, sibling, visits, avail, reward, acts, legal, tried, stamp, rng,
     rsids, rparams, share, no_trace, keys, key_action, log, log_rng, card_of, card, first, lbuf) = buf
    me = to_move(state)
    iterations = int(params[me, P_ITERATIONS])
    c = params[me, P_EXPLORATION]
    rollout = int(params[me, P_ROLLOUT])
    forbid = int(params[me, P_FORBID])
    horizon = int(params[me, P_HORIZON])
    mark = horizon_mark(state)
    learned_model = rollout == LEARNED_SID  # the seat's row holds the learned model
    model_prior = learned_model and leaf_design(params, me) == RANDOM_ROLLOUT  # design B: the model gives the prior
    leaf = learned_model and not model_prior  # the learned model scores the leaf: no rollout
    random_rollout = rollout < 0 or model_prior
    temperature = prior_temperature(params, me) if learned_model else 0.0
    obs, feat, hidden = lbuf[2], lbuf[3], lbuf[4]
    rngs = state[1]
    for k in range(4):
        rng[k] = rngs[1 + me, k]
    for s in range(sids.size):
        rsids[s] = rollout
        for j in range(params.shape[1]):
            src = P_ROLLOUT_PARAMS + j
            rparams[s, j] = params[me, src] if src < params.shape[1] else 0.0
    parent[0], child[0], visits[0] = -1, -1, 0.0
    nodes, n, logged = 1, 0, 0
    for it in range(iterations):
        if it < log_rng.shape[0]:
            for k in range(4):
                log_rng[it, k] = rng[k]
        copy_state(state, work)
        determinize(work, arrays, me, rng)
        reseed_from(work[1], rng)
        node = 0
        in_tree = True  # descending the tree until one key is expanded, then rolling out
        expanded = False  # a node was added this iteration (design B scores it right after its move)
        while (not is_terminal(work) and not (horizon and horizon_mark(work) - mark >= horizon)
               and not (leaf and not in_tree)):
            mine = to_move(work) == me
            if in_tree or random_rollout:
                n = allowed_actions(work, arrays, acts, forbid if mine else 0)
            a = -1
            if in_tree:
                stamp[0] += 1
                for i in range(n):
                    k = move_key(work, arrays, acts[i])
                    if mine:  # the seat's own move: the place in its own hand (which it sees) and the card
                        card_of[MAX_KEYS + acts[i]] = k
                        k = MAX_KEYS + acts[i]
                    keys[i] = k
                    legal[k] = stamp[0]
                    key_action[k] = acts[i]
                best, best_value, norm = -1, -1e300, 0.0
                ch = child[node]
                while ch >= 0:
                    if legal[key[ch]] == stamp[0] and (key[ch] < MAX_KEYS or card_of[key[ch]] == card[ch]):
                        tried[key[ch]] = stamp[0]
                        avail[ch] += 1.0
                        if temperature > 0.0:
                            norm += math.exp(first[ch] / temperature)
                        else:
                            value = reward[ch] / visits[ch] + c * math.sqrt(math.log(avail[ch]) / visits[ch])
                            if value > best_value:
                                best, best_value = ch, value
                    ch = sibling[ch]
                ch = child[node] if temperature > 0.0 else -1
                while ch >= 0:  # PUCT over the available children, the prior a softmax of their first values
                    if legal[key[ch]] == stamp[0] and (key[ch] < MAX_KEYS or card_of[key[ch]] == card[ch]):
                        value = (reward[ch] / visits[ch] + c * math.exp(first[ch] / temperature) / norm
                                 * math.sqrt(avail[ch]) / (1.0 + visits[ch]))
                        if value > best_value:
                            best, best_value = ch, value
                    ch = sibling[ch]
                untried = 0
                for i in range(n):  # the distinct legal keys without a child, gathered at the front of keys
                    k = keys[i]
                    if tried[k] != stamp[0]:
                        tried[k] = stamp[0]
                        keys[untried] = k
                        untried += 1
                if untried > 0 and nodes < parent.size:
                    k = keys[randint(rng, untried)]
                    a = key_action[k]
                    new = nodes
                    nodes += 1
                    parent[new], key[new], mover[new] = node, k, to_move(work)
                    card[new] = card_of[k] if k >= MAX_KEYS else k
                    child[new], sibling[new], child[node] = -1, child[node], new
                    visits[new], avail[new], reward[new] = 0.0, 1.0, 0.0
                    first[new] = -1.0   # set from this iteration's value
                    node = new
                    in_tree = False
                    expanded = model_prior
                elif best >= 0:
                    node = best
                    a = key_action[key[best]]
                else:  # the tree is full and no child is legal here: roll out from this node
                    in_tree = False
                if a >= 0 and logged < log.shape[0]:
                    log[logged, 0], log[logged, 1], log[logged, 2] = it, node, a
                    logged += 1
            if a < 0:
                a = acts[randint(rng, n)] if random_rollout else choose(work, arrays, rsids, rparams)
            apply(work, arrays, a, no_trace, False)
            if expanded:  # design B: the prior's logit is the model's value of the new node for its mover
                expanded = False
                if is_terminal(work):
                    result(work, arrays, scores, standing, seat_stats, game_stats)
                    win_shares(standing, share)
                    first[node] = share[mover[node]]
                else:
                    observe(work, arrays, mover[node], obs)
                    features(obs, feat)
                    first[node] = model_value(rparams, 0, feat, hidden)
        if leaf:
            leaf_shares(work, arrays, rparams, lbuf, share, scores, standing, seat_stats, game_stats)
        else:
            result(work, arrays, scores, standing, seat_stats, game_stats)
            if horizon:
                _rank_shares(standing, share)
            else:
                win_shares(standing, share)
        if node > 0 and not model_prior and first[node] < 0.0:
            first[node] = share[mover[node]]
        while node > 0:
            visits[node] += 1.0
            reward[node] += share[mover[node]]
            node = parent[node]
        visits[0] += 1.0
    for k in range(4):
        rngs[1 + me, k] = rng[k]
    best = -1
    ch = child[0]
    while ch >= 0:  # the most visits; at equal visits the higher summed reward is the higher mean
        if best < 0 or visits[ch] > visits[best] or (visits[ch] == visits[best] and (
                reward[ch] > reward[best] or (reward[ch] == reward[best] and key[ch] < key[best]))):
            best = ch
        ch = sibling[ch]
    if best < 0:
        return -1  # (illegal): a finished game, where nothing is searched
    n = allowed_actions(state, arrays, acts, forbid)
    for i in range(n):
        if MAX_KEYS + acts[i] == key[best] and move_key(state, arrays, acts[i]) == card[best]:
            return acts[i]
    return -1
