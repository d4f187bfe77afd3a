#!/usr/bin/env python3
"""test_install.py SOURCE_ROOT VECTORS_DIR - `meson install` gives a tree that works alone.

A copy of the source tree is configured with a temporary --prefix (no root), built, installed,
and then the copy and its build folder are moved aside, so nothing the installed tree reads
can come from them. Then, from the installed tree only, with a fresh build cache and no
OTPU_* variables:
  - otpu-lockstep runs the installed quickstart bundle in lockstep and passes (the RTL is
    built from <prefix>/share/otpu-lockstep), and otpu-rtl runs it too;
  - a ten-line C program (examples/embed/run_bundle.c) builds against
    `pkg-config --cflags --libs otpusim` and runs a golden bundle to its golden end; the
    same program links the static library through `pkg-config --static`;
  - otpu-sim checks a golden bundle, otpu-fpvec checks fp32 vectors in the model and through
    the RTL's fp32 unit (its bench built from the installed sources), otpu-gen writes a bundle
    otpu-sim runs, otpu-regress, otpu-shrink and otpu-cov answer --help, and each tool's man
    page is installed;
  - the installed Python binding (share/otpu-lockstep/python) loads the installed library and
    runs a golden bundle to its golden end;
  - DESTDIR staging puts the same files under DESTDIR.
"""
import os
import shutil
import subprocess
import sys
import tempfile

SRC, VECTORS = sys.argv[1], sys.argv[2]
TOOLS = ["otpu-sim", "otpu-cov", "otpu-gen", "otpu-shrink", "otpu-fpvec", "otpu-rtl",
         "otpu-lockstep", "otpu-regress"]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def run(cmd, env=None, cwd=None, timeout=1800):
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def must(cmd, **kw):
    rc, out = run(cmd, **kw)
    if rc != 0:
        sys.exit(f"FAIL {' '.join(cmd)} (exit {rc}):\n{out[-4000:]}")
    return out


