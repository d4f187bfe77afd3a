"""RTL code coverage of a night (`run --code-coverage`, and `merge` of shards that have it).

Each test runs `otpu-lockstep run --code-coverage FILE`, the RTL's build with Verilator's
--coverage (line, branch and toggle points), which writes the run's points into FILE
(Verilator's .dat). As the tests end, their files are folded into one (`verilator_coverage
--write`, BATCH at a time, so a night of thousands keeps a few files on disk); at the end of the
run (or of a merge: each shard's code-coverage/merged.dat) the output folder gets FOLDER:

    merged.dat     the night's points (verilator_coverage --write of every test's file)
    coverage.info  the lcov tracefile of merged.dat (verilator_coverage --write-info)
    index.html ... the HTML report of coverage.info (genhtml, Debian's lcov)
    tests.json     {"schema": SCHEMA, "tests": N}: how many tests' points merged.dat holds

and the summary its totals per RTL module (totals_of). Every .dat read (a test's, a shard's) must
be a regular file of at most LIMIT bytes in Verilator's format (DAT), else it is refused with
one line: a test's file is left out of the night's (the run goes on and its exit status is the
tests'), a shard's stops the merge before anything is written (exit status 2). The tools are
$VERILATOR_COVERAGE and $GENHTML, else verilator_coverage and genhtml on PATH; either missing
is bad usage (exit 2) before the first test. A tool failing after the tests ran costs the run
its report, with one line saying why (summary.json: code_coverage.error), not its results."""
import hashlib
import html
import json
import os
import re
import shutil
from urllib.parse import quote

from . import files, outputs, procs, schema
from .errors import UsageError
from .names import safe_name
from .text import one_line, visible

FOLDER = "code-coverage"                 # in the output folder
DATA, INFO, TESTS = "merged.dat", "coverage.info", "tests.json"
SCHEMA = "otpu-regress/code-coverage/1"
LIMIT = files.OTHER                      # a .dat (a test's, a shard's merged one), tests.json
BATCH = 50                               # tests' files folded into the night's at once
MAX_REFUSED = 20                         # refusals listed in the summary
# Verilator's coverage data (verilated_cov.cpp writes it): a header, then one point a line,
# C '<keys>' <count>. verilator_coverage reads anything without complaint, so it is checked here.
DAT = re.compile(rb"# SystemC::Coverage-3\n(?:C '[^\n]*' [0-9]{1,20}\n)*")
# (the environment variable, the tool, the Debian package that has it)
TOOLS = (("VERILATOR_COVERAGE", "verilator_coverage", "verilator"),
         ("GENHTML", "genhtml", "lcov"))
# the kinds of point (the page of a point, "v_line/<module>"...) and what the totals call them
KINDS = (("v_line", "blocks"), ("v_branch", "branches"), ("v_toggle", "toggles"))
MEASURES = ("lines", "branches", "toggles")


class CodeCoverageError(Exception):
    """a tool failed after the tests ran: the run has no code-coverage report"""


def tools():
    """{tool: path} of verilator_coverage and genhtml, or UsageError naming the missing one"""
    found = {}
    for var, name, package in TOOLS:
        given = os.environ.get(var) or name
        path = shutil.which(given)
        if not path:
            where = f"{var}={given}" if os.environ.get(var) else f"{var} unset, PATH searched"
            raise UsageError(f"--code-coverage needs {name}, which is not found ({where}): "
                             f"install Debian's {package} (scripts/setup)")
        found[name] = path
    return found


def check_dat(path):
    """a .dat that is a regular file within LIMIT in Verilator's format, else BadFile"""
    if not DAT.fullmatch(files.read_bytes(path, LIMIT)):
        raise files.BadFile(f"{path}: not Verilator coverage data (a '# SystemC::Coverage-3' "
                            "line, then one C '...' COUNT line a point)")


def _tool(cmd):
    """runs a tool in a process group of its own; CodeCoverageError with its last line"""
    status, out, _, _ = procs.run(cmd)
    if status == 0:
        return
    lines = [ln.strip() for ln in (out or "").splitlines() if ln.strip()]
    why = lines[-1] if lines else f"exit status {status}"
    raise CodeCoverageError(f"{os.path.basename(cmd[0])} failed: {one_line(why, 400)}")


def merge(vc, inputs, out):
    """the points of inputs (checked .dat files) summed into out, 200 files at a time"""
    acc, tmp = None, out + ".part"
    for k in range(0, len(inputs), 200):
        _tool([vc, "--write", tmp, *([acc] if acc else []), *inputs[k:k + 200]])
        os.replace(tmp, out)
        acc = out


