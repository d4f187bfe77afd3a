#!/usr/bin/env python3
"""Writes the ISA's description (sim/isa.def) as C and Python tables.

    gen_isa.py                rewrite sim/isa_table.h, sim/isa_table.c, python/otpu/_isa.py
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
                fmt = formats[name] = {"name": name, "fields": [], "forbid": [], "dis": None}
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
    for rname, rev in revisions.items():
        for name, n in rev["ops"]:
            if not any(o["name"] == name for o in ops):
                err(n, f"revision {rname}: no op {name}")
        for opname, fname, _, n in rev["flags"]:
            op = next((o for o in ops if o["name"] == opname), None)
            f = field(formats[op["format"]], fname) if op else None
            if not f or f["kind"] not in ("flag", "ffield"):
                err(n, f"revision {rname}: op {opname} has no flag {fname}")


def forbid_cond(fmt, c, err):
    """A forbid condition as C (on the flags byte f) and Python (on flags)."""
    neg = c.startswith("!")
    name, eq, val = c.lstrip("!").partition("=")
    f = field(fmt, name)
    if not f or f["kind"] not in ("flag", "ffield") or (eq and (neg or f["kind"] != "ffield")) \
            or (f["kind"] == "ffield" and not eq):
        err(f"{fmt['name']}: forbid condition {c!r}: expected FLAG, !FLAG or FFIELD=VALUE")
    if f["kind"] == "flag":
        return f"{'!' if neg else ''}(f & {f['mask']:#x})"
    if val not in f["vals"]:
        err(f"{fmt['name']}: forbid condition {c!r}: {val} is not one of {','.join(f['vals'])}")
    return f"((f >> {f['lo']}) & {(1 << f['width']) - 1}) == {f['vals'].index(val)}"


DIS_KINDS = ("ri", "u", "x", "reg", "rc", "hex", "flag", "names", "vfunc")


def dis_cond(fmt, c, err):
    name, eq, val = c.partition("=")
    if not field(fmt, name):
        err(f"{fmt['name']}: dis condition {c!r}: no field {name}")
    m = fmt["name"].lower()
    if eq:
        return f"o.{m}.{name} == OTPU_{ident(val, 'value')}"
    return f"o.{m}.{name}"


def dis_label(fmt, label, err):
    """A label as a C string expression: "name", or COND?A|B chains."""
    if "?" not in label:
        return f'"{label}"'
    cond, _, rest = label.partition("?")
    a, bar, b = rest.partition("|")
    if not bar:
        err(f"{fmt['name']}: dis label {label!r}: COND?A|B")
    return f"({dis_cond(fmt, cond, err)} ? \"{a}\" : {dis_label(fmt, b, err)})"


def dis_item(fmt, item, err):
    """One disassembly item: (C statement, the flag it prints or guards, or None)."""
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
    label = parts[2] if len(parts) > 2 else (f.get("dis") if kind == "flag" else name)
    m = fmt["name"].lower()
    val = f"o.{m}.{path}"
    lab = dis_label(fmt, label, err)
    lit = lab.startswith('"')
    fmtlab = label if lit else "%s"
    arg = "" if lit else f"{lab}, "
    if kind == "ri":
        if f["kind"] != "ri" or dot:
            err(f"{fmt['name']}: dis item {item!r}: ri wants an ri field")
        st = f"addr(&s, {lab}, {val});"
    elif kind in ("u", "x", "reg"):
        spec = {"u": "%u", "x": "%#x", "reg": "R%u"}[kind]
        st = f'put(&s, " {fmtlab}={spec}", {arg}{val});'
    elif kind in ("rc", "hex"):
        st = f'put(&s, " {"R%u," if kind == "rc" else "%#x"}", {val});'
    elif kind == "flag":
        if f["kind"] != "flag":
            err(f"{fmt['name']}: dis item {item!r}: flag wants a flag")
        st = f"flag(&s, {val}, {lab});"
    elif kind == "names":
        if not f.get("names"):
            err(f"{fmt['name']}: dis item {item!r}: {name} has no names")
        arr = f"{m}_{name}_names"
        if len(parts) > 2:
            st = f'put(&s, " {fmtlab}=%s", {arg}{arr}[{val}]);'
        else:
            st = f'put(&s, " %s", {arr}[{val}]);'
    else:  # vfunc
        st = f"vfunc(&s, {val});"
    named = name if kind in ("flag",) or f["kind"] in ("flag", "ffield") else None
    if guard:
        gname = guard.partition("=")[0]
        if field(fmt, gname) and field(fmt, gname)["kind"] == "flag":
            named = gname
        st = f"if ({dis_cond(fmt, guard, err)})\n            {st}"
    return st, named


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
    out = ["/* isa_table.h - the instruction table and the operand formats of sim/isa.def (isa.h",
           f" * includes it). {NOTE} */",
           "#ifndef OTPU_ISA_TABLE_H", "#define OTPU_ISA_TABLE_H", "",
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
            "/* Sets the flag members of a format's operands from a flags byte, as otpu_operands"
            " does. */"]
    for fmt in operand_formats(formats):
        if flags_of(fmt):
            m = fmt["name"].lower()
            out.append(f"void otpu_set_flags_{m}(otpu_{m}_ops *x, unsigned f);")
    out += ["", "/* What each older revision lacks (revision.c's otpu_rev_desc). */"]
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


# ------------------------------------------------------------------ C source

def bits_get(f, w):
    mask = (1 << f["width"]) - 1
    if f["width"] == 32:
        return f"w[{w}]"
    if f["lo"] == 0:
        return f"w[{w}] & {mask:#x}"
    if f["lo"] + f["width"] == 32:
        return f"w[{w}] >> {f['lo']}"
    return f"(w[{w}] >> {f['lo']}) & {mask:#x}"


def decode(fmt):
    m = fmt["name"].lower()
    out = []
    for f in fmt["fields"]:
        x = f"o.{m}.{f['name']}"
        if f["kind"] == "reg":
            out.append(f"{x} = in->{f['reg']};")
        elif f["kind"] == "ri":
            imm = "0" if f["word"] is None else f"w[{f['word']}]"
            out.append(f"ri(&o, &{x}, R, in->{f['reg']}, {imm});")
        elif f["kind"] == "bits":
            out.append(f"{x} = {bits_get(f, f['word'])};")
    if flags_of(fmt):
        out.append(f"otpu_set_flags_{m}(&o.{m}, f);")
    return out


def encode(fmt):
    m = fmt["name"].lower()
    out, words, flags = [], {}, []
    for f in fmt["fields"]:
        x = f"o->{m}.{f['name']}"
        if f["kind"] == "reg":
            out.append(f"out->{f['reg']} = {x};")
        elif f["kind"] == "ri":
            if not f["shared"]:
                out.append(f"out->{f['reg']} = {x}.reg;")
            if f["word"] is not None:
                words.setdefault(f["word"], []).append(f"{x}.imm")
        elif f["kind"] == "bits":
            if f["width"] == 32:
                part = x
            else:
                part = f"({x} & {(1 << f['width']) - 1:#x})" + (f" << {f['lo']}" if f["lo"]
                                                                else "")
            words.setdefault(f["word"], []).append(part)
        elif f["kind"] == "flag":
            flags.append(f"fl({x}, OTPU_F_{f['c']})")
        else:
            flags.append(f"({x} & {(1 << f['width']) - 1}) << {f['lo']}")
    out += [f"w[{k}] = {' | '.join(v)};" for k, v in sorted(words.items())]
    if flags:
        out.append(f"f = {' | '.join(flags)};")
    return out


def disasm(fmt, err):
    items, named = fmt["dis"][0] if fmt["dis"] else [], set()
    out = []
    for item in items:
        st, n = dis_item(fmt, item, err)
        out.append(st)
        if n:
            named.add(n)
    m = fmt["name"].lower()
    for f in flags_of(fmt):
        if f["kind"] == "flag" and f["name"] not in named:
            out.append(f'flag(&s, o.{m}.{f["name"]}, "{f["dis"]}");')
    return out


def case(fmt, lines, extra=""):
    out = [f"    case OTPU_FMT_{fmt['name']}:{extra}"]
    out += [f"        {x}" for x in lines]
    out.append("        break;")
    return out


C_HEAD = r'''/* isa_table.c - decoding, encoding, flags and disassembly of the formats of sim/isa.def.
 * NOTE */
#include "isa.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Sets the operand field at x to R[reg] + imm and notes it among o's register operands. */
static void ri(otpu_ops *o, otpu_ri *x, const uint32_t *R, unsigned reg, uint32_t imm)
{
    *x = (otpu_ri){.value = (R && reg ? R[reg] : 0) + imm, .imm = imm, .reg = (uint8_t)reg};
    o->ri_at[o->nri++] = (uint8_t)((char *)x - (char *)o);
}

/* The flag bit b when on is set. */
static unsigned fl(int on, unsigned b)
{
    return on ? b : 0;
}

typedef struct {
    char *buf;
    size_t n, len;
} sbuf;

static void put(sbuf *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = s->len < s->n ? s->n - s->len : 0;
    int k = vsnprintf(room ? s->buf + s->len : NULL, room, fmt, ap);
    va_end(ap);
    if (k > 0)
        s->len += (size_t)k;
}

/* "R3+0x10", or "0x10" when the register is R0 */
static void addr(sbuf *s, const char *name, otpu_ri x)
{
    if (x.reg)
        put(s, " %s=R%u+%#x", name, x.reg, x.imm);
    else
        put(s, " %s=%#x", name, x.imm);
}

static void flag(sbuf *s, int on, const char *name)
{
    if (on)
        put(s, " %s", name);
}

/* a VOP function's name, " func%u?" for an unknown one */
static void vfunc(sbuf *s, unsigned func)
{
    const char *fn = otpu_vfunc_name(func);
    if (fn)
        put(s, " %s", fn);
    else
        put(s, " func%u?", func);
}
'''


def c_text(ops, formats):
    out = [C_HEAD.replace("NOTE", NOTE)]
    out.append("const otpu_format_flags otpu_format_flag_table[OTPU_FORMATS] = {")
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
    out += ["};", "", "unsigned otpu_flag_mask(unsigned op)", "{",
            "    switch (otpu_op_format(op)) {"]
    for fmt in formats.values():
        mask = 0
        for f in flags_of(fmt):
            mask |= f["mask"]
        if mask:
            out.append(f"    case OTPU_FMT_{fmt['name']}: return {mask:#04x};")
    out += ["    default: return 0;", "    }", "}", ""]
    for fmt in operand_formats(formats):
        if not flags_of(fmt):
            continue
        m = fmt["name"].lower()
        out += [f"void otpu_set_flags_{m}(otpu_{m}_ops *x, unsigned f)", "{"]
        for f in flags_of(fmt):
            if f["kind"] == "flag":
                out.append(f"    x->{f['name']} = (int)(f & OTPU_F_{f['c']});")
            else:
                out.append(f"    x->{f['name']} = (f >> {f['lo']}) & "
                           f"{(1 << f['width']) - 1};")
        out += ["}", ""]
    out += ["otpu_ops otpu_operands(const otpu_instr *in, const uint32_t R[16])", "{",
            "    const uint32_t *w = in->w;", "    unsigned f = in->flags;", "    otpu_ops o;",
            "    o.format = otpu_op_format(in->op);", "    o.nri = 0;",
            "    (void)w;", "    (void)f;", "    switch (o.format) {"]
    for fmt in formats.values():
        out += case(fmt, decode(fmt))
    out += ["    }", "    return o;", "}", "",
            "void otpu_encode_operands(unsigned op, const otpu_ops *o, otpu_instr *out)", "{",
            "    memset(out, 0, sizeof *out);", "    out->op = (uint8_t)op;",
            "    uint32_t *w = out->w;", "    unsigned f = 0;",
            "    switch (otpu_op_format(op)) {"]
    for fmt in formats.values():
        out += case(fmt, encode(fmt))
    out += ["    }",
            "    out->flags = (uint8_t)f;", "    out->ra &= 15;", "    out->rb &= 15;",
            "    out->rc &= 15;", "    out->rd &= 15;",
            "    w[0] = (uint32_t)out->op | (uint32_t)out->ra << 8 | (uint32_t)out->rb << 12 |",
            "           (uint32_t)out->rc << 16 | (uint32_t)out->rd << 20 | "
            "(uint32_t)out->flags << 24;",
            "}", "", "int otpu_flags_allowed(unsigned op, unsigned f)", "{",
            "    switch (otpu_op_format(op)) {"]
    for fmt in formats.values():
        if fmt["forbid"]:
            out.append(f"    case OTPU_FMT_{fmt['name']}:")
            for conds, _ in fmt["forbid"]:
                c = " && ".join(forbid_cond(fmt, x, None) for x in conds)
                out.append(f"        if ({c})")
                out.append("            return 0;")
            out.append("        return 1;")
    out += ["    default:", "        return 1;", "    }", "}", "",
            "/* the names of the disassembly's named fields */"]
    for fmt in formats.values():
        for f in fmt["fields"]:
            if f.get("names"):
                arr = ", ".join(f'"{x}"' for x in f["names"])
                out.append(f"static const char *const {fmt['name'].lower()}_{f['name']}_names"
                           f"[{len(f['names'])}] = {{{arr}}};")
    out += ["",
            "int otpu_disasm(const otpu_instr *in, char *buf, size_t n)", "{",
            "    sbuf s = {buf, n, 0};", "    if (n)", "        buf[0] = 0;",
            "    const uint32_t *w = in->w;",
            "    const char *name = otpu_op_name(in->op);",
            "    if (!name) {",
            '        put(&s, ".word %08x %08x %08x %08x %08x %08x %08x %08x", w[0], w[1], w[2], '
            'w[3], w[4],', "            w[5], w[6], w[7]);", "        return (int)s.len;", "    }",
            '    put(&s, "%s", name);', "    otpu_ops o = otpu_operands(in, NULL);",
            "    switch (o.format) {"]
    for fmt in formats.values():
        out += case(fmt, disasm(fmt, None))
    out += ["    }", "    return (int)s.len;", "}",
            ""]
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
    out += ["}", "",
            "# format: its fields, in description order: (name, 'reg', REG), "
            "(name, 'ri', REG, WORD or None, shared),",
            "# (name, 'bits', WORD, LO, WIDTH), (name, 'flag', MASK), "
            "(name, 'ffield', LO, WIDTH, values)", "FORMATS = {"]
    for fmt in formats.values():
        fields = []
        for f in fmt["fields"]:
            if f["kind"] == "reg":
                fields.append((f["name"], "reg", f["reg"]))
            elif f["kind"] == "ri":
                fields.append((f["name"], "ri", f["reg"], f["word"], f["shared"]))
            elif f["kind"] == "bits":
                fields.append((f["name"], "bits", f["word"], f["lo"], f["width"]))
            elif f["kind"] == "flag":
                fields.append((f["name"], "flag", f["mask"]))
            else:
                fields.append((f["name"], "ffield", f["lo"], f["width"], tuple(f["vals"])))
        out.append(f"    {fmt['name']!r}: (")
        out += [f"        {x!r}," for x in fields]
        out.append("    ),")
    out += ["}", ""]
    return "\n".join(out)


def outputs(root):
    ops, formats, revisions = read(os.path.join(root, "sim", "isa.def"))
    return [(os.path.join(root, "sim", "isa_table.h"), h_text(ops, formats, revisions)),
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
