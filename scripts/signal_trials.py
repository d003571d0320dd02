#!/usr/bin/env python3
"""Signal trials: stop a small `bench run` with SIGTERM, SIGINT or SIGKILL at random moments and count what it left.

    python3 scripts/signal_trials.py [--bench PATH] [--sigterm 50] [--sigint 20] [--sigkill 20] [--valgrind-kills 5]
                                     [--instructions-sigint 3] [--seed 1] [--verbose]

Every trial runs in a fresh folder with a TMPDIR of its own, so that what the run leaves in the system's temporary
folder is counted exactly. After each trial it records:

- the exit code (143 for SIGTERM, 130 for SIGINT; "signal N" when the process died of the signal before its handler
  was installed, which a shell reports with the same number; 0 when the run finished first);
- the status in run.json, as on disk and as bench reads it back (`bench baseline save`, which names it);
- half-files in the run folder: Foundation's `.dat.nosync*` and bench's own `.<name>.relbench-<pid>-<n>`;
- whether a folder marked finished holds its summary.csv, and whether one marked complete holds every file its run.json
  lists (`files`) and its verdicts.json (the status is the last byte a run writes);
- `relbench-*` temporary folders left by the process, Foundation's `TemporaryDirectory.*`, and valgrind's
  `vgdb-pipe-*` files (an `--instructions` run's valgrind runs with --vgdb=no and leaves none);
- after SIGKILL: whether the next run removed the killed process's temporary folders, and whether a valgrind child of
  a killed `--instructions` run was still running 3 s later.

Prints one line per trial and a table of outcome counts per signal; exits 1 when an outcome the README rules out
occurred (a status "running" or "failed" after SIGTERM/SIGINT, a half-file after SIGTERM/SIGINT, a folder marked
finished without summary.csv, one marked complete without a file it lists, a temporary folder or vgdb pipe left, an orphan
valgrind, a wrong exit code).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUN = ["run", "query", "--strategies", "objectgraph,raw-sqlite", "--variant", "modelling=many-to-one", "--sizes",
       "500,1000", "--profile", "smoke", "--repetitions", "10", "--warmup", "1", "--no-history", "--quiet", "--allow-debug"]
INSTRUCTIONS = ["run", "query", "--strategies", "objectgraph", "--variant", "modelling=many-to-one", "--sizes", "10",
                "--profile", "smoke", "--repetitions", "6", "--no-history", "--quiet", "--no-advice", "--allow-debug",
                "--instructions"]
HALF_FILE = re.compile(r"^(\.dat\.nosync.*|\..+\.relbench-\d+-\d+)$")


def env_for(tmp: Path) -> dict:
    return dict(os.environ, TMPDIR=str(tmp))


def start(bench: str, argv: list, folder: Path, tmp: Path) -> subprocess.Popen:
    return subprocess.Popen([bench] + argv + ["--scenarios", str(REPO / "Scenarios"), "--output", str(folder / "out")],
                            cwd=folder, env=env_for(tmp), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


def status_on_disk(out: Path) -> str:
    try:
        return json.loads((out / "run.json").read_text()).get("status", "?")
    except FileNotFoundError:
        return "no folder" if not out.exists() else "no run.json"
    except Exception:  # noqa: BLE001
        return "unreadable run.json"


def status_read_back(bench: str, out: Path, tmp: Path) -> str:
    """The status bench reports for the folder: `baseline save` names it when it is not complete."""
    if not (out / "run.json").exists():
        return "-"
    target = out.parent / "baseline-probe"
    done = subprocess.run([bench, "baseline", "save", str(out), "--to", str(target)], capture_output=True, text=True,
                          env=env_for(tmp), timeout=60)
    shutil.rmtree(target, ignore_errors=True)
    if done.returncode == 0:
        return "complete"
    match = re.search(r" is (\w+), not complete", done.stderr)
    return match.group(1) if match else "refused: " + done.stderr.strip()[:60]


def leftovers(tmp: Path, pid: int) -> tuple:
    names = os.listdir(tmp)
    ours = [n for n in names if n.startswith("relbench-") and f"-{pid}-" in n]
    foundation = [n for n in names if n.startswith("TemporaryDirectory.")]
    return ours, foundation


def vgdb_files(tmp: Path) -> list:
    """valgrind's gdbserver pipes (`vgdb-pipe-from-vgdb-to-PID-...`, `-to-vgdb-from-`, `-shared-mem-`)."""
    return sorted(n for n in os.listdir(tmp) if n.startswith("vgdb-pipe"))


