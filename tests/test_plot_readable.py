"""Figures a reader can read (issue 31): log axes labelled at any range, value
ticks that never overlap, heatmap rows top-down in value order, one title and
one legend per faceted figure with row facets and shared or free axes,
colours that keep their meaning across panels, the filter and the baseline
under the title, axis names from the parameter tables."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest
import seaborn
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import tbdse as td


def drawn(figsize: tuple[float, float] = (6.4, 4.2)) -> tuple[Figure, Axes]:
    figure = Figure(figsize=figsize)
    FigureCanvasAgg(figure)
    return figure, figure.subplots()


def labelled(figure: Figure, ax: Axes, axis: str) -> list[Any]:
    """The tick labels drawn with text inside the axis' view."""
    figure.canvas.draw()
    which = ax.xaxis if axis == "x" else ax.yaxis
    low, high = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    return [
        t
        for loc, t in zip(which.get_majorticklocs(), which.get_ticklabels(), strict=False)
        if t.get_text() and low <= loc <= high
    ]


def rows(values: dict[str, list[Any]], **fixed: Any) -> pd.DataFrame:
    frame = pd.DataFrame(values)
    for k, v in {"label": "s", "workload": "w", "gpu": "g", **fixed}.items():
        frame[k] = v
    return frame


def test_a_log_axis_within_one_decade_has_labelled_ticks() -> None:
    frame = rows({"gpu.sms": [1, 2, 4, 8], "makespan_us": [120.0, 140.0, 160.0, 180.0]})
    figure, ax = drawn()
    td.plot.line(frame, x="sms", y="makespan_us", logy=True, ax=ax)
    texts = [t.get_text() for t in labelled(figure, ax, "y")]
    assert len(texts) >= 2, f"a log axis over 120..180 has tick labels {texts}"
    figure, ax = drawn()
    td.plot.bar(frame, x="sms", y="makespan_us", logy=True, ax=ax)
    assert len(labelled(figure, ax, "y")) >= 2


@pytest.mark.parametrize("width", [3.0, 6.4])
def test_log_x_tick_labels_never_overlap(width: float) -> None:
    sizes = [2**k for k in range(10, 25)]  # 1 KiB .. 16 MiB, as storage_bytes
    frame = rows({"storage_bytes": sizes, "makespan_us": [100.0 + k for k in range(15)]})
    figure, ax = drawn((width, 3.0))
    td.plot.line(frame, x="storage_bytes", y="makespan_us", logx=True, ax=ax)
    ticks = labelled(figure, ax, "x")
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    boxes = sorted((t.get_window_extent(renderer) for t in ticks), key=lambda b: b.x0)
    assert len(boxes) >= 3
    for a, b in itertools.pairwise(boxes):
        assert a.x1 <= b.x0, [t.get_text() for t in ticks]
    assert any(t.get_text().endswith("Mi") for t in ticks)  # large sizes read as sizes


def test_heatmap_rows_read_top_down_in_value_order() -> None:
    frame = rows(
        {
            "node_buffer": ["auto", "64", "16", "256"] * 2,
            "level_bound": [1] * 4 + [2] * 4,
            "makespan_us": [float(v) for v in range(8)],
        }
    )
    frame.attrs["parameters"] = ["label", "workload", "gpu", "node_buffer", "level_bound"]
    figure, ax = drawn()
    td.plot.heatmap(frame, x="level_bound", y="node_buffer", value="makespan_us", ax=ax)
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    heights = {t.get_text(): t.get_window_extent(renderer).y0 for t in ax.get_yticklabels()}
    top_down = sorted(heights, key=lambda k: -heights[k])
    assert top_down == ["16", "64", "256", "auto"]


def grid_frame() -> pd.DataFrame:
    out = []
    for w, scale in (("small", 1.0), ("large", 100.0)):
        for t in (1, 2):
            for s in (1, 2, 4):
                for label in ("a", "b"):
                    value = scale * (s + t + (label == "b"))
                    out.append({"label": label, "workload": w, "gpu": "g", "gpu.sms": s,
                                "gpu.tb_slots": t, "speedup": value})  # fmt: skip
    frame = pd.DataFrame(out)
    frame.attrs["baselines"] = ["global_barrier"]
    return frame


