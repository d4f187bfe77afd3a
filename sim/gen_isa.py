#!/usr/bin/env python3
"""Writes the ISA's description (sim/isa.def) as C and Python tables.

    gen_isa.py                rewrite sim/isa_formats.h, sim/isa_table.c, python/otpu/_isa.py
                              (isa_table.c holds tables: sim/isa_fields.c reads them)
    gen_isa.py --check        exit 1 (naming the file) if one is not what it would write
    gen_isa.py --root DIR     the tree at DIR instead of this one (DIR/sim/isa.def ...)

A description it cannot read: exit 2 and one line, FILE:LINE: what is wrong.
"""
import os
import re
import shlex
import sys
import gen_files

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNITS = ("SEQ", "DMA", "MXU", "QUANT", "VPU", "COLL")
REGS = ("ra", "rb", "rc", "rd")
MAX_RI = 6        # otpu_ops.ri_at (shrink/regs.h keeps as many values)
MAX_FLAGS = 6     # flags and flag fields of one format (otpu_format_flags.f)
MAX_SIZE_ERRORS = 2  # error= alternatives of a size line (otpu_size_desc.error)
MAX_SIZES = 4     # size lines of one format (cov/coverage_bins.h MAX_SIZES)
NOTE = "Written by sim/gen_isa.py from sim/isa.def: edit the description, not this file."


class DefError(Exception):
    pass


def num(text, what, lo=0, hi=0xFFFFFFFF):
    try:
        v = int(text, 0)
    except ValueError:
        raise DefError(f"{what} {text!r} is not a number") from None
    if not lo <= v <= hi:
        raise DefError(f"{what} {text} is not in {lo}..{hi}")
    return v


def ident(text, what):
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
        raise DefError(f"{what} {text!r} is not a name")
    return text


def options(words, allowed):
    opts = {}
    for w in words:
        k, eq, v = w.partition("=")
        if not eq or k not in allowed:
            raise DefError(f"unknown option {w!r} (allowed: {', '.join(allowed)})")
        opts[k] = v
    return opts


def word_index(text):
    return None if text == "-" else num(text, "word", 1, 7)


def field_line(fmt, kind, a):
    """One field or flag line of a format block."""
    def need(n, usage):
        if len(a) < n:
            raise DefError(f"expected '{kind} {usage}'")
    if kind == "reg":
        need(2, "FIELD REG")
        if len(a) != 2 or a[1] not in REGS:
            raise DefError(f"reg {a[0]}: REG is one of {' '.join(REGS)}")
        return {"kind": "reg", "name": ident(a[0], "field"), "reg": a[1]}
    if kind == "ri":
        need(3, "FIELD REG WORD [shared]")
        if a[1] not in REGS or a[3:] not in ([], ["shared"]):
            raise DefError(f"ri {a[0]}: expected REG (ra rb rc rd), WORD and at most 'shared'")
        return {"kind": "ri", "name": ident(a[0], "field"), "reg": a[1],
                "word": word_index(a[2]), "shared": a[3:] == ["shared"]}
    if kind == "word":
        need(2, "FIELD WORD")
        if len(a) != 2:
            raise DefError("expected 'word FIELD WORD'")
        return {"kind": "bits", "name": ident(a[0], "field"), "word": num(a[1], "word", 1, 7),
                "lo": 0, "width": 32, "names": None}
    if kind == "bits":
        need(4, "FIELD WORD LO WIDTH [names=..]")
        lo, width = num(a[2], "LO", 0, 31), num(a[3], "WIDTH", 1, 32)
        if lo + width > 32:
            raise DefError(f"bits {a[0]}: LO + WIDTH is past bit 31")
        names = options(a[4:], ["names"]).get("names")
        names = names.split(",") if names is not None else None
        if names is not None and len(names) != 1 << width:
            raise DefError(f"bits {a[0]}: names has {len(names)} names for {1 << width} values")
        return {"kind": "bits", "name": ident(a[0], "field"), "word": num(a[1], "word", 1, 7),
                "lo": lo, "width": width, "names": names}
    if kind == "flag":
        need(2, "FIELD MASK [c=] [dis=] [cov=]")
        mask = num(a[1], "MASK", 1, 0xFF)
        if mask & (mask - 1):
            raise DefError(f"flag {a[0]}: MASK {a[1]} is not one bit")
        o = options(a[2:], ["c", "dis", "cov"])
        c = ident(o.get("c", a[0].upper()), "c=").upper()
        return {"kind": "flag", "name": ident(a[0], "field"), "mask": mask, "c": c,
                "dis": o.get("dis", c), "cov": o.get("cov", a[0])}
    if kind == "ffield":
        need(3, "FIELD LO WIDTH vals=.. [dis=..]")
        lo, width = num(a[1], "LO", 0, 7), num(a[2], "WIDTH", 1, 8)
        if lo + width > 8:
            raise DefError(f"ffield {a[0]}: LO + WIDTH is past the flags byte")
        o = options(a[3:], ["vals", "dis"])
        if "vals" not in o:
            raise DefError(f"ffield {a[0]}: vals= is missing")
        vals = o["vals"].split(",")
        dis = o.get("dis", o["vals"]).split(",")
        if len(vals) != 1 << width or len(dis) != 1 << width:
            raise DefError(f"ffield {a[0]}: vals= and dis= need {1 << width} names each")
        return {"kind": "ffield", "name": ident(a[0], "field"), "lo": lo, "width": width,
                "mask": ((1 << width) - 1) << lo, "vals": vals, "names": dis}
    raise DefError(f"unknown line kind {kind!r} in format {fmt['name']}")


