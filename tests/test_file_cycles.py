#!/usr/bin/env python3
"""No loop of files: a module (a .h with its .c/.cpp of the same name, in one folder) depends
on another when one of its files includes the other's header, or uses a name (a function or a
global variable) that the other's .c/.cpp defines. Modules must depend on each other in
layers: none reaches itself again through what it depends on.

    test_file_cycles.py ROOT [FOLDER...]   exit 1, printing each loop ("circle: a -> b -> a",
                                           each step with its reason), if there is one
                                           (through a module of one of the folders, if given);
                                           exit 2 on bad usage (no ROOT folder, a FOLDER with
                                           no module)

Every folder under ROOT with C or C++ files is read (not build*/, hidden ones, fuzz corpora,
Verilator's output and runtime: V<top>*.cpp/h, verilated*). A header not among them (a system
or a generated one) is no module. The sources are read, not a build: comments, strings and
preprocessor lines are set aside first; a definition is a file-scope function with a body or
a variable, not static, not in an anonymous namespace; a use is a name in a function body, an
initializer or a macro body (a prototype or an extern declaration is no use). A file using a
name it defines itself (static or not) means its own. A C++ member function (Cls::name) is
used by a file that names both Cls and name. The script tests itself first (SELF_TEST).
"""
import io
import os
import re
import sys
import tempfile

SOURCE = (".c", ".cpp", ".cc")
HEADER = (".h", ".hpp")
# folders never read: builds, caches, third-party wraps; fuzz corpora (inputs, not code)
SKIP_DIR = re.compile(r"^(build.*|obj_dir.*|\..*|__pycache__|subprojects|local)$")
CORPORA = ("fuzz/seeds", "fuzz/regress", "fuzz/py")
# Verilator's generated model (V<top>.h, V<top>__ALL.cpp, ...) and its runtime
NOT_OURS = re.compile(r"^(V[a-z0-9_].*|verilated.*)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LEXEME = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|::|->|[=!<>]=|&&|\|\||\"\"|''|\S")
# words that are never the name of a function or variable
KEYWORDS = set("""auto bool break case char class const constexpr continue default delete do
double else enum explicit extern float for friend goto if inline int long mutable namespace new
noexcept operator override private protected public register restrict return short signed
sizeof static static_assert struct switch template this throw typedef typename union unsigned
using virtual void volatile while alignas alignof decltype final _Bool _Static_assert
__attribute__ __declspec __restrict __inline""".split())


def module_files(root):
    """module name (folder/stem) -> its files, for every folder with C or C++ files"""
    files = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root).replace(os.sep, "/")
        dirnames[:] = sorted(d for d in dirnames if not SKIP_DIR.match(d) and
                             (f"{rel}/{d}" if rel != "." else d) not in CORPORA)
        for f in sorted(filenames):
            stem, ext = os.path.splitext(f)
            if ext in SOURCE + HEADER and not NOT_OURS.match(f):
                mod = f"{rel}/{stem}" if rel != "." else stem
                files.setdefault(mod, []).append(os.path.join(dirpath, f))
    return files


def include_edges(files, texts):
    """module -> the modules whose headers its files include"""
    by_header = {}
    for mod, paths in files.items():
        for p in paths:
            if p.endswith(HEADER):
                by_header.setdefault(os.path.basename(p), []).append(mod)
    edges = {}
    for mod, paths in files.items():
        out = set()
        for p in paths:
            for inc in INCLUDE.findall(texts[p]):
                targets = by_header.get(os.path.basename(inc), [])
                # a header beside the including file is the one the compiler finds first
                near = [t for t in targets if os.path.dirname(t) == os.path.dirname(mod)]
                out.update(t for t in near or targets if t != mod)
        edges[mod] = out
    return edges


# ------------------------------------------------------------------ reading a C/C++ file


def blank(text):
    """comments as spaces, strings as "" and characters as '' (newlines kept)"""
    def sub(m):
        s = m.group(0)
        if s[0] == '"':
            return '""'
        if s[0] == "'":
            return "''"
        return " " if s.startswith("//") else "\n" * s.count("\n") or " "
    return LEXEME.sub(sub, text)


