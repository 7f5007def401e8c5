"""Verdicts on gates: never fires (U001), fires on correct work (U002), fires on a
negated frame (U003), dodged (U004). One finding per gate entry per verdict, at the
entry's YAML node, with its evidence and a verified guard proposal where one exists.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from rubric_tools.audit.codes import GATE_DODGED, GATE_FIRES_ON_CORRECT_WORK, GATE_FIRES_ON_NEGATED_FRAME
from rubric_tools.audit.corpus import KnownText
from rubric_tools.audit.dodges import dodges
from rubric_tools.audit.findings import AuditFinding, Evidence
from rubric_tools.audit.frames import FRAMES
from rubric_tools.audit.guards import ListTexts, propose_for_dodges, propose_for_false_positive
from rubric_tools.diagnostics import Fix, Severity
from rubric_tools.fixing.gate_edits import guard_fix
from rubric_tools.gate_analysis.alternatives import alternative_patterns
from rubric_tools.gate_analysis.gate_firing import (
    AUDIT_SEARCH_TIMEOUT,
    GATE_NEVER_FIRES,
    AuditedEntry,
    FireText,
    GateList,
    fire_texts,
    fires,
    gate_lists,
    list_fires,
    matched_sentence,
    never_fires_message,
    never_fires_reason,
)
from rubric_tools.loading.matter import RUBRIC_FILE, MatterSource
from rubric_tools.scoring.gates import GateError, compile_pattern
from rubric_tools.scoring.text import show_pattern, split_citation

#: Witnesses per entry that are framed and rewritten (the typical one first).
FRAMED_WITNESSES = 3
#: The dodges tried on the witness with every optional part written out ("customer's").
_SPELLING_DODGES = ("typographic", "hyphen", "space to hyphen")


def never_fires_findings(source: MatterSource) -> Iterator[AuditFinding]:
    """U001 for every entry that no text can trip (also lint rule U001)."""
    for gate_list in gate_lists(source.model):
        for entry in gate_list.entries:
            reason = never_fires_reason(entry.gate)
            if reason is None:
                yield from _dead_alternatives(entry)
                continue
            message, tried = reason
            evidence = [
                Evidence(text, "synthesized from the pattern", "witness", "fire", "silent", entry.surface)
                for text in tried
            ]
            yield AuditFinding(
                GATE_NEVER_FIRES.code,
                never_fires_message(entry, message),
                entry.element.location.file,
                entry.element.location.span,
                evidence,
                subject=entry.subject(),
            )


def _first_match(pattern: str, text: str) -> str | None:
    try:
        match = compile_pattern(pattern).search(text, timeout=AUDIT_SEARCH_TIMEOUT)
    except (GateError, TimeoutError):
        return None
    return match.group(0).strip() if match else None


def _dead_alternatives(entry: AuditedEntry) -> Iterator[AuditFinding]:
    """U001 for the alternatives of a gate that can fire which themselves never can (an
    unescaped `$5`, YAML's backspace, a guard that defeats that branch): dead text in the
    rubric, and usually the very wording the author meant to catch."""
    dead: list[tuple[str, str, list[str]]] = []
    for branch, variant in alternative_patterns(entry.gate.pattern, skip_repeated=True):
        reason = never_fires_reason(replace(entry.gate, pattern=variant))
        if reason is not None and not any(branch in d[0] or d[0] in branch for d in dead):
            dead.append((branch, *reason))
    if not dead:
        return
    branch, why, _tried = dead[0]
    more = f" (and {len(dead) - 1} more)" if len(dead) > 1 else ""
    evidence = [
        Evidence(branch, "alternative of the pattern", "dead alternative", "fire", why, entry.surface)
        for branch, why, _tried in dead
    ]
    finding = AuditFinding(
        GATE_NEVER_FIRES.code,
        f"gate {show_pattern(entry.gate.pattern)} on {entry.issue_id}/{entry.surface}: "
        f"its alternative {show_pattern(branch)} can never fire{more}: {why}",
        entry.element.location.file,
        entry.element.location.span,
        evidence,
        subject=entry.subject(),
    )
    finding.severity = Severity.WARNING  # the rest of the gate still works
    yield finding


def _framed(texts: Sequence[FireText]) -> list[FireText]:
    """The witnesses that are framed and rewritten: in context, and not the long ones (windows
    filled with words read badly once framed or rewritten); the typical one first."""
    return [t for t in texts if not t.bare_only and t.strategy != "long"][:FRAMED_WITNESSES]


class _ListAudit:
    def __init__(
        self,
        source: MatterSource,
        gate_list: GateList,
        known: Sequence[KnownText],
        thesaurus: Mapping[str, Sequence[str]],
    ) -> None:
        self.source = source
        self.gate_list = gate_list
        self.thesaurus = thesaurus
        self.known = [k for k in known if k.concerns(gate_list.issue_id, gate_list.surface)]
        self.fire_texts = {entry.entry_index: fire_texts(entry.gate) for entry in gate_list.entries}
        # A trajectory that trips a gate submits other texts too: only those that fire today count.
        probes = [
            k.text for k in self.known if k.expect_fire and (k.kind == "probe" or list_fires(gate_list.gates, k.text))
        ]
        witnesses = [t.text for texts in self.fire_texts.values() for t in texts if not t.bare_only]
        silent = [k.text for k in self.known if not k.expect_fire]
        self.clause_words = self._clause_words()
        framed = [
            frame.wrap(t.text)
            for texts in self.fire_texts.values()
            for t in _framed(texts)
            for frame in FRAMES
            if frame.applies(t.text, gate_list.surface)
        ] + [
            frame.wrap(words)
            for words in self.clause_words.values()
            for frame in FRAMES
            if frame.applies(words, gate_list.surface, from_clause=True)
        ]
        self.texts = ListTexts(gate_list.gates, tuple(witnesses + probes), tuple(silent + framed))
        self.missed_probes = self._missed_probes()

    def _clause_words(self) -> dict[int, str]:
        """Per entry, the words of the clause under review that it matches: the wording a
        deletion recital or recommendation quotes."""
        issue = self.source.matter.rubric.issues_by_id.get(self.gate_list.issue_id)
        parts = split_citation(issue.anchor) if issue else None
        clause = self.source.matter.resolve(*parts) if parts else None
        if not clause:
            return {}
        words: dict[int, str] = {}
        for entry in self.gate_list.entries:
            sentence = matched_sentence(entry.gate, clause) if fires(entry.gate, clause) else None
            match = _first_match(entry.gate.pattern, sentence) if sentence else None
            if match and len(match.split()) >= 2:
                words[entry.entry_index] = match
        return words

    def _missed_probes(self) -> dict[int, list[KnownText]]:
        """Must-fire probes that no gate of the list fires on, each under the entry whose
        pattern shares the most words with it (the first entry on a tie)."""
        missed: dict[int, list[KnownText]] = {}
        for known in self.known:
            if known.kind != "probe" or not known.expect_fire or list_fires(self.gate_list.gates, known.text):
                continue
            words = set(re.findall(r"[a-z]{3,}", known.text.lower()))
            entry = max(
                self.gate_list.entries,
                key=lambda e: len(words & set(re.findall(r"[a-z]{3,}", e.gate.pattern.lower()))),
            )
            missed.setdefault(entry.entry_index, []).append(known)
        return missed

    def findings(self) -> Iterator[AuditFinding]:
        for index, entry in enumerate(self.gate_list.entries):
            usable = _framed(self.fire_texts[entry.entry_index])
            yield from self._correct_work(index, entry)
            if usable or entry.entry_index in self.clause_words:
                yield from self._frames(index, entry, usable)
            if not self.gate_list.partial:
                yield from self._dodges(index, entry, usable)

    def _finding(self, code: str, entry: AuditedEntry, message: str, evidence: list[Evidence]) -> AuditFinding:
        where = entry.element.location
        return AuditFinding(code, message, where.file, where.span, evidence, subject=entry.subject())

    def _guard_fix(self, entry: AuditedEntry, finding: AuditFinding) -> Fix | None:
        """The verified proposal as an unsafe fix of rubric.yaml (`rubric audit --fix --unsafe-fixes`)."""
        proposal = finding.proposal
        if proposal is None or not proposal.verified:
            return None
        return guard_fix(self.source.files[RUBRIC_FILE], entry.path, proposal.change, proposal.description)

    @staticmethod
    def _g010(entry: AuditedEntry, known: KnownText) -> bool:
        """Whether lint rule G010 already reports this: one rewarded concept of the entry's own
        surface fires it alone."""
        if known.kind != "concepts" or "accept_concepts" in known.source:
            return False
        return any(fires(entry.gate, concept) for concept in known.text.split(", "))

    def _correct_work(self, index: int, entry: AuditedEntry) -> Iterator[AuditFinding]:
        hits = [k for k in self.known if not k.expect_fire and fires(entry.gate, k.text) and not self._g010(entry, k)]
        if not hits:
            return
        fired = "fired"
        evidence = [
            Evidence(
                matched_sentence(entry.gate, k.text), k.source, k.kind, "silent", fired, entry.surface, k.file, k.line
            )
            for k in hits
        ]
        kinds = sorted({k.kind for k in hits})
        finding = self._finding(
            GATE_FIRES_ON_CORRECT_WORK.code,
            entry,
            f"gate {show_pattern(entry.gate.pattern)} on {entry.issue_id}/{entry.surface} "
            f"fires on the matter's own correct work ({len(hits)} text(s): {', '.join(kinds)}), "
            f"e.g. {evidence[0].source}: {evidence[0].sentence!r}",
            evidence,
        )
        if all(k.other_issue for k in hits):
            finding.severity = Severity.WARNING
            finding.message += " (a position document's sentence that this issue does not cite)"
        finding.proposal = propose_for_false_positive(self.texts, index, [k.text for k in hits])
        finding.fix = self._guard_fix(entry, finding)
        yield finding

    def _frames(self, index: int, entry: AuditedEntry, usable: list[FireText]) -> Iterator[AuditFinding]:
        hits = [
            (frame, frame.wrap(t.text))
            for t in usable
            for frame in FRAMES
            if frame.applies(t.text, entry.surface) and fires(entry.gate, frame.wrap(t.text))
        ]
        clause_words = self.clause_words.get(entry.entry_index)
        if clause_words is not None:
            hits += [
                (frame, frame.wrap(clause_words))
                for frame in FRAMES
                if frame.applies(clause_words, entry.surface, from_clause=True)
                and fires(entry.gate, frame.wrap(clause_words))
            ]
        if not hits:
            return
        fired = "fired"
        evidence = [Evidence(text, "frame", frame.kind, "silent", fired, entry.surface) for frame, text in hits]
        kinds = list(dict.fromkeys(frame.kind for frame, _ in hits))
        finding = self._finding(
            GATE_FIRES_ON_NEGATED_FRAME.code,
            entry,
            f"gate {show_pattern(entry.gate.pattern)} on {entry.issue_id}/{entry.surface} "
            f"fires when the sin is negated or struck ({', '.join(kinds)}), e.g. "
            f"{evidence[0].sentence!r}",
            evidence,
        )
        finding.proposal = propose_for_false_positive(self.texts, index, [text for _, text in hits])
        finding.fix = self._guard_fix(entry, finding)
        yield finding

    def _dodges(self, index: int, entry: AuditedEntry, usable: list[FireText]) -> Iterator[AuditFinding]:
        dodged: list[tuple[str, str, str]] = []
        seen_kinds: set[str] = set()
        for fire_text in usable:
            for dodge in dodges(fire_text.text, entry.gate.pattern, self.thesaurus):
                if fire_text.strategy == "full" and not dodge.kind.startswith(_SPELLING_DODGES):
                    continue  # optional words written out read badly once words are inserted or swapped
                if dodge.kind not in seen_kinds and not list_fires(self.gate_list.gates, dodge.text):
                    seen_kinds.add(dodge.kind)
                    dodged.append((dodge.kind, fire_text.text, dodge.text))
        missed = self.missed_probes.get(entry.entry_index, [])
        if not dodged and not missed:
            return
        silent = "silent (no gate of the list fired)"
        evidence = [
            Evidence(k.text, k.source, k.kind, "fire", silent, entry.surface, k.file, k.line) for k in missed
        ] + [
            Evidence(text, f"rewrite of {original!r}", kind, "fire", silent, entry.surface)
            for kind, original, text in dodged
        ]
        what = [f"{len(missed)} must-fire probe(s)"] if missed else []
        what += [f"{len(dodged)} rewrite(s) of its own sin"] if dodged else []
        first = f"{missed[0].source}: {missed[0].text!r}" if missed else f"{dodged[0][0]}: {dodged[0][2]!r}"
        finding = self._finding(
            GATE_DODGED.code,
            entry,
            f"gate {show_pattern(entry.gate.pattern)} on {entry.issue_id}/{entry.surface} "
            f"is dodged by {' and '.join(what)} ({first})",
            evidence,
        )
        if dodged:
            finding.proposal = propose_for_dodges(self.texts, index, dodged)
            finding.fix = self._guard_fix(entry, finding)
        yield finding


def gate_findings(
    source: MatterSource,
    known: Sequence[KnownText],
    thesaurus: Mapping[str, Sequence[str]],
    only_list: tuple[int, str] | None = None,
) -> Iterator[AuditFinding]:
    """U002-U004 for every gate list of the matter (or only the list `only_list` names:
    (issue index, surface))."""
    for gate_list in gate_lists(source.model):
        if only_list is not None and only_list != (gate_list.issue_index, gate_list.surface):
            continue
        yield from _ListAudit(source, gate_list, known, thesaurus).findings()
