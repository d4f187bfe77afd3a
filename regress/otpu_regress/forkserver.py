"""Tests through the fork servers of their Configs' simulators (rtl_bridge/rtl_serve.h): one
server per Config and worker thread, started on the thread's first test of that Config, builds
the Verilated model once and forks a child per test, so that a test pays no exec, no dynamic
loading and no model construction. Each child runs the bundle exactly as `otpu-lockstep run`'s
simulator would; the server never runs a test itself, so a crash or a hang stays in its child.

Only a pass is taken from a server: any other outcome (a divergence, bad input, a crash) is run
again through otpu-lockstep, whose verdict, report, waveform and repro are the ones recorded, so
a failure reads the same with or without servers. A timeout is the server's (the same limit).
A server's runs die with it (rtl_serve.h), and otpu-regress stopped by a signal kills them
before their server (procs.stop_all): no run goes on writing into the output folder."""
import os
import subprocess
import threading

from . import files, lock, procs

MIN_TESTS = 4  # a Config with fewer tests runs them through otpu-lockstep alone
OUTPUT_LIMIT = 16 << 20  # bytes of a child's output read back


class ServerGone(Exception):
    """the server ended or answered nonsense: the test runs through otpu-lockstep instead"""


class Server:
    def __init__(self, exe, out_path):
        self.out = out_path
        self.p = subprocess.Popen([exe, "--serve"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  start_new_session=True, pass_fds=lock.held())
        procs.track(self.p)

    def run(self, args, timeout):
        """(exit status or None, output, seconds, timed out) of one run of the simulator"""
        fields = [self.out, str(int(timeout or 0))] + list(args)
        if any(not f or "\0" in f for f in fields):
            raise ServerGone("an empty argument cannot be sent")
        req = b"\0".join(os.fsencode(f) for f in fields) + b"\0\0"
        try:
            self.p.stdin.write(req)
            self.p.stdin.flush()
            line = self.p.stdout.readline().decode("ascii", "replace").split()
        except OSError as e:
            raise ServerGone(str(e)) from None
        try:
            if line[0] == "exit":
                status, secs, timed_out = int(line[1]), float(line[2]), False
            elif line[0] == "signal":
                status, secs, timed_out = -int(line[1]), float(line[2]), False
            elif line[0] == "timeout":
                status, secs, timed_out = None, float(line[1]), True
            else:
                raise ServerGone(" ".join(line) or "the server ended")
        except (IndexError, ValueError):
            raise ServerGone(" ".join(line) or "the server ended") from None
        try:
            output = files.read_text(self.out, OUTPUT_LIMIT)
        except files.BadFile as e:
            raise ServerGone(str(e)) from None
        return status, output, secs, timed_out

    def close(self):
        try:
            self.p.stdin.close()
            self.p.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()
            self.p.wait()
        procs.untrack(self.p)


class Servers:
    """the fork servers of a run: {config: simulator} and where their children's output goes"""

    def __init__(self, exes, work_dir):
        self.exes = exes
        self.work = work_dir
        self.local = threading.local()
        self.lock = threading.Lock()
        self.all = []

    def of(self, config):
        """this thread's server of config (None: the Config has none)"""
        if config not in self.exes:
            return None
        mine = getattr(self.local, "servers", None)
        if mine is None:
            mine = self.local.servers = {}
        s = mine.get(config)
        if s is None or s.p.poll() is not None:
            with self.lock:
                n = len(self.all)
                os.makedirs(self.work, exist_ok=True)
                s = Server(self.exes[config], os.path.join(self.work, f"serve-{n}.txt"))
                self.all.append(s)
            mine[config] = s
        return s

    def close(self):
        for s in self.all:
            s.close()


def simulator_args(test, report, coverage):
    """the simulator's arguments for a test, as otpu-lockstep run gives them (no plusargs: a
    test with plusargs runs through otpu-lockstep, which checks them)"""
    args = [os.path.abspath(test.path), "--lockstep", "--report", report, "--repro",
            "otpu-lockstep run " + test.path]
    return args + (["--coverage", coverage] if coverage else [])
