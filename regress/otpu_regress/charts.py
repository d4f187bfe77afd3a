"""Small inline SVG charts of the run history for index.html: pure string building, no script.

Each chart takes the runs oldest first, as history.recent_runs() gives them ({"started",
"tests", "passed", "failed", "by_kind", "coverage_percent"}), and returns one <svg
class="chart" data-chart="..."> element of a fixed size with a <title>, axis labels and, per
run, a tooltip (<title> of its mark). Every run has one slot of equal width along x, so the
three charts line up run for run."""
import html

from .outcome import KINDS
from .text import visible

WIDTH, HEIGHT = 360, 120
# the plot area inside the svg: room for y labels on the left, x labels below
LEFT, TOP, RIGHT, BOTTOM = 44, 10, 10, 22
LEGEND_WIDTH = 124  # the kinds chart keeps this much on its right for the legend
# the colours of the failure kinds (the stacks and the legend go in the order of outcome.KINDS)
KIND_COLOURS = {"divergence": "#d62728", "bad-input": "#7f7f7f", "timeout": "#ff7f0e",
                "build-failed": "#8c564b", "crash": "#9467bd", "unexpected-outcome": "#e377c2"}
OTHER_COLOUR = "#17becf"  # a kind this module does not know yet
LINE_COLOUR = "#1f77b4"
# presentation attributes, so that a chart looks the same outside the page's <style>
TEXT_STYLE = 'font-family="sans-serif" font-size="10" fill="#333"'


def escape(s):
    """text from a run (a kind or a date from the history database), visible and escaped"""
    return html.escape(visible(s))


def _num(v):
    """a coordinate, short: 12.5, 40"""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _text(x, y, s, anchor="start", extra=""):
    return (f'<text x="{_num(x)}" y="{_num(y)}" text-anchor="{anchor}" {TEXT_STYLE}{extra}>'
            f"{escape(str(s))}</text>")


class _Frame:
    """the plot area: maps run index i of n to a slot's centre and value v of vmax to y"""

    def __init__(self, n, vmax, right=RIGHT):
        self.n, self.vmax = max(n, 1), vmax if vmax > 0 else 1
        self.left, self.top = LEFT, TOP
        self.width = WIDTH - LEFT - right
        self.height = HEIGHT - TOP - BOTTOM
        self.bottom = self.top + self.height

    def slot(self):
        return self.width / self.n

    def x(self, i):
        return self.left + (i + 0.5) * self.slot()

    def y(self, v):
        return self.bottom - self.height * v / self.vmax


def runs_label(runs):
    """the phrase for a chart's title: 'the last 5 runs', 'the last run'"""
    return "the last run" if len(runs) == 1 else f"the last {len(runs):,} runs"


def _run_label(run):
    """a run's date for the x axis: the day of its start"""
    return str(run.get("started") or "")[:10]


def _axes(frame, runs, y_name, y_format):
    """both axes, the y range's two ends, the first and last run's dates and the y name"""
    mid_y = frame.top + frame.height / 2
    parts = [
        f'<path d="M{_num(frame.left)},{_num(frame.top)}V{_num(frame.bottom)}'
        f'H{_num(frame.left + frame.width)}" stroke="#555" fill="none"/>',
        _text(frame.left - 4, frame.top + 8, y_format(frame.vmax), "end"),
        _text(frame.left - 4, frame.bottom, "0", "end"),
        _text(12, mid_y, y_name, "middle", f' transform="rotate(-90 12 {_num(mid_y)})"'),
    ]
    if runs:
        parts.append(_text(frame.left, HEIGHT - 6, _run_label(runs[0])))
    if len(runs) > 1:
        parts.append(_text(frame.left + frame.width, HEIGHT - 6, _run_label(runs[-1]), "end"))
    return parts


def _svg(name, title, body):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" data-chart="{name}" '
            f'width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img">'
            f"<title>{escape(title)}</title>" + "".join(body) + "</svg>")


