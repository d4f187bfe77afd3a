"""The checks of a test script, shared by the scripts that print one line a check: "ok   WHAT"
or "FAIL WHAT" (and its detail) as each is made, the failures kept for the closing verdict and
the exit status."""


class Checks:
    def __init__(self):
        self.failed = []

    def __call__(self, ok, what, detail=""):
        """one check: ok (true or false) and what it says; returns ok"""
        more = "" if ok or not detail else "\n" + str(detail)
        print(("ok   " if ok else "FAIL ") + what + more, flush=True)
        if not ok:
            self.failed.append(what)
        return ok

    def verdict(self):
        """the closing line; the exit status (1 when a check failed)"""
        print(f"{len(self.failed)} failed" if self.failed else "all passed")
        return 1 if self.failed else 0


def too_few(n, floor, what):
    """True, after a FAIL line, when a test counted only n of what, fewer than its floor: a test
    that counts something asserts a minimum, so a filter gone wrong cannot pass quietly"""
    if n < floor:
        print(f"FAIL only {n} {what} (at least {floor} wanted)")
        return True
    return False
