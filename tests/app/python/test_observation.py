"""The per-player view: in Lost Cities, `observation(seat)` and
`observation_json(seat)` hold the seat's own hand and what is public (expeditions, piles, the
deck's size, the cards the seat saw the opponent take from the piles), never the opponent's
hand or the deck. Checked against the whole state (`to_string()`) along random playouts, and by
two states that differ only in a card drawn into the other seat's hand."""
import collections
import random
import re

import pytest

import ddalab

COLOURS = "YBWGR"
RANKS = 10  # per colour: the wager (rank 0) and the numbers 2..10
WAGERS = 3  # copies of each colour's wager; every number card is unique
CARD = re.compile(r"(?<![A-Za-z0-9])[YBWGR](?:w|10|[2-9])(?![A-Za-z0-9])")
ALL_CARDS = collections.Counter({f"{c}{'w' if r == 0 else r + 1}": WAGERS if r == 0 else 1
                                 for c in COLOURS for r in range(RANKS)})
PLAYOUTS = [({}, seed) for seed in range(8)] + [({"hand_size": 5}, seed) for seed in range(4)]


def card_name(kind):
    colour, rank = divmod(kind, RANKS)
    return COLOURS[colour] + ("w" if rank == 0 else str(rank + 1))


def cards(text):
    return collections.Counter(CARD.findall(text))


def parse(text):
    """The parts of a Lost Cities state's text (LostCitiesState::describe): each seat's hand
    (None when hidden) or hand size, expeditions, the cards the other seat saw it take; piles."""
    lines = text.split("\n")
    deck = int(re.search(r", deck (\d+)", lines[0]).group(1))
    seats = []
    for p in range(2):
        line = next(s for s in lines if s.startswith(f"player {p}: "))
        hand_part, expeditions, _ = line.split(" | ")
        hidden = re.fullmatch(rf"player {p}: hand of (\d+) cards \(hidden\)", hand_part)
        known = next(s for s in lines if s.startswith(f"  known to player {1 - p} "))
        seats.append({"hand": None if hidden else cards(hand_part),
                      "hand_size": int(hidden.group(1)) if hidden else None,
                      "expeditions": cards(expeditions), "known": cards(known)})
    piles = next(s for s in lines if s.startswith("piles:"))
    pile_lists = [CARD.findall(p) for p in re.findall(r"\[([^\]]*)\]", piles)]
    return {"deck": deck, "seats": seats, "piles": pile_lists}


def json_cards(view):
    """Every card a JSON observation names (its own hand, both seats' expeditions, pile tops)."""
    named = [card_name(k) for k in view["you"]["hand"]]
    for side in ("you", "opponent"):
        named += [card_name(k) for colour in view[side]["expeditions"] for k in colour]
    named += [card_name(p["top"]) for p in view["piles"] if p["top"] is not None]
    return collections.Counter(named)


def check_view(state, seat):
    other = 1 - seat
    full, seen = parse(state.to_string()), state.observation(seat)
    view = parse(seen)
    hand, other_hand = full["seats"][seat]["hand"], full["seats"][other]["hand"]
    # The text: the opponent's hand replaced by its size, nothing else changed.
    assert view["seats"][other]["hand"] is None
    assert view["seats"][other]["hand_size"] == sum(other_hand.values())
    assert view["seats"][seat] == full["seats"][seat]
    assert view["seats"][other]["expeditions"] == full["seats"][other]["expeditions"]
    assert view["seats"][other]["known"] == full["seats"][other]["known"]
    assert (view["piles"], view["deck"]) == (full["piles"], full["deck"])
    assert cards(seen) == cards(state.to_string()) - other_hand
    # The deck: every card not in a hand, an expedition or a pile; none of it is shown.
    placed = hand + other_hand + sum((s["expeditions"] for s in full["seats"]),
                                     collections.Counter())
    placed += collections.Counter(c for pile in full["piles"] for c in pile)
    deck = ALL_CARDS - placed
    assert sum(deck.values()) == full["deck"] and not placed - ALL_CARDS
    # What the seat saw the opponent take from the piles is public; the rest of its hand is not.
    # (A card of its own hand the opponent saw it take is printed twice: counted once here.)
    secret = other_hand - view["seats"][other]["known"]
    shown = cards(seen) - view["seats"][seat]["known"]
    for card in secret + deck:
        assert shown[card] <= ALL_CARDS[card] - secret[card] - deck[card], (seat, card, seen)
    # The JSON view: its own hand, the opponent's hand size only, the deck's size only.
    data = state.observation_json(seat)
    assert collections.Counter(card_name(k) for k in data["you"]["hand"]) == hand
    assert set(data["opponent"]) == {"handSize", "expeditions", "score"}
    assert data["opponent"]["handSize"] == sum(other_hand.values())
    assert data["deck"] == full["deck"]
    named = json_cards(data)
    for card in other_hand + deck:
        assert named[card] <= ALL_CARDS[card] - other_hand[card] - deck[card], (seat, card)


def playout(params, seed):
    """The states of one random playout: (state, the seat a pending deck draw goes to)."""
    state = ddalab.Game("lost-cities", params).new_initial_state(seed)
    rng, mover = random.Random(seed), None
    while not state.is_terminal():
        yield state, mover if state.is_environment_node() else None
        if state.is_environment_node():
            state.apply_natural()
        else:
            mover = state.current_player()
            state.apply(rng.choice(state.legal_actions()))
    yield state, None


@pytest.mark.parametrize("params, seed", PLAYOUTS)
def test_a_seat_never_sees_the_other_hand_or_the_deck(params, seed):
    states = 0
    for state, _ in playout(params, seed):
        for seat in (0, 1):
            check_view(state, seat)
        states += 1
    assert states > 50


@pytest.mark.parametrize("params, seed", PLAYOUTS[:6])
def test_a_card_drawn_into_the_other_hand_leaves_the_view_unchanged(params, seed):
    """Two outcomes of a deck draw give two states that differ only in the drawer's hand: the
    other seat's view is the same for both; the drawer's is not."""
    draws = 0
    for state, drawer in playout(params, seed):
        if drawer is None:
            continue
        outcomes = [a for a, _ in state.chance_outcomes()]
        if len(outcomes) < 2:
            continue
        first, second = state.clone(), state.clone()
        first.apply(outcomes[0])
        second.apply(outcomes[-1])
        other = 1 - drawer
        assert first.observation(other) == second.observation(other)
        assert first.observation_json(other) == second.observation_json(other)
        assert first.observation(drawer) != second.observation(drawer)
        assert first.observation_json(drawer) != second.observation_json(drawer)
        draws += 1
    assert draws > 10
