"""Verdicts on gates: fires on correct work (U002), fires on a negated frame (U003), dodged
(U004); never fires (U001) is `never_fires`'. One finding per gate entry per verdict, at
the entry's YAML node, with its evidence and a verified guard proposal where one exists.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from rubric_tools.audit.clauses import MatterClauses, sentence_as_written
from rubric_tools.audit.codes import GATE_DODGED, GATE_FIRES_ON_CORRECT_WORK, GATE_FIRES_ON_NEGATED_FRAME
from rubric_tools.audit.corpus import KnownText
from rubric_tools.audit.findings import AuditFinding, Evidence, Proposal, each_sentence_once
from rubric_tools.audit.frames import FRAMES
from rubric_tools.audit.grammar import is_clause
from rubric_tools.audit.naturalness import rank, text_score
from rubric_tools.audit.robustness import ListRobustness, list_robustness
from rubric_tools.audit.texts import VerdictText, list_texts
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.diagnostics import Severity
from rubric_tools.gate_analysis.gate_firing import (
    AuditedEntry,
    GateList,
    fires,
    first_span,
    gate_lists,
    list_fires,
    matched_sentence,
)
from rubric_tools.loading.matter import RUBRIC_FILE, MatterSource
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.text import show_pattern, split_citation

if TYPE_CHECKING:
    # Proposals (guards, widenings, their verification, the fixes that write them) are made
    # only with `--unsafe-fixes`: their modules are imported where a proposal is made or
    # shown, so that a plain audit does not import them.
    from rubric_tools.audit.proposals import EntryProposal


def _first_match(pattern: str, text: str) -> str | None:
    span = first_span(pattern, text)  # on `re` where that is the scorer's search
    return None if span is None else text[span[0] : span[1]].strip()


def _clause_words(source: MatterSource, gate_list: GateList) -> dict[int, str]:
    """Per entry, the words of the clause under review that it matches: the wording a
    deletion recital or recommendation quotes."""
    issue = source.matter.rubric.issues_by_id.get(gate_list.issue_id)
    parts = split_citation(issue.anchor) if issue else None
    clause = source.matter.resolve(*parts) if parts else None
    if not clause:
        return {}
    words: dict[int, str] = {}
    for entry in gate_list.entries:
        sentence = matched_sentence(entry.gate, clause) if fires(entry.gate, clause) else None
        match = _first_match(entry.gate.pattern, sentence) if sentence else None
        if match and len(match.split()) >= 2:
            words[entry.entry_index] = match
    return words


def _clause_frames(source: MatterSource, gate_list: GateList) -> list[VerdictText]:
    """Recitals and recommendations around the clause's own words: correct work."""
    found = []
    for index, words in _clause_words(source, gate_list).items():
        for frame in FRAMES:
            if not (frame.quoted or frame.quantity_only or is_clause(words)):
                continue  # "… any term providing that without inquiry": a frame of a clause
            if frame.applies(words, gate_list.surface, from_clause=True):
                found.append(
                    VerdictText(frame.wrap(words), False, f"frame: {frame.kind}", "clause under review", True, index)
                )
    return found


