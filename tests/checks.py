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
