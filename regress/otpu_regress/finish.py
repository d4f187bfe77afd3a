"""The end of a run (or of merged shards): coverage merged, the failures' buckets made (their
shrunk repros placed), the history compared and appended, the result files and the page
written, one summary on the log. results.json is written last: a folder that has it holds a
run that ended; one killed before it is ended again by a resumed run (resume.py), which finds
the history row an earlier attempt wrote (history.mine) instead of writing a second."""
import os
import shutil

from . import buckets, coverage, history, html, report, waivers


def finish(out, run, tests, db, cov_tool, cov_files, log, *, code_cov=None, shrinker=None,
           waiver_list=()):
    """coverage, history (db: an open history database, or None), the files and the page of a
    run (or of merged shards); the run's exit status. code_cov: the RTL code coverage to write
    (codecov.Night or codecov.Shards), or None. shrinker: the run's buckets.Shrinker (a merge
    takes its shards' shrunk repros); waiver_list: the waivers (waivers.py) to apply, which
    decide the exit status: 0 when every failure is waived"""
    tests = sorted(tests, key=lambda t: t["name"])
    buckets.assign(tests)
    applied = waivers.apply(waiver_list, tests)
    cov = coverage.of(cov_tool, cov_files, out, log)
    now = {t["name"]: (t["status"], t["kind"]) for t in tests}
    ours = history.mine(db, out, run) if db else None  # (the changes are against the runs before)
    changes = history.changes(db, now, history.last_run(db, ours)) if db else \
        {"new_failures": [], "fixed": [], "still_failing": []}
    groups = buckets.group(tests)
    buckets.settle(out, run, groups, shrinker, log)
    changes.update(buckets.changes(db, groups, run["started"], ours))
    summary = report.summarize(run, tests, cov, changes, groups, applied)
    buckets.write(out, groups)
    summary["code_coverage"] = code_cov.write(out, tests, log) if code_cov else None
    report.write_all(out, run, tests, summary)
    if db:
        history.record_once(db, out, run, tests, summary, ours)
    html.write_index(out, summary, tests, history.recent_runs(db) if db else [])
    report.write_results(out, run, tests)
    shutil.rmtree(os.path.join(out, "work"), ignore_errors=True)
    log(report.summary_text(summary).rstrip())
    fails = report.failure_lines(tests)
    for line in fails[:20]:
        log(line)
    if len(fails) > 20:
        log(f"... and {len(fails) - 20} more failures (summary.txt, index.html)")
    log(f"otpu-regress: {os.path.join(out, 'index.html')}")
    return 0 if summary["failed"] == 0 else 1
