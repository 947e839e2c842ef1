"""Saved games: JSON save and load give back the identical game; corrupt or inconsistent files are refused with a
GameStateError whose message names the entry."""

from __future__ import annotations

import json
import random

import pytest

from industry_env.games.industry.reference import Game, GameStateError

from .helpers import BOARD, POSITIONS, F, hand, position_doc


def _game_after(n: int, seed: int, steps: int) -> Game:
    rng = random.Random(seed)
    g = Game(n, seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("steps", [0, 1, 5, 37, 120, 250, 10_000])
@pytest.mark.parametrize("n", [3, 4])
def test_save_load_identical(n, steps):
    g = _game_after(n, steps, steps)
    text = g.to_json()
    h = Game.from_json(text)
    assert h.to_json() == text
    assert (h.phase, h.current_player, h.legal_actions(), h.scores()) == (
        g.phase, g.current_player, g.legal_actions(), g.scores())  # fmt: skip
    assert h.is_over == (steps == 10_000)


def test_saved_positions_load_and_save_identically():
    files = sorted(POSITIONS.glob("*.json"))
    assert len(files) >= 4
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        g = Game.from_json(json.dumps(doc), board=BOARD)
        assert json.loads(g.to_json()) == doc, path.name


def test_from_json_accepts_bytes_and_any_spacing():
    g = Game(4, 1)
    doc = json.loads(g.to_json())
    assert Game.from_json(json.dumps(doc, indent=3)).to_json() == g.to_json()
    assert Game.from_json(g.to_json().encode()).to_json() == g.to_json()


# A clean position to corrupt: 4 players, era 2, development of player 0, who owns 2E undeveloped and 1D developed;
# everything else of era 1 belongs to player 3; the Brick joker (2A) was taken. The bag holds the other 10 tokens.
def _doc() -> dict:
    return position_doc(4, era=1, phase="develop", developer=0, starting_player=0, owned={"2E": 0, "1D": (0, True)},
                        jokers_taken=("2A",), bag=[1, 2, 3, 5, 6, 7, 8, 9, 10, 11],
                        claimed=[False] * 60)  # fmt: skip


def _set(key, value):
    def mutate(doc):
        doc[key] = value

    return mutate


def _item(key, index, value):
    def mutate(doc):
        doc[key][index] = value

    return mutate


def _del(key):
    return lambda doc: doc.pop(key)


def _both(*mutations):
    def mutate(doc):
        for m in mutations:
            m(doc)

    return mutate


def _auction_doc() -> dict:
    """Era 1, player 1 auctions 1E; bids awaited. Columns E, F, I, J are face up."""
    return position_doc(4, phase="bid", auctioneer=1, starting_player=1, lot=F("1E"), bidder=2, money=[5, 5, 5, 5])


CORRUPT = [
    # (description, mutation of a clean saved game, entry the message must name)
    ("wrong version", _set("version", 2), "version"),
    ("no version", _del("version"), "version"),
    ("missing entry", _del("money"), "money"),
    ("missing entry pending", _del("pending"), "pending"),
    ("unknown entry", _set("colour", "red"), "colour"),
    ("num_players 5", _set("num_players", 5), "num_players"),
    ("num_players text", _set("num_players", "4"), "num_players"),
    ("num_players float", _set("num_players", 4.0), "num_players"),
    ("balanced_draws not bool", _set("balanced_draws", 1), "balanced_draws"),
    ("seed negative", _set("seed", -1), "seed"),
    ("seed text", _set("seed", "0"), "seed"),
    ("era out of range", _set("era", 5), "era"),
    ("era bool", _set("era", True), "era"),
    ("round zero", _set("round", 0), "round"),
    ("starting_player out of range", _set("starting_player", 4), "starting_player"),
    ("money negative", _item("money", 2, -1), "money"),
    ("money text", _item("money", 2, "5"), "money"),
    ("money too short", _set("money", [5, 5, 5]), "money"),
    ("points negative", _item("points", 1, -3), "points"),
    ("owner out of range", _item("owner", F("2E"), 4), "owner"),
    ("face_up not bools", _set("face_up", [0] * 12), "face_up"),
    ("face_up too short", _set("face_up", [False] * 11), "face_up"),
    ("claimed too long", _set("claimed", [True] * 61), "claimed"),
    ("developed as text", _set("developed", "none"), "developed"),
    ("bag column 12", _set("bag", [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12]), "bag"),
    ("bag not a list", _set("bag", 3), "bag"),
    ("jokers wrong shape", _set("jokers", [[0] * 11] * 4), "jokers"),
    ("jokers negative", _set("jokers", [hand({}), [-1] + [0] * 11, hand({}), hand({})]), "jokers"),
    ("subsidy not bools", _set("subsidy", [0, 0, 0, 0]), "subsidy"),
    ("phase unknown", _set("phase", "lunch"), "phase"),
    ("developments 2", _set("developments", 2), "developments"),
    ("dev_turns 4", _set("dev_turns", 4), "dev_turns"),
    ("lot out of range", _set("lot", 60), "lot"),
    ("pending not a list", _set("pending", 1), "pending"),
    # inconsistent entries
    ("owner on unclaimed field", _item("owner", F("2F"), 1), "owner"),
    ("claimed field with no owner", _item("claimed", F("2F"), True), "owner"),
    ("developed but unowned", _item("developed", F("2F"), True), "developed"),
    ("joker field with owner", _item("owner", F("2A"), 0), "owner"),
    ("field of a later era claimed", _both(_item("claimed", F("3E"), True), _item("owner", F("3E"), 0)), "claimed"),
    ("field of a past era unclaimed", _both(_item("claimed", F("1H"), False), _item("owner", F("1H"), -1)), "claimed"),
    ("bag holding a drawn token", _set("bag", [0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11]), "bag"),
    ("bag holding a token twice", _set("bag", [1, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11]), "bag"),
    ("column token lost", _set("bag", [2, 3, 5, 6, 7, 8, 9, 10, 11]), "bag"),
    ("face up token on auctioned field", _item("face_up", 0, True), "face_up"),
    ("pay phase without a field being paid", _set("phase", "pay"), "pending"),
    ("development awaited from nobody", _set("developer", -1), "developer"),
    ("auction with no face-up token", _set("phase", "auction"), "face_up"),
    ("a bid with no bidder", _set("high_bid", 3), "high_bid"),
    (
        "paying a resource the field does not need",
        _both(_set("phase", "pay"), _set("developing", F("2E")), _set("pending", [0])),
        "pending",
    ),  # 2E needs Wood
    ("game over before era 5", _set("phase", "over"), "phase"),
]


@pytest.mark.parametrize(("what", "mutate", "entry"), CORRUPT, ids=[c[0] for c in CORRUPT])
def test_corrupt_saved_game_refused_naming_the_entry(what, mutate, entry):
    doc = _doc()
    Game.from_json(json.dumps(doc))  # the clean document loads
    mutate(doc)
    with pytest.raises(GameStateError) as info:
        Game.from_json(json.dumps(doc))
    assert entry in str(info.value), f"{what}: {info.value}"


AUCTION_CORRUPT = [
    ("bid awaited from the auctioneer", _set("bidder", 1), "bidder"),
    ("bid awaited from nobody", _set("bidder", -1), "bidder"),
    (
        "lot already auctioned",
        _both(
            _set("lot", F("1D")),
            _item("claimed", F("1D"), True),
            _item("owner", F("1D"), 0),
            _set("bag", [10, 2, 1, 11, 7, 0, 6]),
        ),
        "lot",
    ),  # fmt: skip
    ("lot not face up", _set("lot", F("1G")), "lot"),
    ("lot of another era", _set("lot", F("2E")), "lot"),
    ("highest bidder without a bid", _set("high_bidder", 3), "high_bid"),
    ("decision with no bid", _set("phase", "sell_or_keep"), "high_bid"),
    ("bid above the bidder's money", _both(_set("high_bidder", 2), _set("high_bid", 6), _set("bidder", 3)), "high_bid"),
    ("highest bidder is the auctioneer", _both(_set("high_bidder", 1), _set("high_bid", 2)), "high_bidder"),
    (
        "keep decision above the money",
        _both(_set("phase", "sell_or_keep"), _set("high_bidder", 3), _set("high_bid", 9)),
        "high_bid",
    ),  # fmt: skip
]


@pytest.mark.parametrize(("what", "mutate", "entry"), AUCTION_CORRUPT, ids=[c[0] for c in AUCTION_CORRUPT])
def test_corrupt_auction_refused_naming_the_entry(what, mutate, entry):
    doc = _auction_doc()
    Game.from_json(json.dumps(doc))
    mutate(doc)
    with pytest.raises(GameStateError) as info:
        Game.from_json(json.dumps(doc))
    assert entry in str(info.value), f"{what}: {info.value}"


@pytest.mark.parametrize("text", ["", "{", "not json", "[1, 2]", "null", "42", '"game"'])
def test_not_a_saved_game_refused(text):
    with pytest.raises(GameStateError, match="JSON|object"):
        Game.from_json(text)


def test_from_json_refuses_non_text():
    with pytest.raises(GameStateError):
        Game.from_json(None)


def test_three_player_game_refuses_player_3():
    doc = json.loads(Game(3, 0).to_json())
    doc["starting_player"] = 3
    with pytest.raises(GameStateError, match="starting_player"):
        Game.from_json(json.dumps(doc))


def test_refused_document_leaves_nothing_behind():
    # A refused document raises before any game exists; the same text fixed loads normally.
    doc = _doc()
    doc["money"][0] = -1
    with pytest.raises(GameStateError):
        Game.from_json(json.dumps(doc))
    doc["money"][0] = 3
    assert Game.from_json(json.dumps(doc)).s.money[0] == 3


def test_a_saved_games_board_entry_is_never_opened():
    # The board comes from the caller (the shipped one by default); a path inside the position names no file to read.
    g = _game_after(4, 7, 20)
    doc = json.loads(g.to_json())
    for named in ("../../etc/hostname", "/nonexistent/board.toml"):
        h = Game.from_json(json.dumps({**doc, "board": named}))
        assert h.board is g.board and h.legal_actions() == g.legal_actions()
