#!/usr/bin/env python3
"""Plot a RelBench run folder: PNG and SVG files written into <run>/plots/.

usage: python3 scripts/plot.py RUN_FOLDER [--history Results/history.sqlite [--scenario S] [--metric M]]

Figures: time against size per scenario (log-log, a band from min to max), seed 000 Figure 7 (insert and
query, modelling many-to-nil against many-to-one), batch-size curves (time, peak memory and heap allocated against batch size),
the many-to-nil loss rate against the duplicate probability, statements and faults per strategy, and, with
--history, a metric over the recorded runs.
"""
import argparse
import csv
import math
import os
import sqlite3
import sys
from collections import OrderedDict, defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

# Colour by the modelling variant (many-to-one, many-to-nil, ...); the line style tells the strategy.
MODELLING_COLORS = {
    "many-to-one": "#1f77b4", "many-to-many": "#2ca02c", "many-to-nil": "#d62728", "manual-fk": "#9467bd",
    "manual-fk-unindexed": "#8c564b", "one-to-one": "#17becf", "one-to-nil": "#bcbd22",
}
STRATEGY_COLORS = {"objectgraph": "#1f77b4", "sql-replay": "#7f7f7f", "raw-sqlite": "#555555", "grdb": "#ff7f0e"}
LINE_STYLES = {"objectgraph": "-", "sql-replay": "--", "raw-sqlite": "-.", "grdb": ":"}


def color(strategy, variant=""):
    modelling = variant_axes(variant).get("modelling")
    return MODELLING_COLORS.get(modelling) or STRATEGY_COLORS.get(strategy, "#444444")


# The tallest figure, in inches at save()'s 110 dpi: about 1,900 px, so that a page's image stays readable without
# scrolling through one chart; a chart of more rows is split into parts (`-2`, `-3`, ... after the stem).
MAX_HEIGHT_INCHES = 17.0


def group_colors(groups):
    """A colour per (strategy, variant) of a chart, in the order the run declares them: two variants of one strategy
    are never drawn alike."""
    palette = plt.get_cmap("tab10" if len(groups) <= 10 else "tab20")
    return {group: palette(index % palette.N) for index, group in enumerate(groups)}


def chunks(items, per_chunk):
    """`items` in consecutive parts of at most `per_chunk` (at least one each)."""
    per_chunk = max(1, per_chunk)
    return [items[start:start + per_chunk] for start in range(0, len(items), per_chunk)] or [items]


def part_name(stem, index):
    return stem if index == 0 else f"{stem}-{index + 1}"


def label_bars(axis, container, values):
    """Each bar's value at its end, as a person reads it (`1,001`, `0.413`)."""
    axis.bar_label(container, labels=[f"{value:,.0f}" if value >= 100 else f"{value:.3g}" for value in values],
                   fontsize=6, padding=2)


def line_style(strategy):
    return LINE_STYLES.get(strategy, "-")


def load_summary(folder):
    path = os.path.join(folder, "summary.csv")
    if not os.path.exists(path):
        sys.exit(f"plot.py: {path} not found; give a run folder written by 'bench run'")
    rows = []
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if row["n"] == "0" or row["median"] == "":
                continue
            for key in ("median", "min", "max", "ci_low", "ci_high"):
                row[key] = float(row[key])
            row["size"] = int(row["size"])
            rows.append(row)
    return rows


FIDELITY = ("Times and memory: ObjectGraph on Linux (Core Data does not run here). "
            "Statement, fault and row counts transfer to an app where ObjectGraph is faithful to Core Data.")


def ordered(values):
    return list(OrderedDict.fromkeys(values))


def save(figure, folder, name):
    os.makedirs(os.path.join(folder, "plots"), exist_ok=True)
    figure.text(0.0, -0.02, FIDELITY, fontsize=7, color="#555555", ha="left", va="top", transform=figure.transFigure)
    written = []
    for extension in ("png", "svg"):
        path = os.path.join(folder, "plots", f"{name}.{extension}")
        figure.savefig(path, dpi=110, bbox_inches="tight")
        written.append(path)
    plt.close(figure)
    return written


