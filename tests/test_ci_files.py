#!/usr/bin/env python3
"""test_ci_files.py SOURCE_ROOT VECTORS_DIR BENCH_DIR OTPU_GEN

Checks the ci/ files of issue 12 without running a regression:
  - ci/nightly.suite and ci/smoke.suite, read by a reader of their own (the format of
    otpu-regress's suite files, not its code): every path entry exists and holds bundles, every
    gen entry names a family and Config fields otpu-gen knows and writes its first bundle,
    test names are unique; the night covers every golden and bench bundle, every family, a
    second Config and at least 1,000 generated programs; the smoke suite stays small;
  - .github/workflows/nightly.yml and .gitlab-ci.yml parse (python3-yaml) and have the shard
    job, the merge job and the artifacts of the design;
  - ci/slurm/nightly.sbatch is an array job running otpu-regress with --shard;
  - ci/opentpu.suite is generated programs of revision acf0c1c6 at 1, 2 and 4 slices,
    ci/opentpu-acf0c1c6.waivers reads as otpu-regress reads it, one waiver per difference
    docs/opentpu.md documents, ci/opentpu-axi.suite is D=128 programs of that revision under
    more than one AXI timing (+axi_seed, +axi_stall on every entry), and
    .github/workflows/opentpu-night.yml runs both with their OTPU_DUT and the waivers;
  - every project path a command names exists in the source tree or is built by meson.
Each failed check is one line; exit status 1 if any failed.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("ci-files: FAIL: python3-yaml is missing (Debian: apt-get install python3-yaml; "
          "scripts/setup installs it)")
    sys.exit(1)

NIGHTLY_MIN_GENERATED = 1000
SMOKE_MAX_TESTS = 60
SHARDS = 4
ALLOWED_ACTIONS = ("actions/checkout@", "actions/upload-artifact@", "actions/download-artifact@")
# a project path in a command: ci/..., scripts/..., build/... (not ../shared, not out/...)
PROJECT_PATH = re.compile(r"(?:^|(?<=[\s;&|(=\"']))((?:build|ci|scripts|regress|tests)/[\w.\-/]*)")

failures = []


def fail(msg):
    failures.append(msg)
    print(f"ci-files: FAIL: {msg}")


# ---------------------------------------------------------------- otpu-gen's families and keys

def gen_help(otpu_gen):
    """(families, Config keys) from `otpu-gen --help`"""
    try:
        out = subprocess.run([otpu_gen, "--help"], capture_output=True, text=True, timeout=30)
    except OSError as e:
        fail(f"{otpu_gen} --help: {e.strerror}")
        return set(), set()
    text = out.stdout + out.stderr
    families = re.findall(r"^  ([a-z0-9_]+)\s{2,}\S", text.split("families:", 1)[-1], re.M)
    keys = re.search(r"Config field \(([A-Z_ \n]+)[;)]", text)
    if out.returncode != 0 or not families or not keys:
        fail(f"{otpu_gen} --help (exit {out.returncode}) lists no families or Config fields")
        return set(), set()
    return set(families), set(keys.group(1).split())


# ---------------------------------------------------------------- suite files

def read_suite(path, rel):
    """entries of a suite file: dicts with where (file:line), source (the ENTRY), name, plusargs"""
    entries = []
    with open(path) as f:
        for no, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            where = f"{rel}:{no}"
            try:
                words = shlex.split(text)
            except ValueError as err:
                fail(f"{where}: {err}")
                continue
            e = {"where": where, "source": words[0], "name": None, "plusargs": []}
            for w in words[1:]:
                if w.startswith("name=") and len(w) > 5:
                    e["name"] = w[5:]
                elif w.startswith("+") and len(w) > 1:
                    e["plusargs"].append(w)
                else:
                    fail(f"{where}: '{w}' is neither name=NAME nor a +plusarg")
            entries.append(e)
    if not entries:
        fail(f"{rel}: no entry")
    return entries


def parse_gen(e, families, keys):
    """gen:FAMILY:seed=N:count=K[:KEY=VALUE...] -> dict, or None after a failure line"""
    parts = e["source"].split(":")
    g = {"family": parts[1] if len(parts) > 1 else "", "seed": None, "count": None,
         "overrides": [], "rev": None}
    ok = True
    if g["family"] not in families:
        fail(f"{e['where']}: family '{g['family']}' is not one otpu-gen --help lists "
             f"({' '.join(sorted(families))})")
        ok = False
    for p in parts[2:]:
        k, _, v = p.partition("=")
        if k in ("seed", "count"):
            if not re.fullmatch(r"\d+", v) or (k == "count" and int(v) < 1):
                fail(f"{e['where']}: {k}='{v}' is not a{' positive' if k == 'count' else 'n'} "
                     "integer")
                ok = False
            else:
                g[k] = int(v)
        elif k in keys and re.fullmatch(r"\d+|0x[0-9a-fA-F]+", v):
            g["overrides"].append(p)
        elif k == "rev" and re.fullmatch(r"[a-z0-9]{1,40}", v):
            g["rev"] = v
        elif k == "data" and v in ("all", "finite"):
            g["data"] = v
        else:
            fail(f"{e['where']}: '{p}' is neither seed=, count= nor a Config KEY=VALUE "
                 "otpu-gen knows")
            ok = False
    for k in ("seed", "count"):
        if ok and g[k] is None:
            fail(f"{e['where']}: {k}= is missing")
            ok = False
    return g if ok else None


def expand(source, base, variables, where):
    """the folder of a path entry: ${VAR} from variables, relative to the suite's folder"""
    def var(m):
        if m.group(1) not in variables:
            raise KeyError(m.group(1))
        return variables[m.group(1)]
    try:
        path = re.sub(r"\$\{(\w+)\}", var, source)
    except KeyError as k:
        fail(f"{where}: '{source}' names ${{{k.args[0]}}}, which is not "
             f"{' or '.join(variables)}")
        return None
    if "$" in path:
        fail(f"{where}: '{source}': write variables as ${{NAME}}")
        return None
    return os.path.normpath(os.path.join(base, path))