ZERO_RULES = ("empty", "error", "skip")


def size_line(a, n):
    """A size line: FIELD ZERO [if=COND] [error=COND|COND..] (checked against its format later)."""
    if len(a) < 2 or a[1] not in ZERO_RULES:
        raise DefError(f"expected 'size FIELD ZERO [if=COND] [error=COND|..]', ZERO one of "
                       f"{' '.join(ZERO_RULES)}")
    o = options(a[2:], ["if", "error"])
    errs = [e.split("&") for e in o["error"].split("|")] if "error" in o else []
    if len(errs) > MAX_SIZE_ERRORS or any(len(e) > 2 or "" in e for e in errs) or \
            o.get("if") == "":
        raise DefError(f"size {a[0]}: error= holds 1..{MAX_SIZE_ERRORS} alternatives of one or "
                       "two conditions (A&B), if= one condition")
    return {"field": ident(a[0], "field"), "zero": a[1], "if": o.get("if"), "error": errs,
            "line": n}


def read(path):
    ops, formats, revisions = [], {}, {}
    fmt = rev = None
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        raise DefError(f"{path}: {e.strerror}") from None
    for n, line in enumerate(lines, 1):
        try:
            words = shlex.split(line, comments=True)
        except ValueError as e:
            raise DefError(f"{path}:{n}: {e}") from None
        if not words:
            continue
        kind, a = words[0], words[1:]
        try:
            if kind == "op":
                fmt = rev = None
                if len(a) != 4:
                    raise DefError("expected 'op NAME CODE UNIT FORMAT'")
                name = ident(a[0], "opcode").upper()
                if a[2] not in UNITS:
                    raise DefError(f"op {name}: unit {a[2]!r} is not one of {' '.join(UNITS)}")
                code = num(a[1], "opcode", 0, 255)
                if any(o["name"] == name or o["code"] == code for o in ops):
                    raise DefError(f"op {name}: its name or code {a[1]} is taken")
                ops.append({"name": name, "code": code, "unit": a[2],
                            "format": ident(a[3], "format").upper(), "line": n})
            elif kind == "format":
                rev = None
                if len(a) != 1:
                    raise DefError("expected 'format NAME'")
                name = ident(a[0], "format").upper()
                if name in formats:
                    raise DefError(f"format {name} twice")
                fmt = formats[name] = {"name": name, "fields": [], "forbid": [], "dis": None,
                                       "sizes": []}
            elif kind == "revision":
                fmt = None
                if len(a) != 1:
                    raise DefError("expected 'revision NAME'")
                rev = revisions.setdefault(ident(a[0], "revision"), {"ops": [], "flags": []})
            elif kind == "lacks":
                if rev is None:
                    raise DefError("'lacks' outside a revision block")
                if a[:1] == ["op"] and len(a) == 2:
                    rev["ops"].append((a[1], n))
                elif a[:1] == ["flag"] and len(a) in (3, 4):
                    rev["flags"].append((a[1], a[2], a[3] if len(a) == 4 else None, n))
                else:
                    raise DefError("expected 'lacks op NAME' or 'lacks flag OP FIELD [NAME]'")
            elif fmt is None:
                raise DefError(f"unknown line kind {kind!r} (or a field line outside a format)")
            elif kind == "forbid":
                if not a:
                    raise DefError("expected 'forbid COND..'")
                fmt["forbid"].append((a, n))
            elif kind == "size":
                fmt["sizes"].append(size_line(a, n))
            elif kind == "dis":
                if fmt["dis"] is not None:
                    raise DefError(f"format {fmt['name']}: a second dis line")
                fmt["dis"] = (a, n)
            else:
                f = field_line(fmt, kind, a)
                if any(g["name"] == f["name"] for g in fmt["fields"]):
                    raise DefError(f"format {fmt['name']}: field {f['name']} twice")
                f["line"] = n
                fmt["fields"].append(f)
        except DefError as e:
            raise DefError(f"{path}:{n}: {e}") from None
    check(path, ops, formats, revisions)
    return ops, formats, revisions


