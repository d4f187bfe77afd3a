#!/usr/bin/env python3
"""The first-divergence report as a user meets it (checker/REPORT.md): a failing run prints the
report once, then one line naming the waveform and the gtkwave command; wave.gtkw names only
signals wave.fst holds, and at its marker the diverging write is on the unit's write port.

usage: test_report.py OTPU_LOCKSTEP QUICKSTART_BUNDLE"""
import json
import os
import subprocess
import sys
import tempfile

FAILS = []


def check(name, ok, info=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f"\n{info}"))
    if not ok:
        FAILS.append(name)


def vcd(fst):
    """(the signals by full GTKWave name -> id, and a reader of values at a time) of an FST"""
    text = subprocess.run(["fst2vcd", fst], capture_output=True, text=True, check=True).stdout
    names, scope, at, changes = {}, [], 0, {}
    lines = text.splitlines()
    k = 0
    for k, line in enumerate(lines):
        w = line.split()
        if not w:
            continue
        if w[0] == "$scope":
            scope.append(w[2])
        elif w[0] == "$upscope":
            scope.pop()
        elif w[0] == "$var":
            names[".".join(scope + [w[4]]) + (w[5] if w[5].startswith("[") else "")] = w[3]
        elif w[0] == "$enddefinitions":
            break
    for line in lines[k + 1:]:
        if line.startswith("#"):
            at = int(line[1:])
        elif line[:1] in "01xz" and len(line) > 1:
            changes.setdefault(line[1:], []).append((at, line[0]))
        elif line.startswith("b"):
            v, ident = line[1:].split()
            changes.setdefault(ident, []).append((at, v))

    def value(name, t):
        last = None
        for when, v in changes.get(names[name], []):
            if when > t:
                break
            last = v
        return int(last, 2) if last and set(last) <= {"0", "1"} else None
    return names, value


def main():
    lockstep, quickstart = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="otpu-report-")
    rep = os.path.join(tmp, "R")
    p = subprocess.run([lockstep, "run", quickstart, "--report", rep, "+otpu_fp_n=5",
                        "+otpu_fp_bit=3"], capture_output=True, text=True, timeout=3600)
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
    sys.exit(1 if FAILS else 0)


if __name__ == "__main__":
    main()
