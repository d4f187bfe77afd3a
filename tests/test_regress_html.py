#!/usr/bin/env python3
"""otpu-regress's index.html (regress/otpu_regress/html.py, charts.py): a fixture output folder
(2 failures of different kinds with their repro files, 1 passing test, 5 history runs) is
written by write_index, then
  (a) parsed: well nested; the failures table is the page's first table; exactly the failed
      tests have a row, each linking exactly the repro files that exist; every relative link
      resolves; new failures, charts, slowest tests follow in that order; the three charts are
      there with one mark per run and a gap where coverage is null; text is escaped;
  (b) loaded by headless Chromium from disk (--dump-dom): the failure rows and charts are in
      the DOM it built; scripts/regress_screenshot writes a 1200x1600 PNG of it;
  (c) a clean run without history says "no failures" and still shows the three charts.

usage: test_regress_html.py REGRESS_DIR     (the folder holding the otpu_regress package)"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from urllib.parse import unquote

from checks import Checks

CHROMIUM = "chromium"
BROWSER_TIMEOUT = 120  # seconds for one headless Chromium run
VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "source", "wbr"}
CHARTS = {"passes", "kinds", "coverage"}
EVIL = 'x < y && "quoted" <script>alert(1)</script>'  # a message that must come out as text

check = Checks()


class Page(HTMLParser):
    """what the tests look at in a page: element order, nesting, rows, links, charts"""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.stack, self.nesting_errors = [], []
        self.order = []        # (tag, attrs) of every start tag, in document order
        self.rows = {}         # data-name of a tr.failure -> its hrefs
        self.cells = {}        # data-name -> the text of its cells
        self.hrefs, self.ids = [], []
        self.charts = {}       # data-chart -> {"class", "title", "marks": {tag: count}}
        self.text = []
        self._row = self._chart = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.order.append((tag, a))
        if "id" in a:
            self.ids.append(a["id"])
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "tr" and "failure" in a.get("class", "").split():
            self._row = a.get("data-name")
            self.rows[self._row], self.cells[self._row] = [], []
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
            if self._row is not None:
                self.rows[self._row].append(a["href"])
        if tag == "svg":
            self._chart = a.get("data-chart")
            self.charts[self._chart] = {"class": a.get("class", ""), "title": "", "marks": {}}
        elif self._chart is not None:
            marks = self.charts[self._chart]["marks"]
            marks[tag] = marks.get(tag, 0) + 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.nesting_errors.append(f"</{tag}> closes {self.stack[-1:]}")
            return
        self.stack.pop()
        if tag == "tr":
            self._row = None
        if tag == "svg":
            self._chart = None

    def handle_data(self, data):
        self.text.append(data)
        if self._row is not None and "td" in self.stack:
            self.cells[self._row].append(data)
        if self._chart is not None and self.stack[-1] == "title" and self.stack[-2] == "svg":
            self.charts[self._chart]["title"] += data

    def first(self, pred):
        """the document position of the first start tag for which pred(tag, attrs) holds"""
        return next((k for k, (t, a) in enumerate(self.order) if pred(t, a)), None)

    def position_of_id(self, ident):
        return self.first(lambda t, a: a.get("id") == ident)


def write(path, text=""):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_repro(out, repro, files):
    """a repro folder with the given files (and a bundle copy, which the page does not link)"""
    write(os.path.join(out, repro, "bundle", "case.txt"), "name fixture\n")
    for f in files:
        if f.endswith("/"):
            write(os.path.join(out, repro, f, "case.txt"), "name shrunk\n")
        else:
            write(os.path.join(out, repro, f), "fixture\n")


def fixture_tests(out):
    """two failures of different kinds with repro folders and one passing test; returns the
    tests and, per failure, the repro files created (the ones the page must link)"""
    created = {  # name -> (its repro folder, the files in it the page should link)
        "isa/random_003": ("repro/isa_random_003", ["report/divergence.txt",
                           "report/divergence.json", "report/wave.fst", "repro.sh"]),
        "gen-hazard-seed7/hazard_0004": ("repro/gen-hazard-seed7_hazard_0004",
                                         ["repro.sh", "shrunk/"]),
    }
    base = {"plusargs": [], "time": 1.0, "exit": 1, "cycles": 40, "instructions": 12,
            "input_hash": "0" * 64, "command": "otpu-lockstep ..."}
    tests = [
        dict(base, name="isa/random_003", suite="isa", bundle="random_003", status="fail",
             kind="divergence", message=EVIL, repro=created["isa/random_003"][0], time=3.5,
             divergence={"kind": "wrong-value", "slice": 0, "cycle": 35, "unit": "DMA",
                         "instruction": {"n": 7, "pc": 5, "disasm": "LD r1 <- [0x10]"},
                         "location": {"space": "TMEM", "address": 1219, "mask": 15}}),
        dict(base, name="gen-hazard-seed7/hazard_0004", suite="gen-hazard-seed7",
             bundle="hazard_0004", status="fail", kind="timeout", exit=None, time=30.0,
             message="no verdict after 30 s", divergence=None, cycles=None, instructions=None,
             repro=created["gen-hazard-seed7/hazard_0004"][0]),
        dict(base, name="isa/random_004", suite="isa", bundle="random_004", status="pass",
             kind=None, message="", divergence=None, repro=None, exit=0, time=0.5),
    ]
    for repro, files in created.values():
        make_repro(out, repro, files)
    for f in ("bundle/case.txt", "report/divergence.html", "repro.sh"):  # bucket 1's folder
        write(os.path.join(out, "buckets", "1", f), "fixture\n")
    return tests, created


def fixture_summary(tests, changes):
    failed = [t for t in tests if t["status"] == "fail"]
    kinds = ["divergence", "bad-input", "timeout", "build-failed", "crash", "unexpected-outcome"]
    return {
        "schema": "otpu-regress/summary/1",
        "run": {"started": "2024-05-06T02:00:00Z", "wall_time": 3725.0, "host": "node<1>",
                "jobs": 2, "shard": None, "suites": ["ci/nightly.suite"],
                "command": ["otpu-regress", "run", "ci/nightly.suite"]},
        "tests": len(tests), "passed": len(tests) - len(failed), "failed": len(failed),
        "by_kind": {k: sum(1 for t in failed if t["kind"] == k) for k in kinds},
        "instructions": sum(t["instructions"] or 0 for t in tests),
        "cycles": sum(t["cycles"] or 0 for t in tests),
        "slowest": sorted(({"name": t["name"], "time": t["time"]} for t in tests),
                          key=lambda s: -s["time"]),
        "coverage": {"percent": 61.25, "hit": 245, "bins": 400},
        "changes": changes,
        "buckets": [  # (buckets.py) one per failure here; the first with its repro folder
            {"n": 1, "key": "wrong-value/DMA/LD/TMEM/value", "words": EVIL, "count": 1,
             "kind": "divergence", "tests": ["isa/random_003"], "first_seen": None,
             "new": True, "shrink": "shrunk (20 -> 3 instructions; locally minimal)",
             "command": "otpu-lockstep run /o/buckets/1/bundle",
             "repro": {"folder": "buckets/1", "member": "isa/random_003", "shrunk": True,
                       "minimal": True, "instructions": [20, 3], "note": "locally minimal",
                       "confirmed": True, "key_again": "wrong-value/DMA/LD/TMEM/value",
                       "env": {}, "time": 3.0}},
            {"n": 2, "key": "timeout/wall-clock", "words": "timeout: no verdict", "count": 1,
             "kind": "timeout", "tests": ["gen-hazard-seed7/hazard_0004"], "first_seen": None,
             "new": None, "shrink": "not shrunk: a timeout failure is not shrunk",
             "command": "otpu-lockstep ...", "repro": None}],
    }


def fixture_history():
    """5 runs, oldest first; the third has no coverage (a gap in the coverage line)"""
    runs = []
    for i, (failed, cov) in enumerate([(0, 50.0), (1, 55.5), (3, None), (0, 60.0), (2, 61.25)]):
        by_kind = {"divergence": failed - failed // 2, "timeout": failed // 2, "crash": 0,
                   "build-failed": 0, "bad-input": 0, "unexpected-outcome": 0}
        runs.append({"id": i + 1, "started": f"2024-05-0{i + 2}T02:00:00Z", "tests": 3,
                     "passed": 3 - failed, "failed": failed, "by_kind": by_kind,
                     "coverage_percent": cov})
    return runs


def check_structure(page, failed):
    check(not page.nesting_errors and not page.stack, "the page's elements are well nested",
          page.nesting_errors[:5] or page.stack)
    check(len(page.ids) == len(set(page.ids)), "ids are unique")
    tables = [a.get("id") for t, a in page.order if t == "table"]
    check(tables[:2] == ["buckets", "failures"],
          "the failure buckets are the page's first table, the failures its second", tables)
    positions = [page.position_of_id(i) for i in ("buckets", "failures", "changes", "history",
                                                  "slowest")]
    check(None not in positions and positions == sorted(positions),
          "buckets, then failures, changes, history, slowest tests", positions)
    rows = [a.get("data-key") for t, a in page.order if t == "tr" and
            "bucket" in a.get("class", "").split()]
    check(rows == ["wrong-value/DMA/LD/TMEM/value", "timeout/wall-clock"],
          "a row per bucket, in order", rows)
    check(sorted(page.rows) == sorted(failed), "exactly the failed tests have a failure row",
          sorted(page.rows))
    check(page.first(lambda t, a: t == "script") is None, "the page has no script")


def check_links(page, out, created):
    for name, (repro, files) in created.items():
        expected = sorted(f"{repro}/{f.rstrip('/')}" for f in files)
        got = sorted(unquote(h) for h in page.rows.get(name, []))
        check(got == expected, f"{name}: links exactly its existing repro files", got)
    relative = [h for h in page.hrefs if not h.startswith("#")]
    missing = [h for h in relative if not os.path.exists(os.path.join(out, unquote(h)))]
    check(bool(relative) and not missing, f"all {len(relative)} relative links resolve", missing)
    anchors = [unquote(h[1:]) for h in page.hrefs if h.startswith("#")]
    check(all(a in page.ids for a in anchors), f"all {len(anchors)} in-page links resolve")


def check_cells(page, tests):
    by_name = {t["name"]: t for t in tests}
    div = by_name["isa/random_003"]
    cells = "".join(page.cells.get(div["name"], []))
    check(EVIL in cells, "a message with markup comes out as its text")
    check("".join(page.text).count(EVIL) >= 2, "a bucket's words with markup come out as text")
    insn = div["divergence"]["instruction"]
    check(f"pc {insn['pc']}" in cells and f"n {insn['n']}" in cells and insn["disasm"] in cells,
          "the divergence's instruction: pc, n, disasm", cells)
    loc = div["divergence"]["location"]
    check(f"{loc['space']} 0x{loc['address']:x}" in cells, "the location: space, hex address")
    check("timeout" in "".join(page.cells.get("gen-hazard-seed7/hazard_0004", [])),
          "the timeout's row names its kind")
    check("node<1>" in "".join(page.text), "the run's host is shown, escaped")


def line_segments(present):
    """how many lines of at least two consecutive present points"""
    count, length = 0, 0
    for p in present + [False]:
        if p:
            length += 1
            continue
        count += length > 1
        length = 0
    return count


def check_charts(page, runs):
    check(set(page.charts) == CHARTS, "the three charts are there", sorted(page.charts, key=str))
    history, after = page.position_of_id("history"), page.position_of_id("slowest")
    for name in CHARTS & set(page.charts):
        c = page.charts[name]
        check("chart" in c["class"].split() and c["title"].strip(), f"chart {name}: class, title")
        svg = page.first(lambda t, a, n=name: t == "svg" and a.get("data-chart") == n)
        check(None not in (history, svg, after) and history < svg < after,
              f"chart {name} is in the history section")

    def marks(chart, tag):
        return page.charts.get(chart, {}).get("marks", {}).get(tag, 0)

    check(marks("passes", "circle") == len(runs), "passes: one dot per run")
    stacks = sum(1 for r in runs for v in r["by_kind"].values() if v)
    legend = len(runs[0]["by_kind"])  # one square per kind
    check(marks("kinds", "rect") == stacks + legend, "kinds: one bar piece per run and kind",
          marks("kinds", "rect"))
    with_cov = [r["coverage_percent"] is not None for r in runs]
    check(marks("coverage", "circle") == sum(with_cov), "coverage: one dot per run with coverage")
    segments = line_segments(with_cov)
    check(marks("coverage", "polyline") == segments, "coverage: the line breaks at a null",
          marks("coverage", "polyline"))


def run_chromium(profile, *args):
    """headless Chromium with a private profile; (exit status, stdout, stderr)"""
    cmd = [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
           f"--user-data-dir={profile}", *args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=BROWSER_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "", f"timed out after {BROWSER_TIMEOUT} s"
    return p.returncode, p.stdout, p.stderr


def check_browser(tmp, index, failed):
    rc, dom, err = run_chromium(os.path.join(tmp, "profile"), "--dump-dom", "file://" + index)
    if not check(rc == 0 and "<html" in dom, "Chromium loads the page from disk",
                 f"exit {rc}; " + "\n".join(err.splitlines()[-5:])):
        return
    page = Page(dom)
    check(sorted(page.rows) == sorted(failed), "in Chromium's DOM: a tr.failure per failed test",
          sorted(page.rows))
    check(set(page.charts) == CHARTS and
          all("chart" in c["class"].split() for c in page.charts.values()),
          "in Chromium's DOM: the three svg charts", sorted(page.charts, key=str))


def png_size(path):
    """(width, height) from a PNG's IHDR, or None if the file is not a PNG"""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def check_screenshot(regress_dir, out, tmp):
    script = os.path.join(regress_dir, "..", "scripts", "regress_screenshot")
    png = os.path.join(tmp, "shot.png")
    p = subprocess.run([script, out, png], capture_output=True, text=True,
                       timeout=BROWSER_TIMEOUT + 30)
    check(p.returncode == 0 and os.path.exists(png), "regress_screenshot writes a PNG",
          f"exit {p.returncode}: {p.stderr.strip()}")
    if os.path.exists(png):
        check(png_size(png) == (1200, 1600), "the screenshot is 1200x1600", png_size(png))
    p = subprocess.run([script, os.path.join(tmp, "nowhere"), png], capture_output=True,
                       text=True, timeout=30)
    check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
          "regress_screenshot on a folder without index.html: exit 2, one line", p.stderr)


