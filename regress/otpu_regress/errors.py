"""The error every part of otpu-regress raises for bad usage or bad input (exit status 2): one
line naming the argument, file or entry and what is wrong. SuiteError, HistoryError, BadFile,
Invalid and SlurmError are kinds of it; nothing else is raised for bad input. A message names
inputs as they are: it is made visible text (text.py) where it is printed or recorded."""


class UsageError(Exception):
    """bad usage or bad input: one line"""