class _ListAudit:
    def __init__(
        self,
        source: MatterSource,
        gate_list: GateList,
        known: Sequence[KnownText],
        thesaurus: Thesaurus,
        matter: MatterClauses | None = None,
        propose: bool = True,
        generated: bool = True,
    ) -> None:
        self.source = source
        self.propose = propose
        self.gate_list = gate_list
        self.thesaurus = thesaurus
        texts = list_texts(gate_list, known, thesaurus, matter or MatterClauses(source, known), generated=generated)
        self.must_fire = list(texts.must_fire)
        self.must_not_fire = [*texts.must_not_fire, *(_clause_frames(source, gate_list) if generated else ())]
        gates = gate_list.gates
        self.list_fires = {t.text: list_fires(gates, t.text) for t in (*self.must_fire, *self.must_not_fire)}
        self.protected = list(dict.fromkeys(t.text for t in self.must_fire if self.list_fires[t.text]))
        self.silent = list(dict.fromkeys(t.text for t in self.must_not_fire if not self.list_fires[t.text]))
        self.missed_probes = self._missed_probes()
        #: Each entry's proposal, as `findings` makes them (the robustness figure reads them).
        self.proposals: dict[int, EntryProposal] = {}

    def _missed_probes(self) -> dict[int, list[VerdictText]]:
        """Must-fire probes that no gate of the list fires on, each under the entry whose
        pattern shares the most words with it (the first entry on a tie)."""
        missed: dict[int, list[VerdictText]] = {}
        for known in self.must_fire:
            if known.kind != "probe" or self.list_fires[known.text]:
                continue
            words = set(re.findall(r"[a-z]{3,}", known.text.lower()))
            entry = max(
                self.gate_list.entries,
                key=lambda e: len(words & set(re.findall(r"[a-z]{3,}", e.gate.pattern.lower()))),
            )
            missed.setdefault(entry.entry_index, []).append(known)
        return missed

    def _silent_for(self, entry: AuditedEntry) -> list[str]:
        """The correct work `entry` must not start firing on: what the list is silent on, and
        what the proposal of an entry before it silences (the merged edit must not flag it
        again through this one; a later entry's is seen in the fix loop's next round)."""
        silenced = [
            text
            for proposal in self.proposals.values()
            if proposal.verified
            for text in proposal.outcome.silenced
            if not fires(entry.gate, text)
        ]
        return list(dict.fromkeys([*self.silent, *silenced]))

    def _own_rewrites(self, entry: AuditedEntry) -> list[VerdictText]:
        """Rewrites of the entry's own sin that only another entry catches ("forty-eight
        hours after … confirms" caught by the "confirms" entry): the entry is widened for
        them too, or the same rewrite with another trigger slips through both. They are no
        finding: the list catches them."""
        return [
            t
            for t in self.must_fire
            if t.generated
            and t.entry == entry.entry_index
            and t.kind.startswith("rewrite")
            and self.list_fires[t.text]
            and not fires(entry.gate, t.text)
        ]

    def _propose(
        self, index: int, entry: AuditedEntry, flagged: list[VerdictText], missed: list[VerdictText]
    ) -> EntryProposal | None:
        from rubric_tools.audit.proposals import propose_entry  # made only here (see the imports)
        from rubric_tools.audit.verification import EntryTexts
        from rubric_tools.gate_analysis.search_cost import matter_prose

        return propose_entry(
            EntryTexts(
                self.gate_list.gates,
                index,
                self.gate_list.surface,
                self.protected,
                self._silent_for(entry),
                list(dict.fromkeys(t.text for t in flagged)),
                list(dict.fromkeys(t.text for t in (*missed, *self._own_rewrites(entry)))),
                self.thesaurus,
                matter_prose(self.source.model),  # lint's sample for G017, as lint will measure it
            )
        )

    def findings(self) -> Iterator[AuditFinding]:
        for index, entry in enumerate(self.gate_list.entries):
            correct = [
                t
                for t in self.must_not_fire
                if not t.generated and fires(entry.gate, t.text) and not self._g010(entry, t)
            ]
            frames = [t for t in self.must_not_fire if t.generated and fires(entry.gate, t.text)]
            missed: list[VerdictText] = []
            if not self.gate_list.partial:
                missed = [
                    *self.missed_probes.get(entry.entry_index, []),
                    *(
                        t
                        for t in self.must_fire
                        if t.generated and t.entry == entry.entry_index and not self.list_fires[t.text]
                    ),
                ]
            proposal = self._propose(index, entry, [*correct, *frames], missed) if self.propose else None
            if proposal is not None:
                self.proposals[entry.entry_index] = proposal
            found = [
                *self._correct_work(entry, correct),
                *self._frames(entry, frames),
                *self._dodges(entry, missed),
            ]
            fix_given = False
            for finding, finding_texts, want_fire in found:
                finding.proposal = _finding_proposal(proposal, finding_texts, want_fire)
                if not fix_given and proposal is not None and proposal.verified:
                    from rubric_tools.fixing.gate_edits import guard_fix  # see the imports

                    finding.fix = guard_fix(
                        self.source.files[RUBRIC_FILE], entry.path, proposal.change, _description(proposal)
                    )
                    fix_given = finding.fix is not None
                yield finding

    @staticmethod
    def _g010(entry: AuditedEntry, known: VerdictText) -> bool:
        """Whether lint rule G010 already reports this: one rewarded concept of the entry's own
        surface fires it alone."""
        if known.kind != "concepts" or "accept_concepts" in known.source:
            return False
        return any(fires(entry.gate, concept) for concept in known.text.split(", "))

    def _correct_work(
        self, entry: AuditedEntry, hits: list[VerdictText]
    ) -> Iterator[tuple[AuditFinding, list[str], bool]]:
        if not hits:
            return
        hits = _most_natural_first(hits)
        evidence = each_sentence_once(
            [
                Evidence(
                    sentence_as_written(entry.gate, k.text),
                    k.source,
                    k.kind,
                    "silent",
                    "fired",
                    entry.surface,
                    k.file,
                    k.line,
                )
                for k in hits
            ]
        )
        kinds = sorted({k.kind for k in hits})
        finding = AuditFinding.on_entry(
            GATE_FIRES_ON_CORRECT_WORK.code,
            entry,
            f"gate {show_pattern(entry.gate.pattern)} on {entry.issue_id}/{entry.surface} "
            f"fires on the matter's own correct work ({len(evidence)} text(s): {', '.join(kinds)}), "
            f"e.g. {evidence[0].source}: {evidence[0].sentence!r}",
            evidence,
        )
        if all(self._other_issue(k) for k in hits):
            finding.severity = Severity.WARNING
            finding.message += " (a position document's sentence that this issue does not cite)"
        yield finding, [k.text for k in hits], False

    def _other_issue(self, text: VerdictText) -> bool:
        return text.kind == "document" and text.source not in self._cited()

    def _cited(self) -> set[str]:
        issue = self.source.matter.rubric.issues_by_id.get(self.gate_list.issue_id)
        return {c.strip() for c in issue.required_citations} if issue else set()

    def _frames(self, entry: AuditedEntry, hits: list[VerdictText]) -> Iterator[tuple[AuditFinding, list[str], bool]]:
        if not hits:
            return
        hits = _most_natural_first(hits)
        evidence = each_sentence_once(
            [Evidence(t.text, "frame", t.kind.removeprefix("frame: "), "silent", "fired", entry.surface) for t in hits]
        )
        kinds = list(dict.fromkeys(e.kind for e in evidence))
        finding = AuditFinding.on_entry(
            GATE_FIRES_ON_NEGATED_FRAME.code,
            entry,
            f"gate {show_pattern(entry.gate.pattern)} on {entry.issue_id}/{entry.surface} "
            f"fires when the sin is negated, disowned or struck ({', '.join(kinds[:4])}"
            f"{', …' if len(kinds) > 4 else ''}), e.g. {evidence[0].sentence!r}",
            evidence,
        )
        yield finding, [t.text for t in hits], False

    def _dodges(self, entry: AuditedEntry, missed: list[VerdictText]) -> Iterator[tuple[AuditFinding, list[str], bool]]:
        if not missed:
            return
        silent = "silent (no gate of the list fired)"
        missed = _most_natural_first(missed)
        probes = [t for t in missed if not t.generated]
        generated: list[VerdictText] = []
        seen_kinds: set[str] = set()
        # One text of each kind, never one already shown ("shall" and "will" both rewritten to "must").
        shown = {t.text for t in probes}
        for text in missed:
            if text.generated and text.kind not in seen_kinds and text.text not in shown:
                seen_kinds.add(text.kind)
                shown.add(text.text)
                generated.append(text)
        evidence = [Evidence(k.text, k.source, k.kind, "fire", silent, entry.surface, k.file, k.line) for k in probes]
        evidence += [
            Evidence(
                t.text,
                f"rewrite of {t.original!r}" if t.original else t.source,
                _kind(t),
                "fire",
                silent,
                entry.surface,
            )
            for t in generated
        ]
        evidence = each_sentence_once(evidence)  # probes may repeat; `generated` repeats none shown
        what = [f"{len(probes)} must-fire probe(s)"] if probes else []
        what += [f"{len(missed) - len(probes)} rewrite(s) or habitat(s) of its own sin"] if generated else []
        first = evidence[0]
        finding = AuditFinding.on_entry(
            GATE_DODGED.code,
            entry,
            f"gate {show_pattern(entry.gate.pattern)} on {entry.issue_id}/{entry.surface} "
            f"is dodged by {' and '.join(what)} ({first.kind}: {first.sentence!r})",
            evidence,
        )
        yield finding, [t.text for t in missed], True


