"""Fauch & Fertig for the kernels: card ids, condition codes, decisions and what a strategy sees.

Cards
-----
The 72 dragon cards have fixed ids: coloured card ``id = 16 * colour +
2 * (number - 1) + copy`` (colours blue, green, purple, red = 0..3, numbers
1..8, copies 0 and 1), black cards ids 64..71 (colour ``BLACK``, number 0).
Which condition each card carries comes from the setup table.

Conditions
----------
A condition is four integers ``(kind, a, b, c)``:

=============  =========================================================
``C_COLOUR``   ``a`` cards of colour ``b`` (``b = -1``: of any one colour)
``C_RANGE``    ``a`` cards with numbers ``b``..``c``
``C_DISTINCT`` ``a`` different numbers
``C_SETS``     ``a`` disjoint sets of ``b`` cards of one number
``C_RUNS``     ``a`` disjoint runs of ``b`` consecutive numbers
``C_COLOURS``  ``a`` disjoint sets of ``b`` different colours (black never counts)
``C_BLACK``    ``a`` black cards
``C_FREE``     an egg as soon as the card is laid out
``C_PAY``      pay ``a`` coins when the card is laid out (only then) for an egg
``C_BONUS``    black-card bonus: later black cards bought put eggs here
=============  =========================================================

Decisions
---------
A Fauch & Fertig decision function has the signature (jit-compiled)::

    decide(kind, options, n_options, obs, params, rng) -> int

and returns the index ``0 <= i < n_options`` of the chosen option:

* ``ACTION``: ``options[:n]`` are the legal actions, each one of
  ``A_MARKET + slot`` (buy the market card in ``slot``), ``A_BLIND`` (pay 1
  onto each market card, draw 3, keep 1) or ``A_COINS`` (take 5 coins).
* ``KEEP``: after a blind buy, ``options[:n]`` are the drawn card ids (1 to 3).
* ``PAY``: the card ``obs[OBS_CARD]`` with a pay condition was just laid out
  and the player can afford it; ``options[:2]`` are 0 (decline) and 1 (pay).

``obs`` (int64) holds only what a player sees: every display (owner and eggs
of each card, colour and number counts per seat), the market with its coins,
the community cards, everyone's eggs placed, the pile sizes, and the player's
own coins. Its static part describes every card (colour, number, condition).
A decision function may not allocate (it is compiled without numba's
reference counting); ``obs[OBS_SCRATCH:OBS_SCRATCH + OBS_SCRATCH_SIZE]`` is
working space it may overwrite, which the engine never reads.

Actions
-------
The state verbs (``simulator.fauch_fertig.engine``) name every move by one
small integer below ``MAX_ACTIONS``, the same whatever the decision kind:

* ``A_MARKET + slot`` (0-2), ``A_BLIND`` (3), ``A_COINS`` (4): the action
  codes of an ``ACTION`` decision, unchanged;
* ``A_KEEP + card`` (5-76): keep the drawn card ``card`` (a card id, so the
  move does not depend on the order the cards were drawn in);
* ``A_DECLINE`` (77) and ``A_DECLINE + 1`` (78): decline or pay at a ``PAY``
  decision.

``legal_actions`` lists them in the order of the options a strategy is shown
(market slots, blind, coins; the drawn cards as drawn; decline, pay), so
option ``i`` of a decision is legal action ``i``.
"""

N_COLOURS = 4          # blue, green, purple, red
BLACK = 4              # colour index of the black cards
N_NUMBERS = 8          # numbers 1..8 (index 0 unused; black cards have number 0)
COPIES = 2
N_BLACK = 8
N_CARDS = N_COLOURS * N_NUMBERS * COPIES + N_BLACK  # 72
MAX_PLAYERS = 4
MARKET = 3
COLOUR_NAMES = ("blue", "green", "purple", "red", "black")

# condition kinds
C_COLOUR, C_RANGE, C_DISTINCT, C_SETS, C_RUNS, C_COLOURS, C_BLACK, C_FREE, C_PAY, C_BONUS = range(10)

# decision kinds
ACTION, KEEP, PAY = range(3)
# action ids (see "Actions" above)
A_MARKET = 0           # A_MARKET + slot, slot 0..2
A_BLIND = MARKET
A_COINS = MARKET + 1
A_KEEP = A_COINS + 1   # A_KEEP + card id
A_DECLINE = A_KEEP + N_CARDS   # A_DECLINE + 0 declines, + 1 pays
MAX_ACTIONS = A_DECLINE + 2    # every action id is below this (79)
MAX_KEYS = MAX_ACTIONS         # move keys are the action ids

