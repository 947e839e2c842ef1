"""The games of the suite, one self-contained package each: its rules, data, engines, pictures and tools.

A game imports only :mod:`industry_env.core` and itself; the rest of the house reaches it through the registry
(``industry_env.load_game(game_id)``).
"""
