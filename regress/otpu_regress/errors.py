"""The error every part of otpu-regress raises for bad usage or bad input (exit status 2)."""


class UsageError(Exception):
    """bad usage or bad input: one line"""
