"""The run's functional coverage: each test's file (otpu-lockstep --coverage) merged with
otpu-cov into coverage.json, and its overall figure."""
import os
import re
import shutil
import subprocess
import tempfile


def merge(cov_tool, files, out):
    """merge files into out, a few hundred at a time (the command line stays short); True if
    there was anything to merge"""
    files = [f for f in files if os.path.isfile(f)]
    if not files:
        return False
    with tempfile.TemporaryDirectory(prefix="otpu-regress-cov-") as tmp:
        acc = None
        for k in range(0, len(files), 200):
            part = os.path.join(tmp, f"part{k}.json")
            subprocess.run([cov_tool, "merge", *([acc] if acc else []), *files[k:k + 200], "-o",
                            part], check=True, capture_output=True, text=True)
            acc = part
        shutil.copyfile(acc, out)
    return True


def totals(cov_tool, path):
    """{"percent", "hit", "bins"} of the 'overall' line of otpu-cov report"""
    p = subprocess.run([cov_tool, "report", path], capture_output=True, text=True, check=True)
    m = re.search(r"^overall\s+([\d.]+)%\s+(\d+) of (\d+) bins", p.stdout, re.M)
    return {"percent": float(m.group(1)), "hit": int(m.group(2)), "bins": int(m.group(3))} \
        if m else None
