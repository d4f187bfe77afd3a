"""pytest setup: the package from this source tree; the golden vectors from OTPU_VECTORS
(meson passes its vectors_dir option) or ../shared/vectors beside the source tree."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))                     # python/: import otpu
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))

VECTORS = os.environ.get("OTPU_VECTORS") or os.path.join(HERE, "..", "..", "..", "shared",
                                                         "vectors")
