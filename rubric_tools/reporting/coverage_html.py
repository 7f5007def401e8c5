"""Write the coverage report as static HTML, like coverage.py's htmlcov: an index of
matters, per matter its YAML files with every item highlighted covered / partly /
uncovered and each gate list's robustness (sins caught, correct work left silent, before
and after the audit's proposals), and per trajectory the replay with rewards, a score
chart and the matched concepts and gate spans highlighted. Self-contained: inline CSS, JS
and SVG only.

Every string that comes from a matter or a trajectory goes through `html.escape`
(or `json_for_script` inside the one data island)."""

from __future__ import annotations

import json
import math
import re
from html import escape
from pathlib import Path
from typing import Any

from rubric_tools.coverage.model import (
    CoverageItem,
    GateListFigure,
    MatterCoverage,
    SourceFile,
    TrajectoryView,
    printable,
)
from rubric_tools.coverage.verdict import CoverageRun
from rubric_tools.reporting.html_assets import CSS, JS
from rubric_tools.scoring.gates import GateError, compile_pattern

CHART_WIDTH, CHART_HEIGHT, CHART_MARGIN = 640, 180, 40  # the margin holds the y-axis labels


def json_for_script(data: Any) -> str:
    """JSON that cannot end or confuse the <script> element holding it."""
    text = json.dumps(data, ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _page(title: str, body: str, script: str = "") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n"
        f"{script}</body></html>\n"
    )


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}%"


def _bar(percent: float) -> str:
    return f'<span class="bar" title="{percent:.1f}%"><span style="width:{percent:.0f}%"></span></span>'


def _matter_file(index: int) -> str:
    return f"m{index}.html"


def _trajectory_file(matter_index: int, trajectory_index: int) -> str:
    return f"m{matter_index}-t{trajectory_index}.html"


# ----------------------------------------------------------------- index


