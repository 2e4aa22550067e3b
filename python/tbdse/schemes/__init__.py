"""Scheduling schemes, created by name from the compiled registry.

>>> import tbdse as td
>>> td.schemes.Scheme("dataflow_ideal", policy="fifo")
Scheme('dataflow_ideal', policy='fifo')

Each scheme documents its parameters (meaning, unit, default, paper section);
:func:`list_schemes` shows them all.
"""

from tbdse.schemes import _classes as _scheme_classes
from tbdse.schemes._classes import *  # noqa: F403
from tbdse.schemes.base import (
    REPLACED_PARAMS,
    Scheme,
    as_scheme,
    gpu_fields_read,
    info,
    list_schemes,
    names,
    names_for_kind,
)

__all__ = [
    "REPLACED_PARAMS",
    "Scheme",
    "as_scheme",
    "gpu_fields_read",
    "info",
    "list_schemes",
    "names",
    "names_for_kind",
]
# The scheme classes (GlobalBarrier, Wireframe, ...), generated from the
# registry by scripts/make_scheme_classes.py.
__all__ += _scheme_classes.__all__
