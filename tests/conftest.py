"""Settings every test of the suite shares: hypothesis runs the same examples on every machine and every run.

Each game's own helpers live in its folder (``tests/industry/helpers.py``, ``tests/age_of_industry/helpers.py``).
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("industry", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("industry")
