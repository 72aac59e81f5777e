"""What a Forks strategy sees: decision kinds and the observation vector.

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
"""

MAX_DEST = 8

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
