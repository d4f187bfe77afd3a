#!/usr/bin/env python3
"""Writes the DPI-C entry points' description (dpi/dpi.def) as C and SystemVerilog.

    gen_dpi.py              rewrite dpi/dpi_entry.h and the SystemVerilog packages it names
    gen_dpi.py --check      exit 1 (naming the file) if any is not what it would write
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "sim"))
import gen_protocol  # noqa: E402  (the write spaces: the first of the one numbering)
import gen_files  # noqa: E402

DEF = os.path.join(ROOT, "dpi", "dpi.def")
C_OUT = os.path.join(ROOT, "dpi", "dpi_entry.h")
# TYPE of dpi.def -> (C argument, SystemVerilog argument)
ARGS = {"int": ("int", "input int"), "uint": ("unsigned int", "input int unsigned"),
        "longint": ("long long", "input longint"), "out": ("unsigned int *", "output int unsigned")}
RETS = {"void": ("void", "void"), "int": ("int", "int"), "uint": ("unsigned int", "int unsigned")}


class Bad(Exception):
    pass


def parse(text, write_spaces, path="dpi.def"):
    """The description: spaces (name, number, note), load/dump lists, infos, packages."""
    d = {"spaces": [(n, i, note) for i, (n, note) in enumerate(write_spaces)],
         "load": [], "dump": [], "info": [], "packages": []}
    doc = []
    for n, line in enumerate(text.splitlines(), 1):
        where = f"{path}:{n}"
        if line.startswith(">"):
            doc.append(line[1:].strip())
            continue
        words = line.split("#")[0].split()
        note = line.split("#", 1)[1].strip() if "#" in line else ""
        if not words:
            continue
        kind, fields = words[0], words[1:]
        names = [s[0] for s in d["spaces"]]
        if kind == "space" and len(fields) == 1 and fields[0] not in names:
            d["spaces"].append((fields[0], len(names), note))
        elif kind in ("load", "dump") and fields and all(f in names for f in fields):
            d[kind] = fields
        elif kind == "info" and len(fields) == 2 and fields[1].isdigit():
            d["info"].append((fields[0], int(fields[1]), note))
        elif kind == "package" and len(fields) == 2:
            d["packages"].append((fields[0], fields[1], []))
        elif kind == "import" and len(fields) >= 2 and fields[0] in RETS and d["packages"]:
            args = [a.split(":") for a in fields[2:]]
            if any(len(a) != 2 or a[0] not in ARGS or not a[1] for a in args):
                raise Bad(f"{where}: an argument is TYPE:NAME, TYPE one of {', '.join(ARGS)}")
            d["packages"][-1][2].append((fields[0], fields[1], args, doc))
        else:
            raise Bad(f"{where}: cannot read '{line.strip()}' (the forms: dpi.def's header)")
        doc = []
    if not d["packages"]:
        raise Bad(f"{path}: no package")
    return d


def c_text(d, nwrite):
    out = ["/* dpi_entry.h - every DPI-C entry point the RTL calls and the memory spaces they name.",
           " * Written by dpi/gen_dpi.py from dpi/dpi.def, which also writes their SystemVerilog",
           " * imports (" + ", ".join(p[1] for p in d["packages"]) + "): edit the",
           " * description, not this file. The C files of dpi/ implement them. */",
           "#ifndef OTPU_DPI_ENTRY_H", "#define OTPU_DPI_ENTRY_H", "", '#include "protocol.h"', "",
           "#ifdef __cplusplus", 'extern "C" {', "#endif", "",
           "/* Spaces of the load and dump calls that no write lands in, numbered after otpu_space. */",
           "enum {"]
    for name, i, note in d["spaces"][nwrite:]:
        out.append(f"    OTPU_SP_{name} = {i},{gen_protocol.comment(note)}")
    out += ["};", "", "/* What otpu_bundle_info answers. */", "enum {"]
    for name, i, note in d["info"]:
        out.append(f"    OTPU_BI_{name} = {i},{gen_protocol.comment(note)}")
    out += ["};", ""]
    for pkg, path, funcs in d["packages"]:
        out.append(f"/* {pkg} ({path}) */")
        for ret, name, args, doc in funcs:
            if doc:
                out += ["/* " + doc[0]] + [" * " + line for line in doc[1:]]
                out[-1] += " */"
            params = ", ".join(f"{ARGS[t][0]}{'' if t == 'out' else ' '}{n}" for t, n in args)
            out.append(f"{RETS[ret][0]} {name}({params or 'void'});")
        out.append("")
    out += ["#ifdef __cplusplus", "}", "#endif", "#endif", ""]
    return "\n".join(gen_protocol.wrap(out))


def sv_text(d, nwrite, pkg, path, funcs):
    out = [f"// {os.path.basename(path)} - DPI-C functions the RTL calls (implemented in dpi/).",
           "// Written by dpi/gen_dpi.py from dpi/dpi.def, which also writes dpi/dpi_entry.h:",
           "// edit the description, not this file.", f"package {pkg};"]
    if pkg == d["packages"][0][0]:
        spaces = {name: (i, note) for name, i, note in d["spaces"]}
        for prefix, kind in (("BS", "load"), ("DS", "dump")):
            out.append(f"  // the spaces of otpu_{'bundle' if kind == 'load' else 'dump'}_word "
                       "(one numbering with otpu_protocol_pkg::SP_*)")
            for name in d[kind]:
                i, note = spaces[name]
                value = str(i)
                if i < nwrite:  # a write space (its note is about writes); a dumped one is
                    # named by its SP_, so the dump's list is not a second copy of the numbers
                    value, note = (f"int'(otpu_protocol_pkg::SP_{name})" if kind == "dump"
                                   else value), ""
                out.append(f"  localparam int {prefix}_{name} = {value};" +
                           (f"  // {note}" if note else ""))
        out.append("  // what otpu_bundle_info answers")
        for name, i, note in d["info"]:
            out.append(f"  localparam int BI_{name} = {i};" + (f"  // {note}" if note else ""))
    for ret, name, args, doc in funcs:
        out += ["  // " + line for line in doc]
        params = ", ".join(f"{ARGS[t][1]} {n}" for t, n in args)
        out.append(f'  import "DPI-C" function {RETS[ret][1]} {name}({params});')
    out += ["endpackage", ""]
    return "\n".join(gen_protocol.wrap(out))


def outputs():
    proto = gen_protocol.read(gen_protocol.DEF)
    write_spaces = [(f[0], note) for f, note in proto["space"]]
    d = parse(open(DEF).read(), write_spaces, DEF)
    files = [(C_OUT, c_text(d, len(write_spaces)))]
    for pkg, path, funcs in d["packages"]:
        files.append((os.path.join(ROOT, path), sv_text(d, len(write_spaces), pkg, path, funcs)))
    return files


def main():
    check = "--check" in sys.argv[1:]
    try:
        files = outputs()
    except Bad as e:
        print(f"gen_dpi: {e}")
        return 2
    return gen_files.write_or_check("dpi/gen_dpi.py", "dpi/dpi.def", files, ROOT, check)


if __name__ == "__main__":
    sys.exit(main())
