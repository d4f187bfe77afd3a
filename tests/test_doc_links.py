#!/usr/bin/env python3
"""The documentation's links (issue 39): every relative link of README.md, docs/*.md and every
*/README.md names a file or folder of the source tree, and README.md is at most 150 lines.

A link is an inline link or image, [text](target) or ![alt](target), or a reference definition,
[label]: target. Not checked: links inside code (fenced blocks, indented blocks, code spans),
links with a scheme (https:, http:, mailto: ...) and links to an anchor of the same page
(#name). A target is resolved from the folder of the page that names it (one starting with /
from the source root), after its #anchor and ?query are taken off and %XX decoded; it must stay
inside the source tree and exist. An anchor into another Markdown page must be one of that
page's headings (GitHub's ids: lower case, punctuation dropped, spaces as hyphens, -1, -2 ...
for repeats) or an <a name/id="..."> of it.

A self-test comes first: a table of pages in a temporary folder (a missing file, an existing
one, images, an anchor-only link, anchors into another page, links in code spans, fences and
indented blocks, a link outside the tree, a reference definition, a wrapped link text, a
README over 150 lines) with exactly what must be reported; and the script's own bad usage
(no argument, a root that is not a folder: exit 2 and a usage line).

Prints one line a check ("ok   ..." or "FAIL ..." and the problems); exit status 1 if a check
failed, 2 on bad usage.

usage: test_doc_links.py SOURCE_ROOT"""
import glob
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, too_few  # noqa: E402

USAGE = "usage: test_doc_links.py SOURCE_ROOT"
README_MAX_LINES = 150
MIN_LINKS = 40  # the tree has more; fewer means the link pattern stopped matching

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\n[ \t]*\n).)+?(?<!`)\1(?!`)", re.S)
# [text](target "title"), ![alt](target); the text may hold one level of brackets and wrap lines
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]"        # [text] or ![alt]
                    r"\(\s*(<[^>\n]*>|[^)\s]+)"                  # (target or (<target>
                    r"(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")      # an optional "title")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*(<[^>\n]*>|\S+)", re.M)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
HTML_ANCHOR = re.compile(r"<a\s[^>]*\b(?:name|id)\s*=\s*[\"']([^\"']+)[\"']", re.I)


def blank(text):
    """text with everything but its newlines made spaces (line numbers kept)"""
    return re.sub(r"[^\n]", " ", text)


def prose(text):
    """the page with its code blanked out: fenced blocks, indented blocks (after a blank line or
    another indented line, not continuing a paragraph) and code spans"""
    out, fence, prev_blank, in_indented = [], None, True, False
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence:
            out.append("")
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip()[len(m.group(1)):].strip():
                fence = None
            prev_blank = False
            continue
        if m:
            fence = m.group(1)
            out.append("")
            prev_blank = in_indented = False
            continue
        indented = line.startswith("    ") or line.startswith("\t")
        if line.strip() and indented and (prev_blank or in_indented):
            out.append("")
            in_indented, prev_blank = True, False
            continue
        if line.strip():
            in_indented = False
        out.append(line)
        prev_blank = not line.strip()
    return CODE_SPAN.sub(lambda m: blank(m.group(0)), "\n".join(out))


def slug(heading, seen):
    """GitHub's id of a heading: lower case, markup and punctuation dropped, spaces as hyphens"""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    s = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
    n = seen.get(s, 0)
    seen[s] = n + 1
    return s if n == 0 else f"{s}-{n}"


def anchors(path):
    """the ids a Markdown page can be linked to at"""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    ids, seen, fence = set(), {}, None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        h = HEADING.match(line)
        if h:
            ids.add(slug(h.group(2), seen))
        ids.update(HTML_ANCHOR.findall(line))
    return ids


def links(text):
    """(line, target) of every link outside code"""
    clean = prose(text)
    found = [(m.start(), m.group(1)) for m in INLINE.finditer(clean)]
    found += [(m.start(), m.group(1)) for m in REFDEF.finditer(clean)]
    return sorted((clean.count("\n", 0, pos) + 1, t[1:-1] if t.startswith("<") else t)
                  for pos, t in found)


def pages(root):
    """the pages checked, relative to root"""
    names = ["README.md"] if os.path.isfile(os.path.join(root, "README.md")) else []
    for pattern in ("docs/*.md", "*/README.md"):
        names += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, pattern)))
    return names


def check_page(root, rel):
    """(number of relative links checked, problems: (line, target, what))"""
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    problems, n = [], 0
    root_abs = os.path.abspath(root)
    for line, target in links(text):
        if SCHEME.match(target) or target.startswith("#"):
            continue
        n += 1
        file_part, _, anchor = target.partition("#")
        file_part = urllib.parse.unquote(file_part.partition("?")[0])
        base = root_abs if file_part.startswith("/") else os.path.dirname(os.path.abspath(path))
        dest = os.path.normpath(os.path.join(base, file_part.lstrip("/")))
        if os.path.commonpath([root_abs, dest]) != root_abs:
            problems.append((line, target, "outside the source tree"))
        elif not os.path.exists(dest):
            problems.append((line, target, "no such file or folder"))
        elif anchor and dest.endswith(".md") and os.path.isfile(dest) \
                and urllib.parse.unquote(anchor) not in anchors(dest):
            problems.append((line, target, f"no heading #{anchor} in "
                             f"{os.path.relpath(dest, root_abs)}"))
    return n, problems


def readme_lines(root):
    with open(os.path.join(root, "README.md"), encoding="utf-8", errors="replace") as f:
        return len(f.read().splitlines())


