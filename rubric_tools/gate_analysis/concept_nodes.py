"""Concept strings of a matter, where they are, and whether any agent text can contain one.

Concepts are matched as substrings of the normalized text (`rubric_tools.scoring.text`),
so a concept written as a regex, or holding a control character, can never be earned.
Shared by lint rule U005 and `rubric audit`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from rubric_tools.catalogue import declare_rule_code
from rubric_tools.diagnostics import Severity
from rubric_tools.loading.elements import Location, VariantElement
from rubric_tools.loading.matter import MatterSource
from rubric_tools.loading.yaml_source import InstancePath
from rubric_tools.scoring.text import normalize

#: Lint rule U005 (`rubric_tools.lint.rules.audit`) and `rubric audit` report it alike.
CONCEPT_NEVER_EARNABLE = declare_rule_code("U005", "concept-never-earnable", Severity.ERROR)

#: Regex syntax that no agent writes in prose: escapes, wildcards, groups, classes, alternation.
_REGEX_SYNTAX = re.compile(r"\\[sSdDwWbB.()\[\]|?*+]|\.[*+?]|\(\?[:=!<]|\[[^\]\s]+\][*+?]?|(?<=\w)\|(?=\w)|[*+]\)")
_ISSUE_SURFACES = {"required_concepts": "issue", "redline_concepts": "redline", "settlement_concepts": "settlement"}


@dataclass(frozen=True)
class ConceptNode:
    """One concept string as written, where it is, and the surface that rewards it."""

    location: Location
    text: str
    field: str  # "issue data_training required_concepts", "question q_x concepts", ...
    surface: str | None = None  # the gate surface whose text earns it, for issue concepts
    issue_id: str | None = None

    @property
    def file_name(self) -> str:
        return self.location.file_name

    @property
    def path(self) -> InstancePath:
        return self.location.path

    @property
    def normalized(self) -> str:
        return normalize(self.text)


def _concept_list(
    variant: VariantElement | None, label: str, surface: str | None = None, issue_id: str | None = None
) -> Iterator[ConceptNode]:
    """The string concepts of a variant (others are the schema rules' business)."""
    for concept in variant.concepts if variant is not None else ():
        if concept.is_text:
            yield ConceptNode(concept.location, concept.text, label, surface, issue_id)


def concept_nodes(source: MatterSource) -> Iterator[ConceptNode]:
    """Every concept string of the rubric and the counterparty script."""
    model = source.model
    for item in (*model.questions, *model.escalations):
        label = f"{item.kind} {item.id}"
        yield from _concept_list(item.concepts, f"{label} concepts")
        for alias in item.aliases:
            yield from _concept_list(alias, f"{label} aliases")
    for issue in model.issues:
        issue_id = str(issue.id)  # "None" for an issue without one, as it is shown
        for key, surface in _ISSUE_SURFACES.items():
            yield from _concept_list(issue.concepts(surface), f"issue {issue_id} {key}", surface, issue_id)
    yield from _concept_list(model.final_submission.required_concepts, "final_submission required_concepts")
    for position in model.positions:
        for variant in position.accept_concepts:
            label = f"counterparty {position.issue_id} accept_concepts"
            yield from _concept_list(variant, label, "settlement", position.issue_id)


def never_earnable(node: ConceptNode) -> str | None:
    """Why no agent text can contain the concept, or None."""
    syntax = _REGEX_SYNTAX.search(node.text)
    if syntax:
        return (
            f"it is written as a regex (`{syntax.group(0)}`), but concepts are literal substrings: "
            f"only a text containing those very characters earns it"
        )
    control = next((c for c in node.normalized if unicodedata.category(c) == "Cc"), None)
    if control is not None:
        return f"it contains the control character U+{ord(control):04X}, which no agent text contains"
    return None


def never_earnable_message(node: ConceptNode, reason: str) -> str:
    """U005's message, for the lint rule and `rubric audit` alike."""
    return f"concept {node.text!r} ({node.field}) can never be earned: {reason}"
