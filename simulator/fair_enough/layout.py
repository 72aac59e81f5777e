"""What a Fair Enough strategy sees: decision kinds, options, the observation vector and the trace.

A Fair Enough decision function has the signature (jit-compiled with numba)::

    decide(kind, opt, n_options, obs, params, rng) -> int

and returns the index (``0 <= i < n_options``) of the chosen row of ``opt``
(an int64 array ``[rows, OPT_WIDTH]``). There are three kinds of decision:

* ``RESEARCH``: one research turn. Row ``i`` takes the face-up cards at row
  positions ``opt[i, OPT_A]`` and ``opt[i, OPT_B]`` (``-1`` = none); row 0
  always takes nothing, then the single cards, then the pairs. The face-up
  cards are in ``obs[OBS_ROW_* + position]``.
* ``COLLECT``: one Collecting-phase turn. Row 0 is always "secure"
  (``opt[0, OPT_SPECIAL] == SECURE``); every other row places the hand card
  ``(opt[i, OPT_KIND], opt[i, OPT_VALUE])`` with ``opt[i, OPT_SPECIAL]`` one
  of ``NONE``, ``QUEUE``, ``PREORDER``, ``SOLD_OUT``. ``opt[i, OPT_TIME]`` is
  the remaining time after the turn (for Sold Out: before its target's time
  comes back). Only legal combinations are listed; a Sold Out row is listed
  when at least one target makes it legal.
* ``TARGET``: after choosing Sold Out, the card to remove. Row ``i`` is a
  placed, unsecured card ``(OPT_KIND, OPT_VALUE)`` of seat
  ``opt[i, OPT_OWNER]``; ``OPT_TIME`` is the time after the whole turn. The
  card being placed is in ``obs[OBS_PENDING_KIND]``/``obs[OBS_PENDING_VALUE]``.

``obs`` (int64, ``OBS_SIZE``) holds only what the player sees: their own
hand and secured collection, the face-up row, every placed card, the time,
the time cards already revealed, and everyone's hand size. Seats are
absolute (0 = the first player of the game).

Trace layout (int64): ``[n_cards, deck order as card ids..., n_times, time
deck order...]`` followed by events: ``TR_TAKE a b`` (research: row
positions, ``-1`` = none), ``TR_SHUFFLE k ids...`` (the discard pile became
the deck, top first), ``TR_PLACE card special target`` (``target`` is the
card removed by Sold Out, else ``-1``), ``TR_SECURE``. Whose turn it is
follows from the rules, so it is not recorded.

Actions (the state API of ``simulator.fair_enough.engine``): one id space for
all three decision kinds, every id below ``MAX_ACTIONS``:

* ``A_RESEARCH + i`` (``i < 7``): research, taking row positions ``(-1, -1)``,
  ``(0,)``, ``(1,)``, ``(2,)``, ``(0, 1)``, ``(0, 2)``, ``(1, 2)`` for ``i = 0..6``
  (with a short row only the ids of existing positions are legal);
* ``A_SECURE``: secure;
* ``A_PLACE + 4 * i + special``: place the card at index ``i`` of the mover's
  own hand with ``special`` (``NONE``, ``QUEUE``, ``PREORDER``, ``SOLD_OUT``;
  Sold Out's target is the next decision);
* ``A_TARGET + HAND_MAX * seat + j``: Sold Out removes placed card ``j`` of
  ``seat``.

A hand index depends only on the mover's own draws and plays, and placed
piles are public, so an id names the same move in every determinization of
the mover's information. ``legal_actions`` lists the ids in the order of the
options a strategy is shown.

Move keys (``simulator.fair_enough.engine.move_key``), below ``MAX_KEYS``: a
research id and secure are their own key (row positions are public); placing
hand card ``i`` with ``special`` is ``K_PLACE + 4 * card + special``, where
``card`` is the placed card's id (collection cards come first in the deck:
``kind * len(deck.values) + the value's index``, so the id names the face
(kind, value), which every seat sees when the card is placed); a Sold Out
target ``A_TARGET + x`` is ``K_TARGET + x`` (placed piles are public). The
hand index of another seat names a different card in each determinization
of the searching seat's information, the key the same card in all of them.
"""

from simulator.core import leaders

MIN_PLAYERS = 2
MAX_PLAYERS = 5
ROUNDS = 6
MAX_KINDS = 12
MAX_VALUES = 20
MAX_TIMES = ROUNDS + 1
HAND_MAX = 3 + 4 * ROUNDS  # a hand gains at most 2 cards per research turn, 2 turns a round

# card specials (Config.arrays[2]) and the special column of an option
NONE = 0
QUEUE = 1
PREORDER = 2
SOLD_OUT = 3
SECURE = -1
SPECIAL_NAMES = {NONE: "none", QUEUE: "Queue", PREORDER: "Pre-order", SOLD_OUT: "Sold Out"}

# decision kinds
RESEARCH = 0
COLLECT = 1
TARGET = 2

# action ids (see the module docstring)
A_RESEARCH = 0
A_SECURE = 7
A_PLACE = 8
A_TARGET = A_PLACE + 4 * HAND_MAX
MAX_ACTIONS = A_TARGET + MAX_PLAYERS * HAND_MAX

