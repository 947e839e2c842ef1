"""``industry-env play --game age_of_industry``: each choice's price, what each move did, every display, a place
lookup and the links, 'back' before a move is complete, the final table in points, a fresh deal each game; and
never another seat's hand or a card it drew."""

from __future__ import annotations

import io
import json
import re

import pytest

from industry_env.cli import build_parser, main
from industry_env.games.age_of_industry import playtext
from industry_env.games.age_of_industry.reference import Game
from industry_env.play import cmd_play
from industry_env.records import load, replay

NE = ("--game", "age_of_industry", "-o", "map=new_england")


def play(lines: list[str], *argv: str, record: str = "none") -> str:
    """Everything ``play`` prints for Age of Industry when typed ``lines`` (then end of input)."""
    args = build_parser().parse_args(["play", "--record", record, *NE, *argv])
    out = io.StringIO()
    assert cmd_play(args, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out) == 0
    return out.getvalue()


def test_a_build_choice_says_its_price_level_and_the_loan_it_takes() -> None:
    # seed 3, 4 players: player 0 plays first in round 1, with $0 and a cotton mill card
    text = play(["build with cotton_mill", "quit"], "--seed", "3")
    assert "build cotton_mill at one of these spaces, each: level 1, $4, pays $8 when it flips; costs $4 (taking " \
        "1 loan of $10)" in text  # fmt: skip
    assert "[1] Portland:2  [2] Portland:3" in text
    game = Game(4, seed=3, map="new_england")
    game.apply(game.string_to_action("build with cotton_mill"))
    line = playtext.choice_text(game, game.string_to_action("build cotton_mill at Portland:2"))
    assert (
        line == "build cotton_mill at Portland:2: level 1, $4, pays $8 when it flips; costs $4 (taking 1 loan of $10)"
    )


def test_a_move_is_echoed_with_its_effect_loans_included() -> None:
    text = play(["build with cotton_mill", "build cotton_mill at Portland:2", "quit"], "--seed", "3")
    assert "you: build with cotton_mill -> build cotton_mill at Portland:2" in text
    assert "cotton mill 1 at Portland:2, cotton mill card discarded, paid $4 (taking 1 loan of $10), you now have " \
        "$6 and 1 loan" in text  # fmt: skip
    assert "you pay $1 interest on 1 loan" in text  # the end of the round, apart
    assert "1 loans" not in text and "1 cubes" not in text


def test_every_display_and_the_known_cards_are_shown_never_another_hand() -> None:
    text = play(["board", "display 2", "quit"], "--seed", "3", "--players", "3")
    game = Game(3, seed=3, map="new_england")
    assert "player 0 (you): $0, 0 loans, 12 rails left, hand: " in text
    for q in (1, 2):
        assert re.search(rf"^player {q}: \$\d+, \d+ loans?, \d+ rails? left, \d+ cards? in hand", text, re.M)
    assert text.count("counters left: cotton mill 1 1 2 2 3 3") >= 1
    assert "player 2's display" in text and "income" in text
    hidden = [playtext.cards_text(game, game.s.hand[q]) for q in (1, 2)]
    assert not any(f"hand: {h}" in text for h in hidden)


def test_a_card_taken_face_up_is_named_a_card_drawn_from_the_deck_only_to_its_drawer() -> None:
    game = Game(3, seed=3, map="new_england")
    p, A = game.current_player, game.space
    before = game.s.copy()
    face = playtext.card_name(game, game.s.face_up[0])
    game.apply(A.DRAW + 1)  # face-up 1
    game.apply(A.DRAW)  # then the deck
    mine = playtext.effect_phrases(game, before, game.s, p, p)
    theirs = playtext.effect_phrases(game, before, game.s, p, (p + 1) % 3)
    assert f"{face} taken face up" in mine and f"{face} taken face up" in theirs
    assert "drew 1 card from the deck" in theirs
    drew = next(w for w in mine if w.startswith("drew "))
    assert drew != "drew 1 card from the deck" and drew.endswith("from the deck")


def test_info_names_a_place_its_spaces_links_and_what_you_could_build() -> None:
    text = play(["info bost", "info penn", "info nowhere", "info", "links", "quit"], "--seed", "3")
    assert "Boston (purple)" in text and "Boston:1: port: free" in text
    assert "links: rail to Portsmouth, Lowell, Worcester, Fall River, Providence; sea to Massachusetts Bay" in text
    assert "rails may reach it but never pass through it" in text  # Pennsylvania
    assert "no place 'nowhere' on New England" in text and "name a place" in text
    assert "Boston: rail to Portsmouth" in text  # the links, one line a place


def test_back_takes_back_an_incomplete_build_and_the_record_forgets_it(tmp_path) -> None:
    path = tmp_path / "g.json"
    text = play(["build with cotton_mill", "back", "back", "quit"], "--seed", "3", record=str(path))
    assert "taken back: build with cotton_mill" in text
    assert "nothing to take back" in text
    record = load(path)
    game = replay(record)
    assert game.phase == "action" and game.current_player == 0 and sum(game.s.hand[0]) == 6
    assert game.history == list(record.actions)


