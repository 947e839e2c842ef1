"""The agents of 20th Century (Vladimír Suchý, Czech Games Edition 2010): a batched rule-of-thumb player
(:mod:`.heuristic`) and the suite's one search with this game's hooks (:mod:`.ismcts`). Both read only a seat's
observation and the legal mask; the game's spec names them (``make_agent("heuristic", game="twentieth_century")``,
``make_agent("ismcts", game="twentieth_century")``)."""