def incomplete_complete(out: Path) -> list:
    """The files a folder marked complete lacks: those its run.json lists, and verdicts.json (a run concludes with it)."""
    try:
        info = json.loads((out / "run.json").read_text())
    except Exception:  # noqa: BLE001
        return []
    if info.get("status") != "complete":
        return []
    listed = info.get("files") or []
    return sorted(name for name in set(listed) | {"verdicts.json"} if not (out / name).exists())


def valgrind_children(parent: int) -> list:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"RELBENCH_CALLGRIND_PARENT={parent}".encode() in environ:
            found.append(int(entry))
    return found


def calibrate(bench: str, root: Path) -> float:
    folder = root / "calibrate"
    folder.mkdir()
    tmp = folder / "tmp"
    tmp.mkdir()
    started = time.monotonic()
    process = start(bench, RUN, folder, tmp)
    _, err = process.communicate(timeout=600)
    if process.returncode != 0:
        sys.exit(f"signal_trials: the calibration run failed (exit {process.returncode}): {err.decode()[-500:]}")
    return time.monotonic() - started


def trial(bench: str, root: Path, index: int, number: int, argv: list, delay: float, rng: random.Random) -> dict:
    folder = root / f"{index:03d}-{signal.Signals(number).name}"
    folder.mkdir()
    tmp = folder / "tmp"
    tmp.mkdir()
    out = folder / "out"
    process = start(bench, argv, folder, tmp)
    time.sleep(delay)
    children = valgrind_children(process.pid) if "--instructions" in argv else []
    process.send_signal(number)
    _, err = process.communicate(timeout=600)
    rc = process.returncode
    result = {"signal": signal.Signals(number).name, "delay": round(delay, 2), "pid": process.pid,
              "exit": f"signal {-rc}" if rc < 0 else str(rc), "instructions": "--instructions" in argv,
              "stderr": err.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]}
    result["status"] = status_on_disk(out)
    result["read back"] = status_read_back(bench, out, tmp)
    result["half-files"] = sorted(n for n in (os.listdir(out) if out.is_dir() else []) if HALF_FILE.match(n))
    result["no summary"] = (result["status"] in ("complete", "interrupted", "failed")
                            and not (out / "summary.csv").exists())
    result["complete without"] = incomplete_complete(out)
    ours, foundation = leftovers(tmp, process.pid)
    result["vgdb files"] = vgdb_files(tmp)
    result["temp left"] = len(ours)
    result["temp names"] = ours
    result["TemporaryDirectory"] = len(foundation)
    if number == signal.SIGKILL:
        if result["instructions"]:
            time.sleep(3)
            result["orphan valgrind"] = len(valgrind_children(process.pid))
            result["valgrind seen"] = len(children)
            for pid in valgrind_children(process.pid):
                os.kill(pid, signal.SIGKILL)
        # The next run removes what the killed one left in the temporary folder.
        after = folder / "next"
        after.mkdir()
        subprocess.run([bench, "run", "query", "--strategies", "objectgraph", "--variant", "modelling=many-to-one",
                        "--sizes", "10", "--profile", "smoke", "--repetitions", "1", "--warmup", "0", "--no-history",
                        "--quiet", "--no-advice", "--allow-debug", "--scenarios", str(REPO / "Scenarios"), "--output",
                        str(after / "out")], cwd=after, env=env_for(tmp), capture_output=True, timeout=300)
        result["temp left after next run"] = len(leftovers(tmp, process.pid)[0])
    return result