def _most_natural_first(texts: list[VerdictText]) -> list[VerdictText]:
    """A finding's texts in the order its evidence is shown (`naturalness.text_score`)."""
    return rank(texts, lambda t: text_score(t.text, t.origin, t.generated))


def _kind(text: VerdictText) -> str:
    return text.kind.removeprefix("rewrite: ")


def _description(proposal: EntryProposal) -> str:
    return "; ".join(proposal.steps) or "change the gate entry"


def _finding_proposal(proposal: EntryProposal | None, texts: list[str], want_fire: bool) -> Proposal | None:
    """What the entry's one proposal does for one of its findings."""
    if proposal is None:
        return None
    from rubric_tools.audit.proposals import entry_mapping  # see the imports

    done = set(proposal.outcome.caught if want_fire else proposal.outcome.silenced)
    fixed = sum(1 for t in texts if t in done)
    removes = fixed == len(texts) and bool(texts)
    if not proposal.change and proposal.refused is not None:
        gate, outcome = proposal.refused
        would_fix = set(outcome.caught if want_fire else outcome.silenced)
        return Proposal(
            _changed_keys(proposal.before, gate),
            "; ".join(proposal.tried[:1]) or "a guard",
            False,
            bool(texts) and all(t in would_fix for t in texts),
            outcome.lost[:3],
            outcome.new_hits[:3],
            total=len(texts),
            refused=proposal.tried,
        )
    return Proposal(
        proposal.change,
        _description(proposal),
        proposal.outcome.safe and removes and bool(proposal.change),
        removes,
        proposal.outcome.lost[:3],
        proposal.outcome.new_hits[:3],
        safe=proposal.outcome.safe and bool(proposal.change),
        before=entry_mapping(proposal.before),
        after=entry_mapping(proposal.after),
        fixed=fixed,
        total=len(texts),
        steps=proposal.steps,
        refused=proposal.tried,
    )


