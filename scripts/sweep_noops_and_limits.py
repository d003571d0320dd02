"""The bad-input sweep's cases for silent no-ops, reading results back, scale limits and messages (issue 30, items
4, 6, 7 and 11); scripts/bad_input_sweep.py adds them to its table. Each case's `why` says what it pins.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess


def add_cases(add, s) -> None:
    """Adds the cases through the sweep's `add`; `s` is the sweep module (its fixtures and helpers)."""
    BAD, CMP_ARGS, CMP_OTHER, QUERY = s.BAD, s.CMP_ARGS, s.CMP_OTHER, s.QUERY

    def stderr_has(*texts):
        def check(ctx, result):
            missing = [text for text in texts if text not in result.stderr]
            return f"stderr lacks {missing}" if missing else None
        return check

    def stderr_lacks(*texts):
        def check(ctx, result):
            found = [text for text in texts if text in result.stderr]
            return f"stderr has {found}" if found else None
        return check

    def stderr_shorter(limit):
        def check(ctx, result):
            return None if len(result.stderr) < limit else f"stderr is {len(result.stderr)} characters, over {limit}"
        return check

    def stdout_lacks(text):
        def check(ctx, result):
            return f"stdout has '{text}'" if text in result.stdout else None
        return check

    def query_edited(edit):
        scenario = json.loads(json.dumps(QUERY))
        edit(scenario)
        return json.dumps(scenario)

    def folder(files):
        return lambda x: s.scenario_folder(x, files)

    # --- 4. no silent no-ops ---------------------------------------------------------------------------------------
    def when_value(scenario):
        scenario["phases"][0]["steps"][1]["when"] = {"prefetch": "maybe"}

    def when_axis(scenario):
        scenario["phases"][0]["steps"][1]["when"] = {"prefetsch": "on"}

    def two_axes(scenario):
        scenario["variants"] = [{"name": "prefetch", "values": ["off", "on"]}, {"name": "prefetch", "values": ["a", "b"]}]

    add("noop/when-value-the-axis-lacks", ["list", "--scenarios", "{d}/scen"], BAD, folder({"q.json": query_edited(when_value)}),
        check=stderr_has("maybe", "off, on"), why="a step whose 'when' names no value of its axis would never run")
    add("noop/when-axis-not-declared", ["list", "--scenarios", "{d}/scen"], BAD, folder({"q.json": query_edited(when_axis)}))
    add("noop/two-axes-one-name", ["list", "--scenarios", "{d}/scen"], BAD, folder({"q.json": query_edited(two_axes)}),
        check=stderr_has("prefetch"))
    add("noop/two-axes-one-name-declared", ["list", "--scenarios", "{d}/scen"], BAD,
        folder({"p.json": json.dumps(dict(json.loads(s.declared()), variants=[
            {"name": "v", "values": ["a", "b"]}, {"name": "v", "values": ["c"]}]))}),
        why="declared scenarios (an inline model) are read by the same parser")
    add("noop/threshold-for-unknown-scenario", ["compare", "{w}/base", "{w}/base", "--threshold-for", "qurey/wall_ms=15"], CMP_ARGS,
        check=stderr_has("qurey"), why="a threshold for a scenario neither run measured would never apply")
    add("noop/strategies-given-twice", s.run_q("--strategies", "objectgraph", "--output", "{d}/out"), BAD,
        check=stderr_has("--strategies"), why="the second --strategies silently replaced the first")
    add("noop/export-series-pattern-matching-nothing",
        s.run_q("--export", "github-action-benchmark", "{d}/e.json", "--export-series", "{d}/p.txt", "--output", "{d}/out"), (0,),
        lambda x: x.write("p.txt", "query objectgraph * wall_ms\nqurey objectgraph * wall_ms\n"), allow=("out", "e.json"),
        check=stderr_has("qurey", "match no series"), why="one misspelt pattern of two drops its series without a word")

    # --- 6. reading results back -----------------------------------------------------------------------------------
    def set_rows(path, column, value, metric):
        rows = list(csv.reader(io.StringIO(path.read_text())))
        index, metric_index = rows[0].index(column), rows[0].index("metric")
        for row in rows[1:]:
            if row[metric_index] == metric:
                row[index] = value
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(rows)
        path.write_text(out.getvalue())

    for label, column, value in [("negative-min", "min", "-5"), ("fractional-max", "max", "2.5"), ("negative-p90", "p90", "-1")]:
        add(f"readback/summary-count-{label}", ["verdicts", "{d}/run"], BAD,
            (lambda column, value: lambda x: set_rows(s.copy_run(x) / "summary.csv", column, value, "sql_statements"))(column, value),
            check=stderr_has("line "), why="a counter no run can produce is refused with its line")
    add("readback/samples-count-negative", ["compare", "{w}/base", "{d}/run"], CMP_OTHER,
        lambda x: set_rows(s.copy_run(x) / "samples.csv", "value", "-5", "sql_statements"), check=stderr_has("line "),
        why="a counter of -5 was once an 'improvement'")
    add("readback/samples-count-fractional", ["compare", "{w}/base", "{d}/run"], CMP_OTHER,
        lambda x: set_rows(s.copy_run(x) / "samples.csv", "value", "2.5", "rows_read"), check=stderr_has("line "))

    def cut_last_field(path):
        data = path.read_bytes().rstrip(b"\n")
        path.write_bytes(data[:-1])

    for name, command in [("summary.csv", ["verdicts", "{d}/run"]), ("samples.csv", ["compare", "{w}/base", "{d}/run"]),
                          ("statements.csv", ["compare", "{w}/base", "{d}/run"])]:
        add(f"readback/{name.split('.')[0]}-last-row-torn", command, BAD if command[0] == "verdicts" else CMP_OTHER,
            (lambda name: lambda x: cut_last_field(s.copy_run(x) / name))(name), check=stderr_has("line "),
            why="a row torn inside its last field has every field, but no newline")

    def bom(path):
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())

    for name in ["samples.csv", "summary.csv", "statements.csv"]:
        add(f"readback/{name.split('.')[0]}-with-utf8-bom", ["compare", "{w}/base", "{d}/run", "--counters-only"], (0,),
            (lambda name: lambda x: bom(s.copy_run(x) / name))(name), why="a spreadsheet's 'CSV UTF-8' starts with a BOM")
    add("readback/summary-with-utf8-bom-verdicts", ["verdicts", "{d}/run"], (0,), lambda x: bom(s.copy_run(x) / "summary.csv"))

    def run_json(key, value):
        def setup(x):
            path = s.copy_run(x) / "run.json"
            info = json.loads(path.read_text())
            info[key] = value
            path.write_text(json.dumps(info))
        return setup

    add("readback/run-json-negative-memory", ["report", "{d}/run"], BAD, run_json("memoryBytes", -1),
        check=stderr_has("memoryBytes", "does not fit"), why="Foundation calls a number out of range 'not valid JSON'")
    add("readback/run-json-fractional-seed", ["baseline", "save", "{d}/run", "--to", "{d}/b"], BAD, run_json("seed", 4.5),
        check=stderr_lacks("not valid JSON"))
    add("readback/run-json-wrong-type-compare", ["compare", "{w}/base", "{d}/run"], CMP_OTHER, run_json("status", 5),
        check=stderr_has("status"), why="compare read run.json with try? and judged the run without its settings")
    add("readback/run-json-wrong-type-verdicts", ["verdicts", "{d}/run"], BAD, run_json("scenarios", "query"))

    def duplicate_column(name):
        def setup(x):
            path = s.copy_run(x) / name
            header, rest = path.read_text().split("\n", 1)
            columns = header.split(",")
            columns[-1] = columns[0]
            path.write_text(",".join(columns) + "\n" + rest)
        return setup

    for name in ["summary.csv", "samples.csv", "statements.csv", "complexity.csv"]:
        add(f"readback/baseline-save-duplicate-column-{name.split('.')[0]}", ["baseline", "save", "{d}/run", "--to", "{d}/b"], BAD,
            duplicate_column(name), check=stderr_has("twice"), why="baseline save copied files it never read")

    # --- 7. scale limits -------------------------------------------------------------------------------------------
    def sparse_model(x):
        (x.d / "M.xcdatamodel").mkdir()
        with open(x.d / "M.xcdatamodel" / "contents", "wb") as handle:
            handle.truncate(2_100_000_000)

    for command in (["schema", "{d}/M.xcdatamodel"], ["lint", "{d}/M.xcdatamodel"],
                    ["explain", "--model", "{d}/M.xcdatamodel"], ["run", "--model", "{d}/M.xcdatamodel"] + s.FAST + ["--output", "{d}/out"]):
        add(f"scale/model-sparse-2GB-{command[0]}", command, BAD, sparse_model, check=stderr_has("MiB"), timeout=30,
            why="a 2.1 GB sparse file crashed FoundationXML (SIGILL): refused by its size before it is read")
    add("scale/model-sparse-2GB-in-scenario", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: (sparse_model(x), s.scenario_folder(x, {"q.json": s.query_with(model=str(x.d / "M.xcdatamodel"))})),
        check=stderr_has("q.json"), timeout=30)
    for label, size in [("largest-allowed", "100000000"), ("beyond-memory", "50000000")]:
        add(f"scale/run-size-{label}", ["run", "insert", "--sizes", size, "--strategies", "objectgraph", "--repetitions", "1",
                                        "--warmup", "0", "--allow-debug", "--no-history", "--quiet", "--no-advice", "--output", "{d}/out"],
            BAD, check=stderr_has("memory", "GiB"), timeout=60,
            why="a size whose data cannot fit in memory ended in an allocation crash with status 'running'")
    add("scale/explain-size-beyond-memory", ["explain", "insert", "--size", "10000000"], BAD, check=stderr_has("memory"), timeout=60)

    # --- 11. messages ----------------------------------------------------------------------------------------------
    add("message/history-size-negative-spaced", ["history", "query", "--size", "-1", "--history", "{w}/hist.sqlite"], BAD,
        check=stderr_lacks("Missing value"), why="'--size -1' read -1 as an option: 'Missing value'")
    add("message/explain-size-negative-spaced", ["explain", "query", "--size", "-1"], BAD, check=stderr_has("-1"))
    add("message/shard-negative-spaced", ["run", "--all", "--shard", "-1/2"] + s.FAST + ["--output", "{d}/out"], BAD,
        check=stderr_lacks("Missing value"))

    def sizes(value):
        return folder({"q.json": s.query_with(sizes=value)})

    for label, value, shown in [("nested-array", [[1, 2]], "[1,2]"), ("object-item", [{"a": 1}], '{"a":1}'), ("negative", [-3], "-3")]:
        add(f"message/json-sizes-{label}", ["list", "--scenarios", "{d}/scen"], BAD, sizes(value),
            check=stderr_has(shown, "100000000"), why="'got an array' without the value")

    def fanout(per):
        data = {"entities": {"Class": "size/5", "Student": "size"}, "relationships": {"Class.students": {"per": per}}}
        return folder({"q.json": s.query_with(data=data)})

    for label, per, shown in [("array", [5], "[5]"), ("object", {"x": 5}, '{"x":5}'), ("zipf-negative", {"zipf": -1}, '{"zipf":-1}'),
                              ("uniform-reversed", {"uniform": [4, 1]}, "[4,1]")]:
        add(f"message/json-fanout-{label}", ["list", "--scenarios", "{d}/scen"], BAD, fanout(per), check=stderr_has(shown))

    def step_option(key, value):
        scenario = json.loads(s.declared())
        scenario["phases"][0]["steps"][0][key] = value
        return folder({"p.json": json.dumps(scenario)})

    add("message/json-offset-1e18", ["list", "--scenarios", "{d}/scen"], BAD, step_option("offset", 1e18),
        check=stderr_has("1000000000000000000", "1000000000"), why="'got 1e+18' for a whole number over the limit")
    add("message/json-limit-array", ["list", "--scenarios", "{d}/scen"], BAD, step_option("limit", [3]), check=stderr_has("[3]"))
    add("message/model-missing-in-scenario", ["list", "--scenarios", "{d}/scen"], BAD,
        folder({"q.json": s.query_with(model="nope/M.xcdatamodeld")}), check=stderr_has("q.json", "model"),
        why="a missing model exited 1 and did not name the scenario file")
    add("message/model-missing-run", ["run", "--model", "{d}/nope.xcdatamodeld"] + s.FAST + ["--output", "{d}/out"], BAD)
    add("message/model-missing-explain", ["explain", "--model", "{d}/nope.xcdatamodeld"], BAD)
    add("message/predicate-100000-deep", ["list", "--scenarios", "{d}/scen"], BAD,
        folder({"p.json": s.declared("(" * 100_000 + "title == 'a'" + ")" * 100_000)}), check=stderr_shorter(2000),
        why="the message quoted the whole 200 KB predicate")
    add("message/predicate-regex-does-not-compile", ["list", "--scenarios", "{d}/scen"], BAD,
        folder({"p.json": s.declared("title MATCHES '[('")}), check=stderr_has("MATCHES"),
        why="MATCHES with a pattern ICU cannot compile matched nothing, silently")
    for value in ["0", "65537", "99999999999999999999"]:
        add(f"message/read-page-cache-mib-{value[:12]}", s.run_q("--read-page-cache-mib", value, "--output", "{d}/out"), BAD,
            check=stderr_has(f"'{value}'", "from 1 to"), why="the range named, and where its upper bound comes from")
    add("message/output-empty", s.run_q("--output", ""), BAD, check=stderr_has("--output", "empty"))
    add("message/tmpdir-missing", s.run_q("--output", "{d}/out"), BAD, env={"TMPDIR": "{d}/no-such-folder"},
        check=lambda x, r: ("TMPDIR's folder was created" if (x.d / "no-such-folder").exists() else None)
        or stderr_has("TMPDIR")(x, r), why="a TMPDIR naming a missing folder was created silently")

    def history_with(value):
        def setup(x):
            import shutil
            shutil.copy(x.w / "hist.sqlite", x.d / "h.sqlite")
            s.sqlite_file(x.d / "h.sqlite", f"UPDATE series SET median = {value} WHERE rowid IN "
                          "(SELECT max(rowid) FROM series WHERE scenario = 'query' AND metric = 'wall_ms');")
        return setup

    for label, value in [("infinite", "9e999"), ("negative-infinite", "-9e999")]:
        add(f"message/history-{label}-median", ["history", "query", "--history", "{d}/h.sqlite", "--metric", "wall_ms"], BAD,
            history_with(value), check=stdout_lacks("nan%"), why="history printed '-nan%' for a row with inf")
