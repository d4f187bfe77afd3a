"""What the stub-tool tests of otpu-regress share (test_regress_bad_input.py,
test_regress_codecov_input.py, test_regress_buckets.py): files written into a scratch folder,
executable stubs, a tally of the checks, and a tool run with its stdin closed and a time limit."""
import os
import shutil
import subprocess
import sys
import tempfile


def regress_tree(root):
    """the otpu_regress package of the source tree at root made importable; that tree's
    quickstart bundle"""
    sys.path.insert(0, os.path.join(root, "regress"))
    return os.path.join(root, "examples", "quickstart")


def write(p, data):
    """p written with data (bytes or text), its folders made; p"""
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return p


def executable(p, text):
    """p written with text and made executable; p"""
    write(p, text)
    os.chmod(p, 0o755)
    return p


class Tally:
    """the checks of one test program: ok/FAIL lines as they come, the failures kept"""

    def __init__(self, prefix="otpu-test-"):
        self.passed, self.failed = 0, []
        self.scratch = tempfile.mkdtemp(prefix=prefix)  # removed by run()

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}", flush=True)
        else:
            self.failed.append(name)
            print(f"FAIL {name}: {str(detail)[-1500:]}", flush=True)
        return ok

    def summary(self):
        """the closing lines; the test's exit status"""
        print(f"{self.passed} passed, {len(self.failed)} failed")
        for n in self.failed:
            print(f"  failed: {n!r}")
        return 1 if self.failed else 0

    def run(self, sections, scratch):
        """each of sections called in turn, the scratch folder removed after them (even when
        one raises); the exit status of summary()"""
        try:
            for section in sections:
                section()
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return self.summary()


def run_tool(argv, cwd, env, timeout, text=False):
    """(exit status or "timeout", stdout, stderr) of argv in cwd; bytes unless text (then
    undecodable bytes shown as backslash escapes)"""
    try:
        p = subprocess.run(argv, capture_output=True, cwd=cwd, timeout=timeout, env=env,
                           stdin=subprocess.DEVNULL, text=text,
                           errors="backslashreplace" if text else None)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        msg = f"no end within {timeout} s"
        return "timeout", "" if text else b"", msg if text else msg.encode()
