#!/usr/bin/env python3
"""Writes a large synthetic SQLDebug log (level 2) for throughput tests: python3 scripts/dev/generate_sqldebug_log.py OUT SIZE_MB.

With --distinct N (python3 scripts/dev/generate_sqldebug_log.py OUT 0 --distinct 300000) it writes N statements that are
all different (each reads another table's columns: a fetch, a fault or a to-many fault, with binds and annotations),
the worst case for the reader's per-statement work.

The mix follows real logs: object faults, to-many faults, fetches with prefetches, counts, saves with inserts and
updates, binds in every format, interleaved app output, NSLog- and `log show`-prefixed lines, RelBench markers.
Deterministic (seeded). Do not commit the output.
"""
import random
import sys

out_path = sys.argv[1]
target = int(float(sys.argv[2]) * 1_000_000)
distinct = int(sys.argv[sys.argv.index("--distinct") + 1]) if "--distinct" in sys.argv else 0
rng = random.Random(42)
UUID = "0DD5D133-23A2-45D1-AB49-5EDA1FBE9877"

def prefix(kind):
    if kind == 0:
        return ""
    if kind == 1:
        return "2024-05-01 10:%02d:%02d.%03d My App[3913:c07] " % (rng.randrange(60), rng.randrange(60), rng.randrange(1000))
    return ("2024-05-01 10:00:00.%06d-0700 0x724d65   Default     0x0                  18248  0    My App: (CoreData) "
            "[com.apple.coredata:sql] " % rng.randrange(1000000))

def t():
    return "%.4fs" % (rng.random() * 0.002)

def object_fault(p):
    pk = rng.randrange(1, 100000)
    return [
        p + "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZSTUDENT FROM ZADDRESS t0 WHERE  t0.Z_PK = ?  LIMIT 1",
        p + "CoreData: details: SQLite bind[0] = (int64)%d" % pk,
        p + "CoreData: annotation: sql connection fetch time: " + t(),
        p + "CoreData: annotation: total fetch execution time: %s for 1 rows." % t(),
        p + "CoreData: annotation: fault fulfilled from database for : 0xa001%012x <x-coredata://%s/Address/p%d>" % (pk, UUID, pk),
    ]

def to_many(p):
    pk = rng.randrange(1, 5000)
    rows = rng.randrange(0, 60)
    return [
        p + "CoreData: sql: SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE  t0.ZCLASS = ? ",
        p + "CoreData: details: SQLite bind[0] = (int64)%d" % pk,
        p + "CoreData: annotation: sql connection fetch time: " + t(),
        p + "CoreData: annotation: total fetch execution time: %s for %d rows." % (t(), rows),
        p + 'CoreData: annotation: to-many relationship fault "students" for objectID 0xa002%012x <x-coredata://%s/Class/p%d> '
            "fulfilled from database.  Got %d rows" % (pk, UUID, pk, rows),
    ]

def fetch_with_prefetch(p):
    rows = rng.randrange(1, 200)
    members = rng.randrange(0, 2000)
    return [
        p + "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZID, t0.ZNAME FROM ZCLASS t0 WHERE  t0.ZNAME LIKE ? ORDER BY t0.ZNAME",
        p + 'CoreData: details: SQLite bind[0] = "Class %d%%"' % rng.randrange(100),
        p + "CoreData: annotation: sql connection fetch time: " + t(),
        p + "CoreData: annotation: Bound intarray _Z_intarray0",
        p + "CoreData: annotation: Bound intarray values.",
        p + "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZADDRESS, t0.ZCLASS FROM ZSTUDENT t0 WHERE  t0.ZCLASS IN "
            "(SELECT * FROM _Z_intarray0)  ORDER BY t0.ZCLASS",
        p + "CoreData: annotation: sql connection fetch time: " + t(),
        p + "CoreData: annotation: total fetch execution time: %s for %d rows." % (t(), members),
        p + "CoreData: annotation: Prefetching with key 'students'.  Got %d rows." % members,
        p + "CoreData: annotation: total fetch execution time: %s for %d rows." % (t(), rows),
    ]

def count(p):
    return [
        p + "CoreData: sql: SELECT COUNT( DISTINCT t0.Z_PK) FROM ZSTUDENT t0 WHERE  t0.ZNAME = ?",
        p + 'CoreData: details: SQLite bind[0] = "Student %d"' % rng.randrange(100000),
        p + "CoreData: annotation: sql connection fetch time: " + t(),
        p + "CoreData: annotation: total count request execution time: %s for count of %d." % (t(), rng.randrange(10)),
    ]

