"""The tools otpu-regress runs: from the environment (the build's launcher sets defaults)."""
import os

from .errors import UsageError

TOOLS = {"lockstep": "OTPU_LOCKSTEP", "rtl": "OTPU_RTL", "gen": "OTPU_GEN", "cov": "OTPU_COV",
         "shrink": "OTPU_SHRINK"}


def tools_from_env(names=tuple(TOOLS)):
    """{name: path} of the tools named (merge needs only otpu-cov)"""
    tools = {k: os.environ.get(TOOLS[k], "") for k in names}
    for k, path in tools.items():
        if not (path and os.path.isfile(path) and os.access(path, os.X_OK)):
            raise UsageError(f"{TOOLS[k]} ({path or 'unset'}) is not an executable: "
                             "build the project (meson compile -C build) or set it")
    return tools
