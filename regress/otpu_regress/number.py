"""The project's one number grammar (docs/bundle.md), for otpu-regress's options and the fields
of a gen: entry: decimal without leading zeros, or hex with 0x. `010` is refused, not read as
10 or 8; so are signs, fractions, exponents, inf and nan (otpu-regress takes no negative
number)."""
import re

from .errors import UsageError

NUMBER = re.compile(r"0|[1-9][0-9]*|0[xX][0-9a-fA-F]+")
U64 = (1 << 64) - 1
MAX_DIGITS = 24  # beyond any 64-bit value; longer text is out of range without converting it


def number(text, what, lo=0, hi=U64):
    """text as an integer in lo..hi, else UsageError naming what"""
    if not NUMBER.fullmatch(text):
        raise UsageError(f"{what}: '{text}' is not a number (decimal without leading "
                         "zeros, or hex with 0x)")
    v = None
    if len(text) <= MAX_DIGITS:
        v = int(text, 16) if text[:2] in ("0x", "0X") else int(text)
    if v is None or not lo <= v <= hi:
        raise UsageError(f"{what}: {text} is not {lo}..{hi}")
    return v
