"""What a Fool! strategy sees: the decision signature and the observation vector.

A Fool! decision function has the signature (jit-compiled with numba)::

    decide(opt_colour, opt_value, n_options, obs, params, rng) -> int

and returns the index (0 <= i < n_options) of the card to play. The options
``opt_colour[:n_options]``, ``opt_value[:n_options]`` are exactly the legal
cards of the player's hand (colour 0 is a wild "1", value 1; colours 1..n
follow the setup table's ``deck.colours``). ``params`` is the strategy's
parameter vector (float64) and ``rng`` its own random stream (see
``simulator.core.rng``).

``obs`` (int64) holds only what the player knows: the rules in play, their own
hand, the cards played so far in this trick and this deal, every seat's hand
count, who passes, and the totals. Seats are absolute (0 = first player of the
game). A value mask has bit ``v`` set when the card of value ``v`` is there.

Actions (the engine's state verbs, ``simulator.fool.engine``): there is one
kind of decision, playing a card, and an action id is the position of that
card in the hand of the seat to move (``0 <= action < MAX_ACTIONS``). The
legal actions are listed in hand order, the order of the strategy's options.
A hand's order depends only on what its holder knows (the order it was dealt
in, changed by its own plays: a played card's place is taken by the hand's
last card), so an action id names the same card in every determinization of
that seat's information.

Move keys (``simulator.fool.engine.move_key``): the card played, as every seat
sees it in the trick, ``colour * (MAX_VALUE + 1) + value`` (below
``MAX_KEYS``); two copies of one card share the key. A position in the hand
of another seat means a different card in each determinization of the
searching seat's information, the key the same card in all of them.
"""

MAX_COLOURS = 8
MAX_PLAYERS = 8
MAX_VALUE = 62           # values are kept as bits of an int64 mask
WILD_VALUE = 1           # the value of a wild "1" (colour 0)
MAX_HAND = 64            # cards per hand (a larger setup table is refused)
MAX_ACTIONS = MAX_HAND   # action ids are hand positions
MAX_KEYS = (MAX_COLOURS + 1) * (MAX_VALUE + 1)   # move keys are cards: colour * (MAX_VALUE + 1) + value
KIND_PLAY = 0            # the only decision kind: play a card

OBS_PLAYERS = 0          # players at the table
OBS_SEAT = 1             # my seat
OBS_COLOURS = 2          # number of colours (colour ids 1..n)
OBS_DISCS = 3            # Fool! discs: this many worst cards are befooled
OBS_DEAL = 4             # deal number, 0-based
OBS_TRICK = 5            # trick number in this deal, 0-based
OBS_LEADER = 6           # seat that led this trick
OBS_LEAD = 7             # lead colour of this trick so far (0: none yet, only wilds or nothing played)
OBS_PLAYED = 8           # cards already played in this trick
OBS_TO_PLAY = 9          # players still to play after me in this trick
OBS_TALLIES = 10         # +empty_hand tallies scored so far in the game, all players together
OBS_EMPTY_HAND = 11      # scoring: points for emptying the hand
OBS_WILD_PENALTY = 12    # scoring: negative points per wild left in hand
OBS_LOSS_LIMIT = 13      # the game ends when a total reaches -loss_limit
OBS_TALLY_LIMIT = 14     # ... or when this many tallies have been scored
OBS_TRICK_COLOUR = 15                             # [MAX_PLAYERS] colour of the i-th card of this trick
OBS_TRICK_VALUE = OBS_TRICK_COLOUR + MAX_PLAYERS  # [MAX_PLAYERS] value of the i-th card of this trick
OBS_TRICK_SEAT = OBS_TRICK_VALUE + MAX_PLAYERS    # [MAX_PLAYERS] seat that played the i-th card
OBS_COUNT = OBS_TRICK_SEAT + MAX_PLAYERS          # [MAX_PLAYERS] cards in hand per seat
OBS_PASSING = OBS_COUNT + MAX_PLAYERS             # [MAX_PLAYERS] 1 if the seat holds a disc (passes this trick)
OBS_TOTAL = OBS_PASSING + MAX_PLAYERS             # [MAX_PLAYERS] game totals before this deal
OBS_MINE = OBS_TOTAL + MAX_PLAYERS                # [MAX_COLOURS + 1] my hand: [0] wilds, [c] value mask of colour c
OBS_UNSEEN = OBS_MINE + MAX_COLOURS + 1           # [MAX_COLOURS + 1] cards of the deal neither in my hand nor
                                                  #   played yet: [0] wilds, [c] value mask of colour c
OBS_SIZE = OBS_UNSEEN + MAX_COLOURS + 1

# rules vector of the compiled setup (Config.arrays[2])
(R_PLAYERS, R_COLOURS, R_DISCS, R_HAND, R_CARDS, R_EMPTY_HAND, R_WILD_PENALTY, R_LOSS_LIMIT, R_TALLY_LIMIT,
 R_MAX_DEALS, R_SIZE) = range(11)
