"""index.html of an output folder (regress/README.md): one static page, no script, no network.

In this order: the failure buckets (buckets.py: by signature, most first, each with its shrunk
repro), the run's facts, the totals, the failures (one row each, with links to the repro
folder's files that exist), new failures and fixes since the last run, the history charts,
the slowest tests, and otpu-mutate's mutation score when the folder holds its mutation.json
(mutate/README.md; otpu-mutate updates that section of an existing page). Every text and
attribute from the run is made visible (text.py: no control byte from input reaches the page)
and goes through html.escape."""
import html
import json
import os
from urllib.parse import quote

from . import buckets, charts, codecov, files, outputs, suspects
from .outcome import MEANING
from .text import visible

# the files of a repro folder the page links to, when they exist: (path in the folder, label)
REPRO_FILES = [
    ("report/divergence.html", "report"),
    ("report/divergence.txt", "divergence.txt"),
    ("report/divergence.json", "divergence.json"),
    ("report/wave.fst", "wave.fst"),
    ("repro.sh", "repro.sh"),
    ("shrunk", "shrunk bundle"),
]
NONE = "\u2014"  # an em dash: the cell has nothing to show

CSS = """
body { font: 14px/1.4 sans-serif; color: #222; margin: 16px 24px; max-width: 1400px; }
h1 { font-size: 20px; margin: 0 0 8px; }
h2 { font-size: 16px; margin: 24px 0 8px; border-bottom: 1px solid #ccc; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; margin: 0; }
dl.facts dt { color: #666; }
dl.facts dd { margin: 0; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.num { text-align: right; }
tr.failure td { background: #fff5f5; }
td.message { max-width: 480px; overflow-wrap: anywhere; }
td.name, td.kind, td.location { white-space: nowrap; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
.clean { color: #060; font-weight: bold; }
.bad { color: #b00; font-weight: bold; }
.waived { color: #865; font-weight: bold; }
tr.failure.waived td, tr.bucket.waived td { background: #f7f4ee; }
code { font-size: 13px; }
""" + charts.CSS


def _e(value):
    """text or an attribute value, visible and escaped"""
    return html.escape(visible(value))


def _count(n):
    return NONE if n is None else f"{n:,}"


def _duration(seconds):
    if seconds is None:
        return NONE
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, s = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {s:02d} s"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def _facts(pairs):
    """a definition list of (label, already escaped html) pairs"""
    rows = "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in pairs)
    return f'<dl class="facts">{rows}</dl>'


def _kind(kind):
    """a failure kind with the colour the charts give it"""
    if not kind:
        return NONE
    return (f'<span class="swatch" style="background:{charts.kind_colour(kind)}"></span>'
            f'<span title="{_e(MEANING.get(kind, kind))}">{_e(kind)}</span>')


def _head(summary):
    run = summary.get("run") or {}
    title = (f"otpu-regress: {summary.get('failed', 0):,} failed" +
             (f", {summary.get('waived', 0):,} waived" if summary.get("waivers") else "") +
             f" of {summary.get('tests', 0):,}"
             f" ({run.get('started') or 'unknown start'})")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{_e(title)}</title><style>{CSS}</style></head><body>"
            f"<h1>{_e(title)}</h1>")


def _run_facts(run):
    return _facts([
        ("started", _e(run.get("started") or NONE)),
        ("wall time", _e(_duration(run.get("wall_time")))),
        ("host", _e(run.get("host") or NONE)),
        ("jobs", _e(_count(run.get("jobs")))),
        ("shard", _e(run.get("shard") or "none (the whole suite)")),
        ("suites", _e(" ".join(run.get("suites") or []) or NONE)),
    ])


def _coverage(coverage):
    if not coverage:
        return "none"
    return (f"{coverage['percent']:.1f} % ({coverage.get('hit', 0):,} of "
            f"{coverage.get('bins', 0):,} bins)")