def split_directives(code):
    """(the code without preprocessor lines, the names used in #define bodies, the names
    pasted there: (prefix, suffix) for each pre##param or param##suf)"""
    kept, used, pasted = [], set(), set()
    lines = code.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.lstrip().startswith("#"):
            kept.append(line)
            i += 1
            continue
        directive = line
        while directive.endswith("\\") and i + 1 < len(lines):
            i += 1
            directive = directive[:-1] + " " + lines[i]
        kept.append("")
        m = re.match(r"\s*#\s*define\s+([A-Za-z_]\w*)(\([^)]*\))?(.*)", directive)
        if m:
            params = set(re.findall(r"\w+", m.group(2) or ""))
            used.update(w for w in re.findall(r"[A-Za-z_]\w*", m.group(3)) if w not in params)
            # pre##param or param##suf; after a type (`otpu_exec_fn otpu_exec_##name;`) it is
            # declared, not used
            body = TOKEN.findall(m.group(3))
            for k in range(1, len(body) - 2):
                if body[k:k + 2] != ["#", "#"]:
                    continue
                a, b = body[k - 1], body[k + 2]
                before = body[k - 2] if k >= 2 else ""
                if before == "*" or before in TYPE_WORDS or (before and is_name(before)):
                    continue
                if b in params and a not in params and is_name(a):
                    pasted.add((a, ""))
                elif a in params and b not in params and is_name(b):
                    pasted.add(("", b))
        i += 1
    return "\n".join(kept), used, pasted


class Reading:
    """what one file defines (external and all) and uses"""

    def __init__(self):
        self.defines = set()       # external definitions: plain names and Cls::name
        self.own = set()           # every name it defines (a use of one of them is its own)
        self.uses = set()          # names used
        self.members = set()       # names used after . or -> (C++ methods)
        self.pasted = set()        # (prefix, suffix): a macro pastes a name (otpu_exec_##name)


def matching(tokens, i):
    """index past the bracket group opening at i"""
    pairs = {"(": ")", "[": "]", "{": "}"}
    close, depth = pairs[tokens[i]], 0
    for j in range(i, len(tokens)):
        if tokens[j] == tokens[i]:
            depth += 1
        elif tokens[j] == close:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(tokens)


def top_level(stmt):
    """the statement's tokens outside ( ) and [ ] groups, with their indexes"""
    out, depth = [], 0
    for k, t in enumerate(stmt):
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
        elif depth == 0:
            out.append((k, t))
    return out


TYPE_WORDS = set("""bool char const double enum float int long short signed static struct
union unsigned void volatile _Bool auto register""".split())
STARTS = {"{", "}", ";", "(", ",", ":"} | TYPE_WORDS


def assignment(stmt):
    """the index of the statement's = outside ( ) and [ ] (its initializer follows)"""
    return next(k for k, t in top_level(stmt) if t == "=")


def is_name(t):
    return (t[0].isalpha() or t[0] == "_") and t not in KEYWORDS


def declared_here(tokens):
    """names a body declares (locals, parameters of its lambdas, roughly): `type name =`,
    `type *name;`, `type name[`; a local hides a global of the same name"""
    out = set()
    for k in range(1, len(tokens) - 1):
        t = tokens[k]
        if not is_name(t) or tokens[k + 1] not in ("=", ";", ",", "[", ")"):
            continue
        j = k - 1
        while j > 0 and tokens[j] in ("*", "&", "const"):
            j -= 1
        typ = tokens[j]
        if (is_name(typ) or typ in TYPE_WORDS) and (j == 0 or tokens[j - 1] in STARTS or
                                                    is_name(tokens[j - 1])):
            if typ in ("return", "goto", "case") or (j == k - 1 and tokens[j - 1] == "::"):
                continue
            out.add(t)
    return out


def parameters(head):
    """the parameter names of a function definition's head"""
    k = head.index("(") if "(" in head else len(head)
    group = head[k:matching(head, k)] if k < len(head) else []
    out, depth, param = set(), 0, []
    for t in group[1:]:
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
        if depth < 0 or (depth == 0 and t == ","):
            if len(param) > 1 and is_name(param[-1]):
                out.add(param[-1])
            param = []
        elif depth == 0 and t != "=":
            param.append(t)
    return out


def use_all(tokens, r, hidden=()):
    """every name of a body or an initializer, as a use (but names it declares itself)"""
    hidden = set(hidden) | declared_here(tokens)
    for k, t in enumerate(tokens):
        if not is_name(t):
            continue
        before = tokens[k - 1] if k else ""
        if before in (".", "->"):
            r.members.add(t)
        elif t in hidden:
            continue
        elif not (before == "::" and k >= 2 and tokens[k - 2] == "std"):
            r.uses.add(t)


