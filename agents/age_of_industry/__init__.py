"""The agents of Age of Industry (Martin Wallace, Treefrog Games 2010): a batched rule-of-thumb player
(:mod:`.heuristic`) and the one search player's hooks for this game, under hidden information (:mod:`.ismcts`).
They read only a seat's observation and the legal mask; the game's spec names them
(``make_agent("heuristic", game="age_of_industry")``)."""