def bundles_in(folder):
    """[(name, path)] of a bundle folder or a folder of bundle folders"""
    if os.path.isfile(os.path.join(folder, "case.txt")):
        return [(os.path.basename(folder), folder)]
    return [(n, os.path.join(folder, n)) for n in sorted(os.listdir(folder))
            if os.path.isfile(os.path.join(folder, n, "case.txt"))]


def check_gen_writes(otpu_gen, e, g, tmp):
    """otpu-gen accepts the entry (family, seed, overrides): its first bundle is written"""
    out = os.path.join(tmp, f"g{len(os.listdir(tmp))}")
    cmd = [otpu_gen, g["family"], "--seed", str(g["seed"]), "--count", "1", "--out", out] + \
        (["--rev", g["rev"]] if g["rev"] else []) + (["--data", g["data"]] if g.get("data") else [])
    r = subprocess.run(cmd + g["overrides"], capture_output=True, text=True, timeout=120)
    first = os.path.join(out, f"{g['family']}-{g['seed']}-0000", "case.txt")
    if r.returncode != 0 or not os.path.isfile(first):
        why = (r.stderr.strip().splitlines() or [f"no {first}"])[-1]
        fail(f"{e['where']}: otpu-gen refuses '{e['source']}' (exit {r.returncode}): {why}")


