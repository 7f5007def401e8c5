"""Small matters written for the audit tests: the rule-case base matter with one gate
list, one document section or one concept list swapped in."""

from __future__ import annotations

import shutil
from pathlib import Path

from rubric_tools.audit.runner import audit_source
from rubric_tools.checking.audit_inputs import audit_inputs
from rubric_tools.config.audit import AuditSection
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.loading.matter import load_matter_source

BASE_MATTER = Path(__file__).parent / "rule_cases" / "_base"

RUBRIC_HEAD = """\
critical_failure_score_cap: 0.25
questions:
  - id: q_backup_region
    concepts: ["backup", "region"]
escalations:
  - id: esc_uptime_credit
    concepts: ["service credit"]
issues:
  - id: uptime_credit
    anchor: "hosting §3.1"
    severity: medium
    required_citations: ["hosting §3.1", "guide §2"]
"""
DEFAULT_CONCEPTS = """\
    required_concepts: ["service credit", "99.9"]
    redline_concepts: ["service credit"]
    settlement_concepts: ["service credit"]
"""
GUIDE_HEAD = "# Customer Contracting Guide\n\n## 2 Availability\n\n"


def make_matter(
    root: Path,
    gates: str = "",
    *,
    concepts: str = DEFAULT_CONCEPTS,
    guide: str = "Every hosting contract must pair the availability target with a service credit.",
    files: dict[str, str] | None = None,
) -> Path:
    """A matter at `root`: `gates` is YAML for the issue's gate lists (4-space indented keys)."""
    shutil.copytree(BASE_MATTER, root)
    (root / "rubric.yaml").write_text(RUBRIC_HEAD + concepts + gates, encoding="utf-8")
    (root / "documents" / "guide.md").write_text(GUIDE_HEAD + guide + "\n", encoding="utf-8")
    for name, text in (files or {}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def audit(root: Path, settings: AuditSection | None = None) -> list[Diagnostic]:
    source = load_matter_source(root)
    assert source.ok, [d.message for d in source.diagnostics]
    return audit_source(source, settings or AuditSection(), audit_inputs(root))


def codes(diagnostics: list[Diagnostic], code: str) -> list[Diagnostic]:
    return [d for d in diagnostics if d.code == code]


#: A gate list whose one entry misses paraphrases ("are void", "uptime duties") but already
#: has its author's guards: a negation guard and an exclusion of the ways correct work
#: disowns a sin (a negator outside the engine's list, a rejection, a supposition, the
#: counterparty's draft). Those guards also silence the frames of a widened pattern's new
#: witnesses, so the audit can widen it within its size budgets.
GUARDED_GATES = (
    "    critical_failure_patterns:\n      - pattern: 'uptime commitments are unenforceable'\n"
    "        negation_guard: true\n"
    "        exclude_context: "
    "'\\b(?:nobody|reject\\w*|declin\\w*|if|says|argues|draft|markup|propos\\w*|claims?|wrong)\\b'\n"
)
