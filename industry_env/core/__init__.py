"""What every game of the suite shares and no game owns: the game spec, the batched State's buffer, chance.

Nothing here imports a game, an adapter, an agent or a tool (``tests/contract/test_layering.py`` checks it).
"""
