"""The Slurm array job of `otpu-regress run --slurm`: one array task per shard, each writing its
own shard folder (out_dir/shard-I) on the shared file system.

The batch script ends every task by writing out_dir/shard-I/.exit with its command's exit
status, so a shard's status needs no Slurm accounting (often off on small clusters). A task that
Slurm kills (cancelled, time limit, node failure) usually leaves no marker; as the batch shell
may still write one when its command dies of Slurm's SIGTERM first, the task's final state
from squeue (kept by slurmctld for MinJobAge after the job ends) overrules the marker."""
import os
import shlex
import shutil
import subprocess
import time

from . import files, outputs
from .errors import UsageError

POLL_S = 2.0
# After the job has left the queue, a marker written on another node may take a moment to show
# on a network file system; look again for this long before calling a task unfinished.
MARKER_GRACE_S = 5.0
# squeue failing this many polls in a row (controller gone) ends the wait with an error.
SQUEUE_RETRIES = 15
# Array task states that mean "not finished yet" (squeue -r lists one line per task).
ACTIVE_STATES = {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED",
                 "REQUEUE_HOLD", "REQUEUE_FED", "RESIZING", "SIGNALING", "STAGE_OUT",
                 "STOPPED", "RESV_DEL_HOLD"}
# Final states of a task that Slurm ended before its command finished.
KILLED_STATES = {"CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "OUT_OF_MEMORY",
                 "BOOT_FAIL", "DEADLINE", "REVOKED"}


class SlurmError(UsageError):
    """Slurm missing, misconfigured or refusing the job: one line"""


def marker_path(out_dir, shard):
    return os.path.join(out_dir, f"shard-{shard}", ".exit")


def batch_script(shards, shard_command, out_dir, resume=None):
    """The array job's script: task I runs shard_command(I) and records its exit status;
    resume: the argv that, with the shard's folder after it, resumes its run: a task Slurm
    requeued (preempted, its node failed) whose folder holds the run it started goes on with
    it instead of starting again."""
    lines = ["#!/bin/bash",
             f"# otpu-regress: {shards} shards as one Slurm array job (otpu_regress/slurm.py)",
             "#SBATCH --job-name=otpu-regress",
             f"#SBATCH --array=1-{shards}",
             f'#SBATCH --output="{os.path.join(out_dir, "slurm-%a.out")}"',
             'i=${SLURM_ARRAY_TASK_ID:?run this script as a Slurm array task}',
             'case $i in']
    for i in range(1, shards + 1):
        lines.append(f"  {i}) cmd=({shlex.join(shard_command(i))}) ;;")
    lines += ['  *) echo "no shard $i" >&2; exit 2 ;;',
              "esac",
              f"shard={shlex.quote(out_dir)}/shard-$i",
              'mkdir -p "$shard"',
              *(['if [ -f "$shard/run.json" ]; then  # requeued: its run goes on',
                 f'  cmd=({shlex.join(resume)} "$shard")',
                 "fi"] if resume else []),
              f'echo "otpu-regress: shard $i/{shards} on $(hostname -s):" "${{cmd[@]}}"',
              '"${cmd[@]}"',
              "rc=$?",
              '# written last, and atomically: no marker means the task did not finish',
              'echo "$rc" >"$shard/.exit.tmp" && mv "$shard/.exit.tmp" "$shard/.exit"',
              'exit "$rc"']
    return "\n".join(lines) + "\n"


def check_tools():
    for tool in ("sbatch", "squeue"):
        if shutil.which(tool) is None:
            raise SlurmError(f"{tool} not found: install slurm-client (scripts/setup), "
                             "or run without --slurm")
    conf = os.environ.get("SLURM_CONF")
    if conf is not None and not os.path.isfile(conf):
        raise SlurmError(f"SLURM_CONF={conf} does not exist "
                         "(a local cluster: eval \"$(scripts/slurm-local start)\")")
    if conf is None and not os.path.isfile("/etc/slurm/slurm.conf"):
        raise SlurmError("no Slurm configuration: SLURM_CONF is unset and "
                         "/etc/slurm/slurm.conf does not exist "
                         "(a local cluster: eval \"$(scripts/slurm-local start)\")")


