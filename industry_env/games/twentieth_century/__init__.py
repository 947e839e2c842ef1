"""Vladimír Suchý's *20th Century* (Czech Games Edition 2010): rules, reconstructed components and a readable
reference engine, registered hidden until a batched engine is verified against it."""
