"""Numbers and names fixed by the rulebook of Age of Industry itself (not by a printed component).

Each constant cites the rulebook sentence it encodes (*Age of Industry*, Martin Wallace, Treefrog Games 2010,
second edition, by section). Component numbers (the player display, the deck, the market tiles, the demand track's
spaces, the loan tile, the maps) live in ``data/*.toml`` instead; see :mod:`.components`.
"""

from __future__ import annotations

MIN_PLAYERS, MAX_PLAYERS = 3, 5  # Il Tabellone di Gioco: "Entrambe le mappe sono disegnate per ... da 3 a 5 giocatori"

# Descrizione dei segnalini: "Cotonifici, Fabbriche, Miniere, Acciaierie, Porti e Navi".
INDUSTRIES = ("cotton_mill", "factory", "coal_mine", "iron_works", "port", "ship")
COTTON_MILL, FACTORY, COAL_MINE, IRON_WORKS, PORT, SHIP = range(6)
NUM_INDUSTRIES = len(INDUSTRIES)
INDUSTRY_LABELS = ("cotton mill", "factory", "coal mine", "iron works", "port", "ship")

# Restrizioni imposte dalla casella/località: the symbols of the build spaces, and what each takes.
SPACE_SYMBOLS = ("blank", "coal", "port", "ship")
BLANK, COAL_SPACE, PORT_SPACE, SHIP_SPACE = range(4)
# "Se le caselle non contengono nessun simbolo allora possono ospitare cotonifici, fabbriche o acciaierie."
# "Se la casella contiene il simbolo di una miniera allora può contenere solo miniere." (and likewise ports, ships)
ALLOWED = {
    BLANK: (COTTON_MILL, FACTORY, IRON_WORKS),
    COAL_SPACE: (COAL_MINE,),
    PORT_SPACE: (PORT,),
    SHIP_SPACE: (SHIP,),
}

RESOURCES = ("coal", "iron")  # the two kinds of cubes (black and orange)
COAL, IRON = 0, 1
GOODS = ("cotton", "goods")  # what cotton mills and factories sell
COTTON, MANUFACTURED = 0, 1

NUM_FACE_UP = 2  # Iniziare il gioco: "Pesca le prime due carte del mazzo e posizionale scoperte"
HAND_SIZE = 6  # "Distribuisci 6 carte a ciascun giocatore" (second edition)
HAND_SIZE_FIRST_EDITION_4P = 5  # first edition (public, see docs): 5 cards with 4 players
HAND_LIMIT = 9  # Pescare due carte: "Il limite di carte che puoi tenere in mano è di nove carte."
CARDS_PER_DRAW = 2  # AZIONE Pescare due carte
ACTIONS_PER_TURN = 2  # Prima Fase: "ogni giocatore deve compiere due azioni"
ACTIONS_FIRST_ROUND = 1  # "durante il primo round di gioco in cui ogni giocatore dovrà compiere una sola azione"
RAILS_PER_PLAYER = 12  # Componenti: "Dodici segnalini ferrovia" (per player)
RAIL_COST = 1  # "Il primo tratto ferroviario ti costerà $1. In seguito ogni tratta ferroviaria costerà $1"
EMPTY_DEMAND_PRICE = 4  # "In questo caso le materie prime avranno un costo di $4."
RAIL_INCOME = 2  # Vincere il gioco: "$2 più il numero di caselle occupate a ciascuna estremità della tratta"
DOLLARS_PER_POINT = 5  # "Ogni $5 che il giocatore possiede valgono 1 punto vittoria."
POINTS_PER_UNPAID_LOAN = 5  # "restituire 5 punti vittoria ogni $10 di prestiti non ancora saldati"
# Restrizioni imposte dalla casella/località: "Se la località contiene fino a tre caselle puoi occuparne solamente
# una. Se la località ha quattro o più caselle allora puoi occuparne due."
BIG_LOCATION = 4
MAX_SPACES_SMALL, MAX_SPACES_BIG = 1, 2


def spaces_allowed(build_spaces: int) -> int:
    """How many spaces of a location one player may occupy: one with 1-3 build spaces, two with 4 or more."""
    return MAX_SPACES_BIG if build_spaces >= BIG_LOCATION else MAX_SPACES_SMALL