def test_back_never_takes_back_a_card_drawn_from_the_deck() -> None:
    text = play(["draw deck", "back", "quit"], "--seed", "3", "--players", "3")
    assert "a card drawn from the deck cannot be put back" in text


@pytest.fixture(scope="module")
def whole_game() -> str:
    """A whole 3-player game on Germany, the person always taking the first choice."""
    return play(["0"] * 3000, "--seed", "7", "--players", "3", "-o", "map=germany")


def test_a_single_choice_is_played_and_said(whole_game) -> None:
    assert "only one choice, played for you:" in whole_game


def test_help_is_the_games_own(capsys) -> None:
    text = play(["help", "quit"], "--seed", "3")
    assert "info <place>" in text and "links" in text and "build with coal_mine" in text
    assert "bid 3" not in text and "auction 1D" not in text and "fields of this era" not in text
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    usage = " ".join(capsys.readouterr().out.split())
    assert "during a game of Age of Industry (--game age_of_industry), type:" in usage
    assert "during a game of Industry (--game industry), type:" in usage
    assert "ismcts" in usage and "mcts" in usage


def test_bad_input_points_to_help() -> None:
    text = play(["fly away", "quit"], "--seed", "3")
    assert "'fly away' is neither a choice nor a command" in text and "'help'" in text
    assert "expected 'build with <card>'" not in text


def test_the_final_table_is_in_points_and_sums_to_the_total(whole_game) -> None:
    text = whole_game
    table = text[text.index("points by source:") :].splitlines()
    assert table[1].split() == ["player", "money", "industries", "unpaid", "loans", "total"]
    for row in table[2:5]:
        cells = row.split()
        assert int(cells[1]) + int(cells[2]) + int(cells[3]) == int(cells[4])
    assert "money, in dollars (each $5 is a point):" in text and "rail income $" in text
    assert "{'" not in text and "seat " not in text  # no raw dict; one word for a player


def test_the_header_names_the_game_once_and_empty_hands_and_markets_read_plainly() -> None:
    text = play(["quit"], "--seed", "3")
    header = next(x for x in text.splitlines() if x.startswith("Age of Industry on "))
    assert header.count("Age of Industry") == 1 and "Treefrog" not in header
    assert "market: buys cotton and goods" in text and "market[" not in text
    game = Game(3, seed=3, map="new_england")
    game.s.hand[0] = [0] * len(game.s.hand[0])
    assert "hand: none" in "\n".join(playtext.player_lines(game, 0))
    assert "hand: no cards" in game.render()


