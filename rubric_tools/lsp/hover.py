"""Hover text, as Markdown: a rule code's documentation, a citation's section text, an
id's points and uses, a gate's audit verdicts and evidence, a heading's citers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from rubric_tools.diagnostics import Diagnostic, Span, number_text
from rubric_tools.loading.probe_file import well_formed_probes
from rubric_tools.lsp import adapter
from rubric_tools.lsp.index import ESCALATION, ISSUE, QUESTION, Place, Section
from rubric_tools.lsp.locate import Target
from rubric_tools.lsp.views import View

#: Characters of a section's text shown in a hover.
MAX_SECTION_CHARS = 2000
MAX_USES = 12


def _where(view: View, place: Place) -> str:
    line = place.span.line if place.span is not None else 1
    return f"{_relative(view, place.file)}:{line}"


def _relative(view: View, path: Path) -> str:
    for base in (view.root, view.root.parent.parent):
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    return str(path)


def _quote(text: str) -> str:
    shown = text if len(text) <= MAX_SECTION_CHARS else text[:MAX_SECTION_CHARS].rstrip() + " …"
    return "\n".join(f"> {line}" if line.strip() else ">" for line in shown.splitlines())


def _number(value: float) -> str:
    return number_text(value)  # an integer of any size: points may have hundreds of digits


def code_hover(target: Target, url: str | None) -> str | None:
    documented = adapter.code_documentation(target.text)
    if documented is None:
        return f"`{target.text}` is no rule code or name (`rubric rules` lists them)."
    facts = " · ".join(value for _, value in documented.facts)
    lines = [f"**{documented.code}** `{documented.name}` · {facts}", "", documented.markdown]
    if url:
        lines += ["", f"[{documented.code} in AUTHORING.md]({url})"]
    return "\n".join(lines)


def section_text(view: View, section: Section) -> str:
    title = section.heading or f"{section.document} preamble (text before the first heading)"
    where = f"{_relative(view, section.file)}:{section.line}"
    body = _quote(section.text) if section.text.strip() else "_(the section is empty)_"
    return f"**{section.document} §{section.token}** — `{title}` ({where})\n\n{body}"


def citation_hover(view: View, target: Target) -> str:
    """The cited section's text; for a citation that resolves to nothing, why, and the
    text of the section it most likely means."""
    index = view.index
    section = index.sections.get((target.document, target.token))
    if section is not None:
        return section_text(view, section)
    documents = [doc.id for doc in index.model.documents]
    if target.document not in documents:
        listed = ", ".join(f"`{doc}`" for doc in documents) or "none"
        problem = f"**{target.text}** does not resolve: matter.yaml lists no document `{target.document}` ({listed})."
    else:
        tokens = [section.token for section in index.document_sections(target.document)]
        listed = ", ".join(f"§{token}" for token in tokens[:40]) + (" …" if len(tokens) > 40 else "")
        problem = (
            f"**{target.text}** does not resolve: `{target.document}` has no section `§{target.token}` ({listed})."
        )
    meant = index.meant(target.document, target.token)
    if meant is None:
        return problem
    return f"{problem}\n\nDid you mean **{meant.document} §{meant.token}**?\n\n{section_text(view, meant)}"


def heading_hover(view: View, target: Target) -> str:
    section = view.index.sections.get((target.document, target.token))
    citers = view.index.citations_of(target.document, target.token)
    title = f"**{target.document} §{target.token}**"
    if section is None:
        return f"{title}: not a section the scorer reads."
    if not citers:
        return f"{title}: cited by no issue of the rubric."
    lines = [f"{title}, cited by:"]
    lines += [f"- issue `{c.issue}` ({c.role}, {_where(view, c.place)})" for c in citers[:MAX_USES]]
    return "\n".join(lines)


def _uses(view: View, kind: str, item_id: str) -> list[str]:
    uses = view.index.uses.get((kind, item_id), [])
    if not uses:
        return ["", "_Not used anywhere else in the matter._"]
    lines = ["", "**Used in**"]
    lines += [f"- {_where(view, place)} — {place.what}" for place in uses[:MAX_USES]]
    if len(uses) > MAX_USES:
        lines.append(f"- … and {len(uses) - MAX_USES} more")
    return lines


def item_hover(view: View, target: Target) -> str:
    index = view.index
    kind, item_id = target.item_kind, target.text
    if (kind, item_id) not in index.definitions:
        known = ", ".join(f"`{known}`" for known in index.ids(kind)) or "none"
        return f"**{kind} `{item_id}`** is not a {kind} of the rubric ({kind}s: {known})."
    points = [item for item in adapter.points_of(view.source) if item.item == item_id and item.section == f"{kind}s"]
    lines = [f"**{kind} `{item_id}`**{_facts(view, kind, item_id)}", ""]
    if points:
        lines += ["| points | |", "| --- | ---: |"]
        lines += [f"| {item.component} | {_number(item.points)} |" for item in points]
        if len(points) > 1:
            lines.append(f"| **total** | **{_number(sum(item.points for item in points))}** |")
    return "\n".join(lines + _uses(view, kind, item_id))


def _facts(view: View, kind: str, item_id: str) -> str:
    model = view.index.model
    if kind == ISSUE:
        issue = next((issue for issue in model.issues if issue.id == item_id), None)
        if issue is None:
            return ""
        facts = [f"anchor `{issue.scored.anchor}`"]
        if issue.scored.severity:
            facts.append(f"severity `{issue.scored.severity}`")
        if issue.scored.non_negotiable:
            facts.append("non-negotiable")
        return " — " + ", ".join(facts)
    items = model.questions if kind == QUESTION else model.escalations
    item = next((item for item in items if item.id == item_id), None)
    if item is None:
        return ""
    facts = [f"{len(item.variants)} variant{'s' if len(item.variants) != 1 else ''}"]
    if kind == ESCALATION:
        facts += [name for name in ("required", "critical_if_missed") if getattr(item.scored, name)]
    return " — " + ", ".join(facts)


def gate_hover(view: View, target: Target, audit: Sequence[Diagnostic] | None) -> str:
    gate = target.gate
    if gate is None:
        return ""
    lines = [f"**gate** `{gate.list_name}[{gate.index}]` of issue `{gate.issue_id}` ({gate.surface} surface)", ""]
    if gate.pattern is not None:
        lines.append(f"pattern: `{gate.pattern}`")
    guards = [
        f"{name}: `{value}`"
        for name, value in (
            ("negation_guard", gate.negation_guard),
            ("negation_scope", gate.negation_scope),
            ("require_context", gate.require_context),
            ("exclude_context", gate.exclude_context),
        )
        if value is not None
    ]
    if guards:
        lines.append("; ".join(guards))
    lines += ["", *_audit_lines(gate.location.span, gate.location.file, audit)]
    lines += ["", *_probe_lines(view, gate.issue_id, gate.surface)]
    return "\n".join(lines)


def _audit_lines(span: Span | None, file: Path, audit: Sequence[Diagnostic] | None) -> list[str]:
    if audit is None:
        return [
            "**Audit**: not run on this text yet (save the file with `rubric.audit.onSave`, or run `rubric audit`)."
        ]
    mine = [
        d
        for d in audit
        if d.file == file
        and span is not None
        and d.span is not None
        and (span.line, span.column) <= (d.span.line, d.span.column) < (span.end_line, span.end_column)
    ]
    if not mine:
        return [
            "**Audit**: no finding. It fires on the witnesses built from its regex, stays silent on the "
            "matter's correct work and on negated frames, and no meaning-preserving rewrite walked past its list."
        ]
    lines = ["**Audit**"]
    for finding in mine:
        lines.append(f"- **{finding.code}** `{finding.name}` ({finding.severity.value}): {finding.message}")
        lines += [f"  - {line}" for line in _evidence(finding)]
        if finding.fix_hint:
            lines.append(f"  - {finding.fix_hint}")
    return lines


def _evidence(finding: Diagnostic) -> Iterable[str]:
    evidence = finding.extra.get("evidence")
    for item in evidence if isinstance(evidence, list) else ():
        if isinstance(item, dict):
            yield (
                f"{item.get('source', '')} ({item.get('kind', '')}): expected {item.get('expected')}, "
                f"got {item.get('got')}: “{item.get('sentence', '')}”"
            )
    total = finding.extra.get("evidence_total")
    shown = len(evidence) if isinstance(evidence, list) else 0
    if isinstance(total, int) and total > shown:
        yield f"… {total - shown} more evidence (see `rubric audit`)"


def _probe_lines(view: View, issue_id: str | None, surface: str) -> list[str]:
    fire = silent = 0
    for path in view.probes:
        source = view.yaml(path)
        for probe in well_formed_probes(source) if source is not None else ():
            if probe.criterion == issue_id and probe.surface == surface:
                if probe.expect_fire:
                    fire += 1
                else:
                    silent += 1
    if not fire + silent:
        return [f"**Probes**: none test the {surface} gates of `{issue_id}`."]
    return [f"**Probes** of the {surface} gates of `{issue_id}`: {fire} must fire, {silent} must stay silent."]


def stem_hover(view: View, target: Target) -> str:
    path = view.index.trajectories.get(target.text)
    where = _relative(view, path) if path is not None else "no such trajectory file"
    return f"**trajectory `{target.text}`** — {where}"


def hover(view: View, target: Target, url: str | None, audit: Sequence[Diagnostic] | None) -> str | None:
    if target.kind == "code":
        return code_hover(target, url)
    if target.kind == "citation":
        return citation_hover(view, target)
    if target.kind == "section":
        return heading_hover(view, target)
    if target.kind == "item":
        return item_hover(view, target)
    if target.kind == "gate":
        return gate_hover(view, target, audit)
    if target.kind == "stem":
        return stem_hover(view, target)
    return None
