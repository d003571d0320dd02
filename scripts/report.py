#!/usr/bin/env python3
"""Write one page per run: <run>/report.md and <run>/report.html, with the run's facts, a table per scenario
and the plots (made first, with plot.py, if they are not there yet).

usage: python3 scripts/report.py RUN_FOLDER
"""
import argparse
import csv
import html
import json
import os
import subprocess
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))


def read_csv(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def number(text, digits=3):
    if text in ("", None):
        return "-"
    value = float(text)
    return f"{value:,.0f}" if value == int(value) and abs(value) >= 1 else f"{value:.{digits}g}"


def scenario_tables(summary, complexity):
    """Per scenario: one row per (strategy, variant, size, phase) with time, ratio to the floor (sql-replay), counters, memory, growth."""
    growth = {(r["scenario"], r["strategy"], r["variant"], r["phase"]): r["best_fit"] for r in complexity if r["metric"] == "wall_ms"}
    index = {(r["scenario"], r["strategy"], r["variant"], r["size"], r["phase"], r["metric"]): r for r in summary}
    tables = OrderedDict()
    for row in summary:
        if row["metric"] != "wall_ms":
            continue
        key = (row["scenario"], row["strategy"], row["variant"], row["size"], row["phase"])

        def value(metric):
            found = index.get(key + (metric,))
            return number(found["median"]) if found and found["n"] != "0" else "-"

        peak = index.get(key + ("peak_rss_bytes",))
        tables.setdefault(row["scenario"], []).append([
            row["strategy"], row["variant"] or "-", f'{int(row["size"]):,}', row["phase"],
            f'{number(row["median"])} [{number(row["ci_low"])}, {number(row["ci_high"])}]',
            number(row["ratio_to_floor"], 2), value("sql_statements"), f'{value("object_faults")}/{value("relationship_faults")}',
            value("rows_read"), f'{float(peak["median"]) / 1048576:.1f}' if peak and peak["median"] else "-",
            growth.get((row["scenario"], row["strategy"], row["variant"], row["phase"]), "-"),
        ])
    return tables


FIDELITY = ("Core Data does not run on Linux: these times and memory figures are ObjectGraph's on this machine. "
            "What transfers to an app on a device are the statement, fault and row counts, where ObjectGraph is faithful "
            "to Core Data (its README lists what is documented and what is inferred).")

HEADER = ["strategy", "variant", "size", "phase", "wall ms (median [95% CI])", "× floor", "SQL", "faults obj/rel", "rows",
          "peak MiB", "growth"]


def verdict_label(verdict):
    return verdict["label"]


def source_text(verdict):
    source = verdict["source"]
    return ", ".join(part for part in (source.get("author"), source["title"], source.get("date")) if part)


def evidence_text(verdict, separator):
    lines = list(verdict["evidence"])
    if verdict.get("reason"):
        lines.append(f"why: {verdict['reason']}")
    if verdict.get("command"):
        lines.append(f"decide: `{verdict['command']}`")
    lines.append(f"rests on: {verdict['basis']}")
    return separator.join(lines)


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def finding_line(finding):
    saving = "" if finding["statementsAfter"] == finding["statements"] else f" ({finding['statements']:,} → {finding['statementsAfter']:,} statements)"
    repeated = f"{finding['repeats']:,} × \"{finding['fingerprint']}\": " if finding["repeats"] > 0 else ""
    return f"{finding['phase']}: {repeated}{finding['change']}{saving}" + (f"; {finding['measured']}" if finding.get("measured") else "")


LOSS_HEADER = ["strategy", "variant", "size", "phase", "links intended", "links persisted", "links lost", "loss rate"]


def loss_rows(summary):
    """The memberships each series meant to save against those the store kept (the many-to-nil loss)."""
    index = {(r["scenario"], r["strategy"], r["variant"], r["size"], r["phase"], r["metric"]): r for r in summary}
    rows = []
    for row in summary:
        if row["metric"] != "links_intended" or row["n"] == "0":
            continue
        key = (row["scenario"], row["strategy"], row["variant"], row["size"], row["phase"])

        def value(metric, digits=3):
            found = index.get(key + (metric,))
            return number(found["median"], digits) if found and found["n"] != "0" else "-"
        rows.append([row["scenario"], row["strategy"], row["variant"] or "-", f'{int(row["size"]):,}', row["phase"], value("links_intended"),
                     value("links_persisted"), value("links_lost"), value("loss_rate")])
    return rows


def arguments():
    parser = argparse.ArgumentParser(
        description="Write RUN_FOLDER/report.md and report.html: verdicts, N+1 advice, data loss and a table and plots per scenario.")
    parser.add_argument("folder", metavar="RUN_FOLDER", help="a run folder written by 'bench run' or 'bench merge'")
    return parser.parse_args()


def main():
    folder = arguments().folder
    for name in ("summary.csv", "run.json"):
        if not os.path.exists(os.path.join(folder, name)):
            sys.exit(f"report.py: {folder} has no {name}; give a run folder written by 'bench run'")
    if not os.path.isdir(os.path.join(folder, "plots")):
        subprocess.run([sys.executable, os.path.join(HERE, "plot.py"), folder], check=True, stdout=subprocess.DEVNULL)
    info = json.load(open(os.path.join(folder, "run.json")))
    summary = read_csv(os.path.join(folder, "summary.csv"))
    complexity = read_csv(os.path.join(folder, "complexity.csv")) if os.path.exists(os.path.join(folder, "complexity.csv")) else []
    tables = scenario_tables(summary, complexity)
    plots = sorted(p for p in os.listdir(os.path.join(folder, "plots")) if p.endswith(".png"))

    def has_figure(verdict):
        return bool(verdict.get("figure")) and f"{verdict['figure']}.png" in plots
    facts = [("commit", info.get("gitCommit")), ("time (UTC)", info.get("utcTime")), ("host", info.get("host")),
             ("CPUs", info.get("cpuCount")), ("profile", info.get("profile")), ("seed", info.get("seed")),
             ("build", info.get("buildConfiguration")), ("Swift", info.get("swiftVersion")), ("SQLite", info.get("sqliteVersion")),
             ("SQLite settings", ", ".join(f"{k}={v}" for k, v in sorted(info.get("sqliteSettings", {}).items()))),
             ("status", info.get("status")), ("command", " ".join(info.get("commandLine", [])))]

    verdicts_path = os.path.join(folder, "verdicts.json")
    verdicts = json.load(open(verdicts_path)) if os.path.exists(verdicts_path) else []
    advice_path = os.path.join(folder, "advice.json")
    advice = json.load(open(advice_path)) if os.path.exists(advice_path) else []
    lint_path = os.path.join(folder, "lint.txt")
    lint = open(lint_path).read().splitlines() if os.path.exists(lint_path) else []
    markdown = [f"# RelBench run {os.path.basename(os.path.normpath(folder))}", "", f"> {FIDELITY}", ""]
    if verdicts:
        markdown += ["## Verdicts", "", "| verdict | claim | source | evidence | rule |", "|---|---|---|---|---|"]
        for verdict in verdicts:
            claim = verdict["claim"] + (f" ([figure](plots/{verdict['figure']}.png))" if has_figure(verdict) else "")
            markdown.append("| " + " | ".join(cell(text) for text in (f"**{verdict_label(verdict)}**", claim, source_text(verdict),
                                                                         evidence_text(verdict, "<br>"), verdict["rule"])) + " |")
        markdown += ["", "Each verdict is computed by its rule from this run's summary (`bench verdicts` prints the same).", ""]
    if lint:
        markdown += ["## Lint findings", ""] + [f"- {line}" for line in lint] + [""]
    markdown += [f"- **{name}**: {value}" for name, value in facts] + [""]
    losses = loss_rows(summary)
    if losses:
        markdown += ["## Data loss", "", "Memberships saved against memberships the store kept (medians over repetitions).", "",
                     "| scenario | " + " | ".join(LOSS_HEADER) + " |", "|" + "---|" * (len(LOSS_HEADER) + 1)]
        markdown += ["| " + " | ".join(cell(text) for text in row) + " |" for row in losses] + [""]
    for scenario, rows in tables.items():
        markdown += [f"## {scenario}", "", "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
        markdown += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
        findings = [f for f in advice if f["scenario"] == scenario]
        if findings:
            markdown += ["", f"N+1 advice (size {findings[0]['size']:,}):", ""]
            markdown += [f"- {f['strategy']} {f['variant']}: {finding_line(f)}" for f in findings]
        markdown += [""] + [f"![{plot}](plots/{plot})" for plot in plots if scenario in plot] + [""]
    markdown += ["## Other plots", ""] + [f"![{plot}](plots/{plot})" for plot in plots if not any(s in plot for s in tables)]
    with open(os.path.join(folder, "report.md"), "w") as handle:
        handle.write("\n".join(markdown) + "\n")

    page = ["<!doctype html><html><head><meta charset='utf-8'><title>RelBench run</title><style>",
            "body{font-family:system-ui,sans-serif;margin:2em;max-width:1400px} table{border-collapse:collapse;font-size:13px}",
            "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right} td:nth-child(-n+4),th{text-align:left}",
            "img{max-width:100%;margin:1em 0}</style></head><body>",
            f"<h1>RelBench run {html.escape(os.path.basename(os.path.normpath(folder)))}</h1>",
            f"<p><i>{html.escape(FIDELITY)}</i></p>"]
    if verdicts:
        page.append("<h2>Verdicts</h2><table><tr>" + "".join(f"<th>{h}</th>" for h in ("verdict", "claim", "source", "evidence", "rule")) + "</tr>")
        for verdict in verdicts:
            claim = html.escape(verdict["claim"])
            if has_figure(verdict):
                claim = f"<a href='#{html.escape(verdict['figure'])}'>{claim}</a>"
            page.append("<tr>" + "".join(f"<td style='text-align:left'>{cell}</td>" for cell in (
                f"<b>{html.escape(verdict_label(verdict))}</b>", claim, html.escape(source_text(verdict)),
                "<br>".join(html.escape(line) for line in evidence_text(verdict, "\n").split("\n")), html.escape(verdict["rule"]))) + "</tr>")
        page.append("</table><p>Each verdict is computed by its rule from this run's summary.</p>")
    if lint:
        page += ["<h2>Lint findings</h2><ul>"] + [f"<li>{html.escape(line)}</li>" for line in lint] + ["</ul>"]
    page.append("<ul>")
    page += [f"<li><b>{html.escape(name)}</b>: {html.escape(str(value))}</li>" for name, value in facts] + ["</ul>"]
    if losses:
        page.append("<h2>Data loss</h2><p>Memberships saved against memberships the store kept (medians over repetitions).</p><table><tr>"
                    + "".join(f"<th>{html.escape(h)}</th>" for h in ["scenario"] + LOSS_HEADER) + "</tr>")
        page += ["<tr>" + "".join(f"<td>{html.escape(text)}</td>" for text in row) + "</tr>" for row in losses]
        page.append("</table>")
    for scenario, rows in tables.items():
        page.append(f"<h2>{html.escape(scenario)}</h2><table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in HEADER) + "</tr>")
        page += ["<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in rows]
        page.append("</table>")
        findings = [f for f in advice if f["scenario"] == scenario]
        if findings:
            page.append(f"<p>N+1 advice (size {findings[0]['size']:,}):</p><ul>")
            page += [f"<li>{html.escape(f['strategy'] + ' ' + f['variant'])}: {html.escape(finding_line(f))}</li>" for f in findings]
            page.append("</ul>")
        page += [f"<img id='{html.escape(plot[:-4])}' src='plots/{html.escape(plot)}' alt='{html.escape(plot)}'>" for plot in plots if scenario in plot]
    page.append("<h2>Other plots</h2>")
    page += [f"<img id='{html.escape(plot[:-4])}' src='plots/{html.escape(plot)}' alt='{html.escape(plot)}'>" for plot in plots if not any(s in plot for s in tables)]
    page.append("</body></html>")
    with open(os.path.join(folder, "report.html"), "w") as handle:
        handle.write("\n".join(page) + "\n")
    print(os.path.join(folder, "report.md"))
    print(os.path.join(folder, "report.html"))


if __name__ == "__main__":
    main()
