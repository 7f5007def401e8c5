"""Anchor and citation rules (A0xx): how rubric issues point into the documents.

Citations are parsed with the scorer's `split_citation` and resolved against the
sections the scorer's parser found, so "resolves" means what it means to the engine.
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.fixing.fixes import Applicability
from rubric_tools.lint.citation_fixes import citation_fix, did_you_mean_fix
from rubric_tools.lint.citations import (
    Citation,
    anchor_citations,
    did_you_mean,
    has_anchor,
    real_citations,
    required_citations,
    resolves,
    unloaded_document_ids,
)
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.scoring.sections import PREAMBLE_TOKEN
from rubric_tools.scoring.text import SECTION_SIGN, format_citation, split_citation


@rule("A001", "missing-anchor", Severity.ERROR)
def missing_anchor(ctx: LintContext) -> Iterator[Finding]:
    """A rubric issue has no anchor, so it can never be matched.

    What it catches: an entry of `issues` with no `anchor`, or an empty one.

    Why it matters: the engine credits a submitted issue to the rubric issue whose
    anchor the agent cites first. Without an anchor nothing can match, and every
    point of the issue (base, severity, citations, concepts, quotes, redline) is
    unreachable.

    When the schema rules run, an absent or null anchor is reported by S002
    (schema-required) or S001 (schema-type) instead, so it is reported once; a
    blank anchor is this rule's alone.

    Bad:

    ```yaml
    issues:
      - id: data_training
        severity: high
        required_citations: ["msa §4.2", "playbook §3"]
    ```

    Good:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
        severity: high
        required_citations: ["msa §4.2", "playbook §3"]
    ```
    """
    for issue in ctx.model.issues:
        if has_anchor(issue):
            continue
        hint = 'add `anchor: "<document id> §<section>"`, the operative provision'
        if not issue.has("anchor") and ctx.schema.reports_missing_at(issue.location, "anchor"):
            continue
        if ctx.schema.reported_at(issue.at("anchor"), "type"):
            continue
        if issue.has("anchor"):
            yield ctx.report(
                issue.at("anchor"),
                f"issue {issue.label!r} has an empty anchor: it can never be matched",
                hint=hint,
            )
        else:
            yield ctx.report(
                issue.at("id") if issue.has("id") else issue.location,
                f"issue {issue.label!r} has no anchor: it can never be matched",
                key=issue.has("id"),
                hint=hint,
            )


@rule("A002", "unresolved-citation", Severity.ERROR, fixable=True)
def unresolved_citation(ctx: LintContext) -> Iterator[Finding]:
    """An anchor or required citation does not name a real document section.

    What it catches: an `anchor` or `required_citations` entry that is not of the
    form `<document id> §<section token>`, names a document matter.yaml does not
    list, or a section token that document does not have (tokens are the first
    word of a `## ` heading, trailing dots removed: `## 10. Term` is `§10`).

    Why it matters: an unresolvable anchor can never match, so the issue's points
    are unreachable; an unresolvable required citation can never be cited validly,
    so the citation points are unreachable.

    Bad:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2."
        required_citations: ["msa §4.2.", "playbok §3"]
    ```

    Good:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
        required_citations: ["msa §4.2", "playbook §3"]
    ```
    """
    unloaded = unloaded_document_ids(ctx)
    for citation in (*anchor_citations(ctx), *required_citations(ctx)):
        parts = citation.parts
        if parts is not None and (parts[0] in unloaded or resolves(ctx, parts)):
            continue
        if parts is None:
            problem = f"has no '{SECTION_SIGN}', so it is not a citation"
            candidates = real_citations(ctx)
        elif parts[0] not in ctx.matter.documents:
            problem = f"names document {parts[0]!r}, which matter.yaml does not list"
            candidates = real_citations(ctx)
        else:
            problem = f"names section {parts[1]!r}, which document {parts[0]!r} does not have"
            candidates = real_citations(ctx, parts[0])
        consequence = (
            "the issue can never be matched" if citation.role == "anchor" else "the citation points can never be earned"
        )
        yield ctx.report(
            citation.location,
            f"{citation.role} {citation.text!r} of issue {citation.issue_id!r} {problem}: {consequence}",
            hint=did_you_mean(citation.text, candidates),
            fix=did_you_mean_fix(ctx, citation, candidates),
        )


@rule("A003", "shared-anchor", Severity.ERROR)
def shared_anchor(ctx: LintContext) -> Iterator[Finding]:
    """Two rubric issues share an anchor; only the first can ever be matched.

    What it catches: an issue whose `anchor` string is identical to an earlier
    issue's.

    Why it matters: the engine maps each anchor to one issue, the first one
    listed. A submission citing the shared anchor always credits the first issue
    (the second attempt is a duplicate), so every point of the later issue is
    unreachable.

    Bad:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
      - id: data_retention
        anchor: "msa §4.2"
    ```

    Good:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
      - id: data_retention
        anchor: "msa §4.4"       # each issue anchored on its own operative provision
    ```
    """
    first: dict[str, Citation] = {}
    for citation in anchor_citations(ctx):
        earlier = first.setdefault(citation.text, citation)
        if earlier is citation:
            continue
        span = earlier.location.span
        yield ctx.report(
            citation.location,
            f"anchor {citation.text!r} of issue {citation.issue_id!r} is already the anchor of "
            f"issue {earlier.issue_id!r} (line {span.line if span else '?'}): only that issue "
            "can ever match",
            hint="anchor each issue on its own operative provision, or merge the two issues",
        )


@rule("A004", "anchor-not-required", Severity.WARNING)
def anchor_not_required(ctx: LintContext) -> Iterator[Finding]:
    """An issue's anchor is missing from its own `required_citations`.

    What it catches: an issue with a `required_citations` list that does not
    contain its anchor (compared by document and section, so a spelling problem is
    left to A005 and A007).

    Why it matters: the convention is that required citations list the operative
    provision first, then the supporting ones. A list that leaves the anchor out
    usually means one of the two was edited and the other was not (anchor `msa
    §4.2`, required `msa §4.3`), so the citation component is testing a different
    provision from the one the issue is matched on.

    Bad:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
        required_citations: ["msa §4.3", "playbook §3"]
    ```

    Good:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
        required_citations: ["msa §4.2", "playbook §3"]
    ```
    """
    for issue in ctx.model.issues:
        required = [entry.text for entry in issue.required_citations or ()]
        if issue.required_citations is None or issue.anchor is None or not issue.anchor.is_text:
            continue
        anchor = issue.anchor.text
        anchor_parts = split_citation(anchor)
        if anchor_parts is None:
            continue  # not a citation at all: A002
        if any(split_citation(entry) == anchor_parts for entry in required):
            continue
        same_document = [e for e in required if (split_citation(e) or ("",))[0] == anchor_parts[0]]
        hint = f"add {format_citation(*anchor_parts)!r} as the first required citation"
        if same_document:
            hint += f", or check whether {same_document[0]!r} was meant to be the anchor"
        yield ctx.report(
            issue.at("required_citations"),
            f"required_citations of issue {issue.label!r} do not include its anchor {anchor!r}",
            key=True,
            hint=hint,
        )


@rule("A005", "non-canonical-anchor", Severity.ERROR, fixable=True)
def non_canonical_anchor(ctx: LintContext) -> Iterator[Finding]:
    """An anchor resolves but is not written exactly `<doc> §<token>`.

    What it catches: an anchor with extra or missing spaces around the `§`, or
    leading/trailing spaces: `msa§4.2`, `msa § 4.2`, `msa  §4.2`.

    Why it matters: the engine compares the agent's citation with the anchor as a
    plain string, and records reads in the canonical form `msa §4.2`. A correct,
    canonical citation therefore never matches a non-canonical anchor (and the
    anchor never counts as read), so the issue's points are unreachable.

    Bad:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa § 4.2"
    ```

    Good:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
    ```
    """
    yield from _non_canonical(ctx, anchor_citations(ctx), "the issue can never be matched by a correct citation")


@rule("A006", "anchor-on-preamble", Severity.WARNING)
def anchor_on_preamble(ctx: LintContext) -> Iterator[Finding]:
    """An anchor points at `§full`, which is only the document's preamble.

    What it catches: an anchor whose section token is `full`.

    Why it matters: `full` is the text before the first `## ` heading (title,
    parties, recitals), not the whole document. An agent citing the operative
    clause by its number never matches, and quotes from the body of the document
    do not verify against `§full`.

    Bad:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §full"
    ```

    Good:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
    ```
    """
    for citation in anchor_citations(ctx):
        parts = citation.parts
        if parts is None or parts[1] != PREAMBLE_TOKEN:
            continue
        document = ctx.matter.documents.get(parts[0])
        tokens = [t for t in document.sections if t != PREAMBLE_TOKEN] if document else []
        hint = (
            f"anchor the issue on the operative section, e.g. one of "
            f"{', '.join(format_citation(parts[0], t) for t in tokens[:4])}"
            if tokens
            else "give the document '## ' section headings and anchor on one of them"
        )
        yield ctx.report(
            citation.location,
            f"anchor {citation.text!r} of issue {citation.issue_id!r} is the document's preamble, "
            "the text before its first heading, not the whole document",
            hint=hint,
        )


@rule("A007", "non-canonical-citation", Severity.ERROR, fixable=True)
def non_canonical_citation(ctx: LintContext) -> Iterator[Finding]:
    """A required citation resolves but is not written exactly `<doc> §<token>`.

    What it catches: a `required_citations` entry such as `playbook§3` or
    `playbook § 3` that names a real section in a non-canonical spelling.

    Why it matters: the engine checks each required citation by exact string
    comparison with the citations the agent submitted. An agent citing the
    section correctly (`playbook §3`) never supplies the odd spelling, so the
    citation points are unreachable.

    Bad:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
        required_citations: ["msa §4.2", "playbook § 3"]
    ```

    Good:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
        required_citations: ["msa §4.2", "playbook §3"]
    ```
    """
    yield from _non_canonical(ctx, required_citations(ctx), "a correct citation never earns the citation points")


def _non_canonical(ctx: LintContext, citations: Iterator[Citation], consequence: str) -> Iterator[Finding]:
    for citation in citations:
        parts = citation.parts
        if parts is None or not resolves(ctx, parts):
            continue  # unresolvable: A002
        canonical = format_citation(*parts)
        if citation.text == canonical:
            continue
        yield ctx.report(
            citation.location,
            f"{citation.role} {citation.text!r} of issue {citation.issue_id!r} is not written "
            f"canonically: {consequence}",
            hint=f"write it exactly {canonical!r}",
            fix=citation_fix(ctx, citation, canonical, f"write {canonical!r}", Applicability.SAFE),
        )