def _line(frame, runs, values, tip):
    """a polyline through the runs' values, broken where a value is None, and a dot with a
    tooltip per run that has a value (a lone value shows as its dot)"""
    parts, segment = [], []
    for i, v in enumerate(values + [None]):  # the final None closes the last segment
        if v is not None:
            segment.append(f"{_num(frame.x(i))},{_num(frame.y(v))}")
            continue
        if len(segment) > 1:
            parts.append(f'<polyline points="{" ".join(segment)}" stroke="{LINE_COLOUR}" '
                         'stroke-width="1.5" fill="none"/>')
        segment = []
    for i, v in enumerate(values):
        if v is not None:
            parts.append(f'<circle cx="{_num(frame.x(i))}" cy="{_num(frame.y(v))}" r="2.5" '
                         f'fill="{LINE_COLOUR}"><title>{escape(tip(runs[i]))}</title></circle>')
    return parts


def passes_chart(runs):
    """passed tests per run, on a y axis from 0 to the largest test count"""
    top = max((r.get("tests") or 0 for r in runs), default=0)
    frame = _Frame(len(runs), top)
    values = [r.get("passed") or 0 for r in runs]
    body = _axes(frame, runs, "passed", lambda v: f"{v:,}")
    body += _line(frame, runs, values, lambda r: (f"{_run_label(r)}: {r.get('passed') or 0:,}"
                                                  f" of {r.get('tests') or 0:,} passed"))
    return _svg("passes", f"Passed tests over {runs_label(runs)}", body)


def _kinds(runs):
    """the kinds to stack: the known ones first, then any other that a run counts"""
    seen = [k for r in runs for k in (r.get("by_kind") or {})]
    return KINDS + sorted(set(seen) - set(KINDS))


def kind_colour(kind):
    """the colour of a failure kind, in the charts and on the page"""
    return KIND_COLOURS.get(kind, OTHER_COLOUR)


def _stack(frame, run, i, kinds):
    """one run's bar: a rectangle per kind with failures, bottom up in the order of kinds"""
    parts, base = [], 0
    width = frame.slot() * 0.7
    for kind in kinds:
        count = (run.get("by_kind") or {}).get(kind) or 0
        if count <= 0:
            continue
        top_y = frame.y(base + count)
        parts.append(f'<rect x="{_num(frame.x(i) - width / 2)}" y="{_num(top_y)}" '
                     f'width="{_num(width)}" height="{_num(frame.y(base) - top_y)}" '
                     f'fill="{kind_colour(kind)}" data-kind="{escape(kind)}">'
                     f"<title>{escape(f'{_run_label(run)}: {count:,} {kind}')}</title></rect>")
        base += count
    return parts


def _legend(kinds):
    x = WIDTH - LEGEND_WIDTH + 8
    parts = []
    for row, kind in enumerate(kinds):
        y = TOP + row * 14
        parts.append(f'<rect x="{x}" y="{y}" width="10" height="10" fill="{kind_colour(kind)}"/>')
        parts.append(_text(x + 14, y + 9, kind))
    return parts


def kinds_chart(runs):
    """failed tests per run, one stacked bar per run with a colour per failure kind"""
    kinds = _kinds(runs)
    top = max((sum((r.get("by_kind") or {}).values()) for r in runs), default=0)
    frame = _Frame(len(runs), top, RIGHT + LEGEND_WIDTH)
    body = _axes(frame, runs, "failed", lambda v: f"{v:,}")
    for i, run in enumerate(runs):
        body += _stack(frame, run, i, kinds)
    body += _legend(kinds)
    return _svg("kinds", f"Failures by kind over {runs_label(runs)}", body)


def coverage_chart(runs):
    """functional coverage percent per run, 0 to 100, with a gap where a run has none"""
    frame = _Frame(len(runs), 100.0)
    values = [r.get("coverage_percent") for r in runs]
    body = _axes(frame, runs, "cov. %", lambda v: f"{v:.0f}")
    body += _line(frame, runs, values,
                  lambda r: f"{_run_label(r)}: {r.get('coverage_percent'):.1f} % covered")
    return _svg("coverage", f"Coverage percent over {runs_label(runs)}", body)


# the charts' frame on the page
CSS = "svg.chart { background: #fff; border: 1px solid #ddd; margin: 0 8px 8px 0; }"