def last_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def submit(script, partition, sbatch_args):
    argv = ["sbatch", "--parsable"]
    if partition:
        argv.append(f"--partition={partition}")
    if isinstance(sbatch_args, str):
        sbatch_args = shlex.split(sbatch_args)
    argv += list(sbatch_args) + [script]
    p = subprocess.run(argv, capture_output=True, text=True, errors="replace",
                       stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        raise SlurmError(f"sbatch failed: {last_line(p.stderr).removeprefix('sbatch: error: ')}")
    job = p.stdout.strip().split(";")[0]  # "JOBID" or "JOBID;CLUSTER"
    if not job.isdigit():
        raise SlurmError(f"sbatch printed no job id: {last_line(p.stdout + p.stderr)}")
    return job


def task_states(job):
    """{array task index: state} of the job's tasks, finished ones included ({} once the
    controller forgot the job), or None when squeue failed."""
    p = subprocess.run(["squeue", "-j", job, "-h", "-r", "-t", "all", "-o", "%K %T"],
                       capture_output=True, text=True, errors="replace",
                       stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        return {} if "Invalid job id" in p.stderr else None
    states = {}
    for line in p.stdout.splitlines():
        index, _, state = line.partition(" ")
        if index.isdigit():
            states[int(index)] = state.strip()
    return states


def wait_for(job, shards, log):
    """Polls squeue until no task of the job is active, logging done/total when it changes;
    returns the tasks' final states ({} when the controller forgot the job)."""
    failures, shown = 0, None
    while True:
        states = task_states(job)
        if states is None:
            failures += 1
            if failures >= SQUEUE_RETRIES:
                raise SlurmError(f"squeue cannot reach the Slurm controller; job {job} "
                                 f"may still run (squeue -j {job})")
        else:
            failures = 0
            active = [s for s in states.values() if s in ACTIVE_STATES]
            line = (f"otpu-regress: slurm job {job}: {shards - len(active)}/{shards} tasks "
                    f"done, {active.count('RUNNING')} running, "
                    f"{active.count('PENDING')} pending")
            if line != shown:
                log(line)
                shown = line
            if not active:
                return states
        time.sleep(POLL_S)


def read_marker(out_dir, shard):
    try:
        text = files.read_text(marker_path(out_dir, shard), 64).strip()
    except files.BadFile:
        return None
    return int(text) if text.isdigit() and len(text) < 4 else None


def collect(out_dir, shards, killed):
    """{shard: its marker's exit status, None for the killed ones and those without one}"""
    deadline = time.monotonic() + MARKER_GRACE_S
    while True:
        status = {i: None if i in killed else read_marker(out_dir, i)
                  for i in range(1, shards + 1)}
        missing = [i for i, rc in status.items() if rc is None and i not in killed]
        if not missing or time.monotonic() >= deadline:
            return status
        time.sleep(0.5)


def run_array(shards, shard_command, out_dir, partition=None, sbatch_args=(), log=print,
              resume=None):
    """Runs shard_command(i) (an argv list) for i = 1..shards as one Slurm array job, waits
    for it, and returns {i: exit status of shard i's command, or None when its task did not
    finish (killed by Slurm, or never ran)}. Raises SlurmError (one line) when Slurm is
    missing, misconfigured or refuses the job. Each task's output: out_dir/slurm-I.out."""
    if shards < 1:
        raise SlurmError(f"a Slurm array needs at least one shard, not {shards}")
    check_tools()
    out_dir = os.path.abspath(out_dir)
    if not out_dir.isprintable() or any(c in out_dir for c in '"%\\'):
        raise SlurmError(f"the output folder's path cannot name Slurm's output files "
                         f"(no \", %, \\ or control character): {out_dir}")
    os.makedirs(out_dir, exist_ok=True)
    for i in range(1, shards + 1):
        try:
            os.remove(marker_path(out_dir, i))  # a marker from an earlier run
        except FileNotFoundError:
            pass
    script = os.path.join(out_dir, "slurm-array.sh")
    outputs.write(script, batch_script(shards, shard_command, out_dir, resume))
    job = submit(script, partition, sbatch_args)
    log(f"otpu-regress: submitted slurm job {job}: {shards} tasks, script {script}")
    try:
        states = wait_for(job, shards, log)
    except KeyboardInterrupt:
        subprocess.run(["scancel", job], stdin=subprocess.DEVNULL)
        log(f"otpu-regress: interrupted; cancelled slurm job {job}")
        raise
    status = collect(out_dir, shards, {i for i, s in states.items() if s in KILLED_STATES})
    unfinished = [f"{i} ({states.get(i, 'no marker')})" for i, rc in status.items() if rc is None]
    if unfinished:
        log(f"otpu-regress: slurm job {job}: shard(s) {', '.join(unfinished)} did not finish "
            f"(see {os.path.join(out_dir, 'slurm-I.out')})")
    return status