def check_tree(root):
    """{page: (links checked, problems)}, links checked in all, README's lines (None without)"""
    result = {rel: check_page(root, rel) for rel in pages(root)}
    total = sum(n for n, _ in result.values())
    lines = readme_lines(root) if os.path.isfile(os.path.join(root, "README.md")) else None
    return result, total, lines


# ---------------------------------------------------------------- self-test

SELF_README = """# Top

[missing](docs/missing.md) and [exists](docs/a.md) on one line
![an image](docs/pic.png) and ![a missing image](docs/gone.png)
[anchor only](#top), [the web](https://example.com/x), [mail](mailto:a@example.com)
[with an anchor](docs/a.md#a-heading-with-code) and [a wrong anchor](docs/a.md#no-such-heading)
[a repeated heading](docs/a.md#twice-1), [an html anchor](docs/a.md#here)
[outside](../../etc/passwd) and [absolute](/docs/a.md) and [absolute outside](/../x.md)
`[in a code span](docs/span.md)` and ``[in a double span `x`](docs/span2.md)``
[a folder](docs/), [encoded](docs/with%20space.md), [a query](docs/a.md?plain=1)
[a wrapped
link text](docs/wrapped-missing.md)

```
[in a fence](docs/fenced.md)
```

~~~markdown
[in a tilde fence](docs/tilde.md)
~~~

    [in an indented block](docs/indented.md)

- a list item
  [in a list](docs/listed-missing.md)

[ref]: docs/ref-missing.md
[ref2]: <docs/a.md>
"""

SELF_A = """# A heading with `code`

[up](../README.md) and [a sibling](b.md) and [its own anchor](#twice)

## Twice
## Twice
<a name="here"></a>
"""

SELF_SUB = """# Sub

[back](../docs/a.md), [missing here](gone.txt), [a source file](../src/x.c#L3)
"""

# what the self-test tree must give: page -> {(line, target, what)}
SELF_EXPECT = {
    "README.md": {
        (3, "docs/missing.md", "no such file or folder"),
        (4, "docs/gone.png", "no such file or folder"),
        (6, "docs/a.md#no-such-heading", "no heading #no-such-heading in docs/a.md"),
        (8, "../../etc/passwd", "outside the source tree"),
        (8, "/../x.md", "outside the source tree"),
        (11, "docs/wrapped-missing.md", "no such file or folder"),
        (25, "docs/listed-missing.md", "no such file or folder"),
        (27, "docs/ref-missing.md", "no such file or folder"),
    },
    "docs/a.md": {(3, "b.md", "no such file or folder")},
    "docs/with space.md": set(),
    "sub/README.md": {(3, "gone.txt", "no such file or folder")},
}


def write(root, rel, text):
    os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
    with open(os.path.join(root, rel), "w") as f:
        f.write(text)


def self_test(c):
    with tempfile.TemporaryDirectory(prefix="otpu-doc-links-") as tmp:
        write(tmp, "README.md", SELF_README)
        write(tmp, "docs/a.md", SELF_A)
        write(tmp, "docs/with space.md", "# With a space\n")
        write(tmp, "docs/pic.png", "")
        write(tmp, "sub/README.md", SELF_SUB)
        write(tmp, "src/x.c", "int x;\n")
        result, total, lines = check_tree(tmp)
        got = {page: set(p) for page, (_, p) in result.items()}
        for page in sorted(set(got) | set(SELF_EXPECT)):
            want = SELF_EXPECT.get(page)
            have = got.get(page)
            c(have == want, f"self-test: {page}: exactly the problems expected ({len(want or ())})",
              f"  missed:   {sorted((want or set()) - (have or set()))}\n"
              f"  reported: {sorted((have or set()) - (want or set()))}")
        c(total == 23, f"self-test: {total} relative links counted (23 in the table)")
        c(lines == len(SELF_README.splitlines()), f"self-test: README.md counted {lines} lines")
        write(tmp, "README.md", "x\n" * README_MAX_LINES)
        c(readme_lines(tmp) <= README_MAX_LINES, "self-test: a README of 150 lines is within")
        write(tmp, "README.md", "x\n" * (README_MAX_LINES + 1))
        c(readme_lines(tmp) > README_MAX_LINES, "self-test: a README of 151 lines is over")
        me = os.path.abspath(__file__)
        for args, what in (([], "no argument"), ([tmp, tmp], "two arguments"),
                           ([os.path.join(tmp, "README.md")], "a root that is a file"),
                           ([os.path.join(tmp, "nowhere")], "a root that does not exist")):
            r = subprocess.run([sys.executable, me, *args], capture_output=True, text=True,
                               timeout=60)
            c(r.returncode == 2 and r.stderr.startswith("usage: ") and not r.stdout,
              f"self-test: {what}: exit 2 and a usage line",
              f"exit {r.returncode}, stdout {r.stdout[:200]!r}, stderr {r.stderr[:200]!r}")


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print(USAGE if len(sys.argv) != 2 else f"{USAGE} ({sys.argv[1]!r} is not a folder)",
              file=sys.stderr)
        return 2
    root = sys.argv[1]
    c = Checks()
    self_test(c)
    if not c(os.path.isfile(os.path.join(root, "README.md")), "README.md exists"):
        return c.verdict()
    result, total, lines = check_tree(root)
    for page, (n, problems) in result.items():
        c(not problems, f"{page}: each of its {n} relative links names what exists",
          "\n".join(f"  {page}:{line}: ({target}) {what}" for line, target, what in problems))
    if too_few(total, MIN_LINKS, "relative links in the documentation"):
        c.failed.append("too few links")
    c(lines <= README_MAX_LINES, f"README.md: {lines} lines (at most {README_MAX_LINES})")
    return c.verdict()


if __name__ == "__main__":
    sys.exit(main())
