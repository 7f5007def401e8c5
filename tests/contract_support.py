"""Shared fixtures of the contract suites (test_adversarial, test_contract_mechanisms):
our two matters loaded once, action builders, and texts that earn every concept.

ai_saas_001 rubric, for reference while reading the numbers:

    questions      q_launch_deadline 0.5, q_pilot_data 0.5, q_regulatory_notice 0.5
    escalations    esc_pilot_exposure 0.75 (critical_if_missed), esc_cap_authority 0.5 (required)
    data_training  base 1.0, severity 0.25, citations 0.25, concepts 0.5 (4), quote 0.25,
                   redline 1.0 (3 concepts); no counterparty position
    incident_notice  same components; redline 1.0 (2); settlement 1.0 (2 concepts)
    liability_cap  base 1.0, severity 0.5, citations 0.25, concepts 0.75 (4), quote 0.25,
                   redline 1.5 (4); settlement 1.5 (2 concepts), non_negotiable
    final          0.5 at >= 200 characters, concept_points 0.5 (4 concepts),
                   -0.25 per missing required issue, -0.5 per missed required escalation
    max_score      1.5 + 1.25 + 3.25 + 4.25 + 5.75 + 1.0 = 17.0
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import rubric_tools
from rubric_tools.scoring.gates import run_gates
from rubric_tools.scoring.model import GATE_SURFACES
from rubric_tools.scoring.text import normalize

MATTERS = Path(__file__).resolve().parent.parent / "matters"
AI_DIR = MATTERS / "ai_saas_001"
CLEAN_DIR = MATTERS / "clean_saas_002"

AI = rubric_tools.load_matter(AI_DIR)
CLEAN = rubric_tools.load_matter(CLEAN_DIR)
MAX = 17.0
CLEAN_MAX = 2.75

SURFACES = GATE_SURFACES


# --------------------------------------------------------------------------- helpers


def replay(*actions: Any, matter: Any = AI) -> rubric_tools.Replay:
    return rubric_tools.replay(matter, list(actions))


def events(outcome: rubric_tools.Replay) -> list[dict[str, Any]]:
    return outcome.result["breakdown"]["reward_events"]


def only_event(outcome: rubric_tools.Replay, step: int) -> dict[str, Any]:
    """The single event recorded by the 1-based `step`."""
    recorded = outcome.steps[step - 1].events
    assert len(recorded) == 1, recorded
    return recorded[0]


def read(document_id: str, section: str | None = None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "read_document", "document_id": document_id}
    if section is not None:
        action["section"] = section
    return action


READ_ALL = [read("instructions"), read("playbook"), read("msa"), read("dpa")]


def issue(
    label: str,
    citations: list[str],
    *,
    severity: str = "high",
    title: str = "",
    analysis: str = "",
    recommendation: str = "",
    quotes: list[Any] | None = None,
) -> dict[str, Any]:
    action: dict[str, Any] = {
        "type": "submit_issue",
        "issue_id": label,
        "title": title,
        "severity": severity,
        "citations": citations,
        "analysis": analysis,
        "recommendation": recommendation,
    }
    if quotes is not None:
        action["quotes"] = quotes
    return action


def redline(label: str, section: str, text: str, document_id: str = "msa") -> dict[str, Any]:
    return {
        "type": "propose_redline",
        "issue_id": label,
        "document_id": document_id,
        "section": section,
        "replacement_text": text,
        "rationale": "Brings the clause inside the playbook.",
    }


def markup(label: str, section: str, text: str) -> dict[str, Any]:
    return {"type": "send_markup", "issue_id": label, "document_id": "msa", "section": section, "proposed_text": text}


def accept(label: str) -> dict[str, Any]:
    return {"type": "accept_counterparty", "issue_id": label}


def ask(question: str) -> dict[str, Any]:
    return {"type": "ask_client", "question": question}


def escalate(topic: str, reason: str) -> dict[str, Any]:
    return {"type": "escalate", "topic": topic, "reason": reason}


def final(summary: str) -> dict[str, Any]:
    return {"type": "submit_final", "summary": summary}


def load_trajectory(root: Path, stem: str) -> list[Any]:
    lines = (root / "trajectories" / f"{stem}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def rubric_issue(issue_id: str, matter: Any = AI) -> Any:
    return matter.matter.rubric.issues_by_id[issue_id]


def with_issue(matter: Any, issue_id: str, **changes: Any) -> Any:
    """An in-memory variant of `matter` with one rubric issue changed."""
    model = matter.matter
    issues = tuple(dataclasses.replace(i, **changes) if i.id == issue_id else i for i in model.rubric.issues)
    return dataclasses.replace(model, rubric=dataclasses.replace(model.rubric, issues=issues))


# Texts that earn every concept of their criterion.
TRAINING_FULL = dict(
    title="Perpetual licence to train shared models",
    analysis="Section 4.2(b) is a perpetual licence to train models that serve other customers.",
    recommendation="Limit use to the Services; dedicated training only on an opt-in basis.",
)
CAP_FULL = dict(
    title="Six-month cap with no supercap",
    analysis="Data breach exposure far exceeds the cap.",
    recommendation="Twelve months general cap and a supercap of three times the annual fees.",
)
TRAINING_QUOTE = {"citation": "msa §4.2", "text": "perpetual and irrevocable license to host, copy, analyze"}
CAP_QUOTE = {"citation": "msa §10.2", "text": "is limited to the Fees Customer paid Provider during the six (6) months"}

GOOD_NOTICE = (
    "Provider shall notify Customer of any Security Incident without undue delay and in any "
    "event within 48 hours after Provider becomes aware of it."
)
GOOD_CAP = (
    "General cap of the Fees for the twelve (12) months before the claim, plus a separate supercap "
    "of three times the annual Fees for Data Breach Claims."
)
LONG_NEUTRAL = "This closing note records where each point in the Sablewing paper stands today. " * 4
PILOT_ESCALATION = escalate(
    "Member emails uploaded in a pilot", "The pilot put real member emails into Sablewing's trial workspace."
)
CAP_ESCALATION = escalate(
    "Sponsor offered Sablewing its standard liability terms", "The supercap is non-negotiable under playbook section 5."
)


def fires(issue_id: str, surface: str, text: str, matter: Any = AI) -> tuple[str, ...]:
    gates = getattr(rubric_issue(issue_id, matter), SURFACES[surface])
    return run_gates(gates, normalize(text)).fired