def _totals(summary):
    failed = summary.get("failed") or 0
    pairs = [
        ("tests", _e(_count(summary.get("tests")))),
        ("passed", _e(_count(summary.get("passed")))),
        ("failed", f'<span class="{"bad" if failed else "clean"}">{_e(_count(failed))}</span>'),
    ]
    if summary.get("waivers"):
        pairs.append(("waived", f'<span class="waived">{_e(_count(summary.get("waived")))}'
                                "</span> (known differences: Waivers below)"))
    by_kind = (summary.get("by_kind") or {}).items()
    pairs.append(("by kind", " &middot; ".join(f"{_kind(k)} {_e(_count(n))}" for k, n in by_kind)
                  or NONE))
    pairs += [
        ("instructions checked", _e(_count(summary.get("instructions")))),
        ("cycles checked", _e(_count(summary.get("cycles")))),
        ("coverage", _e(_coverage(summary.get("coverage")))),
        ("RTL code coverage", codecov.html_total(summary.get("code_coverage"))),
    ]
    return "<h2>Totals</h2>" + _facts(pairs)


def _percent(p):
    return NONE if p is None else f"{p:.1f} %"


def _num(text):
    """a right-aligned cell of text (already escaped)"""
    return f'<td class="num">{text}</td>'


def _table(attrs, heads, rows):
    """a table: attrs (' id="x"', or ''), its column heads, its rows (HTML)"""
    head = "".join(f"<th>{h}</th>" for h in heads)
    return f"<table{attrs}><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _rounds(run):
    """the coverage of each round of --rounds (rounds.py), when the run had rounds"""
    rounds = run.get("rounds") or []
    if not rounds:
        return ""
    rows = "".join(
        "<tr>" + _num(x["round"]) + _num(_e(_count(x["tests"]))) + _num(_e(_count(x["failed"])))
        + _num(f'{_e(_count(x["hit"]))} of {_e(_count(x["bins"]))}')
        + _num(_e(_percent(x["percent"]))) + _num(_e(_count(x["new"])))
        + _num(f'{x["time"]:.1f}') + f'<td>{_e(x.get("stopped") or "")}</td></tr>'
        for x in rounds)
    heads = ("round", "tests", "failed", "bins hit (so far)", "coverage", "new bins",
             "time (s)", "then")
    return ('<section id="rounds"><h2>Coverage by round</h2><p>Each round after the first '
            "runs every gen entry's next programs, aimed at the bins the rounds before left "
            "empty (otpu-gen --cover).</p>" + _table("", heads, rows) + "</section>")


def _holes(coverage):
    """the reachable bins never hit and the unreachable bins with the reason"""
    if not coverage or "never_hit" not in coverage:
        return ""
    never, unreachable = coverage["never_hit"], coverage.get("unreachable") or []

    def items(xs):
        return "<ul>" + "".join(f"<li>{_e(x)}</li>" for x in xs) + "</ul>"
    return ('<section id="holes"><h2>Coverage holes</h2>' +
            (f'<p class="bad">never hit ({len(never):,})</p>' + items(never) if never else
             '<p class="clean">every reachable bin was hit</p>') +
            (f"<details><summary>unreachable on these Configs ({len(unreachable):,}), and "
             f"why</summary>{items(unreachable)}</details>" if unreachable else "") +
            "</section>")


def _instruction(divergence):
    insn = (divergence or {}).get("instruction")
    if not insn:
        return NONE
    return (f"pc {_e(insn.get('pc'))}, n {_e(insn.get('n'))}: "
            f"<code>{_e(insn.get('disasm', ''))}</code>")


def _location(divergence):
    loc = (divergence or {}).get("location")
    if not loc:
        return NONE
    return f"{_e(loc.get('space'))} 0x{int(loc.get('address', 0)):x}"


def _links(out_dir, repro):
    """relative links to the repro folder's files that exist on disk"""
    if not repro:
        return NONE
    links = [f'<a href="{_e(quote(f"{repro}/{path}"))}">{_e(label)}</a>'
             for path, label in REPRO_FILES
             if os.path.exists(os.path.join(out_dir, repro, path))]
    return " ".join(links) or NONE


def _anchor(name):
    return "failure-" + name


def _message(test, div):
    """what went wrong: for a divergence its kind and detail (the instruction and location
    have their own cells), else the test's one-line message"""
    if div and div.get("kind") and div.get("detail"):
        return f"{div['kind']}: {div['detail']}"
    return test.get("message") or ""


