"""Vladimír Suchý's *20th Century* (Czech Games Edition 2010): rules, reconstructed components, a readable
reference engine and the batched engine verified against it on 100,000 games (listed by ``available_games()``)."""