def points(path):
    """[(keys, count)] of a checked .dat: keys {key: value} (f file, l line, page, o, S...)"""
    text = files.read_bytes(path, LIMIT).decode("utf-8", "surrogateescape")
    out = []
    for line in text.split("\n")[1:-1]:  # (the format's lines end in \n only)
        body, _, count = line[3:].rpartition("' ")
        keys = {}
        for part in body.split("\x01")[1:]:
            k, _, v = part.partition("\x02")
            keys[k] = v
        out.append((keys, int(count)))
    return out


def span_lines(spec):
    """the lines of a point's S key ("31-34,40"), or none (a part that is not one: left out)"""
    lines = set()
    for part in (spec or "").split(","):
        m = re.fullmatch(r"([0-9]{1,9})(?:-([0-9]{1,9}))?", part)
        if m and 0 <= int(m[2] or m[1]) - int(m[1]) < 100000:
            lines.update(range(int(m[1]), int(m[2] or m[1]) + 1))
    return lines


def _figure(hit, total):
    return {"hit": hit, "total": total,
            "percent": round(100.0 * hit / total, 2) if total else None}


def totals_of(path):
    """{"modules": [MODULE...], "total": MEASURES} of a merged .dat, per RTL module (a module's
    parameter specializations, Verilator's "name__...", together):
      lines     the source lines the module's statements are on (the line spans of its line
                and branch points); a line is hit when a point spanning it was hit
      branches  the arms of its if and case statements (an implicit else included) taken
      toggles   the bits of its signals that toggled (Verilator's toggle points)
    None for branches when the data has no branch point at all (an older Verilator)."""
    mods, any_branch = {}, False
    for keys, count in points(path):
        kind, _, page = keys.get("page", "").partition("/")
        if kind not in dict(KINDS):
            continue
        name = page.split("__")[0] or "?"
        m = mods.setdefault(name, {"files": {}, "lines": {}, "branches": [0, 0],
                                   "toggles": [0, 0]})
        f = keys.get("f", "")
        m["files"][f] = m["files"].get(f, 0) + 1
        if kind in ("v_line", "v_branch"):
            for ln in span_lines(keys.get("S")):
                m["lines"][(f, ln)] = m["lines"].get((f, ln), False) or count > 0
        if kind != "v_line":
            any_branch = any_branch or kind == "v_branch"
            pair = m["branches" if kind == "v_branch" else "toggles"]
            pair[0] += count > 0
            pair[1] += 1
    rows, sums = [], {k: [0, 0] for k in MEASURES}
    for name in sorted(mods):
        m = mods[name]
        got = {"lines": [sum(m["lines"].values()), len(m["lines"])],
               "branches": m["branches"], "toggles": m["toggles"]}
        row = {"module": visible(name),
               "file": visible(max(m["files"], key=lambda f: (m["files"][f], f)))}
        for k in MEASURES:
            row[k] = _figure(*got[k]) if k != "branches" or any_branch else None
            sums[k][0] += got[k][0]
            sums[k][1] += got[k][1]
        rows.append(row)
    # the sources named from the folder that holds them all ("rtl/otpu_seq.sv")
    if rows and all(r["file"].startswith("/") for r in rows):
        top = os.path.commonpath([os.path.dirname(r["file"]) for r in rows])
        for r in rows:
            r["file"] = os.path.relpath(r["file"], top)
    total = {k: _figure(*sums[k]) if k != "branches" or any_branch else None for k in MEASURES}
    return {"modules": rows, "total": total}


def publish(out, inputs, merged, tests, tool, log, refused=()):
    """out/FOLDER from inputs (checked .dat files holding the points of `merged` of the `tests`
    tests): merged.dat, coverage.info, the genhtml report, tests.json; the summary's
    code_coverage (SUMMARY in regress/README.md)"""
    final, tmp = os.path.join(out, FOLDER), os.path.join(out, FOLDER + ".tmp")
    for p in (final, tmp):
        shutil.rmtree(p, ignore_errors=True)
    os.makedirs(tmp)
    doc = {"report": None, "tracefile": None, "data": None, "tests": merged,
           "without": tests - merged, "refused": list(refused)[:MAX_REFUSED], "error": None,
           "total": None, "modules": []}
    try:
        if not inputs:
            raise CodeCoverageError("no test wrote code coverage")
        data, info = os.path.join(tmp, DATA), os.path.join(tmp, INFO)
        merge(tool["verilator_coverage"], inputs, data)
        check_dat(data)
        doc.update(totals_of(data))
        with open(os.path.join(tmp, TESTS), "w") as f:
            json.dump({"schema": SCHEMA, "tests": merged}, f)
        _tool([tool["verilator_coverage"], "--write-info", info, data])
        doc.update(data=f"{FOLDER}/{DATA}", tracefile=f"{FOLDER}/{INFO}")
        _tool([tool["genhtml"], "--quiet", "--no-function-coverage", "--title",
               "otpu-regress: RTL code coverage", "--output-directory", tmp, info])
        doc["report"] = f"{FOLDER}/index.html"
    except (CodeCoverageError, files.BadFile) as e:
        doc["error"] = one_line(e, 400)
        log(f"otpu-regress: no code-coverage report: {doc['error']}")
    if doc["data"]:
        os.replace(tmp, final)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return doc