def save(p):
    lines = [p + "CoreData: sql: BEGIN EXCLUSIVE",
             p + "CoreData: sql: SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
             p + "CoreData: details: SQLite bind[0] = (int64)3",
             p + "CoreData: annotation: sql execution time: " + t(),
             p + "CoreData: sql: UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
             p + "CoreData: details: SQLite bind[0] = (int64)%d" % rng.randrange(100000),
             p + "CoreData: details: SQLite bind[1] = (int64)3",
             p + "CoreData: details: SQLite bind[2] = (int64)%d" % rng.randrange(100000),
             p + "CoreData: sql: COMMIT",
             p + "CoreData: sql: BEGIN EXCLUSIVE"]
    for _ in range(rng.randrange(1, 8)):
        lines += [p + "CoreData: sql: INSERT INTO ZSTUDENT(Z_PK, Z_ENT, Z_OPT, ZADDRESS, ZCLASS, ZNAME, ZBIRTHDAY, ZPHOTO) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                  p + "CoreData: details: SQLite bind[0] = (int64)%d" % rng.randrange(100000),
                  p + "CoreData: details: SQLite bind[1] = (int64)3",
                  p + "CoreData: details: SQLite bind[2] = (int64)1",
                  p + "CoreData: details: SQLite bind[3] = nil",
                  p + "CoreData: details: SQLite bind[4] = (int64)%d" % rng.randrange(5000),
                  p + 'CoreData: details: SQLite bind[5] = "Student %d"' % rng.randrange(100000),
                  p + "CoreData: details: SQLite bind[6] = (timestamp)%f" % (rng.random() * 7e8),
                  p + "CoreData: details: SQLite bind[7] = <NSData len=16>"]
    lines += [p + "CoreData: sql: UPDATE OR FAIL ZCLASS SET ZNAME = ?, Z_OPT = ?  WHERE Z_PK = ? AND Z_OPT = ?",
              p + 'CoreData: details: SQLite bind[0] = "Class %d"' % rng.randrange(1000),
              p + "CoreData: details: SQLite bind[1] = (int64)2",
              p + "CoreData: details: SQLite bind[2] = (int64)%d" % rng.randrange(5000),
              p + "CoreData: details: SQLite bind[3] = (int64)1",
              p + "CoreData: sql: COMMIT",
              p + "CoreData: sql: pragma page_count",
              p + "CoreData: annotation: sql execution time: " + t(),
              p + "CoreData: sql: pragma freelist_count",
              p + "CoreData: annotation: sql execution time: " + t()]
    return lines

def app(p):
    return ["Loaded %d rows in %.1f ms" % (rng.randrange(1000), rng.random() * 100)]

def distinct_statement(i, p):
    """Statement i of the --distinct log: its own table and columns, so that no two fingerprints are equal."""
    table = "ZENTITY%d" % i
    pk = rng.randrange(1, 100000)
    shape = i % 3
    if shape == 0:
        return [
            p + "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME%d, t0.ZTITLE%d FROM %s t0 WHERE  t0.ZSCORE%d > ? ORDER BY t0.ZNAME%d" % (i, i, table, i, i),
            p + "CoreData: details: SQLite bind[0] = (int64)%d" % rng.randrange(1000),
            p + "CoreData: annotation: sql connection fetch time: " + t(),
            p + "CoreData: annotation: total fetch execution time: %s for %d rows." % (t(), rng.randrange(50)),
        ]
    if shape == 1:
        return [
            p + "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZLABEL%d FROM %s t0 WHERE  t0.Z_PK = ?  LIMIT 1" % (i, table),
            p + "CoreData: details: SQLite bind[0] = (int64)%d" % pk,
            p + "CoreData: annotation: sql connection fetch time: " + t(),
            p + "CoreData: annotation: total fetch execution time: %s for 1 rows." % t(),
            p + "CoreData: annotation: fault fulfilled from database for : 0xa001%012x <x-coredata://%s/Entity%d/p%d>" % (pk, UUID, i, pk),
        ]
    rows = rng.randrange(0, 30)
    return [
        p + "CoreData: sql: SELECT 0, t0.Z_PK FROM %s t0 WHERE  t0.ZOWNER%d = ? " % (table, i),
        p + "CoreData: details: SQLite bind[0] = (int64)%d" % pk,
        p + "CoreData: annotation: sql connection fetch time: " + t(),
        p + "CoreData: annotation: total fetch execution time: %s for %d rows." % (t(), rows),
        p + 'CoreData: annotation: to-many relationship fault "items%d" for objectID 0xa002%012x <x-coredata://%s/Owner%d/p%d> '
            "fulfilled from database.  Got %d rows" % (i, pk, UUID, i, pk, rows),
    ]

if distinct:
    with open(out_path, "w") as out:
        buffer = []
        for i in range(distinct):
            if i % 1000 == 0:
                if i:
                    buffer.append("RelBench: end part %d" % (i // 1000))
                buffer.append("RelBench: begin part %d" % (i // 1000 + 1))
            p = prefix(0 if rng.random() < 0.6 else (1 if rng.random() < 0.7 else 2))
            buffer += distinct_statement(i, p)
            if len(buffer) > 20_000:
                out.write("\n".join(buffer) + "\n")
                buffer = []
        buffer.append("RelBench: end part %d" % ((distinct - 1) // 1000 + 1))
        out.write("\n".join(buffer) + "\n")
    print("wrote", out_path)
    sys.exit(0)

kinds = [(object_fault, 40), (to_many, 20), (fetch_with_prefetch, 10), (count, 5), (save, 10), (app, 15)]
table = [k for k, w in kinds for _ in range(w)]
written = 0
segment = 0
with open(out_path, "w") as out:
    buffer = []
    size = 0
    while written < target:
        if rng.randrange(2000) == 0:
            if segment:
                buffer.append("RelBench: end phase %d" % segment)
            segment += 1
            buffer.append("RelBench: begin phase %d" % segment)
        p = prefix(0 if rng.random() < 0.6 else (1 if rng.random() < 0.7 else 2))
        for line in rng.choice(table)(p):
            buffer.append(line)
            size += len(line) + 1
        if size > 4_000_000:
            text = "\n".join(buffer) + "\n"
            out.write(text)
            written += len(text.encode())
            buffer = []
            size = 0
    if buffer:
        out.write("\n".join(buffer) + "\n")
print("wrote", out_path)
