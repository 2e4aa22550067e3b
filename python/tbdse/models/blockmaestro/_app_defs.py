"""The command queues of BlockMaestro's twelve Table II applications; the sizing
assumptions are documented in :mod:`tbdse.models.blockmaestro.apps`.

Each builder issues one application's API calls on an :class:`Application`;
``s`` scales every TB cost (cycles).  Matrices are row-major 2-D (or 3-D)
buffers and a TB's access is the exact set of elements its threads touch (the
per-thread address sets of Algorithm 1, lines 20-21).
"""

from __future__ import annotations

from tbdse.workloads.access import Access, Buffer, bx, by
from tbdse.workloads.application import Application


def _copy_in(app: Application, *buffers: Buffer) -> None:
    for b in buffers:
        app.memcpy_h2d(b)


def three_mm(app: Application, s: float) -> None:
    # PolyBench 3mm: E = A.B, F = C.D, G = E.F on 256 x 256 matrices; a TB
    # computes a 32 x 32 tile (256 threads, 4 outputs each).
    n, t = 256, 32
    a, b, c, d, e, f, g = (app.malloc(x, (n, n)) for x in "ABCDEFG")
    _copy_in(app, a, b, c, d)
    for out, left, right in ((e, a, b), (f, c, d), (g, e, f)):
        app.launch(
            f"mm3_{out.name}",
            (n // t, n // t),
            reads=[left[t * by : t * by + t, :], right[:, t * bx : t * bx + t]],
            writes=[out[t * by : t * by + t, t * bx : t * bx + t]],
            cost=20_000 * s,
            threads=256,
        )
    app.memcpy_d2h(g)


# AlexNet: (layer, output channels or neurons, output side, weights per output, TB cycles)
_CONVS = [
    ("conv1", 96, 55, 363, 144_000),
    ("conv2", 256, 27, 2400, 192_000),
    ("conv3", 384, 13, 2304, 72_000),
    ("conv4", 384, 13, 3456, 104_000),
    ("conv5", 256, 13, 3456, 104_000),
]
_FCS = [("fc6", 4096, 9216, 160_000), ("fc7", 4096, 4096, 72_000), ("fc8", 1000, 4096, 72_000)]


def alexnet(app: Application, s: float) -> None:
    # Caffe's AlexNet in CaffeNet's order (pooling before LRN), one 227 x 227
    # image: 22 kernels.  A convolution or ReLU TB owns one output channel, a
    # pooling TB half of one channel's rows, an LRN TB one column of every
    # channel, an FC or ReLU TB 32 neurons, softmax one TB.
    img, mean = app.malloc("image", 3 * 227 * 227), app.malloc("mean", 3 * 227 * 227)
    w = {n: app.malloc(f"w_{n}", (c, k)) for n, c, _, k, _ in _CONVS}
    w |= {n: app.malloc(f"w_{n}", (c, k)) for n, c, k, _ in _FCS}
    _copy_in(app, img, mean, *w.values())

    def launch(
        name: str, grid: int | tuple[int, int], reads: list[Access], out: Access, cyc: float
    ) -> None:
        app.launch(name, grid, reads=reads, writes=[out], cost=cyc * s, threads=256)

    x = app.malloc("x0", img.elements)
    part = (slice(1024 * bx, 1024 * bx + 1024),)
    launch("preprocess", -(-x.elements // 1024), [img[part], mean.all()], x[part], 1_500)
    src: Buffer = x
    for name, ch, side, _, cyc in _CONVS:
        conv, relu = (
            app.malloc(name, (ch, side, side)),
            app.malloc(f"relu{name[-1]}", (ch, side, side)),
        )
        launch(name, ch, [src.all(), w[name][bx : bx + 1, :]], conv[bx : bx + 1, :, :], cyc)
        launch(f"relu{name[-1]}", ch, [conv[bx : bx + 1, :, :]], relu[bx : bx + 1, :, :], 1_500)
        src = relu
        if name in ("conv1", "conv2", "conv5"):  # 3 x 3 max pooling, stride 2, in two row strips
            out = (side - 3) // 2 + 1
            r = -(-out // 2)
            pool = app.malloc(f"pool{name[-1]}", (ch, out, out))
            rows = src[bx : bx + 1, 2 * r * by : 2 * r * by + 2 * r + 1, :]
            launch(
                f"pool{name[-1]}", (ch, 2), [rows], pool[bx : bx + 1, r * by : r * by + r, :], 3_000
            )
            src = pool
        if name in ("conv1", "conv2"):  # local response normalisation across channels
            norm = app.malloc(f"norm{name[-1]}", src.shape)
            launch(
                f"norm{name[-1]}",
                src.shape[2],
                [src[:, :, bx : bx + 1]],
                norm[:, :, bx : bx + 1],
                6_000,
            )
            src = norm
    for name, outs, _, cyc in _FCS:
        fc = app.malloc(name, outs)
        launch(
            name,
            -(-outs // 32),
            [src.all(), w[name][32 * bx : 32 * bx + 32, :]],
            fc[32 * bx : 32 * bx + 32],
            cyc,
        )
        src = fc
        if name != "fc8":
            src = app.malloc(f"relu{name[-1]}", outs)
            launch(
                f"relu{name[-1]}",
                -(-outs // 32),
                [fc[32 * bx : 32 * bx + 32]],
                src[32 * bx : 32 * bx + 32],
                1_500,
            )
    prob = app.malloc("prob", 1000)
    launch("softmax", 1, [src.all()], prob.all(), 8_000)
    app.memcpy_d2h(prob)


def _two_gemv(app: Application, s: float, names: tuple[str, str], mvt: bool) -> None:
    # PolyBench bicg / mvt, N = 4096: one kernel walks A by columns (a thread
    # per column), the other by rows (a thread per row); 16 TBs of 256 threads
    # each, every thread looping over 4096 elements.  bicg: s = A^T r, q = A p;
    # mvt: x1 += A y1, x2 += A^T y2 (x1 and x2 are inputs too).
    n, t = 4096, 256
    a = app.malloc("A", (n, n))
    ins = [app.malloc(v, n) for v in (("y1", "y2") if mvt else ("r", "p"))]
    outs = [app.malloc(v, n) for v in (("x1", "x2") if mvt else ("s", "q"))]
    _copy_in(app, a, *ins, *(outs if mvt else []))
    for k, name in enumerate(names):
        part = a[t * bx : t * bx + t, :] if (k == 0) == mvt else a[:, t * bx : t * bx + t]
        own = outs[k][t * bx : t * bx + t]
        app.launch(
            name,
            n // t,
            reads=[part, ins[k].all(), *([own] if mvt else [])],
            writes=[own],
            cost=40_000 * s,
            threads=t,
        )
    for out in outs:
        app.memcpy_d2h(out)


def bicg(app: Application, s: float) -> None:
    _two_gemv(app, s, ("bicg_kernel1", "bicg_kernel2"), mvt=False)


def mvt(app: Application, s: float) -> None:
    _two_gemv(app, s, ("mvt_kernel1", "mvt_kernel2"), mvt=True)


def fdtd2d(app: Application, s: float) -> None:
    # PolyBench fdtd-2d, NX = NY = 512, tmax = 8: three kernels per step on
    # 32 x 8 tiles (grid 16 x 64).  ey reads hz one row up, hz reads ex one
    # column right and ey one row down: each is a halo of one across a tile edge.
    n, steps = 512, 8
    fict = app.malloc("fict", steps)
    ex, ey, hz = (app.malloc(v, (n, n)) for v in ("ex", "ey", "hz"))
    _copy_in(app, fict, ex, ey, hz)

    def tile(m: Buffer, up: int = 0, down: int = 0, left: int = 0, right: int = 0) -> Access:
        return m[8 * by - up : 8 * by + 8 + down, 32 * bx - left : 32 * bx + 32 + right]

    for t in range(steps):
        for name, reads, out in (
            ("fdtd_step1", [fict[t : t + 1], tile(hz, up=1), tile(ey)], ey),
            ("fdtd_step2", [tile(hz, left=1), tile(ex)], ex),
            ("fdtd_step3", [tile(ex, right=1), tile(ey, down=1), tile(hz)], hz),
        ):
            app.launch(
                name,
                (n // 32, n // 8),
                reads=reads,
                writes=[tile(out)],
                cost=1_500 * s,
                threads=256,
            )
    for m in (ex, ey, hz):
        app.memcpy_d2h(m)


def fft(app: Application, s: float) -> None:
    # SHOC FFT: 512-point FFTs, one per TB of 64 threads, on a 2 MiB buffer of
    # 512 complex signals whose second half duplicates the first; 20 passes of
    # forward, inverse and check (chk1D_512 compares FFT b with FFT b + 256 and
    # sets a failure flag that the host copies back).
    ffts = 512
    work = app.malloc("work", (ffts, 512), element_bytes=8)
    app.memcpy_h2d(work)
    fail = app.malloc("fail", 1)
    app.memcpy_h2d(fail)
    own = work[bx : bx + 1, :]
    for _ in range(20):
        for name in ("fft1D_512", "ifft1D_512"):
            app.launch(name, ffts, reads=[own], writes=[own], cost=4_000 * s, threads=64)
        half = ffts // 2
        app.launch(
            "chk1D_512",
            half,
            reads=[own, work[bx + half : bx + half + 1, :]],
            writes=[fail.all()],
            cost=1_500 * s,
            threads=64,
        )
        app.memcpy_d2h(fail)


def gaussian(app: Application, s: float) -> None:
    # Rodinia gaussian, Size = 256: per step t, Fan1 (one TB of 512 threads:
    # the multipliers m[t+1:, t]) then Fan2 (the trailing rows updated, one TB
    # of 256 threads per row of a, only the Size-1-t active rows launched).
    n = 256
    m, a, b = app.malloc("m", (n, n)), app.malloc("a", (n, n)), app.malloc("b", n)
    _copy_in(app, m, a, b)
    for t in range(n - 1):
        app.launch(
            "Fan1",
            1,
            reads=[a[t:, t : t + 1]],  # the pivot a[t, t] and the column below it
            writes=[m[t + 1 :, t : t + 1]],
            cost=4_000 * s,
            threads=512,
        )
        row = t + 1 + bx
        app.launch(
            "Fan2",
            n - 1 - t,
            reads=[
                m[row : row + 1, t : t + 1],
                a[t : t + 1, t:],
                a[row : row + 1, t:],
                b[t : t + 1],
            ],
            writes=[a[row : row + 1, t:], b[row : row + 1]],
            cost=2_500 * s,
            threads=256,
        )
    for buf in (m, a, b):
        app.memcpy_d2h(buf)


def gramschmidt(app: Application, s: float) -> None:
    # PolyBench gramschmidt, NI = NJ = 64: per column k, kernel1 (R[k,k] = |A[:,k]|,
    # one thread), kernel2 (Q[:,k] = A[:,k] / R[k,k]) and kernel3 (R[k,k+1:] and
    # A[:,k+1:] updated); every grid is ceil(64 / 256) = 1 TB of 256 threads.
    n = 64
    a, r, q = (app.malloc(x, (n, n)) for x in "ARQ")
    app.memcpy_h2d(a)
    for k in range(n):
        col = a[:, k : k + 1]
        app.launch(
            "gramschmidt_kernel1",
            1,
            reads=[col],
            writes=[r[k : k + 1, k : k + 1]],
            cost=6_000 * s,
            threads=256,
        )
        app.launch(
            "gramschmidt_kernel2",
            1,
            reads=[col, r[k : k + 1, k : k + 1]],
            writes=[q[:, k : k + 1]],
            cost=1_500 * s,
            threads=256,
        )
        app.launch(
            "gramschmidt_kernel3",
            1,
            reads=[q[:, k : k + 1], a[:, k + 1 :]],
            writes=[r[k : k + 1, k + 1 :], a[:, k + 1 :]],
            cost=8_000 * s,
            threads=256,
        )
    for buf in (a, r, q):
        app.memcpy_d2h(buf)


def hotspot(app: Application, s: float) -> None:
    # Rodinia hotspot, a 512 x 512 chip, 20 iterations with pyramid height 2:
    # 10 launches on 16 x 16 TBs that load a window with a halo of 2 and write
    # their 12 x 12 centre (grid 43 x 43), ping-ponging two temperature buffers.
    n, ph, e = 512, 2, 12
    temps = [app.malloc("temp0", (n, n)), app.malloc("temp1", (n, n))]
    power = app.malloc("power", (n, n))
    _copy_in(app, temps[0], power)
    g = -(-n // e)
    for k in range(10):
        src, dst = temps[k % 2], temps[1 - k % 2]
        window = (slice(e * by - ph, e * by + e + ph), slice(e * bx - ph, e * bx + e + ph))
        app.launch(
            "calculate_temp",
            (g, g),
            reads=[src[window], power[window]],
            writes=[dst[e * by : e * by + e, e * bx : e * bx + e]],
            cost=3_000 * s,
            threads=256,
        )
    app.memcpy_d2h(temps[0])


def lud(app: Application, s: float) -> None:
    # Rodinia lud_cuda, a 256 x 256 matrix in 16 x 16 tiles: per step (offset
    # o) lud_diagonal (1 TB of 16 threads), lud_perimeter (one TB of 32 threads
    # per row/column tile pair) and lud_internal (a 16 x 16 TB per trailing
    # tile); 15 steps and a last diagonal: 46 kernels.
    n, t = 256, 16
    m = app.malloc("m", (n, n))
    app.memcpy_h2d(m)
    for o in range(0, n - t, t):
        r = (n - o) // t - 1
        diag = m[o : o + t, o : o + t]
        row = m[o : o + t, o + t + t * bx : o + 2 * t + t * bx]
        col = m[o + t + t * bx : o + 2 * t + t * bx, o : o + t]
        app.launch("lud_diagonal", 1, reads=[diag], writes=[diag], cost=5_000 * s, threads=t)
        app.launch(
            "lud_perimeter",
            r,
            reads=[diag, row, col],
            writes=[row, col],
            cost=5_000 * s,
            threads=2 * t,
        )
        own = m[o + t + t * by : o + 2 * t + t * by, o + t + t * bx : o + 2 * t + t * bx]
        peri_col = m[o + t + t * by : o + 2 * t + t * by, o : o + t]
        app.launch(
            "lud_internal",
            (r, r),
            reads=[row, peri_col, own],
            writes=[own],
            cost=1_500 * s,
            threads=t * t,
        )
    last = m[n - t :, n - t :]
    app.launch("lud_diagonal", 1, reads=[last], writes=[last], cost=5_000 * s, threads=t)
    app.memcpy_d2h(m)


def nw(app: Application, s: float) -> None:
    # Rodinia nw, 2048 x 2048 (a 2049 x 2049 score matrix), 16 x 16 blocks, one
    # TB of 16 threads per block: 128 launches over the growing anti-diagonals
    # (needle_cuda_shared_1) and 127 over the shrinking ones (_2).  A block
    # reads the row above (with the corner) and the column left of it.
    n, t, w = 2049, 16, 128
    ref, score = app.malloc("reference", (n, n)), app.malloc("itemsets", (n, n))
    _copy_in(app, ref, score)
    for i, upper in [
        *((i, True) for i in range(1, w + 1)),
        *((i, False) for i in range(w - 1, 0, -1)),
    ]:
        rb, cb = (i - 1 - bx, bx) if upper else (w - 1 - bx, bx + w - i)
        inner = (slice(t * rb + 1, t * rb + t + 1), slice(t * cb + 1, t * cb + t + 1))
        app.launch(
            "needle_cuda_shared_1" if upper else "needle_cuda_shared_2",
            i,
            reads=[
                score[t * rb : t * rb + 1, t * cb : t * cb + t + 1],
                score[t * rb + 1 : t * rb + t + 1, t * cb : t * cb + 1],
                ref[inner],
            ],
            writes=[score[inner]],
            cost=2_000 * s,
            threads=t,
        )
    app.memcpy_d2h(score)


def pathfinder(app: Application, s: float) -> None:
    # Rodinia pathfinder, 100000 columns x 100 rows, pyramid height 20: 5
    # launches of 463 TBs of 256 threads, each loading 256 columns (a halo of
    # 20 each side) and writing its 216 centre columns; two result rows ping-pong.
    cols, rows, ph, e = 100_000, 100, 20, 216
    wall = app.malloc("wall", (rows - 1, cols))
    res = [app.malloc("result0", cols), app.malloc("result1", cols)]
    _copy_in(app, wall, res[0])
    for k, t in enumerate(range(0, rows - 1, ph)):
        src, dst = res[k % 2], res[1 - k % 2]
        app.launch(
            "dynproc_kernel",
            -(-cols // e),
            reads=[
                src[e * bx - ph : e * bx + e + ph],
                wall[t : t + ph, e * bx - ph : e * bx + e + ph],
            ],
            writes=[dst[e * bx : e * bx + e]],
            cost=4_000 * s,
            threads=256,
        )
    app.memcpy_d2h(res[1])
