#!/usr/bin/env python3
"""Our deals as lonelybot's `exact` seeds, so that both solvers read the
same deals.

Reads lines "DEAL: c c / c c / ... | t t t" (from
`cargo bench --bench klondike_quotient -- RULES FIRST LAST 1 --layouts`:
columns bottom first, talon in dealing order, our card numbers
suit*13 + rank - 1, suits clubs, diamonds, hearts, spades) and prints
"DEAL EXACT" per line.

lonelybot's deck (src/shuffler.rs, src/state.rs): 28 tableau cards, pile i
at i(i+1)/2 bottom first, then the 24 talon cards, the first dealt first;
a card is rank*4 + suit (rank 0..12; suits hearts, diamonds, clubs,
spades) with bit 1 flipped when bit 2 is set (its colour trick); the
exact seed numbers permutations as its encode_shuffle does.
"""
import sys

# our suit (clubs, diamonds, hearts, spades) -> lonelybot's suit index
LB_SUIT = [2, 1, 0, 3]


def lb_card(ours):
    rank, suit = ours % 13, LB_SUIT[ours // 13]
    v = rank * 4 + suit
    return v ^ ((v >> 1) & 2)


def encode(cards):
    cards = list(cards)
    code = 0
    for i in range(51, 0, -1):
        v = i
        target = v ^ ((v >> 1) & 2)  # Card::new(i/4, i%4)
        pos = cards[: i + 1].index(target)
        code = code * (i + 1) + pos
        cards[pos], cards[i] = cards[i], cards[pos]
    return code


for line in sys.stdin:
    deal, rest = line.split(": ", 1)
    cols, talon = rest.split(" | ")
    deck = []
    for col in cols.split(" / "):
        deck += [lb_card(int(c)) for c in col.split()]
    deck += [lb_card(int(c)) for c in talon.split()]
    assert sorted(deck) == list(range(52)), deal
    print(deal, encode(deck))
