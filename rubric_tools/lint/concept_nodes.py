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
from typing import Any

from rubric_tools.loading import build
from rubric_tools.loading.matter import COUNTERPARTY_FILE, RUBRIC_FILE, MatterSource
from rubric_tools.loading.yaml_source import InstancePath
from rubric_tools.scoring.text import normalize

#: Regex syntax that no agent writes in prose: escapes, wildcards, groups, classes, alternation.
_REGEX_SYNTAX = re.compile(r"\\[sSdDwWbB.()\[\]|?*+]|\.[*+?]|\(\?[:=!<]|\[[^\]\s]+\][*+?]?|(?<=\w)\|(?=\w)|[*+]\)")
_ISSUE_FIELDS = {"required_concepts": "issue", "redline_concepts": "redline", "settlement_concepts": "settlement"}


@dataclass(frozen=True)
class ConceptNode:
    """One concept string as written, where it is, and the surface that rewards it."""

    file_name: str
    path: InstancePath
    text: str
    field: str  # "issue data_training required_concepts", "question q_x concepts", ...
    surface: str | None = None  # the gate surface whose text earns it, for issue concepts
    issue_id: str | None = None

    @property
    def normalized(self) -> str:
        return normalize(self.text)


def _concept_list(
    file_name: str, base: InstancePath, value: Any, field: str, surface: str | None = None, issue_id: str | None = None
) -> Iterator[ConceptNode]:
    for index, concept in enumerate(build.as_list(value)):
        if isinstance(concept, str):
            yield ConceptNode(file_name, (*base, index), concept, field, surface, issue_id)


def concept_nodes(source: MatterSource) -> Iterator[ConceptNode]:
    """Every concept string of the rubric and the counterparty script."""
    rubric = build.as_mapping(source.data(RUBRIC_FILE))
    for kind in ("questions", "escalations"):
        for index, item in enumerate(build.as_list(rubric.get(kind))):
            item = build.as_mapping(item)
            label = f"{kind[:-1]} {item.get('id')}"
            yield from _concept_list(RUBRIC_FILE, (kind, index, "concepts"), item.get("concepts"), f"{label} concepts")
            for alias, variant in enumerate(build.as_list(item.get("aliases"))):
                yield from _concept_list(RUBRIC_FILE, (kind, index, "aliases", alias), variant, f"{label} aliases")
    for index, issue in enumerate(build.as_list(rubric.get("issues"))):
        issue = build.as_mapping(issue)
        issue_id = str(issue.get("id"))
        for key, surface in _ISSUE_FIELDS.items():
            yield from _concept_list(
                RUBRIC_FILE, ("issues", index, key), issue.get(key), f"issue {issue_id} {key}", surface, issue_id
            )
    final = build.as_mapping(rubric.get("final_submission"))
    yield from _concept_list(
        RUBRIC_FILE,
        ("final_submission", "required_concepts"),
        final.get("required_concepts"),
        "final_submission required_concepts",
    )
    positions = build.as_mapping(build.as_mapping(source.data(COUNTERPARTY_FILE)).get("positions"))
    for issue_id, position in positions.items():
        for variant_index, variant in enumerate(build.as_list(build.as_mapping(position).get("accept_concepts"))):
            yield from _concept_list(
                COUNTERPARTY_FILE,
                ("positions", issue_id, "accept_concepts", variant_index),
                variant,
                f"counterparty {issue_id} accept_concepts",
                "settlement",
                str(issue_id),
            )


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
