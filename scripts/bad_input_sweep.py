#!/usr/bin/env python3
"""Bad-input sweep: run `bench` over bad inputs to every command and check the project's rule for each.

    python3 scripts/bad_input_sweep.py [--bench PATH] [--only TEXT] [--keep] [--timeout S] [--strict-multiline]

The rule (README, BenchCommand.swift): bad input gets ONE clear line on standard error and a non-zero exit code
(64 for bad input; `bench compare` 0/2/4/5 and 1 for every other error; `bench lint` 0/1/64; `bench advise` and
`bench log` with --fail-on or --baseline 1 on a new finding), never a backtrace or a signal, and never a half-written report.

Every case runs in a fresh temporary working folder (a copy of Scenarios/ and Results/baseline/, never the
repository's Results/), with a timeout and an address-space limit, and is checked for:

- the exit code being one of the expected ones;
- no crash: no "Backtracing", "Fatal error", "Program crashed" or "Stack dump" on stderr, no exit code >= 128
  and no signal;
- stderr being exactly one non-empty line (a command expected to succeed may print at most one warning line).
  When ArgumentParser's own usage error ("Error: ..." then a usage block) is the only problem, the case is
  MULTI rather than FAIL (flagged separately; --strict-multiline makes it a failure);
- nothing half-written: the working folder is snapshotted before and after each case; after a failure, every
  file or folder that appeared or changed must be a whole run folder marked failed/interrupted or an output the
  case allows (a complete JSON or Markdown file), else the case fails with "leftover".

Prints one line per case (PASS/FAIL/MULTI/SKIP, name, exit code, argv, stderr's first line), the failures in
full at the end, and a summary. Exits 0 only if no case FAILed.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import resource
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

REPO = Path(__file__).resolve().parent.parent
CRASH_MARKERS = ("Backtracing", "Fatal error", "Program crashed", "Stack dump")
SAMPLES_HEADER = "scenario,strategy,variant,size,repetition,phase,metric,value,unit"
SUMMARY_HEADER = ("scenario,strategy,variant,size,phase,metric,unit,n,median,mean,stddev,min,max,p90,ci_low,ci_high,"
                  "ratio_to_floor,floor")

# Codes: BAD is the project's code for bad input; compare has its own.
BAD = (64,)
CMP_BASELINE = (5,)   # compare: baseline missing or unreadable
CMP_OTHER = (1,)      # compare: any other error (after the arguments parsed)
CMP_ARGS = (64,)      # compare: a bad argument, as for every command
WRITE = (1, 64)       # an output file that cannot be written: 1 (as compare documents) or 64


# ----------------------------------------------------------------------------------------------------------------
# Case table machinery


class Skip(Exception):
    """Raised by a setup that cannot prepare its case on this machine (e.g. no tmpfs mount)."""


@dataclass
class Ctx:
    """What a setup or check sees: the shared working folder and the case's own folder (both absolute)."""
    w: Path
    d: Path
    mounts: list

    def write(self, relative: str, content, mode: Optional[int] = None) -> Path:
        path = self.d / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
        if mode is not None:
            path.chmod(mode)
        return path


@dataclass
class Case:
    name: str
    argv: list            # arguments after the binary; "{d}" is the case folder, "{w}" the working folder
    expect: tuple         # acceptable exit codes
    setup: Optional[Callable[[Ctx], None]] = None
    # Outputs that may legitimately be left even when the command fails (relative to the case folder); each is
    # validated (JSON parses, Markdown non-empty) rather than refused.
    allow: tuple = ()
    # An extra check after the run: returns a problem (str) or None.
    check: Optional[Callable[[Ctx, "Result"], Optional[str]]] = None
    timeout: Optional[float] = None
    why: str = ""         # what the case probes, for the report
    path: Optional[str] = None  # PATH for the command (e.g. one without valgrind); None keeps the sweep's own
    env: Optional[dict] = None  # variables added to the command's environment; "{d}" is the case folder
    scratch: tuple = ()   # top-level entries of the case folder whose changes are the case's own business (a TMPDIR)
    cwd: Optional[str] = None  # the command's working folder ("{d}" the case folder); None: the shared working folder


@dataclass
class Result:
    rc: Optional[int]
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False


def sh_quote(arg: str) -> str:
    if arg and all(c.isalnum() or c in "-_./=:,@%+" for c in arg):
        return arg
    shown = arg if len(arg) <= 60 else arg[:40] + f"...<{len(arg)} chars>"
    return "'" + shown.replace("'", "'\\''") + "'"


# ----------------------------------------------------------------------------------------------------------------
# Fixtures and helpers for setups


def copy_run(ctx: Ctx, name: str = "run", source: str = "base") -> Path:
    """A copy of a fixture run folder in the case folder."""
    target = ctx.d / name
    shutil.copytree(ctx.w / source, target)
    return target


def edit(path: Path, transform: Callable[[str], str]) -> None:
    path.write_text(transform(path.read_text()))


def replace_column(text: str, column: str, value: str, rows: Optional[int] = None) -> str:
    """Sets `column` to `value` on the first `rows` data rows (all when None) of a CSV text."""
    reader = list(csv.reader(io.StringIO(text)))
    header = reader[0]
    index = header.index(column)
    for number, row in enumerate(reader[1:]):
        if rows is None or number < rows:
            row[index] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(reader)
    return out.getvalue()


def truncate_mid_line(path: Path) -> None:
    data = path.read_bytes()
    cut = len(data) // 2
    while data[cut:cut + 1] in (b",", b"\n"):
        cut += 1
    # Never ending on a line break: a cut 3 bytes on can end a short row whole (a timing of "12\n"), which is no tear.
    path.write_bytes(data[:cut + 3].rstrip(b"\n"))


def mount_full_tmpfs(ctx: Ctx, relative: str, free_bytes: int) -> Path:
    """A 64 KiB tmpfs at the case folder's `relative`, filled so that about `free_bytes` stay free; Skip if the
    machine does not allow mounting (no root)."""
    target = ctx.d / relative
    target.mkdir(parents=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(target)], capture_output=True, text=True)
    if done.returncode != 0:
        raise Skip("cannot mount a tmpfs here (" + (done.stderr.strip() or f"exit {done.returncode}") + ")")
    ctx.mounts.append(target)
    target.chmod(0o777)
    filler = target / ".filler"
    try:
        with open(filler, "wb") as handle:
            handle.write(b"\0" * max(0, 64 * 1024 - free_bytes))
    except OSError:
        pass
    return target


def scenario_folder(ctx: Ctx, files: dict, name: str = "scen") -> Path:
    """A --scenarios folder holding `files` (name -> bytes or str)."""
    folder = ctx.d / name
    folder.mkdir()
    for file, content in files.items():
        path = folder / file
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
    return folder


def sqlite_file(path: Path, script: str) -> None:
    connection = sqlite3.connect(path)
    connection.executescript(script)
    connection.commit()
    connection.close()


def shop_schema(drop: str = "", rows: bool = False) -> str:
    """The Shop fixture's store tables in Core Data's layout (as `bench schema` prints them), one column dropped."""
    tables = [
        "CREATE TABLE ZACCOUNT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLOYALTYPOINTS INTEGER, ZORDERCOUNT INTEGER, ZADDRESS INTEGER, ZCREATEDAT TIMESTAMP, ZEMAIL VARCHAR, ZNAME VARCHAR, ZBADGE VARCHAR, ZROLE VARCHAR )",
        "CREATE TABLE ZADDRESS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCUSTOMER INTEGER, ZCITY VARCHAR, ZSTREET VARCHAR )",
        "CREATE TABLE ZDELIVERY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHIPPEDAT TIMESTAMP, ZTRACKINGCODE VARCHAR )",
        "CREATE TABLE ZORDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZORDERID INTEGER, ZACCOUNT INTEGER, Z1_ACCOUNT INTEGER, ZPLACEDAT TIMESTAMP, ZTOTAL DECIMAL, ZNOTE VARCHAR )",
        "CREATE TABLE ZORDERLINE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZQUANTITY INTEGER, ZORDER INTEGER, ZPRODUCT INTEGER, Z_FOK_ORDER INTEGER, ZPRICE DECIMAL )",
        "CREATE TABLE ZPRODUCT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPRICE DECIMAL, ZSKU VARCHAR, ZTITLE VARCHAR )",
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
    ]
    entities = [(1, "Account", 0), (2, "Customer", 1), (3, "Staff", 1), (4, "Address", 0), (5, "Delivery", 0),
                (6, "Order", 0), (7, "OrderLine", 0), (8, "Product", 0)]
    script = ";\n".join(tables).replace(drop, "") + ";\n"
    script += "".join(f"INSERT INTO Z_PRIMARYKEY VALUES ({n}, '{name}', {parent}, 0);\n" for n, name, parent in entities)
    if rows:
        script += "".join(f"INSERT INTO ZACCOUNT (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES ({i}, 2, 1, 'c{i}');\n" for i in range(1, 200))
    return script


# A valid scenario over the School model (a walk like query's), to corrupt field by field.
QUERY = {
    "name": "q", "description": "d", "model": str(REPO / "Scenarios" / "models" / "School.xcdatamodeld"),
    "strategies": ["objectgraph", "sql-replay"],
    "data": {"entities": {"Class": "size/5", "Student": "size"}, "relationships": {"Class.students": {"per": 5}}},
    "variants": [{"name": "prefetch", "values": ["off", "on"]}],
    "phases": [{"name": "walk", "steps": [
        {"fetch": "Class", "faults": False, "prefetch": {"variant": "prefetch", "off": [], "on": ["students"]}},
        {"read": ["students.name"]}]}],
    "sizes": [10], "repetitions": 1, "warmup": 0,
}


def query_with(**changes) -> str:
    scenario = dict(QUERY)
    scenario.update(changes)
    return json.dumps(scenario)


# A valid declared scenario with an inline model; PRED is replaced by the predicate under test.
def declared(predicate: Optional[str] = None, attributes: Optional[dict] = None, sizes=(10,)) -> str:
    step = {"fetch": "Book", "faults": False}
    if predicate is not None:
        step["predicate"] = predicate
    data = {"entities": {"Author": "size", "Book": "2*size"}, "relationships": {"Book.author": {}}}
    if attributes:
        data["attributes"] = attributes
    return json.dumps({
        "name": "p", "description": "d",
        "model": {"entities": [
            {"name": "Author", "attributes": [{"name": "name", "type": "String"}],
             "relationships": [{"name": "books", "destination": "Book", "toMany": True, "inverse": "author"}]},
            {"name": "Book", "attributes": [{"name": "title", "type": "String", "optional": True},
                                            {"name": "pages", "type": "Integer 64", "optional": True},
                                            {"name": "rating", "type": "Double", "optional": True}],
             "relationships": [{"name": "author", "destination": "Author", "inverse": "books", "maxCount": 1}]},
        ]},
        "data": data,
        "phases": [{"name": "f", "store": "prepared", "steps": [step, {"read": ["title"]}]}],
        "sizes": list(sizes), "repetitions": 1, "warmup": 0,
    })


XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
MODEL_OPEN = '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\n'
AUTHOR = ('<entity name="Author" syncable="YES"><attribute name="name" optional="YES" attributeType="String"/>'
          '<relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" '
          'inverseName="author" inverseEntity="Book"/></entity>\n')
BOOK = ('<entity name="Book" syncable="YES"><attribute name="title" optional="YES" attributeType="String"/>'
        '<relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" '
        'inverseName="books" inverseEntity="Author"/></entity>\n')


def model_xml(*entities: str) -> str:
    return XML_HEAD + MODEL_OPEN + "".join(entities) + "</model>\n"


def xcdatamodel(ctx: Ctx, contents, name: str = "M.xcdatamodel") -> None:
    (ctx.d / name).mkdir(parents=True)
    if contents is not None:
        ctx.write(f"{name}/contents", contents)


def current_version_plist(version: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
            '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n'
            f'\t<key>_XCCurrentVersionName</key>\n\t<string>{version}</string>\n</dict>\n</plist>\n')