def flags_of(fmt):
    return [f for f in fmt["fields"] if f["kind"] in ("flag", "ffield")]


def field(fmt, name):
    for f in fmt["fields"]:
        if f["name"] == name:
            return f
    return None


def check(path, ops, formats, revisions):
    """What a line alone cannot tell: names that must exist, overlaps, limits."""
    def err(n, msg):
        raise DefError(f"{path}:{n}: {msg}")
    if "NONE" not in formats:
        err(1, "format NONE (no operands) is missing")
    for o in ops:
        if o["format"] not in formats:
            err(o["line"], f"op {o['name']}: format {o['format']} is not described")
    cnames = {}
    for fmt in formats.values():
        words, regs, bits = {}, {}, 0
        for f in fmt["fields"]:
            if f["kind"] in ("reg", "ri") and not f.get("shared"):
                if f["reg"] in regs:
                    err(f["line"], f"{fmt['name']} {f['name']}: {f['reg']} is also "
                        f"{regs[f['reg']]}'s (mark one 'shared')")
                regs[f["reg"]] = f["name"]
            if f.get("shared") and not any(g["kind"] == "ri" and g["reg"] == f["reg"] and
                                           not g["shared"] for g in fmt["fields"]):
                err(f["line"], f"{fmt['name']} {f['name']}: shared, but no field owns "
                    f"{f['reg']}")
            if f["kind"] in ("ri", "bits") and f["word"] is not None:
                lo, width = (0, 32) if f["kind"] == "ri" else (f["lo"], f["width"])
                m = ((1 << width) - 1) << lo
                if words.get(f["word"], 0) & m:
                    err(f["line"], f"{fmt['name']} {f['name']}: overlaps another field of "
                        f"w{f['word']}")
                words[f["word"]] = words.get(f["word"], 0) | m
            if f["kind"] in ("flag", "ffield"):
                if bits & f["mask"]:
                    err(f["line"], f"{fmt['name']} {f['name']}: overlaps another flag")
                bits |= f["mask"]
            if f["kind"] == "flag":
                old = cnames.setdefault(f["c"], f["mask"])
                if old != f["mask"]:
                    err(f["line"], f"flag OTPU_F_{f['c']} is {old:#x} elsewhere, "
                        f"{f['mask']:#x} here")
        if sum(f["kind"] == "ri" for f in fmt["fields"]) > MAX_RI:
            err(fmt["fields"][-1]["line"], f"{fmt['name']}: more than {MAX_RI} ri fields")
        if len(flags_of(fmt)) > MAX_FLAGS:
            err(fmt["fields"][-1]["line"], f"{fmt['name']}: more than {MAX_FLAGS} flags")
        for conds, n in fmt["forbid"]:
            for c in conds:
                forbid_cond(fmt, c, lambda m, n=n: err(n, m))
        if fmt["dis"]:
            for item in fmt["dis"][0]:
                dis_item(fmt, item, lambda m, n=fmt["dis"][1]: err(n, m))
        for z in fmt["sizes"]:
            size_check(fmt, z, lambda m, n=z["line"]: err(n, m))
    for rname, rev in revisions.items():
        for name, n in rev["ops"]:
            if not any(o["name"] == name for o in ops):
                err(n, f"revision {rname}: no op {name}")
        for opname, fname, _, n in rev["flags"]:
            op = next((o for o in ops if o["name"] == opname), None)
            f = field(formats[op["format"]], fname) if op else None
            if not f or f["kind"] not in ("flag", "ffield"):
                err(n, f"revision {rname}: op {opname} has no flag {fname}")


