"""Documents under review (A008): an issue is anchored on the agreement the agent reviews.

The manifest says which documents are under review: each document's title and id say
what it is (an agreement, an addendum, a markup; or the supervising lawyer's
instructions, the client's playbook or policy, a memorandum of background facts), and
the assignment names what the agent reviews or responds to ("Review the MSA and DPA
against the playbook", "Respond to the customer's markup memorandum"). The scoring
contract credits an issue by its anchor, the operative provision: a clause of the
agreement under review, never the standard it is measured against.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from rubric_tools.diagnostics import Severity
from rubric_tools.fixing.fixes import Applicability, Fix
from rubric_tools.fixing.yaml_edits import replace_string
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.loading.elements import DocumentElement, IssueElement, TextElement
from rubric_tools.loading.layout import MATTER_FILE
from rubric_tools.scoring.sections import PREAMBLE_TOKEN
from rubric_tools.scoring.text import format_citation, normalize, split_citation


class Role(Enum):
    """What a document is to the agent, from the manifest."""

    INSTRUCTIONS = "the supervising lawyer's instructions"
    STANDARD = "the client's own standard (playbook, policy, mandate)"
    BACKGROUND = "background or reference material"
    UNDER_REVIEW = "under review"
    UNKNOWN = "unknown"


def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b", re.IGNORECASE)


#: Title or id words, strongest first: a "Licensing Policy" is the client's standard, a
#: "Markup Memorandum" is the counterparty's paper.
_ROLE_WORDS: tuple[tuple[Role, re.Pattern[str]], ...] = (
    (Role.INSTRUCTIONS, _words(r"instructions?", r"briefing", r"brief to counsel")),
    (
        Role.STANDARD,
        _words(
            r"playbooks?",
            r"guides?",
            r"polic(?:y|ies)",
            r"guidelines?",
            r"mandate",
            r"checklists?",
            r"handbook",
            r"manual",
            r"house positions?",
            r"negotiation positions?",
            r"fallback positions?",
        ),
    ),
    (
        Role.UNDER_REVIEW,
        _words(
            r"agreements?",
            r"contracts?",
            r"addend(?:um|a)",
            r"amendments?",
            r"exhibits?",
            r"schedules?",
            r"annex(?:es)?",
            r"appendix",
            r"order forms?",
            r"statements? of work",
            r"sow",
            r"terms",
            r"terms and conditions",
            r"licen[cs]es?",
            r"leases?",
            r"msa",
            r"dpa",
            r"sla",
            r"nda",
            r"markups?",
            r"redlines?",
            r"riders?",
            r"deeds?",
            r"indentures?",
            r"warrants?",
            r"notes? purchase",
            r"term sheet",
        ),
    ),
    (
        Role.BACKGROUND,
        _words(
            r"memo(?:randum|randa)?",
            r"notes?",
            r"background",
            r"reference",
            r"diligence",
            r"report",
            r"summary",
            r"emails?",
            r"correspondence",
            r"faq",
            r"primer",
            r"minutes",
            r"research",
        ),
    ),
)
#: The assignment's verbs whose object is the paper under review.
_REVIEW_VERBS = r"(?:review|respond to|responding to|mark up|comment on|negotiate|analy[sz]e|redline|assess)"


#: Words that end the object of a review verb: "review the MSA *against* the playbook".
_OBJECT_ENDS = r"(?:against|for|with|under|using|in light of|together)\b"


def role_of(document: DocumentElement) -> Role:
    """The document's role, from its title and id as written in the manifest."""
    title = document.written_text("title") or ""
    named = f"{title} {document.id.replace('_', ' ')}"
    for role, words in _ROLE_WORDS:
        if words.search(named):
            return role
    return Role.UNKNOWN


def _named_for_review(assignment: str, document: DocumentElement) -> bool:
    """Whether the assignment makes the document the object of a review verb
    ("Respond to the customer's markup memorandum")."""
    title = document.written_text("title") or ""
    names = {document.id.replace("_", " ").lower()}
    names |= {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]{3,}", title)}
    names -= {"with", "from", "supervising", "lawyer", "client", "customer", "provider"}
    for name in names:
        pattern = rf"\b{_REVIEW_VERBS}\s+(?:(?!{_OBJECT_ENDS})[\w'’-]+\s+){{0,5}}?{re.escape(name)}\b"
        if re.search(pattern, assignment, re.IGNORECASE):
            return True
    return False


@dataclass(frozen=True)
class ReviewScope:
    """Which documents of a matter are under review, and which are not."""

    roles: dict[str, Role]

    @property
    def under_review(self) -> list[str]:
        return [doc_id for doc_id, role in self.roles.items() if role is Role.UNDER_REVIEW]

    def outside(self, document_id: str) -> Role | None:
        """The role of a document the agent is not reviewing; None when it is (or may be) reviewed."""
        role = self.roles.get(document_id)
        return role if role in (Role.INSTRUCTIONS, Role.STANDARD, Role.BACKGROUND) else None