# move keys (see the module docstring)
K_PLACE = A_PLACE
K_TARGET = K_PLACE + 4 * MAX_KINDS * MAX_VALUES   # collection card ids are below MAX_KINDS * MAX_VALUES
MAX_KEYS = K_TARGET + MAX_PLAYERS * HAND_MAX

# option columns
OPT_A = 0          # RESEARCH: first row position taken (-1 = none)
OPT_B = 1          # RESEARCH: second row position taken (-1 = none)
OPT_KIND = 0       # COLLECT/TARGET: kind of the card (0-based)
OPT_VALUE = 1      # COLLECT/TARGET: value (= time) of the card
OPT_SPECIAL = 2    # COLLECT: SECURE, NONE, QUEUE, PREORDER or SOLD_OUT
OPT_OWNER = 3      # TARGET: seat that placed the card
OPT_TIME = 4       # COLLECT/TARGET: remaining time after the turn
OPT_WIDTH = 5

# observation vector
OBS_PLAYERS = 0
OBS_SEAT = 1                       # my seat
OBS_ROUND = 2                      # current round, 0-based
OBS_ROUNDS = 3
OBS_START = 4                      # seat holding the Starting Player Card
OBS_TIME = 5                       # remaining time (Collecting phase)
OBS_TIME_CARD = 6                  # this round's time card (0 in research before the first reveal)
OBS_DECK = 7                       # cards left in the deck
OBS_DISCARD = 8                    # cards on the discard pile
OBS_KINDS = 9                      # kinds in play
OBS_N_TIMES = 10                   # time cards in the time deck (6, or 7 with the variant)
OBS_PENDING_KIND = 11              # TARGET: the card being placed with Sold Out
OBS_PENDING_VALUE = 12
OBS_ROW_N = 13                     # face-up cards (0-3)
OBS_ROW_KIND = 14                  # [3] kind of each face-up card (-1 for a special)
OBS_ROW_VALUE = OBS_ROW_KIND + 3   # [3] its value (0 for a special)
OBS_ROW_SPECIAL = OBS_ROW_VALUE + 3  # [3] NONE or the special
OBS_TIMES_ALL = OBS_ROW_SPECIAL + 3  # [MAX_TIMES] every card of the time deck, ascending (0-padded)
OBS_TIMES_USED = OBS_TIMES_ALL + MAX_TIMES  # [MAX_TIMES] time cards revealed so far, in order (0-padded)
OBS_HAND_N = OBS_TIMES_USED + MAX_TIMES     # [MAX_PLAYERS] cards in each seat's hand
OBS_SECURED = OBS_HAND_N + MAX_PLAYERS      # [MAX_PLAYERS] 1 if the seat has secured this round
OBS_PLACED_N = OBS_SECURED + MAX_PLAYERS    # [MAX_PLAYERS] placed, unsecured cards of each seat
OBS_PLACED_VALUE = OBS_PLACED_N + MAX_PLAYERS  # [MAX_PLAYERS] their total value
OBS_PLACED_KIND = OBS_PLACED_VALUE + MAX_PLAYERS  # [MAX_PLAYERS * MAX_KINDS] placed count, seat-major
OBS_COLLECTED_N = OBS_PLACED_KIND + MAX_PLAYERS * MAX_KINDS  # [MAX_PLAYERS] secured cards of each seat (face down)
OBS_MY_HAND_KIND = OBS_COLLECTED_N + MAX_PLAYERS   # [MAX_KINDS] collection cards of each kind in my hand
OBS_MY_HAND_SPECIAL = OBS_MY_HAND_KIND + MAX_KINDS  # [4] specials in my hand, indexed by QUEUE..SOLD_OUT
OBS_MY_HAND_VALUE = OBS_MY_HAND_SPECIAL + 4         # total value of the collection cards in my hand
OBS_MY_KIND = OBS_MY_HAND_VALUE + 1                 # [MAX_KINDS] my secured cards of each kind
OBS_SIZE = OBS_MY_KIND + MAX_KINDS

# trace event tags
TR_TAKE = 1
TR_SHUFFLE = 2
TR_PLACE = 3
TR_SECURE = 4

# rules vector of the compiled setup (Config.arrays[4])
R_PLAYERS, R_ROUNDS, R_N_TIMES, R_KINDS, R_HAND_MAX = range(5)
N_RULES = 5

# seat_stats columns (also the output columns, see simulator.fair_enough.GAME)
SEAT_COLUMNS = ("collected", "collected_value", "set_bonus", "hand_penalty", "largest_set", "secured_first",
                "lost_at_close", "lost_to_sold_out", "queue_played", "preorder_played", "sold_out_played")
(SC_COLLECTED, SC_COLLECTED_VALUE, SC_SET_BONUS, SC_HAND_PENALTY, SC_LARGEST, SC_FIRST, SC_LOST_CLOSE,
 SC_LOST_SOLD, SC_QUEUE, SC_PREORDER, SC_SOLD_OUT) = range(len(SEAT_COLUMNS))
GAME_COLUMNS = ("rounds", "zero_endings", "reshuffles", "finished", *leaders.COLUMNS)  # leaders: the game loop
GC_ROUNDS, GC_ZERO, GC_RESHUFFLES, GC_FINISHED = range(4)

# standing = score * STANDING_SCALE + largest set (ties on score go to the larger set)
STANDING_SCALE = 64