def size_check(fmt, z, err):
    f = field(fmt, z["field"])
    if not f or f["kind"] not in ("bits", "ri"):
        err(f"{fmt['name']}: size {z['field']}: not a bits, word or ri field")
    if sum(y["field"] == z["field"] for y in fmt["sizes"]) > 1:
        err(f"{fmt['name']}: size {z['field']} twice")
    if len(fmt["sizes"]) > MAX_SIZES:
        err(f"{fmt['name']}: more than {MAX_SIZES} size lines")
    for c in ([z["if"]] if z["if"] else []) + [c for e in z["error"] for c in e]:
        dis_cond(fmt, c, err)


def forbid_cond(fmt, c, err):
    """A forbid condition as the bits of the flags byte it tests: (mask, value)."""
    neg = c.startswith("!")
    name, eq, val = c.lstrip("!").partition("=")
    f = field(fmt, name)
    if not f or f["kind"] not in ("flag", "ffield") or (eq and (neg or f["kind"] != "ffield")) \
            or (f["kind"] == "ffield" and not eq):
        err(f"{fmt['name']}: forbid condition {c!r}: expected FLAG, !FLAG or FFIELD=VALUE")
    if f["kind"] == "flag":
        return f["mask"], 0 if neg else f["mask"]
    if val not in f["vals"]:
        err(f"{fmt['name']}: forbid condition {c!r}: {val} is not one of {','.join(f['vals'])}")
    return f["mask"], f["vals"].index(val) << f["lo"]


def forbid_rule(fmt, conds):
    """A forbid line as (mask, value): flags f are refused when (f & mask) == value; None when
    its conditions contradict each other (it refuses nothing)."""
    mask = value = 0
    for c in conds:
        m, v = forbid_cond(fmt, c, None)
        if (value ^ v) & mask & m:
            return None
        mask, value = mask | m, value | v
    return mask, value


DIS_KINDS = ("ri", "u", "x", "reg", "rc", "hex", "flag", "names", "vfunc")


def dis_cond(fmt, c, err):
    """A condition: (field, None) when the field is not 0, (field, C constant) when it is
    that constant."""
    name, eq, val = c.partition("=")
    f = field(fmt, name)
    if not f or f["kind"] == "ri":
        err(f"{fmt['name']}: dis condition {c!r}: no field {name} (not an ri field)")
    return (name, f"OTPU_{ident(val, 'value')}" if eq else None)


def dis_label(fmt, label, err):
    """A label as its chain: [(condition, text), .., (None, text)], "name" or COND?A|B."""
    if "?" not in label:
        return [(None, label)]
    cond, _, rest = label.partition("?")
    a, bar, b = rest.partition("|")
    if not bar:
        err(f"{fmt['name']}: dis label {label!r}: COND?A|B")
    return [(dis_cond(fmt, cond, err), a)] + dis_label(fmt, b, err)


def dis_item(fmt, item, err):
    """One disassembly item: (its row, the flag it prints or guards, or None). A row: kind,
    field, part (None, reg or imm), label chain, guard condition or None, names or None."""
    body, _, guard = item.partition("@")
    parts = body.split(":", 2)
    kind, path = parts[0], parts[1] if len(parts) > 1 else ""
    if kind not in DIS_KINDS or not path:
        err(f"{fmt['name']}: dis item {item!r}: expected KIND:PATH[:LABEL][@COND], KIND one of "
            f"{' '.join(DIS_KINDS)}")
    name, dot, sub = path.partition(".")
    f = field(fmt, name)
    if not f or (dot and (f["kind"] != "ri" or sub not in ("reg", "imm"))):
        err(f"{fmt['name']}: dis item {item!r}: no field {path}")
    if not dot and f["kind"] == "ri" and kind != "ri":
        err(f"{fmt['name']}: dis item {item!r}: an ri field prints as ri, or its .reg or .imm")
    label = parts[2] if len(parts) > 2 else (f.get("dis") if kind == "flag" else name)
    chain = dis_label(fmt, label, err)
    names = None
    if kind == "ri" and (f["kind"] != "ri" or dot):
        err(f"{fmt['name']}: dis item {item!r}: ri wants an ri field")
    elif kind == "flag" and f["kind"] != "flag":
        err(f"{fmt['name']}: dis item {item!r}: flag wants a flag")
    elif kind == "names":
        if not f.get("names"):
            err(f"{fmt['name']}: dis item {item!r}: {name} has no names")
        names = f"{fmt['name'].lower()}_{name}_names"
        if len(parts) <= 2:
            kind = "names_bare"
    named = name if kind in ("flag",) or f["kind"] in ("flag", "ffield") else None
    cond = None
    if guard:
        gname = guard.partition("=")[0]
        if field(fmt, gname) and field(fmt, gname)["kind"] == "flag":
            named = gname
        cond = dis_cond(fmt, guard, err)
    return (kind, name, sub or None, chain, cond, names), named