def check_suite(rel, root, variables, otpu_gen, families, keys, tmp):
    """reads and checks one suite file; returns its figures"""
    path = os.path.join(root, rel)
    fig = {"entries": 0, "tests": 0, "generated": 0, "families": set(), "configs": set(),
           "bundles": set()}
    if not os.path.isfile(path):
        fail(f"{rel}: missing")
        return fig
    names = {}
    for e in read_suite(path, rel):
        fig["entries"] += 1
        fig.setdefault("plusargs", []).append(e["plusargs"])
        if e["source"].startswith("gen:"):
            g = parse_gen(e, families, keys)
            if g is None:
                continue
            check_gen_writes(otpu_gen, e, g, tmp)
            fig["generated"] += g["count"]
            fig["families"].add(g["family"])
            fig["configs"].add(tuple(sorted(g["overrides"])))
            fig.setdefault("revs", set()).add(g["rev"])
            entry = e["name"] or "-".join([f"gen-{g['family']}-seed{g['seed']}"] +
                                          [o.replace("=", "-") for o in g["overrides"]])
            tests = [f"{g['family']}-{g['seed']}-{i:04d}" for i in range(g["count"])]
        else:
            folder = expand(e["source"], os.path.dirname(path), variables, e["where"])
            if folder is None:
                continue
            if not os.path.isdir(folder):
                fail(f"{e['where']}: '{e['source']}': no such folder ({folder})")
                continue
            found = bundles_in(folder)
            if not found:
                fail(f"{e['where']}: '{e['source']}' holds no bundle (a folder with case.txt)")
                continue
            fig["bundles"].update(os.path.realpath(p) for _, p in found)
            entry = e["name"] or os.path.basename(folder)
            tests = [n for n, _ in found]
        for t in tests:
            name = f"{entry}/{t}"
            if name in names:
                fail(f"{e['where']}: test '{name}' is also named by {names[name]}")
            names[name] = e["where"]
        fig["tests"] += len(tests)
    return fig


def check_nightly(fig, variables, families):
    if fig["generated"] < NIGHTLY_MIN_GENERATED:
        fail(f"ci/nightly.suite: {fig['generated']} generated programs, fewer than "
             f"{NIGHTLY_MIN_GENERATED}")
    for fam in sorted(families - fig["families"]):
        fail(f"ci/nightly.suite: no gen entry of family '{fam}'")
    if not any(fig["configs"] - {()}):
        fail("ci/nightly.suite: no gen entry on a second Config (KEY=VALUE overrides)")
    for label, folder in (("golden", os.path.join(variables["OTPU_VECTORS_DIR"], "isa")),
                          ("bench", variables["OTPU_BENCH_DIR"])):
        every = {os.path.realpath(p) for _, p in bundles_in(folder)} if os.path.isdir(folder) \
            else set()
        if not every:
            fail(f"{folder}: no {label} bundles to compare the night with")
        missing = sorted(every - fig["bundles"])
        if missing:
            fail(f"ci/nightly.suite: {len(missing)} of the {len(every)} {label} bundles are not "
                 f"in the night, e.g. {missing[0]}")


def check_smoke(fig, families):
    for fam in sorted(families - fig["families"]):
        fail(f"ci/smoke.suite: no gen entry of family '{fam}'")
    if not fig["bundles"]:
        fail("ci/smoke.suite: no golden or bench bundle")
    if fig["tests"] > SMOKE_MAX_TESTS:
        fail(f"ci/smoke.suite: {fig['tests']} tests, more than the {SMOKE_MAX_TESTS} of a "
             "one-minute run")


# ---------------------------------------------------------------- commands and project paths

def check_paths(where, command, root):
    """every project path a command names exists, or is built by meson (build/DIR/NAME: the
    source tree's DIR/NAME, or a target NAME of DIR/meson.build)"""
    for p in PROJECT_PATH.findall(command):
        p = p.rstrip("/.")
        if "*" in p or "$" in p or not p:
            continue
        if p.startswith("build/"):
            d, name = os.path.split(p[len("build/"):])
            meson = os.path.join(root, d, "meson.build")
            built = os.path.exists(os.path.join(root, d, name)) or (
                os.path.isfile(meson) and f"'{name}'" in open(meson).read())
            if not built:
                fail(f"{where}: '{p}' is neither in the source tree ({d}/{name}) nor a "
                     f"target of {d}/meson.build")
        elif not os.path.exists(os.path.join(root, p)):
            fail(f"{where}: '{p}' does not exist in the source tree")


def check_shard_run(where, run):
    """a shard's otpu-regress run: the night's suite, and no history of its own (four partial
    runs are not a night; the merge records it)"""
    if "ci/nightly.suite" not in run:
        fail(f"{where}: 'otpu-regress run' does not run ci/nightly.suite")
    if not re.search(r"--db[ =]none\b", run):
        fail(f"{where}: the shard's 'otpu-regress run' lacks --db none (the merge writes the "
             "history)")