def last_name(tokens):
    """the declared name: the last identifier outside [ ] (and < > of templates, roughly)"""
    depth = 0
    for t in reversed(tokens):
        if t == "]":
            depth += 1
        elif t == "[":
            depth -= 1
        elif depth == 0 and (t[0].isalpha() or t[0] == "_") and t not in KEYWORDS:
            return t
    return None


def function_name(stmt):
    """(qualifier or None, name) of the function declarator in stmt (its first parenthesis
    outside brackets after a name), or None"""
    if "operator" in stmt:                         # C++ operators: named "operator"
        at = stmt.index("operator")
        return (stmt[at - 2] if at >= 2 and stmt[at - 1] == "::" else None), "operator"
    depth = 0
    for k, t in enumerate(stmt):
        if t == "(" and depth == 0 and k and stmt[k - 1] not in KEYWORDS and \
                (stmt[k - 1][0].isalpha() or stmt[k - 1][0] == "_"):
            at = k - 1 - (k >= 2 and stmt[k - 2] == "~")
            return (stmt[at - 2] if at >= 2 and stmt[at - 1] == "::" else None), stmt[k - 1]
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
    return None


def is_function(head, tops):
    """a function definition's head (what stands before its body)"""
    if not function_name(head):
        return False
    typed = any(k in tops for k in ("struct", "class", "union", "enum"))
    return not typed or head[-1] in (")", "const", "noexcept", "override", "final")


MACRO = re.compile(r"^[A-Z][A-Z0-9_]*$")  # TEST(Suite, Name) { ... }: a macro, no definition


def read_code(path, text, r):
    """fill r with what the file at path defines and uses"""
    code, macro_uses, pasted = split_directives(blank(text))
    r.uses |= macro_uses
    r.pasted |= pasted
    tokens = TOKEN.findall(code)
    source = path.endswith(SOURCE)
    scope(tokens, 0, len(tokens), r, source, internal=False, members=False)


def define(r, name, qual, static, source):
    if not name:
        return
    key = f"{qual}::{name}" if qual and qual != "std" else name
    r.own.add(key)
    if source and not static:
        r.defines.add(key)


def scope(tokens, i, end, r, source, internal, members):
    """read the declarations of one scope (file, namespace, extern "C", class body) from i to
    end; members: a class or struct body (its declarations define nothing outside)"""
    stmt, done = [], False
    while i < end:
        t = tokens[i]
        if t == ";":
            if not done:
                declaration(stmt, r, source, internal, members)
            stmt, done = [], False
            i += 1
            continue
        if t in "([":
            j = matching(tokens, i)
            stmt.extend(tokens[i:j])
            i = j
            continue
        if t != "{":
            stmt.append(t)
            i += 1
            continue
        close = matching(tokens, i) - 1  # the index of the matching }
        body = tokens[i + 1:close]
        head = stmt[2:] if stmt[:2] == ["extern", '""'] else stmt
        tops = [x for _, x in top_level(head)]
        if done:                                   # braces inside an initializer
            use_all(body, r)
        elif not head or stmt == ["extern", '""'] or (head[0] == "namespace" and len(head) > 1) \
                or (head[:2] == ["inline", "namespace"]):
            scope(tokens, i + 1, close, r, source, internal, members)
            stmt = []
        elif head == ["namespace"]:                # anonymous: internal linkage
            scope(tokens, i + 1, close, r, source, True, members)
            stmt = []
        elif "=" in tops:                          # a variable with an initializer
            at = assignment(head)
            if not members:
                define(r, last_name(head[:at]), None, "static" in tops or internal, source)
            use_all(head[at + 1:] + body, r)
            done = True
        elif is_function(head, tops):
            qual, name = function_name(head)
            if MACRO.match(name):
                use_all(head, r)                   # the macro's arguments
            elif not members:
                define(r, name, qual, "static" in tops or internal, source)
            use_all(body, r, parameters(head))
            stmt = []
        elif any(k in tops for k in ("struct", "class", "union", "enum")):
            scope(tokens, i + 1, close, r, source, internal, True)  # a type's body
            done = True
        else:                                      # a variable with a braced initializer
            if not members:
                define(r, last_name(head), None, "static" in tops or internal, source)
            use_all(body, r)
            done = True
        i = close + 1
    if stmt and not done:
        declaration(stmt, r, source, internal, members)