# ------------------------------------------------------------------ C header

def ctype(f):
    return {"reg": "uint8_t", "ri": "otpu_ri", "bits": "uint32_t", "flag": "int",
            "ffield": "uint32_t"}[f["kind"]]


def struct(fmt):
    """Members in description order, runs of one type on one line."""
    runs = []
    for f in fmt["fields"]:
        if runs and runs[-1][0] == ctype(f):
            runs[-1][1].append(f["name"])
        else:
            runs.append((ctype(f), [f["name"]]))
    body = " ".join(f"{t} {', '.join(names)};" for t, names in runs)
    return f"typedef struct {{ {body} }} otpu_{fmt['name'].lower()}_ops;"


def operand_formats(formats):
    return [f for f in formats.values() if f["fields"]]


def h_text(ops, formats, revisions):
    out = ["/* isa_formats.h - the instruction table and the operand formats of sim/isa.def (isa.h",
           f" * includes it). {NOTE} */",
           "#ifndef OTPU_ISA_FORMATS_H", "#define OTPU_ISA_FORMATS_H", "",
           "/* Operand formats: how w0..w7 hold an instruction's operands (otpu_ops below). */",
           "typedef enum {"]
    out += [f"    OTPU_FMT_{name}," for name in formats]
    out += ["} otpu_format;", f"enum {{ OTPU_FORMATS = {len(formats)} }};", "",
            "/*  X(NAME, name, opcode, unit, format): name is NAME in lower case, for "
            "otpu_exec_<name> */",
            "#define OTPU_OPCODES(X) \\"]
    for o in ops:
        out.append(f"    X({o['name']}, {o['name'].lower()}, {o['code']:#04x}, "
                   f"OTPU_UNIT_{o['unit']}, OTPU_FMT_{o['format']}) \\")
    out += ["", "enum {"]
    out += [f"    OTPU_OP_{o['name']} = {o['code']:#04x}," for o in ops]
    out += ["};", "", "/* flags (w0[31:24]) */", "enum {"]
    seen = {}
    for fmt in formats.values():
        for f in flags_of(fmt):
            if f["kind"] == "flag":
                seen.setdefault(f"OTPU_F_{f['c']} = {f['mask']:#x},", []).append(fmt["name"])
            else:
                seen.setdefault(f"OTPU_{f['name'].upper()}_SHIFT = {f['lo']},",
                                []).append(fmt["name"])
    out += [f"    {k} /* {' '.join(v)} */" for k, v in seen.items()]
    out += ["};", "", "/* The operands of each format (openTPU docs/isa.md, instruction by "
            "instruction). */"]
    out += [struct(fmt) for fmt in operand_formats(formats)]
    out += ["", "/* The operands of one instruction: the member of its format. */",
            "typedef struct {", "    otpu_format format;",
            f"    uint8_t nri, ri_at[{MAX_RI}];             /* where its R[reg] + imm operands"
            " are (resolve) */", "    union {"]
    out += [f"        otpu_{f['name'].lower()}_ops {f['name'].lower()};"
            for f in operand_formats(formats)]
    out += ["    };", "} otpu_ops;", "",
            "/* The flags each format defines: flag bits (nvals 0) and fields of the flags byte"
            " (nvals", " * values, named by vals), in description order. */",
            "typedef struct {",
            "    const char *name;            /* coverage name */",
            "    uint8_t mask, shift, nvals;",
            "    const char *const *vals;",
            "} otpu_flag_desc;",
            f"typedef struct {{ uint8_t n; otpu_flag_desc f[{MAX_FLAGS}]; }} otpu_format_flags;",
            "extern const otpu_format_flags otpu_format_flag_table[OTPU_FORMATS];",
            "/* Every flag bit op's format defines (0 for an unknown opcode). */",
            "unsigned otpu_flag_mask(unsigned op);",
            "/* Sets the flag members of operands x of format fmt (&o.<format> of an otpu_ops)"
            " from a flags", " * byte, as otpu_operands does. */",
            "void otpu_set_flags(otpu_format fmt, void *x, unsigned f);",
            "", "/* What a 0 in a size field means (isa.def's size lines; otpu_size_zero). */",
            "typedef enum { OTPU_ZERO_EMPTY, OTPU_ZERO_ERROR, OTPU_ZERO_SKIP } otpu_zero_rule;",
            "", "/* What each older revision lacks (revision.c's otpu_rev_desc). */"]
    for rname, rev in revisions.items():
        R = rname.upper()
        out.append(f"#define OTPU_REV_{R}_LACKS_OP {{" +
                   ", ".join(f"[OTPU_OP_{n}] = 1" for n, _ in rev["ops"]) + "}")
        items = []
        for opname, fname, msg, _ in rev["flags"]:
            op = next(o for o in ops if o["name"] == opname)
            f = field(formats[op["format"]], fname)
            items.append(f'{{OTPU_OP_{opname}, {f["mask"]:#04x}, '
                         f'"{msg or f.get("c", fname.upper())}"}}')
        out.append(f"#define OTPU_REV_{R}_LACKS_FLAG {{" + ", ".join(items) + "}")
    out += ["", "#endif", ""]
    return "\n".join(out)


