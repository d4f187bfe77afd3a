"""The Python binding's overhead per Machine.step() call (a figure, not a test).

Steps a long loop of ADDIs one instruction at a time through the binding and compares it with
running the same instructions in C (Machine.run). Prints microseconds per step() call, the C
model's time per instruction, and the difference: the binding's overhead.
Usage: OTPU_LIBOTPUSIM=build/sim/libotpusim.so /usr/bin/python3 python/bench_step.py [N]
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import otpu                      # noqa: E402
from otpu import asm as A        # noqa: E402


def machine(n):
    return otpu.Machine(otpu.Config(), [[A.loop(1, n), A.addi(1, 1, 1), A.halt()]])


def best(fn, repeat=5):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    ms = [machine(n) for _ in range(5)]

    def step_all(which):
        m = ms.pop()
        for _ in range(n):
            m.step(which)

    t_next = best(lambda: step_all(None))
    ms.extend(machine(n) for _ in range(5))
    t_slice = best(lambda: step_all(0))
    t_c = best(lambda: machine(n).run(0)) - best(lambda: machine(0))  # less building it
    c_ns = max(t_c, 0) / n * 1e9
    print(f"libotpusim: {otpu.library_path()}")
    print(f"{n} ADDIs; C model run(): {c_ns:.0f} ns per instruction")
    for name, t in (("step()", t_next), ("step(0)", t_slice)):
        per = t / n * 1e6
        print(f"Python {name:8s}: {per:.2f} us per call, binding overhead "
              f"{per - c_ns / 1000:.2f} us per call (write log decoded)")


if __name__ == "__main__":
    main()