BILLION_LAUGHS = (XML_HEAD + '<!DOCTYPE model [\n<!ENTITY lol "lol">\n'
                  + "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n' for i in range(1, 10))
                  + ']>\n' + MODEL_OPEN + AUTHOR.replace('name="name"', 'name="&lol9;"') + BOOK + "</model>\n")


def deep_xml(depth: int) -> str:
    return XML_HEAD + MODEL_OPEN + AUTHOR + BOOK + "<x>" * depth + "</x>" * depth + "</model>\n"


def unchanged(relative: str) -> Callable[[Ctx, Result], Optional[str]]:
    """A check that `relative` (in the case folder) still holds what setup put there (by a saved digest)."""
    def check(ctx: Ctx, result: Result) -> Optional[str]:
        saved = ctx.d / (relative + ".digest-before")
        return None if not saved.exists() or saved.read_text() == digest(ctx.d / relative) else f"{relative} was changed"
    return check


def digest(path: Path) -> str:
    import hashlib
    if path.is_dir():
        parts = []
        for root, dirs, files in sorted(os.walk(path)):
            for file in sorted(files):
                full = Path(root) / file
                parts.append(str(full.relative_to(path)) + ":" + hashlib.sha1(full.read_bytes()).hexdigest())
        return "\n".join(parts)
    return hashlib.sha1(path.read_bytes()).hexdigest() if path.exists() else "absent"


def remember(ctx: Ctx, relative: str) -> None:
    (ctx.d / (relative + ".digest-before")).write_text(digest(ctx.d / relative))


def stdout_has(text: str) -> Callable[[Ctx, Result], Optional[str]]:
    def check(ctx: Ctx, result: Result) -> Optional[str]:
        return None if text in result.stdout else f"stdout lacks '{text}'"
    return check


# Fast run options: tiny, quiet, no history, no advice pass.
FAST = ["--sizes", "10", "--profile", "smoke", "--repetitions", "1", "--warmup", "0", "--allow-debug", "--no-history",
        "--quiet", "--no-advice"]
RUNQ = ["run", "query", "--strategies", "objectgraph,raw-sqlite", "--variant", "modelling=many-to-one"]


def run_q(*extra: str, fast: bool = True) -> list:
    """`bench run query` with the fast options except those `extra` overrides."""
    overridden = {arg.split("=")[0] for arg in extra if arg.startswith("--")}
    options, skip = [], False
    for index, arg in enumerate(FAST):
        if skip:
            skip = False
            continue
        if arg in overridden:
            skip = index + 1 < len(FAST) and not FAST[index + 1].startswith("--")
            continue
        options.append(arg)
    return RUNQ + list(extra) + (options if fast else [])


# ----------------------------------------------------------------------------------------------------------------
# The cases


