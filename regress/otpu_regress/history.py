"""History across runs in an SQLite database: every run and every test's result, so a run can
say what is new since the one before, what was fixed, what still fails (since when) and which
tests are flaky (pass and fail on the same input). The database is checked when it is opened,
before any test runs: an SQLite file with only otpu-regress's tables (or a new one), writable
when a run will write it, every row of it one otpu-regress wrote (_check_rows: all of it, when it
is opened, so that a tampered row is bad input found before the first test, not after the
last); rows are checked again as they are read."""
import json
import math
import os
import sqlite3

from . import files, outputs, schema
from .errors import UsageError
from .outcome import KINDS
from .text import visible

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, started TEXT NOT NULL, out TEXT, suites TEXT,
  tests INTEGER, passed INTEGER, failed INTEGER, wall REAL, coverage REAL, by_kind TEXT);
CREATE TABLE IF NOT EXISTS results (
  run INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, status TEXT NOT NULL,
  kind TEXT, message TEXT, input_hash TEXT, PRIMARY KEY (run, name));
CREATE TABLE IF NOT EXISTS buckets (
  run INTEGER NOT NULL REFERENCES runs(id), key TEXT NOT NULL, words TEXT NOT NULL,
  count INTEGER NOT NULL, PRIMARY KEY (run, key));
"""
# (buckets: added after the first databases were written; opening one of those for a run adds
# the table, and its earlier runs count as runs whose buckets are not known)
COLUMNS = {"runs": ["id", "started", "out", "suites", "tests", "passed", "failed", "wall",
                    "coverage", "by_kind"],
           "results": ["run", "name", "status", "kind", "message", "input_hash"],
           "buckets": ["run", "key", "words", "count"]}
TABLES = set(COLUMNS) | {"sqlite_sequence"}  # (AUTOINCREMENT's)
HEADER = b"SQLite format 3\0"
NOTHING = 1 << 62  # SQLite reads the pages it needs: a database has no size bound


class HistoryError(UsageError):
    """a database that cannot be opened or is not otpu-regress history"""


def _check_file(path, create):
    if os.path.isdir(path):
        raise HistoryError(f"--db {path}: a folder, not a database file")
    if not os.path.lexists(path):
        if not create:
            raise HistoryError(f"{path}: no history database (otpu-regress run --db "
                               "writes one)")
        if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            raise HistoryError(f"--db {path}: its folder does not exist")
        return
    with files.open_checked(path, NOTHING) as f:
        head = f.read(len(HEADER))
    if head and head != HEADER:  # (an empty file is a new database to SQLite)
        raise HistoryError(f"--db {path}: not an SQLite database")


def connect(path, create=True):
    """the checked history database at path (with create: made if missing, and writable)"""
    _check_file(path, create)
    try:
        db = sqlite3.connect(path, timeout=10)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables - TABLES:
            raise HistoryError(f"--db {path}: another program's database (tables "
                               f"{', '.join(sorted(map(str, tables - TABLES)))})")
        for t in sorted(tables & set(COLUMNS)):
            if [r[1] for r in db.execute(f"PRAGMA table_info({t})")] != COLUMNS[t]:
                raise HistoryError(f"--db {path}: table {t} is not otpu-regress's")
        _check_rows(db, path, tables)
        if create:
            db.executescript(SCHEMA)
            db.execute("BEGIN IMMEDIATE")  # writable: a row written and taken back
            db.execute("INSERT INTO runs (started) VALUES ('probe')")
            db.rollback()
        return db
    except sqlite3.Error as e:
        raise HistoryError(f"--db {path}: not a usable otpu-regress history database "
                           f"({e})") from None


def _count(v):
    return type(v) is int and 0 <= v < 1 << 62


def _text(v):
    return type(v) is str and len(v) <= 1 << 20


def _opt(test):
    return lambda v: v is None or test(v)


def _real(hi):
    return lambda v: type(v) in (int, float) and math.isfinite(v) and 0 <= v <= hi


# what otpu-regress writes into each column (record below): every row is held to it when the
# database is opened, before the first test, so that a row it did not write is found then
ROW = {"runs": (_count, _text, _opt(_text), _opt(_text), _opt(_count), _opt(_count),
                _opt(_count), _opt(_real(1e12)), _opt(_real(100)),
                _opt(lambda v: _by_kind(v, None) is not None)),
       "results": (_count, _text, lambda v: v in ("pass", "fail"), _opt(lambda v: v in KINDS),
                   _opt(_text), _opt(_text)),
       "buckets": (_count, _text, _text, _count)}


def _check_rows(db, path, tables):
    """HistoryError naming the first row of the tables (those of ROW there) that otpu-regress
    did not write: a value of another type or range, a result's kind that is not its status's,
    a run's counts that do not add up, a result or bucket of no run"""
    for t in sorted(tables & set(ROW)):
        for row in db.execute(f"SELECT {', '.join(COLUMNS[t])} FROM {t}"):
            ok = all(test(v) for test, v in zip(ROW[t], row))
            if ok and t == "results":
                ok = (row[2] == "pass") == (row[3] is None)
            if ok and t == "runs" and None not in row[4:7]:
                ok = row[5] + row[6] <= row[4]
            if not ok:
                raise HistoryError(f"--db {path}: the history database holds a row "
                                   f"otpu-regress did not write (table {t}: "
                                   f"{visible(repr(row))[:80]})")
        if t != "runs" and db.execute(f"SELECT COUNT(*) FROM {t} WHERE run NOT IN "
                                      "(SELECT id FROM runs)").fetchone()[0]:
            raise HistoryError(f"--db {path}: the history database holds a row otpu-regress "
                               f"did not write (table {t}: a row of no run)")


