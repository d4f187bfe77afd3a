#!/usr/bin/env python3
"""Processes and the build cache: a stopped tool stops everything it started and prints no
verdict; a killed build leaves no compiler running, no lock held and (after the next build) no
temporary folder; a waiting build says what it waits for; a read-only cache is usable.

usage: test_processes.py OTPU_LOCKSTEP OTPU_RTL LONG_BUNDLE SMALL_BUNDLE"""
import fcntl
import glob
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_bad_input import Suite  # noqa: E402

# A Config no other test builds: its build is started and killed, never finished here.
UNBUILT = ["D=64", "MCOLS=3", "ACT_BLOCKS=5"]


def live(pattern):
    """Live (not zombie) processes whose command line holds pattern."""
    out = subprocess.run(["ps", "-eo", "pid=,stat=,args="], capture_output=True, text=True).stdout
    return [l for l in out.splitlines() if pattern in l and l.split()[1][0] != "Z"
            and "ps -eo" not in l]


def wait_for(cond, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.1)
    return cond()


def lock_free(path):
    with open(path, "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            return False


def stop_a_run(s, tool, bundle, sig, label):
    """Starts a lockstep run, stops the tool alone with sig once the simulator runs."""
    r = s.path("report_" + label)
    out = open(s.path(label + ".out"), "w+")
    p = subprocess.Popen([tool, "run", bundle, "--report", r], stdout=out,
                         stderr=subprocess.STDOUT)
    child = "--lockstep --report " + r  # (the simulator's command line, not the tool's)
    started = wait_for(lambda: live(child), 60)
    os.kill(p.pid, sig)  # the tool alone, not its process group
    rc = p.wait(timeout=30)
    gone = wait_for(lambda: not live(child), 2)  # (the run takes longer)
    time.sleep(4)  # a verdict would come by now
    out.seek(0)
    text = out.read()
    # (a tool killed by SIGKILL cannot remove the report folder it made)
    cleaned = sig == signal.SIGKILL or not os.path.exists(r)
    s.check(f"{label}: the simulator stops with the tool and no verdict is printed",
            started and rc == -sig and gone and "lockstep:" not in text and cleaned,
            f"started {started} rc {rc} gone {gone} cleaned {cleaned} out {text!r}")


def killed_builds(s, rtl):
    cache = s.path("cache")
    env = dict(os.environ, OTPU_RTL_CACHE=cache, OTPU_RTL_PREBUILT=s.path("none"))

    def start(name):
        log = open(s.path(name), "w+")
        p = subprocess.Popen([rtl, "build", *UNBUILT], stdout=log, stderr=subprocess.STDOUT,
                             env=env)
        return p, log

    p, _ = start("b1.log")
    building = wait_for(lambda: live(cache + "/") and glob.glob(cache + "/*.tmp*"), 60)
    time.sleep(2)  # compilers running
    tmp1 = glob.glob(cache + "/*.tmp*")
    p.send_signal(signal.SIGKILL)
    p.wait()
    gone = wait_for(lambda: not live(cache + "/"), 5)
    locks = glob.glob(cache + "/*.lock")
    s.check("kill -9 of a building tool: no build process left, the lock is free",
            building and gone and locks and lock_free(locks[0]),
            f"building {building} left {live(cache + '/')}")

    p1, _ = start("b2.log")
    wait_for(lambda: glob.glob(cache + "/*.tmp*") != tmp1 and len(glob.glob(cache + "/*.tmp*"))
             == 1, 30)
    s.check("the next build removes the killed build's temporary folder",
            tmp1 and not any(os.path.exists(t) for t in tmp1), f"{tmp1}")
    p2, log2 = start("b3.log")
    waits = wait_for(lambda: "waiting for another build" in open(s.path("b3.log")).read(), 30)
    s.check("a second build of the same Config says what it waits for", waits,
            open(s.path("b3.log")).read())
    p1.send_signal(signal.SIGTERM)
    rc1 = p1.wait(timeout=30)
    p2.send_signal(signal.SIGINT)
    rc2 = p2.wait(timeout=30)
    gone = wait_for(lambda: not live(cache + "/"), 5)
    s.check("SIGTERM and SIGINT stop builds: the tools end by the signal, nothing left behind",
            rc1 == -signal.SIGTERM and rc2 == -signal.SIGINT and gone and
            not glob.glob(cache + "/*.tmp*"), f"{rc1} {rc2} {glob.glob(cache + '/*')}")


def read_only_cache(s, rtl, bundle):
    """A cache the user cannot write: as root the run drops to nobody; chmod otherwise."""
    ro = s.path("ro")
    os.makedirs(ro)
    exe = subprocess.run([rtl, "path", bundle], capture_output=True, text=True).stdout.strip()
    built = os.path.dirname(os.path.dirname(exe))  # the simulator and its RTL library
    for d in os.listdir(built):
        if os.path.isdir(os.path.join(built, d)) and ".tmp" not in d:
            shutil.copytree(os.path.join(built, d), os.path.join(ro, d))
    home = s.path("home")
    os.makedirs(home)
    for d in (s.tmp, ro, home):
        os.chmod(d, 0o755)
    prefix = []
    if os.geteuid() == 0:
        shutil.chown(home, "nobody")
        prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    else:
        os.chmod(ro, 0o555)
    env = dict(os.environ, HOME=home, OTPU_RTL_CACHE=ro, OTPU_RTL_PREBUILT=s.path("none"))
    env.pop("XDG_CACHE_HOME", None)
    p = subprocess.run(prefix + [rtl, "path", bundle], capture_output=True, text=True, env=env,
                       timeout=60)
    s.check("a read-only cache that holds the build is used without a lock",
            p.returncode == 0 and p.stdout.strip().startswith(ro), f"{p.returncode} {p.stderr}")
    p = subprocess.Popen(prefix + [rtl, "build", *UNBUILT], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=env)
    said = wait_for(lambda: glob.glob(home + "/.cache/otpu-lockstep/rtl/*.tmp*"), 30)
    p.send_signal(signal.SIGTERM)
    out = p.communicate(timeout=30)[0]
    s.check("a read-only cache without the build: the per-user cache, and one line saying so",
            said and f"the cache {ro} cannot be written; building in {home}" in out, out)


def relative_cache(s, rtl, bundle):
    """OTPU_RTL_CACHE as a relative path: the simulator is linked (its step runs in a folder of
    its own) against the library found there, and its path is printed absolute."""
    exe = subprocess.run([rtl, "path", bundle], capture_output=True, text=True).stdout.strip()
    built = os.path.dirname(os.path.dirname(exe))
    os.makedirs(s.path("rel"))
    for d in os.listdir(built):  # the RTL library only: the simulator is built now
        if d.startswith("lib-") and ".tmp" not in d and os.path.isdir(os.path.join(built, d)):
            shutil.copytree(os.path.join(built, d), os.path.join(s.path("rel"), d))
    env = dict(os.environ, OTPU_RTL_CACHE="rel", OTPU_RTL_PREBUILT=s.path("none"))
    p = subprocess.run([os.path.abspath(rtl), "path", os.path.abspath(bundle)],
                       capture_output=True, text=True, env=env, cwd=s.tmp, timeout=600)
    out = p.stdout.strip()
    s.check("a relative OTPU_RTL_CACHE: the simulator is built and named by an absolute path",
            p.returncode == 0 and out.startswith(s.path("rel") + "/") and os.path.isfile(out),
            f"{p.returncode} {out} {p.stderr[-600:]}")


def main():
    tool, rtl, long_bundle, small = sys.argv[1:5]
    s = Suite(tool)
    for sig, label in ((signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "SIGINT"),
                       (signal.SIGKILL, "SIGKILL")):
        stop_a_run(s, tool, long_bundle, sig, label)
    killed_builds(s, rtl)
    read_only_cache(s, rtl, small)
    relative_cache(s, rtl, small)
    return s.finish()


if __name__ == "__main__":
    sys.exit(main())