def _index(run: CoverageRun) -> str:
    rows = []
    for number, matter in enumerate(run.matters):
        mutation = matter.mutation.score if matter.mutation is not None else None
        rows.append(
            f'<tr><td><a href="{_matter_file(number)}">{escape(matter.matter_id)}</a></td>'
            f"<td>{len(matter.items)}</td><td>{matter.covered}</td>"
            f"<td>{_bar(matter.percent)} {_percent(matter.percent)}</td><td>{_percent(mutation)}</td>"
            f"<td>{len(matter.trajectories)}</td><td>{matter.probe_count}</td>"
            f'<td class="robustness">{_matter_robustness(matter)}</td></tr>'
        )
    body = (
        "<h1>Rubric coverage</h1>"
        f'<p class="dim">{len(run.matters)} matter{"" if len(run.matters) == 1 else "s"}, '
        f"overall coverage {_percent(run.percent)}.</p>"
        '<table class="summary" id="matters"><thead><tr><th>matter</th><th>items</th><th>covered</th>'
        "<th>coverage</th><th>mutation score</th><th>trajectories</th><th>probes</th>"
        '<th title="sins caught, correct work left silent: before → after the audit\'s proposals">'
        "gate robustness</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    return _page("Rubric coverage", body)


# ----------------------------------------------------------------- robustness


def _shift(before: int, after: int, whole: int) -> str:
    """ "12/20 → 19/20" with the share after as a bar."""
    share = GateListFigure.percent(after, whole)
    return f"{before}/{whole} &rarr; {after}/{whole} {_bar(share)}"


def _matter_robustness(matter: MatterCoverage) -> str:
    """The matter's gate lists taken together: sins caught and correct work left silent."""
    if not matter.robustness:
        return '<span class="dim">-</span>'
    figures = matter.robustness
    sins, correct = sum(f.sins for f in figures), sum(f.correct_work for f in figures)
    caught = (sum(f.caught_before for f in figures), sum(f.caught_after for f in figures))
    silent = (sum(f.silent_before for f in figures), sum(f.silent_after for f in figures))
    return (
        f"sins caught {_percent(GateListFigure.percent(caught[0], sins))} &rarr; "
        f"{_percent(GateListFigure.percent(caught[1], sins))}, correct work silent "
        f"{_percent(GateListFigure.percent(silent[0], correct))} &rarr; "
        f"{_percent(GateListFigure.percent(silent[1], correct))}"
    )


def _robustness_section(matter: MatterCoverage) -> str:
    """A row per gate list: its sins caught and correct work left silent, before and after
    the audit's verified proposals (`rubric audit`)."""
    if matter.robustness is None:
        return ""
    rows = "".join(
        f'<tr><td>{escape(f.name)}</td><td><a href="#{escape(f.file)}-L{f.line}">{escape(f.file)}:{f.line}</a> '
        f'<span class="dim">{escape(f.key)}</span></td><td class="num">{f.entries}</td>'
        f"<td>{_shift(f.caught_before, f.caught_after, f.sins)}</td>"
        f"<td>{_shift(f.silent_before, f.silent_after, f.correct_work)}</td>"
        f"<td>{', '.join(str(i) for i in f.changed) or '-'}</td></tr>"
        for f in matter.robustness
    )
    return (
        "<h2>Gate robustness</h2>"
        '<p class="dim">Per gate list, the share of its sins (habitats, rewrites, must-fire probes and '
        "trajectories) it catches and of correct work (the matter's own, frames that negate or strike the "
        "sin) it leaves silent: as written &rarr; with the audit's verified proposals applied "
        "(<code>rubric audit --fix --unsafe-fixes</code>).</p>"
        '<table class="steps" id="robustness"><tr><th>gate list</th><th>where</th><th>entries</th>'
        "<th>sins caught</th><th>correct work silent</th><th>entries changed</th></tr>"
        f"{rows or '<tr><td colspan=6>no gate list</td></tr>'}</table>"
    )


# ----------------------------------------------------------------- matter


def _line_items(source: SourceFile, items: list[CoverageItem]) -> dict[int, list[int]]:
    """For each line, the innermost items (smallest YAML node) that cover it."""
    by_line: dict[int, list[int]] = {}
    for line in range(1, len(source.lines) + 1):
        covering = [
            i for i, item in enumerate(items) if item.file == source.name and item.line <= line <= item.end_line
        ]
        if covering:
            smallest = min(items[i].end_line - items[i].line for i in covering)
            by_line[line] = [i for i in covering if items[i].end_line - items[i].line == smallest]
    return by_line


def _status(items: list[CoverageItem]) -> str:
    covered = sum(1 for item in items if item.covered)
    return "cov-full" if covered == len(items) else "cov-none" if covered == 0 else "cov-part"


def _listing(source: SourceFile, items: list[CoverageItem]) -> str:
    by_line = _line_items(source, items)
    lines = []
    for number, text in enumerate(source.lines, start=1):
        indices = by_line.get(number)
        if not indices:
            lines.append(
                f'<div class="line"><span class="n">{number}</span><span class="t">{escape(text)}</span></div>'
            )
            continue
        chosen = [items[i] for i in indices]
        hover = "; ".join(
            f"{item.id}: " + (", ".join(item.exercised_by) if item.covered else "not covered") for item in chosen
        )
        keys = " ".join(f"i{i}" for i in indices)
        lines.append(
            f'<div class="line {_status(chosen)}" id="{escape(source.name)}-L{number}" data-items="{keys}" '
            f'title="{escape(hover)}"><span class="n">{number}</span><span class="t">{escape(text)}</span></div>'
        )
    return f'<h2>{escape(source.name)}</h2><div class="source">{"".join(lines)}</div>'


def _trajectory_links(matter: MatterCoverage, matter_index: int) -> dict[str, str]:
    return {view.name: _trajectory_file(matter_index, number) for number, view in enumerate(matter.trajectories)}


def _exercisers(item: CoverageItem, links: dict[str, str]) -> str:
    if not item.covered:
        return '<span class="neg">not covered</span>'
    return ", ".join(
        f'<a href="{links[name]}">{escape(name)}</a>' if name in links else escape(name) for name in item.exercised_by
    )


def _matter_page(matter: MatterCoverage, matter_index: int) -> str:
    links = _trajectory_links(matter, matter_index)
    parts = [
        f'<p><a href="index.html">&larr; all matters</a></p><h1>{escape(matter.matter_id)}</h1>',
        f"<p>{matter.covered} of {len(matter.items)} items covered ({_percent(matter.percent)})"
        + (f"; mutation score {_percent(matter.mutation.score)}" if matter.mutation is not None else "")
        + ".</p>",
        '<p class="legend"><span class="cov-full">covered</span><span class="cov-part">partly covered</span>'
        '<span class="cov-none">not covered</span> <span class="dim">click a line for what exercises it</span></p>',
    ]
    parts += [f'<p class="neg">{escape(problem)}</p>' for problem in matter.problems]
    parts += [_listing(source, matter.items) for source in matter.sources]
    parts.append(_robustness_section(matter))
    if matter.mutation is not None and matter.mutation.survivors:
        survivors = "".join(
            f"<li>{escape(m.file)}:{m.line} <strong>{escape(m.operator)}</strong> {escape(m.description)}</li>"
            for m in matter.mutation.survivors
        )
        parts.append(f'<h2>Surviving mutants</h2><ul id="survivors">{survivors}</ul>')
    trajectories = "".join(
        f'<li><a href="{links[view.name]}">{escape(view.name)}</a> '
        + (
            f'<span class="dim">{escape(view.problem)}</span>'
            if view.problem
            else f'<span class="dim">normalized {view.normalized_score:g}, raw {view.raw_score:g}'
            f"{', critical failure' if view.critical_failure else ''}</span>"
        )
        + "</li>"
        for view in matter.trajectories
    )
    parts.append(f"<h2>Trajectories</h2><ul>{trajectories}</ul>")
    rows = "".join(
        f'<tr><td class="{"cov-full" if item.covered else "cov-none"}">{escape(item.id)}</td>'
        f"<td>{escape(item.file)}:{item.line}</td><td>{_exercisers(item, links)}</td></tr>"
        for item in matter.items
    )
    parts.append(
        f'<h2>Items</h2><table class="steps"><tr><th>item</th><th>where</th><th>exercised by</th></tr>{rows}</table>'
    )
    parts.append('<div id="detail" aria-live="polite"></div>')
    data = {
        f"i{i}": {"id": item.id, "description": item.description, "covered": item.covered, "by": item.exercised_by}
        for i, item in enumerate(matter.items)
    }
    script = (
        f'<script type="application/json" id="coverage-items">{json_for_script(data)}</script><script>{JS}</script>'
    )
    return _page(f"{matter.matter_id} — rubric coverage", "".join(parts), script)


# ----------------------------------------------------------------- trajectory


def _spans(text: str, concepts: list[str], patterns: list[str]) -> list[tuple[int, int, str]]:
    """Non-overlapping highlight spans in the agent's own text: gate matches win over concepts."""
    found: list[tuple[int, int, str]] = []
    for pattern in dict.fromkeys(patterns):
        try:
            found += [
                (m.start(), m.end(), "gate")
                for m in compile_pattern(pattern).finditer(text, timeout=0.5)
                if m.end() > m.start()
            ]
        except (GateError, TimeoutError):
            continue
    for concept in dict.fromkeys(concepts):
        words = concept.split()
        if not words:
            continue
        finder = re.compile(r"\s+".join(re.escape(word) for word in words), re.IGNORECASE)
        found += [(m.start(), m.end(), "concept") for m in finder.finditer(text)]
    found.sort(key=lambda span: (span[0], span[2] != "gate", -span[1]))
    kept: list[tuple[int, int, str]] = []
    for span in found:
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    return kept


def highlight(text: str, concepts: list[str], patterns: list[str]) -> str:
    out, position = [], 0
    for start, end, kind in _spans(text, concepts, patterns):
        out.append(escape(text[position:start]))
        out.append(f'<mark class="{kind}">{escape(text[start:end])}</mark>')
        position = end
    out.append(escape(text[position:]))
    return "".join(out)


def axis_ticks(low: float, high: float, target: int = 5) -> list[float]:
    """Round values (1, 2 or 5 times a power of ten apart), about `target` of them, from
    at or below `low` to at or above `high`: the axis starts and ends on a label."""
    if high <= low:
        return [low - 1, low, low + 1] if low else [0.0, 1.0]
    rough = (high - low) / max(target - 1, 1)
    power = 10 ** math.floor(math.log10(rough))
    step = next(factor * power for factor in (1, 2, 5, 10) if factor * power >= rough)
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    return [round(index * step, 10) + 0.0 for index in range(first, last + 1)]  # + 0.0: never "-0"


def chart(view: TrajectoryView) -> str:
    """The cumulative raw score after each step, as an inline SVG line, with a labelled
    y-axis (round values and light grid lines) and the zero line."""
    scores = [0.0] + [step.raw_score for step in view.steps]
    ticks = axis_ticks(min(scores), max(scores))
    low, high = ticks[0], ticks[-1]
    span = (high - low) or 1.0
    width, height, margin = CHART_WIDTH, CHART_HEIGHT, CHART_MARGIN
    step_x = (width - 2 * margin) / max(len(scores) - 1, 1)

    def y(value: float) -> float:
        return height - margin - (value - low) / span * (height - 2 * margin)

    points = [(margin + i * step_x, y(score)) for i, score in enumerate(scores)]
    path = "M " + " L ".join(f"{x:.1f} {yy:.1f}" for x, yy in points)
    zero = y(0.0)
    grid = "".join(
        f'<line class="grid" x1="{margin}" y1="{y(tick):.1f}" x2="{width - margin}" y2="{y(tick):.1f}"/>'
        f'<text class="tick" x="{margin - 4}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>'
        for tick in ticks
    )
    return (
        f'<svg class="chart" id="score-chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="cumulative raw score by step">{grid}'
        f'<line class="axis" x1="{margin}" y1="{zero:.1f}" x2="{width - margin}" y2="{zero:.1f}"/>'
        f'<path class="score" d="{path}"/>'
        f'<text x="{width - margin}" y="{height - 6}" text-anchor="end">step {len(scores) - 1}</text></svg>'
    )


def _trajectory_page(matter: MatterCoverage, matter_index: int, view: TrajectoryView) -> str:
    head = (
        f'<p><a href="{_matter_file(matter_index)}">&larr; {escape(matter.matter_id)}</a></p>'
        f"<h1>{escape(view.name)}</h1>"
    )
    if view.problem is not None:
        return _page(view.name, head + f'<p class="neg">did not replay: {escape(view.problem)}</p>')
    summary = (
        f"<p>normalized {view.normalized_score:g}, raw {view.raw_score:g}"
        f"{', <strong class=neg>critical failure</strong>' if view.critical_failure else ''}.</p>"
    )
    legend = '<p class="legend"><mark class="concept">matched concept</mark> <mark class="gate">gate span</mark></p>'
    rows = "".join(
        f'<tr><td class="num">{step.step}</td><td>{escape(step.type)}</td>'
        f'<td class="num {"neg" if step.reward < 0 else "pos" if step.reward > 0 else ""}">{step.reward:+.4g}</td>'
        f'<td class="num">{step.raw_score:.4g}</td>'
        f'<td class="agent">{highlight(step.text, step.concepts, step.gate_patterns)}</td>'
        f'<td class="dim">{"<br>".join(escape(event) for event in step.events)}</td></tr>'
        for step in view.steps
    )
    table = (
        '<table class="steps" id="steps"><tr><th>step</th><th>action</th><th>reward</th><th>score</th>'
        f"<th>agent text</th><th>events</th></tr>{rows}</table>"
    )
    return _page(f"{view.name} — {matter.matter_id}", head + summary + chart(view) + legend + table)


def _write(path: Path, page: str) -> None:
    path.write_text(printable(page), encoding="utf-8")


def write_html(run: CoverageRun, directory: Path) -> Path:
    """Write the report into `directory` (created when missing); return the index page."""
    directory.mkdir(parents=True, exist_ok=True)
    for matter_index, matter in enumerate(run.matters):
        _write(directory / _matter_file(matter_index), _matter_page(matter, matter_index))
        for number, view in enumerate(matter.trajectories):
            _write(directory / _trajectory_file(matter_index, number), _trajectory_page(matter, matter_index, view))
    index = directory / "index.html"
    _write(index, _index(run))
    return index
