"""The one check of every integer the binding hands to C. ctypes converts a Python int to a C
integer by wrapping it silently (2**64 + 32 becomes 32, -1 becomes 2**64 - 1), and int() would
truncate a float: every integer therefore comes through here first, and a bad one raises an
exception naming the parameter."""
import numbers
import operator

from .errors import OtpuInputError


def _int(value, name):
    """value as a Python int: an int or a numpy integer, not a bool (True is not an address;
    numpy's bool_ is not an Integral) and not a float (never truncated)."""
    if type(value) is int:         # the common case first: a bool's type is bool, not int
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__} "
                        f"({value!r:.60})")
    return operator.index(value)


def uint(value, name, bits=64, end=None, why=""):
    """A number (an address, a count, a slice, a Config field) for a C uint<bits>_t, and below
    end when given: OverflowError when it does not fit the C type, OtpuInputError (a
    ValueError) when negative or not below end, TypeError when not an integer. `why` says the
    range, a format of {end}: formatted only when raising (this is on every step's path)."""
    v = _int(value, name)
    if v < 0:
        raise OtpuInputError(f"{name} {v} is negative")
    if v >> bits:
        raise OverflowError(f"{name} {v} is too big for its C type (uint{bits}_t)")
    if end is not None and v >= end:
        raise OtpuInputError(f"no {name} {v}: " + (why or "0..{last}").format(end=end,
                                                                              last=end - 1))
    return v


def word(value, name, bits=32):
    """A value stored as `bits` bits (a register, a run argument, a program or data word, a
    byte): 0..2**bits - 1, or a negative down to -2**(bits - 1), stored in two's complement.
    OverflowError outside that, TypeError when not an integer."""
    v = _int(value, name)
    if not -(1 << (bits - 1)) <= v < 1 << bits:
        raise OverflowError(f"{name} {v} does not fit {bits} bits "
                            f"({-(1 << (bits - 1))}..{(1 << bits) - 1})")
    return v & ((1 << bits) - 1)