def problems(result: dict) -> list:
    found = []
    name = result["signal"]
    if name in ("SIGTERM", "SIGINT"):
        expected = {"SIGTERM": ("143", "signal 15", "0"), "SIGINT": ("130", "signal 2", "0")}[name]
        if result["exit"] not in expected:
            found.append(f"exit {result['exit']}")
        if result["status"] in ("running", "failed"):
            found.append(f"status {result['status']}")
        if result["half-files"]:
            found.append("half-files " + ", ".join(result["half-files"]))
        if result["temp left"]:
            found.append(f"{result['temp left']} temporary folder(s) left ({', '.join(result['temp names'])})")
    else:
        if result["read back"] == "running":
            found.append("read back as running")
        if result.get("temp left after next run"):
            found.append(f"{result['temp left after next run']} temporary folder(s) left after the next run")
        if result.get("orphan valgrind"):
            found.append("valgrind still running")
    if result["no summary"]:
        found.append(f"marked {result['status']} without summary.csv")
    if result["complete without"]:
        found.append("marked complete without " + ", ".join(result["complete without"]))
    if result["vgdb files"]:
        found.append(f"{len(result['vgdb files'])} vgdb-pipe file(s) left")
    if result["TemporaryDirectory"]:
        found.append(f"{result['TemporaryDirectory']} TemporaryDirectory.* left")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", default=str(REPO / ".build" / "release" / "bench"))
    parser.add_argument("--sigterm", type=int, default=50)
    parser.add_argument("--sigint", type=int, default=20)
    parser.add_argument("--sigkill", type=int, default=20, help="SIGKILL trials of timed runs")
    parser.add_argument("--valgrind-kills", type=int, default=5, help="SIGKILL trials of --instructions runs")
    parser.add_argument("--instructions-sigint", type=int, default=3, help="Ctrl-C trials of --instructions runs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    root = Path(tempfile.mkdtemp(prefix="bench-signal-trials-"))
    try:
        duration = calibrate(args.bench, root)
        print(f"bench: {args.bench}\na whole run takes {duration:.2f} s; signals land uniformly in [0, {duration * 1.1:.2f}] s")
        plan = ([(signal.SIGTERM, RUN)] * args.sigterm + [(signal.SIGINT, RUN)] * args.sigint
                + [(signal.SIGKILL, RUN)] * args.sigkill + [(signal.SIGKILL, INSTRUCTIONS)] * args.valgrind_kills
                + [(signal.SIGINT, INSTRUCTIONS)] * args.instructions_sigint)
        rng.shuffle(plan)
        results = []
        for index, (number, argv) in enumerate(plan):
            instructions = "--instructions" in argv
            delay = rng.uniform(2.0, 16.0) if instructions else rng.uniform(0, duration * 1.1)
            result = trial(args.bench, root, index, number, argv, delay, rng)
            result["problems"] = problems(result)
            results.append(result)
            print(f"{index:3d} {result['signal']:7} {'instr ' if instructions else ''}at {result['delay']:5.2f}s  exit "
                  f"{result['exit']:9}  status {result['status']:11} read back {result['read back']:11}"
                  + (f"  PROBLEM: {'; '.join(result['problems'])}" if result["problems"] else "")
                  + (f"\n      stderr: {result['stderr'][0]}" if args.verbose else ""), flush=True)
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)

    print("\noutcome counts")
    groups = collections.OrderedDict()
    for result in results:
        key = result["signal"] + (" --instructions" if result["instructions"] else "")
        groups.setdefault(key, []).append(result)
    for key, group in groups.items():
        print(f"\n{key}: {len(group)} trials")
        for field in ("exit", "status", "read back"):
            counts = collections.Counter(r[field] for r in group)
            print(f"  {field:28} " + ", ".join(f"{value} x{count}" for value, count in counts.most_common()))
        print(f"  {'half-files':28} {sum(1 for r in group if r['half-files'])} trial(s)")
        print(f"  {'finished without summary':28} {sum(1 for r in group if r['no summary'])} trial(s)")
        print(f"  {'complete without its files':28} {sum(1 for r in group if r['complete without'])} trial(s)")
        print(f"  {'vgdb-pipe-* files left':28} {sum(len(r['vgdb files']) for r in group)}")
        print(f"  {'relbench-* temp left':28} {sum(1 for r in group if r['temp left'])} trial(s)")
        if any("temp left after next run" in r for r in group):
            print(f"  {'... after the next run':28} {sum(1 for r in group if r.get('temp left after next run'))} trial(s)")
        print(f"  {'TemporaryDirectory.* left':28} {sum(r['TemporaryDirectory'] for r in group)}")
        if any("orphan valgrind" in r for r in group):
            print(f"  {'valgrind running at kill':28} {sum(1 for r in group if r.get('valgrind seen'))} trial(s)")
            print(f"  {'orphan valgrind 3 s later':28} {sum(1 for r in group if r.get('orphan valgrind'))} trial(s)")
    bad = [r for r in results if r["problems"]]
    print(f"\n{len(results)} trials, {len(bad)} with a problem")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
