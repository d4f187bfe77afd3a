"""What the stub-tool tests of otpu-regress share (test_regress_bad_input.py,
test_regress_codecov_input.py, test_regress_buckets.py): files written into a scratch folder,
executable stubs, a tally of the checks, and a tool run with its stdin closed and a time limit."""
import os
import shutil
import subprocess
import sys
import tempfile


# otpu-lockstep's stand-in: does what the bundle's stub.json says (exit status, a line on stdout,
# a divergence.json, text or JSON, written into --report; "huge": that file made past the 64 MiB
# bound, sparse); writes $STUB_DAT where --code-coverage says; says it ran out of space (exit 2)
# while $STUB_NOSPACE exists; takes $STUB_LOCKSTEP_SLEEP s; logs each run (its arguments and
# bundle name) to $STUB_LOG
LOCKSTEP = r'''#!/usr/bin/env python3
import json, os, shutil, sys, time
a = sys.argv[1:]
arg = dict(zip(a, a[1:]))
if os.environ.get("STUB_LOG"):
    with open(os.environ["STUB_LOG"], "a") as f:
        print(json.dumps({"tool": "lockstep", "argv": a, "bundle": os.path.basename(a[1])}),
              file=f)
if os.path.exists(os.environ.get("STUB_NOSPACE", "/nonexistent")):
    sys.exit(print("otpu-lockstep: cannot write its report: No space left on device") or 2)
with open(os.path.join(a[1], "stub.json")) as f:
    s = json.load(f)
if "--report" in arg and "divergence" in s:
    os.makedirs(arg["--report"], exist_ok=True)
    d = s["divergence"]
    with open(os.path.join(arg["--report"], "divergence.json"), "w") as f:
        f.write(d if isinstance(d, str) else json.dumps(d))
    if s.get("huge"):
        os.truncate(os.path.join(arg["--report"], "divergence.json"), 65 << 20)
if "--code-coverage" in arg:
    shutil.copyfile(os.environ["STUB_DAT"], arg["--code-coverage"])
time.sleep(float(os.environ.get("STUB_LOCKSTEP_SLEEP", "0")))
print(s.get("say", "lockstep: PASS"))
sys.exit(s.get("exit", 0))
'''
# otpu-shrink's stand-in: the bundle copied to --out with a shrink.txt, after $STUB_SLEEP s;
# the bundle's shrink-mode file says otherwise: "sleep" (never ends), "other" (the copy fails
# with another signature), "fail" (exit 1, nothing written); logs each run to $STUB_LOG
SHRINK = r'''#!/usr/bin/env python3
import json, os, shutil, sys, time
a = sys.argv[1:]
src, out = a[0], a[a.index("--out") + 1]
time.sleep(float(os.environ.get("STUB_SLEEP", "0")))
if os.environ.get("STUB_LOG"):
    with open(os.environ["STUB_LOG"], "a") as f:
        print(json.dumps({"tool": "shrink", "argv": a, "bundle": src}), file=f)
mode = open(os.path.join(src, "shrink-mode")).read().strip() \
    if os.path.exists(os.path.join(src, "shrink-mode")) else ""
if mode == "sleep":
    time.sleep(600)
if mode == "fail":
    print("otpu-shrink: the reduced bundle fails otherwise when run again")
    sys.exit(1)
shutil.copytree(src, out)
if mode == "other":
    with open(os.path.join(out, "stub.json")) as f:
        s = json.load(f)
    s["divergence"]["signature"] = {"key": "wrong-value/DMA/LD/TMEM/value",
                                    "words": "wrong-value: DMA LD, TMEM, a wrong value"}
    with open(os.path.join(out, "stub.json"), "w") as f:
        json.dump(s, f)
with open(os.path.join(out, "shrink.txt"), "w") as f:
    f.write("instructions: 20 -> 3\ncandidates tried: 9 (7 run, 0 refused)\n"
            "locally minimal: no pass finds a smaller candidate\n")
print("otpu-shrink: 20 -> 3 instructions")
'''


def regress_args(args):
    """(otpu-regress, the source tree, its quickstart bundle) of the test's arguments
    OTPU_REGRESS ROOT, absolute; the tree's otpu_regress package made importable"""
    regress, root = (os.path.abspath(a) for a in args)
    sys.path.insert(0, os.path.join(root, "regress"))
    return regress, root, os.path.join(root, "examples", "quickstart")


def write(p, data):
    """p written with data (bytes or text), its folders made; p"""
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return p


def executable(p, text):
    """p written with text and made executable; p"""
    write(p, text)
    os.chmod(p, 0o755)
    return p


class Tally:
    """the checks of one test program: ok/FAIL lines as they come, the failures kept"""

    def __init__(self, prefix="otpu-test-"):
        self.passed, self.failed = 0, []
        self.scratch = tempfile.mkdtemp(prefix=prefix)  # removed by run()

    def path(self, *parts):
        """a path in the scratch folder"""
        return os.path.join(self.scratch, *parts)

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}", flush=True)
        else:
            self.failed.append(name)
            print(f"FAIL {name}: {str(detail)[-1500:]}", flush=True)
        return ok

    def summary(self):
        """the closing lines; the test's exit status"""
        print(f"{self.passed} passed, {len(self.failed)} failed")
        for n in self.failed:
            print(f"  failed: {n!r}")
        return 1 if self.failed else 0

    def run(self, sections, scratch):
        """each of sections called in turn, the scratch folder removed after them (even when
        one raises); the exit status of summary()"""
        try:
            for section in sections:
                section()
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return self.summary()


def run_tool(argv, cwd, env, timeout, text=False):
    """(exit status or "timeout", stdout, stderr) of argv in cwd; bytes unless text (then
    undecodable bytes shown as backslash escapes)"""
    try:
        p = subprocess.run(argv, capture_output=True, cwd=cwd, timeout=timeout, env=env,
                           stdin=subprocess.DEVNULL, text=text,
                           errors="backslashreplace" if text else None)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        msg = f"no end within {timeout} s"
        return "timeout", "" if text else b"", msg if text else msg.encode()
