"""The rules, one at a time, on the reference engine with scripted decks and choices."""

import pytest

from simulator.fauch_fertig import GAME
from simulator.fauch_fertig import layout as L
from simulator.fauch_fertig.reference import Source, Table

R, B, G, P = "red", "blue", "green", "purple"


def cid(colour, number=0, copy=0):
    """Card id: a coloured card by name and number, or black card ``copy`` (see the default table)."""
    if colour == "black":
        return 64 + copy
    return 16 * L.COLOUR_NAMES.index(colour) + 2 * (number - 1) + copy


FREE, ST_BONUS, PAY5 = cid("black", 0, 0), cid("black", 0, 2), cid("black", 0, 6)


class Script(Source):
    """Deck order with ``top`` first (then by id), no reshuffling surprises, choices from lists."""

    def __init__(self, top=(), actions=(), keeps=(), pays=()):
        self.top, self.actions, self.keeps, self.pays = list(top), list(actions), list(keeps), list(pays)
        self.asked_pay = 0

    def shuffle(self, cards):
        first = [c for t in self.top for c in cards if c.id == t]
        self.top = []
        return first + [c for c in cards if c not in first]

    def community(self, count, needed):
        return list(range(needed))

    def action(self, table, player, legal):
        action = self.actions.pop(0)
        assert action in legal, (action, legal)
        return action

    def keep(self, table, player, drawn):
        return self.keeps.pop(0)

    def pay(self, table, player, card):
        self.asked_pay += 1
        return self.pays.pop(0)


def table(players=2, top=(), override=None, **choices):
    """A table after setup, with the deal's displays and eggs cleared for the test to fill."""
    t = Table(GAME.configure(players, override=override), Script(top, **choices))
    for p in t.players:
        p.display, p.eggs_on, p.bonus_cards, p.placed = [], {}, [], 0
    return t


def give(t, seat, *ids):
    t.players[seat].display.extend(t.cards[i] for i in ids)


def set_market(t, ids, coins):
    t.market = [t.cards[i] if i is not None else None for i in ids]
    t.market_coins = list(coins)


def test_heidi_pays_onto_the_other_two_before_taking_the_coins():
    t = table(actions=[L.A_MARKET + 0])
    heidi = t.players[0]
    heidi.coins = 4
    set_market(t, [cid(R, 3), cid(B, 5), cid(G, 6)], [2, 1, 0])
    t.turn(heidi)
    assert heidi.coins == 4                        # 4 - 1 - 1 + 2
    assert t.market_coins == [0, 2, 1]             # the new card carries no coin
    assert t.market[0] is not None and t.market[0].id not in (cid(R, 3), cid(B, 5), cid(G, 6))
    assert heidi.display[-1].id == cid(R, 3) and heidi.market_buys == 1


def test_coins_on_the_bought_card_cannot_pay_for_the_others():
    t = table()
    p = t.players[0]
    set_market(t, [cid(R, 3), cid(B, 5), cid(G, 6)], [5, 1, 1])
    p.coins = 1
    assert t.legal_actions(p) == [L.A_COINS]
    p.coins = 2
    assert t.legal_actions(p) == [0, 1, 2, L.A_COINS]
    p.coins = 3
    assert t.legal_actions(p) == [0, 1, 2, L.A_BLIND, L.A_COINS]
    set_market(t, [cid(R, 3), None, None], [5, 0, 0])   # a short market: nothing to pay onto
    p.coins = 0
    assert t.legal_actions(p) == [0, L.A_COINS]
    p.coins = 1
    assert t.legal_actions(p) == [0, L.A_BLIND, L.A_COINS]


def test_blind_buy_pays_all_three_draws_three_keeps_one():
    t = table(actions=[L.A_BLIND], keeps=[1])
    p = t.players[0]
    p.coins = 5
    set_market(t, [cid(R, 3), cid(B, 5), cid(G, 6)], [1, 0, 2])
    top3 = [c.id for c in t.pile[:3]]
    t.turn(p)
    assert p.coins == 2 and t.market_coins == [2, 1, 3]
    assert p.display[-1].id == top3[1]
    assert [c.id for c in t.discard] == [top3[0], top3[2]]
    assert p.blind_buys == 1


def test_take_coins_and_a_limited_supply():
    t = table(actions=[L.A_COINS, L.A_COINS], override={"game": {"coin_supply": 50}})
    p = t.players[0]
    assert t.supply == 50 - 19 - 3
    p.coins = 0
    t.turn(p)
    assert p.coins == 5 and p.coin_takes == 1
    t.supply = 2
    t.turn(p)
    assert p.coins == 7 and t.supply == 0


def test_empty_pile_is_refilled_from_the_discard_pile_and_then_runs_dry():
    t = table(actions=[L.A_MARKET + 0, L.A_MARKET + 1])
    p = t.players[0]
    p.coins = 10
    set_market(t, [cid(R, 3), cid(B, 5), cid(G, 6)], [0, 0, 0])
    t.pile, t.discard = [], [t.cards[cid(P, 1)]]
    t.turn(p)
    assert t.market[0].id == cid(P, 1) and t.discard == [] and t.pile == []
    assert L.A_BLIND not in t.legal_actions(p)
    t.turn(p)
    assert t.market[1] is None


