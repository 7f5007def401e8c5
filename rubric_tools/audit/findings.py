"""What the audit reports: evidence, guard proposals, and the diagnostics they become."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubric_tools.diagnostics import Diagnostic, Fix, Severity, Span
from rubric_tools.gate_analysis.gate_firing import AuditedEntry


@dataclass(frozen=True)
class Evidence:
    """One text of known verdict and what the gate (or concept) did with it."""

    sentence: str
    source: str  # where it came from: "playbook §3", "frame", "dodge", "witness", ...
    kind: str  # document, hidden-answer, probe, reference-trajectory, witness, frame kind, dodge kind...
    expected: str  # "fire" | "silent" | "earned" | "not earned"
    got: str  # what happened: "fired 'pattern'", "silent", "earned", ...
    surface: str | None = None
    file: Path | None = None
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "sentence": self.sentence,
            "source": self.source,
            "kind": self.kind,
            "expected": self.expected,
            "got": self.got,
        }
        if self.surface is not None:
            record["surface"] = self.surface
        if self.file is not None:
            record["file"] = str(self.file)
        if self.line is not None:
            record["line"] = self.line
        return record


def each_sentence_once(evidence: list[Evidence]) -> list[Evidence]:
    """The evidence with each sentence shown once, where it first stands: two witnesses framed
    alike, or two synonyms rewriting a clause alike ("shall" and "will" both to "must"), write
    the same text, which says nothing more the second time."""
    seen: set[str] = set()
    kept = []
    for item in evidence:
        if item.sentence not in seen:
            seen.add(item.sentence)
            kept.append(item)
    return kept


@dataclass(frozen=True)
class Proposal:
    """A change of a gate entry (guard, widened pattern, or both) and the result of
    re-running the audit's texts with it."""

    change: dict[str, Any]  # the YAML keys to set on the gate entry
    description: str
    verified: bool  # safe, and it removes this finding
    removes_finding: bool
    lost_must_fire: tuple[str, ...] = ()
    new_false_positives: tuple[str, ...] = ()
    #: Dodge kinds no widening expresses (a clause split across sentences): left to the author.
    uncovered: tuple[str, ...] = ()
    #: Loses no catch and fires on no new correct work (it may fix this finding only in part).
    safe: bool = False
    before: dict[str, Any] | None = None  # the gate entry before and after, as mappings
    after: dict[str, Any] | None = None
    fixed: int = 0  # of this finding's texts, how many the change fixes
    total: int = 0
    steps: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "change": self.change,
            "description": self.description,
            "verified": self.verified,
            "removes_finding": self.removes_finding,
            "lost_must_fire": list(self.lost_must_fire),
            "new_false_positives": list(self.new_false_positives),
            "safe": self.safe,
            "fixed": self.fixed,
            "total": self.total,
            "steps": list(self.steps),
            "refused": _distinct_reasons(self.refused)[:5],
        }
        if self.before is not None:
            record["before"] = self.before
        if self.after is not None:
            record["after"] = self.after
        return record

    def describe(self) -> str:
        keys = ", ".join(_shown(k, v) for k, v in self.change.items())
        if self.uncovered and not (self.lost_must_fire or self.new_false_positives):
            return (
                f"tried ({keys}): accepts the other rewrites and keeps every must-fire text, but "
                f"{', '.join(self.uncovered)} needs another entry"
            )
        what = f"{'; '.join(self.steps)} ({keys})" if self.steps else f"({keys})"
        if self.verified:
            return f"proposed change: {what} — verified: removes the finding and keeps every must-fire text"
        if self.safe and self.fixed:
            return (
                f"proposed change: {what} — verified safe: keeps every must-fire text and fires on no "
                f"correct work; fixes {self.fixed} of {self.total} text(s)"
            )
        if not self.removes_finding and not self.lost_must_fire and not self.new_false_positives:
            return f"tried ({keys}): does not remove the finding" if keys else "no safe change found"
        lost = self.lost_must_fire[0] if self.lost_must_fire else self.new_false_positives[0]
        why = "loses must-fire text" if self.lost_must_fire else "fires on correct work"
        return f"tried ({keys}): NOT verified, it {why} {lost!r}"


#: Values longer than this are named, not shown, in the one-line description (the JSON
#: `change` and the paste-ready entry of the text report carry them whole).
_SHOWN = 80


def _shown(key: str, value: object) -> str:
    text = _as_yaml(value)
    return f"{key}: {text}" if len(text) <= _SHOWN else f"{key}: <{len(text)} characters>"


def _as_yaml(value: object) -> str:
    """A value as the author would paste it into rubric.yaml: a pattern single-quoted with
    its backslashes as written (no Python escaping), a flag as `true`/`false`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return str(value)


@dataclass
class AuditFinding:
    """One verdict on one gate entry or concept, before it becomes a Diagnostic."""

    code: str
    message: str
    file: Path
    span: Span | None
    evidence: list[Evidence] = field(default_factory=list)
    proposal: Proposal | None = None
    subject: dict[str, Any] = field(default_factory=dict)  # issue, surface, entry/concept
    severity: Severity | None = None  # None: the code's declared severity
    fix: Fix | None = None  # a verified proposal written into the entry (issue 11): always unsafe

    @classmethod
    def on_entry(
        cls, code: str, entry: AuditedEntry, message: str, evidence: list[Evidence], severity: Severity | None = None
    ) -> AuditFinding:
        """A verdict on a gate entry, reported where the entry is written, about it."""
        where = entry.element.location
        return cls(code, message, where.file, where.span, evidence, subject=entry.subject(), severity=severity)

    def to_diagnostic(self, matter_id: str, max_evidence: int) -> Diagnostic:
        from rubric_tools.audit.codes import code_info

        name, severity = code_info(self.code)
        hint = self.proposal.describe() if self.proposal is not None else None
        extra: dict[str, object] = {
            "evidence": [e.to_json() for e in self.evidence[:max_evidence]],
            "evidence_total": len(self.evidence),
            "subject": self.subject,
        }
        if self.proposal is not None:
            extra["proposal"] = self.proposal.to_json()
        return Diagnostic(
            code=self.code,
            name=name,
            severity=self.severity or severity,
            message=self.message,
            file=self.file,
            span=self.span,
            fix_hint=hint,
            matter=matter_id,
            extra=extra,
            fix=self.fix,
        )


def _distinct_reasons(refusals: tuple[str, ...]) -> list[str]:
    """The first refusal of each reason ("<option>: <why>"): many scoped exclusions fail for
    the same text, and the few shown should each say something new."""
    seen: set[str] = set()
    kept = []
    for refusal in refusals:
        reason = refusal.partition(": ")[2]
        if reason not in seen:
            seen.add(reason)
            kept.append(refusal)
    return kept