class Night:
    """the code coverage of a run: each test's .dat (path) folded into one as the test ends
    (add), written into the output folder by finish.finish (write). Each fold writes a new
    generation of the night's file, then STATE (which file, the tests folded in: the commit),
    then removes the files folded, so that a kill at any instant leaves the points of each
    test counted once: a resumed run (resume.py) goes on from STATE"""

    STATE = "night.json"

    def __init__(self, out, tool, log, kept=None):
        """kept: the names of the tests a resumed run keeps (None: a new run); the .dat files of
        the others are removed (they run again)"""
        self.tool, self.log = tool, log
        self.work = os.path.join(out, "work", FOLDER)
        os.makedirs(self.work, exist_ok=True)
        self.acc, self.folded, self.error = None, set(), None
        if kept is not None:
            self._resume(kept)
        self.pending, self.refused, self.merged = [], [], len(self.folded)

    def _resume(self, kept):
        path = os.path.join(self.work, self.STATE)
        if os.path.lexists(path):
            doc = schema.parse(files.read_text(path, files.RESULTS), path)
            if not (isinstance(doc, dict) and isinstance(doc.get("tests"), list) and
                    doc.get("data") in (None, *self._generations())):
                raise schema.Invalid(f"{path}: not otpu-regress's")
            self.acc = doc["data"] and os.path.join(self.work, doc["data"])
            self.folded, self.error = set(doc["tests"]) & set(kept), doc.get("error")
        mine = {os.path.basename(self.path(n)) for n in set(kept) - self.folded}
        for name in os.listdir(self.work):  # (a fold's files, or a test that runs again)
            if name != self.STATE and name != os.path.basename(self.acc or "") and \
                    name not in mine:
                os.remove(os.path.join(self.work, name))

    def _generations(self):
        return [n for n in os.listdir(self.work) if re.fullmatch(r"night-[0-9]+\.dat", n)]

    def path(self, name):
        """where the test of this name writes its .dat (unique per name)"""
        digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]
        return os.path.join(self.work, f"{safe_name(name)[:100]}-{digest}.dat")

    def add(self, name):
        """a test ended: its .dat joins the night's (none: it did not run to the end)"""
        p = self.path(name)
        if not os.path.lexists(p) or self.error or name in self.folded:
            return
        try:
            check_dat(p)
            self.pending.append((name, p))
        except files.BadFile as e:
            self.refused.append(one_line(e, 400))
            self.log(f"otpu-regress: code coverage of {visible(name)} left out: {visible(e)}")
        if len(self.pending) >= BATCH:
            self._fold()

    def _fold(self):
        if not self.pending or self.error:
            return
        old, names = self.acc, [n for n, _ in self.pending]
        gen = int(re.search(r"([0-9]+)\.dat$", old)[1]) + 1 if old else 1
        new = os.path.join(self.work, f"night-{gen}.dat")
        try:
            merge(self.tool["verilator_coverage"], ([old] if old else []) +
                  [p for _, p in self.pending], new)
            self.acc = new
            self.folded.update(names)
            self.merged = len(self.folded)
        except CodeCoverageError as e:
            self.error = str(e)
        outputs.write(os.path.join(self.work, self.STATE), json.dumps(
            {"data": self.acc and os.path.basename(self.acc), "tests": sorted(self.folded),
             "error": self.error}))
        for p in [p for _, p in self.pending] + ([old] if old and old != self.acc else []):
            os.remove(p)
        self.pending = []

    def write(self, out, tests, log):
        self._fold()
        if self.error:
            log(f"otpu-regress: no code-coverage report: {self.error}")
            return {"report": None, "tracefile": None, "data": None, "tests": self.merged,
                    "without": len(tests) - self.merged, "refused": self.refused[:MAX_REFUSED],
                    "error": one_line(self.error, 400), "total": None, "modules": []}
        inputs = [self.acc] if self.acc else []
        return publish(out, inputs, self.merged, len(tests), self.tool, log, self.refused)


