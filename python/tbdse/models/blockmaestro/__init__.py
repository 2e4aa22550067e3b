"""BlockMaestro (Lee et al., ISCA 2021): the benchmark applications of
Table II (generator ``blockmaestro_app``) and Fig. 12's VectorAdd pair
(``vector_add_pair``).  The pre-launching and TB-level dependency resolution
are cpp/models/blockmaestro; docs/models/blockmaestro.md."""

from tbdse.models.blockmaestro.apps import (
    APPS,
    blockmaestro_app,
    blockmaestro_app_names,
    vector_add_pair,
)
from tbdse.workloads.registry import export

__all__ = ["APPS", "blockmaestro_app", "blockmaestro_app_names", "vector_add_pair"]

export(blockmaestro_app, blockmaestro_app_names, vector_add_pair)
