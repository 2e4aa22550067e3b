"""Wireframe's benchmarks with their streamed tiles in the data footprints
(``wireframe_benchmark(..., streamed=True)``, docs/models/wireframe.md
"Streamed tiles"): every byte a tile moves goes through the memory hierarchy
and the nominal block time keeps only its compute part."""

from __future__ import annotations

import numpy as np
import pytest

import tbdse as td
from tbdse.models.wireframe.benchmarks import BENCHMARKS, SIZES

W = td.workloads


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_streamed_footprints_carry_every_byte_a_tile_moves(name: str) -> None:
    spec, (side, _) = BENCHMARKS[name], SIZES["1K"]
    fp = spec.footprints(side, streamed=True)
    # The matrix is read and written once in all (edge tiles clipped), plus the producer data.
    reads = fp.bytes[~fp.write].sum()
    streamed_in = spec.rows * spec.cols * spec.in_bytes
    producer = spec.footprints(side)
    assert reads == streamed_in + producer.bytes[~producer.write].sum()
    out = spec.rows * spec.cols * spec.out_bytes
    assert fp.bytes[fp.write].sum() == out + producer.bytes[producer.write].sum()
    # Nothing twice: the hierarchy replaces the whole memory share.
    assert spec.read_fraction(side, streamed=True) == spec.mem_share
    assert spec.read_fraction(side) < spec.mem_share


def test_in_place_stencils_write_the_rows_they_read() -> None:
    spec, (side, _) = BENCHMARKS["HEAT2D"], SIZES["1K"]
    fp = spec.footprints(side, streamed=True)
    tile0 = fp.task == 0
    reads = set(fp.base[tile0 & ~fp.write].tolist())
    writes = set(fp.base[tile0 & fp.write].tolist())
    th, _ = spec.tile(side)
    assert len(reads & writes) == th  # the tile's rows of the grid, one range each


def test_default_keeps_producer_data_only_and_streamed_changes_the_run() -> None:
    plain = W.wireframe_benchmark("SW", "1K")
    full = W.wireframe_benchmark("SW", "1K", streamed=True)
    assert plain.params.get("streamed") is None and full.params["streamed"] is True
    assert (
        plain.kernels[0].mem_fraction < full.kernels[0].mem_fraction == BENCHMARKS["SW"].mem_share
    )
    assert plain.kernels[0].mem_requests == full.kernels[0].mem_requests
    assert plain.data is not None and full.data is not None
    assert np.all(np.isin(plain.data.base, full.data.base))
    scheme, gpu = td.schemes.Wireframe(policy="lvl"), td.gpus.gtx480()
    a, b = td.simulate(full, gpu, scheme, seed=3), td.simulate(full, gpu, scheme, seed=3)
    assert a.makespan_cycles == b.makespan_cycles
    base = td.simulate(plain, gpu, scheme, seed=3)
    assert a.metrics["dram_bytes"] > 10 * base.metrics["dram_bytes"]


def test_streamed_needs_footprints() -> None:
    with pytest.raises(td.ConfigError, match=r"'streamed' .* needs 'footprints' true"):
        W.wireframe_benchmark("SW", "1K", footprints=False, streamed=True)


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
@pytest.mark.parametrize("size", ["1K", "4K"])
def test_a_tiles_declared_bytes_are_its_arithmetic(name: str, size: str) -> None:
    """Issue 28: the kernel's memory description (KernelMemory) declares what
    an interior tile moves: th x tw cells in and out plus its halos (and the
    sequence segments), and the footprints carry exactly those bytes."""
    spec, (side, _) = BENCHMARKS[name], SIZES[size]
    th, tw = spec.tile(side)
    m = spec.memory(side)
    halos = (th + tw) * spec.halo_bytes
    assert m.read_bytes == th * tw * spec.in_bytes + halos + (th + tw) * spec.seq_bytes
    assert m.write_bytes == th * tw * spec.out_bytes + halos
    assert m.shared_bytes == halos and m.reuse == 1 and m.memory_share == spec.mem_share
    fp = spec.footprints(side, streamed=True)
    interior = side + 1  # tile (1, 1): two producers, not clipped
    mine = fp.task == interior
    assert fp.bytes[mine & ~fp.write].sum() == m.read_bytes
    assert fp.bytes[mine & fp.write].sum() == m.write_bytes
    made = W.wireframe_benchmark(name, size, streamed=True)
    assert made.kernels[0] == m.kernel(name.lower())