def _failure_row(out_dir, test):
    div = test.get("divergence")
    w = test.get("waived")
    waived = f'<br><span class="waived">waived ({_e(w["id"])})</span>' if w else ""
    cells = [f'<td class="name">{_e(test["name"])}{waived}</td>',
             f'<td class="kind">{_kind(test.get("kind"))}</td>',
             f"<td>{_instruction(div)}</td>", f'<td class="location">{_location(div)}</td>',
             f'<td class="message">{_e(_message(test, div))}</td>',
             f"<td>{_links(out_dir, test.get('repro'))}</td>"]
    return (f'<tr class="failure{" waived" if w else ""}" id="{_e(_anchor(test["name"]))}" '
            f'data-name="{_e(test["name"])}">' + "".join(cells) + "</tr>")


def _failures(out_dir, failed):
    if not failed:
        return '<h2>Failures</h2><p class="clean">no failures</p>'
    rows = "".join(_failure_row(out_dir, t) for t in failed)
    return (f"<h2>Failures ({len(failed):,})</h2>" +
            _table(' id="failures" class="tests"',
                   ("test", "kind", "instruction", "location", "message", "repro"), rows))


def _waivers(summary):
    """the waivers of the run: what each waives, why, its write-up, how many failures it
    matched; a stale one (it matched none) said so"""
    ws = summary.get("waivers") or []
    if not ws:
        return ""
    rows = "".join(
        f'<tr class="waiver" data-id="{_e(w["id"])}"><td>{_e(w["id"])}</td>'
        f'<td><code>{_e(w["signature"])}</code></td><td class="message">{_e(w["why"])}</td>'
        f'<td class="message">{_e(w["link"])}</td>'
        + _num('<span class="bad">stale: matched nothing</span>' if w["stale"] else
               _e(_count(w["matched"]))) + "</tr>" for w in ws)
    return (f"<h2>Waivers ({len(ws):,})</h2><p>Known differences: a failure whose signature "
            "one of these matches is waived (it does not fail the run; junit.xml skips it "
            "with the reason). A failure none matches is new.</p>" +
            _table(' id="waivers"', ("waiver", "signature", "why", "write-up",
                                     "waived tonight"), rows))


def _name_list(names, linked):
    """names as a list; those in linked point at their failure row"""
    items = []
    for name in names:
        text = _e(name)
        if name in linked:
            text = f'<a href="#{_e(quote(_anchor(name)))}">{text}</a>'
        items.append(f"<li>{text}</li>")
    return f"<ul>{''.join(items)}</ul>"


def _changes(changes, failed_names):
    new = changes.get("new_failures") or []
    fixed = changes.get("fixed") or []
    still = changes.get("still_failing") or []
    parts = ["<h2>Since the last run</h2>"]
    if not new and not fixed:
        parts.append("<p>no new failures and no fixes</p>")
    if new:
        parts.append(f'<p class="bad">new failures ({len(new):,})</p>'
                     + _name_list(new, failed_names))
    if fixed:
        parts.append(f'<p class="clean">fixed ({len(fixed):,})</p>' + _name_list(fixed, ()))
    if still:
        parts.append(f"<details><summary>still failing ({len(still):,})</summary>"
                     + _name_list(still, failed_names) + "</details>")
    return '<section id="changes">' + "".join(parts) + "</section>"


def _current_run(summary):
    """this run as a history entry, for the charts when there is no history"""
    coverage = summary.get("coverage") or {}
    return {"started": (summary.get("run") or {}).get("started"),
            "tests": summary.get("tests"), "passed": summary.get("passed"),
            "failed": summary.get("failed"), "by_kind": summary.get("by_kind") or {},
            "coverage_percent": coverage.get("percent")}


def _history(summary, runs):
    runs = list(runs) or [_current_run(summary)]
    svgs = (charts.passes_chart(runs) + charts.kinds_chart(runs) + charts.coverage_chart(runs))
    return (f'<section id="history"><h2>History ({charts.runs_label(runs)})</h2>'
            f"<div>{svgs}</div></section>")


def _slowest(slowest):
    if not slowest:
        return "<h2>Slowest tests</h2><p>no tests</p>"
    rows = "".join(f'<tr><td>{_e(t["name"])}</td>' + _num(f'{t["time"]:.2f}') + "</tr>"
                   for t in slowest)
    return "<h2>Slowest tests</h2>" + _table(' id="slowest" class="tests"',
                                             ("test", "time (s)"), rows)