def test_row_and_column_facets_one_title_one_legend_shared_or_free_y() -> None:
    frame = grid_frame()
    with pytest.raises(td.ConfigError, match="ax= draws one panel; row=/col=/facet= draw"):
        td.plot.line(frame, x="sms", y="speedup", col="workload", ax=drawn()[1])
    panels = td.plot.line(frame, x="sms", y="speedup", row="tb_slots", col="workload", title="T")
    assert isinstance(panels, list) and len(panels) == 4
    container = panels[0].get_figure(root=False)
    assert container is not None
    assert container.get_suptitle().startswith("T")
    assert all("T" not in p.get_title() for p in panels)  # panels name their value only
    assert panels[3].get_title() == "gpu.tb_slots = 2, workload = large"
    assert [p.get_legend() for p in panels] == [None] * 4 and len(container.legends) == 1
    assert len({p.get_ylim() for p in panels}) == 1  # shared by default
    free = td.plot.line(frame, x="sms", y="speedup", col="workload", sharey=False)
    assert isinstance(free, list) and free[0].get_ylim()[1] < free[1].get_ylim()[1] / 10


def test_colours_keep_their_meaning_between_panels() -> None:
    frame = grid_frame()
    frame = frame[~((frame["workload"] == "small") & (frame["label"] == "a"))]
    panels = td.plot.bar(frame, x="sms", y="speedup", hue="label", col="workload",
                         where={"gpu.tb_slots": 1})  # fmt: skip
    assert isinstance(panels, list)
    order = [p.get_title() for p in panels]
    small = panels[order.index("workload = small")]
    large = panels[order.index("workload = large")]
    b_small = {p.get_facecolor() for p in small.patches if p.get_height() > 0}
    b_large = {p.get_facecolor() for p in large.patches if p.get_height() in (400.0, 600.0)}
    assert (
        len(b_small) == 1 and b_small == b_large
    )  # 'b' in the same colour with and without 'a' beside it


def test_the_filter_and_the_baseline_are_under_the_title() -> None:
    _, ax = drawn()
    td.plot.line(grid_frame(), x="sms", y="speedup", hue="label",
                 where={"workload": "small", "gpu.tb_slots": [1]}, ax=ax)  # fmt: skip
    title = " ".join(ax.get_title().split())  # wrapped to the panel's width
    assert "where workload = small, gpu.tb_slots = 1" in title
    assert "baseline: global_barrier" in title
    assert ax.get_ylabel() == "speed-up over global_barrier"
    _, ax = drawn()
    td.plot.line(grid_frame().assign(makespan_us=1.0), x="sms", y="makespan_us", hue="label",
                 where={"workload": "small", "gpu.tb_slots": [1]}, ax=ax)  # fmt: skip
    assert "baseline" not in ax.get_title()  # said only where a speed-up is shown


def test_axis_names_come_from_the_parameter_tables() -> None:
    assert td.plot.axis_label("makespan_us") == "makespan (us)"
    assert td.plot.axis_label("gpu.sms") == "streaming multiprocessors (SMs)"
    assert td.plot.axis_label("node_buffer") == "node buffer (entries)"
    assert td.plot.axis_label("cost.mean") == "cost mean (cycles)"
    assert td.plot.axis_label("not_a_column") == "not a column"
    assert td.plot.axis_label("spilled_updates") == "spilled updates"  # the unit is the noun


