"""The agents of 20th Century (Vladimír Suchý, Czech Games Edition 2010): a batched rule-of-thumb player
(:mod:`.heuristic`). It reads only a seat's observation and the legal mask; the game's spec names it
(``make_agent("heuristic", game="twentieth_century")``)."""
