"""The child processes of a run: each in a process group of its own, so that a timeout stops
the whole group (otpu-lockstep, its simulator, a build's compilers), and all of them stopped
when otpu-regress itself is (SIGINT, SIGTERM, SIGHUP: a Slurm cancel, a closed terminal).
Each holds the output folder's lock too (lock.held): one left running by an otpu-regress that
was killed alone keeps a resumed run out of the folder until it ends. otpu-mutate runs its
children with this module too."""
import os
import signal
import subprocess
import threading
import time

from . import lock

_live = set()
_servers = set()  # (of _live: the fork servers)
_lock = threading.RLock()  # the signal handler takes it in the main thread too
_stopping = threading.Event()


class Stopped(Exception):
    """otpu-regress was told to stop by a signal"""

    def __init__(self, signum):
        super().__init__(f"stopped by signal {signum}")
        self.signum = signum


def _stop_group(p):
    """SIGTERM to p's group, SIGKILL if it is still there after 10 s; its output so far"""
    out = ""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, None)):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            pass
        try:
            out, _ = p.communicate(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    return out or ""


def run(cmd, timeout=None, env=None, unset=(), cwd=None):
    """(exit status or None, output, seconds, timed out) of cmd, stdout and stderr together;
    env: variables set over this process's environment, unset: variables taken out of it;
    cwd: the folder it runs in"""
    if _stopping.is_set():
        raise Stopped(signal.SIGTERM)
    t0 = time.monotonic()
    # bytes that are not UTF-8 kept as surrogates: text.visible shows them, output.txt keeps them
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             encoding="utf-8", errors="surrogateescape", start_new_session=True,
                             env=_environment(env, unset), cwd=cwd, pass_fds=lock.held())
    except OSError as e:  # the tool went (a rebuild in progress, say): this test's crash
        return 127, f"cannot run {cmd[0]}: {e.strerror}", time.monotonic() - t0, False
    with _lock:
        _live.add(p)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out, time.monotonic() - t0, False
    except subprocess.TimeoutExpired:
        return None, _stop_group(p), time.monotonic() - t0, True
    finally:
        with _lock:
            _live.discard(p)


def stopping():
    """otpu-regress is being stopped: what a child ended with now is not its verdict"""
    return _stopping.is_set()


def track(p):
    """a long-lived child (a fork server, in a session of its own) stopped with the others, and
    its own children (the runs it forked, each a process group) with it"""
    with _lock:
        _live.add(p)
        _servers.add(p)


def untrack(p):
    with _lock:
        _live.discard(p)
        _servers.discard(p)


def _children(pid):
    """the pids of pid's children (Linux's /proc; none when it cannot be read)"""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except (OSError, ValueError):
        return []


def _environment(env, unset):
    if not env and not unset:
        return None
    e = {**os.environ, **(env or {})}
    for k in unset:
        e.pop(k, None)
    return e


def stop_all():
    """no new process, and every running one's group stopped; a fork server's runs killed
    first (they also die with their server: rtl_bridge/rtl_serve.h), so that none of them
    writes into the output folder after otpu-regress has ended"""
    _stopping.set()
    with _lock:
        live = [(p, _children(p.pid) if p in _servers else []) for p in _live]
    for p, runs in live:
        for group, sig in [(pid, signal.SIGKILL) for pid in runs] + [(p.pid, signal.SIGTERM)]:
            try:
                os.killpg(group, sig)
            except ProcessLookupError:
                pass


def on_signals(signals=(signal.SIGTERM, signal.SIGHUP)):
    """each of signals stops every child's group and raises Stopped in the main thread
    (otpu-regress leaves SIGINT to KeyboardInterrupt; otpu-mutate passes it too)"""
    def stop(signum, _frame):
        stop_all()
        raise Stopped(signum)
    for sig in signals:
        signal.signal(sig, stop)
