"""The bad-input sweep's cases for issue 41 (reliability, round 4): a status that is the last byte written (item 3),
merges and compares of one kind of measurement (items 4, 5), no silent empties (item 6), model work linear in the
model (item 7, the scale probes), the binary's record (item 8), collisions and devices (item 9) and messages that say
what is wrong (item 10). scripts/bad_input_sweep.py adds them to its
table; `r4/` cases are quick (swift test runs most of them), `r4slow/` ones run valgrind or a large model.
"""

from __future__ import annotations

import datetime
import fcntl
import json
import os
import re
import shutil
import subprocess

# Folders held (flock) by this process while a case runs, as a live `bench run` holds its folder.
HELD: list = []


def add_cases(add, s) -> None:
    """Adds the cases through the sweep's `add`; `s` is the sweep module (its fixtures and helpers)."""
    BAD, CMP_OTHER = s.BAD, s.CMP_OTHER

    def stderr_has(*texts):
        def check(ctx, result):
            missing = [text for text in texts if text not in result.stderr]
            return f"stderr lacks {missing}" if missing else None
        return check

    def stdout_has(*texts):
        def check(ctx, result):
            missing = [text for text in texts if text not in result.stdout]
            return f"stdout lacks {missing}" if missing else None
        return check

    def info_edit(change, source="small2", name="run"):
        """A copy of a fixture run with its run.json changed by `change(info, folder)`."""
        def setup(x):
            folder = s.copy_run(x, name=name, source=source)
            path = folder / "run.json"
            info = json.loads(path.read_text())
            change(info, folder)
            path.write_text(json.dumps(info, indent=2))
        return setup

    def hold(folder):
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        HELD.append(descriptor)

    # --- 3. the status is the last byte written ------------------------------------------------------------------
    def concluded(relative):
        """A run folder marked complete has its conclusions (verdicts.json, its page) and every file it lists."""
        def check(ctx, result):
            out = ctx.d / relative
            try:
                info = json.loads((out / "run.json").read_text())
            except Exception:  # noqa: BLE001
                return None
            if info.get("status") != "complete":
                return None
            missing = [n for n in set(info.get("files") or []) | {"verdicts.json", "verdicts.md", "report.html"}
                       if not (out / n).exists()]
            return f"marked complete without {', '.join(sorted(missing))}" if missing else None
        return check

    for free in (0, 4, 8, 12, 16, 24, 32):
        add(f"r4/status-verdicts-on-a-full-disk-{free}k",
            [a for a in s.run_q("--repetitions=2", "--output", "{d}/full/out") if a != "--no-advice"], (0, 1, 64),
            (lambda f: lambda x: s.mount_full_tmpfs(x, "full", f * 1024))(free), check=concluded("full/out"),
            why="verdicts.json could not be written on a full disk, yet run.json said complete")
    add("r4/status-baseline-refuses-a-failed-conclusion", ["baseline", "save", "{d}/run", "--to", "{d}/b"], BAD,
        info_edit(lambda i, f: (i.update(status="failed", buildConfiguration="release"), (f / "verdicts.json").unlink(missing_ok=True))),
        check=stderr_has("is failed, not complete"), why="a run whose verdicts failed is not complete")
    add("r4/status-baseline-refuses-a-complete-folder-missing-a-listed-file", ["baseline", "save", "{d}/run", "--to", "{d}/b"],
        BAD, info_edit(lambda i, f: (i.update(buildConfiguration="release", files=(i.get("files") or []) + ["verdicts.json"]),
                                     (f / "verdicts.json").unlink(missing_ok=True))),
        check=stderr_has("lacks verdicts.json"))

    # --- 4. merges of one kind, by content --------------------------------------------------------------------------
    add("r4/merge-as-repetitions-a-cp-r-copy", ["merge", "{d}/out", "{w}/small", "{d}/copy", "--as-repetitions", "--no-advice"],
        BAD, lambda x: s.copy_run(x, name="copy", source="small"), check=stderr_has("copies of one run"),
        why="a cp -r copy doubled n with the same samples")
    add("r4/merge-shards-a-cp-r-copy", ["merge", "{d}/out", "{w}/small", "{d}/copy", "--no-advice"], BAD,
        lambda x: s.copy_run(x, name="copy", source="small"), check=stderr_has("copies of one run"))

    def without_identifiers(x):
        for name, identifier in (("a", None), ("b", "00000000-0000-0000-0000-000000000000")):
            path = s.copy_run(x, name=name, source="small") / "run.json"
            info = json.loads(path.read_text())
            info.pop("identifier", None)
            if identifier:
                info["identifier"] = identifier
            path.write_text(json.dumps(info))

    add("r4/merge-as-repetitions-a-copy-with-another-identifier", ["merge", "{d}/out", "{d}/a", "{d}/b", "--as-repetitions",
                                                                   "--no-advice"], BAD, without_identifiers,
        check=stderr_has("the same", "samples"), why="the samples themselves tell a copy, whatever run.json says")

    def other_size(info, folder):
        samples = folder / "samples.csv"
        lines = samples.read_text().split("\n")
        header = lines[0].split(",")
        size = header.index("size")
        rows = [header] + [line.split(",") for line in lines[1:] if line]
        for row in rows[1:]:
            row[size] = "20"
        samples.write_text("\n".join(",".join(row) for row in rows) + "\n")
        for schedule in (info.get("schedules") or {}).values():
            schedule["sizes"] = [20]

    add("r4/merge-as-repetitions-other-sizes", ["merge", "{d}/out", "{w}/small", "{d}/run", "--as-repetitions", "--no-advice"],
        BAD, info_edit(other_size), check=stderr_has("sizes"),
        why="runs of sizes 10 and 20 merged into a run.json claiming 2 repetitions at one size")
    add("r4/merge-timed-and-instructions", ["merge", "{d}/out", "{w}/small", "{d}/run", "--no-advice"], BAD,
        info_edit(lambda i, f: i.update(measurement="instructions (callgrind)")), check=stderr_has("different measurements"),
        why="refused only because the commits differed")
    add("r4/merge-timed-and-instructions-as-repetitions", ["merge", "{d}/out", "{w}/small", "{d}/run", "--as-repetitions",
                                                           "--no-advice"], BAD,
        info_edit(lambda i, f: i.update(measurement="instructions (callgrind)")), check=stderr_has("different measurements"))

    # --- 5. compares of one kind; unfinished runs said ----------------------------------------------------------------
    add("r4/compare-timed-against-instructions-allow-missing", ["compare", "{w}/small", "{d}/run", "--allow-missing"], CMP_OTHER,
        info_edit(lambda i, f: i.update(measurement="instructions (callgrind)")), check=stderr_has("different measurements"),
        why="exited 2 with cpu_user_ms +10,614%: valgrind's overhead read as a regression")
    add("r4/compare-nothing-in-common-allow-missing", ["compare", "{w}/base", "{w}/small", "--allow-missing"], (3,),
        check=stderr_has("no series in common"), why="--allow-missing with no series in common exited 0")
    add("r4/compare-nothing-in-common", ["compare", "{w}/base", "{w}/small"], (3,), check=stderr_has("no series in common"))
    add("r4/compare-an-interrupted-run-is-said", ["compare", "{w}/small", "{d}/run", "--counters-only"], (0,),
        info_edit(lambda i, f: i.update(status="interrupted")), check=stdout_has("is interrupted"))
    add("r4/compare-a-running-run-is-said", ["compare", "{w}/small", "{d}/run", "--counters-only"], (0,),
        lambda x: (info_edit(lambda i, f: i.update(status="running"))(x), hold(x.d / "run")), check=stdout_has("still running"),
        why="a folder a live process writes")
    add("r4/verdicts-an-interrupted-run-is-said", ["verdicts", "{d}/run"], (0,),
        info_edit(lambda i, f: i.update(status="interrupted")), check=stderr_has("is interrupted"))
    add("r4/verdicts-a-running-run-is-said", ["verdicts", "{d}/run"], (0,),
        lambda x: (info_edit(lambda i, f: i.update(status="running"))(x), hold(x.d / "run")), check=stderr_has("still running"))

    # --- 6. no silent empties -------------------------------------------------------------------------------------------
    def empty_when(x):
        scenario = json.loads(json.dumps(s.QUERY))
        scenario["phases"][0]["steps"][1]["when"] = {"prefetch": []}
        s.scenario_folder(x, {"q.json": json.dumps(scenario)})

    add("r4/empty-when-list", ["list", "--scenarios", "{d}/scen"], BAD, empty_when,
        check=stderr_has("empty list of values", "off, on"), why="'when': {\"prefetch\": []} dropped the step in every variant")
    add("r4/empty-budget-array", ["budget", "{w}/small", "--budgets", "{d}/b.json"], BAD, lambda x: x.write("b.json", "[]\n"),
        check=stderr_has("holds no budgets"), why="an empty budget file passed, checking nothing")
    add("r4/empty-budget-array-in-compare", ["compare", "{w}/small", "{w}/small", "--counters-only", "--budgets", "{d}/b.json"],
        CMP_OTHER, lambda x: x.write("b.json", " [ ]"), check=stderr_has("holds no budgets"))
    shard = ["run", "query", "faulting", "--shard", "3/3", "--sizes", "10", "--profile", "smoke", "--repetitions", "1",
             "--warmup", "0", "--allow-debug", "--quiet", "--no-history", "--no-advice", "--output", "{d}/out"]
    add("r4/empty-shard", shard, BAD, check=stderr_has("--shard 3/3 is empty", "--shard K/2"),
        why="said 'none of the chosen scenarios runs that choice of strategies and variants together'")
    add("r4/empty-shard-with-strategies", shard + ["--strategies", "objectgraph"], BAD, check=stderr_has("--shard 3/3 is empty"))
    add("r4/empty-shard-control", [a if a != "3/3" else "2/2" for a in shard], (0,), allow=("out",),
        why="control: a shard that holds a scenario runs")

    # --- 10. messages that say what is wrong ----------------------------------------------------------------------------
    def stderr_lacks(*texts):
        def check(ctx, result):
            found = [text for text in texts if text in result.stderr]
            return f"stderr has {found}" if found else None
        return check

    add("r4/message-output-a-dangling-link", s.run_q("--output", "{d}/link"), BAD,
        lambda x: os.symlink(x.d / "nowhere" / "run", x.d / "link"), check=stderr_has("symbolic link to", "does not exist"),
        why="a dangling symlink given to --output was 'a file'")
    add("r4/message-merge-names-its-own-argument", ["merge", "{d}/out", "{w}/small", "--no-advice"], BAD,
        lambda x: x.write("out/notes.txt", "mine\n"), check=lambda c, r: stderr_lacks("--output")(c, r)
        or stderr_has("merge's first argument")(c, r), why="merge's message named --output, an option merge lacks")

    def budget(text):
        return lambda x: x.write("b.json", text)

    add("r4/message-budget-maximum-1e400", ["budget", "{w}/small", "--budgets", "{d}/b.json"], BAD,
        budget('[{"scenario": "query", "phase": "fetch-all", "maximum": 1e400}]'), check=stderr_has("1e400 is out of range"),
        why="was 'not a JSON array'")
    add("r4/message-budget-size-as-text", ["budget", "{w}/small", "--budgets", "{d}/b.json"], BAD,
        budget('[{"scenario": "query", "phase": "fetch-all", "size": "100", "maximum": 3}]'),
        check=stderr_has('the text "100"', "without quotes"), why="was 'got 100'")
    add("r4/message-budget-for-a-strategy-the-run-lacks", ["budget", "{w}/small", "--budgets", "{d}/b.json"], (6,),
        budget('[{"scenario": "query", "phase": "fetch-all", "strategy": "grdb", "maximum": 3}]'),
        check=stdout_has("did not measure the strategy grdb (it ran objectgraph, raw-sqlite)"),
        why="'matches no series' did not name the strategy")
    add("r4/message-budget-for-a-phase-the-run-lacks", ["budget", "{w}/small", "--budgets", "{d}/b.json"], (6,),
        budget('[{"scenario": "query", "phase": "fetch-al", "maximum": 3}]'), check=stdout_has("has no phase 'fetch-al'", "its phases:"))
    add("r4/message-sizes-over-the-range", s.run_q("--sizes", "2000000000", "--output", "{d}/out"), BAD,
        check=stderr_has("from 1 to 100000000"), why="was 'not a positive integer', the range unstated")
    add("r4/message-seed-negative", s.run_q("--seed", "-1", "--output", "{d}/out"), BAD,
        check=stderr_has("--seed: '-1' is not a whole number from 0 to 18446744073709551615"), why="had no range")
    add("r4/message-seed-too-large", s.run_q("--seed", "18446744073709551616", "--output", "{d}/out"), BAD,
        check=stderr_has("from 0 to 18446744073709551615"))
    add("r4/message-seed-control", s.run_q("--seed", "18446744073709551615", "--output", "{d}/out"), (0,), allow=("out",),
        why="control: the largest seed runs")

    def unrelated(x):
        x.write("old/contents", s.model_xml('<entity name="Invoice" syncable="YES"><attribute name="total" optional="YES" '
                                            'attributeType="Double"/></entity>'))
        x.write("new/contents", s.model_xml('<entity name="Song" syncable="YES"><attribute name="title" optional="YES" '
                                            'attributeType="String"/></entity>'))

    add("r4/message-lint-against-an-unrelated-model", ["lint", "{d}/new/contents", "--against", "{d}/old/contents"], (1,),
        unrelated, check=stdout_has("they look like two unrelated models"),
        why="listed removals without saying the models are unrelated")
    add("r4/message-report-into-a-live-run", ["report", "{d}/run"], BAD,
        lambda x: (info_edit(lambda i, f: i.update(status="running"))(x), hold(x.d / "run")),
        check=stderr_has("still being written"), why="bench report wrote into a folder a live run holds")

    def killed(info, folder):
        info.update(status="running", files=["samples.csv"])
        for name in os.listdir(folder):
            if name not in ("run.json", "samples.csv"):
                os.remove(folder / name)

    add("r4/message-verdicts-on-a-killed-run", ["verdicts", "{d}/run"], (0,), info_edit(killed),
        check=stderr_has("is interrupted"), why="said 'give a run folder written by 'bench run'' of a run SIGKILL stopped")

    def commented_model(x):
        comment = "<!-- " + "x" * (63 * 1024 * 1024) + " -->\n"
        x.write("Big.xcdatamodel/contents", s.model_xml(
            '<entity name="A" representedClassName="A" syncable="YES"><attribute name="n" optional="YES" '
            'attributeType="String"/></entity>\n' + comment))

    add("r4slow/message-model-with-a-63MiB-comment", ["schema", "{d}/Big.xcdatamodel"], (0,), commented_model, timeout=120,
        check=stdout_has("CREATE TABLE ZA"), why="a valid model with a large comment was 'not well-formed XML at line 4'")

    # --- 7. model work linear in the model (scale probes) -------------------------------------------------------------
    def chain(depth):
        def setup(x):
            entities = []
            for level in range(depth):
                parent = f' parentEntity="E{level - 1}"' if level else ""
                entities.append(f'<entity name="E{level}" representedClassName="E{level}"{parent} syncable="YES">'
                                f'<attribute name="a{level}" optional="YES" attributeType="String"/></entity>')
            x.write("C.xcdatamodel/contents", s.model_xml(*entities))
        return setup

    for command in ("schema", "lint"):
        add(f"r4/scale-{command}-inheritance-chain-2000", [command, "{d}/C.xcdatamodel"], (0, 1), chain(2000), timeout=30,
            why="O(d³): depth 800 took 10 s and 862 MB, depth 2,000 over 60 s")
    add("r4slow/scale-explain-model-of-250-entities", ["explain", "--model", "{d}/R.xcdatamodeld"], (0,),
        lambda x: subprocess.run(["python3", str(s.REPO / "scripts" / "dev" / "generate_model.py"), str(x.d / "R.xcdatamodeld"), "250"],
                                 check=True, capture_output=True), timeout=120, why="×2.7 then ×3.4 per doubling of the entities")

    # --- 8. the record ---------------------------------------------------------------------------------------------
    def knows_commit(ctx, result):
        line = result.stdout.strip()
        return None if re.match(r"^[0-9a-f]{40}(-dirty)? \((debug|release) build", line) else f"--version says '{line}'"

    add("r4/version-knows-its-commit", ["--version"], (0,), check=knows_commit,
        why="the commit came from whatever checkout held the binary at run time")

    def instructions_record(ctx, result):
        try:
            info = json.loads((ctx.d / "out" / "run.json").read_text())
        except Exception as error:  # noqa: BLE001
            return f"no run.json ({error.__class__.__name__})"
        vgdb = [n for n in os.listdir(ctx.d / "tmp") if n.startswith("vgdb-pipe")]
        problems = []
        if info.get("gitCommit", "unknown") == "unknown" or info.get("binaryCommit", "unknown") == "unknown":
            problems.append(f"commit {info.get('gitCommit')}")
        if vgdb:
            problems.append(f"{len(vgdb)} vgdb-pipe file(s) left")
        if "--instructions" not in (info.get("commandLine") or []):
            problems.append("run.json's command line is not the one given")
        return "; ".join(problems) or None

    def needs_valgrind(x):
        if shutil.which("valgrind") is None:
            raise s.Skip("valgrind is not installed")
        (x.d / "tmp").mkdir()

    add("r4slow/instructions-run-records-its-commit", s.run_q("--instructions", "--output", "{d}/out"), (0,), needs_valgrind,
        allow=("out",), env={"TMPDIR": "{d}/tmp"}, scratch=("tmp",), check=instructions_record, timeout=600,
        why="every --instructions run recorded 'unknown'; each one killed left three vgdb-pipe-* files")

    # --- 9. collisions and devices ----------------------------------------------------------------------------------
    def taken_seconds(x):
        # The folders of the next 20 seconds are taken (another run made them first): the run takes the next free name.
        runs = x.d / "Results" / "runs"
        runs.mkdir(parents=True)
        now = datetime.datetime.now(datetime.timezone.utc)
        for second in range(-1, 20):
            (runs / (now + datetime.timedelta(seconds=second)).strftime("%Y%m%dT%H%M%SZ")).mkdir()

    def took_next_name(ctx, result):
        runs = ctx.d / "Results" / "runs"
        made = [n for n in os.listdir(runs) if "-" in n]
        taken = [n for n in os.listdir(runs) if "-" not in n and os.listdir(runs / n)]
        if taken:
            return f"wrote into a folder another run made: {taken}"
        if len(made) != 1:
            return f"made {made}"
        return s.valid_run_folder(runs / made[0])

    add("r4/run-started-in-the-same-second-as-another", s.run_q("--scenarios", "{w}/Scenarios"), (0,), taken_seconds,
        cwd="{d}", scratch=("Results",), check=took_next_name,
        why="two runs started in the same second without --output collided (one refused)")

    def no_journal(x):
        if os.path.exists("/dev/null-journal"):
            os.remove("/dev/null-journal")

    def journal_left(ctx, result):
        return "left /dev/null-journal" if os.path.exists("/dev/null-journal") else None

    with_history = [a for a in s.run_q("--history", "/dev/null", "--output", "{d}/out") if a != "--no-history"]
    add("r4/history-dev-null", with_history, BAD, no_journal, check=journal_left,
        why="'disk I/O error' after creating /dev/null-journal (as root)")
    add("r4/history-a-named-pipe", [a if a != "/dev/null" else "{d}/h.sqlite" for a in with_history], BAD,
        lambda x: os.mkfifo(x.d / "h.sqlite"), check=stderr_has("named pipe"))
    add("r4/history-command-dev-null", ["history", "query", "--metric", "wall_ms", "--history", "/dev/null"], BAD,
        no_journal, check=journal_left)
