"""Failure buckets (regress/README.md, "Buckets"): every failing test's signature, the failures
grouped by it, one member of each bucket shrunk by otpu-shrink in the background of the run, and
each bucket's repro folder (buckets/<n>/) and its one-line command.

A divergence's signature is otpu-lockstep's own (divergence.json's "signature",
checker/signature.c): KIND/UNIT/OPCODE/SPACE/SHAPE, with addresses, seeds and values left out.
A hang (exit 3) has one too. The other failures have no report; their signatures are made here
from the failure's kind and what names its cause, never from a value of one occurrence:

    timeout/wall-clock                 no verdict within otpu-regress's --timeout
    timeout/max-cycles, timeout/-      otpu-lockstep's own limit (--max-cycles), or another
    crash/signal-N                     otpu-lockstep died of signal N
    crash/simulator                    exit 5: the simulator crashed
    crash/cannot-run                   the tool could not be started
    crash/status-N                     an exit status otpu-lockstep does not document
    crash/no-result                    the test has no result: its shard or Slurm task was lost
    build-failed/-                     the RTL's simulator could not be built
    bad-input/tool                     otpu-lockstep (or otpu-rtl, for the Config) refused it
    bad-input/bundle                   otpu-regress did not run it: an unreadable bundle, or a
                                       gen: entry otpu-gen refused
    unexpected-outcome/EXPECTED-vs-GOT RTL and model agree on GOT (clean, or KIND-error), the
                                       bundle's expect= says EXPECTED (ok, error, KIND-error);
                                       unexpected-outcome/host-steps: the host steps fail
    divergence/no-report               a divergence whose divergence.json is missing or is not
                                       otpu-lockstep's
    KIND/UNIT/OPCODE/SPACE/?           a divergence whose report has no usable signature (none,
                                       or one that is not the checker's: control bytes, too
                                       long, another shape): made from its facts, the shape of
                                       the difference unknown

A signature read from a report is used only when it has the checker's shape (five parts of
[A-Za-z0-9_.+?-], at most 159 characters; words of printable text, at most 319), so no byte of
a hostile report reaches a key."""
import collections
import hashlib
import html
import json
import os
import re
import shlex
import threading
import time
from types import SimpleNamespace
from urllib.parse import quote

from . import charts, files, outcome, outputs, places, procs, schema, waivers
from .repro import report_env, repro_sh
from .schema import Invalid, integer, list_of, nullable, number, record, string
from .text import one_line, visible

PART = r"[A-Za-z0-9_.+?-]{1,40}"
KEY = re.compile(rf"{PART}(?:/{PART}){{1,7}}")
REPORT_KEY = re.compile(rf"{PART}(?:/{PART}){{4}}")
MAX_KEY, MAX_WORDS = 159, 319   # checker/signature.h's buffers, less their NUL
BUCKETS_SCHEMA = "otpu-regress/buckets/1"
DEFAULT_SHRINK_TIME = 300       # seconds per bucket (--shrink-time)
ROUND_MIN = 10                  # seconds: no later shrink round starts with less left
FIRST_TRIES = 40                # candidates of the first round; the next ones fit the time left

# the bucket of a test (TEST's "bucket" in results.json)
TEST_BUCKET = record({"key": string(MAX_KEY, printable=True, test=KEY.fullmatch,
                                    want="a bucket key (PART/PART...)"),
                      "words": string(MAX_WORDS + 200, printable=True)})


def _part(s):
    """a fact of a report as one part of a key: only the key's characters, at most 40"""
    s = re.sub(r"[^A-Za-z0-9_.+?-]", "", str(s or ""))[:40]
    return s or "?"


def _bucket(key, words):
    return {"key": key, "words": one_line(words, MAX_WORDS)}


def report_signature(report_dir):
    """the signature divergence.json in report_dir carries, {"key", "words"}, or None (no
    report, not JSON, no signature, or one that is not the checker's)"""
    path = os.path.join(report_dir, "divergence.json")
    try:
        doc = schema.parse(files.read_text(path, files.OTHER), path)
    except (files.BadFile, Invalid):
        return None
    sig = doc.get("signature") if isinstance(doc, dict) else None
    if not isinstance(sig, dict):
        return None
    key, words = sig.get("key"), sig.get("words")
    if not (isinstance(key, str) and len(key) <= MAX_KEY and REPORT_KEY.fullmatch(key) and
            isinstance(words, str) and 0 < len(words) <= MAX_WORDS and words.isprintable()):
        return None
    return {"key": key, "words": words}


