"""The generators' one way to write their outputs, or with --check to name the stale ones
(sim/gen_protocol.py, sim/gen_isa.py, dpi/gen_dpi.py)."""
import os


def write_or_check(script, source, outputs, root, check):
    """script, source: the generator and its description, as named to the user (sim/gen_isa.py,
    sim/isa.def); outputs: (path, text) pairs. Writes each output that differs, saying so, or
    with check names each one that differs. Returns the exit status: 1 if one is stale."""
    tool = os.path.splitext(os.path.basename(script))[0]
    stale = []
    for path, text in outputs:
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old == text:
            continue
        if check:
            stale.append(path)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"{tool}: wrote {os.path.relpath(path, root)}")
    for p in stale:
        print(f"{tool}: {os.path.relpath(p, root)} is not what {source} describes (run {script})")
    return 1 if stale else 0
