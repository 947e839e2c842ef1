"""The games of the suite other than Industry, each a self-contained package (rules, data, engine)."""