def log_axes(axis, x=True):
    """Log scales labelled at 1, 2 and 5 of each decade, in plain numbers, where the data span a decade or more; a
    linear scale otherwise (a log axis over 1,000 to 2,000 shows nothing a linear one does not)."""
    for name in (("x", "y") if x else ("y",)):
        low, high = (axis.dataLim.intervalx if name == "x" else axis.dataLim.intervaly)
        scale_axis = axis.xaxis if name == "x" else axis.yaxis
        if low > 0 and high / low >= 10:
            getattr(axis, f"set_{name}scale")("log")
            scale_axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            scale_axis.set_minor_formatter(NullFormatter())
        scale_axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.6g}"))


def bar_scale(axis, values):
    """A bar chart's value axis: log, labelled at 1, 2 and 5 of each decade in plain numbers, where the bars' values
    span a decade or more (bars start at zero, so the axis's own data limits cannot tell); linear otherwise."""
    values = [value for value in values if value > 0]
    if values and max(values) / min(values) >= 10:
        axis.set_xscale("log")
        axis.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        axis.xaxis.set_minor_formatter(NullFormatter())
        axis.set_xlim(left=min(values) * 0.7)
    axis.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:,.6g}"))


def series(rows, **filters):
    """Rows matching every filter, sorted by size."""
    return sorted((r for r in rows if all(r[k] == v for k, v in filters.items())), key=lambda r: r["size"])


def time_metric(rows, scenario):
    metrics = {r["metric"] for r in rows if r["scenario"] == scenario}
    return ("wall_ms", "time (ms)") if "wall_ms" in metrics else ("instructions", "instructions")


