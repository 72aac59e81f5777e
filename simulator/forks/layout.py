"""What a Forks strategy sees, the actions of the state API, and the state record.

Decisions
---------
A Forks decision function has the signature (jit-compiled with numba)::

    decide(kind, opt_dest, opt_value, n_options, obs, params, rng) -> int

and returns the index (0 <= i < n_options) of the chosen option:

* ``INVEST``: ``opt_*[:3]`` are the three dealt cards; the chosen card is
  invested (added to the hand), the other two are passed clockwise.
* ``KEEP``: ``opt_*[:2]`` are the two passed cards; the chosen card is
  invested, the other is played face down to marketing.
* ``MARKET`` (merge variant): both passed cards have joined the hand;
  ``opt_*[:n_options]`` is the whole hand and the chosen card goes to
  marketing.

``obs`` (int64) holds only what the player knows. Both picks of a round are
simultaneous, so ``obs`` shows the marketing totals as they were before this
round's marketing cards are revealed.

Actions (``simulator.forks.engine.legal_actions`` / ``apply``)
--------------------------------------------------------------
An action id is the index of the chosen option in the order above: 0-2 for
``INVEST`` (the dealt cards in dealing order), 0-1 for ``KEEP`` (the passed
cards in the order they were dealt to the passer), 0..hand size-1 for
``MARKET`` (the hand in the order its cards were taken). Each order depends
only on cards the deciding seat holds or was passed, so an id names the same
card in every determinization of its information. The simultaneous picks of
a round are asked seat by seat (seat 0 first); no seat is shown a choice made
before its own in the same round. At most ``MAX_ACTIONS`` options (the merge
hand before the last marketing has ``2 * rounds + 1`` cards; tables with more
rounds than ``MAX_ROUNDS`` are refused by the setup compiler).

Move keys (``simulator.forks.engine.move_key``): the face of the card the
action invests (``INVEST``, ``KEEP``) or sends to marketing (``MARKET``),
``MAX_VALUE + 1`` times its destination plus its value (the card's trace
code), below ``MAX_KEYS``; the decision kind is the same at every
determinization of a node, so it is not part of the key. Two cards of one
face share the key. An option index of another seat names a different card
in each determinization of the searching seat's information (its deal is
hidden), the key the same card in all of them.

State record (``STATE`` below: ``simulator.core.slots``)
---------------------------------------------------------
The game is its deck order and the log of choices; everything else is kept
up to date by ``apply`` for speed and can be rebuilt from those two.
"""

import numpy as np

from simulator.core.slots import Slots
from simulator.core.state import HEAD

MAX_DEST = 8
MAX_ROUNDS = 15
MAX_ACTIONS = 2 * MAX_ROUNDS + 2
MAX_VALUE = 99                            # card values are 0..MAX_VALUE (a card's trace code is 100 * dest + value)
MAX_KEYS = MAX_DEST * (MAX_VALUE + 1)     # move keys are card faces: (MAX_VALUE + 1) * destination + value

INVEST = 0
KEEP = 1
MARKET = 2

OBS_MARKETING = 0                 # [MAX_DEST] marketing total per destination
OBS_MINE = OBS_MARKETING + MAX_DEST  # [MAX_DEST] value I have invested per destination
OBS_TIEBREAK = OBS_MINE + MAX_DEST   # [MAX_DEST] tiebreak position (0 wins ties)
OBS_DESTINATIONS = OBS_TIEBREAK + MAX_DEST  # number of destinations in play
OBS_TOP = OBS_DESTINATIONS + 1    # destinations that score positive
OBS_ROUND = OBS_TOP + 1           # current round, 0-based
OBS_ROUNDS = OBS_ROUND + 1        # rounds in the game
OBS_PLAYERS = OBS_ROUNDS + 1
OBS_DECK = OBS_PLAYERS + 1        # cards left in the deck
OBS_SEAT = OBS_DECK + 1           # my seat (0 = first player)
OBS_SIZE = OBS_SEAT + 1

# rules vector of the compiled setup (Config.arrays[3])
R_PLAYERS, R_REMOVE, R_INITIAL, R_REVEAL, R_MERGE, R_DEST, R_TOP, R_ROUNDS = range(8)

# head fields after the common ones
HD_ROUND = HEAD       # current round, 0-based (= rounds once the game is over)
HD_POS = HEAD + 1     # next undealt deck position (this round's deal starts at HD_POS - 3 * players)
N_HEAD = HEAD + 2

# the state (simulator.core.slots; the common head and streams come first)
STATE = Slots(N_HEAD, "cards", "players", "rounds", "params")
ST_DECK = STATE.slot(np.int64, "cards")          # card id at each deck position, top first (removed, marketing,
                                                 # deals, reveals)
ST_TAKEN = STATE.slot(np.int64, ("rounds", "players"), fill=-1)   # index (0-2) of the dealt card each seat
                                                                  # invested; -1 before
ST_MARKET = STATE.slot(np.int64, ("rounds", "players"), fill=-1)  # card id each seat sent to marketing; -1 before
ST_HAND = STATE.slot(np.int64, ("players", "2 * rounds + 2"))     # invested card ids in the order taken (derived)
ST_HAND_N = STATE.slot(np.int64, "players")                      # hand sizes (derived)
ST_MINE = STATE.slot(np.int64, ("players", MAX_DEST))            # invested value per destination (derived)
ST_MKT = STATE.slot(np.int64, MAX_DEST)                          # revealed marketing total per destination (derived)
GAME_SLOTS = STATE.end_of_game()                                 # the rest are per-thread buffers
ST_OBS = STATE.slot(np.int64, OBS_SIZE)          # the observation handed to a strategy (the setup's part written
                                                 # by new_state)
ST_OPT_DEST = STATE.slot(np.int64, MAX_ACTIONS)  # option destinations
ST_OPT_VALUE = STATE.slot(np.int64, MAX_ACTIONS)  # option values
ST_RNG = STATE.slot(np.uint64, 4)                # the deciding seat's stream
ST_PAR = STATE.slot(np.float64, "params")        # the deciding seat's parameters
ST_HIDDEN = STATE.slot(np.int64, "cards")        # determinize: 1 where a deck position is hidden from the seat
ST_POOL = STATE.slot(np.int64, "cards")          # determinize: the hidden cards
ST_WHERE = STATE.slot(np.int64, "cards")         # determinize: deck position of each card
ST_CANON = STATE.slot(np.int64, "cards")         # determinize: the card ids in the order of their faces
                                                 # (destination, value)