def declaration(stmt, r, source, internal, members):
    """a statement ending in ; at file (or class) scope"""
    if stmt[:2] == ["extern", '""']:
        stmt = stmt[2:]
    if not stmt or stmt[0] in ("typedef", "using", "friend", "namespace", "template",
                               "static_assert", "_Static_assert"):
        return
    tops = [x for _, x in top_level(stmt)]
    if "=" in tops:
        at = assignment(stmt)
        if not members and "operator" not in stmt:
            define(r, last_name(stmt[:at]), None, "static" in tops or internal, source)
        use_all(stmt[at + 1:], r)
        return
    if members:
        return
    fn = function_name(stmt)
    if fn:
        if MACRO.match(fn[1]):                     # a macro at file scope: its arguments
            use_all(stmt, r)
        return                                     # a prototype: no use, no definition
    if "extern" in tops or (len(tops) == 2 and tops[0] in ("struct", "class", "union", "enum")):
        return
    define(r, last_name(stmt), None, "static" in tops or internal, source)


# ------------------------------------------------------------------ the graph


def call_edges(files, texts, why=None):
    """module -> the modules defining a name it uses (why, if given: (a, b) -> "uses NAME")"""
    readings = {}
    for mod, paths in files.items():
        r = Reading()
        for p in paths:
            read_code(p, texts[p], r)
        readings[mod] = r
    defined_by = {}
    for mod, r in readings.items():
        for name in r.defines:
            defined_by.setdefault(name, set()).add(mod)
    edges = {mod: set() for mod in files}
    for mod, r in readings.items():
        for name, owners in sorted(defined_by.items()):
            if name in r.own or mod in owners:
                continue
            if "::" in name:
                cls, member = name.split("::", 1)
                used = cls in r.uses and (member in r.uses or member in r.members or
                                          member.lstrip("~") == cls)
            else:
                used = name in r.uses or any(
                    len(name) > len(a + b) and name.startswith(a) and name.endswith(b)
                    for a, b in r.pasted)
            if not used:
                continue
            how = "uses " + name if name in r.uses or "::" in name else \
                "pastes " + name + " in a macro (" + \
                " ".join(f"{a}##x" if a else f"x##{b}" for a, b in sorted(r.pasted)) + ")"
            for b in owners:
                edges[mod].add(b)
                if why is not None:
                    why.setdefault((mod, b), how)
    return edges


def graph(root, why=None):
    """module -> the modules it depends on (sorted); why, if given, gets (a, b) -> the reason"""
    files = module_files(root)
    texts = {p: open(p, errors="replace").read() for ps in files.values() for p in ps}
    edges = include_edges(files, texts)
    if why is not None:
        for a, bs in edges.items():
            for b in bs:
                why[(a, b)] = "includes " + os.path.basename(b) + ".h"
    for mod, bs in call_edges(files, texts, why).items():
        edges[mod] |= bs
    return {m: sorted(e) for m, e in edges.items()}


def cycles(edges):
    """each loop found by a depth-first walk, as the list of its modules"""
    found, state, stack = [], {}, []

    def walk(m):
        state[m] = 1
        stack.append(m)
        for n in edges.get(m, []):
            if state.get(n) == 1:
                found.append(stack[stack.index(n):] + [n])
            elif n not in state:
                walk(n)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            walk(m)
    return found


USAGE = "usage: test_file_cycles.py ROOT [FOLDER...]"


def run(argv, out, err):
    """the test on argv (ROOT [FOLDER...]); prints to out (bad usage to err); the exit status"""
    if not argv or not os.path.isdir(argv[0]):
        print(USAGE + (f" ({argv[0]}: no such folder)" if argv else ""), file=err)
        return 2
    why = {}
    edges = graph(argv[0], why)
    judged = [f.rstrip("/") + "/" for f in argv[1:]]
    for f in judged:
        if not any(m.startswith(f) for m in edges):
            print(USAGE + f" ({f[:-1]}: no C or C++ module under {argv[0]})", file=err)
            return 2
    found = [c for c in cycles(edges)
             if not judged or any(m.startswith(f) for m in c for f in judged)]
    for c in found:
        print("circle: " + " -> ".join(c), file=out)
        for a, b in zip(c, c[1:]):
            print(f"    {a} -> {b}: {why.get((a, b), '?')}", file=out)
    print(f"{len(edges)} modules, {len(found)} circles", file=out)
    return 1 if found else 0