def test_yaml_draws_pareto_and_scatter_kinds(tmp_path: Path) -> None:
    path = tmp_path / "e.yaml"
    path.write_text(
        "gpu: gtx480\nworkload: {generator: wavefront, rows: 4, cols: 4}\n"
        "scheme: global_barrier\ngrid: {sms: [1, 2, 4]}\noutputs:\n  tables: [csv]\n  plots:\n"
        "    - {kind: pareto, x: sms, y: makespan_us, directions: [min, min], file: p.png}\n"
        "    - {kind: scatter, x: sms, y: makespan_us, hue: label, row: workload, file: s.png}\n"
    )
    exp = td.experiment.load(path)
    exp.run(str(tmp_path / "out"), echo=lambda _: None)
    assert (tmp_path / "out" / "p.png").stat().st_size > 0
    assert (tmp_path / "out" / "s.png").stat().st_size > 0
    path.write_text(path.read_text().replace("[min, min]", "[min, most]"))
    with pytest.raises(td.ConfigError, match="direction of 'makespan_us' must be 'min' or 'max'"):
        td.experiment.load(path)


def test_a_palette_keeps_colours_across_figures() -> None:
    frame = grid_frame()
    colours = {"a": "C3", "b": "C0"}
    one = td.plot.bar(frame[frame.label == "b"], x="sms", y="speedup", hue="label",
                      where={"gpu.tb_slots": 1, "workload": "small"}, palette=colours)  # fmt: skip
    two = td.plot.bar(frame, x="sms", y="speedup", hue="label",
                      where={"gpu.tb_slots": 1, "workload": "small"}, palette=colours)  # fmt: skip
    assert isinstance(one, Axes) and isinstance(two, Axes)
    legend = two.get_legend()
    assert legend is not None
    patches = dict(
        zip([t.get_text() for t in legend.get_texts()], legend.get_patches(), strict=False)
    )
    first = one.get_legend()
    assert first is not None
    assert matplotlib.colors.to_hex(first.get_patches()[0].get_facecolor()) == (
        matplotlib.colors.to_hex(patches["b"].get_facecolor())
    )
    with pytest.raises(td.ConfigError, match="palette"):
        td.plot.line(frame, x="sms", y="speedup", hue="label", where={"workload": "small"},
                     col="tb_slots", palette="no-such-palette")  # fmt: skip


def test_a_runs_series_legend_sits_beside_the_data() -> None:
    """Issue 31: the activity legend (hwwl notebook, Fig. 8) covered the curves."""
    run = td.simulate(td.workloads.bfs(graph="grid", rows=12, cols=12),
                      td.gpus.gpgpusim_hwwl(sms=2), "hwwl", timeline=True)  # fmt: skip
    for draw in (td.plot.activity, td.plot.counters):
        figure, ax = drawn()
        draw(run, ax=ax)
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
        legend = ax.get_legend()
        assert legend is not None
        assert legend.get_window_extent(renderer).x0 >= ax.get_window_extent(renderer).x1 - 1


def test_legend_false_leaves_the_legend_to_another_figure() -> None:
    """Issue 31: the Juggler notebook removed Fig. 4's legend by hand (Fig. 5
    beside it shows the same policies); ``legend=False`` says so."""
    frame = grid_frame()
    where = {"gpu.tb_slots": 1, "workload": "small"}
    for draw in (td.plot.bar, td.plot.line):
        figure, ax = drawn()
        draw(frame, x="sms", y="speedup", hue="label", where=where, ax=ax, legend=False)
        assert ax.get_legend() is None and not figure.legends
        assert ax.get_lines(), "the baseline is still drawn"
    panels = td.plot.scatter(frame, x="sms", y="speedup", hue="label", col="workload", legend=False)
    assert isinstance(panels, list)
    figure = panels[0].get_figure(root=True)
    assert figure is not None and not figure.legends
    assert [p.get_legend() for p in panels] == [None, None]


def test_a_palette_name_colours_the_configurations() -> None:
    frame = grid_frame()
    where = {"gpu.tb_slots": 1, "workload": "small"}
    ax = td.plot.line(frame, x="sms", y="speedup", hue="label", where=where, palette="Set2")
    assert isinstance(ax, Axes)
    legend = ax.get_legend()
    assert legend is not None
    colours = [matplotlib.colors.to_hex(line.get_color()) for line in legend.get_lines()]
    assert colours[:2] == [matplotlib.colors.to_hex(c) for c in seaborn.color_palette("Set2", 2)]