def check_clean(write_index, tmp):
    out = os.path.join(tmp, "clean")
    os.makedirs(out)
    tests = [t for t in fixture_tests(out)[0] if t["status"] == "pass"]
    summary = fixture_summary(tests, {"new_failures": [], "fixed": [], "still_failing": []})
    summary["coverage"] = None
    page = Page(open(write_index(out, summary, tests, [])).read())
    check(not page.rows and "no failures" in "".join(page.text), "a clean run: no failures")
    check(set(page.charts) == CHARTS, "a clean run without history: the three charts")
    dots = page.charts.get("passes", {}).get("marks", {}).get("circle", 0)
    check(dots == 1, "a clean run without history: its own run is the one point", dots)
    check(not page.nesting_errors, "a clean run: well nested", page.nesting_errors[:5])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test_regress_html.py REGRESS_DIR")
    regress_dir = os.path.abspath(sys.argv[1])
    sys.path.insert(0, regress_dir)
    from otpu_regress.html import write_index
    if shutil.which(CHROMIUM) is None:
        print("FAIL chromium is not installed (Debian's chromium; scripts/setup installs it)")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        os.makedirs(out)
        tests, created = fixture_tests(out)
        failed = [t["name"] for t in tests if t["status"] == "fail"]
        changes = {"new_failures": ["isa/random_003"], "fixed": ["isa/random_009"],
                   "still_failing": ["gen-hazard-seed7/hazard_0004"]}
        runs = fixture_history()
        index = write_index(out, fixture_summary(tests, changes), tests, runs)
        check(index == os.path.join(out, "index.html"), "write_index writes out/index.html")
        with open(index) as f:
            page = Page(f.read())
        check_structure(page, failed)
        check_links(page, out, created)
        check_cells(page, tests)
        check_charts(page, runs)
        check_browser(tmp, index, failed)
        check_screenshot(regress_dir, out, tmp)
        check_clean(write_index, tmp)
    return check.verdict()


if __name__ == "__main__":
    sys.exit(main())
