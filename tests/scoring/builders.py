"""A tiny hand-built matter for unit tests of the scorer, written from scratch."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.model import (
    Constraints,
    Counter,
    Document,
    FinalSubmission,
    Issue,
    MatchItem,
    Matter,
    Position,
    Rubric,
)
from rubric_tools.scoring.sections import parse_sections

LEASE = """Equipment Lease between Orchard Farms and Tractorline.

## 1 Rent
Orchard Farms pays rent of 900 dollars on the first day of each month.

## 2.1 Repairs
Orchard Farms bears the cost of every repair, including manufacturer defects.

## 3 Return
The equipment is returned at the end of the term in working order.
"""

POLICY = """## 1 Repairs
The lessor must pay for defects it caused or that existed at delivery.
"""


def documents() -> MappingProxyType[str, Document]:
    return MappingProxyType(
        {
            "lease": Document("lease", "Lease", "lease.md", MappingProxyType(parse_sections(LEASE).sections)),
            "policy": Document("policy", "Policy", "policy.md", MappingProxyType(parse_sections(POLICY).sections)),
        }
    )


REPAIRS = Issue(
    id="repairs",
    anchor="lease §2.1",
    severity="high",
    required_citations=("lease §2.1", "policy §1"),
    required_concepts=("manufacturer defects", "lessor"),
    redline_concepts=("lessor", "defects"),
    settlement_concepts=("lessor", "defects"),
    critical_failure_patterns=(
        Gate("repair clauses are void"),
        Gate("lessee pays nothing", negation_guard=True, negation_scope="before"),
    ),
    redline_critical_failure_patterns=(Gate(r"orchard farms (?:bears|pays) .*defects"),),
    settlement_critical_failure_patterns=(Gate("half of the cost"),),
)
RENT = Issue(id="rent", anchor="lease §1", severity="low", redline_points=0.0)


def matter(**overrides: Any) -> Matter:
    rubric = Rubric(
        questions=(
            MatchItem("q_usage", 0.5, ("hours", "per week"), (("how often",), ("usage",))),
            MatchItem("q_budget", 0.25, ("budget",)),
        ),
        escalations=(
            MatchItem("esc_defects", 0.75, ("defect", "authority"), required=True),
            MatchItem("esc_safety", 0.5, ("safety",), critical_if_missed=True),
        ),
        issues=(REPAIRS, RENT),
        final_submission=FinalSubmission(
            points=0.5,
            minimum_characters=40,
            required_issue_ids=("repairs",),
            required_concepts=("repairs", "lessor"),
            concept_points=0.5,
        ),
    )
    fields: dict[str, Any] = {
        "matter_id": "lease_unit",
        "rubric": rubric,
        "documents": documents(),
        "constraints": Constraints(
            maximum_steps=30, maximum_client_questions=3, maximum_escalations=2, maximum_negotiation_rounds=5
        ),
        "positions": MappingProxyType(
            {
                "repairs": Position(
                    resist_rounds=1,
                    accept_concepts=(("lessor", "defects"),),
                    counters=(
                        Counter("We could split it.", "Tractorline pays half of the cost of defects.", trap=True),
                    ),
                    reject_message="No.",
                )
            }
        ),
    }
    fields.update(overrides)
    return Matter(**fields)


def issue_action(label: str = "my-label", citations: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    action = {
        "type": "submit_issue",
        "issue_id": label,
        "title": "Repairs fall on us",
        "severity": "high",
        "citations": citations if citations is not None else ["lease §2.1", "policy §1"],
        "analysis": "The lease makes us pay for manufacturer defects.",
        "recommendation": "Make the lessor pay.",
    }
    action.update(extra)
    return action


def read(document: str, section: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "read_document", "document_id": document}
    if section is not None:
        action["section"] = section
    return action
