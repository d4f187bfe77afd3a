"""History across runs in an SQLite database: every run and every test's result, so a run can
say what is new since the one before, what was fixed, what still fails (since when) and which
tests are flaky (pass and fail on the same input)."""
import json
import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, started TEXT NOT NULL, out TEXT, suites TEXT,
  tests INTEGER, passed INTEGER, failed INTEGER, wall REAL, coverage REAL, by_kind TEXT);
CREATE TABLE IF NOT EXISTS results (
  run INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, status TEXT NOT NULL,
  kind TEXT, message TEXT, input_hash TEXT, PRIMARY KEY (run, name));
"""


class HistoryError(Exception):
    """a database that cannot be opened or is not otpu-regress history"""


def connect(path):
    try:
        db = sqlite3.connect(path)
        db.executescript(SCHEMA)
        return db
    except sqlite3.Error as e:
        raise HistoryError(f"{path}: not a usable otpu-regress history database ({e})") from None


def last_run(db, before=None):
    q = "SELECT id FROM runs" + (" WHERE id < ?" if before else "") + " ORDER BY id DESC LIMIT 1"
    row = db.execute(q, (before,) if before else ()).fetchone()
    return row[0] if row else None


def results_of(db, run):
    return {n: (s, k) for n, s, k in
            db.execute("SELECT name, status, kind FROM results WHERE run = ?", (run,))}


def failing_since(db, name, run):
    """the start time of the run that began the test's current streak of failures"""
    since = None
    for rid, started, status in db.execute(
            "SELECT runs.id, runs.started, results.status FROM results JOIN runs ON "
            "runs.id = results.run WHERE results.name = ? AND runs.id <= ? ORDER BY runs.id "
            "DESC", (name, run)):
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


def record(db, run, tests, summary):
    """append a run; its id"""
    cov = summary["coverage"]["percent"] if summary.get("coverage") else None
    with db:
        cur = db.execute(
            "INSERT INTO runs (started, out, suites, tests, passed, failed, wall, coverage, "
            "by_kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (run["started"], run.get("out"), json.dumps(run["suites"]), summary["tests"],
             summary["passed"], summary["failed"], run["wall_time"], cov,
             json.dumps(summary["by_kind"])))
        db.executemany(
            "INSERT INTO results (run, name, status, kind, message, input_hash) VALUES "
            "(?, ?, ?, ?, ?, ?)", [(cur.lastrowid, t["name"], t["status"], t["kind"],
                                    t["message"], t["input_hash"]) for t in tests])
    return cur.lastrowid


def recent_runs(db, k=30):
    rows = db.execute("SELECT id, started, tests, passed, failed, by_kind, coverage FROM runs "
                      "ORDER BY id DESC LIMIT ?", (k,)).fetchall()
    return [{"id": i, "started": s, "tests": t, "passed": p, "failed": f,
             "by_kind": json.loads(b or "{}"), "coverage_percent": c}
            for i, s, t, p, f, b, c in reversed(rows)]


def flaky(db, runs=30):
    """tests that passed and failed on the same input within the last runs"""
    first = db.execute("SELECT MIN(id) FROM (SELECT id FROM runs ORDER BY id DESC LIMIT ?)",
                       (runs,)).fetchone()[0] or 0
    return [r[0] for r in db.execute(
        "SELECT name FROM results WHERE run >= ? GROUP BY name, input_hash "
        "HAVING SUM(status = 'pass') > 0 AND SUM(status != 'pass') > 0 ORDER BY name",
        (first,))]


def report(db, runs=30):
    """the history command's text: the latest run against the one before"""
    cur = last_run(db)
    if cur is None:
        return "no run recorded yet\n"
    started = db.execute("SELECT started FROM runs WHERE id = ?", (cur,)).fetchone()[0]
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
    return "\n".join(out) + "\n"
