#!/usr/bin/env python3
"""The first-divergence report as a user meets it (checker/REPORT.md): a failing run prints the
report once, then one line naming the waveform and the gtkwave command; wave.gtkw names only
signals wave.fst holds, and at its marker the diverging write is on the unit's write port; a
VOP failing inside a loop is reported with its own loop iteration, tile and registers; the
repro of a run on a non-default RTL reruns that RTL; a stored report renders again as the same
text (otpu-lockstep report) and as one static page (--report-html).

usage: test_report.py OTPU_LOCKSTEP QUICKSTART_BUNDLE"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_rtl_util as U  # noqa: E402
from test_rtl_util import check  # noqa: E402
from vcd_read import read_fst  # noqa: E402


def vcd(fst):
    """(the signals by full GTKWave name -> id, and a reader of values at a time) of an FST"""
    variables, changes = read_fst(fst)
    names = {name + rng: ident for name, rng, ident in variables}

    def value(name, t):
        last = None
        for when, v in changes.get(names[name], []):
            if when > t:
                break
            last = v
        return int(last, 2) if last and set(last) <= {"0", "1"} else None
    return names, value


def loop_bundle(d):
    """a register-relative VOP in a 4-iteration LOOP: iteration i writes T[100 + 8i ..]"""
    prog = [U.ld(0, 0, 8), U.li(1, 100),
            U.ins(0x04, w=(2, 4)),                                     # LOOP 2 instructions x 4
            U.ins(0x30, ra=1, w=(0, 0, 0, 1 | 4 << 16, 0, 0 << 16, 0)),  # VOP add T[R1..]
            U.ins(0x03, rd=1, ra=1, w=(8,)),                            # ADDI R1 += 8
            U.halt()]
    U.write_bundle(d, prog, b"".join(struct.pack("<f", float(x)) for x in range(1, 9)),
                   "a register-relative VOP in a loop")
    return d


def in_a_loop(lockstep, tmp):
    """the loop nest, tile and registers are the failing instruction's (the 9th VPU result:
    iteration 2, column 0), not the model's when the divergence is found"""
    rep = os.path.join(tmp, "loop")
    p = subprocess.run([lockstep, "run", loop_bundle(os.path.join(tmp, "loopb")), "--report", rep,
                        "--wave-window", "0", "+otpu_fp_n=9"], capture_output=True, text=True,
                       timeout=3600)
    js = json.load(open(os.path.join(rep, "divergence.json"))) if p.returncode == 1 else {}
    ins = (js.get("instruction") or {}).get("disasm", "")
    check("a VOP in a loop: the report names it, its iteration, its tile and its registers",
          ins.startswith("VOP") and js["loops"] == [{"start": 3, "end": 4, "iteration": 2,
                                                     "total": 4}]
          and js["location"]["address"] == 116 and js["location"]["row"] == 0
          and js["location"]["column"] == 0 and js["registers"][1] == 116,
          p.stdout[-3000:] + p.stderr[-1000:])


def repro_of_another_rtl(lockstep, tmp):
    """the repro of a run on a non-default RTL (OTPU_SOURCE_ROOT: a copy with a planted bug)
    reruns that RTL and diverges again; under other RTL sources it refuses to run"""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = os.path.join(tmp, "src")
    for d in ("rtl", "rtl_bridge", "dpi", "checker", "cov", "golden", "json", "digest", "sim"):
        shutil.copytree(os.path.join(root, d), os.path.join(src, d),
                        ignore=shutil.ignore_patterns("__pycache__"))
    fault = os.path.join(src, "rtl", "otpu_fault.sv")
    text = open(fault).read()
    planted = text.replace("flip_u = -1; flip_n = 0;", "flip_u = 3; flip_n = 5;")
    check("the bug is planted in the copy", planted != text)
    open(fault, "w").write(planted)
    env = dict(os.environ, OTPU_SOURCE_ROOT=src)
    rep = os.path.join(tmp, "other")
    quickstart = os.path.join(root, "examples", "quickstart")
    p = subprocess.run([lockstep, "run", quickstart, "--report", rep, "--wave-window", "0"],
                       capture_output=True, text=True, timeout=3600, env=env)
    js = json.load(open(os.path.join(rep, "divergence.json"))) if p.returncode == 1 else {}
    repro = js.get("repro", "")
    check("the copy's bug is found, and its repro names the copy and the build",
          f"OTPU_SOURCE_ROOT='{src}' " in repro and "OTPU_RTL_KEY=lib-" in repro,
          p.stdout[-2000:] + p.stderr[-1000:])
    env = {k: v for k, v in os.environ.items() if k != "OTPU_SOURCE_ROOT"}
    env["PATH"] = os.path.dirname(os.path.abspath(lockstep)) + ":" + env["PATH"]
    q = subprocess.run(["sh", "-c", repro + " --report " + os.path.join(tmp, "again") +
                        " --wave-window 0"], capture_output=True, text=True, timeout=3600, env=env)
    check("the repro, run as it is, diverges again on that RTL",
          q.returncode == 1 and f"DIVERGENCE {js.get('kind')}" in q.stdout, q.stdout + q.stderr)
    other = repro.replace(f"OTPU_SOURCE_ROOT='{src}'", f"OTPU_SOURCE_ROOT='{root}'")
    q = subprocess.run(["sh", "-c", other + " --report " + os.path.join(tmp, "none")],
                       capture_output=True, text=True, timeout=3600, env=env)
    check("under other RTL sources the repro refuses to run (exit 2, naming both builds)",
          q.returncode == 2 and "names the RTL build" in q.stderr, q.stdout + q.stderr)


