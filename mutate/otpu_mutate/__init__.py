"""otpu-mutate: the mutation score of the lockstep checker and its generated programs, measured
on source mutants of the project's reference RTL (mutate/README.md).

Its child processes are run by otpu-regress's procs module (process groups, time limits, the
signals that stop them all): the package beside this one in the source tree."""
import os
import sys

_SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_REGRESS = os.path.join(_SOURCE, "regress")
if _REGRESS not in sys.path:
    sys.path.append(_REGRESS)