# observation vector
OBS_SEAT = 0
OBS_PLAYERS = 1
OBS_ROUND = 2                        # 0-based
OBS_COINS = 3                        # my coins
OBS_EGGS = 4                         # eggs each player has (12)
OBS_PILE = 5                         # cards in the draw pile
OBS_DISCARD = 6                      # cards on the discard pile
OBS_CARD = 7                         # PAY: the card just laid out; -1 at ACTION and KEEP
OBS_MARKET = 8                       # [MARKET] card id per slot, -1 empty
OBS_MARKET_COINS = OBS_MARKET + MARKET   # [MARKET] coins on each slot
OBS_PLACED = OBS_MARKET_COINS + MARKET   # [MAX_PLAYERS] eggs placed per seat (golden included)
OBS_COLOUR_COUNT = OBS_PLACED + MAX_PLAYERS          # [MAX_PLAYERS * 5] cards per colour (4 = black)
OBS_NUMBER_COUNT = OBS_COLOUR_COUNT + MAX_PLAYERS * 5  # [MAX_PLAYERS * 9] cards per number (index 0 unused)
OBS_OWNER = OBS_NUMBER_COUNT + MAX_PLAYERS * 9       # [N_CARDS] seat holding the card in its display, -1 none
OBS_EGGS_ON = OBS_OWNER + N_CARDS                    # [N_CARDS] eggs on the card
OBS_COMMUNITY_N = OBS_EGGS_ON + N_CARDS              # community cards in play
OBS_COMMUNITY = OBS_COMMUNITY_N + 1                  # [MAX_PLAYERS * 4] (kind, a, b, c) per community card
OBS_COMMUNITY_DONE = OBS_COMMUNITY + MAX_PLAYERS * 4  # [MAX_PLAYERS] 1 once completed
# static part (filled once per compiled setup)
OBS_CARD_COLOUR = OBS_COMMUNITY_DONE + MAX_PLAYERS   # [N_CARDS]
OBS_CARD_NUMBER = OBS_CARD_COLOUR + N_CARDS          # [N_CARDS]
OBS_CARD_COND = OBS_CARD_NUMBER + N_CARDS            # [N_CARDS * 4] (kind, a, b, c)
OBS_SCRATCH = OBS_CARD_COND + N_CARDS * 4           # [OBS_SCRATCH_SIZE] free working space for the strategy
OBS_SCRATCH_SIZE = 32
OBS_SIZE = OBS_SCRATCH + OBS_SCRATCH_SIZE

# rules vector of the compiled setup (Config.arrays[-1])
(R_PLAYERS, R_EGGS, R_DISPLAY, R_MARKET_COIN, R_TAKE, R_BLIND_DRAW, R_BONUS_BLACKS, R_BONUS_COINS,
 R_SUPPLY, R_MAX_ROUNDS, R_COMMUNITY_N, R_COMMUNITY_RANDOM, R_COMPLETER_EGGS, R_NEIGHBOUR_EGGS,
 R_START_COINS) = range(15)
R_CARD_KIND = R_START_COINS + MAX_PLAYERS  # [N_CARDS] each card's kind (its condition, see setup.card_kinds), -1: none
R_SIZE = R_CARD_KIND + N_CARDS
MAX_KINDS = 31         # kinds recorded as bits of the int32 seat columns dealt_kinds and bought_kinds
UNLIMITED = 1 << 40    # the coin supply when the table says "unlimited"


def card_colour(card):
    """Colour index of card ``card`` (``BLACK`` for the black cards)."""
    return BLACK if card >= N_CARDS - N_BLACK else card // (N_NUMBERS * COPIES)


def card_number(card):
    """Number 1..8 of card ``card`` (0 for the black cards)."""
    return 0 if card >= N_CARDS - N_BLACK else (card % (N_NUMBERS * COPIES)) // COPIES + 1


def card_copy(card):
    """Copy index of a coloured card (0 = first, 1 = second) or the index 0..7 of a black card."""
    return card - (N_CARDS - N_BLACK) if card >= N_CARDS - N_BLACK else card % COPIES


def card_name(card):
    """A card as a designer reads it, e.g. ``red 7`` or ``black``."""
    c = card_colour(card)
    return "black" if c == BLACK else f"{COLOUR_NAMES[c]} {card_number(card)}"