def test_each_game_is_a_fresh_deal_kept_in_the_record_not_on_screen(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    texts = []
    for _ in range(2):
        args = build_parser().parse_args(["play", *NE])
        out = io.StringIO()
        assert cmd_play(args, stdin=io.StringIO("quit\n"), stdout=out) == 0
        texts.append(out.getvalue())
    files = sorted(tmp_path.glob("age_of_industry-game-*.json"))
    assert len(files) == 2  # one naming; the second game did not overwrite the first
    assert all(json.loads(f.read_text())["seed"] is None for f in files)  # unfinished: the seed is kept apart
    seeds = [load(f).seed for f in files]
    assert seeds[0] != seeds[1]
    for text, seed in zip(texts, seeds, strict=True):
        assert str(seed) not in text or seed < 1000  # a drawn seed has up to ten digits: it would show if printed


def test_an_existing_record_file_is_refused_before_the_game(tmp_path, capsys) -> None:
    path = tmp_path / "mine.json"
    path.write_text("keep me")
    assert main(["play", *NE, "--record", str(path)]) == 2
    assert "exists and is never overwritten" in capsys.readouterr().err
    assert path.read_text() == "keep me"


def test_docs_play_shows_what_the_terminal_prints() -> None:
    """Every line of docs/play.md's Age of Industry and Industry transcripts (the first and the last; but what is
    typed after '>') is printed by those very games."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "play.md").read_text()
    blocks = re.findall(r"```text\n(.*?)```", doc, re.S)
    blocks = [blocks[0], blocks[-1]]  # between them, 20th Century's
    runs = [play(["build with cotton_mill", "back", "info portland", "build with cotton_mill", "1", "quit"], "--seed",
                 "3"),
            _industry(["subsidy", "quit"], "--players", "3", "--seed", "2")]  # fmt: skip
    assert len(blocks) == len(runs) == 2
    for block, text in zip(blocks, runs, strict=True):
        printed = {line.removeprefix("> ") for line in text.splitlines()}
        for line in block.splitlines():
            if not line.startswith(">"):
                assert line in printed, line


def _industry(lines: list[str], *argv: str) -> str:
    args = build_parser().parse_args(["play", "--record", "none", *argv])
    out = io.StringIO()
    assert cmd_play(args, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out) == 0
    return out.getvalue()


def test_a_build_or_rail_says_where_its_coal_and_iron_come_from(whole_game) -> None:
    assert re.search(r"\] rail \S+: 1 coal from .*; 1 iron from .*; costs \$\d+", whole_game)
    assert re.search(r"build \w+ at .*each: level \d, \$\d+ \+ 1 (coal|iron).*from", whole_game) or re.search(
        r"\] build \w+ at \S+: level \d, \$\d+ \+ 1 (coal|iron), .*from", whole_game
    )


def test_a_face_up_card_replaced_by_one_of_its_kind_is_still_named() -> None:
    game = next(g for g in (Game(3, seed=s, map="new_england") for s in range(200))
                if g.s.deck[g.s.deck_pos + 1] == g.s.face_up[0])  # fmt: skip
    p, before, kind = game.current_player, game.s.copy(), playtext.card_name(game, game.s.face_up[0])
    actions = [game.space.DRAW + 1, game.space.DRAW]  # face-up 1, then the deck; face-up 1 refilled by its kind
    for a in actions:
        game.apply(a)
    assert game.s.face_up[0] == before.face_up[0]
    words = playtext.effect_phrases(game, before, game.s, p, (p + 1) % 3, actions=actions)
    assert f"{kind} taken face up" in words and "drew 1 card from the deck" in words
    assert f"new face up: {kind}" in words


def test_a_cube_bought_from_an_empty_demand_track_is_said_with_its_price(whole_game) -> None:
    assert re.search(r"rail \S+: 1 coal bought for \$4 \(the demand track is empty\); 1 iron bought for \$4 \(the "
                     r"demand track is empty\); costs \$9", whole_game)  # fmt: skip


def test_the_end_of_the_game_is_said(whole_game) -> None:
    end = whole_game.index("the game is over (the deck is empty")
    assert end < whole_game.index("final scores:")


def test_a_development_says_which_level_comes_next() -> None:
    game = Game(4, seed=3, map="new_england")
    game.apply(game.string_to_action("develop with grey"))
    first = playtext.choice_text(game, game.string_to_action("remove factory 0"))
    assert first.endswith("(a level-0 counter can never be built)") and "next factory" not in first
    game.apply(game.string_to_action("remove factory 0"))
    while game.current_player != 0 or game.phase != "action":
        game.apply(game.legal_actions()[-1])
    game.apply(next(a for a in game.legal_actions() if game.action_to_string(a).startswith("develop with")))
    second = playtext.choice_text(game, game.string_to_action("remove factory 0"))
    assert "your next factory is level 3" in second


def test_what_the_person_reads_never_depends_on_what_the_seat_cannot_see() -> None:
    """The board, every choice and every move's echo are the same in positions the seat cannot tell apart (the
    other hands and the deck redealt)."""
    import random

    rng = random.Random(1)
    game = Game(4, seed=11, map="germany")
    seen = differs = 0
    while not game.is_over and seen < 25:
        p = game.current_player
        if p == 0:
            twin = game.resample(0, rng=seen)
            assert playtext.board_text(twin, 0) == playtext.board_text(game, 0)
            assert [playtext.choice_text(twin, a) for a in game.legal_actions()] == [
                playtext.choice_text(game, a) for a in game.legal_actions()]  # fmt: skip
            seen += 1
            differs += twin.s.hand[1:] != game.s.hand[1:]
        before = game.s.copy()
        action = rng.choice(game.legal_actions())
        game.apply(action)
        if p != 0 and game.space.block(action) == ("DRAW", 0):  # another seat's deck draw: only a count
            assert any(w.startswith("drew 1 card") for w in playtext.effect_phrases(game, before, game.s, p, 0))
    assert seen == 25 and differs > 0  # the twins did hold other cards


def test_the_text_picture_counts_in_words_that_agree() -> None:
    game = Game(3, seed=3, map="new_england")
    game.s.loans[1], game.s.rails_left[1], game.s.hand[0] = 1, 1, [0] * len(game.s.hand[0])
    game.s.deck_pos = len(game.s.deck) - 1
    text = game.render()
    assert "player 1: $0, 1 loan, 1 rail left, hand: " in text and "deck 1 card;" in text
    assert "1 loans" not in text and "1 rails" not in text and "hand: no cards" in text


def test_a_first_rail_says_it_needs_no_cubes_and_a_tie_says_the_choice_comes(whole_game) -> None:
    assert re.search(r"\] rail \S+: costs \$1; your first rail needs no coal or iron", whole_game)
    assert "then you choose which of the nearest coal cubes to take" in whole_game


def test_the_opponents_are_told_the_map_so_a_policy_of_another_map_is_refused_at_once(capsys) -> None:
    """play made its opponents without the game's options: the shipped (Germany) policy was seated on New England
    and failed at its first move with a shape error; it is refused before the game starts, naming both maps."""
    argv = ["play", "--game", "age_of_industry", "-o", "map=new_england", "--opponents", "ppo", "--record", "none"]
    code = main(argv)
    assert code == 2
    err = capsys.readouterr().err
    assert "map = 'germany'" in err and "map = 'new_england'" in err