def test_pay_cards_dealt_at_setup_are_replaced_and_shuffled_back():
    t = Table(GAME.configure(2), Script(top=[PAY5, cid(R, 1), cid(R, 2), cid(R, 3), cid(R, 4)]))
    assert [c.id for c in t.players[0].display] == [cid(R, 1), cid(R, 2)]
    assert [c.id for c in t.players[1].display] == [cid(R, 3), cid(R, 4)]
    assert PAY5 in [c.id for c in t.pile] + [c.id for c in t.market if c]


def test_free_egg_is_placed_at_setup():
    t = Table(GAME.configure(2), Script(top=[FREE, cid(R, 1)]))
    assert t.players[0].placed == 1 and t.players[0].eggs_on == {FREE: 1}


@pytest.mark.parametrize("coins, pays, eggs, coins_after, asked", [
    (7, [True], 1, 2, 1),
    (7, [False], 0, 7, 1),
    (4, [], 0, 4, 0),        # cannot afford: not even asked
])
def test_pay_five_only_when_laid_out(coins, pays, eggs, coins_after, asked):
    t = table(actions=[L.A_MARKET + 0, L.A_COINS], pays=pays)
    p = t.players[0]
    set_market(t, [PAY5, cid(B, 5), cid(G, 6)], [2, 0, 0])
    p.coins = coins + 2 - 2       # pays 2, takes 2
    t.turn(p)
    assert (p.placed, p.coins, t.source.asked_pay) == (eggs, coins_after, asked)
    t.turn(p)                     # later, with coins: never again
    assert p.placed == eggs and t.source.asked_pay == asked


def test_black_card_bonus_rewards_at_most_two_later_black_cards():
    t = table(actions=[L.A_MARKET + 0] * 3)
    p = t.players[0]
    give(t, 0, cid("black", 0, 5))          # a black card laid out before the bonus card does not count
    t.lay_out(p, t.cards[ST_BONUS])
    assert p.placed == 0
    for k, black in enumerate((cid("black", 0, 4), cid("black", 0, 0), cid("black", 0, 3))):
        p.coins = 10
        set_market(t, [black, cid(B, 5), cid(G, 6)], [0, 0, 0])
        t.turn(p)
        bonus_eggs = min(k + 1, 2)
        assert p.eggs_on.get(ST_BONUS, 0) == bonus_eggs
        assert p.coins == 10 - 2 + (3 if k < 2 else 0)
    # the third black card was itself a bonus card: it starts its own count, it does not reward itself
    assert p.eggs_on.get(cid("black", 0, 3), 0) == 0


def test_community_card_two_eggs_to_the_completer_one_to_the_neighbour_once():
    t = table(players=3, actions=[L.A_MARKET + 0, L.A_MARKET + 0],
              override={"community": {"cards": ["4 black cards", "8 cards 1-4", "8 cards 5-8"]}})
    assert (t.community[0].left, t.community[0].right) == (0, 1)
    give(t, 0, cid("black", 0, 4), cid("black", 0, 5))
    give(t, 1, cid("black", 0, 7))
    p1 = t.players[1]
    p1.coins = 10
    set_market(t, [cid("black", 0, 3), cid(B, 5), cid(G, 6)], [0, 0, 0])
    t.turn(p1)
    assert [p.placed for p in t.players] == [1, 2, 0] and t.community[0].done
    p1.coins = 10
    set_market(t, [cid(R, 1), cid(B, 5), cid(G, 6)], [0, 0, 0])
    t.turn(p1)
    assert [p.placed for p in t.players] == [1, 2, 0]   # still met, but the card completes only once


def test_the_round_is_finished_after_a_player_runs_out_of_eggs():
    t = table(players=3, actions=[L.A_COINS, L.A_MARKET + 0, L.A_MARKET + 0])
    t.players[1].placed = 11
    t.players[2].placed = 12
    for p in t.players:
        p.coins = 10
    set_market(t, [FREE, cid(B, 5), cid(G, 6)], [0, 0, 0])
    t.pile.insert(0, t.cards[cid("black", 0, 1)])     # the refill: the other free-egg card
    result = t.play()
    assert result.finished and result.rounds == 1
    assert result.turns == [1, 1, 1]                 # seat 2 still plays after seat 1 ran out
    assert result.placed == [0, 12, 13] and result.golden == [0, 0, 1]
    assert result.winners == [2]


@pytest.mark.parametrize("placed, coins, winners, ranks", [
    ([12, 11], [0, 99], [0], [1, 2]),                    # all eggs placed beats money
    ([13, 12], [0, 50], [0], [1, 2]),                    # then golden eggs
    ([13, 13], [4, 5], [1], [2, 1]),                     # then coins
    ([13, 12, 13], [5, 9, 5], [0, 2], [1, 3, 1]),        # else shared
])
def test_winner_order(placed, coins, winners, ranks):
    t = table(players=len(placed))
    for p, n, c in zip(t.players, placed, coins):
        p.placed, p.coins = n, c
    result = t.result(True)
    assert result.winners == winners and result.ranks == ranks
    assert result.golden == [max(0, n - 12) for n in placed]