def _from_facts(d):
    """a divergence's bucket from the facts results.json keeps, when its report has no usable
    signature: the shape of the difference is not known"""
    ins, loc = d.get("instruction") or {}, d.get("location") or {}
    op = (ins.get("disasm") or "").split(" ", 1)[0] or "-"
    kind, unit, space = _part(d.get("kind")), _part(d.get("unit") or "-"), _part(
        loc.get("space") or "-")
    return _bucket(f"{kind}/{unit}/{_part(op)}/{space}/?",
                   f"{kind}: {unit} {_part(op)}, {space} (the report has no usable signature: "
                   "the shape of the difference is not known)")


OUTCOME = [  # otpu-lockstep's UNEXPECTED OUTCOME lines (rtl_bridge/rtl_verdict.cpp)
    (re.compile(r"agree on a clean run, but the bundle expects an error"),
     lambda m: ("error-vs-clean", "RTL and model agree on a clean run; the bundle expects an "
                                  "error")),
    (re.compile(r"agree on an? ([a-z][a-z0-9-]{0,31}) error the bundle does not expect"),
     lambda m: (f"ok-vs-{m[1]}-error", f"RTL and model agree on a {m[1]} error; the bundle "
                                       "expects none (expect=ok)")),
    (re.compile(r"agree on an? ([a-z][a-z0-9-]{0,31}) error, the bundle expects an? "
                r"([a-z?][a-z0-9-]{0,31}) error"),
     lambda m: (f"{_part(m[2])}-error-vs-{m[1]}-error",
                f"RTL and model agree on a {m[1]} error; the bundle expects a {m[2]} error")),
    (re.compile(r"agree, but the host's steps fail"),
     lambda m: ("host-steps", "RTL and model agree, but the bundle's host steps fail")),
]


def _unexpected(message):
    for pattern, name in OUTCOME:
        m = pattern.search(message or "")
        if m:
            part, words = name(m)
            return _bucket(f"unexpected-outcome/{part}", f"unexpected-outcome: {words}")
    return _bucket("unexpected-outcome/-", "unexpected-outcome: the bundle's expect= "
                   "contradicts the outcome RTL and model agree on")


def _crash(rec):
    status, msg = rec.get("exit"), rec.get("message") or ""
    if status is None:
        return _bucket("crash/no-result", "crash: the test has no result (its shard or Slurm "
                       "task was lost, or otpu-regress was stopped)")
    m = re.search(r"signal ([0-9]{1,3})", msg)
    if status < 0 or 128 < status <= 192 or m:
        n = -status if status < 0 else status - 128 if status > 128 else int(m[1])
        return _bucket(f"crash/signal-{n}", f"crash: otpu-lockstep died of signal {n}")
    if status == 5:
        return _bucket("crash/simulator", "crash: the simulator crashed (exit 5)")
    if status == 127 and "cannot run" in msg:
        return _bucket("crash/cannot-run", "crash: otpu-lockstep could not be started")
    return _bucket(f"crash/status-{status}", f"crash: otpu-lockstep exited with status "
                   f"{status}, which it does not document")


def of_test(rec, report_dir=None):
    """the bucket {"key", "words"} of a test record (None for a pass); report_dir: where its
    divergence.json is, when it has one"""
    if rec.get("status") == "pass":
        return None
    kind = rec.get("kind")
    sig = report_signature(report_dir) if report_dir and kind in ("divergence", "timeout") \
        else None
    if sig:
        return sig
    if kind == "divergence":
        d = rec.get("divergence")
        return _from_facts(d) if d else _bucket(
            "divergence/no-report", "divergence: its report (divergence.json) is missing or "
            "is not otpu-lockstep's")
    if kind == "timeout":
        if rec.get("exit") is None:
            return _bucket("timeout/wall-clock", "timeout: no verdict within otpu-regress's "
                           "--timeout")
        if "--max-cycles" in (rec.get("message") or ""):
            return _bucket("timeout/max-cycles", "timeout: no end within otpu-lockstep's "
                           "--max-cycles")
        return _bucket("timeout/-", "timeout: otpu-lockstep ran out of time")
    if kind == "crash":
        return _crash(rec)
    if kind == "build-failed":
        return _bucket("build-failed/-", "build-failed: the RTL's simulator could not be built")
    if kind == "bad-input":
        if rec.get("exit") == 2:
            return _bucket("bad-input/tool", "bad-input: otpu-lockstep refused the bundle or its "
                           "plusargs")
        return _bucket("bad-input/bundle", "bad-input: not run: the bundle cannot be read "
                       "safely, its gen: entry was refused, or its Config cannot be built")
    if kind == "unexpected-outcome":
        return _unexpected(rec.get("message"))
    return _bucket(f"{_part(kind)}/-", f"{_part(kind)}")


