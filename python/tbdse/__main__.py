"""``python -m tbdse``: the tbdse command (tbdse.cli)."""

import sys

from tbdse.cli import main

sys.exit(main())