def _changed_keys(before: Gate, after: Gate) -> dict[str, Any]:
    from rubric_tools.audit.proposals import entry_mapping  # see the imports

    old, new = entry_mapping(before), entry_mapping(after)
    return {k: v for k, v in new.items() if old.get(k) != v}


def audit_gate_lists(
    source: MatterSource,
    known: Sequence[KnownText],
    thesaurus: Thesaurus,
    only_list: tuple[int, str] | None = None,
    propose: bool = True,
    generated: bool = True,
) -> Iterator[tuple[list[AuditFinding], ListRobustness]]:
    """Per gate list of the matter (or only the list `only_list` names: (issue index,
    surface)), its findings U002-U004 and its robustness figure. Without `propose`, no
    entry gets a proposal (nor a fix): the findings are the same, the figure has no
    "after" (`after_is` "none"), and most of the audit's cost is saved. Without
    `generated`, no text is generated from the gates (no witness, frame, habitat or
    rewrite): the findings are the verdicts on the matter's own texts (U002, and U004 for
    a must-fire probe no gate fires on), and the figure counts those texts only."""
    matter = MatterClauses(source, known)
    for gate_list in gate_lists(source.model):
        if only_list is not None and only_list != (gate_list.issue_index, gate_list.surface):
            continue
        audit = _ListAudit(source, gate_list, known, thesaurus, matter, propose, generated)
        findings = list(audit.findings())
        figure = list_robustness(
            gate_list, audit.must_fire, audit.must_not_fire, audit.proposals, audit.list_fires, proposed=propose
        )
        yield findings, figure
