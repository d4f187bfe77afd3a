"""What the test scripts read of a run bundle's case.txt (../shared/vectors/FORMAT.md)."""
import os


def case_value(bundle, key, default):
    """the value of the line key=VALUE of bundle/case.txt; default when it has none"""
    with open(os.path.join(bundle, "case.txt")) as f:
        for line in f:
            if line.startswith(key + "="):
                return line.strip().split("=", 1)[1]
    return default