class Shards:
    """the code coverage of merged shards: each shard's FOLDER (merged.dat, tests.json),
    checked when made (before merge writes anything: BadFile, exit status 2); shards without
    one add no test's points"""

    def __init__(self, shards):
        """shards: (folder, the number of tests it ran) each"""
        self.inputs, self.merged, self.tool = [], 0, None
        for folder, ran in shards:
            d = os.path.join(folder, FOLDER)
            if not os.path.lexists(d):
                continue
            data, meta = os.path.join(d, DATA), os.path.join(d, TESTS)
            check_dat(data)
            try:
                doc = schema.parse(files.read_text(meta, LIMIT), meta)
            except schema.Invalid:
                doc = None
            n = doc.get("tests") if isinstance(doc, dict) and doc.get("schema") == SCHEMA \
                else None
            if type(n) is not int or not 0 <= n <= 1 << 40 or len(doc) != 2:
                raise files.BadFile(f"{meta}: not otpu-regress's {TESTS} "
                                    f'({{"schema": "{SCHEMA}", "tests": N}})')
            if n > ran:  # (its points are of the tests it ran, no more)
                raise files.BadFile(f"{meta}: {n} tests' points, but the shard ran {ran} tests")
            self.inputs.append(data)
            self.merged += n
        if self.inputs:
            self.tool = tools()

    def write(self, out, tests, log):
        if not self.inputs:
            return None
        return publish(out, self.inputs, self.merged, len(tests), self.tool, log)


def _pct(fig):
    if not fig:
        return "n/a"
    p = fig["percent"]
    return f"{'-' if p is None else format(p, '.1f') + '%'} ({fig['hit']:,} of {fig['total']:,})"


def summary_lines(cc):
    """summary.txt's lines of a summary's code_coverage (none without one)"""
    if not cc:
        return []
    head = (f"code coverage: {cc['tests']:,} tests merged, {cc['without']:,} without" +
            (f"; report {cc['report']}" if cc["report"] else "") +
            (f"; no report: {cc['error']}" if cc["error"] else ""))
    lines = [head]
    if cc["total"]:
        lines.append("  total: " + ", ".join(f"{k} {_pct(cc['total'][k])}" for k in MEASURES))
        lines += [f"  {m['module']}: " + ", ".join(f"{k} {_pct(m[k])}" for k in MEASURES)
                  for m in cc["modules"]]
    return lines


def _e(s):
    return html.escape(visible(s))


def _cell(fig):
    if not fig:
        return '<td class="num">n/a</td>'
    p = "&mdash;" if fig["percent"] is None else f"{fig['percent']:.1f} %"
    return f'<td class="num">{fig["hit"]:,} / {fig["total"]:,} ({p})</td>'


def html_total(cc):
    """the Totals list's entry (escaped html)"""
    if not cc:
        return "none (run with --code-coverage)"
    if not cc["total"]:
        return _e(f"none: {cc['error']}")
    t = cc["total"]
    text = ", ".join(f"{k} {_pct(t[k]).split(' (')[0]}" for k in MEASURES)
    return (f'<a href="#code-coverage">{_e(text)}</a>' if not cc["report"] else
            f'<a href="{_e(quote(cc["report"]))}">{_e(text)}</a>')


def html_section(cc):
    """the page's section: links to the report and the files, the totals per module"""
    if not cc:
        return ""
    links = " &middot; ".join(f'<a href="{_e(quote(cc[k]))}">{label}</a>' for k, label in
                              (("report", "the report (genhtml)"),
                               ("tracefile", "lcov tracefile"), ("data", "Verilator's data"))
                              if cc[k])
    parts = [f"<p>{links or 'no report'}; the points of {cc['tests']:,} tests"
             f" ({cc['without']:,} without: they did not run to the end, or their file was "
             "refused)</p>"]
    if cc["error"]:
        parts.append(f'<p class="bad">{_e(cc["error"])}</p>')
    if cc["refused"]:
        parts.append("<details><summary>refused files</summary><ul>" +
                     "".join(f"<li>{_e(r)}</li>" for r in cc["refused"]) + "</ul></details>")
    if cc["total"]:
        head = "".join(f"<th>{h}</th>" for h in ("module", "source", *MEASURES))
        rows = "".join(f'<tr><td>{_e(m["module"])}</td><td>{_e(m["file"])}</td>' +
                       "".join(_cell(m[k]) for k in MEASURES) + "</tr>" for m in cc["modules"])
        rows += ('<tr class="total"><th>total</th><th></th>' +
                 "".join(_cell(cc["total"][k]) for k in MEASURES) + "</tr>")
        parts.append(f'<table id="code-coverage-modules"><thead><tr>{head}</tr></thead>'
                     f"<tbody>{rows}</tbody></table>"
                     "<p>lines: the source lines of a module's statements, hit when a "
                     "statement block on them ran; branches: the arms of its if and case "
                     "statements taken; toggles: the bits of its signals that changed.</p>")
    return ('<section id="code-coverage"><h2>RTL code coverage</h2>' + "".join(parts) +
            "</section>")
