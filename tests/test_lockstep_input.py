#!/usr/bin/env python3
"""otpu-lockstep and otpu-rtl on bad input and on bundles whose outcome is not what they
expect: one clear line and exit 2 for bad input, never a crash or a silent PASS; the verdict
honours the bundle's expect=. Each case is a regression test of something once mishandled.

usage: test_lockstep_input.py OTPU_LOCKSTEP OTPU_RTL VECTORS_DIR"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_bad_input import Suite, write  # noqa: E402


def copy_bundle(s, src, name):
    d = s.path(name)
    shutil.copytree(src, d)
    os.chmod(d, 0o755)
    for f in os.listdir(d):
        os.chmod(os.path.join(d, f), 0o644)
    return d


def set_case(d, **kv):
    """Rewrites case.txt keys (None: the key goes)."""
    p = os.path.join(d, "case.txt")
    lines = [l for l in open(p).read().splitlines() if l.split("=")[0] not in kv]
    lines += [f"{k}={v}" for k, v in kv.items() if v is not None]
    write(p, "\n".join(lines) + "\n")


def hang_limit(s):
    """--hang-cycles N as --help documents it: a hang is no event for more than N + A cycles
    while an instruction is in flight, A = 4 x the largest work estimate of the started ones.
    A WAITW without a timeout (its work: 65536 + its poll interval 4) on a word no host writes,
    the RTL's wait stretched past the limit by +otpu_waitw_limit: silent from its start on."""
    d = copy_bundle(s, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                    "examples", "host", "timeout_no_host"), "waitw_silent")
    words = open(os.path.join(d, "prog_0.hex")).read().split()
    words[6] = "00000000"  # the WAITW's w6: no timeout of its own
    write(os.path.join(d, "prog_0.hex"), "\n".join(words) + "\n")
    allowance = 4 * (65536 + 4)
    for n, given in ((1, "1"), (2, "0x2"), (1000, "1000")):  # (hex: passed on as a count)
        r = s.path(f"r_hang{n}")
        rc, out, err, _ = s.run("run", d, "--report", r, "--wave-window", "0", "--hang-cycles",
                                given, "+otpu_waitw_limit=400000", timeout=120)
        try:
            j = json.load(open(os.path.join(r, "divergence.json")))
        except (OSError, ValueError):
            j = {}
        last = max((e["cycle"] for e in j.get("history", [])), default=-1)
        want = f"more than the hang limit {n} plus {allowance} for the work in flight"
        s.check(f"--hang-cycles {given}: a hang found at the first cycle past last event + N + A",
                rc == 3 and j.get("kind") == "hang" and want in j.get("detail", "")
                and j.get("cycle") == last + n + allowance + 1,
                f"exit {rc}, cycle {j.get('cycle')}, last event {last}: {j.get('detail')}\n"
                f"{out[-600:]} {err[-300:]}")
    rc, out, err, _ = s.run("run", d, "--report", s.path("r_hang_default"), "--wave-window", "0",
                            "+otpu_waitw_limit=300000", timeout=120)
    s.check("the default limit (100000 + A) outlasts a wait of 300000 cycles: no hang",
            rc == 0 and "PASS with the expected waitw-timeout error" in out, f"{rc} {out} {err}")


