"""Reading and writing files, one module per format, all through one safe
opener.

* :mod:`tbdse.io.inputs` — the one way tbdse opens a file it reads (regular
  files only, size limits, gzip, an input root); every reader uses it.
* task graphs from other tools' formats: :mod:`~tbdse.io.stg` (Standard Task
  Graph Set), :mod:`~tbdse.io.dot` (Graphviz), :mod:`~tbdse.io.wfcommons`
  (WfFormat JSON), :mod:`~tbdse.io.matrix_market` (sparse triangular solves),
  :mod:`~tbdse.io.edge_list` (``from_edges`` too) and :mod:`~tbdse.io.networkx`,
  sharing :mod:`~tbdse.io.task_graphs`; td.workloads offers each reader;
* :mod:`tbdse.io.yamlio` — YAML with file, line and key path in every message;
* :mod:`tbdse.io.files` and :mod:`tbdse.io.ownership` — the files tbdse
  writes: atomic writes, and the signed manifests that prove a file is
  tbdse's before it is replaced or removed.

A new file format goes here as a module of its own, registering its
``@generator`` so that YAML files can name it.
"""
