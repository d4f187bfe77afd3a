"""Every golden bundle through the binding: the run ends as the reference's did (cleanly or
with the expected error) and each slice's final state hashes as its final_<s>.txt."""
import glob
import os

import pytest

import otpu
from conftest import VECTORS

BUNDLES = sorted(glob.glob(os.path.join(VECTORS, "isa", "*", "case.txt")) +
                 glob.glob(os.path.join(VECTORS, "rev-*", "isa", "*", "case.txt")))


def test_vectors_are_there():
    assert len(BUNDLES) > 100, f"golden vectors not found under {VECTORS}"


@pytest.mark.parametrize("case", [os.path.dirname(c) for c in BUNDLES],
                         ids=lambda d: os.path.relpath(d, VECTORS))
def test_golden_bundle(case):
    m = otpu.load_bundle(case)
    try:
        m.run()
        failed = None
    except otpu.OtpuError as e:
        failed = e
    assert (failed is not None) == m.bundle.expect_error, \
        f"expected {'an error' if m.bundle.expect_error else 'a clean run'}, got {failed}"
    for s in range(m.S):
        with open(os.path.join(case, f"final_{s}.txt")) as f:
            assert m.final_text(s) == f.read(), f"slice {s}"
