#!/usr/bin/env python3
"""Fault injection of the reference RTL (rtl/README.md): each fault kind, given by plusargs,
must change the end state of a program whose fault-free end state is known exactly, without a
simulated error; the fault-free run must match it.

usage: test_rtl_faults.py OTPU_RTL"""
import os
import sys
import tempfile

import test_rtl_util as U

FAULTS = {
    "flip a bit of the VPU's first write": ["+otpu_flip_unit=3", "+otpu_flip_n=1",
                                            "+otpu_flip_bit=30"],
    "drop the DMA's first write": ["+otpu_drop_unit=0", "+otpu_drop_n=1"],
    "start the VPU's second instruction before the LD it depends on completes":
        ["+otpu_early_unit=3", "+otpu_early_n=2"],
    "corrupt the VPU's first fp result": ["+otpu_fp_n=1", "+otpu_fp_bit=3"],
    "flip a bit of the DMA's last DRAM write (the ST)": ["+otpu_flip_unit=0",
                                                         f"+otpu_flip_n={U.N_LD + 8}",
                                                         "+otpu_flip_bit=0"],
}


def main():
    tool = sys.argv[1]
    bad = 0
    with tempfile.TemporaryDirectory(prefix="otpu-rtl-faults-") as tmp:
        bundle = os.path.join(tmp, "bundle")
        want = U.overlap_bundle(bundle)
        rc, log, final = U.run(tool, bundle, os.path.join(tmp, "clean"))
        diff = [k for k, v in want.items() if final.get(k) != v]
        if rc != 0 or diff:
            print(f"FAIL fault-free run: exit {rc}, differs in {diff}\n{log}")
            return 1
        print("ok   fault-free run matches the expected end state")
        for i, (name, args) in enumerate(FAULTS.items()):
            rc, log, final = U.run(tool, bundle, os.path.join(tmp, f"f{i}"), *args)
            changed = [k for k in ("tmem_sha256", "dram_sha256") if final.get(k) != want[k]]
            if rc != 0 or final.get("halted") != "1" or not changed:
                bad += 1
                print(f"FAIL {name} ({' '.join(args)}): exit {rc}, changed {changed}\n{log}")
            else:
                print(f"ok   {name}: {', '.join(changed)} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
