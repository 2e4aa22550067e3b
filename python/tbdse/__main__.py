"""``python -m tbdse``: the tbdse command (tbdse.experiment.cli)."""

import sys

from tbdse.experiment.cli import main

sys.exit(main())
