#!/usr/bin/env python3
"""The simulator's fork server (rtl_bridge/rtl_serve.h) and otpu-regress through it
(regress/otpu_regress/forkserver.py):
- a test that crashes (its child killed by SIGSEGV) or hangs (killed at its timeout) leaves the
  server serving, and the next test's exit status and output are byte for byte those of the
  same run as a process of its own; so are a passing and a diverging run's;
- malformed requests are answered "bad" (or end the server with one line: a request past 1 MiB);
- a night through otpu-regress gives the same verdicts, counts, buckets and coverage with the
  fork server as without it (a test whose outcome contradicts its expect= among them);
- a served child dies with its server: a server killed by SIGKILL while its child runs a long
  test leaves no child running (within 2 s), and otpu-regress stopped by SIGTERM in the middle
  of a served night leaves no process of its run, and nothing is written into --out after it
  has ended.

usage: test_forkserver.py OTPU_RTL OTPU_GEN OTPU_REGRESS BENCH_DIR"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402


class Server:
    def __init__(self, exe, out):
        self.out = out
        self.p = subprocess.Popen([exe, "--serve"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def send(self, fields):
        self.p.stdin.write(b"\0".join(f.encode() for f in fields) + b"\0\0")
        self.p.stdin.flush()

    def answer(self):
        return self.p.stdout.readline().decode().split()

    def run(self, args, timeout=0):
        self.send([self.out, str(timeout)] + args)
        a = self.answer()
        with open(self.out) as f:
            return a, f.read()

    def child(self):
        """the pid of the server's running child (waits for it to appear)"""
        path = f"/proc/{self.p.pid}/task/{self.p.pid}/children"
        for _ in range(500):
            with open(path) as f:
                kids = f.read().split()
            if kids:
                return int(kids[0])
            time.sleep(0.01)
        return None