# ------------------------------------------------------------------ the script tests itself

# (name, {file: text}, the loops it must find, each as its modules from the smallest on)
SELF_TEST = [
    ("an include loop",
     {"d/a.h": '#include "b.h"\n', "d/b.h": '#include "a.h"\n'},
     [["d/a", "d/b"]]),
    ("a header beside the including file",
     {"d/a.h": "", "d/a.c": '#include "x.h"\n', "d/x.h": "", "e/x.h": '#include "a.h"\n'},
     []),
    ("a call loop",
     {"d/a.h": "void a_g(void);\n", "d/b.h": "void b_f(void);\n",
      "d/a.c": "void a_g(void)\n{\n}\nvoid a_x(void)\n{\n    b_f();\n}\n",
      "d/b.c": "int b_f(int x) {\n    a_g();\n    return x;\n}\n",
      "e/c.c": "void c_f(void) { a_g(); }\n"},
     [["d/a", "d/b"]]),
    ("a global variable's loop (initializers)",
     {"d/a.c": "int a_count;\nconst int *const a_refs[] = {&b_table[0], 0};\n",
      "d/b.c": "const int b_table[2] = {1, 2};\nint *b_p = &a_count;\n"},
     [["d/a", "d/b"]]),
    ("a name only declared elsewhere",
     {"d/a.h": "void a_g(void);\n",
      "d/a.c": "void a_g(void)\n{\n    a_type t = 0;\n    b_f();\n    b_n += t + b_m;\n}\n",
      "d/b.h": '#include "a.h"\nvoid b_f(void);\nextern int b_n;\n',
      "d/b.c": '#include "b.h"\nvoid b_other(void)\n{\n    a_g();\n}\n',
      "d/c.c": "void b_f(void);\ntypedef unsigned a_type;\nextern int b_m;\nstruct b_n;\n"
               "void c_f(void) { a_g(); }\n"},
     []),
    ("a static function of the same name in several files",
     {"d/a.c": "static void helper(void) {}\nvoid a_f(void)\n{\n    helper();\n    c_f();\n}\n",
      "d/b.c": "static void helper(void)\n{\n}\nvoid b_f(void) { helper(); a_f(); }\n",
      "d/c.c": "void c_f(void) { helper(); }\n",
      "d/d.c": "static int helper2(void) { return 0; }\nvoid d_f(void) { helper2(); }\n",
      "d/e.c": "int helper2(void) { d_f(); return 1; }\n"},
     []),
    ("names in comments, strings and declarations only",
     {"d/a.c": "void a_f(void)\n{\n    /* b_f() */\n    // b_g();\n    puts(\"b_f() b_g\");\n"
               "    char c = 'b';\n    x.b_g = p->b_f;\n}\n",
      "d/b.c": "void b_f(void) { a_f(); }\nvoid b_g(void) { }\nint b;\n",
      "d/b.h": "struct s { int b_f; };\nvoid a_f(void);\n"},
     []),
    ("a local or a parameter named as a global elsewhere",
     {"d/a.c": "void a_f(const char *msg)\n{\n    char count[4];\n    int *b_n = 0;\n"
               "    puts(msg);\n    count[0] = *b_n;\n}\n",
      "d/b.c": "int count;\nint b_n;\nvoid msg(void) { a_f(0); }\n"},
     []),
    ("a three-file call loop",
     {"d/a.c": "void a_f(void) { b_f(); }\n", "d/b.c": "void b_f(void) { c_f(); }\n",
      "e/c.cpp": 'extern "C" void c_f(void)\n{\n    a_f();\n}\n'},
     [["d/a", "d/b", "e/c"]]),
    ("C++: a member function, an anonymous namespace",
     {"d/a.cpp": "namespace { void hidden() {} }\nnamespace n {\n"
                 "std::string Out::check(const std::string &p, int f = 0) {\n"
                 "    hidden();\n    c_f();\n    return b_f(p);\n}\n}\n",
      "d/b.cpp": "std::string b_f(const std::string &p) { Out o; return o.check(p); }\n",
      "d/c.cpp": "void c_f() { hidden(); }\n"},
     [["d/a", "d/b"]]),
    ("a name pasted by a macro",
     {"d/a.h": "#define X(n) void a_exec_##n(void);\nX(one)\n",
      "d/a.c": '#include "a.h"\n#define Y(n) [0] = a_exec_##n,\n'
               "static void (*const t[])(void) = { Y(one) };\nvoid a_f(void) { t[0](); }\n",
      "d/b.c": "void a_exec_one(void) { a_f(); }\n"},
     [["d/a", "d/b"]]),
    ("a name pasted in a declaration only",
     {"d/a.h": "#define X(n) int a_exec_##n(void);\n",
      "d/a.c": '#include "a.h"\nvoid a_f(void) { }\n',
      "d/b.c": '#include "a.h"\nint a_exec_one(void) { a_f(); return 0; }\n'},
     []),
    ("files not ours: builds, hidden folders, fuzz corpora, Verilator's",
     {"d/a.c": "void a_f(void) { v_f(); w_f(); x_f(); s_f(); h_f(); }\n",
      "d/Vtop__ALL.cpp": "void v_f(void) { a_f(); }\n",
      "d/verilated.cpp": "void w_f(void) { a_f(); }\n",
      "build-x/x.c": "void x_f(void) { a_f(); }\n",
      "fuzz/seeds/s.c": "void s_f(void) { a_f(); }\n",
      ".cache/h.c": "void h_f(void) { a_f(); }\n"},
     []),
    ("a clean layered tree",
     {"d/bottom.h": "int bottom(void);\n", "d/bottom.c": "int bottom(void) { return 1; }\n",
      "d/middle.h": '#include "bottom.h"\nint middle(void);\n',
      "d/middle.c": '#include "middle.h"\nint middle(void) { return bottom(); }\n',
      "d/top.c": '#include "middle.h"\nint main(void) { return middle() + bottom(); }\n',
      "d/test_x.cpp": '#include "checks.h"\nTEST(Suite, Name) {\n    EXPECT_EQ(middle(), 1);\n}\n',
      "d/checks.h": "#define CHECK_ALL(x) TEST(All, x) { }\n",
      "e/main.c": '#include "top.h"\nint main(void) { return 0; }\n'},
     []),
]