def assign(tests):
    """every test gets its "bucket": kept when it has one (its run computed it from its
    report), made from the record for those that never ran (lost shards and tasks), None for
    a pass"""
    for t in tests:
        if t["status"] == "pass":
            t["bucket"] = None
        elif not t.get("bucket"):
            t["bucket"] = of_test(t)


def group(tests):
    """the buckets of the failures: [BUCKET] by count, then key; each with its number n (from
    1), the words most of its members have, its tests' names and their most common kind"""
    members = collections.defaultdict(list)
    for t in tests:
        if t["status"] != "pass":
            members[t["bucket"]["key"]].append(t)
    out = []
    for key, ts in members.items():
        words = collections.Counter(t["bucket"]["words"] for t in ts)
        kinds = collections.Counter(t["kind"] for t in ts)
        out.append({"key": key, "words": min(words, key=lambda w: (-words[w], w)),
                    "count": len(ts), "kind": min(kinds, key=lambda k: (-kinds[k], k)),
                    "tests": sorted(t["name"] for t in ts), "first_seen": None, "new": None,
                    "shrink": "", "command": min(ts, key=lambda t: t["name"])["command"],
                    "repro": None, "waived": (ts[0].get("waived") or {}).get("id")})
    out.sort(key=lambda b: (-b["count"], b["key"]))
    for n, b in enumerate(out, 1):
        b["n"] = n
    return out


# --- shrinking ----------------------------------------------------------------------------------

def shrinkable(rec):
    """why a failure's bundle cannot be shrunk, or None: otpu-shrink reduces a bundle that
    fails the same way each time it runs (a divergence, an unexpected outcome, otpu-lockstep's
    own hang or time limit, a simulator crash), from the copy in its repro folder"""
    kind = rec["kind"]
    if not rec.get("repro"):
        return f"a {kind} failure has no bundle to shrink"
    if kind in ("divergence", "unexpected-outcome") or (kind == "timeout" and
                                                        rec.get("exit") == 3) or \
            (kind == "crash" and rec.get("exit") == 5):
        return None
    return (f"a {kind} failure is not shrunk (it does not come from the bundle alone: "
            f"{rec['bucket']['key']})")


def _shrink_note(path):
    """(instructions before, after, tried, run, minimal) from a shrink.txt"""
    try:
        text = files.read_text(path, files.OTHER)
    except files.BadFile:
        return None
    m = re.search(r"^instructions: ([0-9]{1,12}) -> ([0-9]{1,12})$", text, re.M)
    c = re.search(r"^candidates tried: ([0-9]{1,15}) \(([0-9]{1,15}) run", text, re.M)
    if not m or not c:
        return None
    return (int(m[1]), int(m[2]), int(c[1]), int(c[2]),
            "locally minimal" in text)


def plusargs_of(bundle):
    """the words of a bundle's plusargs.txt (docs/bundle.md), [] without one"""
    path = os.path.join(bundle, "plusargs.txt")
    if not os.path.lexists(path):
        return []
    try:
        words = files.read_text(path, files.OTHER).split()
    except files.BadFile:
        return []
    return [w for w in words if re.fullmatch(r"\+[A-Za-z0-9_]{1,64}(=[^\s]{0,4096})?", w)]


def _folder(work, key):
    """a bucket's folder in work (its name of the key's hash)"""
    return os.path.join(work, hashlib.sha256(key.encode()).hexdigest()[:16])


