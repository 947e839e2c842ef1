"""The numbers of 20th Century's rules that the rulebook states (Vladimír Suchý, *20th Century*, Czech Games
Edition 2010, rulebook, Italian edition), each with its sentence. The components' numbers (tiles, tracks,
catastrophes) are data: ``data/*.toml``."""

from __future__ import annotations

MIN_PLAYERS, MAX_PLAYERS = 3, 5
ROUNDS = 6  # 'Il gioco si compone di cinque round completi e di un sesto round più breve.'
LAST_FULL_ROUND = 5
BONUS_ROUNDS = (2, 4, 6)  # 'alla fine del round II, IV e VI, i giocatori guadagnano punti bonus'
START_COINS = 10  # 'Ogni giocatore inizia il gioco con 10 monete e 10 punti scienza'
START_SCIENCE = 10
START_CITIZENS = 2  # 'ci mette sopra un cubo rifiuti e due gettoni cittadino'
START_CUBES = 1
# 'si distribuiscono 8 territori e 6 tecnologie' (5 players), '6 territori e 5 tecnologie' (4), '5 territori e 4
# tecnologie' (3)
OFFERS = {3: (5, 4), 4: (6, 5), 5: (8, 6)}
MAX_LAND_OFFER, MAX_TECH_OFFER = 8, 6
ERA_OF_ROUND = {1: "I-II", 2: "I-II", 3: "III-IV", 4: "III-IV", 5: "V"}
# 'L'offerta di partenza minima ... (2 monete nei round uno e due, 3 monete nei round tre e quattro e 4 monete nel
# round cinque)'
MIN_LAND_PRICE = {1: 2, 2: 2, 3: 3, 4: 3, 5: 4}
CONSOLATION_EXTRA = 2  # '4, 5, o 6 monete, secondo il round. (Prendere il prezzo minimo ... ed aggiungere 2.)'
CATASTROPHE_BID_MAX = 25  # 'L'offerta minima è 0 e la massima è 25.'
CATASTROPHES_PER_ERA = {"I-II": 2, "III-IV": 2, "V": 1}  # 'due etichettate I-II, due ... III-IV, e una ... V'
RANK_AWARDS = (8, 5, 3, 1)  # 'Il giocatore con più monete ottiene 8 punti. Il secondo ... 5 ... 3 ... 1 punto.'
EXTRA_CUBE_PENALTY = 5  # '2 rifiuti è -5; 3 rifiuti è -10; 4 rifiuti è -15; ecc.'
SCORING_CARDS = ("a", "b", "c")  # three for round II and three for round IV
R2_CARD_C_CLEAN_TILE = 6  # 'Ottieni 6 punti vittoria per ogni tessera territorio che non ha cubi rifiuti'
R4_CARD_A_PER_CENTRE = 2  # 'Ottieni 2 punti vittoria per ogni centro riciclaggio in funzione.'


def rank_awards(num_players: int) -> tuple[int, ...]:
    """Awards by place for coins and science: 'Il giocatore con meno monete ottiene sempre 0 punti per il commercio.
    Così in una partita a quattro giocatori, si assegnano solo bonus da 8, 5 e 3.'"""
    return (*RANK_AWARDS[: num_players - 1], 0)


def consolation(round_: int) -> int:
    """Coins for a player who won no land tile this round (Consolazione)."""
    return MIN_LAND_PRICE[round_] + CONSOLATION_EXTRA


def extra_cube_penalty(cubes: int) -> int:
    """Final scoring of a land tile with ``cubes`` >= 1: one is neutral, each more costs 5."""
    return -EXTRA_CUBE_PENALTY * max(0, cubes - 1)
