"""Every experiment's figures, drawn from a synthetic result table and checked
on their artists (issue 20, figures a paper can use): ticks in value order,
labelled axes, a speed-up axis naming its baseline, faceted heatmaps on one
colour scale, legends clear of the data and the file's titles shown.

Nothing is simulated: the table is the experiment's preview (every parameter
column as the run will fill it) with deterministic numbers in the metric
columns.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
import yaml
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import FixedFormatter

import tbdse as td
from tbdse.experiment import Experiment, PlotSpec, load
from tbdse.experiment import file as _experiment_file
from tbdse.plot import LEGEND_INSIDE, value_order
from tbdse.simulation.results import metric_column
from tbdse.simulation.runner import Runner

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "experiments").glob("*.yaml"))


class Recording(Runner):
    """The runner a file's validation builds, kept with the preview it checked
    the plots against (so the plan is not built twice)."""

    last: tuple[Runner, pd.DataFrame] | None = None

    def preview(self) -> pd.DataFrame:
        frame = super().preview()
        Recording.last = (self, frame)  # a search's trial columns are added to it in place
        return frame


def experiment_and_table(path: Path) -> tuple[Experiment, pd.DataFrame]:
    """The experiment and its result table before running, metrics filled in."""
    Recording.last = None
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_experiment_file, "Runner", Recording)
        exp = load(path)
    assert Recording.last is not None
    runner, frame = Recording.last
    frame = frame.copy()
    frame.attrs = dict(Recording.last[1].attrs)
    if exp.search is not None and "trial" in frame.columns:
        frame["trial"] = np.arange(len(frame))
    # (a statistic named like a parameter is the column <param>_resolved)
    metrics = [*map(metric_column, runner.columns), "speedup", "baseline_makespan_cycles"]
    rows = np.arange(len(frame), dtype=float)
    for k, name in enumerate(c for c in metrics if c in frame.columns):
        # positive, varied and repeatable: a speed-up near 1, other metrics larger
        wiggle = ((rows * 37 + k * 11) % 13) / 13
        values = 0.6 + wiggle if name == "speedup" else 100.0 * (k + 1) * (1 + wiggle)
        if pd.api.types.is_integer_dtype(frame[name].dtype):
            values = values.round()
        frame[name] = pd.Series(values, index=frame.index).astype(frame[name].dtype)
    if "status" in frame.columns:
        frame["status"] = "ok"
    baselines = frame.attrs.get("baselines", [])
    if "baseline" in frame.columns and baselines:  # the best of several: alternate
        frame["baseline"] = [baselines[i % len(baselines)] for i in range(len(frame))]
    return exp, frame


def render(spec: PlotSpec, frame: pd.DataFrame) -> tuple[Figure, list[Axes]]:
    """The figure as Experiment._write_plots draws it, laid out on an Agg canvas."""
    figure = td.plot.draw(spec.kind, frame, where=spec.where or None, **spec.options)
    if not isinstance(figure.canvas, FigureCanvasAgg):
        FigureCanvasAgg(figure)
    figure.canvas.draw()
    panels = [a for a in figure.axes if a.get_label() != "<colorbar>"]
    return figure, panels


def explicit_ticks(ax: Axes, axis: str) -> list[str]:
    """The category labels the plot set itself (not matplotlib's own numbers)."""
    which = ax.xaxis if axis == "x" else ax.yaxis
    if not isinstance(which.get_major_formatter(), FixedFormatter):
        return []
    pairs = sorted(zip(which.get_majorticklocs(), which.get_ticklabels(), strict=False))
    return [label.get_text() for _, label in pairs if label.get_text()]


def in_value_order(labels: list[str]) -> bool:
    shown = [t for t in labels if t != "gmean"]  # the summary group closes the axis
    if not any(value_order(t)[0] < 2 for t in shown):  # names keep the file's order
        return True
    return shown == sorted(shown, key=value_order)


def flat(text: str) -> str:
    return " ".join(text.split())


def plot_count(path: Path) -> int:
    outputs = yaml.safe_load(path.read_text()).get("outputs") or {}
    return len(outputs.get("plots") or [])


CASES = [
    pytest.param(path, i, id=f"{path.stem}-{i}") for path in FILES for i in range(plot_count(path))
]


@pytest.fixture(scope="module")
def tables() -> dict[Path, tuple[Experiment, pd.DataFrame]]:
    return {}


def all_axes(figure: Figure) -> list[Axes]:
    """The Axes of a figure and of its subfigures (a faceted plot's place)."""
    out = list(figure.axes)
    for sub in figure.subfigs:
        out += [a for a in all_axes(sub) if a not in out]  # type: ignore[arg-type]
    return out


def figure_title(panels: list[Axes]) -> str:
    """The one title of a figure: its panel's, or a faceted grid's suptitle."""
    if len(panels) == 1:
        return panels[0].get_title()
    container = panels[0].get_figure(root=False)
    assert container is not None
    return container.get_suptitle()


def legends(panels: list[Axes]) -> list[Any]:
    found = [ax.get_legend() for ax in panels if ax.get_legend() is not None]
    container = panels[0].get_figure(root=False)
    return found + (list(container.legends) if container is not None else [])


def shown_ticks(ax: Axes, axis: str) -> list[Any]:
    """The tick labels drawn inside the axis' view, with their text."""
    which = ax.xaxis if axis == "x" else ax.yaxis
    low, high = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    return [
        t
        for loc, t in zip(which.get_majorticklocs(), which.get_ticklabels(), strict=False)
        if t.get_text() and t.get_visible() and low <= loc <= high
    ]


def check_readable_ticks(figure: Figure, ax: Axes) -> None:
    """A log axis carries at least two labelled ticks, and no two tick labels
    on an axis overlap (issue 31: a log axis within one decade had none, and
    log-x labels such as storage_bytes ran into each other)."""
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    for axis in ("x", "y"):
        scale = ax.get_xscale() if axis == "x" else ax.get_yscale()
        ticks = shown_ticks(ax, axis)
        which = ax.xaxis if axis == "x" else ax.yaxis
        params = which.get_tick_params()
        hidden = not any(t.get_visible() for t in which.get_ticklabels())  # FacetGrid's way
        if hidden or not params.get("labelbottom" if axis == "x" else "labelleft", True):
            continue  # an inner panel of a grid sharing the axis
        if scale == "log":
            assert len(ticks) >= 2, f"log {axis} axis with {len(ticks)} labelled ticks"
        if axis == "y" or not ticks:
            continue
        boxes = sorted((t.get_window_extent(renderer) for t in ticks), key=lambda b: b.x1)
        turn = ticks[0].get_rotation() % 180
        if turn:  # slanted labels: parallel strips at least a text height apart
            height = ticks[0].get_fontsize() * figure.dpi / 72
            gaps = [b.x1 - a.x1 for a, b in itertools.pairwise(boxes)]
            apart = [g * math.sin(math.radians(turn)) for g in gaps]
            assert all(g >= height for g in apart), f"slanted x tick labels overlap: {apart}"
            continue
        for a, b in itertools.pairwise(boxes):
            assert a.x1 <= b.x0 + 1, f"x tick labels overlap: {[t.get_text() for t in ticks]}"


@pytest.mark.parametrize(("path", "index"), CASES)
def test_experiment_figure(
    path: Path, index: int, tables: dict[Path, tuple[Experiment, pd.DataFrame]]
) -> None:
    if path not in tables:
        tables[path] = experiment_and_table(path)
    exp, frame = tables[path]
    spec = exp.plots[index]
    figure, panels = render(spec, frame)
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    value = spec.options.get("value") if spec.kind == "heatmap" else spec.options.get("y")
    bases = exp.baseline if isinstance(exp.baseline, list) else [exp.baseline]
    names = [b.label() for b in bases if b is not None]
    title = spec.options.get("title")
    if title:  # one title per figure, not one per panel
        assert flat(title) in flat(figure_title(panels)), (figure_title(panels), title)
        assert sum(flat(title) in flat(ax.get_title()) for ax in panels) <= 1
    for name in spec.where:  # the filter is said under the title
        assert f"{name} = " in figure_title(panels), (figure_title(panels), spec.where)
    labels: list[str] = []
    for ax in panels:
        labels += [ax.get_xlabel(), ax.get_ylabel()]
        for axis in ("x", "y"):
            ticks = explicit_ticks(ax, axis)
            assert in_value_order(ticks), f"{axis} ticks out of value order: {ticks}"
        check_readable_ticks(figure, ax)
    assert any(ax.get_xlabel() for ax in panels) and any(ax.get_ylabel() for ax in panels)
    assert not any("." in t and " " not in t for t in labels if t), f"raw keys: {labels}"
    shown = legends(panels)
    assert len(shown) <= 1, "one legend per figure"
    if shown and len(shown[0].get_texts()) > LEGEND_INSIDE:
        box = shown[0].get_window_extent(renderer)
        for ax in panels:
            area = ax.get_window_extent(renderer)
            assert box.x0 >= area.x1 - 1 or box.x1 <= area.x0 + 1, "a long legend covers data"
        tight = figure.get_tightbbox(renderer)
        assert tight is not None and tight.x1 * figure.dpi >= box.x1 - 1, "saved with it"
    colour_bars = [a for a in all_axes(figure) if a not in panels]
    labels += [a.get_ylabel() for a in colour_bars]
    if value == "speedup":
        said = [t for t in labels if "speed-up over " in t]
        assert said, f"no axis names the baseline: {labels}"
        assert names[0] in said[0] or "speed-up over best of " in said[0], (said, names)
    if spec.kind == "heatmap" and len(panels) > 1:
        norms = {
            (float(c.norm.vmin), float(c.norm.vmax))  # type: ignore[arg-type]
            for ax in panels
            for c in ax.collections
        }
        assert len(norms) == 1, f"faceted heatmaps on different scales: {norms}"
        assert len(colour_bars) == 1 and "shared scale" in colour_bars[0].get_ylabel()
        vmin, vmax = norms.pop()
        assert math.isfinite(vmin) and vmax >= vmin


def test_the_synthetic_tables_cover_every_plot_kind() -> None:
    kinds = {
        yaml.safe_load(Path(str(p)).read_text())["outputs"]["plots"][int(str(i))]["kind"]
        for p, i in (c.values for c in CASES)
    }
    assert kinds == {"line", "heatmap", "bar", "pareto", "scatter"}


def frame_with(baselines: list[str], served: list[Any] | None = None) -> pd.DataFrame:
    rows = [
        {"label": "s", "workload": w, "gpu": "g", "replicate": r, "speedup": 1.0 + i + r / 10}
        for i, w in enumerate(["DTW", "HIST", "SOR"])
        for r in range(2)
    ]
    frame = pd.DataFrame(rows)
    if served is not None:
        frame["baseline"] = served * (len(frame) // len(served))
    frame.attrs["baselines"] = baselines
    return frame


def test_the_speed_up_axis_names_the_baseline() -> None:
    ax = Figure().subplots()
    td.plot.bar(frame_with(["global_barrier"]), x="workload", y="speedup", ax=ax)
    assert ax.get_ylabel() == "speed-up over global_barrier"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]  # type: ignore[union-attr]
    assert legend == ["global_barrier (= 1)"]
    served = frame_with(["a", "b"], ["a", "b"])
    assert td.plot.baseline_name(served) == "best of a, b"
    assert td.plot.baseline_name(frame_with(["a", "b"], ["b"])) == "b"  # only b served
    assert td.plot.baseline_name(frame_with(["a", "b"], [None])) == "best of a, b"
    assert td.plot.baseline_name(pd.DataFrame({"speedup": [1.0]})) is None


def test_gmean_bars_summarise_the_categories() -> None:
    frame = frame_with(["base"])
    ax = Figure().subplots()
    td.plot.bar(frame, x="workload", y="speedup", summary="gmean", ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["DTW", "HIST", "SOR", "gmean"]
    heights = [p.get_height() for p in ax.patches if isinstance(p, Rectangle)]
    means = frame.groupby("workload", sort=False)["speedup"].mean().to_numpy()
    assert np.allclose(heights[:3], means)
    assert np.isclose(heights[3], np.exp(np.log(means).mean()))
    # whiskers (seaborn's error bars) of the gmean bar: the lowest to the highest of its bars
    whiskers = [line.get_ydata() for line in ax.get_lines() if line.get_gid() == "whiskers"]
    assert len(whiskers) == 4
    low, high = np.nanmin(whiskers[3]), np.nanmax(whiskers[3])
    assert np.isclose(low, means.min()) and np.isclose(high, means.max())
    assert "gmean: min to max over workload" in flat(ax.get_title())
    frame.loc[0, "speedup"] = -5.0
    with pytest.raises(td.ConfigError, match="summary='gmean' needs positive values"):
        td.plot.bar(frame, x="workload", y="speedup", summary="gmean", ax=Figure().subplots())
    with pytest.raises(td.ConfigError, match="summary must be one of none, gmean"):
        td.plot.bar(frame, x="workload", y="speedup", summary="mean")


def test_lines_differ_by_marker_and_style_and_long_legends_go_outside() -> None:
    rows = [
        {"label": f"s{k}", "workload": "w", "gpu": "g", "gpu.sms": n, "makespan_us": k + n}
        for k in range(6)
        for n in (1, 2, 4)
    ]
    figure = Figure()
    FigureCanvasAgg(figure)
    ax = td.plot.line(pd.DataFrame(rows), x="sms", y="makespan_us", ax=figure.subplots())
    assert isinstance(ax, Axes)
    styles = {(ln.get_marker(), ln.get_linestyle()) for ln in ax.get_lines()}
    assert len(styles) == 6
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    legend = ax.get_legend()
    assert legend is not None
    assert legend.get_window_extent(renderer).x0 >= ax.get_window_extent(renderer).x1 - 1


def test_figure_options_size_style_and_labels() -> None:
    frame = frame_with(["base"])
    figure = Figure(figsize=(6.4, 4.2))
    ax = td.plot.bar(
        frame,
        x="workload",
        y="speedup",
        ax=figure.subplots(),
        figsize=[3, 2],
        style="ggplot",
        xlabel="benchmark",
        ylabel="speed-up",
    )
    assert isinstance(ax, Axes) and ax.figure is figure
    assert list(figure.get_size_inches()) == [3, 2]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("benchmark", "speed-up")
    assert matplotlib.colors.to_hex(ax.get_facecolor()) == "#e5e5e5"  # ggplot's grey
    with pytest.raises(td.ConfigError, match="style must name a matplotlib style"):
        td.plot.line(frame, x="workload", y="speedup", style="gglpot")
    with pytest.raises(td.ConfigError, match=r"figsize must be \[width, height\]"):
        td.plot.line(frame, x="workload", y="speedup", figsize=[3])


def test_faceted_heatmaps_share_one_scale() -> None:
    rows = [
        {"label": "s", "workload": w, "gpu": "g", "gpu.sms": s, "gpu.tb_slots": t, "x": v}
        for v, w in ((1.0, "small"), (100.0, "large"))
        for s in (1, 2)
        for t in (1, 2)
    ]
    panels = td.plot.heatmap(pd.DataFrame(rows), x="sms", y="tb_slots", value="x", facet="workload")
    assert isinstance(panels, list) and len(panels) == 2
    figure = panels[0].get_figure(root=True)
    assert figure is not None
    assert {(im.norm.vmin, im.norm.vmax) for p in panels for im in p.collections} == {(1.0, 100.0)}
    bars = [a for a in figure.axes if a not in panels]
    assert len(bars) == 1 and bars[0].get_ylabel() == "mean x (shared scale)"


def test_yaml_plot_options_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    path.write_text(
        "gpu: gtx480\nworkload: {generator: wavefront, rows: 3, cols: 3}\n"
        "scheme: global_barrier\noutputs:\n  plots:\n"
        "    - {kind: bar, x: sms, y: makespan_us, summary: mean, style: nope,"
        " figsize: [0, 3], xlabel: 3}\n"
        "    - {kind: heatmap, x: sms, y: sms, value: makespan_us, summary: gmean}\n"
    )
    with pytest.raises(td.ConfigError) as err:
        load(path)
    msg = str(err.value)
    assert "plots[0].summary: must be one of none, gmean; got 'mean'" in msg
    assert "plots[0].style: must name a matplotlib style" in msg
    assert "plots[0].figsize: must be [width, height] in inches" in msg
    assert "plots[0].xlabel: must be text" in msg
    assert "plots[1]" in msg and "summary" in msg  # not a heatmap key