def _rows(db, sql, args, *types):
    """the rows of a query, each value of the type given for its column"""
    rows = db.execute(sql, args).fetchall()
    for r in rows:
        if any(not isinstance(v, t) or isinstance(v, bool) for v, t in zip(r, types)):
            raise HistoryError(f"the history database holds a row otpu-regress did not write: "
                               f"{visible(repr(r))[:80]}")
    return rows


def last_run(db, before=None):
    q = "SELECT id FROM runs" + (" WHERE id < ?" if before else "") + " ORDER BY id DESC LIMIT 1"
    rows = _rows(db, q, (before,) if before else (), int)
    return rows[0][0] if rows else None


def results_of(db, run):
    return {n: (s, k) for n, s, k in
            _rows(db, "SELECT name, status, kind FROM results WHERE run = ?", (run,), str, str,
                  (str, type(None)))}


def failing_since(db, name, run):
    """the start time of the run that began the test's current streak of failures"""
    since = None
    for rid, started, status in _rows(
            db, "SELECT runs.id, runs.started, results.status FROM results JOIN runs ON "
            "runs.id = results.run WHERE results.name = ? AND runs.id <= ? ORDER BY runs.id "
            "DESC", (name, run), int, str, str):
        if status == "pass":
            break
        since = started
    return since


def changes(db, now, prev):
    """{new_failures, fixed, still_failing} of result map now against the run prev"""
    before = results_of(db, prev) if prev else {}

    def failing(m, n):
        return n in m and m[n][0] != "pass"
    return {"new_failures": sorted(n for n in now if failing(now, n) and not failing(before, n)),
            "fixed": sorted(n for n in now if not failing(now, n) and failing(before, n)),
            "still_failing": sorted(n for n in now if failing(now, n) and failing(before, n))}


def _journal(out):
    return os.path.join(out, "work", "history.json")