def alive(pid):
    """pid is a process that is not a zombie"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def marked(marker):
    """the live processes whose environment holds marker (every process of one run)"""
    found = []
    for d in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                if marker in f.read().split(b"\0") and alive(d):
                    found.append(int(d))
        except OSError:
            pass
    return found


def until(cond, seconds):
    """cond() true within seconds (polled)"""
    end = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def files_of(folder):
    """{path: (size, mtime)} of every file under folder"""
    out = {}
    for d, _, names in os.walk(folder):
        for n in names:
            st = os.lstat(os.path.join(d, n))
            out[os.path.join(d, n)] = (st.st_size, st.st_mtime_ns)
    return out


def dies_with_server(check, exe, loops, tmp):
    """kill -9 of a server while its child runs a long test: the child is gone within 2 s"""
    s = Server(exe, os.path.join(tmp, "orphan.txt"))
    s.send([s.out, "0", loops, "--lockstep", "--report", os.path.join(tmp, "orphan-rep")])
    kid = s.child()
    os.kill(s.p.pid, signal.SIGKILL)
    s.p.wait()
    check(kid is not None and until(lambda: not alive(kid), 2),
          "a server killed by SIGKILL: its running child is gone within 2 s", kid)


def stopped_night(check, regress, loops, tmp):
    """otpu-regress stopped by SIGTERM while served children run long tests: no process of its
    run is left, and nothing is written into --out after it ended"""
    folder, out = os.path.join(tmp, "long"), os.path.join(tmp, "stopped")
    for i in range(4):  # (4 tests of one Config: they run through fork servers)
        shutil.copytree(loops, os.path.join(folder, f"loops-{i}"))
    marker = f"OTPU_TEST_RUN={os.getpid()}-{time.monotonic_ns()}"
    k, v = marker.split("=", 1)
    p = subprocess.Popen([regress, "run", folder, "-j", "2", "--out", out, "--db", "none"],
                         env={**os.environ, k: v}, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    served = os.path.join(out, "work", "serve", "serve-0.txt")
    started = until(lambda: os.path.exists(served), 300)
    time.sleep(0.5)
    p.send_signal(signal.SIGTERM)
    try:
        rc = p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = p.wait()
    err = p.stderr.read().decode(errors="replace")
    check(started and rc == 128 + signal.SIGTERM and "Traceback" not in err,
          "otpu-regress stopped by SIGTERM mid-run: exit 143, no traceback", f"{rc} {err}")
    check(until(lambda: not marked(marker.encode()), 2),
          "no process of the stopped run is left (within 2 s)", marked(marker.encode()))
    before = files_of(out)
    time.sleep(3)
    check(files_of(out) == before, "nothing is written into --out after the run ended")


def direct(exe, args):
    p = subprocess.run([exe] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=600)
    return p.returncode, p.stdout


def results(out):
    """{test: (status, kind, exit, cycles, instructions, bucket)} of an otpu-regress run"""
    r = {}
    with open(os.path.join(out, "results.jsonl")) as f:
        for line in f:
            t = json.loads(line)
            r[t["name"]] = (t["status"], t["kind"], t["exit"], t["cycles"], t["instructions"],
                            t["bucket"])
    return r


def served_names(out):
    """the tests whose verdict came from a fork server"""
    with open(os.path.join(out, "results.jsonl")) as f:
        return {t["bundle"] for t in map(json.loads, f) if t.get("served")}


def main():
    rtl, gen, regress, bench = sys.argv[1:5]
    check = Checks()
    tmp = tempfile.mkdtemp(prefix="otpu-forkserver-")
    try:
        subprocess.run([gen, "hazard", "--seed", "3", "--count", "6", "--out",
                        os.path.join(tmp, "night")], check=True, capture_output=True)
        names = sorted(os.listdir(os.path.join(tmp, "night")))
        small = os.path.join(tmp, "night", names[0])
        loops = os.path.join(bench, "bench_loops")  # 2M cycles: seconds on the RTL
        exe = subprocess.run([rtl, "path", small], capture_output=True, text=True,
                             check=True).stdout.split()[-1]
        check(subprocess.run([rtl, "path", loops], capture_output=True, text=True)
              .stdout.split()[-1] == exe, "the long bundle shares the small one's simulator")
        s = Server(exe, os.path.join(tmp, "out.txt"))
        rep = os.path.join(tmp, "rep")
        passing = [small, "--lockstep", "--report", rep]
        failing = passing + ["+otpu_flip_unit=0", "+otpu_flip_n=1"]

        # a crash: the child killed by SIGSEGV in the middle of its run
        s.send([s.out, "0", loops, "--lockstep", "--report", rep])
        kid = s.child()
        if kid:
            os.kill(kid, signal.SIGSEGV)
        a = s.answer()
        check(a[:2] == ["signal", str(int(signal.SIGSEGV))],
              "a test that crashes is answered as its signal", a)
        for what, args in (("passing", passing), ("diverging", failing)):
            a, out = s.run(args)
            rc, want = direct(exe, args)
            check(a[:2] == ["exit", str(rc)] and out == want,
                  f"after the crash, a {what} test: exit {rc} and output as a process of its "
                  "own", f"{a}\n{out}\n---\n{want}")
        # a hang: killed at its timeout, and the next test is served
        t0 = time.monotonic()
        a, _ = s.run([loops, "--lockstep", "--report", rep], timeout=1)
        took = time.monotonic() - t0
        check(a[:1] == ["timeout"] and 1 <= took < 30,
              f"a test over its timeout is killed and answered 'timeout' ({took:.1f} s)", a)
        a, out = s.run(passing)
        check(a[:2] == ["exit", "0"] and "lockstep: PASS" in out, "after the timeout, a pass",
              f"{a} {out}")
        # bad requests
        s.send([s.out, "x", small])
        a = s.answer()
        check(a[:1] == ["bad"], "a timeout that is not a number: 'bad'", a)
        s.send([s.out])
        a = s.answer()
        check(a[:1] == ["bad"], "a request without arguments: 'bad'", a)
        a, out = s.run([small, "--bogus"])
        check(a[:2] == ["exit", "2"] and "--bogus" in out,
              "a bad option: the run's own exit 2 and one line", f"{a} {out}")
        s.p.stdin.write(b"x" * (1 << 20) + b"y")
        s.p.stdin.close()
        rc = s.p.wait(timeout=60)
        err = s.p.stderr.read().decode()
        check(rc == 2 and "longer than 1 MiB" in err and len(err.splitlines()) == 1,
              "a request past 1 MiB ends the server: exit 2, one line", f"{rc} {err}")

        dies_with_server(check, exe, loops, tmp)
        stopped_night(check, regress, loops, tmp)

        # a night with and without the fork server
        contra = os.path.join(tmp, "night", "zz-contradicts")
        shutil.copytree(os.path.join(tmp, "night", names[1]), contra)
        case = os.path.join(contra, "case.txt")
        with open(case) as f:
            text = f.read()
        with open(case, "w") as f:
            f.write(text.replace("expect=ok", "expect=error"))
        runs = {}
        for tag, extra in (("served", []), ("plain", ["--no-fork-server"])):
            out = os.path.join(tmp, tag)
            p = subprocess.run([regress, "run", os.path.join(tmp, "night"), "-j", "2", "--out",
                                out, "--db", "none", *extra], capture_output=True, text=True,
                               timeout=1200)
            check(p.returncode == 1, f"otpu-regress {tag}: exit 1 (one test fails)",
                  p.stdout[-2000:] + p.stderr[-2000:])
            runs[tag] = out
        served = {tag: served_names(out) for tag, out in runs.items()}
        check(len(served["served"]) == 6 and "zz-contradicts" not in served["served"] and
              not served["plain"],
              "the fork server gave the 6 passes' verdicts, the failure's was otpu-lockstep's, "
              "and none with --no-fork-server", served)
        a, b = results(runs["served"]), results(runs["plain"])
        check(a == b and len(a) == 7, "the same verdicts, exit statuses, counts and buckets "
              f"({len(a)} tests)", f"{a}\n{b}")
        contra_rec = [v for k, v in a.items() if k.endswith("/zz-contradicts")]
        check(len(contra_rec) == 1 and contra_rec[0][:2] == ("fail", "unexpected-outcome"),
              "the test whose expect= is contradicted fails as such", contra_rec)
        with open(os.path.join(runs["served"], "coverage.json")) as f, \
                open(os.path.join(runs["plain"], "coverage.json")) as g:
            check(json.load(f) == json.load(g), "the same merged functional coverage")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.verdict()


if __name__ == "__main__":
    sys.exit(main())
