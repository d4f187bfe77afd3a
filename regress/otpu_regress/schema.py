"""An explicit schema check of JSON that otpu-regress reads back. A checker is a function
(value, where) -> value that raises Invalid with where (a path such as tests[3].kind) and what
is wrong; the combinators below build them. JSON itself is parsed strictly (parse)."""
import json
import math

from .errors import UsageError
from .text import visible


class Invalid(UsageError):
    """JSON that is not what otpu-regress wrote: one line"""


def _show(v):
    """a short description of a bad value"""
    text = visible(json.dumps(v) if isinstance(v, (str, int, float, bool)) or v is None
                   else type(v).__name__)
    return text if len(text) <= 40 else text[:37] + "..."


def _fail(where, want, v):
    raise Invalid(f"{where}: {want} expected, not {_show(v)}")


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def parse(text, name):
    """strict JSON (no NaN or Infinity); Invalid naming the file when it is not"""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise Invalid(f"{name}: nested too deeply to be otpu-regress's") from None
    except ValueError as e:  # JSONDecodeError, UnicodeDecodeError, too many digits
        raise Invalid(f"{name}: not JSON ({visible(e)})") from None


def string(max_len=4096, printable=False, test=None, want=None):
    want = want or (("printable text" if printable else "a string") +
                    f" of at most {max_len} characters")

    def c(v, where):
        if not isinstance(v, str) or len(v) > max_len or (printable and not v.isprintable()) \
                or (test and not test(v)):
            _fail(where, want, v)
        return v
    return c


def integer(lo=0, hi=(1 << 64) - 1):
    def c(v, where):
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            _fail(where, f"an integer in {lo}..{hi}", v)
        return v
    return c


def number(lo=0.0, hi=1e9):
    def c(v, where):
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) \
                or not lo <= v <= hi:
            _fail(where, f"a number in {lo:g}..{hi:g}", v)
        return v
    return c


def one_of(*values):
    def c(v, where):
        if not any(v == x and type(v) is type(x) for x in values):
            _fail(where, "one of " + ", ".join(json.dumps(x) for x in values), v)
        return v
    return c


def nullable(check):
    def c(v, where):
        return None if v is None else check(v, where)
    return c


def list_of(check, max_len=1 << 24):
    def c(v, where):
        if not isinstance(v, list) or len(v) > max_len:
            _fail(where, f"a list of at most {max_len} items", v)
        for i, x in enumerate(v):
            check(x, f"{where}[{i}]")
        return v
    return c


def record(required, optional=None):
    """a JSON object with every key of required, maybe those of optional, and no other"""
    optional = optional or {}

    def c(v, where):
        if not isinstance(v, dict):
            _fail(where, "an object", v)
        for k in v:
            if k not in required and k not in optional:
                raise Invalid(f"{where}: unknown key {_show(k)}")
        for k, check in required.items():
            if k not in v:
                raise Invalid(f"{where}: the key \"{k}\" is missing")
            check(v[k], f"{where}.{k}")
        for k, check in optional.items():
            if k in v:
                check(v[k], f"{where}.{k}")
        return v
    return c
