"""Staged beside the sanitizer-built tbdse by scripts/sanitizers/common.sh.

The editable install puts an import redirect first on ``sys.meta_path`` that
sends ``import tbdse`` (and ``tbdse._core``) to the regular build whatever
``PYTHONPATH`` says; without it the staged copy, first on ``PYTHONPATH``,
is what Python imports.
"""

import sys

sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "ScikitBuildRedirectingFinder"]
