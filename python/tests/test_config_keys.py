"""Config's keys are the C library's (sim/config.c, the one list): the binding's struct mirror
is checked against them when the library loads, and refused when they disagree."""
import ctypes

import pytest

import otpu
from otpu import _lib
from otpu import asm as A


def test_fields_are_the_librarys_keys_in_order():
    lib = _lib.lib()
    keys = _lib.config_keys(lib)
    assert len(keys) >= 12 and tuple(keys) == otpu.config.FIELDS
    # each key, as the library reads case.txt (otpu_config_set), sets the mirror's field
    set_key = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_lib.ConfigC), ctypes.c_char_p,
                               ctypes.c_uint64)(("otpu_config_set", lib))
    for i, key in enumerate(keys):
        c = lib.otpu_config_default()
        assert set_key(ctypes.byref(c), key.encode(), 3) == 0, key
        assert getattr(c, key) == 3 and lib.otpu_config_get(ctypes.byref(c), i) == 3


class _Keys:
    """The library with its list of Config keys replaced"""

    def __init__(self, keys):
        self._real, self._keys = _lib.lib(), keys

    def __getattr__(self, name):
        return getattr(self._real, name)

    def otpu_config_field_name(self, i):
        return self._keys[i].encode() if i < len(self._keys) else None


@pytest.mark.parametrize("change", [
    lambda k: [("LANE" if x == "LANES" else x) for x in k],      # a key renamed
    lambda k: k[:-1],                                            # a key dropped
    lambda k: k + ["EXTRA"],                                     # a key added
    lambda k: [k[1], k[0]] + k[2:],                              # two keys swapped
])
def test_a_mirror_that_disagrees_is_refused(change):
    keys = change(_lib.config_keys(_lib.lib()))
    with pytest.raises(OSError, match="Config keys"):
        _lib._check_layout(_Keys(keys))


def test_golden_library_loads_beside_the_model():
    m = otpu.Machine(otpu.Config(), [[A.halt()]])
    m.run()
    assert m.final_text().startswith("halted=1")