def option(command, name):
    m = re.search(rf"{name}[ =](\S+)", command)
    return m.group(1) if m else None


def covered(path, uploads):
    """an artifact path list uploads path (itself, or a folder above it)"""
    path = path.rstrip("/")
    return any(path == u.rstrip("/") or path.startswith(u.rstrip("/") + "/") for u in uploads)


def load_yaml(rel, root):
    try:
        with open(os.path.join(root, rel)) as f:
            data = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        fail(f"{rel}: does not parse: {' '.join(str(e).split())}")
        return None
    if not isinstance(data, dict):
        fail(f"{rel}: not a mapping")
        return None
    return data


# ---------------------------------------------------------------- GitHub Actions

def check_github(root):
    rel = ".github/workflows/nightly.yml"
    wf = load_yaml(rel, root)
    if wf is None:
        return
    triggers = wf.get("on", wf.get(True)) or {}  # YAML 1.1 reads the key on: as true
    if not isinstance(triggers, dict) or not triggers.get("schedule") or \
            "workflow_dispatch" not in triggers:
        fail(f"{rel}: on: needs schedule: (a cron) and workflow_dispatch:")
    jobs = wf.get("jobs") or {}
    shard_id = merge_id = None
    for jid, job in jobs.items():
        steps = job.get("steps") or []
        for k, s in enumerate(steps):
            where = f"{rel}: jobs.{jid}.steps[{k}]"
            if "uses" in s and not s["uses"].startswith(ALLOWED_ACTIONS):
                fail(f"{where}: uses {s['uses']}; only {', '.join(ALLOWED_ACTIONS)} are allowed")
            run = s.get("run", "")
            check_paths(where, run, root)
            if "otpu-regress run" in run:
                shard_id = jid
            if "otpu-regress merge" in run:
                merge_id = jid
    check_run_and_merge(rel, jobs, shard_id, merge_id, check_github_shard, check_github_merge)


def check_run_and_merge(rel, jobs, run_id, merge_id, check_run, check_merge):
    """the job running the shards and the one merging them: both there, each checked"""
    if run_id is None:
        fail(f"{rel}: no job runs 'otpu-regress run'")
    else:
        check_run(rel, run_id, jobs[run_id])
    if merge_id is None:
        fail(f"{rel}: no job runs 'otpu-regress merge'")
    else:
        check_merge(rel, merge_id, jobs[merge_id], run_id)


def squash(text):
    """${{ matrix.shard }} -> ${{matrix.shard}}, so that an expression is one word"""
    return re.sub(r"\$\{\{\s*(.*?)\s*\}\}", r"${{\1}}", str(text))


def uploads_of(job):
    """[(step, path)] of the job's upload-artifact steps"""
    return [(s, squash((s.get("with") or {}).get("path", ""))) for s in job.get("steps") or []
            if str(s.get("uses", "")).startswith("actions/upload-artifact@")]


def run_with(job, text):
    return squash(next(s["run"] for s in job["steps"] if text in s.get("run", "")))


def check_github_shard(rel, jid, job):
    where = f"{rel}: jobs.{jid}"
    strategy = job.get("strategy") or {}
    matrix = strategy.get("matrix") or {}
    lists = {k: v for k, v in matrix.items() if isinstance(v, list)}
    run = run_with(job, "otpu-regress run")
    m = re.search(r"--shard\s+\$\{\{matrix\.(\w+)\}\}/(\d+)", run)
    if not m or m.group(1) not in lists:
        fail(f"{where}: 'otpu-regress run' has no --shard ${{{{ matrix.KEY }}}}/N of its matrix")
    elif len(set(lists[m.group(1)])) != SHARDS or int(m.group(2)) != SHARDS:
        fail(f"{where}: the matrix has {len(set(lists[m.group(1)]))} shards and --shard says "
             f"/{m.group(2)}; both must be {SHARDS}")
    check_shard_run(where, run)
    if strategy.get("fail-fast", True) is not False:
        fail(f"{where}: strategy.fail-fast must be false (a failing shard cancels the others)")
    out = option(run, "--out")
    ups = uploads_of(job)
    if not any("always()" in str(s.get("if", "")) and out and covered(out, [p]) for s, p in ups):
        fail(f"{where}: no upload-artifact step with if: always() uploads --out {out}")