# ------------------------------------------------------------------ C source: the tables that
# sim/isa_fields.c (the decoder, encoder, flag rules and disassembler) reads, isa_table.h's rows

FLD_KINDS = {"reg": "OTPU_FLD_REG", "ri": "OTPU_FLD_RI", "bits": "OTPU_FLD_BITS",
             "flag": "OTPU_FLD_FLAG", "ffield": "OTPU_FLD_FFIELD"}


def field_rows(formats):
    """Every field in description order: (format, field) and its otpu_field_desc row."""
    rows = []
    for fmt in formats.values():
        m = fmt["name"].lower()
        for f in fmt["fields"]:
            reg = REGS.index(f["reg"]) if "reg" in f else 0
            lo, width = (f["lo"], f["width"]) if "width" in f else (0, 0)
            rows.append(((fmt["name"], f["name"]),
                         f"{{{FLD_KINDS[f['kind']]}, {reg}, {f.get('word') or 0}, {lo}, {width}, "
                         f"{int(bool(f.get('shared')))}, {f.get('mask', 0):#04x}, "
                         f"offsetof(otpu_{m}_ops, {f['name']}), \"{f['name']}\"}},"))
    return rows


def first_index(formats, count):
    """The index of each format's first row (and the end) when count(fmt) rows each."""
    at, out = 0, []
    for fmt in formats.values():
        out.append(at)
        at += count(fmt)
    return ", ".join(str(x) for x in out + [at])


def dis_items(fmt):
    """A format's disassembly rows: its dis line's items, then the flags it does not name."""
    rows, named = [], set()
    for item in fmt["dis"][0] if fmt["dis"] else []:
        row, n = dis_item(fmt, item, None)
        rows.append(row)
        if n:
            named.add(n)
    for f in flags_of(fmt):
        if f["kind"] == "flag" and f["name"] not in named:
            rows.append(("flag", f["name"], None, [(None, f["dis"])], None, None))
    return rows