def normal(c):
    """a loop from its smallest module on, without the repeated first one"""
    c = c[:-1]
    k = c.index(min(c))
    return c[k:] + c[:k]


def self_test():
    """the table's rows, then the bad usage; the failures' descriptions"""
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, (name, tree, want) in enumerate(SELF_TEST):
            root = os.path.join(tmp, str(n))
            for f, text in tree.items():
                os.makedirs(os.path.dirname(os.path.join(root, f)), exist_ok=True)
                with open(os.path.join(root, f), "w") as fh:
                    fh.write(text)
            got = sorted(normal(c) for c in cycles(graph(root)))
            if got != sorted(want):
                failures.append(f"{name}: found {got}, expected {want}")
        # the command on the call loop's row: exit 1, the loop and why; judging the folder
        # without a loop: exit 0
        rows = {name: str(n) for n, (name, _, _) in enumerate(SELF_TEST)}
        loop = os.path.join(tmp, rows["a call loop"])
        for argv, want_rc, want in (
                ([loop], 1, "circle: d/a -> d/b -> d/a\n    d/a -> d/b: uses b_f\n"
                            "    d/b -> d/a: uses a_g\n3 modules, 1 circles\n"),
                ([loop, "e"], 0, "3 modules, 0 circles\n"),
                ([loop, "e/", "d"], 1, "circle: d/a -> d/b -> d/a\n    d/a -> d/b: uses b_f\n"
                                       "    d/b -> d/a: uses a_g\n3 modules, 1 circles\n"),
                ([], 2, USAGE + "\n"),
                ([os.path.join(tmp, "missing")], 2,
                 USAGE + f" ({os.path.join(tmp, 'missing')}: no such folder)\n"),
                ([loop, "d", "f"], 2, USAGE + f" (f: no C or C++ module under {loop})\n")):
            out = io.StringIO()
            rc = run(argv, out, out)
            if rc != want_rc or out.getvalue() != want:
                failures.append(f"{argv}: exit {rc}, {out.getvalue()!r}; expected exit "
                                f"{want_rc}, {want!r}")
    return failures


def main():
    failures = self_test()
    for f in failures:
        print("FAIL (self-test): " + f)
    if failures:
        return 1
    return run(sys.argv[1:], sys.stdout, sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
