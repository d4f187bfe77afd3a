"""A waveform as text: an FST converted by fst2vcd (GTKWave's), read into its variables and
their value changes. Shared by the tests that look inside a divergence's wave.fst."""
import subprocess


def read_fst(path):
    """(variables: [(full name, bit range or "", id)], changes: {id: [(time, value), ...]})"""
    text = subprocess.run(["fst2vcd", path], capture_output=True, text=True, check=True).stdout
    variables, changes, scope, t = [], {}, [], None
    header = True
    for line in text.splitlines():
        w = line.split()
        if not w:
            continue
        if header:  # (the $date and $version texts are not values)
            if w[0] == "$scope":
                scope.append(w[2])
            elif w[0] == "$upscope":
                scope.pop()
            elif w[0] == "$var":
                rng = w[5] if len(w) > 6 and w[5].startswith("[") else ""
                variables.append((".".join(scope + [w[4]]), rng, w[3]))
            elif w[0] == "$enddefinitions":
                header = False
        elif w[0].startswith("#"):
            t = int(w[0][1:])
        elif t is not None and w[0][0] in "bBrR" and len(w) == 2:
            changes.setdefault(w[1], []).append((t, w[0][1:]))
        elif t is not None and len(w) == 1 and w[0][0] in "01xzXZ":
            changes.setdefault(w[0][1:], []).append((t, w[0][0]))
    return variables, changes