class Shrinker:
    """one member of each bucket shrunk as soon as the bucket's first shrinkable failure
    arrives, while the other tests run: at most max(1, jobs // 2) shrinks at once while tests
    run, jobs once they are done; each within budget seconds (rounds of otpu-shrink
    --max-tries, each round starting from the last one's bundle, so that a budget spent part
    way keeps what was reduced). A shrink that ended leaves its RESULT beside its folder
    (FOLDER.json, written last): a resumed run takes it instead of shrinking again; one a kill
    cut short is done again. A full disk while shrinking ends the night (results)."""

    def __init__(self, out, tools, jobs, budget, timeout, log, enabled=True, waiver_list=()):
        self.out, self.tools, self.jobs, self.budget = out, tools, jobs, budget
        self.waiver_list = waiver_list  # (a waived bucket is not shrunk)
        self.timeout, self.log, self.enabled = timeout, log, enabled
        self.work = os.path.join(out, "work", "buckets")
        self.limit, self.running = max(1, jobs // 2), 0
        self.cv = threading.Condition()
        self.done = {}      # key -> result (RESULT below) once its shrink ended
        self.why = {}       # key -> why no member of it is shrunk (so far)
        self.threads = []
        self.full = None    # the OSError of a full disk a shrink met

    def offer(self, rec):
        """a test that just ended: a failure of a bucket not yet being shrunk starts its
        shrink"""
        if rec["status"] == "pass" or not rec.get("bucket"):
            return
        key = rec["bucket"]["key"]
        with self.cv:
            if key in self.done:
                return
            if not self.enabled:
                self.why[key] = "not shrunk: bucket shrinking is off (--no-shrink-buckets)"
                return
            w = waivers.waiver_of(self.waiver_list, key)
            if w:
                self.why[key] = f"not shrunk: waived ({w['id']})"
                return
            why = shrinkable(rec)
            if why:
                self.why.setdefault(key, "not shrunk: " + why)
                return
            self.done[key] = self._saved(key)  # (None: taken, its shrink starts)
            if self.done[key]:
                return
        th = threading.Thread(target=self._job, args=(key, rec), daemon=True,
                              name=f"shrink {key}")
        self.threads.append(th)
        th.start()

    def tests_done(self):
        """the tests are over: the shrinks may take every job"""
        with self.cv:
            self.limit = self.jobs
            self.cv.notify_all()

    def _job(self, key, rec):
        with self.cv:
            while self.running >= self.limit:
                self.cv.wait()
            self.running += 1
        try:
            res = self.shrink(key, rec)
            if procs.stopping():  # (its otpu-shrink was stopped: no result to keep)
                raise procs.Stopped(0)
            outputs.write(_folder(self.work, key) + ".json",
                          json.dumps({**res, "folder": None, "key": key}))
        except procs.Stopped:
            res = None
        except Exception as e:  # this bucket's note, never the night's end but for a full disk
            self.full = self.full or (e if outputs.full(e) else None)
            res = {"folder": None, "note": one_line(f"not shrunk: {type(e).__name__}: {e}")}
        finally:
            with self.cv:
                self.running -= 1
                self.cv.notify_all()
        with self.cv:
            self.done[key] = res

    def results(self):
        """{key: RESULT} once every shrink has ended; {key: why} of the buckets none was
        tried for"""
        self.tests_done()
        try:
            for th in self.threads:
                th.join()
        except BaseException:  # stopped while waiting: no shrink outlives otpu-regress
            procs.stop_all()
            raise
        if self.full:
            raise self.full
        with self.cv:
            return ({k: v for k, v in self.done.items() if v},
                    {k: v for k, v in self.why.items() if not self.done.get(k)})

    def _saved(self, key):
        """the RESULT an earlier attempt of this run left for the bucket, or None"""
        folder = _folder(self.work, key)
        path = folder + ".json"
        if not os.path.lexists(path) or not os.path.isdir(os.path.join(folder, "bundle")):
            return None
        try:
            doc = _RESULT(schema.parse(files.read_text(path, files.OTHER), path), path)
        except (files.BadFile, Invalid):
            return None
        return {**doc, "folder": folder} if doc["key"] == key else None

    def shrink(self, key, rec):
        """RESULT = {"folder": the work folder (bundle/, shrink.log), "member", "shrunk",
        "minimal", "instructions": [before, after] or None, "note", "env", "time"}"""
        t0 = time.monotonic()
        deadline = t0 + self.budget
        folder = _folder(self.work, key)
        places.remove(folder)
        os.makedirs(folder)
        repro = os.path.join(self.out, rec["repro"])
        src = os.path.join(repro, "bundle")
        # the RTL's sources (and DUT) the member ran on, without its build's key: that names
        # one Config's build, and the shrinker's candidates may have fewer slices
        env = {k: v for k, v in report_env(os.path.join(repro, "report")).items()
               if k != "OTPU_RTL_KEY"}
        # the first round's candidates: half the budget at half the test's time each (its
        # time has the traced re-run of a failure in it); the next rounds' from the measured rate
        tries = max(FIRST_TRIES, int(0.5 * self.budget / max(0.25, rec["time"] / 2)))
        cur, counts, minimal, note, rnd = src, None, False, "", 0
        per_run = max(1, min(self.timeout, int(10 * rec["time"]) + 60))
        self.log(f"otpu-regress: shrinking bucket {visible(key)} ({visible(rec['name'])})")
        with open(os.path.join(folder, "shrink.log"), "w", errors="surrogateescape") as log:
            while True:
                left = deadline - time.monotonic()
                if rnd and left < ROUND_MIN:  # (the first round always starts)
                    note = f"stopped by the {self.budget} s budget (--shrink-time)"
                    break
                rnd += 1
                dst = os.path.join(folder, f"round-{rnd}")
                cmd = [self.tools["shrink"], cur, "--lockstep", self.tools["lockstep"], "--out",
                       dst, "--timeout", str(max(1, min(per_run, int(left)))), "--max-tries",
                       str(tries)]
                log.write("$ " + " ".join(shlex.quote(w) for w in cmd) + "\n")
                status, output, secs, timed_out = procs.run(cmd, left, env=env)
                log.write(output + ("" if output.endswith("\n") or not output else "\n"))
                log.flush()
                got = _shrink_note(os.path.join(dst, "shrink.txt")) if status == 0 else None
                if timed_out:
                    note = f"stopped by the {self.budget} s budget (--shrink-time)"
                    break
                if got is None:
                    last = outcome.last_line(output, r"\S") or f"otpu-shrink exited {status}"
                    note = one_line(f"otpu-shrink: {last}", 400)
                    break
                counts = [counts[0] if counts else got[0], got[1]]
                cur, minimal = dst, got[4]
                if minimal:
                    note = "locally minimal"
                    break
                rate = secs / (got[3] + 2)  # seconds a run (the original's and the check's too)
                tries = max(FIRST_TRIES, int(0.8 * (deadline - time.monotonic()) / max(rate,
                                                                                        1e-3)))
        bundle = os.path.join(folder, "bundle")
        if cur == src:
            files.copy_tree(src, bundle)
        else:
            os.rename(cur, bundle)
        for name in os.listdir(folder):
            if name.startswith("round-"):
                places.remove(os.path.join(folder, name))
        return {"folder": folder, "member": rec["name"], "shrunk": cur != src,
                "minimal": minimal, "instructions": counts, "note": note, "env": env,
                "time": round(time.monotonic() - t0, 3)}

    def confirm(self, res, dst):
        """the bucket's bundle run again where it now is (dst): its report in dst/report, its
        output in dst/output.txt; the signature it fails with (None: it passed)"""
        bundle, report = os.path.join(dst, "bundle"), os.path.join(dst, "report")
        cmd = [self.tools["lockstep"], "run", bundle, "--report", report, "--report-html",
               "--wave-window", "0", *plusargs_of(bundle)]
        status, output, _, timed_out = procs.run(cmd, self.timeout, env=res["env"])
        with open(os.path.join(dst, "output.txt"), "w", errors="surrogateescape") as f:
            f.write(output)
        st, kind, msg, d = outcome.classify(status, output, report, timed_out, self.timeout)
        rec = {"status": st, "kind": kind, "message": msg, "divergence": d,
               "exit": None if timed_out else status}
        b = of_test(rec, report)
        return b and b["key"]


# --- the buckets' folders, their files, history -------------------------------------------------

def command(env, bundle):
    """the one line that reruns a bucket's bundle: the RTL's variables, otpu-lockstep, the
    bundle, its plusargs (every word quoted)"""
    env = [f"{k}={shlex.quote(v)}" for k, v in sorted(env.items())]
    return " ".join(env + ["otpu-lockstep", "run", shlex.quote(bundle)] +
                    [shlex.quote(p) for p in plusargs_of(bundle)])


def _repro_sh(folder, key, words, lockstep, env, plusargs):
    sh = os.path.join(folder, "repro.sh")
    text = repro_sh(SimpleNamespace(name=f"bucket {key}", plusargs=plusargs),
                    {"kind": key.split("/", 1)[0], "message": words}, lockstep, env)
    with open(sh, "w", errors="surrogateescape") as f:
        f.write(text)
    os.chmod(sh, 0o755)


def place(out, groups, found, why, confirm=None, lockstep="otpu-lockstep", log=print):
    """each bucket's shrink result (found: {key: RESULT}, its folder anywhere on this file
    system) moved to out/buckets/<n>, its fields set; why: {key: why it has none}; confirm:
    the Shrinker's confirm (run the bundle again there), or None (a merge keeps the shard's
    verdict, in the RESULT as "confirmed" and "key_again")"""
    root = os.path.join(out, "buckets")
    places.remove(root)
    for b in groups:
        res = found.get(b["key"])
        if not res or not res.get("folder"):
            b["shrink"] = (res or {}).get("note") or why.get(b["key"]) or \
                "not shrunk: no member of it was shrunk"
            continue
        dst = os.path.join(root, str(b["n"]))
        os.makedirs(root, exist_ok=True)
        files.copy_tree(res["folder"], dst)  # (the result stays for a resumed run's end)
        bundle = os.path.join(dst, "bundle")
        if confirm:
            again = confirm(res, dst)
            # the RTL the bucket's bundle ran on, its build's key as its own report names it
            env = report_env(os.path.join(dst, "report")) or res["env"]
        else:
            again, env = res.get("key_again"), res["env"]
        confirmed = again == b["key"]
        rel = os.path.join("buckets", str(b["n"]))
        b["repro"] = {"folder": rel, "member": res["member"], "shrunk": res["shrunk"],
                      "minimal": res["minimal"], "instructions": res["instructions"],
                      "note": res["note"], "confirmed": confirmed, "key_again": again, "env": env,
                      "time": res["time"]}
        b["command"] = command(env, bundle)
        size = (f"{res['instructions'][0]} -> {res['instructions'][1]} instructions"
                if res["instructions"] else "")
        b["shrink"] = one_line(
            ("shrunk" if res["shrunk"] else "not shrunk") +
            (f" ({size}; {res['note']})" if size else f" ({res['note']})" if res["note"]
             else "") + ("; run again it fails with the same signature" if confirmed else
                         f"; run again it fails otherwise ({again})" if again else
                         "; run again it passes"), 1000)
        if lockstep:  # (a merge keeps the shard's)
            _repro_sh(dst, b["key"], b["words"], lockstep, env, plusargs_of(bundle))
        if not confirmed:
            log(f"otpu-regress: bucket {b['n']} ({visible(b['key'])}): its repro "
                f"{'fails otherwise' if again else 'passes'} when run again")


def _env(v, where):
    if not isinstance(v, dict) or len(v) > 16 or any(
            not isinstance(k, str) or not re.fullmatch(r"OTPU_[A-Z0-9_]{1,64}", k) or
            not isinstance(x, str) or len(x) > 1 << 16 for k, x in v.items()):
        raise Invalid(f"{where}: OTPU_* variables expected")
    return v


_SHRUNK = {"member": string(4096, printable=True), "shrunk": schema.one_of(True, False),
           "minimal": schema.one_of(True, False),
           "instructions": nullable(list_of(integer(0, 1 << 40), 2)),
           "note": string(4096, printable=True), "env": _env, "time": number(0, 1e9)}
_REPRO = record({"folder": string(64), **_SHRUNK, "confirmed": schema.one_of(True, False),
                 "key_again": nullable(string(MAX_KEY, printable=True, test=KEY.fullmatch))})
# a shrink's RESULT as it is left for a resumed run (Shrinker._saved)
_RESULT = record({"folder": schema.one_of(None), "key": string(MAX_KEY, printable=True),
                  **_SHRUNK})
BUCKET = record({"n": integer(1, 1 << 24), "key": string(MAX_KEY, printable=True,
                                                           test=KEY.fullmatch),
                 "words": string(MAX_WORDS + 200, printable=True), "count": integer(1, 1 << 24),
                 "kind": string(64, printable=True),
                 "tests": list_of(string(4096, printable=True), 1 << 24),
                 "first_seen": nullable(string(64, printable=True)),
                 "new": nullable(schema.one_of(True, False)),
                 "shrink": string(4096, printable=True), "command": string(1 << 20),
                 "repro": nullable(_REPRO)}, {"waived": nullable(string(64, printable=True))})
BUCKETS_FILE = record({"schema": schema.one_of(BUCKETS_SCHEMA),
                       "buckets": list_of(BUCKET, 1 << 24)})


def write(out, groups):
    outputs.write(os.path.join(out, "buckets.json"),
                  json.dumps({"schema": BUCKETS_SCHEMA, "buckets": groups}, indent=1))


def read(path, merged=None):
    """the BUCKETs of a buckets.json (schema.Invalid or files.BadFile when it is not one, or
    its numbers do not agree: numbered 1..N, each key once, a count its tests', a shrink that
    added no instruction; merged: {key: the test names of that bucket} the shard's buckets are
    part of)"""
    doc = schema.parse(files.read_text(path, files.RESULTS), path)
    try:
        found = BUCKETS_FILE(doc, "")["buckets"]
    except Invalid as e:
        raise Invalid(f"{path}: {str(e).lstrip('.: ')}") from None
    for i, b in enumerate(found):
        r, where = b["repro"], f"{path}: buckets[{i}]"
        if b["n"] != i + 1 or b["key"] in (x["key"] for x in found[:i]):
            raise Invalid(f"{where}: not bucket {i + 1} of its own key")
        if b["count"] != len(set(b["tests"])) or len(b["tests"]) != b["count"] or (
                merged is not None and not set(b["tests"]) <= merged.get(b["key"], set())):
            raise Invalid(f"{where}: its count is not its tests', or they are not the "
                          "shard's failures of its key")
        if r and r["instructions"] and r["instructions"][1] > r["instructions"][0]:
            raise Invalid(f"{where}.repro: shrunk to more instructions than it had")
    return found


def from_shards(dirs, work, log, groups=()):
    """the shards' shrunk repros, {key: RESULT} (each copied into work), for a merge: of a
    bucket several shards shrank, the one that failed the same way again, then the smallest;
    a shard's buckets.json that cannot be read, or that does not agree with the merged
    buckets (groups), is said in one line and its repros unused"""
    best, merged = {}, {b["key"]: set(b["tests"]) for b in groups}
    for d in dirs:
        path = os.path.join(d, "buckets.json")
        if not os.path.lexists(path):
            continue
        try:
            shard_buckets = read(path, merged)
        except (files.BadFile, Invalid) as e:
            log(f"otpu-regress: {visible(e)}; that shard's shrunk repros are not used")
            continue
        for b in shard_buckets:
            r = b["repro"]
            folder = os.path.join(d, r["folder"]) if r else ""
            if not r or r["folder"] != os.path.join("buckets", str(b["n"])) or \
                    os.path.islink(folder) or not os.path.isdir(folder):
                continue
            rank = (not r["confirmed"], not r["shrunk"],
                    (r["instructions"] or [0, 1 << 40])[1])
            if b["key"] not in best or rank < best[b["key"]][0]:
                best[b["key"]] = (rank, d, b)
    found = {}
    for key, (_, d, b) in best.items():
        folder = _folder(work, key)
        places.remove(folder)
        os.makedirs(work, exist_ok=True)
        files.copy_tree(os.path.join(d, b["repro"]["folder"]), folder)
        found[key] = {**b["repro"], "folder": folder}
    return found


def text_lines(groups):
    """summary.txt's lines of the buckets"""
    if not groups:
        return ["buckets: none (no failure)"]
    lines = [f"buckets: {len(groups)} (failures grouped by signature, most first)"]
    for b in groups:
        new = " NEW tonight" if b["new"] else (f" (first seen {b['first_seen']})"
                                               if b["first_seen"] else "")
        waived = f" waived ({b['waived']})" if b.get("waived") else ""
        lines.append(f"  {b['n']}. {b['count']} x {b['key']}{new}{waived}")
        lines.append(f"       {b['words']}")
        r = b["repro"]
        lines.append(f"       repro: {r['folder'] + '/bundle: ' if r else ''}{b['shrink']}")
        lines.append(f"       command: {b['command']}")
        shown = b["tests"][:3]
        lines.append("       tests: " + ", ".join(shown) +
                     (f" and {len(b['tests']) - len(shown)} more" if len(b["tests"]) > 3
                      else ""))
    return lines



def settle(out, run, groups, shrinker, log):
    """the buckets' shrunk repros into out/buckets/<n>: this run's (shrinker, waited for: each
    shrink is bounded by --shrink-time), or a merge's (run["merged"]: its shard folders')"""
    if shrinker is not None:
        found, why = shrinker.results()
        place(out, groups, found, why, shrinker.confirm, shrinker.tools["lockstep"], log)
    elif run.get("merged"):
        found = from_shards(run["merged"], os.path.join(out, "work", "buckets"), log, groups)
        place(out, groups, found, {}, None, None, log)
    else:
        place(out, groups, {}, {}, None, None, log)


def changes(db, groups, started, before=None):
    """each BUCKET's first night and whether it is new (history.annotate); the summary's
    "new_buckets" (never seen before this run) and "gone_buckets" (in the last recorded run,
    not in this one); before: only the runs recorded before this run id count"""
    if not db:
        return {"new_buckets": [], "gone_buckets": []}
    from . import history
    prev = history.last_run(db, before)
    history.annotate(db, groups, started, before)
    before = (history.buckets_of(db, prev) or {}) if prev else {}
    return {"new_buckets": [b["key"] for b in groups if b["new"]],
            "gone_buckets": sorted(set(before) - {b["key"] for b in groups})}


# --- the page's section (html.py) ---------------------------------------------------------------

# the files of a bucket's folder the page links to, when they exist: (path in it, label)
FOLDER_FILES = [("bundle", "bundle"), ("report/divergence.html", "report"),
                ("report/divergence.txt", "divergence.txt"), ("repro.sh", "repro.sh"),
                ("shrink.log", "shrink.log"), ("output.txt", "output.txt")]
SHOWN_TESTS = 5  # member names a bucket's row lists (each linked to its failure row)


def html_section(out_dir, summary):
    """the buckets as the page's first section: a row each (number, count, signature in words
    and its key, first night / new, the repro's files, its one-line command, members); "" for
    a summary without buckets (no failure, or one written before buckets)"""
    groups = summary.get("buckets") or []
    if not groups:
        return ""

    def e(v):
        return html.escape(visible(v))

    rows = []
    for b in groups:
        r = b.get("repro")
        links = [f'<a href="{e(quote(r["folder"] + "/" + p))}">{e(label)}</a>'
                 for p, label in FOLDER_FILES
                 if r and os.path.exists(os.path.join(out_dir, r["folder"], p))]
        first = ('<span class="bad">new tonight</span>' if b.get("new") else
                 e(b.get("first_seen") or "\u2014") + (" (first recorded)" if b.get("new") is
                                                       None and b.get("first_seen") else ""))
        if b.get("waived"):
            first += f'<br><span class="waived">waived ({e(b["waived"])})</span>'

        members = "".join(f'<li><a href="#{e(quote("failure-" + n))}">{e(n)}</a></li>'
                          for n in b["tests"][:SHOWN_TESTS])
        more = len(b["tests"]) - SHOWN_TESTS
        swatch = (f'<span class="swatch" style="background:{charts.kind_colour(b["kind"])}">'
                  "</span>")
        rows.append(
            f'<tr class="bucket failure-bucket{" waived" if b.get("waived") else ""}" '
            f'id="bucket-{b["n"]}" data-key="{e(b["key"])}">'
            f'<td class="num">{b["n"]}</td><td class="num">{b["count"]:,}</td>'
            f'<td class="message">{swatch}{e(b["words"])}<br><code>{e(b["key"])}</code></td>'
            f"<td>{first}</td>"
            f'<td class="message">{" ".join(links) + "<br>" if links else ""}{e(b["shrink"])}'
            f'</td><td class="message"><code>{e(b["command"])}</code></td>'
            f"<td><ul>{members}</ul>{f'and {more:,} more' if more > 0 else ''}</td></tr>")
    head = "".join(f"<th>{h}</th>" for h in ("#", "tests", "signature", "first seen",
                                               "shrunk repro", "command", "members"))
    return (f'<section id="bucket-section"><h2>Failure buckets ({len(groups):,})</h2>'
            "<p>The failures grouped by signature (the kind, unit, opcode, memory and shape of "
            "the difference; addresses, seeds and values left out), most first; one member of "
            "each shrunk, its repro run again.</p>"
            f'<table id="buckets" class="tests"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></section>')