def mine(db, out, run):
    """the id of the run's row when an earlier attempt at its end recorded it (a run resumed
    after it was killed between that and results.json: resume.py), else None: the row after the
    last one that attempt saw (out/work/history.json, written before it recorded), of the run's
    start and folder (no other run writes into its folder: the lock)"""
    try:
        doc = schema.parse(files.read_text(_journal(out), files.OTHER), _journal(out))
    except (files.BadFile, schema.Invalid):
        return None
    after = doc.get("after") if isinstance(doc, dict) else None
    if not _count(after):
        return None
    rows = _rows(db, "SELECT id FROM runs WHERE id > ? AND started = ? AND out = ? ORDER BY id "
                 "LIMIT 1", (after, run["started"], visible(run.get("out"))), int)
    return rows[0][0] if rows else None


def record_once(db, out, run, tests, summary, recorded):
    """the run appended unless recorded (mine's id), the last run before it noted first"""
    if recorded:
        return recorded
    os.makedirs(os.path.dirname(_journal(out)), exist_ok=True)
    outputs.write(_journal(out), json.dumps({"after": last_run(db) or 0}))
    return record(db, run, tests, summary)


def record(db, run, tests, summary):
    """append a run; its id"""
    cov = summary["coverage"]["percent"] if summary.get("coverage") else None
    with db:
        cur = db.execute(
            "INSERT INTO runs (started, out, suites, tests, passed, failed, wall, coverage, "
            "by_kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (run["started"], visible(run.get("out")), json.dumps(run["suites"]),
             summary["tests"], summary["passed"], summary["failed"], run["wall_time"], cov,
             json.dumps(summary["by_kind"])))
        db.executemany(
            "INSERT INTO results (run, name, status, kind, message, input_hash) VALUES "
            "(?, ?, ?, ?, ?, ?)", [(cur.lastrowid, t["name"], t["status"], t["kind"],
                                    t["message"], t["input_hash"]) for t in tests])
        db.executemany("INSERT INTO buckets (run, key, words, count) VALUES (?, ?, ?, ?)",
                       [(cur.lastrowid, b["key"], b["words"], b["count"])
                        for b in summary.get("buckets") or []])
    return cur.lastrowid


def _by_kind(text, bad=HistoryError):
    """a run's failures by kind ({kind: n}) from its column; not otpu-regress's: bad raised
    (None: returned)"""
    try:
        d = schema.parse(text or "{}", "by_kind")
    except schema.Invalid:
        d = None
    if not (isinstance(d, dict) and all(isinstance(k, str) and _count(v) for k, v in d.items())):
        if bad is None:
            return None
        raise bad("the history database holds a run whose failures by kind are not "
                  f"otpu-regress's: {visible(text)[:80]}")
    return d


def recent_runs(db, k=30):
    rows = _rows(db, "SELECT id, started, tests, passed, failed, by_kind, coverage FROM runs "
                 "ORDER BY id DESC LIMIT ?", (k,), int, str, int, int, int, (str, type(None)),
                 (int, float, type(None)))
    return [{"id": i, "started": s, "tests": t, "passed": p, "failed": f,
             "by_kind": _by_kind(b), "coverage_percent": c}
            for i, s, t, p, f, b, c in reversed(rows)]


def flaky(db, runs=30):
    """tests that passed and failed on the same input within the last runs"""
    first = _rows(db, "SELECT MIN(id) FROM (SELECT id FROM runs ORDER BY id DESC LIMIT ?)",
                  (runs,), (int, type(None)))[0][0] or 0
    return [r[0] for r in _rows(
        db, "SELECT name FROM results WHERE run >= ? GROUP BY name, input_hash "
        "HAVING SUM(status = 'pass') > 0 AND SUM(status != 'pass') > 0 ORDER BY name",
        (first,), str)]