def check_github_merge(rel, jid, job, shard_id):
    where = f"{rel}: jobs.{jid}"
    needs = job.get("needs") or []
    needs = [needs] if isinstance(needs, str) else needs
    if shard_id not in needs:
        fail(f"{where}: needs: does not name the shard job '{shard_id}'")
    if "always()" not in str(job.get("if", "")):
        fail(f"{where}: if: always() is missing (failing shards would skip the merge)")
    run = run_with(job, "otpu-regress merge")
    downloads = [squash((s.get("with") or {}).get("path", ".")) for s in job["steps"]
                 if str(s.get("uses", "")).startswith("actions/download-artifact@")]
    inputs = run.split("otpu-regress merge", 1)[1].split("--out")[0].split()
    if not downloads:
        fail(f"{where}: no download-artifact step")
    elif not inputs or not all(covered(i, downloads) for i in inputs):
        fail(f"{where}: merge reads {' '.join(inputs)}, not below the downloaded {downloads}")
    out = option(run, "--out")
    ups = uploads_of(job)
    for s, _ in ups:
        if "always()" not in str(s.get("if", "")):
            fail(f"{where}: upload-artifact step '{s.get('name', '')}' lacks if: always()")
    for want in (out, f"{out}/junit.xml", f"{out}/index.html"):
        if not out or not any(p.rstrip("/") == want for _, p in ups):
            fail(f"{where}: no upload-artifact step uploads {want}")


# ---------------------------------------------------------------- GitLab CI

def gitlab_scripts(job):
    for key in ("before_script", "script", "after_script"):
        v = job.get(key) or []
        for line in [v] if isinstance(v, str) else v:
            yield from line if isinstance(line, list) else [line]


def check_gitlab(root):
    rel = ".gitlab-ci.yml"
    ci = load_yaml(rel, root)
    if ci is None:
        return
    stages = ci.get("stages") or []
    if [s for s in stages if s in ("build", "regress", "merge")] != ["build", "regress", "merge"]:
        fail(f"{rel}: stages must hold build, regress and merge in that order, not {stages}")
    rules = str((ci.get("workflow") or {}).get("rules", "")) + "".join(
        str(j.get("rules", "")) for j in ci.values() if isinstance(j, dict))
    for source in ("schedule", "web"):
        if f'$CI_PIPELINE_SOURCE == "{source}"' not in rules:
            fail(f'{rel}: no rules: entry for $CI_PIPELINE_SOURCE == "{source}"')
    jobs = {k: v for k, v in ci.items() if isinstance(v, dict) and ("script" in v or
                                                                    "before_script" in v)}
    regress_id = merge_id = None
    for jid, job in jobs.items():
        for line in gitlab_scripts(job):
            check_paths(f"{rel}: {jid}", str(line), root)
            regress_id = jid if "otpu-regress run" in str(line) else regress_id
            merge_id = jid if "otpu-regress merge" in str(line) else merge_id
    check_run_and_merge(rel, jobs, regress_id, merge_id, check_gitlab_regress,
                        check_gitlab_merge)


def script_with(job, text):
    return next(str(s) for s in gitlab_scripts(job) if text in str(s))


def check_gitlab_regress(rel, jid, job):
    where = f"{rel}: {jid}"
    if job.get("stage") != "regress":
        fail(f"{where}: stage is {job.get('stage')}, not regress")
    if job.get("parallel") != SHARDS:
        fail(f"{where}: parallel is {job.get('parallel')}, not {SHARDS}")
    run = script_with(job, "otpu-regress run")
    if not re.search(r"--shard\s+\$\{?CI_NODE_INDEX\}?/\$\{?CI_NODE_TOTAL\}?", run):
        fail(f"{where}: 'otpu-regress run' has no --shard $CI_NODE_INDEX/$CI_NODE_TOTAL")
    check_shard_run(where, run)
    art = job.get("artifacts") or {}
    out = option(run, "--out")
    if art.get("when") != "always" or not out or not covered(out, art.get("paths") or []):
        fail(f"{where}: artifacts must keep --out {out} with when: always")


