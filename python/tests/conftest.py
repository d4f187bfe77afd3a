"""pytest setup: the package from this source tree; the golden vectors from OTPU_VECTORS
(meson passes its vectors_dir option) or ../shared/vectors beside the source tree; run_python
for what must run in a subprocess."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))                     # python/: import otpu
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))
import otpu                                                   # noqa: E402

VECTORS = os.environ.get("OTPU_VECTORS") or os.path.join(HERE, "..", "..", "..", "shared",
                                                         "vectors")


def run_python(*args):
    """This Python with args in a subprocess (a crash there is a signal, not the end of this
    run), with this tree's otpu and the library this run loaded."""
    python = os.path.dirname(HERE)
    env = dict(os.environ, PYTHONPATH=python,
               OTPU_LIBOTPUSIM=os.path.abspath(otpu.library_path()))
    return subprocess.run([sys.executable, *args], cwd=python, env=env, capture_output=True,
                          text=True, timeout=120)