def report(db, runs=30):
    """the history command's text: the latest run against the one before"""
    cur = last_run(db)
    if cur is None:
        return "no run recorded yet\n"
    started = _rows(db, "SELECT started FROM runs WHERE id = ?", (cur,), str)[0][0]
    prev = last_run(db, cur)
    ch = changes(db, results_of(db, cur), prev)
    out = [f"run {cur} ({started})" + (f" against run {prev}" if prev else " (the first run)")]
    out.append(f"new failures: {len(ch['new_failures'])}")
    out += [f"  {n}" for n in ch["new_failures"]]
    out.append(f"fixed: {len(ch['fixed'])}")
    out += [f"  {n}" for n in ch["fixed"]]
    out.append(f"still failing: {len(ch['still_failing'])}")
    out += [f"  {n} (failing since {failing_since(db, n, cur)})" for n in ch["still_failing"]]
    fl = flaky(db, runs)
    out.append(f"flaky (pass and fail on the same input, last {runs} runs): {len(fl)}")
    out += [f"  {n}" for n in fl]
    out += bucket_report(db, cur, prev)
    return "\n".join(out) + "\n"


# --- buckets (buckets.py): a night's failures by signature, tracked across nights ------------

def has_buckets(db):
    """the database has the buckets table (one written before buckets has not, until a run)"""
    return bool(db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                           "name = 'buckets'").fetchone())


def buckets_of(db, run):
    """{key: (words, count)} of a recorded run; None when its buckets are not known (it
    failed tests but was recorded before the buckets table)"""
    rows = _rows(db, "SELECT key, words, count FROM buckets WHERE run = ?", (run,), str, str,
                 int) if has_buckets(db) else []
    failed = _rows(db, "SELECT failed FROM runs WHERE id = ?", (run,), (int, type(None)))
    if not rows and failed and failed[0][0]:
        return None
    return {k: (w, c) for k, w, c in rows}


def _first_seen(db, key, before=None):
    """the start of the first run before run id `before` (or of any run) with this bucket"""
    rows = _rows(db, "SELECT runs.started FROM buckets JOIN runs ON runs.id = buckets.run "
                 "WHERE buckets.key = ?" + (" AND runs.id < ?" if before else "") +
                 " ORDER BY runs.id LIMIT 1", (key, before) if before else (key,), str)
    return rows[0][0] if rows else None


def _unknown_runs(db, before=None):
    """how many runs (before run id `before`) failed tests and have no bucket recorded"""
    q = ("SELECT COUNT(*) FROM runs WHERE failed > 0" + (" AND id < ?" if before else "") +
         (" AND id NOT IN (SELECT run FROM buckets)" if has_buckets(db) else ""))
    return _rows(db, q, (before,) if before else (), int)[0][0]


def annotate(db, groups, started, before=None):
    """each BUCKET's first_seen (the first run that had it; this one, started, if none did)
    and new (no recorded run had it; None when runs from before bucket history might have);
    before: only the runs recorded before this run id count"""
    unknown = _unknown_runs(db, before)
    for b in groups:
        first = _first_seen(db, b["key"], before)
        b["first_seen"] = first or started
        b["new"] = False if first else (None if unknown else True)


def bucket_report(db, cur, prev):
    """the history command's lines of buckets: the latest run's, new, back and gone"""
    now = buckets_of(db, cur)
    if now is None:
        return ["buckets: not recorded (the run predates bucket history)"]
    before = buckets_of(db, prev) if prev else {}
    out = [f"buckets: {len(now)}"]
    new = [k for k in sorted(now) if _first_seen(db, k, cur) is None]
    back = [k for k in sorted(now) if k not in new and before is not None and k not in before]
    out.append(f"new buckets (first seen in this run): {len(new)}" +
               (" (runs before bucket history may have had them)"
                if new and _unknown_runs(db, cur) else ""))
    out += [f"  {k} ({now[k][1]}): {now[k][0]}" for k in new]
    if back:
        out.append(f"back (not in the run before): {len(back)}")
        out += [f"  {k} ({now[k][1]}, first seen {_first_seen(db, k, cur)})" for k in back]
    if before is None:
        out.append("gone buckets: not known (the run before predates bucket history)")
    else:
        gone = sorted(set(before) - set(now))
        out.append(f"gone buckets (in the run before, not in this one): {len(gone)}")
        out += [f"  {k} (had {before[k][1]}): {before[k][0]}" for k in gone]
    return out
