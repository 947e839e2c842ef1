"""``python -m industry_env``: the ``industry-env`` command, for an environment whose scripts are not on PATH."""

import sys

from .cli import main

sys.exit(main())