MUTATION_BEGIN, MUTATION_END = "<!-- mutation -->", "<!-- /mutation -->"


def _mutation(out_dir):
    """the mutation score of out_dir/mutation.json (otpu-mutate), between markers; nothing
    without the file"""
    path = os.path.join(out_dir, "mutation.json")
    if not os.path.lexists(path):
        return MUTATION_BEGIN + MUTATION_END
    try:
        doc = json.loads(files.read_text(path, files.OTHER))
        run, t = doc["run"], doc["totals"]
        score = t["score"]
        rows = [("all generated families", score["generated"])]
        rows += [(f, score["families"][f]) for f in run["families"]]
        if score.get("golden"):
            rows.append(("golden vectors alone", score["golden"]))
        cells = "".join(
            f'<tr><td>{_e(name)}</td>' + _num(f'{_e(_count(s["killed"]))} of '
                                              f'{_e(_count(s["of"]))}')
            + _num(_e("-" if s["percent"] is None else format(s["percent"], ".1f"))) + "</tr>"
            for name, s in rows)
        surv = [m for m in doc["mutants"] if m["status"] == "survived"]
        items = "".join(f'<li><code>{_e(m["id"])}</code> ({_e(m["file"])}:{_e(m["line"])}, '
                        f'{_e(m["kind"])}): {_e(m["description"])}</li>' for m in surv)
        body = (_facts([("run", _e(f'{run["started"]}, {_duration(run["wall_time"])}')),
                        ("mutants", _e(f'{t["mutants"]:,}: {t["scored"]:,} scored, '
                                       f'{t["equivalent"]:,} equivalent, '
                                       f'{t["stillborn"]:,} stillborn')),
                        ("programs", _e(run["config"]["generated"]))])
                + _table(' id="mutation-score"', ("programs", "mutants killed", "%"), cells)
                + (f'<p class="bad">survivors ({len(surv):,})</p><ul>{items}</ul>' if surv
                   else '<p class="clean">no survivors</p>'))
    except (files.BadFile, ValueError, KeyError, TypeError, AttributeError,
            RecursionError) as e:
        body = f'<p class="bad">mutation.json cannot be read: {_e(e)}</p>'
    return (f'{MUTATION_BEGIN}<section id="mutation"><h2>Mutation score</h2>{body}</section>'
            f"{MUTATION_END}")


def refresh_mutation(out_dir):
    """out_dir/index.html with its mutation section rendered again; False without a page"""
    path = os.path.join(out_dir, "index.html")
    try:
        page = files.read_text(path, files.OTHER)
    except files.BadFile:
        return False
    a, b = page.find(MUTATION_BEGIN), page.find(MUTATION_END)
    if a < 0 or b < a:
        a = b = page.rfind("</body>")
        if a < 0:
            return False
    else:
        b += len(MUTATION_END)
    outputs.write(path, page[:a] + _mutation(out_dir) + page[b:])
    return True


def render_index(out_dir, summary, tests, history_runs):
    """the page as a string; out_dir is where the repro folders are looked up"""
    failed = sorted((t for t in tests if t.get("status") == "fail"),
                    key=lambda t: (t.get("kind") or "", t["name"]))
    return "".join([
        _head(summary),
        buckets.html_section(out_dir, summary),  # the failures by signature, first
        suspects.html_section(summary),  # their suspect RTL lines, when localized
        _run_facts(summary.get("run") or {}),
        _totals(summary),
        _waivers(summary),
        _rounds(summary.get("run") or {}),
        codecov.html_section(summary.get("code_coverage")),
        _holes(summary.get("coverage")),
        _failures(out_dir, failed),
        _changes(summary.get("changes") or {}, {t["name"] for t in failed}),
        _history(summary, history_runs),
        _slowest(summary.get("slowest") or []),
        _mutation(out_dir),
        "</body></html>\n",
    ])


def write_index(out_dir, summary, tests, history_runs):
    """writes out_dir/index.html (whole or not at all) and returns its path"""
    path = os.path.join(out_dir, "index.html")
    outputs.write(path, render_index(out_dir, summary, tests, history_runs))
    return path