def main():
    tool, rtl, vectors = sys.argv[1], sys.argv[2], sys.argv[3]
    s = Suite(tool)
    isa = os.path.join(vectors, "isa")
    good = os.path.join(isa, "kernel_mlp_S1")
    small = os.path.join(isa, "ld_st")

    # bad input: exit 2, one line, before anything is built or run
    s.bad("a missing bundle", ["run", s.path("missing")], "not a bundle folder")
    d = copy_bundle(s, good, "badprog")
    with open(os.path.join(d, "prog_0.hex"), "a") as f:
        f.write("xyz\n")
    s.bad("a malformed program", ["run", d], "prog_0.hex")
    d = copy_bundle(s, good, "badcfg")
    set_case(d, ACT_BLOCKS=512)
    s.bad("a Config the RTL does not support", ["run", d], "ACT_BLOCKS must be 1..256")
    d = copy_bundle(s, small, "oldrev")
    set_case(d, REV="acf0c1c6")
    s.bad("an older ISA revision than the reference RTL's", ["run", d],
          "implements the current ISA only (the bundle has REV=acf0c1c6)")
    s.bad("a bad option value", ["run", good, "--wave-window", "x"], "--wave-window")
    s.bad("--snapshot-every that is not a count", ["run", good, "--snapshot-every", "-5"],
          "--snapshot-every")
    s.bad("--snapshot-every without a value", ["run", good, "--snapshot-every"],
          "--snapshot-every")
    d = copy_bundle(s, small, "dirprog")
    os.remove(os.path.join(d, "prog_0.hex"))
    os.mkdir(os.path.join(d, "prog_0.hex"))
    s.bad("a directory as prog_0.hex is not an empty program that passes", ["run", d],
          "directory")
    for args, phrase in ((["+otpu_flip_unti=0"], "unknown +otpu_ plusarg"),
                         (["+otpu_fault_slice=7", "+otpu_flip_unit=0", "+otpu_flip_n=1"],
                          "+otpu_fault_slice=7: must be 0..0"),
                         (["+otpu_flip_unit=0", "+otpu_flip_n=one"], "+otpu_flip_n=one"),
                         (["+otpu_flip_unit=zero", "+otpu_flip_n=1"], "+otpu_flip_unit=zero"),
                         (["+otpu_flip_unit=0"], "does nothing without +otpu_flip_n"),
                         (["+otpu_drop_unit=9", "+otpu_drop_n=1"], "must be 0..4"),
                         (["+otpu_fp_n=1", "+otpu_fp_n=2"], "given twice")):
        s.bad("plusargs " + " ".join(args), ["run", small, *args], phrase)
    # openTPU's AXI memory model's settings (--dut opentpu-axi): refused on any other RTL;
    # the rows that need a checkout are in test_opentpu.py
    for args, phrase in ((["+axi_seed=3"], "only --dut opentpu-axi=PATH builds"),
                         (["+axi_stall=20", "+axi_seed=1"], "+axi_stall=20: a setting of "
                          "openTPU's AXI memory model"),
                         (["+axi_foo"], "+axi_foo: a setting of openTPU's AXI memory model")):
        s.bad("plusargs " + " ".join(args) + " on the reference RTL", ["run", small, *args],
              phrase)
    notco = s.path("not-a-checkout")
    os.mkdir(notco)
    for dut, phrase in (("opentpu-axi=", "--dut needs reference, opentpu=PATH or opentpu-axi"),
                        ("opentpu-ax=" + notco, "--dut needs reference, opentpu=PATH or "
                         "opentpu-axi=PATH"),
                        ("opentpu-axi=" + s.path("missing"), "No such file"),
                        ("opentpu-axi=" + notco, "cannot read rtl/vpu/otpu_fp.sv (not an "
                         "openTPU checkout?)")):
        s.bad(f"--dut {dut}", ["run", small, "--dut", dut], phrase)
    rc, _, err, _ = s.run("run", small, "+verilator+seed+5")
    s.check("a plusarg outside +otpu_ passes through", rc == 0, err)
    for p in ("+verilator+help", "+verilator+V", "+verilator+version"):
        s.bad(f"{p} (it would end the simulation before a verdict)", ["run", small, p],
              "ends the simulation")
    d = copy_bundle(s, good, "lanes")
    set_case(d, LANES=2147483648)
    s.bad("LANES=2^31 is refused before any build", ["run", d], "LANES must be 1..256")
    s.bad("--max-cycles past 64 bits", ["run", small, "--max-cycles", "9" * 23], "--max-cycles")
    s.bad("--hang-cycles -1", ["run", small, "--hang-cycles", "-1"], "--hang-cycles")
    s.bad("--hang-cycles 0 (not the default in disguise)", ["run", small, "--hang-cycles", "0"],
          "--hang-cycles needs a cycle count from 1")
    afile = s.path("afile")
    write(afile, "x")
    s.bad("--report naming a file", ["run", small, "--report", afile], "not a folder")
    s.bad("--report under a file", ["run", small, "--report", afile + "/r"], "is not a folder")
    s.bad("no command: one line", [], "a command is needed")
    s.bad("an unknown option: one line", ["run", small, "--bogus\x1b[2J"],
          "unknown option --bogus\\x1b[2J")
    s2 = Suite(rtl)
    s2.bad("otpu-rtl: no command: one line", [], "a command is needed")
    s2.bad("otpu-rtl build: a bad option: one line", ["build", "--bogus"], "unknown option")
    s2.bad("otpu-rtl run: a misspelt fault plusarg", ["run", small, "+otpu_drop_nn=1"],
           "unknown +otpu_ plusarg")
    eq = copy_bundle(s, small, "a=b")  # a folder name with '=' is a folder, not KEY=VALUE
    rc, out, err, _ = s2.run("path", "--bundle", eq)
    s2.check("otpu-rtl path --bundle of a folder whose name holds '='",
             rc == 0 and out.strip().endswith("otpu-rtl-sim"), f"{rc} {out} {err}")
    s2.bad("otpu-rtl path: a field value that is not a number", ["path", "D=040"],
           "'D=040': not KEY=VALUE with a number")
    s.failed += s2.failed
    s.passed += s2.passed
    rc, out, _, _ = s.run("--help")
    s.check("--help", rc == 0 and "otpu-lockstep run BUNDLE" in out)

    # the verdict honours expect=
    d = copy_bundle(s, os.path.join(isa, "vop_outer_column"), "outer_b")
    words = open(os.path.join(d, "prog_0.hex")).read().split()
    words[8 + 3] = "ffffffff"  # the OUTER's b word: a TMEM range error on both sides
    write(os.path.join(d, "prog_0.hex"), "\n".join(words) + "\n")
    rc, out, err, _ = s.run("run", d, "--report", s.path("r_outer"))
    s.check("an error the bundle does not expect is not a PASS (exit 6)",
            rc == 6 and "UNEXPECTED OUTCOME" in out and "tmem-range" in out, f"{rc} {out} {err}")
    set_case(d, expect="error")
    rc, out, err, _ = s.run("run", d, "--report", s.path("r_outer"))
    s.check("an expected error (any kind) is a PASS that names it",
            rc == 0 and "PASS with the expected tmem-range error" in out, f"{rc} {out} {err}")
    set_case(d, error="VOP read-after-write hazard")
    rc, out, err, _ = s.run("run", d, "--report", s.path("r_outer"))
    s.check("an error of another kind than error= says is not a PASS",
            rc == 6 and "expects a hazard error" in out, f"{rc} {out} {err}")
    # (its Config, DRAM_BYTES=65536, is not prebuilt: the first run builds it)
    rc, out, err, _ = s.run("run", os.path.join(isa, "err_dram_range"), timeout=900)
    s.check("a golden error case passes with its error",
            rc == 0 and "PASS with the expected dram-address error" in out, f"{rc} {out} {err}")
    d = copy_bundle(s, small, "expects_error")
    set_case(d, expect="error")
    rc, out, err, _ = s.run("run", d, "--report", s.path("r_ee"))
    s.check("a clean run where the bundle expects an error is not a PASS",
            rc == 6 and "agree on a clean run" in out, f"{rc} {out} {err}")

    # --no-check: never reads like a pass; the RTL's own outcome is still held to expect=
    rc, out, err, _ = s.run("run", small, "--no-check", "+otpu_flip_unit=0", "+otpu_flip_n=3")
    s.check("--no-check with a fault planted: UNCHECKED, exit 0 (the RTL halted, as expected)",
            rc == 0 and "lockstep: UNCHECKED" in out and "PASS" not in out
            and "plusargs were not checked" in out, f"{rc} {out} {err}")
    d = copy_bundle(s, small, "nocheck_expects_error")
    set_case(d, expect="error")
    rc, out, err, _ = s.run("run", d, "--no-check")
    s.check("--no-check: an RTL outcome that contradicts expect= is exit 6",
            rc == 6 and "UNCHECKED" in out and "contradicts the bundle's expect=error" in out,
            f"{rc} {out} {err}")

    hang_limit(s)

    # the report folder: never a stale report, never an empty folder left by a failed run
    r = s.path("report")
    rc, out, _, _ = s.run("run", small, "--report", r, "--wave-window", "0", "+otpu_flip_unit=0",
                          "+otpu_flip_n=3", "+otpu_flip_bit=1")
    had = os.path.exists(os.path.join(r, "divergence.json"))
    rc2, out2, _, _ = s.run("run", small, "--report", r)
    s.check("a PASS removes the divergence report an earlier run left",
            rc == 1 and had and rc2 == 0 and not os.path.exists(os.path.join(r, "divergence.json"))
            and not os.path.exists(os.path.join(r, "divergence.txt")), f"{rc} {rc2} {out2}")
    r = s.path("r_build")
    env = dict(os.environ, OTPU_RTL_CACHE=s.path("cache"), OTPU_RTL_PREBUILT=s.path("none"),
               VERILATOR="/bin/false")
    p = subprocess.run([tool, "run", small, "--report", r], capture_output=True, text=True,
                       env=env, timeout=120)
    s.check("a failed build: exit 4 and no report folder", p.returncode == 4 and
            not os.path.exists(r), f"{p.returncode} {p.stderr[-400:]}")

    # a simulator that crashes is exit 5, not "the build failed"
    exe = subprocess.run([rtl, "path", small], capture_output=True, text=True).stdout.strip()
    fake = s.path("fake_prebuilt")  # the same builds, with a simulator that crashes
    built = os.path.dirname(os.path.dirname(exe))
    for d in os.listdir(built):
        if os.path.isdir(os.path.join(built, d)) and ".tmp" not in d:
            shutil.copytree(os.path.join(built, d), os.path.join(fake, d))
    crash = os.path.join(fake, os.path.basename(os.path.dirname(exe)), "otpu-rtl-sim")
    write(crash, "#!/bin/sh\nkill -SEGV $$\n")
    os.chmod(crash, 0o755)
    env = dict(os.environ, OTPU_RTL_PREBUILT=fake)
    p = subprocess.run([tool, "run", small, "--report", s.path("r_crash")], capture_output=True,
                       text=True, env=env, timeout=120)
    s.check("a crashed simulator: exit 5 and a line that says so", p.returncode == 5 and
            "crashed" in p.stderr and "lockstep:" not in p.stdout, f"{p.returncode} {p.stderr}")
    return s.finish()


if __name__ == "__main__":
    sys.exit(main())