def review_scope(ctx: LintContext) -> ReviewScope:
    written = ctx.model.file(MATTER_FILE).field("assignment")
    assignment = str(written.value) if written is not None and written.value is not None else ""
    roles: dict[str, Role] = {}
    for document in ctx.model.documents:
        role = role_of(document)
        # Instructions and the client's own standard are what the paper is reviewed against;
        # a memorandum or an unnamed document is under review when the assignment says so.
        if role in (Role.BACKGROUND, Role.UNKNOWN) and _named_for_review(assignment, document):
            role = Role.UNDER_REVIEW
        roles.setdefault(document.id, role)
    return ReviewScope(roles)


def _operative_candidate(ctx: LintContext, issue: IssueElement, scope: ReviewScope) -> str | None:
    """The provision of a reviewed document the issue most likely means: a required
    citation into one, else the one section whose text holds most of the issue's concepts."""
    for entry in issue.required_citations or ():
        parts = split_citation(entry.text)
        if parts is not None and parts[0] in scope.under_review and _section_text(ctx, *parts) is not None:
            return format_citation(*parts)
    variants = (issue.required_concepts, issue.redline_concepts)
    concepts = [c for variant in variants if variant is not None for c in variant.normalized if c]
    if not concepts:
        return None
    scored: list[tuple[int, str]] = []
    for document in ctx.model.documents:
        if document.id not in scope.under_review or document.source.parsed is None:
            continue
        for token, text in document.source.parsed.sections.items():
            if token != PREAMBLE_TOKEN:
                hits = sum(concept in normalize(text) for concept in concepts)
                scored.append((hits, format_citation(document.id, token)))
    scored.sort(reverse=True)
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def _section_text(ctx: LintContext, document_id: str, token: str) -> str | None:
    for document in ctx.model.documents:
        if document.id == document_id and document.source.parsed is not None:
            return document.source.parsed.sections.get(token)
    return None


def _checked_citations(issue: IssueElement) -> Iterator[tuple[str, TextElement]]:
    """The anchor, and the first required citation when it is not the anchor."""
    if issue.anchor is not None:
        yield "anchor", issue.anchor
    first = (issue.required_citations or (None,))[0]
    if first is not None and (issue.anchor is None or first.text.strip() != issue.anchor.text.strip()):
        yield "first required citation", first


@rule("A008", "anchor-outside-review", Severity.ERROR, fixable=True)
def anchor_outside_review(ctx: LintContext) -> Iterator[Finding]:
    """An issue is anchored in a document the agent is not reviewing.

    What it catches: an issue whose `anchor` (or first `required_citations` entry)
    points into the supervising lawyer's instructions, the client's playbook,
    policy or mandate, or a memorandum of background facts, while the matter has an
    agreement under review. The manifest says which is which: each document's title
    and id (an agreement, addendum, exhibit, order form, license, markup; or
    instructions, a playbook, a policy, a memorandum), and the assignment, which
    makes a document under review when it is the object of "review", "respond to"
    or "mark up" ("Respond to the customer's markup memorandum"). When exactly one
    provision of a reviewed document is what the issue means — one of its
    `required_citations`, else the one section holding most of its concepts — the
    (unsafe) fix makes it the anchor.

    Why it matters: the scoring contract credits an issue by its anchor, the
    operative provision, and tells agents to cite it first. An agent that finds the
    defect cites the clause of the agreement, matches nothing and is penalised as
    unsupported; only an agent that cites the playbook first scores. The playbook
    belongs in `required_citations`, after the anchor.

    Bad:

    ```yaml
    issues:
      - id: data_training
        anchor: "playbook §3"
        required_citations: ["playbook §3", "msa §4.2"]
    ```

    Good:

    ```yaml
    issues:
      - id: data_training
        anchor: "msa §4.2"
        required_citations: ["msa §4.2", "playbook §3"]
    ```
    """
    scope = review_scope(ctx)
    if not scope.under_review:
        return  # nothing is identifiably under review: no operative provision to point to
    for issue in ctx.model.issues:
        for role_name, citation in _checked_citations(issue):
            parts = split_citation(citation.text)
            role = scope.outside(parts[0]) if parts is not None else None
            if role is None or parts is None:
                continue
            candidate = _operative_candidate(ctx, issue, scope)
            reviewed = ", ".join(repr(d) for d in scope.under_review)
            hint = f"anchor the issue on the operative provision of {reviewed}"
            fix = None
            if candidate is not None and role_name == "anchor":
                hint = f"anchor the issue on {candidate!r}, and keep {citation.text!r} among required_citations"
                source = citation.location.source
                edit = replace_string(source, citation.location.path, candidate) if source is not None else None
                fix = Fix(f"anchor on {candidate!r}", (edit,), Applicability.UNSAFE) if edit is not None else None
            elif candidate is not None:
                hint = f"cite the operative provision {candidate!r} first"
            yield ctx.report(
                citation,
                f"the {role_name} of issue {issue.label!r}, {citation.text!r}, points into {parts[0]!r}, "
                f"{role.value}, not into the agreement under review ({reviewed})",
                hint=hint,
                fix=fix,
            )
            break  # one finding per issue: the first citation that strays