def clean_env(tmp):
    """No OTPU_* variable: the installed tools must find everything themselves."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTPU_")}
    env["OTPU_RTL_CACHE"] = os.path.join(tmp, "cache")  # fresh: nothing prebuilt
    env["XDG_CACHE_HOME"] = os.path.join(tmp, "xdg")
    return env


def main():
    tmp = tempfile.mkdtemp(prefix="otpu-install-")
    src, build, prefix = (os.path.join(tmp, d) for d in ("src", "build", "prefix"))
    shutil.copytree(SRC, src, symlinks=True, ignore=lambda d, names: [
        n for n in names if d == SRC and (n.startswith("build") or n == ".git")])
    print(f"building a copy in {tmp}", flush=True)
    must(["meson", "setup", build, src, "--prefix", prefix, "-Dtests=disabled",
          "-Dprebuilt=false", "-Dvectors_dir=" + VECTORS])
    must(["meson", "compile", "-C", build])
    must(["meson", "install", "-C", build, "--no-rebuild"])
    staged = os.path.join(tmp, "staged")
    env = dict(os.environ, DESTDIR=staged)
    must(["meson", "install", "-C", build, "--no-rebuild"], env=env)
    check(os.path.isfile(staged + prefix + "/bin/otpu-lockstep") and
          os.path.isfile(staged + prefix + "/share/otpu-lockstep/rtl/sources.txt"),
          "DESTDIR staging puts the tree under DESTDIR")
    for d in (src, build):
        os.rename(d, d + ".aside")

    env = clean_env(tmp)
    bindir, share = os.path.join(prefix, "bin"), os.path.join(prefix, "share", "otpu-lockstep")
    libdir = next(os.path.join(r, "") for r, _, fs in os.walk(prefix) if "libotpusim.a" in fs)
    quick = os.path.join(share, "examples", "quickstart")
    for t in TOOLS:
        check(os.access(os.path.join(bindir, t), os.X_OK), f"{t} installed")
        rc, out = run([os.path.join(bindir, t), "--help"], env=env)
        check(rc == 0 and "usage" in out.lower(), f"{t} --help")
        check(os.path.isfile(os.path.join(prefix, "share", "man", "man1", t + ".1")),
              f"{t}.1 man page installed")

    rc, out = run([os.path.join(bindir, "otpu-lockstep"), "run", quick, "--report",
                   os.path.join(tmp, "report")], env=env, cwd=tmp)
    check(rc == 0 and "lockstep: PASS" in out, "installed otpu-lockstep passes the quickstart")
    logs = [os.path.join(r, "build.txt") for r, _, fs in os.walk(env["OTPU_RTL_CACHE"])
            if "build.txt" in fs]
    texts = [open(p).read() for p in logs]
    check(texts and all(share in t and src not in t for t in texts),
          "the RTL and its simulator were built from the installed share folder only")
    if rc != 0:
        print(out[-3000:])
    rc, out = run([os.path.join(bindir, "otpu-rtl"), "run", quick], env=env, cwd=tmp)
    check(rc == 0, "installed otpu-rtl runs the quickstart")

    golden = os.path.join(VECTORS, "isa", "kernel_mlp_S1")
    rc, out = run([os.path.join(bindir, "otpu-sim"), "check", golden], env=env)
    check(rc == 0 and "ok" in out, "installed otpu-sim check passes a golden bundle")
    gen_out = os.path.join(tmp, "gen")
    rc, _ = run([os.path.join(bindir, "otpu-gen"), "mix", "--seed", "3", "--count", "1",
                 "--out", gen_out], env=env)
    bundles = sorted(os.listdir(gen_out)) if rc == 0 else []
    rc2, _ = run([os.path.join(bindir, "otpu-sim"), "run", os.path.join(gen_out, bundles[0])],
                 env=env) if bundles else (1, "")
    check(rc == 0 and rc2 in (0, 1), "installed otpu-gen writes a bundle otpu-sim runs")
    vec = os.path.join(tmp, "l1.vec")
    rc, _ = run([os.path.join(bindir, "otpu-fpvec"), "gen", "--level", "1", "--count", "200",
                 "-o", vec], env=env)
    rc2, out = run([os.path.join(bindir, "otpu-fpvec"), "check", vec], env=env)
    check(rc == 0 and rc2 == 0, "installed otpu-fpvec gen and check")
    rc, out = run([os.path.join(bindir, "otpu-fpvec"), "rtl", "--count", "200"], env=env)
    check(rc == 0, "installed otpu-fpvec rtl builds its bench from the installed sources "
          "and passes (DPI mode)")
    if rc != 0:
        print(out[-3000:])

    # the C API through pkg-config, shared and static
    pc_env = dict(env, PKG_CONFIG_PATH=os.path.join(libdir, "pkgconfig"))
    cflags = must(["pkg-config", "--cflags", "otpusim"], env=pc_env).split()
    libs = must(["pkg-config", "--libs", "otpusim"], env=pc_env).split()
    static = must(["pkg-config", "--static", "--libs", "otpusim"], env=pc_env).split()
    example = os.path.join(share, "examples", "embed", "run_bundle.c")
    exe, exe_static = os.path.join(tmp, "run_bundle"), os.path.join(tmp, "run_bundle_static")
    rc, out = run(["cc", "-Wall", "-Werror", example] + cflags + libs + ["-o", exe], env=env)
    check(rc == 0, "run_bundle.c builds with pkg-config --cflags --libs otpusim")
    static = ["-Wl,-Bstatic" if a == "-lotpusim" else a for a in static]
    static.insert(static.index("-Wl,-Bstatic") + 1, "-lotpusim")
    static.insert(static.index("-lotpusim") + 1, "-Wl,-Bdynamic")
    rc2, out2 = run(["cc", example] + cflags + static + ["-o", exe_static], env=env)
    check(rc2 == 0, "run_bundle.c links the static libotpusim (pkg-config --static)")
    run_env = dict(env, LD_LIBRARY_PATH=libdir)
    for e in (exe, exe_static):
        rc, out = run([e, golden], env=run_env) if os.path.exists(e) else (1, out + out2)
        check(rc == 0 and "halted" in out, f"{os.path.basename(e)} runs a golden bundle")
    rc, out = run(["ldd", exe_static], env=run_env)
    check("libotpusim" not in out, "the static build does not load libotpusim.so")

    # the Python binding, installed beside the rest, finds the installed library itself
    py = dict(env, PYTHONPATH=os.path.join(share, "python"))
    rc, out = run(["/usr/bin/python3", "-c",
                   "import otpu, sys; m = otpu.load_bundle(sys.argv[1]); m.run(); "
                   "print(otpu.library_path()); print(m.final_text(0))", golden], env=py)
    want = open(os.path.join(golden, "final_0.txt")).read()
    check(rc == 0 and out.startswith(prefix) and out.split("\n", 1)[1].strip() == want.strip(),
          "the installed Python binding loads the installed library and runs a golden bundle "
          "to its golden end")
    if rc != 0:
        print(out[-2000:])

    for d in (src, build):
        os.rename(d + ".aside", d)
    if failures:
        sys.exit(f"{len(failures)} failed (left in {tmp}): " + "; ".join(failures))
    shutil.rmtree(tmp, ignore_errors=True)
    print("all passed")


if __name__ == "__main__":
    main()