VARIANT_STYLES = ["-", "--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1)), (0, (1, 3)), (0, (8, 2))]


def variant_axes(variant):
    """`keyPath=to-one;prefetch=on` as an ordered mapping of axis to value."""
    return OrderedDict(part.split("=", 1) for part in variant.split(";") if "=" in part)


def plot_scenario(rows, folder, scenario):
    """Time against size, log-log: a panel per phase and per value of the variant axes other than prefetch (or the
    last axis), every strategy in the panel on the same axes (colour by strategy, marker by implementation) and
    prefetch off against on (or the last axis's values) as line styles, so that one panel shows what it changes;
    a band from min to max."""
    metric, label = time_metric(rows, scenario)
    data = [r for r in rows if r["scenario"] == scenario and r["metric"] == metric]
    phases, variants, strategies = ordered(r["phase"] for r in data), ordered(r["variant"] for r in data), ordered(r["strategy"] for r in data)
    if len({r["size"] for r in data}) == 1:
        return plot_single_size(data, folder, scenario, label)
    names = ordered(name for variant in variants for name in variant_axes(variant))
    style_axis = "prefetch" if "prefetch" in names else (names[-1] if names else None)
    style_values = ordered(variant_axes(v).get(style_axis, "") for v in variants) if style_axis else [""]
    if style_axis == "prefetch":
        style_values = sorted(style_values, key=lambda value: value != "on")  # on solid, off dashed
    groups = ordered(";".join(f"{k}={v}" for k, v in variant_axes(variant).items() if k != style_axis) for variant in variants)
    panels = [(phase, group) for phase in phases for group in groups]
    if len(style_values) > len(VARIANT_STYLES) or len(panels) > 18:
        return []

    def draw_panels(panels, name, of):
        columns = min(3, len(panels))
        lines = math.ceil(len(panels) / columns)
        figure, axes = plt.subplots(lines, columns, figsize=(5.0 * columns, 3.8 * lines), squeeze=False)
        implementation_markers = {"raw-sqlite": "x", "grdb": "^", "sql-replay": "x"}
        palette = plt.get_cmap("tab10" if len(strategies) <= 10 else "tab20")
        strategy_colors = {strategy: palette(index % palette.N) for index, strategy in enumerate(strategies)}
        for index, (phase, group) in enumerate(panels):
            axis = axes[index // columns][index % columns]
            for strategy in strategies:
                for variant in variants:
                    parts = variant_axes(variant)
                    if ";".join(f"{k}={v}" for k, v in parts.items() if k != style_axis) != group:
                        continue
                    points = series(data, phase=phase, variant=variant, strategy=strategy)
                    if not points:
                        continue
                    sizes = [p["size"] for p in points]
                    style = VARIANT_STYLES[style_values.index(parts.get(style_axis, "")) if style_axis else 0]
                    axis.plot(sizes, [p["median"] for p in points], marker=implementation_markers.get(strategy, "o"),
                              markersize=4, color=strategy_colors[strategy], linestyle=style, linewidth=1.4)
                    axis.fill_between(sizes, [p["min"] for p in points], [p["max"] for p in points], color=strategy_colors[strategy], alpha=0.08)
            log_axes(axis)
            axis.set_title(phase + (f" [{group}]" if group else ""), fontsize=9)
            axis.set_xlabel("size", fontsize=8)
            axis.set_ylabel(label, fontsize=8)
            axis.tick_params(labelsize=7)
            axis.grid(True, which="major", alpha=0.3)
        # The panels of one phase share their y range, so that a variant's effect reads across them.
        for phase in phases:
            shared = [axes[i // columns][i % columns] for i, (p, _) in enumerate(panels) if p == phase]
            if not shared:
                continue
            low, high = min(a.get_ylim()[0] for a in shared), max(a.get_ylim()[1] for a in shared)
            for axis in shared:
                axis.set_ylim(low, high)
        for index in range(len(panels), lines * columns):
            axes[index // columns][index % columns].axis("off")
        # One legend entry per strategy (colour, marker) and per value of the line-style axis.
        from matplotlib.lines import Line2D
        handles = [Line2D([], [], color=strategy_colors[s], marker=implementation_markers.get(s, "o"), markersize=4,
                          linewidth=1.4, label=s) for s in strategies]
        if style_axis and len(style_values) > 1:
            handles += [Line2D([], [], color="#333333", linestyle=VARIANT_STYLES[i], linewidth=1.4, label=f"{style_axis}={value}")
                        for i, value in enumerate(style_values)]
        legend_columns = min(len(handles), 5)
        legend_lines = math.ceil(len(handles) / legend_columns)
        figure.tight_layout(rect=(0, 0, 1, 1 - (0.035 * legend_lines + 0.05) / lines))
        figure.legend(handles=handles, loc="upper center", ncol=legend_columns, fontsize=7, bbox_to_anchor=(0.5, 1 - 0.03 / lines))
        figure.suptitle(f"{scenario}: {label} against size (median, band min..max){of}", y=1.0, fontsize=10)
        return save(figure, folder, name)

    # At most four lines of three panels a figure (about 1,700 px high); more go to further parts.
    parts = chunks(panels, 12)
    written = []
    for part, panels_of_part in enumerate(parts):
        of = f" (part {part + 1} of {len(parts)})" if len(parts) > 1 else ""
        written += draw_panels(panels_of_part, part_name(f"time-{scenario}", part), of)
    return written


def plot_single_size(data, folder, scenario, label):
    """One size measured: a line against size would be a dot per series, so one chart of horizontal bars, a row per
    phase and a bar per strategy and variant in it (a colour each, its median written at its end), with the min..max
    range as an error bar; a log scale where the medians span a decade or more. The figure grows in height with the
    phases (a generated suite has 50), up to MAX_HEIGHT_INCHES; more phases go to further parts."""
    size = data[0]["size"]
    all_phases = ordered(r["phase"] for r in data)
    groups = ordered((r["strategy"], r["variant"]) for r in data)
    colors = group_colors(groups)
    width = 0.8 / len(groups)
    per_part = int((MAX_HEIGHT_INCHES - 1.8) / (0.2 * len(groups)))
    parts = chunks(all_phases, per_part)
    written = []
    for part, phases in enumerate(parts):
        height = max(2.8, 0.2 * len(phases) * len(groups) + 1.8)
        figure, axis = plt.subplots(figsize=(9, height))
        drawn = []
        for offset, (strategy, variant) in enumerate(groups):
            positions, medians, low, high = [], [], [], []
            for index, phase in enumerate(phases):
                point = next((r for r in data if (r["strategy"], r["variant"], r["phase"]) == (strategy, variant, phase)), None)
                if point is None or point["median"] <= 0:
                    continue
                positions.append(index + (offset - (len(groups) - 1) / 2) * width)
                medians.append(point["median"])
                low.append(point["median"] - point["min"])
                high.append(point["max"] - point["median"])
            drawn += medians
            bars = axis.barh(positions, medians, width, xerr=[low, high], color=colors[(strategy, variant)], alpha=0.85,
                             capsize=1.5, error_kw={"elinewidth": 0.8}, label=f"{strategy} {variant}".strip())
            label_bars(axis, bars, medians)
        bar_scale(axis, drawn)
        axis.set_yticks(range(len(phases)))
        axis.set_yticklabels(phases, fontsize=7)
        axis.set_ylim(len(phases) - 0.5, -0.5)
        axis.set_xlabel(f"{label}{' (log scale)' if axis.get_xscale() == 'log' else ''}; bar: median, line: min..max", fontsize=8)
        of = f" (part {part + 1} of {len(parts)})" if len(parts) > 1 else ""
        axis.set_title(f"{scenario}: {label} per phase, size {size:,}{of}", fontsize=9)
        axis.grid(True, axis="x", alpha=0.3)
        axis.margins(x=0.12)
        if len(groups) > 1:
            axis.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.6 / height), ncol=min(len(groups), 4), frameon=False)
        figure.tight_layout()
        written += save(figure, folder, part_name(f"time-{scenario}", part))
    return written


def plot_figure7(rows, folder):
    """Seed 000 Figure 7: insert and query on ObjectGraph, modelling many-to-nil against many-to-one, side by side."""
    panels = [("insert", "insert", "", "Insert: N students, one save"),
              ("query", "walk", ";prefetch=off", "Query: walk every class's students")]
    if not any(series(rows, scenario=s, phase=p, metric="wall_ms", strategy="objectgraph") for s, p, _, _ in panels):
        return []
    figure, axes = plt.subplots(1, 2, figsize=(10, 4))
    for axis, (scenario, phase, rest, title) in zip(axes, panels):
        for modelling in ("many-to-one", "many-to-nil"):
            variant = f"modelling={modelling}{rest}"
            points = series(rows, scenario=scenario, phase=phase, variant=variant, strategy="objectgraph", metric="wall_ms")
            if not points:
                continue
            sizes = [p["size"] for p in points]
            axis.plot(sizes, [p["median"] for p in points], marker="o", color=color("objectgraph", variant), label=modelling)
            axis.fill_between(sizes, [p["ci_low"] for p in points], [p["ci_high"] for p in points], color=color("objectgraph", variant),
                              alpha=0.2)
        log_axes(axis)
        axis.set_title(title, fontsize=10)
        axis.set_xlabel("size (students)")
        axis.set_ylabel("time (ms, median and interval)")
        axis.grid(True, alpha=0.3)
        axis.legend(fontsize=8)
    figure.suptitle("Seed 000 Figure 7 reproduced: modelling many-to-nil against many-to-one (ObjectGraph)", fontsize=11)
    figure.tight_layout()
    return save(figure, folder, "figure7")


def plot_batch_size(rows, folder):
    """Time, peak memory and heap allocated against fetchBatchSize, per access pattern, at the largest size.

    Peak resident memory cannot resolve differences below a few MB, so at small sizes its curve is flat; the
    bytes allocated (counted exactly by the harness) show what batching saves at every size."""
    data = [r for r in rows if r["scenario"] == "batch-size"]
    if not data:
        return []
    size = max(r["size"] for r in data)
    written = []
    for strategy in ordered(r["strategy"] for r in data):
        points = [r for r in data if r["size"] == size and r["strategy"] == strategy]
        if not points:
            continue
        panels = [("wall_ms", "time (ms)", 1.0), ("peak_rss_bytes", "peak resident memory (MiB)", 1 / 1048576)]
        if any(r["metric"] == "allocated_bytes" for r in points):
            panels.append(("allocated_bytes", "heap allocated in the phase (MiB)", 1 / 1048576))
        figure, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4))
        for axis, (metric, label, scale) in zip(axes, panels):
            for access, style in (("first-screen", "o-"), ("all", "s--")):
                curve = [r for r in points if r["metric"] == metric and variant_axes(r["variant"]).get("access") == access]
                curve.sort(key=lambda r: int(variant_axes(r["variant"])["batch"]))
                if not curve:
                    continue
                labels = [variant_axes(r["variant"])["batch"] for r in curve]
                axis.plot(range(len(curve)), [r["median"] * scale for r in curve], style, label=f"access={access}")
                axis.set_xticks(range(len(curve)))
                axis.set_xticklabels(labels)
            axis.set_xlabel("fetchBatchSize (0 = all rows at once)")
            axis.set_ylabel(label)
            axis.grid(True, alpha=0.3)
            axis.legend(fontsize=8)
        figure.suptitle(f"batch-size, {strategy}, {size:,} students", fontsize=11)
        figure.tight_layout()
        written += save(figure, folder, f"batch-size-{strategy}")
    return written


def plot_data_loss(rows, folder):
    """The many-to-nil loss rate against the probability that a membership reuses a subject."""
    data = [r for r in rows if r["scenario"] == "data-loss" and r["metric"] == "loss_rate" and r["phase"] == "save-and-reread"]
    if not data:
        return []
    figure, axis = plt.subplots(figsize=(6.5, 4.2))
    styles = ["o-", "s--", "^-.", "d:"]
    data = [r for r in data if r["strategy"] == "objectgraph"]
    for modelling in ordered(variant_axes(r["variant"]).get("modelling", "") for r in data):
        for index, size in enumerate(sorted({r["size"] for r in data})):
            points = sorted((r for r in data if variant_axes(r["variant"]).get("modelling", "") == modelling and r["size"] == size),
                            key=lambda r: float(variant_axes(r["variant"])["duplicates"]))
            axis.plot([float(variant_axes(r["variant"])["duplicates"]) for r in points], [r["median"] for r in points], styles[index % 4],
                      color=MODELLING_COLORS.get(modelling, "#444444"), label=f"{modelling}, {size:,} students", markersize=4)
    axis.plot([0, 0.5], [0, 0.5], color="#999999", linewidth=0.8, linestyle=":", label="every shared membership lost")
    axis.set_xlabel("probability that a membership reuses a subject")
    axis.set_ylabel("loss rate (links lost / links written)")
    axis.set_title("Data loss after save and re-read in a fresh context", fontsize=10)
    axis.grid(True, alpha=0.3)
    axis.legend(fontsize=7)
    figure.tight_layout()
    return save(figure, folder, "data-loss")


def plot_statements(rows, folder):
    """Statements and faults per phase, horizontal bars per strategy (and variant), at each scenario's largest size
    (sql-replay's equal objectgraph's). A counter that is zero in every group is left out and named in the title; the
    figure grows in height, not width, with the groups; the legend sits below the bars."""
    written = []
    metrics = (("sql_statements", "statements"), ("object_faults", "object faults"), ("relationship_faults", "relationship faults"))
    palette = {"sql_statements": "#1f77b4", "object_faults": "#ff7f0e", "relationship_faults": "#2ca02c"}
    for scenario in ordered(r["scenario"] for r in rows):
        # sql-replay runs ObjectGraph's own statements: its bars would repeat objectgraph's.
        data = [r for r in rows if r["scenario"] == scenario and r["metric"] in dict(metrics) and r["strategy"] != "sql-replay"]
        if not data or scenario == "batch-size":
            continue
        size = max(r["size"] for r in data)
        all_groups = ordered((r["strategy"], r["variant"], r["phase"]) for r in data if r["size"] == size)
        several_phases = len({g[2] for g in all_groups}) > 1
        shown = [(m, label) for m, label in metrics if any(r["median"] > 0 for r in data if r["size"] == size and r["metric"] == m)]
        zero = [label for m, label in metrics if (m, label) not in shown and any(r["metric"] == m for r in data)]
        if not shown:
            continue
        per_part = int((MAX_HEIGHT_INCHES - 1.6) / (0.22 * len(shown)))
        parts = chunks(all_groups, per_part)
        for part, groups in enumerate(parts):
            figure, axis = plt.subplots(figsize=(9, max(2.8, 0.22 * len(groups) * len(shown) + 1.6)))
            width = 0.8 / len(shown)
            for offset, (metric, label) in enumerate(shown):
                positions, values = [], []
                for index, (strategy, variant, phase) in enumerate(groups):
                    match = [r for r in data if (r["strategy"], r["variant"], r["phase"], r["size"], r["metric"]) == (strategy, variant, phase, size, metric)]
                    # Zero cannot be drawn on a log scale, and a peer does not measure faults: both leave no bar.
                    if match and match[0]["median"] > 0:
                        positions.append(index + (offset - (len(shown) - 1) / 2) * width)
                        values.append(match[0]["median"])
                bars = axis.barh(positions, values, width, label=label, color=palette[metric])
                label_bars(axis, bars, values)
            # A log scale where this part's counts span a decade or more; a linear one otherwise (all ones on a log
            # axis say less).
            bar_scale(axis, [value for container in axis.containers for value in container.datavalues])
            axis.set_yticks(range(len(groups)))
            labels = [" ".join(part for part in (s, v, p if several_phases else "") if part) for s, v, p in groups]
            axis.set_yticklabels(labels, fontsize=7)
            axis.set_ylim(len(groups) - 0.5, -0.5)
            axis.margins(x=0.12)
            axis.set_xlabel(f"count per phase ({'log scale; ' if axis.get_xscale() == 'log' else ''}no bar: zero, or not measured by a peer)", fontsize=8)
            title = f"{scenario}: statements and faults, size {size:,}"
            if zero:
                title += f" ({' and '.join(zero)}: 0 everywhere)"
            if len(parts) > 1:
                title += f" (part {part + 1} of {len(parts)})"
            axis.set_title(title, fontsize=9)
            axis.grid(True, axis="x", alpha=0.3)
            # The legend in the figure's last 0.3 inches, under the axis label whatever the figure's height.
            height = figure.get_figheight()
            figure.tight_layout(rect=(0, 0.3 / height, 1, 1))
            from matplotlib.patches import Patch
            handles = [Patch(color=palette[metric], label=label) for metric, label in shown]
            figure.legend(handles=handles, fontsize=7, loc="lower center", bbox_to_anchor=(0.5, 0.0),
                          ncol=len(shown), frameon=False)
            written += save(figure, folder, part_name(f"statements-{scenario}", part))
    return written


def plot_history(database, folder, scenario, metric):
    """A metric over the recorded runs, per strategy, at the largest size and first phase and variant."""
    connection = sqlite3.connect(database)
    rows = connection.execute(
        "SELECT run.time, run.commitHash, series.strategy, series.variant, series.size, series.phase, series.median "
        "FROM series JOIN run ON run.id = series.run WHERE series.scenario = ? AND series.metric = ? ORDER BY run.time, run.id",
        (scenario, metric)).fetchall()
    if not rows:
        print(f"plot.py: the history has no {metric} for scenario {scenario}", file=sys.stderr)
        return []
    size = max(r[4] for r in rows)
    phase = rows[0][5]
    variant = rows[0][3]
    runs = ordered((r[0], r[1]) for r in rows)
    figure, axis = plt.subplots(figsize=(max(6, 0.6 * len(runs) + 3), 4))
    for strategy in ordered(r[2] for r in rows):
        points = {(r[0], r[1]): r[6] for r in rows if r[2] == strategy and r[4] == size and r[5] == phase and r[3] == variant}
        xs = [i for i, run in enumerate(runs) if run in points]
        axis.plot(xs, [points[runs[i]] for i in xs], marker="o", color=color(strategy, variant), linestyle=line_style(strategy), label=strategy)
    axis.set_xticks(range(len(runs)))
    axis.set_xticklabels([f"{commit[:7]}\n{time[:10]}\n{time[11:16]}" for time, commit in runs], fontsize=7)
    axis.set_xlabel("run (commit, date)")
    axis.set_ylabel(metric)
    axis.set_title(f"{scenario} {phase}{' [' + variant + ']' if variant else ''}, size {size:,}: {metric} over runs", fontsize=10)
    axis.grid(True, alpha=0.3)
    axis.legend(fontsize=7)
    figure.tight_layout()
    return save(figure, folder, f"history-{scenario}-{metric}")


def main():
    parser = argparse.ArgumentParser(description="Plot a RelBench run folder into <run>/plots/ (PNG and SVG).")
    parser.add_argument("run", help="a run folder written by 'bench run'")
    parser.add_argument("--history", help="also plot a metric over the runs of this history store (Results/history.sqlite)")
    parser.add_argument("--scenario", default="query", help="the scenario of the history plot")
    parser.add_argument("--metric", default="wall_ms", help="the metric of the history plot")
    arguments = parser.parse_args()
    rows = load_summary(arguments.run)
    written = []
    for scenario in ordered(r["scenario"] for r in rows):
        written += plot_scenario(rows, arguments.run, scenario)
    written += plot_figure7(rows, arguments.run)
    written += plot_batch_size(rows, arguments.run)
    written += plot_data_loss(rows, arguments.run)
    written += plot_statements(rows, arguments.run)
    if arguments.history:
        if not os.path.exists(arguments.history):
            sys.exit(f"plot.py: no history store at {arguments.history}")
        written += plot_history(arguments.history, arguments.run, arguments.scenario, arguments.metric)
    for path in written:
        print(path)
    print(f"plot.py: bench report {arguments.run} writes the run's page again with these plots", file=sys.stderr)


if __name__ == "__main__":
    main()
