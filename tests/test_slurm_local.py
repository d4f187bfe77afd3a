#!/usr/bin/env python3
"""The Slurm path for real: scripts/slurm-local starts a one-node cluster in a temporary folder,
otpu_regress.slurm.run_array runs array jobs on it (every shard runs and leaves its marker; a
task cancelled by Slurm is reported unfinished; a failing task keeps its exit status; bad
setups raise one-line errors), and `slurm-local stop` leaves none of its daemons running.
    test_slurm_local.py SOURCE_ROOT
Exit 77 (skipped) without root or without Slurm."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "regress"))
from otpu_regress import slurm  # noqa: E402

SCRIPT = os.path.join(root, "scripts", "slurm-local")
DAEMONS = ("munged", "slurmctld", "slurmd")
WRITE_FILE = "import sys; open(sys.argv[1], 'w').write(sys.argv[2])"


def log(line):
    print(line, file=sys.stderr, flush=True)


def slurm_local(command, env):
    p = subprocess.run([SCRIPT, command], env=env, capture_output=True, text=True, timeout=180)
    log(f"$ slurm-local {command} -> {p.returncode}\n{p.stdout}{p.stderr}".rstrip())
    return p


def alive(pid):
    """running and not a zombie"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def processes_of(folder, conf):
    """live processes whose command line names the folder, and slurmstepd of conf"""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{pid}/comm") as f:
                comm = f.read().strip()
            with open(f"/proc/{pid}/environ", "rb") as f:
                environ = f.read().split(b"\0")
        except OSError:
            continue
        from_cluster = folder + "/" in cmdline or (
            comm == "slurmstepd" and f"SLURM_CONF={conf}".encode() in environ)
        if from_cluster and int(pid) != os.getpid() and alive(pid):
            found.append(f"{pid} {cmdline.strip()}")
    return found


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def expect_error(fn, words):
    try:
        fn()
    except slurm.SlurmError as e:
        msg = str(e)
        expect("\n" not in msg and words in msg, f"error {msg!r} lacks {words!r}")
        log(f"ok: error: {msg}")
        return
    raise AssertionError(f"no SlurmError (expected one about {words!r})")


def check_jobs(tmp):
    # four shards, each writing its own file
    out = os.path.join(tmp, "four")
    lines = []
    status = slurm.run_array(
        4, lambda i: [sys.executable, "-c", WRITE_FILE, f"{out}/shard-{i}/result.txt",
                      f"shard {i} of 4"],
        out, partition="debug", log=lambda s: (lines.append(s), log(s)))
    expect(status == {1: 0, 2: 0, 3: 0, 4: 0}, f"four shards: status {status}")
    for i in range(1, 5):
        with open(f"{out}/shard-{i}/result.txt") as f:
            expect(f.read() == f"shard {i} of 4", f"shard {i} wrote the wrong text")
        with open(f"{out}/shard-{i}/.exit") as f:
            expect(f.read().strip() == "0", f"shard {i} marker")
        expect(os.path.isfile(f"{out}/slurm-{i}.out"), f"no slurm-{i}.out")
    expect(any("submitted slurm job" in s for s in lines), "no submission line")
    expect(any("4/4 tasks done" in s for s in lines), "no final progress line")
    log("ok: 4 shards ran, each wrote its file and its marker")

    # shard 2 cancelled by Slurm while it runs, shard 3 fails with status 3, shard 4 kills
    # its batch shell (so no marker, Slurm state FAILED; nothing may sleep on there: the job's
    # orphans escape proctrack/linuxproc)
    out = os.path.join(tmp, "killed")
    commands = {
        1: [sys.executable, "-c", WRITE_FILE, f"{out}/shard-1/result.txt", "one"],
        2: ["sh", "-c", 'scancel "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"; sleep 60',
            f"{out}/shard-2"],  # $0: names the test folder, so a leftover shows below
        3: [sys.executable, "-c", "raise SystemExit(3)"],
        4: ["sh", "-c", "kill -9 $PPID", f"{out}/shard-4"],
    }
    t0 = time.monotonic()
    status = slurm.run_array(4, commands.get, out, sbatch_args=["--time=5"], log=log)
    expect(status == {1: 0, 2: None, 3: 3, 4: None}, f"killed/failing shards: status {status}")
    expect(time.monotonic() - t0 < 50, "the cancelled task ran on (its sleep 60 finished?)")
    expect(not os.path.exists(f"{out}/shard-4/.exit"), "the shard whose shell died has a marker")
    with open(f"{out}/slurm-2.out") as f:
        expect("CANCELLED" in f.read(), "slurm-2.out does not say the task was cancelled")
    log("ok: cancelled shard and shard without marker reported unfinished (None), "
        "failing shard kept status 3")

    # bad setups: one-line errors, no job
    expect_error(lambda: slurm.run_array(1, commands.get, out, partition="no-such-partition"),
                 "sbatch failed")
    conf = os.environ["SLURM_CONF"]
    os.environ["SLURM_CONF"] = os.path.join(tmp, "nowhere.conf")
    try:
        expect_error(lambda: slurm.run_array(1, commands.get, out), "does not exist")
    finally:
        os.environ["SLURM_CONF"] = conf


def main():
    if os.geteuid() != 0:
        log("skip: slurm-local needs root")
        return 77
    missing = [t for t in ("munged", "slurmctld", "slurmd", "sbatch") if not shutil.which(t)]
    if missing:
        log(f"skip: not installed: {' '.join(missing)} (scripts/setup)")
        return 77
    tmp = tempfile.mkdtemp(prefix="otpu-slurm-test-", dir="/tmp")  # short: unix socket paths
    folder = os.path.join(tmp, "cluster")
    env = dict(os.environ, OTPU_SLURM_DIR=folder)
    conf = os.path.join(folder, "slurm.conf")
    pids = {}
    try:
        p = slurm_local("start", env)
        expect(p.returncode == 0, "start failed")
        expect(p.stdout.strip() == f"export SLURM_CONF={conf}", f"start printed {p.stdout!r}")
        for d in DAEMONS:
            pid_file = os.path.join(folder, f"{d}.pid")
            if d == "munged" and not os.path.exists(pid_file):
                continue  # the machine's munged serves it
            with open(pid_file) as f:
                pids[d] = int(f.read())
            expect(alive(pids[d]), f"{d} ({pids[d]}) not running after start")
        expect("slurmctld" in pids and "slurmd" in pids, "no slurmctld/slurmd pid file")

        p = slurm_local("start", env)
        expect(p.returncode == 0 and "already running" in p.stderr, "second start")
        expect(p.stdout.strip() == f"export SLURM_CONF={conf}", "second start's export line")
        p = slurm_local("status", env)
        expect(p.returncode == 0 and " idle" in p.stdout, "status of a running cluster")

        os.environ["SLURM_CONF"] = conf
        check_jobs(tmp)
    finally:
        p = slurm_local("stop", env)
    expect(p.returncode == 0, "stop failed")
    expect(not os.path.exists(folder), "stop left the folder")
    left = [f"{d} {pid}" for d, pid in pids.items() if alive(pid)] + processes_of(tmp, conf)
    expect(not left, f"still running after stop: {left}")
    p = slurm_local("status", env)
    expect(p.returncode == 3, "status after stop")
    log(f"ok: stop ended {', '.join(f'{d} {pid}' for d, pid in pids.items())}; nothing left")
    shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
