#!/usr/bin/env python3
"""Writes the lockstep protocol's description (sim/protocol.def) as C and SystemVerilog.

    gen_protocol.py              rewrite sim/protocol.h and rtl/otpu_protocol_pkg.sv
    gen_protocol.py --check      exit 1 (naming the file) if either is not what it would write
"""
import os
import sys
import gen_files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEF = os.path.join(ROOT, "sim", "protocol.def")
C_OUT = os.path.join(ROOT, "sim", "protocol.h")
SV_OUT = os.path.join(ROOT, "rtl", "otpu_protocol_pkg.sv")


def read(path):
    d = {"unit": [], "space": [], "port": [], "event": [], "state": []}
    for n, line in enumerate(open(path), 1):
        words = line.split("#")[0].split()
        note = line.split("#", 1)[1].strip() if "#" in line else ""
        if not words:
            continue
        kind, fields = words[0], words[1:]
        want = 3 if kind == "port" else 1
        if kind not in d or len(fields) != want:
            sys.exit(f"{path}:{n}: expected 'unit|space|event|state NAME' or "
                     f"'port NAME OWNER SPACE'")
        d[kind].append((fields, note))
    units = [f[0] for f, _ in d["unit"]]
    spaces = [f[0] for f, _ in d["space"]]
    for f, _ in d["port"]:
        if f[1] not in units + ["SEQ"] or f[2] not in spaces:
            sys.exit(f"{path}: port {f[0]}: unknown owner {f[1]} or space {f[2]}")
    return d


def comment(note):
    return f" /* {note} */" if note else ""


def c_text(d):
    units = [f[0] for f, _ in d["unit"]]
    out = ["/* protocol.h - the lockstep protocol's vocabulary (rtl/EVENTS.md): units, memory",
           " * spaces, write ports, records. Written by sim/gen_protocol.py from sim/protocol.def,",
           " * which also writes rtl/otpu_protocol_pkg.sv: edit the description, not this file. */",
           "#ifndef OTPU_PROTOCOL_H", "#define OTPU_PROTOCOL_H", "", "#include <stdint.h>", "",
           "#ifdef __cplusplus", 'extern "C" {', "#endif", "",
           "/* The units that start and complete instructions, then the sequencer (which executes",
           " * some instructions itself and writes the registers). */", "typedef enum {"]
    for i, (f, note) in enumerate(d["unit"]):
        out.append(f"    OTPU_UNIT_{f[0]} = {i},{comment(note)}")
    out += [f"    OTPU_UNITS = {len(units)},",
            f"    OTPU_UNIT_SEQ = {len(units)},",
            f"    OTPU_UNIT_COUNT = {len(units) + 1} /* (also: no unit, an unknown opcode) */",
            "} otpu_unit;", "", "/* Memory spaces of a write. */", "typedef enum {"]
    for i, (f, note) in enumerate(d["space"]):
        out.append(f"    OTPU_SP_{f[0]} = {i},{comment(note)}")
    out += [f"    OTPU_SPACES = {len(d['space'])}", "} otpu_space;", "",
            "/* Write ports: each belongs to one unit (or the sequencer) and one space. */",
            "enum {"]
    for i, (f, note) in enumerate(d["port"]):
        out.append(f"    OTPU_PORT_{f[0]} = {i},{comment(note)}")
    out += [f"    OTPU_PORTS = {len(d['port'])}", "};", "",
            "/* Instruction records, and slice status records. */", "enum {"]
    for i, (f, note) in enumerate(d["event"]):
        out.append(f"    OTPU_EV_{f[0]} = {i},{comment(note)}")
    out += ["};", "enum {"]
    for i, (f, note) in enumerate(d["state"]):
        out.append(f"    OTPU_SS_{f[0]} = {i},{comment(note)}")
    out += ["};", "",
            "static const uint8_t otpu_port_unit[OTPU_PORTS] = {" +
            ", ".join(f"OTPU_UNIT_{f[1]}" for f, _ in d["port"]) + "};",
            "static const uint8_t otpu_port_space[OTPU_PORTS] = {" +
            ", ".join(f"OTPU_SP_{f[2]}" for f, _ in d["port"]) + "};",
            "static const char *const otpu_port_names[OTPU_PORTS] = {" +
            ", ".join(f'"{f[0]}"' for f, _ in d["port"]) + "};",
            "static const char *const otpu_unit_names[OTPU_UNIT_COUNT] = {" +
            ", ".join(f'"{u}"' for u in units) + ', "SEQ"};',
            "static const char *const otpu_space_names[OTPU_SPACES] = {" +
            ", ".join(f'"{f[0]}"' for f, _ in d["space"]) + "};",
            "static const char *const otpu_event_names[] = {" +
            ", ".join(f'"{f[0].lower()}"' for f, _ in d["event"]) + "};",
            "", "#ifdef __cplusplus", "}", "#endif", "#endif", ""]
    return "\n".join(wrap(out))


def wrap(lines, width=100):
    """Breaks the long table lines after a comma."""
    res = []
    for line in lines:
        while len(line) > width:
            k = line.rfind(", ", 0, width - 1)
            res.append(line[:k + 1])
            line = "    " + line[k + 2:]
        res.append(line)
    return res


def sv_text(d):
    out = ["// otpu_protocol_pkg.sv - the lockstep protocol's vocabulary (rtl/EVENTS.md): units,",
           "// memory spaces, write ports, records. Written by sim/gen_protocol.py from",
           "// sim/protocol.def, which also writes sim/protocol.h: edit the description, not",
           "// this file.", "package otpu_protocol_pkg;", ""]
    # (section title, protocol.def key, declaration, its count's name, notes shown)
    for title, key, decl, count, notes in (
            ("units", "unit", "int U_{}", "NUNITS", True),
            ("memory spaces of a write", "space", "logic [2:0] SP_{}", None, False),
            ("write ports", "port", "int P_{}", "NPORTS", True),
            ("instruction records", "event", "int EV_{}", None, False),
            ("slice status records", "state", "int SS_{}", None, False)):
        out.append(f"  // {title}")
        for i, (f, note) in enumerate(d[key]):
            value = f"3'd{i}" if key == "space" else str(i)
            out.append(f"  localparam {decl.format(f[0])} = {value};" +
                       (f"  // {note}" if notes and note else ""))
        if count:
            out.append(f"  localparam int {count} = {len(d[key])};")
        out.append("")
    out += ["  // the unit whose instruction a port's writes belong to (-1: the sequencer)",
            "  function automatic int port_unit(input int p);", "    case (p)"]
    for f, _ in d["port"]:
        out.append(f"      P_{f[0]}: return {'-1' if f[1] == 'SEQ' else 'U_' + f[1]};")
    out += ["      default: return -1;", "    endcase", "  endfunction", "endpackage", ""]
    return "\n".join(out)


def main():
    d = read(DEF)
    check = "--check" in sys.argv[1:]
    return gen_files.write_or_check("sim/gen_protocol.py", "sim/protocol.def",
                                    ((C_OUT, c_text(d)), (SV_OUT, sv_text(d))), ROOT, check)


if __name__ == "__main__":
    sys.exit(main())