def c_text(ops, formats):
    index = {key: k for k, (key, _) in enumerate(field_rows(formats))}

    cond_rows = {"    {OTPU_COND_ALWAYS, 0, 0},": 0}   # row: its index, the first always true

    def cond(fmt, c):
        row = "    {OTPU_COND_ALWAYS, 0, 0}," if c is None else \
            f"    {{{index[fmt['name'], c[0]]}, {int(c[1] is not None)}, {c[1] or 0}}},"
        return cond_rows.setdefault(row, len(cond_rows))

    out = ["/* isa_table.c - the tables of the formats of sim/isa.def that isa_fields.c decodes,",
           " * encodes, checks and disassembles with (their rows: isa_table.h).", f" * {NOTE} */",
           '#include "isa_table.h"', "",
           "const otpu_format_flags otpu_format_flag_table[OTPU_FORMATS] = {"]
    for fmt in formats.values():
        fl_ = flags_of(fmt)
        if not fl_:
            continue
        descs = []
        for f in fl_:
            if f["kind"] == "flag":
                descs.append(f'{{"{f["cov"]}", {f["mask"]:#04x}, 0, 0, NULL}}')
            else:
                vals = "{" + ", ".join(f'"{v}"' for v in f["vals"]) + "}"
                descs.append(f'{{"{f["name"]}", {f["mask"]:#04x}, {f["lo"]}, '
                             f'{1 << f["width"]}, (const char *const[]){vals}}}')
        out.append(f"    [OTPU_FMT_{fmt['name']}] = {{{len(fl_)}, {{{', '.join(descs)}}}}},")
    first_ops = operand_formats(formats)[0]["name"].lower()
    out += ["};", "", f"const size_t otpu_format_ops_at = offsetof(otpu_ops, {first_ops});", "",
            "/* kind, reg, word, lo, width, shared, mask, at, name */",
            "const otpu_field_desc otpu_fields[] = {"]
    out += [f"    {row} /* {fmt} {name} */" for (fmt, name), row in field_rows(formats)]
    out += ["};",
            "const uint16_t otpu_format_fields[OTPU_FORMATS + 1] = {"
            f"{first_index(formats, lambda f: len(f['fields']))}}};", "",
            "/* format, mask, value: the forbid lines */",
            "const otpu_forbid_desc otpu_forbids[] = {"]
    for fmt in formats.values():
        for conds, _ in fmt["forbid"]:
            rule = forbid_rule(fmt, conds)
            if rule:
                out.append(f"    {{OTPU_FMT_{fmt['name']}, {rule[0]:#04x}, {rule[1]:#04x}}}, "
                           f"/* {' '.join(conds)} */")
    out += ["    {OTPU_FORMATS, 0, 0},", "};", "",
            "/* the names of the disassembly's named fields */"]
    for fmt in formats.values():
        for f in fmt["fields"]:
            if f.get("names"):
                arr = ", ".join(f'"{x}"' for x in f["names"])
                out.append(f"static const char *const {fmt['name'].lower()}_{f['name']}_names"
                           f"[{len(f['names'])}] = {{{arr}}};")
    labels, chains, items = [], {}, []   # chains: the first row of each, written once
    for fmt in formats.values():
        for kind, name, part, chain, guard, names in dis_items(fmt):
            rows = tuple(f'    {{{cond(fmt, c)}, "{text}"}},' for c, text in chain)
            if rows not in chains:
                chains[rows] = len(labels)
                labels += rows
            items.append(f"    {{OTPU_DIS_{kind.upper()}, {index[fmt['name'], name]}, "
                         f"OTPU_PART_{(part or 'whole').upper()}, {chains[rows]}, "
                         f"{cond(fmt, guard)}, {names or 'NULL'}}}, /* {fmt['name']} {name} */")
    sizes = []
    for fmt in formats.values():
        for z in fmt["sizes"]:
            when = cond(fmt, dis_cond(fmt, z["if"], None) if z["if"] else None)
            errs = [[cond(fmt, dis_cond(fmt, c, None)) for c in e] + [0] * (2 - len(e))
                    for e in z["error"]]   # a missing second condition: always true
            errs_c = ", ".join(f"{{{a}, {b}}}" for a, b in errs) or "{0, 0}"
            sizes.append(f"    {{{index[fmt['name'], z['field']]}, OTPU_ZERO_{z['zero'].upper()}, "
                         f"{when}, {len(errs)}, {{{errs_c}}}}}, /* {fmt['name']} {z['field']} */")
    out += ["", "/* field, eq, value: the conditions of labels, items and sizes */",
            "const otpu_cond otpu_conds[] = {"] + list(cond_rows)
    out += ["};", "", "/* field, zero, when, nerror, error: the size lines */",
            "const otpu_size_desc otpu_sizes[] = {"] + sizes
    out += ["};",
            "const uint16_t otpu_format_sizes[OTPU_FORMATS + 1] = {"
            f"{first_index(formats, lambda f: len(f['sizes']))}}};"]
    out += ["", "/* condition, text: the labels' chains */",
            "const otpu_dis_label otpu_dis_labels[] = {"] + labels
    out += ["};", "", "/* kind, field, part, label, guard, names */",
            "const otpu_dis_item otpu_dis_items[] = {"] + items
    out += ["};",
            "const uint16_t otpu_format_dis[OTPU_FORMATS + 1] = {"
            f"{first_index(formats, lambda f: len(dis_items(f)))}}};", ""]
    return "\n".join(out)