def cases() -> list:
    c: list = []

    def add(name, argv, expect, setup=None, allow=(), check=None, timeout=None, why="", path=None, env=None, scratch=(),
            cwd=None):
        c.append(Case(name, argv, tuple(expect), setup, tuple(allow), check, timeout, why, path, env, tuple(scratch), cwd))

    # --- the command line itself -------------------------------------------------------------------------------
    add("top/unknown-subcommand", ["nosuch"], BAD)
    add("top/empty-subcommand", [""], BAD)
    add("top/missing-option-value", ["run", "query", "--sizes"], BAD)
    add("top/unknown-option", ["run", "query", "--sizez", "10"], BAD)

    # --- list / --scenarios folders and scenario files -----------------------------------------------------------
    add("list/scenarios-empty-string", ["list", "--scenarios", ""], BAD)
    add("list/scenarios-missing", ["list", "--scenarios", "{d}/nope"], BAD)
    add("list/scenarios-is-a-file", ["list", "--scenarios", "{d}/file"], BAD, lambda x: x.write("file", "x"))
    add("list/scenarios-unreadable", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: (scenario_folder(x, {"q.json": query_with()}).chmod(0o000)))
    add("list/json-syntax-error", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": '{"name": "q", "description": }'}))
    add("list/json-wrong-types", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": query_with(name=5, sizes="many")}))
    add("list/json-top-level-array", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": "[1, 2, 3]"}))
    add("list/json-deeply-nested-10000", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": '{"name": ' + "[" * 10000 + "]" * 10000 + "}"}))
    add("list/json-deeply-nested-object-10000", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": '{"a":' * 10000 + "1" + "}" * 10000}))
    add("list/json-non-utf8", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": b'{"name": "q\xff\xfe", "description": "\xc3("}'}))
    add("list/json-empty-file", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": b""}))
    add("list/json-huge-file-40MB", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": "[" + "0," * 20_000_000 + "0]"}))
    add("list/json-huge-description-20MB", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": query_with(description="x" * 20_000_000, model=7)}))
    add("list/json-is-a-directory", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: (scenario_folder(x, {}), (x.d / "scen" / "dir.json").mkdir()))
    add("list/json-unreadable", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: (scenario_folder(x, {"q.json": query_with()}), (x.d / "scen" / "q.json").chmod(0o000)))
    add("list/json-null-values", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": query_with(strategies=None, variants=None)}))
    add("list/json-sizes-1e300", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": query_with(sizes=[1e300])}),
        why="scenario sizes have no upper bound: Int(1e300)")
    add("list/json-sizes-negative", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": query_with(sizes=[-10])}))
    add("list/json-repetitions-huge", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": query_with(repetitions=1e30)}))
    add("list/json-unknown-strategy-near-miss", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": query_with(strategies=["objectgrap"])}))
    add("list/json-old-strategy-name", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": query_with(strategies=["many-to-one"])}))
    add("list/json-old-workload", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": query_with(workload="query")}))
    add("list/json-variant-value-empty", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": query_with(variants=[{"name": "prefetch", "values": [""]}])}))
    add("list/json-duplicate-scenario-names", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"a.json": query_with(), "b.json": query_with()}))
    add("list/json-count-out-of-range", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"bad.json": query_with(data={"entities": {"Class": -1e308, "Student": "size"}})}))
    for label, fill in [("on-a-one-to-many", {"per": 5, "perDestination": 2}), ("with-reuse", {"per": 5, "perDestination": 2, "reuse": 0}),
                        ("negative", {"per": 5, "perDestination": -1}), ("empty-histogram", {"per": 5, "perDestination": {"histogram": {}}}),
                        ("not-a-fanout", {"per": 5, "perDestination": "many"})]:
        add(f"list/json-per-destination-{label}", ["list", "--scenarios", "{d}/scen"], BAD,
            lambda x, fill=fill: scenario_folder(x, {"bad.json": query_with(
                data={"entities": {"Class": "size/5", "Student": "size"}, "relationships": {"Class.students": fill}})}))
    add("list/extra-argument", ["list", "extra"], BAD)

    # --- declared scenarios: predicates, data generators -------------------------------------------------------
    add("scenario/declared-valid-control", ["list", "--scenarios", "{d}/scen"], (0,),
        lambda x: scenario_folder(x, {"p.json": declared("title == 'a'")}), check=stdout_has("p ("),
        why="control: the template the predicate cases corrupt is valid")
    for label, predicate in [
        ("unbalanced-open-paren", "(title == 'a'"),
        ("unbalanced-close-paren", "title == 'a')"),
        ("unknown-operator", "title ~~ 'a'"),
        ("undefined-variable", "title == $nope"),
        ("empty", ""),
        ("dangling-operator", "title =="),
        ("unknown-key-path", "nosuch == 1"),
        ("huge-integer-literal", "pages == 999999999999999999999999999999999"),
        ("huge-string-literal-1MB", "title == '" + "x" * 1_000_000 + "'"),
        ("deep-parentheses-20000", "(" * 20000 + "title == 'a'" + ")" * 20000),
        ("deep-not-20000", "NOT " * 20000 + "title == 'a'"),
        ("unterminated-string", "title == 'abc"),
    ]:
        # Valid, only extreme: read without a crash (accepting them is as right as refusing them with one line).
        extreme = label.startswith(("huge-", "deep-"))
        add(f"scenario/predicate-{label}", ["list", "--scenarios", "{d}/scen"], (0, 64) if extreme else BAD,
            (lambda p: lambda x: scenario_folder(x, {"p.json": declared(p)}))(predicate))
    # The same deep nesting run: SQLite's expression depth limit (1000) must come back as one line, not a crash.
    add("scenario/predicate-deep-parentheses-explain", ["explain", "p", "--scenarios", "{d}/scen", "--size", "3"], (0, 64),
        lambda x: scenario_folder(x, {"p.json": declared("(" * 2000 + "title == 'a'" + ")" * 2000)}))
    add("scenario/predicate-deep-or-explain", ["explain", "p", "--scenarios", "{d}/scen", "--size", "3"], (0, 1, 64),
        lambda x: scenario_folder(x, {"p.json": declared(" OR ".join(["title == 'a'"] * 3000))}))
    add("scenario/predicate-variable-explain", ["explain", "p", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"p.json": declared("title == $nope")}),
        why="an undefined $variable must be refused when read, not when the phase runs")
    add("scenario/data-number-range-infinite-width", ["explain", "p", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"p.json": declared(attributes={"Book.rating": {"number": [-1.7e308, 1.7e308]}})}),
        why="Double.random(in:) over a range wider than Double.greatestFiniteMagnitude")
    add("scenario/data-count-size-over-zero", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"p.json": declared().replace('"2*size"', '"size/0"')}))
    add("scenario/declared-sizes-1e300", ["list", "--scenarios", "{d}/scen"], BAD,
        lambda x: scenario_folder(x, {"p.json": declared(sizes=[1e300])}))

    # --- run -------------------------------------------------------------------------------------------------------
    add("run/no-scenarios", ["run", "--allow-debug", "--no-history", "--quiet"], BAD)
    add("run/scenario-empty-string", ["run", ""] + FAST + ["--output", "{d}/out"], BAD)
    add("run/scenario-whitespace", ["run", "  "] + FAST + ["--output", "{d}/out"], BAD)
    add("run/scenario-unknown", ["run", "nosuch"] + FAST + ["--output", "{d}/out"], BAD)
    add("run/scenario-near-miss", ["run", "quer"] + FAST + ["--output", "{d}/out"], BAD)
    add("run/scenario-and-all", ["run", "query", "--all"] + FAST + ["--output", "{d}/out"], BAD)
    for label, value in [("empty", ""), ("whitespace", "  "), ("comma", ","), ("semicolon", ";"), ("equals", "="),
                         ("zero", "0"), ("negative", "-5"), ("non-numeric", "abc"), ("empty-item", "10,,20"),
                         ("overflow", "99999999999999999999"), ("float", "1e3"), ("nan", "nan")]:
        add(f"run/sizes-{label}", run_q(f"--sizes={value}", "--output", "{d}/out"), BAD)
    add("run/sizes-huge-1e12", run_q("--sizes=1000000000000", "--output", "{d}/out"), BAD, timeout=60,
        why="--sizes has no upper bound (scenario files cap sizes at 100,000,000)")
    for label, value in [("zero", "0"), ("negative", "-1"), ("non-numeric", "abc"), ("overflow", "99999999999999999999"),
                         ("int-max", "9223372036854775807"), ("huge-1e9", "1000000000")]:
        add(f"run/repetitions-{label}", run_q(f"--repetitions={value}", "--output", "{d}/out"), BAD,
            timeout=60 if label == "huge-1e9" else None)
    for label, value in [("negative", "-1"), ("non-numeric", "x"), ("int-max", "9223372036854775807")]:
        add(f"run/warmup-{label}", run_q(f"--warmup={value}", "--output", "{d}/out"), BAD)
    for label, value in [("negative", "-1"), ("non-numeric", "abc"), ("overflow", "99999999999999999999999"), ("empty", "")]:
        add(f"run/seed-{label}", run_q(f"--seed={value}", "--output", "{d}/out"), BAD)
    for label, value in [("zero", "0"), ("negative", "-1"), ("non-numeric", "a"), ("int-max", "9223372036854775807")]:
        add(f"run/page-cache-mib-{label}", run_q(f"--page-cache-mib={value}", "--output", "{d}/out"), BAD)
    add("run/read-page-cache-mib-int-max", run_q("--read-page-cache-mib=9223372036854775807", "--output", "{d}/out"), BAD)
    add("run/in-memory-is-gone", run_q("--in-memory", "--output", "{d}/out"), BAD)
    for label, value in [("empty", ""), ("no-equals", "modelling"), ("unknown-axis", "modeling=many-to-one"),
                         ("unknown-value", "modelling=one-to-one")]:
        add(f"run/variant-{label}", run_q(f"--variant={value}", "--output", "{d}/out"), BAD)
    for label, value in [("0-of-0", "0/0"), ("3-of-2", "3/2"), ("letters", "a/b"), ("empty", ""), ("slash", "/"),
                         ("1-of-0", "1/0"), ("three-parts", "1/2/3"), ("leading-slash", "/1/2"), ("negative", "-1/2"),
                         ("overflow", "1/99999999999999999999")]:
        add(f"run/shard-{label}", ["run", "--all", f"--shard={value}"] + FAST + ["--output", "{d}/out"], BAD)
    for label, value in [("empty", ""), ("comma", ","), ("unknown", "nosuch"), ("near-miss", "objectgrap"),
                         ("separators", ";="), ("old-name", "grdb:many-to-many"), ("modelling", "many-to-one")]:
        add(f"run/strategies-{label}", ["run", "query", f"--strategies={value}"] + FAST + ["--output", "{d}/out"], BAD)
    add("run/profile-unknown", run_q("--profile=fast", "--output", "{d}/out"), BAD)
    add("run/profile-empty", run_q("--profile=", "--output", "{d}/out"), BAD)
    add("run/export-unknown-format", run_q("--output", "{d}/out", "--export", "csv", "{d}/x.csv"), BAD)
    add("run/export-missing-file", run_q("--output", "{d}/out", "--export", "github-action-benchmark"), BAD)
    add("run/output-holds-a-run", run_q("--output", "{d}/run"), BAD,
        lambda x: (copy_run(x), remember(x, "run")), check=unchanged("run"))
    add("run/output-is-a-file", run_q("--output", "{d}/file"), BAD, lambda x: x.write("file", "keep"))
    add("run/output-under-a-file", run_q("--output", "{d}/file/sub"), BAD, lambda x: x.write("file", "keep"))
    add("run/output-unwritable-folder", run_q("--output", "{d}/ro"), BAD, lambda x: (x.d / "ro").mkdir(mode=0o555))
    add("run/output-under-unwritable-folder", run_q("--output", "{d}/ro/sub"), BAD,
        lambda x: (x.d / "ro").mkdir(mode=0o555))
    add("run/output-empty-string", run_q("--output="), BAD)
    add("run/output-disk-full", run_q("--repetitions=2", "--output", "{d}/full/out"), (1, 64),
        lambda x: mount_full_tmpfs(x, "full", 8 * 1024),
        why="a full disk mid-run: the folder must end whole (failed) or not exist")
    add("run/scenarios-missing", run_q("--scenarios", "{d}/nope", "--output", "{d}/out"), BAD)
    add("run/history-random-bytes", [a for a in run_q("--history", "{d}/h.sqlite", "--output", "{d}/out") if a != "--no-history"],
        BAD, lambda x: x.write("h.sqlite", random.Random(1).randbytes(8192)),
        why="a history that cannot be added to is refused before the run, not after it")
    add("run/instructions-without-valgrind", run_q("--instructions", "--output", "{d}/out"), (1, 64),
        why="--instructions needs valgrind; without it one line, not a crash", path="/nonexistent")

    # --- run --model, schema, lint ------------------------------------------------------------------------------
    models = [
        ("missing", None, "{d}/nope.xcdatamodel"),
        ("empty-string", None, ""),
        ("empty-contents", lambda x: xcdatamodel(x, b""), "{d}/M.xcdatamodel"),
        ("folder-without-contents", lambda x: xcdatamodel(x, None), "{d}/M.xcdatamodel"),
        ("contents-is-a-folder", lambda x: (x.d / "M.xcdatamodel" / "contents").mkdir(parents=True), "{d}/M.xcdatamodel"),
        ("contents-unreadable", lambda x: (xcdatamodel(x, model_xml(AUTHOR, BOOK)),
                                           (x.d / "M.xcdatamodel" / "contents").chmod(0)), "{d}/M.xcdatamodel"),
        ("garbled-xml", lambda x: x.write("contents", XML_HEAD + MODEL_OPEN + '<entity name="A"><attribute name='), "{d}/contents"),
        ("random-bytes", lambda x: x.write("contents", random.Random(2).randbytes(4096)), "{d}/contents"),
        ("non-utf8", lambda x: x.write("contents", model_xml(AUTHOR, BOOK).encode().replace(b'"Author"', b'"Au\xff\xfethor"')), "{d}/contents"),
        ("not-a-model-root", lambda x: x.write("contents", XML_HEAD + "<plist><dict/></plist>"), "{d}/contents"),
        ("no-entities", lambda x: x.write("contents", model_xml()), "{d}/contents"),
        ("mismatched-end-tag", lambda x: x.write("contents", XML_HEAD + MODEL_OPEN + '<entity name="A"></attribute></model>'), "{d}/contents"),
        ("entity-without-name-then-attribute", lambda x: x.write("contents", XML_HEAD + MODEL_OPEN
                                                                 + '<entity><attribute name="a" attributeType="String"/></entity></model>'), "{d}/contents"),
        ("duplicate-entity-names", lambda x: x.write("contents", model_xml(AUTHOR, BOOK, AUTHOR)), "{d}/contents"),
        ("duplicate-attribute-names", lambda x: x.write("contents", model_xml(
            AUTHOR.replace("</entity>", '<attribute name="name" attributeType="Integer 64"/></entity>'), BOOK)), "{d}/contents"),
        ("invalid-entity-name", lambda x: x.write("contents", model_xml(AUTHOR, BOOK, '<entity name="1 bad"/>')), "{d}/contents"),
        ("parent-cycle", lambda x: x.write("contents", model_xml('<entity name="A" parentEntity="B"/>', '<entity name="B" parentEntity="A"/>')), "{d}/contents"),
        ("unknown-parent", lambda x: x.write("contents", model_xml('<entity name="A" parentEntity="Nope"/>')), "{d}/contents"),
        ("inverse-disagrees", lambda x: x.write("contents", model_xml(AUTHOR, BOOK.replace('inverseName="books"', 'inverseName="name"'))), "{d}/contents"),
        ("min-count-above-max", lambda x: x.write("contents", model_xml(AUTHOR.replace('toMany="YES"', 'toMany="YES" minCount="5" maxCount="2"'), BOOK)), "{d}/contents"),
        ("billion-laughs", lambda x: x.write("contents", BILLION_LAUGHS), "{d}/contents"),
        ("deep-nesting-100000", lambda x: x.write("contents", deep_xml(100_000)), "{d}/contents"),
        ("xcdatamodeld-no-versions", lambda x: (x.d / "M.xcdatamodeld").mkdir(), "{d}/M.xcdatamodeld"),
        ("xccurrentversion-names-missing-version", lambda x: (
            xcdatamodel(x, model_xml(AUTHOR, BOOK), "M.xcdatamodeld/V1.xcdatamodel"),
            x.write("M.xcdatamodeld/.xccurrentversion", current_version_plist("V2.xcdatamodel"))), "{d}/M.xcdatamodeld"),
        ("xccurrentversion-garbled", lambda x: (
            xcdatamodel(x, model_xml(AUTHOR, BOOK), "M.xcdatamodeld/V1.xcdatamodel"),
            x.write("M.xcdatamodeld/.xccurrentversion", b"\x00\xffnot a plist")), "{d}/M.xcdatamodeld"),
    ]
    # Read leniently, as documented: an inverse that does not point back is kept without one (a note says so),
    # elements RelBench does not know are ignored however deep.
    lenient = {"inverse-disagrees": (0,), "deep-nesting-100000": (0,), "no-entities": (0,)}
    for label, setup, path in models:
        add(f"schema/{label}", ["schema", path], lenient.get(label, BAD), setup)
    for label, setup, path in models:
        if label in ("missing", "empty-contents", "garbled-xml", "random-bytes", "duplicate-entity-names",
                     "entity-without-name-then-attribute", "billion-laughs", "xccurrentversion-names-missing-version",
                     "no-entities", "inverse-disagrees"):
            add(f"lint/{label}", ["lint", path], (1,) if label in ("inverse-disagrees", "no-entities") else BAD, setup)
    for label, setup, path in models:
        if label in ("missing", "empty-string", "garbled-xml", "duplicate-entity-names", "contents-unreadable"):
            add(f"run-model/{label}", ["run", "--model", path] + FAST + ["--output", "{d}/out"], BAD, setup)
    add("run-model/with-scenario-names", ["run", "query", "--model", "{w}/Scenarios/models/School.xcdatamodeld"]
        + FAST + ["--output", "{d}/out"], BAD)
    # --- run/explain --model --counts and --shape-from, lint --against ---------------------------------------------
    shop = str(REPO / "Tests" / "BenchKitTests" / "Fixtures" / "Shop.xcdatamodeld")
    no_sizes = [arg for index, arg in enumerate(FAST) if arg != "--sizes" and (index == 0 or FAST[index - 1] != "--sizes")]
    for label, value in [("empty", ""), ("no-equals", "Customer"), ("no-count", "Customer="), ("zero", "Customer=0"),
                         ("negative", "Customer=-5"), ("non-numeric", "Customer=abc"), ("overflow", "Customer=99999999999999999999"),
                         ("float", "Customer=1e3"), ("unknown-entity", "Custmer=10"), ("abstract-entity", "Account=10"),
                         ("twice", "Customer=10,Customer=20"), ("trailing-comma", "Customer=10,"), ("huge", "Customer=100000001")]:
        add(f"run-model/counts-{label}", ["run", "--model", shop, "--counts", value] + no_sizes + ["--output", "{d}/out"], BAD)
    add("run-model/counts-with-sizes", ["run", "--model", shop, "--counts", "Customer=10"] + FAST + ["--output", "{d}/out"], BAD)
    add("run-model/counts-without-model", run_q("--counts", "Customer=10") + ["--output", "{d}/out"], BAD)
    add("run-model/shape-from-without-model", run_q("--shape-from", "{d}/store.sqlite") + ["--output", "{d}/out"], BAD)
    stores = [
        ("missing", None),
        ("folder", lambda x: (x.d / "store.sqlite").mkdir()),
        ("empty-file", lambda x: x.write("store.sqlite", b"")),
        ("random-bytes", lambda x: x.write("store.sqlite", random.Random(5).randbytes(5000))),
        ("unreadable", lambda x: (x.write("store.sqlite", b"SQLite format 3\x00" + bytes(84)), (x.d / "store.sqlite").chmod(0))),
        ("sqlite-not-core-data", lambda x: sqlite_file(x.d / "store.sqlite", "CREATE TABLE notes (id INTEGER, text TEXT);")),
        ("another-models-store", lambda x: sqlite_file(x.d / "store.sqlite", """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Author', 0, 1), (2, 'Book', 0, 0);
            CREATE TABLE ZAUTHOR (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);""")),
        ("missing-column", lambda x: sqlite_file(x.d / "store.sqlite", shop_schema(drop="ZEMAIL VARCHAR, "))),
        ("no-rows", lambda x: sqlite_file(x.d / "store.sqlite", shop_schema())),
        ("truncated", lambda x: (sqlite_file(x.d / "store.sqlite", shop_schema(rows=True)),
                                 (x.d / "store.sqlite").write_bytes((x.d / "store.sqlite").read_bytes()[:1500]))),
    ]
    for label, setup in stores:
        def keep(x, setup=setup):
            if setup:
                setup(x)
            if (x.d / "store.sqlite").is_file() and os.access(x.d / "store.sqlite", os.R_OK):
                remember(x, "store.sqlite")
        add(f"run-model/shape-from-{label}", ["run", "--model", shop, "--shape-from", "{d}/store.sqlite"] + FAST
            + ["--output", "{d}/out"], BAD, keep, check=unchanged("store.sqlite"), why="the store is read from a copy, never changed")
    add("explain/model-counts-with-size", ["explain", "--model", shop, "--counts", "Customer=10", "--size", "5"], BAD)
    add("explain/counts-without-model", ["explain", "query", "--counts", "Customer=10"], BAD)
    add("explain/model-shape-from-missing", ["explain", "--model", shop, "--shape-from", "{d}/nope.sqlite"], BAD)
    for label, value in [("empty", ""), ("missing-path", "{d}/nope.xcdatamodel"), ("unknown-version", "Shop 9"),
                         ("near-version", "Shop"), ("garbled", "{d}/contents")]:
        add(f"lint/against-{label}", ["lint", shop, "--against", value], BAD,
            (lambda x: x.write("contents", "<model><entity")) if label == "garbled" else None)
    add("lint/against-version-of-a-contents-file", ["lint", "{d}/contents", "--against", "V1"], BAD,
        lambda x: x.write("contents", model_xml(AUTHOR, BOOK)))

    # Documented as "skipped with a note": the command succeeds and prints the note.
    add("schema/unknown-attribute-type-noted", ["schema", "{d}/contents"], (0,),
        lambda x: x.write("contents", model_xml(AUTHOR.replace('attributeType="String"', 'attributeType="Quaternion"'), BOOK)),
        check=stdout_has("-- note:"), why="documented: an unknown attribute type is skipped with a note")
    add("schema/relationship-to-missing-entity-noted", ["schema", "{d}/contents"], (0,),
        lambda x: x.write("contents", model_xml(AUTHOR.replace('destinationEntity="Book"', 'destinationEntity="Ghost"'), BOOK)),
        check=stdout_has("-- note:"), why="documented: a destination that is not an entity is skipped with a note")
    add("schema/two-arguments", ["schema", "a", "b"], BAD)
    # Swift sources as input: one line either way (the build without the SwiftSources trait says how to get it).
    add("schema/swift-file-of-random-bytes", ["schema", "{d}/A.swift"], BAD, lambda x: x.write("A.swift", bytes(range(256)) * 8))
    add("schema/swift-folder-without-models", ["schema", "{d}"], BAD, lambda x: x.write("A.swift", "struct A {}"))
    add("lint/against-missing-versioned-schema", ["lint", "{d}/A.swift", "--against", "SchemaV9"], BAD,
        lambda x: x.write("A.swift", "import SwiftData\n@Model final class A { var name = \"\" }"))
    add("scan/missing", ["scan", "{d}/nope"], BAD)
    add("scan/empty-string", ["scan", ""], BAD)
    add("scan/size-zero", ["scan", "{d}", "--size", "0"], BAD)
    add("scan/threshold-zero", ["scan", "{d}", "--threshold", "0"], BAD)
    add("scan/output-is-a-file", ["scan", "{d}", "--output", "{d}/file"], BAD,
        lambda x: (x.write("file", "x"), x.write("A.swift", "import SwiftData\n@Model final class A { var name = \"\" }")))
    add("scan/counts-unknown-entity", ["scan", "{d}", "--counts", "Nope=3"], BAD,
        lambda x: x.write("A.swift", "import SwiftData\n@Model final class A { var name = \"\" }"))
    # What the reader skips because the file is wrong is a lint finding (exit 1), never "no findings".
    problems = [
        ("unknown-attribute-type", lambda x: x.write("contents", model_xml(AUTHOR.replace('attributeType="String"', 'attributeType="Quaternion"'), BOOK))),
        ("relationship-to-missing-entity", lambda x: x.write("contents", model_xml(AUTHOR.replace('destinationEntity="Book"', 'destinationEntity="Ghost"'), BOOK))),
        ("relationship-without-destination", lambda x: x.write("contents", model_xml(AUTHOR.replace('destinationEntity="Book"', ''), BOOK))),
        ("index-on-missing-property", lambda x: x.write("contents", model_xml(AUTHOR.replace(
            "</entity>", '<fetchIndex name="byGone"><fetchIndexElement property="gone" type="Binary" order="ascending"/></fetchIndex></entity>'), BOOK))),
        ("unsupported-derivation", lambda x: x.write("contents", model_xml(AUTHOR.replace(
            "</entity>", '<attribute name="n" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="books.@avg"/></entity>'), BOOK))),
    ]
    for label, setup in problems:
        add(f"lint/{label}-is-a-finding", ["lint", "{d}/contents"], (1,), setup, check=stdout_has("problem [model-"),
            why="a model the reader had to skip part of is not clean")

    # --- explain ---------------------------------------------------------------------------------------------------
    add("explain/scenario-empty", ["explain", ""], BAD)
    add("explain/scenario-unknown", ["explain", "nosuch"], BAD)
    add("explain/scenario-near-miss", ["explain", "quer"], BAD)
    for label, value in [("empty", ""), ("comma", ","), ("unknown", "nosuch"), ("near-miss", "objectgrap"),
                         ("not-run-by-scenario", "grdb")]:
        add(f"explain/strategy-{label}", ["explain", "data-loss", f"--strategy={value}"], BAD)
    for label, value in [("zero", "0"), ("negative", "-1"), ("non-numeric", "abc"), ("overflow", "99999999999999999999")]:
        add(f"explain/size-{label}", ["explain", "query", f"--size={value}"], BAD)
    add("explain/size-huge-1e10", ["explain", "query", "--size=10000000000"], BAD, timeout=60,
        why="--size has no upper bound")
    for label, value in [("equals", "="), ("name-only-equals", "a="), ("value-only", "=b"), ("semicolons", ";;"),
                         ("empty", ""), ("whitespace", " "), ("unknown-value", "prefetch=maybe"), ("name-without-value", "prefetch"),
                         ("duplicate-axis", "prefetch=on;prefetch=off"), ("unknown-axis", "batch=20;access=all"),
                         ("double-equals", "prefetch==on"), ("trailing-semicolon-equals", "prefetch=on;=")]:
        add(f"explain/variant-{label}", ["explain", "query", f"--variant={value}"], BAD)
    add("explain/variant-unquoted-split", ["explain", "batch-size", "--variant", "batch=20;", "access=all"], BAD,
        why="the shell split 'batch=20; access=all' into two arguments")
    for label, value in [("negative", "-1"), ("non-numeric", "x")]:
        add(f"explain/max-lines-{label}", ["explain", "query", f"--max-lines={value}"], BAD)
    for label, value in [("zero", "0"), ("negative", "-1"), ("huge", "99")]:
        add(f"explain/level-{label}", ["explain", "query", f"--level={value}"], BAD)
    for label, value in [("zero", "0"), ("negative", "-5")]:
        add(f"explain/threshold-{label}", ["explain", "query", f"--threshold={value}"], BAD)
    add("explain/scenarios-missing", ["explain", "query", "--scenarios", "{d}/nope"], BAD)

    # --- compare ---------------------------------------------------------------------------------------------------
    add("compare/baseline-empty-string", ["compare", "", "{w}/base"], CMP_BASELINE)
    add("compare/baseline-missing", ["compare", "{d}/nope", "{w}/base"], CMP_BASELINE)
    add("compare/current-missing", ["compare", "{w}/base", "{d}/nope"], CMP_OTHER)
    add("compare/current-empty-string", ["compare", "{w}/base", ""], CMP_OTHER)
    add("compare/baseline-folder-not-a-run", ["compare", "{d}/empty", "{w}/base"], CMP_BASELINE,
        lambda x: (x.d / "empty").mkdir())
    add("compare/baseline-samples-unreadable", ["compare", "{d}/run", "{w}/base"], CMP_BASELINE,
        lambda x: (copy_run(x) / "samples.csv").chmod(0))
    add("compare/baseline-truncated-samples", ["compare", "{d}/run", "{w}/base"], CMP_BASELINE,
        lambda x: truncate_mid_line(copy_run(x) / "samples.csv"))
    add("compare/current-garbled-samples", ["compare", "{w}/base", "{d}/run"], CMP_OTHER,
        lambda x: (copy_run(x) / "samples.csv").write_bytes(random.Random(3).randbytes(20000)))
    add("compare/current-wrong-header", ["compare", "{w}/base", "{d}/run"], CMP_OTHER,
        lambda x: edit(copy_run(x) / "samples.csv", lambda t: t.replace("metric,value", "metrics,values", 1)))
    add("compare/current-duplicate-header-column", ["compare", "{w}/base", "{d}/run"], CMP_OTHER,
        lambda x: edit(copy_run(x) / "samples.csv", lambda t: t.replace(",unit\n", ",value\n", 1)))
    add("compare/current-empty-samples-file", ["compare", "{w}/base", "{d}/run"], CMP_OTHER,
        lambda x: (copy_run(x) / "samples.csv").write_bytes(b""))
    add("compare/current-header-only", ["compare", "{w}/base", "{d}/run"], CMP_OTHER,
        lambda x: (copy_run(x) / "samples.csv").write_text(SAMPLES_HEADER + "\n"),
        why="a run that measured nothing must not pass as 'no significant change'")
    add("compare/current-nan-values", ["compare", "{w}/base", "{d}/run"], CMP_OTHER,
        lambda x: edit(copy_run(x) / "samples.csv", lambda t: replace_column(t, "value", "nan")))
    add("compare/current-infinite-values", ["compare", "{w}/base", "{d}/run"], CMP_OTHER,
        lambda x: edit(copy_run(x) / "samples.csv", lambda t: replace_column(t, "value", "1e999")))
    add("compare/current-size-overflow", ["compare", "{w}/base", "{d}/run"], CMP_OTHER,
        lambda x: edit(copy_run(x) / "samples.csv", lambda t: replace_column(t, "size", "99999999999999999999999", rows=3)))
    add("compare/baseline-summary-nan", ["compare", "{d}/run/summary.csv", "{w}/base"], CMP_BASELINE,
        lambda x: edit(copy_run(x) / "summary.csv", lambda t: replace_column(t, "median", "nan")))
    add("compare/baseline-summary-garbled", ["compare", "{d}/run/summary.csv", "{w}/base"], CMP_BASELINE,
        lambda x: (copy_run(x) / "summary.csv").write_bytes(b"\x00\x01\x02,\n\"unterminated"))
    for label, value in [("zero", "0"), ("one", "1"), ("negative", "-0.5"), ("nan", "nan"), ("non-numeric", "abc")]:
        add(f"compare/alpha-{label}", ["compare", "{w}/base", "{w}/base", f"--alpha={value}"], CMP_ARGS)
    for label, value in [("negative", "-10"), ("nan", "nan"), ("infinite", "inf"), ("non-numeric", "x")]:
        add(f"compare/threshold-{label}", ["compare", "{w}/base", "{w}/base", f"--threshold={value}"], CMP_ARGS)
    for label, value in [("empty", ""), ("equals", "="), ("key-only", "wall_ms="), ("value-only", "=5"),
                         ("negative", "wall_ms=-5"), ("non-numeric", "wall_ms=abc"), ("nan", "wall_ms=nan"),
                         ("unknown-key", "wall_msec=5")]:
        add(f"compare/threshold-for-{label}", ["compare", "{w}/base", "{w}/base", f"--threshold-for={value}"], CMP_ARGS)
    add("compare/markdown-missing-folder", ["compare", "{w}/base", "{w}/base", "--markdown", "{d}/nope/out.md"], CMP_OTHER)
    add("compare/markdown-is-a-folder", ["compare", "{w}/base", "{w}/base", "--markdown", "{d}/dir"], CMP_OTHER,
        lambda x: (x.d / "dir").mkdir())
    add("compare/markdown-unwritable-folder", ["compare", "{w}/base", "{w}/base", "--markdown", "{d}/ro/out.md"], CMP_OTHER,
        lambda x: (x.d / "ro").mkdir(mode=0o555))
    add("compare/markdown-disk-full", ["compare", "{w}/base", "{w}/base", "--markdown", "{d}/full/out.md"], CMP_OTHER,
        lambda x: mount_full_tmpfs(x, "full", 0))
    add("compare/baseline-is-current-nan-both", ["compare", "{d}/run", "{d}/run"], CMP_BASELINE + CMP_OTHER,
        lambda x: edit(copy_run(x) / "samples.csv", lambda t: replace_column(t, "value", "nan")))

    # --- baseline save ---------------------------------------------------------------------------------------------
    add("baseline/no-runs", ["baseline", "save", "--to", "{d}/b"], BAD)
    add("baseline/run-missing", ["baseline", "save", "{d}/nope", "--to", "{d}/b"], BAD)
    add("baseline/run-empty-string", ["baseline", "save", "", "--to", "{d}/b"], BAD)
    add("baseline/run-json-garbled", ["baseline", "save", "{d}/run", "--to", "{d}/b"], BAD,
        lambda x: (copy_run(x, source="small") / "run.json").write_text("{ not json"))
    add("baseline/run-json-unreadable", ["baseline", "save", "{d}/run", "--to", "{d}/b"], BAD,
        lambda x: (copy_run(x, source="small") / "run.json").chmod(0))
    add("baseline/run-running", ["baseline", "save", "{d}/run", "--to", "{d}/b"], BAD,
        lambda x: edit(copy_run(x, source="small") / "run.json", lambda t: t.replace('"complete"', '"running"')))
    add("baseline/run-other-profile", ["baseline", "save", "{d}/run", "--to", "{d}/b"], BAD,
        lambda x: edit(copy_run(x, source="small") / "run.json", lambda t: t.replace('"smoke"', '"default"')))
    add("baseline/run-missing-samples", ["baseline", "save", "{d}/run", "--to", "{d}/b"], BAD,
        lambda x: (copy_run(x, source="small") / "samples.csv").unlink(),
        why="Baseline.save checks each file while copying into <to>.saving")
    add("baseline/run-missing-samples-keeps-old-baseline", ["baseline", "save", "{d}/run", "--to", "{d}/b"], BAD,
        lambda x: ((copy_run(x, source="small") / "complexity.csv").unlink(), copy_run(x, "b", source="small"), remember(x, "b")),
        check=unchanged("b"))
    add("baseline/to-is-a-file", ["baseline", "save", "{d}/run", "--to", "{d}/file"], BAD,
        lambda x: (copy_run(x, source="small"), x.write("file", "keep me"), remember(x, "file")), check=unchanged("file"))
    add("baseline/to-under-unwritable-folder", ["baseline", "save", "{d}/run", "--to", "{d}/ro/b"], BAD,
        lambda x: (copy_run(x, source="small"), (x.d / "ro").mkdir(mode=0o555)))
    add("baseline/to-empty-string", ["baseline", "save", "{d}/run", "--to="], BAD,
        lambda x: copy_run(x, source="small"))
    add("baseline/to-disk-full", ["baseline", "save", "{d}/run", "--to", "{d}/full/b"], (1, 64),
        lambda x: (copy_run(x), mount_full_tmpfs(x, "full", 0)), why="a 1.5 MB baseline into a 64 KiB tmpfs")
    add("baseline/profile-unknown", ["baseline", "save", "{d}/run", "--to", "{d}/b", "--profile=fast"], BAD,
        lambda x: copy_run(x, source="small"))

    # --- merge -----------------------------------------------------------------------------------------------------
    add("merge/no-shards", ["merge", "{d}/out"], BAD)
    add("merge/shard-missing", ["merge", "{d}/out", "{d}/nope"], BAD)
    add("merge/shard-empty-string", ["merge", "{d}/out", ""], BAD)
    add("merge/output-empty-string", ["merge", "", "{w}/small"], BAD)
    add("merge/shard-is-a-file", ["merge", "{d}/out", "{d}/file"], BAD, lambda x: x.write("file", "x"))
    add("merge/same-shard-twice", ["merge", "{d}/out", "{w}/small", "{w}/small"], BAD)
    add("merge/shard-garbled-samples", ["merge", "{d}/out", "{d}/run"], BAD,
        lambda x: (copy_run(x, source="small") / "samples.csv").write_bytes(random.Random(4).randbytes(5000)))
    add("merge/shard-truncated-samples", ["merge", "{d}/out", "{d}/run"], BAD,
        lambda x: truncate_mid_line(copy_run(x, source="small") / "samples.csv"))
    add("merge/shard-wrong-header", ["merge", "{d}/out", "{d}/run"], BAD,
        lambda x: edit(copy_run(x, source="small") / "samples.csv", lambda t: t.replace("repetition", "rep", 1)))
    add("merge/shard-nan-values", ["merge", "{d}/out", "{d}/run"], BAD,
        lambda x: edit(copy_run(x, source="small") / "samples.csv", lambda t: replace_column(t, "value", "nan")),
        why="NaN samples must be refused, not merged into a summary.csv that compare then cannot read")
    add("merge/shard-infinite-values", ["merge", "{d}/out", "{d}/run"], BAD,
        lambda x: edit(copy_run(x, source="small") / "samples.csv", lambda t: replace_column(t, "value", "1e999")))
    add("merge/shard-run-json-garbled", ["merge", "{d}/out", "{d}/run"], BAD,
        lambda x: (copy_run(x, source="small") / "run.json").write_text("[]"))
    add("merge/shards-differ-in-seed", ["merge", "{d}/out", "{w}/small", "{d}/run"], BAD,
        lambda x: edit(copy_run(x, source="small") / "run.json", lambda t: t.replace('"seed" : 42', '"seed" : 7')))
    add("merge/output-holds-a-run", ["merge", "{d}/run", "{w}/small"], BAD,
        lambda x: (copy_run(x), remember(x, "run")), check=unchanged("run"))
    add("merge/output-is-a-file", ["merge", "{d}/file", "{w}/small"], BAD, lambda x: x.write("file", "keep"))
    add("merge/output-unwritable", ["merge", "{d}/ro/out", "{w}/small"], BAD, lambda x: (x.d / "ro").mkdir(mode=0o555))
    add("merge/output-disk-full", ["merge", "{d}/full/out", "{w}/base"], (1, 64),
        lambda x: mount_full_tmpfs(x, "full", 0), why="1.5 MB of samples into a 64 KiB tmpfs")
    add("merge/export-unknown-format", ["merge", "{d}/out", "{w}/small", "--export", "csv", "{d}/x"], BAD)
    add("merge/history-random-bytes", ["merge", "{d}/out", "{w}/small", "--history", "{d}/h.sqlite"], BAD,
        lambda x: x.write("h.sqlite", random.Random(5).randbytes(8192)),
        why="a history that cannot be added to is refused before the merge")

    # --- history ---------------------------------------------------------------------------------------------------
    add("history/scenario-empty", ["history", "", "--history", "{w}/hist.sqlite"], BAD)
    add("history/scenario-unknown", ["history", "nosuch", "--history", "{w}/hist.sqlite"], BAD)
    add("history/metric-unknown", ["history", "query", "--metric", "nosuch", "--history", "{w}/hist.sqlite"], BAD)
    add("history/metric-near-miss", ["history", "query", "--metric", "wall_m", "--history", "{w}/hist.sqlite"], BAD)
    add("history/size-non-numeric", ["history", "query", "--size", "abc", "--history", "{w}/hist.sqlite"], BAD)
    add("history/store-missing", ["history", "query", "--history", "{d}/nope.sqlite"], BAD)
    add("history/store-random-bytes", ["history", "query", "--history", "{d}/h.sqlite"], BAD,
        lambda x: x.write("h.sqlite", random.Random(6).randbytes(8192)))
    add("history/store-is-a-folder", ["history", "query", "--history", "{d}/dir"], BAD, lambda x: (x.d / "dir").mkdir())
    add("history/store-unreadable", ["history", "query", "--history", "{d}/h.sqlite"], BAD,
        lambda x: (shutil.copy(x.w / "hist.sqlite", x.d / "h.sqlite"), (x.d / "h.sqlite").chmod(0)))
    add("history/store-empty-file-left-unchanged", ["history", "query", "--history", "{d}/h.sqlite"], BAD,
        lambda x: (x.write("h.sqlite", b""), remember(x, "h.sqlite")), check=unchanged("h.sqlite"),
        why="reading the history must not turn a file the user named into a database")
    add("history/store-unrelated-tables", ["history", "query", "--history", "{d}/h.sqlite"], BAD,
        lambda x: (sqlite_file(x.d / "h.sqlite", "CREATE TABLE run (x); CREATE TABLE cats (name TEXT); INSERT INTO cats VALUES ('tom');"),
                   remember(x, "h.sqlite")), check=unchanged("h.sqlite"))
    add("history/store-foreign-same-names", ["history", "query", "--history", "{d}/h.sqlite"], BAD,
        lambda x: sqlite_file(x.d / "h.sqlite", """
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations VALUES ('v1');
            CREATE TABLE run (id INTEGER PRIMARY KEY, commitHash, time, profile, host, seed, folder);
            INSERT INTO run VALUES (1, NULL, NULL, NULL, NULL, NULL, NULL);
            CREATE TABLE series (run, scenario, strategy, variant, size, phase, metric, unit, n, median, ciLow, ciHigh);
            INSERT INTO series VALUES (1, 'query', 'many-to-one', '', 'big', 'walk', 'wall_ms', 'ms', 1, NULL, 'x', NULL);
        """), why="a store with the right table names but NULLs and text where numbers belong")

    # --- advise ----------------------------------------------------------------------------------------------------
    add("advise/neither-run-nor-scenario", ["advise"], BAD)
    add("advise/both-run-and-scenario", ["advise", "{w}/small", "--scenario", "query"], BAD)
    add("advise/scenario-empty", ["advise", "--scenario", ""], BAD)
    add("advise/scenario-unknown", ["advise", "--scenario", "nosuch"], BAD)
    for label, value in [("zero", "0"), ("negative", "-1"), ("non-numeric", "abc")]:
        add(f"advise/size-{label}", ["advise", "--scenario", "query", f"--size={value}"], BAD)
    add("advise/size-huge-1e10", ["advise", "--scenario", "query", "--size=10000000000"], BAD, timeout=60,
        why="--size has no upper bound")
    add("advise/threshold-zero", ["advise", "--scenario", "query", "--threshold=0"], BAD)
    add("advise/run-missing", ["advise", "{d}/nope"], BAD)
    add("advise/run-garbled-summary", ["advise", "{d}/run"], BAD,
        lambda x: (copy_run(x, source="small") / "summary.csv").write_bytes(random.Random(7).randbytes(3000)))
    add("advise/run-unknown-scenario-in-summary", ["advise", "{d}/run"], BAD,
        lambda x: edit(copy_run(x, source="small") / "summary.csv", lambda t: replace_column(t, "scenario", "ghost")))
    add("advise/run-unknown-strategy-in-summary", ["advise", "{d}/run"], BAD,
        lambda x: edit(copy_run(x, source="small") / "summary.csv", lambda t: replace_column(t, "strategy", "bogus")))
    add("advise/run-nan-summary", ["advise", "{d}/run", "--size=50"], BAD,
        lambda x: edit(copy_run(x, source="small") / "summary.csv", lambda t: replace_column(t, "median", "nan")))
    add("advise/json-missing-folder", ["advise", "--scenario", "query", "--size=50", "--json", "{d}/nope/a.json"], WRITE)
    add("advise/json-is-a-folder", ["advise", "--scenario", "query", "--size=50", "--json", "{d}/dir"], WRITE,
        lambda x: (x.d / "dir").mkdir())
    add("advise/fail-on-findings", ["advise", "--scenario", "query", "--size=1000", "--fail-on-findings", "--json", "{d}/a.json"],
        (1,), allow=("a.json",), why="documented: exit 1 with findings (the gate's line on stdout); the JSON is whole")

    # --- verdicts --------------------------------------------------------------------------------------------------
    add("verdicts/run-empty-string", ["verdicts", ""], BAD)
    add("verdicts/run-missing", ["verdicts", "{d}/nope"], BAD)
    add("verdicts/run-is-a-file", ["verdicts", "{d}/file.json"], BAD, lambda x: x.write("file.json", "{}"))
    add("verdicts/summary-garbled", ["verdicts", "{d}/run"], BAD,
        lambda x: (copy_run(x) / "summary.csv").write_bytes(random.Random(8).randbytes(3000)))
    add("verdicts/summary-truncated", ["verdicts", "{d}/run"], BAD, lambda x: truncate_mid_line(copy_run(x) / "summary.csv"))
    add("verdicts/summary-wrong-header", ["verdicts", "{d}/run"], BAD,
        lambda x: edit(copy_run(x) / "summary.csv", lambda t: t.replace("median", "middle", 1)))
    add("verdicts/summary-duplicate-header-column", ["verdicts", "{d}/run"], BAD,
        lambda x: edit(copy_run(x) / "summary.csv", lambda t: t.replace(",floor\n", ",median\n", 1)))
    add("verdicts/summary-nan", ["verdicts", "{d}/run"], BAD,
        lambda x: edit(copy_run(x) / "summary.csv", lambda t: replace_column(
            replace_column(replace_column(t, "median", "nan"), "ci_low", "nan"), "ci_high", "nan")))
    add("verdicts/summary-infinite", ["verdicts", "{d}/run"], BAD,
        lambda x: edit(copy_run(x) / "summary.csv", lambda t: replace_column(
            replace_column(replace_column(t, "median", "1e999"), "ci_low", "1e999"), "ci_high", "1e999")))
    add("verdicts/summary-huge-1e300", ["verdicts", "{d}/run"], (0, 64),
        lambda x: edit(copy_run(x) / "summary.csv", lambda t: replace_column(t, "median", "1e300")))
    add("verdicts/summary-header-only", ["verdicts", "{d}/run"], BAD,
        lambda x: (copy_run(x) / "summary.csv").write_text(SUMMARY_HEADER + "\n"))
    add("verdicts/json-missing-folder", ["verdicts", "{w}/base", "--json", "{d}/nope/v.json"], WRITE)
    add("verdicts/markdown-unwritable-folder", ["verdicts", "{w}/base", "--markdown", "{d}/ro/v.md"], WRITE,
        lambda x: (x.d / "ro").mkdir(mode=0o555))
    add("verdicts/json-disk-full", ["verdicts", "{w}/base", "--json", "{d}/full/v.json"], WRITE,
        lambda x: mount_full_tmpfs(x, "full", 0))
    add("verdicts/readme-missing", ["verdicts", "{w}/base", "--readme", "{d}/README.md"], BAD)
    add("verdicts/readme-without-markers", ["verdicts", "{w}/base", "--readme", "{d}/README.md"], BAD,
        lambda x: (x.write("README.md", "# Title\nno markers\n"), remember(x, "README.md")), check=unchanged("README.md"))
    add("verdicts/readme-unreadable", ["verdicts", "{w}/base", "--readme", "{d}/README.md"], BAD,
        lambda x: x.write("README.md", "x", mode=0))
    add("verdicts/readme-run-json-garbled", ["verdicts", "{d}/run", "--json", "{d}/v.json", "--readme", "{d}/README.md"], BAD,
        lambda x: ((copy_run(x) / "run.json").write_text("{"), shutil.copy(x.w / "README.md", x.d / "README.md"),
                   remember(x, "README.md")), allow=("v.json",), check=unchanged("README.md"))

    # --- log (a device's SQLDebug log) ------------------------------------------------------------------------------
    timed_log = ("CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0\n"
                 "CoreData: annotation: total fetch execution time: 0.0005s for 3 rows.\n")
    untimed_log = "CoreData: sql: BEGIN EXCLUSIVE\nCoreData: sql: INSERT INTO ZITEM(Z_PK) VALUES(?)\nCoreData: sql: COMMIT\n"
    add("log/file-missing", ["log", "{d}/nope.log"], BAD)
    add("log/file-empty-string", ["log", ""], BAD)
    add("log/file-is-a-folder", ["log", "{d}/dir"], BAD, lambda x: (x.d / "dir").mkdir())
    add("log/file-unreadable", ["log", "{d}/a.log"], BAD, lambda x: x.write("a.log", timed_log, mode=0))
    add("log/file-empty", ["log", "{d}/a.log"], BAD, lambda x: x.write("a.log", b""))
    add("log/no-core-data-lines", ["log", "{d}/a.log"], BAD, lambda x: x.write("a.log", "app started\nloaded 3 rows\n"))
    add("log/random-bytes", ["log", "{d}/a.log"], (0, 64), lambda x: x.write("a.log", random.Random(9).randbytes(65536)),
        why="garbage is counted as garbled lines or refused for holding no Core Data line, never a crash")
    add("log/garbled-core-data-lines", ["log", "{d}/a.log"], (0,),
        lambda x: x.write("a.log", timed_log + "CoreData: annotation: total fetch execution time: 0.0\nata: sql: SEL\n\xff\xfe\x00\n"),
        check=stdout_has("truncated lines"), why="documented: truncated and garbled lines are counted and reported, never fatal")
    add("log/output-is-a-file", ["log", "{d}/a.log", "--output", "{d}/file"], BAD,
        lambda x: (x.write("a.log", timed_log), x.write("file", "keep"), remember(x, "file")), check=unchanged("file"))
    add("log/output-holds-a-run", ["log", "{d}/a.log", "--output", "{d}/run"], BAD,
        lambda x: (x.write("a.log", timed_log), copy_run(x, source="small"), remember(x, "run")), check=unchanged("run"))
    add("log/output-unwritable", ["log", "{d}/a.log", "--output", "{d}/ro/out"], BAD,
        lambda x: (x.write("a.log", timed_log), (x.d / "ro").mkdir(mode=0o555)))
    add("log/fit-costs-untimed-log", ["log", "{d}/a.log", "--fit-costs", "{d}/costs.json"], BAD,
        lambda x: x.write("a.log", untimed_log), why="a log that times no statement cannot be fitted: said, nothing written")
    add("log/fit-costs-missing-folder", ["log", "{d}/a.log", "--fit-costs", "{d}/nope/costs.json"], BAD,
        lambda x: x.write("a.log", timed_log))
    add("log/model-garbled", ["log", "{d}/a.log", "--model", "{d}/contents"], BAD,
        lambda x: (x.write("a.log", timed_log), x.write("contents", XML_HEAD + MODEL_OPEN + '<entity name="A"><attribute name=')))
    for label, value in [("negative", "-1"), ("non-numeric", "abc"), ("huge-1e300", "1e300")]:
        add(f"log/size-{label}", ["log", "{d}/a.log", f"--size={value}"], BAD, lambda x: x.write("a.log", timed_log))
    add("log/threshold-zero", ["log", "{d}/a.log", "--threshold=0"], BAD, lambda x: x.write("a.log", timed_log))
    add("log/scenario-empty", ["log", "{d}/a.log", "--output", "{d}/out", "--scenario="], BAD,
        lambda x: x.write("a.log", timed_log))
    add("log/diff-scenario-unknown", ["log", "diff", "{d}/a.log", "nosuch"], BAD, lambda x: x.write("a.log", timed_log))
    add("log/diff-no-scenario", ["log", "diff", "{d}/a.log"], BAD, lambda x: x.write("a.log", timed_log))
    # --- baselines and gates of lint, advise and log (--baseline, --write-baseline, --fail-on) ----------------------
    shop_model = str(REPO / "Tests" / "BenchKitTests" / "Fixtures" / "Shop.xcdatamodeld")
    gated = {
        "lint": (["lint", shop_model], None),
        "log": (["log", "{d}/a.log"], lambda x: x.write("a.log", timed_log)),
        "advise": (["advise", "--scenario", "query", "--size=50"], None),
    }
    header = '{"format": "relbench-findings-baseline", "version": 1, "command": "%s", "findings": %s}'
    bad_baselines = [
        ("missing", None),
        ("empty", ""),
        ("random-bytes", random.Random(13).randbytes(2048)),
        ("not-json", "fingerprint,rule\n"),
        ("other-tools-json", '{"version": 1, "results": []}'),
        ("other-version", '{"format": "relbench-findings-baseline", "version": 7, "command": "lint", "findings": []}'),
        ("truncated", header[:60]),
        ("field-missing", header % ("COMMAND", '[{"rule": "x"}]')),
        ("findings-not-a-list", header % ("COMMAND", '{"a": 1}')),
        ("unreadable", "UNREADABLE"),
    ]
    for command, (argv, setup) in gated.items():
        for label, content in bad_baselines:
            def make(x, content=content, setup=setup, command=command):
                if setup:
                    setup(x)
                if content == "UNREADABLE":
                    x.write("b.json", header % (command, "[]"), mode=0)
                elif content is not None:
                    x.write("b.json", content.replace("COMMAND", command) if isinstance(content, str) else content)
            add(f"{command}/baseline-{label}", argv + ["--baseline", "{d}/b.json"], BAD, make)
        other = "log" if command != "log" else "lint"
        add(f"{command}/baseline-of-another-command", argv + ["--baseline", "{d}/b.json"], BAD,
            lambda x, setup=setup, other=other: (setup and setup(x), x.write("b.json", header % (other, "[]"))))
        add(f"{command}/baseline-is-a-folder", argv + ["--baseline", "{d}/dir"], BAD,
            lambda x, setup=setup: (setup and setup(x), (x.d / "dir").mkdir()))
        add(f"{command}/baseline-and-write-baseline", argv + ["--baseline", "{d}/b.json", "--write-baseline", "{d}/c.json"], BAD,
            lambda x, setup=setup, command=command: (setup and setup(x), x.write("b.json", header % (command, "[]"))))
        add(f"{command}/write-baseline-missing-folder", argv + ["--write-baseline", "{d}/nope/b.json"], BAD, setup)
        add(f"{command}/write-baseline-is-a-folder", argv + ["--write-baseline", "{d}/dir"], BAD,
            lambda x, setup=setup: (setup and setup(x), (x.d / "dir").mkdir()))
        for label, value in [("empty", ""), ("unknown", "problme"), ("trailing-comma", "problem,"), ("all-and-more", "all,risk")]:
            add(f"{command}/fail-on-{label}", argv + ["--fail-on", value], BAD, setup)
        add(f"{command}/write-baseline", argv + ["--write-baseline", "{d}/b.json"], (0,), setup, allow=("b.json",),
            why="documented: writing a baseline accepts every finding, exit 0; the file is whole")
    add("advise/fail-on-findings-and-fail-on", ["advise", "--scenario", "query", "--size=50", "--fail-on-findings", "--fail-on", "risk"],
        BAD)
    add("log/diff-log-missing", ["log", "diff", "{d}/nope.log", "faulting", "--size", "3"], BAD)
    add("log/diff-log-without-core-data", ["log", "diff", "{d}/a.log", "faulting", "--size", "3"], BAD,
        lambda x: x.write("a.log", "nothing here\n"))
    add("log/diff-size-zero", ["log", "diff", "{d}/a.log", "faulting", "--size=0"], BAD, lambda x: x.write("a.log", timed_log))
    add("log/diff-differs", ["log", "diff", "{d}/a.log", "faulting", "--size", "3"], (2,),
        lambda x: x.write("a.log", timed_log), why="documented: exit 2 when the statements differ")
    for label, content in [("garbled", "{ not json"), ("negative-cost", '{"format": 1, "source": "a", "statementMs": {"select": -1}, '
                           '"rowMs": 0, "untimedKinds": [], "fit": {"units": 1, "heldOutUnits": 0, "heldOutMeasuredMs": 0, '
                           '"heldOutPredictedMs": 0, "heldOutRMSMs": 0}}'), ("empty", "")]:
        add(f"run/device-costs-{label}", run_q("--device-costs", "{d}/costs.json", "--output", "{d}/out"), BAD,
            (lambda text: lambda x: x.write("costs.json", text))(content))
    add("run/device-costs-missing", run_q("--device-costs", "{d}/nope.json", "--output", "{d}/out"), BAD)
    add("run/strategies-device", run_q("--strategies", "device", "--output", "{d}/out"), BAD,
        why="device series are read from a log, never run")
    owned_and_honest(add)

    # Silent no-ops, reading results back, scale limits and messages (issue 30: items 4, 6, 7 and 11).
    import sweep_noops_and_limits
    sweep_noops_and_limits.add_cases(add, sys.modules[__name__])

    # Reliability, round 4 (issue 41: items 3 to 10).
    import sweep_round4
    sweep_round4.add_cases(add, sys.modules[__name__])
    return c


def owned_and_honest(add) -> None:
    """Nothing a user owns is overwritten, merges are honest, faults leave true statuses (issue 30)."""
    add("own/run-output-holds-a-users-file", run_q("--output", "{d}/own"), BAD,
        lambda x: (x.write("own/summary.csv", "my numbers\n"), remember(x, "own")), check=unchanged("own"),
        why="an existing folder that is not empty is never written into")
    add("own/run-output-root", run_q("--output", "/"), BAD, why="--output / once wrote six reports into /")
    add("own/run-output-holds-a-hidden-file", run_q("--output", "{d}/own"), BAD,
        lambda x: (x.write("own/.keep", ""), remember(x, "own")), check=unchanged("own"))
    add("own/merge-output-holds-a-users-file", ["merge", "{d}/own", "{w}/small", "--no-advice"], BAD,
        lambda x: (x.write("own/notes.txt", "mine\n"), remember(x, "own")), check=unchanged("own"))
    add("own/log-output-holds-a-users-file", ["log", "{d}/a.log", "--output", "{d}/own"], BAD,
        lambda x: (x.write("a.log", "CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0\n"
                                    "CoreData: annotation: total fetch execution time: 0.0005s for 3 rows.\n"),
                   x.write("own/notes.txt", "mine\n"),
                   remember(x, "own")), check=unchanged("own"))
    add("own/compare-markdown-onto-a-runs-verdicts", ["compare", "{w}/base", "{d}/run", "--markdown", "{d}/run/verdicts.md"],
        CMP_ARGS + CMP_OTHER, lambda x: (copy_run(x, source="small"), remember(x, "run")), check=unchanged("run"))
    add("own/verdicts-markdown-onto-a-runs-page", ["verdicts", "{d}/run", "--markdown", "{d}/run/report.md"], BAD,
        lambda x: (copy_run(x, source="small"), remember(x, "run")), check=unchanged("run"))
    add("own/baseline-to-a-link-keeps-the-link", ["baseline", "save", "{d}/run", "--to", "{d}/link"], (0,),
        lambda x: (edit(copy_run(x, source="small") / "run.json", lambda t: t.replace('"debug"', '"release"')),
                   copy_run(x, "real"), os.symlink("real", x.d / "link")),
        allow=("real",), check=is_link("link"), why="a link --to names is kept; the baseline it points to is replaced")
    add("own/baseline-to-a-link-to-a-users-folder", ["baseline", "save", "{d}/run", "--to", "{d}/link"], BAD,
        lambda x: (copy_run(x, source="small"), x.write("real/notes.txt", "mine\n"), os.symlink("real", x.d / "link"),
                   remember(x, "real")), check=unchanged("real"))

    def edited(source_edit):
        # Another run than `small` (small2, of the same command), its run.json edited: a copy of small would be refused
        # as a copy before the edit is looked at.
        return lambda x: edit(copy_run(x, source="small2") / "run.json", source_edit)

    def json_edit(change):
        def transform(text: str) -> str:
            info = json.loads(text)
            change(info)
            return json.dumps(info, indent=2)
        return transform

    for label, change in [
        ("different-scenarios", lambda i: i.update(scenarios=["faulting"])),
        ("different-page-cache", lambda i: i["sqliteSettings"].update(cache_size_kib_bulk="1024")),
        ("different-read-page-cache", lambda i: i["sqliteSettings"].update(cache_size_kib_read="8192")),
        ("in-memory-storage", lambda i: i["sqliteSettings"].update(storage="in-memory")),
    ]:
        add(f"honest/merge-as-repetitions-{label}", ["merge", "{d}/out", "{w}/small", "{d}/run", "--as-repetitions", "--no-advice"],
            BAD, edited(json_edit(change)), why="runs that measured differently are not repetitions of one run")
    add("honest/merge-as-repetitions-same-folder-twice", ["merge", "{d}/out", "{w}/small", "{w}/small", "--as-repetitions",
                                                         "--no-advice"], BAD)
    add("honest/merge-as-repetitions-same-folder-by-a-link", ["merge", "{d}/out", "{w}/small", "{d}/link", "--as-repetitions",
                                                             "--no-advice"], BAD,
        lambda x: os.symlink(x.w / "small", x.d / "link"))
    add("honest/merge-as-repetitions-control", ["merge", "{d}/out", "{w}/small", "{w}/small2", "--as-repetitions", "--no-advice"],
        (0,), why="control: two runs of one command merge")

    add("status/baseline-of-a-run-left-running-says-interrupted", ["baseline", "save", "{d}/run", "--to", "{d}/b"], BAD,
        edited(lambda t: t.replace('"complete"', '"running"')), check=stderr_has("is interrupted, not complete"),
        why="no process holds the folder: its writer was killed")
    add("status/stale-temporary-folders-removed", run_q("--output", "{d}/out"), (0,),
        lambda x: [(x.d / "tmp" / name).mkdir(parents=True) for name in (
            f"relbench-run-{dead_pid()}-ABCDEF12", f"relbench-callgrind-{dead_pid()}-0123ABCD-removing")],
        env={"TMPDIR": "{d}/tmp"}, scratch=("tmp",), check=empty_folder("tmp"),
        why="a killed run's temporary folders go with the next run")
    add("status/no-temporary-directory-left", run_q("--output", "{d}/out"), (0,), lambda x: (x.d / "tmp").mkdir(),
        env={"TMPDIR": "{d}/tmp"}, scratch=("tmp",), check=empty_folder("tmp"),
        why="swift --version (run.json's swiftVersion) left an empty TemporaryDirectory.* per run")
    for free in (4, 12, 20, 28, 36):
        add(f"status/merge-disk-full-{free}k", ["merge", "{d}/full/out", "{w}/small", "--no-advice"], (0, 1, 64),
            (lambda f: lambda x: mount_full_tmpfs(x, "full", f * 1024))(free),
            why="merge wrote run.json complete before its summary; a full disk left it complete without one")
        add(f"status/run-disk-full-{free}k", run_q("--repetitions=2", "--output", "{d}/full/out"), (0, 1, 64),
            (lambda f: lambda x: mount_full_tmpfs(x, "full", f * 1024))(free),
            why="a full disk left run folders 'running'")


def dead_pid() -> int:
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid -= 1


def is_link(relative: str) -> Callable[[Ctx, "Result"], Optional[str]]:
    def check(ctx: Ctx, result: "Result") -> Optional[str]:
        return None if (ctx.d / relative).is_symlink() else f"{relative} is no longer a link"
    return check


def empty_folder(relative: str) -> Callable[[Ctx, "Result"], Optional[str]]:
    def check(ctx: Ctx, result: "Result") -> Optional[str]:
        left = sorted(os.listdir(ctx.d / relative))
        return f"{relative} still holds {', '.join(left[:4])}" if left else None
    return check


def stderr_has(text: str) -> Callable[[Ctx, "Result"], Optional[str]]:
    def check(ctx: Ctx, result: "Result") -> Optional[str]:
        return None if text in result.stderr else f"stderr lacks '{text}'"
    return check


# ----------------------------------------------------------------------------------------------------------------
# Running and judging


def snapshot(root: Path) -> dict:
    """Every path under root with (kind, size, mtime): enough to see what a command created or changed."""
    entries = {}
    for current, dirs, files in os.walk(root, onerror=lambda error: None):
        for name in dirs + files:
            path = Path(current) / name
            try:
                info = path.lstat()
            except OSError:
                continue
            kind = "d" if stat.S_ISDIR(info.st_mode) else "f"
            entries[str(path.relative_to(root))] = (kind, 0 if kind == "d" else info.st_size,
                                                    0 if kind == "d" else info.st_mtime_ns)
    return entries


def valid_run_folder(path: Path) -> Optional[str]:
    """None if `path` is a whole run folder (run.json, samples.csv and summary.csv that parse, a final status; a
    folder marked failed may lack summary.csv, as a full disk leaves it); else what is wrong."""
    try:
        info = json.loads((path / "run.json").read_text())
    except Exception as error:  # noqa: BLE001
        return f"run.json unreadable ({error.__class__.__name__})"
    if info.get("status") not in ("complete", "failed", "interrupted", "incomplete"):
        return f"run.json says status '{info.get('status')}'"
    # The status is the last byte a run writes: a folder marked finished holds every file its run.json lists, whole.
    for name in info.get("files") or []:
        file = path / name
        if not file.exists():
            return f"run.json is {info.get('status')} and lists {name}, which is missing"
        if name.endswith(".json"):
            try:
                json.loads(file.read_text())
            except Exception as error:  # noqa: BLE001
                return f"{name} is not whole JSON ({error.__class__.__name__})"
    for name, header in (("samples.csv", SAMPLES_HEADER), ("summary.csv", SUMMARY_HEADER)):
        file = path / name
        if not file.exists() and name == "summary.csv" and info.get("status") == "failed":
            continue  # a full disk: the whole samples of the finished repetitions, marked failed, without summaries
        if not file.exists():
            return f"no {name}"
        text = file.read_text(errors="replace")
        if not text.startswith(header):
            return f"{name} lacks its header"
        if text and not text.endswith("\n"):
            return f"{name} ends mid-line"
        width = header.count(",") + 1
        for number, row in enumerate(csv.reader(io.StringIO(text))):
            if len(row) != width:
                return f"{name} line {number + 1} has {len(row)} fields"
        if name == "summary.csv":
            for row in list(csv.DictReader(io.StringIO(text))):
                if row["n"] not in ("", "0") and any(row[k] == "" for k in ("median", "ci_low", "ci_high")):
                    return "summary.csv has a series with samples but no median (NaN written as empty)"
    return None


def valid_output(path: Path) -> Optional[str]:
    if path.is_dir():
        return valid_run_folder(path)
    if path.suffix == ".json":
        try:
            json.loads(path.read_text())
        except Exception as error:  # noqa: BLE001
            return f"{path.name} is not whole JSON ({error.__class__.__name__})"
    elif path.stat().st_size == 0:
        return f"{path.name} is empty"
    return None


def leftovers(ctx: Ctx, case: Case, before: dict, after: dict, rc: Optional[int]) -> list:
    """Problems with what the case left in the working folder."""
    changed = sorted(p for p in after if before.get(p) != after[p]) + sorted(p for p in before if p not in after)
    changed = [p for p in changed if not p.endswith(".digest-before")]
    if not changed:
        return []
    case_prefix = str(ctx.d.relative_to(ctx.w))
    problems = []
    outside = [p for p in changed if not (p == case_prefix or p.startswith(case_prefix + "/"))]
    if outside:
        problems.append("changed outside its folder: " + ", ".join(outside[:5]))
    inside = [p[len(case_prefix) + 1:] for p in changed if p.startswith(case_prefix + "/")]
    # Group by the top-level entry of the case folder (an output folder or file).
    tops = sorted({p.split("/")[0] for p in inside} - set(case.scratch))
    for top in tops:
        allowed = top in case.allow
        path = ctx.d / top
        if allowed:
            if path.exists():
                problem = valid_output(path)
                if problem:
                    problems.append(f"{top}: {problem}")
            continue
        if not path.exists():
            problems.append(f"{top} was deleted")
            continue
        if path.is_mount() or any(ctx.d / top == m for m in ctx.mounts):
            # Inside a tmpfs mount: judge what appeared in it.
            subs = sorted({p.split("/")[1] for p in inside if p.startswith(top + "/") and len(p.split("/")) > 1} - {".filler"})
            for sub in subs:
                problems.extend(judge_new(path / sub, f"{top}/{sub}"))
            continue
        if (case_prefix + "/" + top) in before and path.is_dir():
            inner = sorted(p for p in inside if p.startswith(top + "/"))
            problems.append(f"{top} was modified (" + ", ".join(inner[:4]) + ")")
            continue
        if (case_prefix + "/" + top) in before:
            problems.append(f"{top} was modified")
            continue
        problems.extend(judge_new(path, top))
    return problems


def judge_new(path: Path, label: str) -> list:
    """A new file or folder left after a failure: only a whole run folder marked failed/interrupted is fine."""
    if not path.exists():
        return []
    if path.is_dir():
        contents = sorted(os.listdir(path))
        if not contents:
            return [f"left an empty folder {label}/"]
        if "run.json" in contents:
            problem = valid_run_folder(path)
            return [f"left a half-written run folder {label}/ ({problem}; holds {', '.join(contents)})"] if problem else []
        return [f"left {label}/ holding {', '.join(contents[:6])}"]
    return [f"left a file {label} ({path.stat().st_size} bytes)"]


def run_case(bench: str, case: Case, work: Path, index: int, timeout: float, mem_mib: int, drop_dac: bool,
             mounts: list) -> tuple:
    folder = work / "c" / f"{index:03d}-{case.name.replace('/', '-')}"
    folder.mkdir(parents=True)
    ctx = Ctx(work, folder, mounts)
    if case.setup:
        try:
            case.setup(ctx)
        except Skip as skip:
            return "SKIP", None, [str(skip)], []
    if case.cwd is None:
        argv = [a.replace("{d}", str(folder.relative_to(work))).replace("{w}", ".") for a in case.argv]
    else:
        argv = [a.replace("{d}", str(folder)).replace("{w}", str(work)) for a in case.argv]
    command = [bench] + argv
    if drop_dac:
        # Root ignores file modes: drop the capabilities that let it, so that chmod 000 / 555 mean something.
        command = [shutil.which("setpriv") or "setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"] + command

    def limits():
        os.setsid()
        if mem_mib:
            resource.setrlimit(resource.RLIMIT_AS, (mem_mib << 20, mem_mib << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    before = snapshot(work)
    started = time.monotonic()
    environment = dict(os.environ, PATH=case.path) if case.path is not None else None
    if case.env:
        environment = dict(environment or os.environ,
                           **{k: v.replace("{d}", str(folder)) for k, v in case.env.items()})
    cwd = work if case.cwd is None else Path(case.cwd.replace("{d}", str(folder)))
    process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, preexec_fn=limits, env=environment)
    timed_out = False
    try:
        out, err = process.communicate(timeout=case.timeout or timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
    result = Result(process.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
                    time.monotonic() - started, timed_out)
    after = snapshot(work)

    problems, multi = judge(case, result)
    problems += leftovers(ctx, case, before, after, result.rc)
    if case.check and not timed_out:
        problem = case.check(ctx, result)
        if problem:
            problems.append(problem)
    status = "FAIL" if problems else ("MULTI" if multi else "PASS")
    return status, result, problems, argv


def judge(case: Case, result: Result) -> tuple:
    problems = []
    if result.timed_out:
        problems.append(f"timed out after {result.seconds:.0f} s (killed)")
    rc = result.rc
    if rc is not None and rc < 0:
        problems.append(f"killed by signal {-rc} ({signal.Signals(-rc).name if -rc in signal.valid_signals() else '?'})")
    elif rc is not None and rc >= 128 and not result.timed_out:
        problems.append(f"exit code {rc} (a signal: {rc - 128})")
    if not result.timed_out and rc not in case.expect:
        problems.append(f"exit code {rc}, expected {'/'.join(map(str, case.expect))}")
    markers = [m for m in CRASH_MARKERS if m in result.stderr]
    if markers:
        problems.append("backtrace on stderr (" + ", ".join(markers) + ")")
    lines = result.stderr.rstrip("\n").split("\n") if result.stderr.strip() else []
    multi = False
    expecting_success = 0 in case.expect
    if not result.timed_out and not markers:
        # lint's, advise's and log's findings (exit 1: a gate's new finding) and the budgets' breaches (exit 6) are
        # their output, on standard output
        findings = (case.argv[:1] in (["lint"], ["advise"], ["log"]) and rc == 1) or (
            case.argv[:1] in (["budget"], ["compare"]) and rc == 6)
        if not lines and not expecting_success and rc != 0 and not findings:
            problems.append("no message on stderr")
        elif lines and not lines[0].strip():
            problems.append("stderr's first line is empty")
        elif len(lines) > 1 and rc == 0 and all(line.startswith(("note: ", "bench: warning: ")) for line in lines):
            pass  # a success's notes: one line per thing skipped or kept leniently (e.g. an inverse that does not point back)
        elif len(lines) > 1:
            if lines[0].startswith("Error: ") and rc not in (None,) and rc in case.expect:
                multi = True
            else:
                problems.append(f"stderr has {len(lines)} lines")
    return problems, multi


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line if len(line) <= 160 else line[:157] + "..."
    return ""


def find_bench(given: Optional[str]) -> str:
    if given:
        return str(Path(given).resolve())
    for candidate in (REPO / ".build/release/bench", REPO / ".build/debug/bench"):
        if candidate.exists():
            return str(candidate)
    sys.exit("bad_input_sweep: no bench binary at .build/release/bench or .build/debug/bench; pass --bench PATH")


def prepare(work: Path, bench: str) -> None:
    """The shared fixtures: Scenarios/, a copy of the baseline, a tiny real run with its history store."""
    shutil.copytree(REPO / "Scenarios", work / "Scenarios")
    shutil.copytree(REPO / "Results" / "baseline", work / "base")
    shutil.copy(REPO / "README.md", work / "README.md")
    done = subprocess.run([bench, "run", "query", "--strategies", "objectgraph,raw-sqlite", "--variant", "modelling=many-to-one",
                           "--sizes", "10", "--profile", "smoke",
                           "--repetitions", "1", "--warmup", "0", "--allow-debug", "--quiet", "--no-advice",
                           "--history", "hist.sqlite", "--output", "small"], cwd=work, capture_output=True, text=True, timeout=300)
    if done.returncode != 0 or not (work / "small" / "summary.csv").exists():
        sys.exit(f"bad_input_sweep: could not make the fixture run (exit {done.returncode}):\n{done.stderr[-2000:]}")
    # A second run of the same command: another run, the one merges take as a repetition of `small`.
    done = subprocess.run([bench, "run", "query", "--strategies", "objectgraph,raw-sqlite", "--variant", "modelling=many-to-one",
                           "--sizes", "10", "--profile", "smoke", "--repetitions", "1", "--warmup", "0", "--allow-debug", "--quiet",
                           "--no-advice", "--no-history", "--output", "small2"], cwd=work, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        sys.exit(f"bad_input_sweep: could not make the second fixture run (exit {done.returncode}):\n{done.stderr[-2000:]}")
    if not (work / "hist.sqlite").exists():
        # A debug build's run is not added to the history: merge a copy marked release into it instead.
        shutil.copytree(work / "small", work / "small-as-release")
        info = json.loads((work / "small-as-release" / "run.json").read_text())
        info["buildConfiguration"] = "release"
        (work / "small-as-release" / "run.json").write_text(json.dumps(info))
        merged = subprocess.run([bench, "merge", "merged", "small-as-release", "--history", "hist.sqlite"], cwd=work,
                                capture_output=True, text=True, timeout=300)
        shutil.rmtree(work / "small-as-release")
        shutil.rmtree(work / "merged", ignore_errors=True)
        if not (work / "hist.sqlite").exists():
            sys.exit(f"bad_input_sweep: could not make the fixture history (exit {merged.returncode}):\n{merged.stderr[-2000:]}")


def remove_tree(path: Path) -> None:
    def unlock(function, target, _):
        try:
            os.chmod(target, 0o700)
            parent = os.path.dirname(target)
            os.chmod(parent, 0o700)
            function(target)
        except OSError:
            pass
    for current, dirs, files in os.walk(path):
        for name in dirs:
            try:
                os.chmod(os.path.join(current, name), 0o700)
            except OSError:
                pass
    shutil.rmtree(path, onerror=unlock)


def main() -> int:
    parser = argparse.ArgumentParser(description="Run bench over bad inputs and check each gets one line and the right exit code.")
    parser.add_argument("--bench", help="the bench binary (default: .build/release/bench, else .build/debug/bench)")
    parser.add_argument("--only", action="append", default=[], help="run only cases whose name contains this (repeatable)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per case (default 60)")
    parser.add_argument("--mem-limit-mib", type=int, default=4096,
                        help="address-space limit per case in MiB, so that a runaway size cannot exhaust a shared machine (0: none)")
    parser.add_argument("--keep", action="store_true", help="keep the working folder and print its path")
    parser.add_argument("--strict-multiline", action="store_true", help="count MULTI (ArgumentParser usage blocks) as failures")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args()

    table = cases()
    if args.only:
        table = [case for case in table if any(text in case.name for text in args.only)]
    if args.list:
        for case in table:
            print(f"{case.name:55} expect {'/'.join(map(str, case.expect)):6} {' '.join(sh_quote(a) for a in case.argv)}")
        print(f"{len(table)} cases")
        return 0
    bench = find_bench(args.bench)
    drop_dac = os.geteuid() == 0 and shutil.which("setpriv") is not None
    work = Path(tempfile.mkdtemp(prefix="bench-bad-input-"))
    mounts: list = []
    results = []
    try:
        prepare(work, bench)
        print(f"bench: {bench}\nworking folder: {work}" + ("  (run without DAC override: root, file modes enforced)" if drop_dac else ""))
        for index, case in enumerate(table):
            status, result, problems, argv = run_case(bench, case, work, index, args.timeout, args.mem_limit_mib, drop_dac, mounts)
            results.append((case, status, result, problems, argv))
            rc = "-" if result is None else ("T/O" if result.timed_out else str(result.rc))
            shown = " ".join(sh_quote(a) for a in argv) if argv else " ".join(sh_quote(a) for a in case.argv)
            line = first_line(result.stderr) if result else (problems[0] if problems else "")
            print(f"{status:5} {case.name:50} exit {rc:>4}  bench {shown}\n      stderr: {line}"
                  + ("".join(f"\n      problem: {p}" for p in problems) if status == "FAIL" else ""), flush=True)
    finally:
        for mount in reversed(mounts):
            subprocess.run(["umount", "-l", str(mount)], capture_output=True)
        if args.keep:
            print(f"kept {work}")
        else:
            remove_tree(work)

    failed = [r for r in results if r[1] == "FAIL"]
    multi = [r for r in results if r[1] == "MULTI"]
    skipped = [r for r in results if r[1] == "SKIP"]
    if failed:
        print("\n==== FAILURES ====")
        for case, status, result, problems, argv in failed:
            print(f"\n--- {case.name}" + (f"  ({case.why})" if case.why else ""))
            print("argv:   bench " + " ".join(sh_quote(a) for a in argv))
            print(f"exit:   {'timeout' if result.timed_out else result.rc}   expected {'/'.join(map(str, case.expect))}")
            for problem in problems:
                print(f"problem: {problem}")
            lines = result.stderr.splitlines()
            print(f"stderr ({len(lines)} lines):")
            for line in lines[:20]:
                print("  | " + (line if len(line) <= 200 else line[:197] + "..."))
    if multi:
        print("\n==== MULTI-LINE (ArgumentParser usage errors) ====")
        for case, status, result, problems, argv in multi:
            print(f"{case.name}: exit {result.rc}, {len(result.stderr.splitlines())} lines: {first_line(result.stderr)}")
    if skipped:
        print("\n==== SKIPPED ====")
        for case, status, result, problems, argv in skipped:
            print(f"{case.name}: {problems[0] if problems else ''}")
    passed = sum(1 for r in results if r[1] == "PASS")
    print(f"\n{len(results)} cases: {passed} passed, {len(failed)} failed, {len(multi)} multi-line, {len(skipped)} skipped")
    bad = failed or (args.strict_multiline and multi)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
