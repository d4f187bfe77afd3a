"""The end of a run (or of merged shards): coverage merged, the history compared and
appended, the result files and the page written, one summary on the log."""
import os
import shutil

from . import coverage, history, html, report


def finish(out, run, tests, db, cov_tool, cov_files, log):
    """coverage, history (db: an open history database, or None), the files and the page of a
    run (or of merged shards); the run's exit status"""
    tests = sorted(tests, key=lambda t: t["name"])
    cov = coverage.of(cov_tool, cov_files, out, log)
    now = {t["name"]: (t["status"], t["kind"]) for t in tests}
    changes = history.changes(db, now, history.last_run(db)) if db else \
        {"new_failures": [], "fixed": [], "still_failing": []}
    summary = report.summarize(run, tests, cov, changes)
    report.write_all(out, run, tests, summary)
    if db:
        history.record(db, run, tests, summary)
    html.write_index(out, summary, tests, history.recent_runs(db) if db else [])
    shutil.rmtree(os.path.join(out, "work"), ignore_errors=True)
    log(report.summary_text(summary).rstrip())
    fails = report.failure_lines(tests)
    for line in fails[:20]:
        log(line)
    if len(fails) > 20:
        log(f"... and {len(fails) - 20} more failures (summary.txt, index.html)")
    log(f"otpu-regress: {os.path.join(out, 'index.html')}")
    return 0 if summary["failed"] == 0 else 1