# ------------------------------------------------------------------ Python

def py_text(ops, formats):
    out = ['"""The instruction table of sim/isa.def for otpu.asm.', "", NOTE, '"""', ""]
    out += [f"{o['name']} = {o['code']:#04x}" for o in ops]
    out += [""]
    seen = set()
    for fmt in formats.values():
        for f in flags_of(fmt):
            line = (f"F_{f['c']} = {f['mask']:#x}" if f["kind"] == "flag"
                    else f"{f['name'].upper()}_SHIFT = {f['lo']}")
            if line not in seen:
                seen.add(line)
                out.append(line)
    out += ["", "# name: (opcode, unit, format)", "OPCODES = {"]
    out += [f"    {o['name']!r}: ({o['code']:#04x}, {o['unit']!r}, {o['format']!r}),"
            for o in ops]
    fields = [(fmt["name"], f["name"], f["kind"], f.get("reg", ""), f.get("word") or 0,
               *((f["lo"], f["width"]) if "width" in f else (0, 0)), bool(f.get("shared")),
               f.get("mask", 0), ",".join(f.get("vals", ())))
              for fmt in formats.values() for f in fmt["fields"]]
    # (one line a format)
    sizes = [", ".join(repr((fmt["name"], z["field"], z["zero"], z["if"],
                             tuple("&".join(e) for e in z["error"]))) for z in fmt["sizes"])
             for fmt in formats.values() if fmt["sizes"]]
    out += ["}", ""]
    out += py_rows("FIELDS", fields, [
        "Every format's fields in description order, one row a field: (format, name,",
        "kind, reg, word, lo, width, shared, mask, values). kind: 'reg' (reg), 'ri' (reg,",
        "word or 0, shared), 'bits' (word, lo, width), 'flag' (mask), 'ffield' (lo, width,",
        "mask, values: the names of its values, comma-separated); a column the kind has",
        "not is '', 0 or False."])
    out += [""]
    out += py_rows("SIZES", sizes, raw=True, comment=[
        "Every size line (docs/isa-table.md, 'Sizes'): (format, field, zero, if, error):",
        "zero is 'empty', 'error' or 'skip'; if a condition or None; error the conditions",
        "under which a 0 is an error instead, each one or two conditions joined by '&'. A",
        "condition: 'FIELD' (not 0) or 'FIELD=V_NAME' (otpu.asm's V_NAME)."])
    out += [""]
    return "\n".join(out)


def py_rows(name, rows, comment, raw=False):
    """the lines of a Python tuple of rows (raw: rows already written as Python), its comment
    lines above it"""
    return ([f"# {c}" for c in comment] + [f"{name} = ("] +
            [f"    {r if raw else repr(r)}," for r in rows] + [")"])


def outputs(root):
    ops, formats, revisions = read(os.path.join(root, "sim", "isa.def"))
    return [(os.path.join(root, "sim", "isa_formats.h"), h_text(ops, formats, revisions)),
            (os.path.join(root, "sim", "isa_table.c"), c_text(ops, formats)),
            (os.path.join(root, "python", "otpu", "_isa.py"), py_text(ops, formats))]


def main(argv):
    check, root = False, HERE
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--check":
            check = True
        elif a == "--root" and args:
            root = args.pop(0)
        else:
            print(f"gen_isa: unknown argument {a!r} (--check, --root DIR)", file=sys.stderr)
            return 2
    try:
        outs = outputs(root)
    except DefError as e:
        print(f"gen_isa: {e}", file=sys.stderr)
        return 2
    return gen_files.write_or_check("sim/gen_isa.py", "sim/isa.def", outs, root, check)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
