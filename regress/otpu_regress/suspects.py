"""The suspect RTL lines of a night's buckets (localize.py) in summary.txt and on the page:
each bucket's first suspects, and the causes (buckets whose suspects agree, together)."""
import html
from urllib.parse import quote

from .text import visible

SHOWN = 5        # suspects a bucket or cause shows in summary.txt
SHOWN_PAGE = 10  # on the page (all of them in summary.json)


def text_lines(summary):
    """summary.txt's lines: each cause, its buckets and its first suspects"""
    causes = summary.get("causes")
    if causes is None:
        return []
    lines = ["suspect RTL lines (fault localization), best first:"]
    for b in summary.get("buckets") or []:
        if b.get("localized"):
            lines.append(f"  bucket {b['n']} ({b['key']}): {b['localized']['note']}")
            lines += _suspect_lines(b["suspects"])
    lines.append(f"causes: {len(causes)} (buckets whose first suspect lines agree, together)")
    key = {b["n"]: b["key"] for b in summary.get("buckets") or []}
    for i, c in enumerate(causes, 1):
        lines.append(f"  cause {i}: " + "; ".join(f"bucket {n} {key.get(n, '?')}"
                                                   for n in c["buckets"]))
        lines += _suspect_lines(c["suspects"])
    return lines


def _suspect_lines(suspects):
    return [f"     {s['file']}:{s['line']}  score {s['score']:.2f} (failing {s['failed']}, "
            f"passing {s['passed']})  {s.get('text', '')}" for s in suspects[:SHOWN]]


def _e(v):
    return html.escape(visible(v))


def _table(suspects):
    rows = "".join(
        f'<tr><td><code>{_e(s["file"])}:{s["line"]}</code></td><td class="num">'
        f'{s["score"]:.2f}</td><td class="num">{s["failed"]}</td><td class="num">'
        f'{s["passed"]}</td><td class="message"><code>{_e(s.get("text", ""))}</code></td></tr>'
        for s in suspects[:SHOWN_PAGE])
    head = "".join(f"<th>{h}</th>" for h in ("line", "score", "failing", "passing", "text"))
    return f'<table class="suspects"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def html_section(summary):
    """the page's section: each cause with its buckets (linked) and suspect lines, then each
    bucket's own; "" for a night not localized"""
    causes = summary.get("causes")
    if causes is None:
        return ""
    parts = [f"<p>{len(causes)} cause(s): the buckets whose first suspect lines agree, "
             "together. A line's score is Ochiai's over the tests run again on the code-"
             "coverage build (failing: counted up to their divergence; passing: the night's "
             "of the same Config, and witnesses: variants of the shrunk repro and fresh programs "
             "of its families that pass). Each bucket number links to its row above.</p>"]
    key = {b["n"]: b["key"] for b in summary.get("buckets") or []}
    for i, c in enumerate(causes, 1):
        signatures = "".join(f'<li><a href="#{_e(quote("bucket-" + str(n)))}">bucket {n}</a> '
                             f'<code>{_e(key.get(n, "?"))}</code></li>' for n in c["buckets"])
        parts.append(f'<h3 id="cause-{i}">cause {i}</h3><ul>{signatures}</ul>' +
                     _table(c["suspects"]))
    for b in summary.get("buckets") or []:
        loc = b.get("localized")
        if loc:
            parts.append(f'<details id="suspects-{b["n"]}"><summary><a href="#bucket-{b["n"]}">'
                         f'bucket {b["n"]}</a> <code>{_e(b["key"])}</code>: '
                         f'{_e(loc["note"])} ({loc["time"]:.0f} s)</summary>' +
                         (_table(b["suspects"]) if b["suspects"] else "") + "</details>")
    return ('<section id="suspects"><h2>Suspect RTL lines</h2>' + "".join(parts) +
            "</section>")
