"""Nim for 2 to 4 players: the suite's template game, the worked example of ``docs/adding-a-game.md`` (registered
hidden; the contract tests run over it)."""