def check_gitlab_merge(rel, jid, job, regress_id):
    where = f"{rel}: {jid}"
    if job.get("stage") != "merge":
        fail(f"{where}: stage is {job.get('stage')}, not merge")
    needs = [n["job"] if isinstance(n, dict) else n for n in job.get("needs") or []]
    if regress_id not in needs:
        fail(f"{where}: needs: does not name the shard job '{regress_id}'")
    if job.get("when") != "always":
        fail(f"{where}: when: always is missing (failing shards would skip the merge)")
    out = option(script_with(job, "otpu-regress merge"), "--out")
    art = job.get("artifacts") or {}
    if art.get("when") != "always":
        fail(f"{where}: artifacts: when: always is missing")
    if not out or (art.get("reports") or {}).get("junit") != f"{out}/junit.xml":
        fail(f"{where}: artifacts: reports: junit is not {out}/junit.xml")
    if not out or not covered(f"{out}/index.html", art.get("paths") or []):
        fail(f"{where}: artifacts: paths does not keep {out}/index.html")


# ---------------------------------------------------------------- Slurm

def check_sbatch(root):
    rel = "ci/slurm/nightly.sbatch"
    path = os.path.join(root, rel)
    if not os.path.isfile(path):
        fail(f"{rel}: missing")
        return
    text = open(path).read()
    directives = re.findall(r"^#SBATCH\s+(--[\w-]+)(?:=(\S+))?", text, re.M)
    opts = dict(directives)
    if not re.fullmatch(r"1-\d+", opts.get("--array") or ""):
        fail(f"{rel}: no '#SBATCH --array=1-N' line")
    for o in ("--job-name", "--output", "--time", "--cpus-per-task"):
        if o not in opts:
            fail(f"{rel}: no '#SBATCH {o}=' line")
    body = re.sub(r"\\\n", " ", "\n".join(l for l in text.splitlines()
                                          if not l.lstrip().startswith("#")))
    run = next((l for l in body.splitlines() if "otpu-regress run" in l), "")
    if not re.search(r"--shard\s+\"?\$\{?SLURM_ARRAY_TASK_ID\}?/", run):
        fail(f"{rel}: does not run 'otpu-regress run ... --shard $SLURM_ARRAY_TASK_ID/...'")
    check_shard_run(rel, run)
    check_paths(rel, body, root)
    r = subprocess.run(["bash", "-n", path], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{rel}: bash -n: {' '.join(r.stderr.split())}")


def check_opentpu(root, fig):
    """ci/opentpu.suite: generated programs of revision acf0c1c6 only, at 1, 2 and 4 slices;
    ci/opentpu-acf0c1c6.waivers reads as otpu-regress reads it, one waiver per documented
    difference"""
    if fig["bundles"]:
        fail("ci/opentpu.suite: a folder entry (the night is generated programs of acf0c1c6)")
    slices = {dict(o.split("=") for o in c).get("S", "1") for c in fig["configs"]}
    if fig.get("revs") != {"acf0c1c6"}:
        fail(f"ci/opentpu.suite: revisions {fig.get('revs')}, not acf0c1c6 alone")
    if slices != {"1", "2", "4"}:
        fail(f"ci/opentpu.suite: slice counts {sorted(slices)}, not 1, 2 and 4")
    sys.path.insert(0, os.path.join(root, "regress"))
    from otpu_regress import errors, waivers
    try:
        ws = waivers.load(os.path.join(root, "ci", "opentpu-acf0c1c6.waivers"))
    except errors.UsageError as e:
        fail(f"ci/opentpu-acf0c1c6.waivers: {e}")
        return
    with open(os.path.join(root, "docs", "opentpu.md")) as f:
        doc = f.read()
    section = doc.split("## What lockstep found", 1)[-1].split("\n## ", 1)[0]
    found = re.findall(r"^([0-9])\. \*\*", section, re.M)
    if len(ws) != len(found):
        fail(f"ci/opentpu-acf0c1c6.waivers: {len(ws)} waivers, docs/opentpu.md documents "
             f"{len(found)} differences")
    rel = ".github/workflows/opentpu-night.yml"
    wf = load_yaml(rel, root)
    steps = [s for j in ((wf or {}).get("jobs") or {}).values() for s in j.get("steps") or []]
    runs = [s["run"] for s in steps if isinstance(s, dict) and "run" in s]
    for suite, dut in (("ci/opentpu.suite", "OTPU_DUT=\"opentpu="),
                       ("ci/opentpu-axi.suite", "OTPU_DUT=\"opentpu-axi=")):
        night = [r for r in runs if f"otpu-regress run {suite} " in r]
        if wf is not None and not (len(night) == 1 and dut in night[0] and
                                   "--waivers ci/opentpu-acf0c1c6.waivers" in night[0]):
            fail(f"{rel}: no one otpu-regress run of {suite} with {dut}...\" and the waivers")
    for r in runs:
        check_paths(rel, r, root)


def check_opentpu_axi(fig):
    """ci/opentpu-axi.suite: generated programs of acf0c1c6 at D=128 (the AXI memory path's
    width), each entry with its timing (+axi_seed, +axi_stall), more than one timing"""
    rel = "ci/opentpu-axi.suite"
    if fig["bundles"] or fig.get("revs") != {"acf0c1c6"}:
        fail(f"{rel}: not generated programs of acf0c1c6 alone")
    if any("D=128" not in c for c in fig["configs"]):
        fail(f"{rel}: an entry without D=128 (the AXI memory path's only width)")
    timings = set()
    for plus in fig.get("plusargs", []):
        t = tuple(sorted(p for p in plus if p.startswith(("+axi_seed=", "+axi_stall="))))
        if len(t) != 2:
            fail(f"{rel}: an entry without both +axi_seed=N and +axi_stall=PERCENT ({plus})")
        timings.add(t)
    if len(timings) < 2:
        fail(f"{rel}: {len(timings)} timing(s); the night sweeps seeds and stall rates")


def main():
    if len(sys.argv) != 5:
        print("usage: test_ci_files.py SOURCE_ROOT VECTORS_DIR BENCH_DIR OTPU_GEN",
              file=sys.stderr)
        return 2
    root, vectors, bench, otpu_gen = sys.argv[1:]
    variables = {"OTPU_VECTORS_DIR": vectors, "OTPU_BENCH_DIR": bench}
    families, keys = gen_help(otpu_gen)
    if not families:
        return 1
    with tempfile.TemporaryDirectory(prefix="ci-files-") as tmp:
        night = check_suite("ci/nightly.suite", root, variables, otpu_gen, families, keys, tmp)
        smoke = check_suite("ci/smoke.suite", root, variables, otpu_gen, families, keys, tmp)
        directed = check_suite("ci/directed.suite", root, variables, otpu_gen, families, keys,
                               tmp)
        opentpu = check_suite("ci/opentpu.suite", root, variables, otpu_gen, families, keys, tmp)
        axi = check_suite("ci/opentpu-axi.suite", root, variables, otpu_gen, families, keys, tmp)
    check_opentpu(root, opentpu)
    check_opentpu_axi(axi)
    for fam in sorted(families - directed["families"]):
        fail(f"ci/directed.suite: no gen entry of family '{fam}'")
    if directed["bundles"]:
        fail("ci/directed.suite: a folder entry (rounds aim gen entries only)")
    check_nightly(night, variables, families)
    check_smoke(smoke, families)
    check_github(root)
    check_gitlab(root)
    check_sbatch(root)
    for label, fig in (("nightly", night), ("smoke", smoke), ("directed", directed),
                       ("opentpu", opentpu), ("opentpu-axi", axi)):
        print(f"ci-files: {label}: {fig['entries']} entries, {fig['tests']} tests "
              f"({len(fig['bundles'])} bundles, {fig['generated']} generated in "
              f"{len(fig['families'])} families, {len(fig['configs'])} sets of Config overrides)")
    if failures:
        print(f"ci-files: {len(failures)} check(s) failed")
        return 1
    print("ci-files: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