def main():
    lockstep, quickstart = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="otpu-report-")
    in_a_loop(lockstep, tmp)
    repro_of_another_rtl(lockstep, tmp)
    rep = os.path.join(tmp, "R")
    p = subprocess.run([lockstep, "run", quickstart, "--report", rep, "+otpu_fp_n=5",
                        "+otpu_fp_bit=3", "--report-html"], capture_output=True, text=True,
                       timeout=3600)
    out = p.stdout
    check("a failing run exits 1", p.returncode == 1, out + p.stderr)
    check("the report is printed once (one FIRST DIVERGENCE, one cycles= line, one verdict)",
          out.count("FIRST DIVERGENCE") == 1 and out.count("cycles=") == 1
          and out.count("lockstep: DIVERGENCE") == 1, out)
    last = out.strip().splitlines()[-1] if out.strip() else ""
    check("the last line names the waveform and the one command that opens it",
          last.startswith("lockstep: waveform ") and f"gtkwave '{rep}/wave.gtkw'" in last, last)
    check("no other line about the re-run (it was quiet and agreed)",
          "re-run" not in p.stderr and "not deterministic" not in p.stderr, p.stderr)

    js = json.load(open(os.path.join(rep, "divergence.json")))
    marker = js["waveform"]["marker_time"]
    names, value = vcd(os.path.join(rep, "wave.fst"))
    gtkw = open(os.path.join(rep, "wave.gtkw")).read().splitlines()
    sigs = [ln for ln in gtkw if ln and ln[0] not in "[*@-"]
    missing = [s for s in sigs if s not in names]
    check(f"wave.gtkw names {len(sigs)} signals, all in wave.fst",
          len(sigs) > 10 and not missing, "\n".join(missing[:10]))
    check("wave.gtkw opens wave.fst", any(ln.startswith("[dumpfile]") and
                                          ln.endswith(f'{rep}/wave.fst"') for ln in gtkw), gtkw[:4])
    star = [ln for ln in gtkw if ln.startswith("*")]
    check("its primary marker is the report's marker_time",
          len(star) == 1 and star[0].split()[1] == str(marker), star)
    check("the diverging unit's signals are grouped: VPU, slice 0",
          "-VPU, slice 0" in gtkw and gtkw.count("@800200") == 1 and gtkw.count("@1000200") == 1,
          gtkw)
    # at the marker the VPU's write port carries the diverging write
    port = "TOP.otpu_rtl_tb.ev_wr[0][9]."
    addr = js["location"]["address"]
    check("at the marker the VPU write port writes the diverging word with the RTL's bits",
          value(port + "v", marker) == 1 and value(port + "addr[31:0]", marker) == addr
          and value(port + "data[31:0]", marker) == int(js["actual"]["bits"], 16),
          f"v={value(port + 'v', marker)} addr={value(port + 'addr[31:0]', marker)} "
          f"want {addr}")
    stored(lockstep, rep, tmp)
    sys.exit(1 if U.FAILS else 0)


def stored(lockstep, rep, tmp):
    """a stored report rendered again (otpu-lockstep report), and as one static page"""
    txt = open(os.path.join(rep, "divergence.txt")).read()
    p = subprocess.run([lockstep, "report", rep], capture_output=True, text=True)
    check("otpu-lockstep report DIR prints divergence.txt again, byte for byte",
          p.returncode == 0 and p.stdout == txt, p.stdout[:2000] + p.stderr)
    copy = os.path.join(tmp, "artifact.json")  # a report copied out of a CI artifact
    shutil.copy(os.path.join(rep, "divergence.json"), copy)
    p = subprocess.run([lockstep, "report", copy], capture_output=True, text=True)
    check("... and from a divergence.json alone", p.returncode == 0 and p.stdout == txt, p.stderr)
    page = open(os.path.join(rep, "divergence.html")).read()
    check("--report-html writes divergence.html: the same facts, escaped, on one page",
          page.startswith("<!DOCTYPE html>") and "<script" not in page
          and "FIRST DIVERGENCE: wrong-value" in page and "the element's operands" in page
          and "a = T[0x4]" in page and "wave.gtkw" in page, page[:1500])
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write('{"schema": "something-else"}')
    for what, arg in (("a missing folder", os.path.join(tmp, "nothing")),
                      ("a JSON file of another schema", bad)):
        p = subprocess.run([lockstep, "report", arg], capture_output=True, text=True)
        check(f"report of {what}: exit 2, one line", p.returncode == 2 and
              len(p.stderr.strip().splitlines()) == 1 and "not a divergence report" in p.stderr,
              p.stderr)


if __name__ == "__main__":
    main()
