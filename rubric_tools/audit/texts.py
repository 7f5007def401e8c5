"""The texts of known verdict for one gate list: what it must fire on and what it must leave
silent, each a typed record saying where it came from.

    texts = gate_list_texts(source, "data_training", "issue", inputs)
    figure = robustness(gates, texts)   # share of must-fire texts caught, of must-not-fire left silent

Must fire (`expect_fire=True`):
- `witness`: strings built from each entry's own regex, in a neutral sentence;
- `habitat: …`: each witness in its natural legal habitats (`habitats`): replacement and
  insertion recitals, negators that negate nothing, a citation before, a proviso after;
- `rewrite: …`: meaning-preserving rewrites (`dodges`): numbers and durations in other
  forms, synonyms of the thesaurus, the passive voice (and a passive's active voice), a
  possessive as an "of" phrase, inflections, a citation inside;
- `probe`, `critical-trajectory`: the matter's own must-fire probes and the texts of
  trajectories expected to trip a gate.

Must not fire (`expect_fire=False`):
- `frame: …`: each witness framed the way correct work disowns it (`frames`);
- `document`, `hidden-answer`, `concepts`, `probe`, `reference-trajectory`: the matter's
  own correct work (`corpus`).

Generated texts carry `entry`, the index of the gate entry they were built from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path

from rubric_tools.audit.clauses import ClauseFinder, MatterClauses
from rubric_tools.audit.completion import Completion, carrier, complete_alone, origin_of, standalone
from rubric_tools.audit.corpus import AuditInputs, KnownText, known_texts
from rubric_tools.audit.dodges import dodges
from rubric_tools.audit.frames import FRAMES, negated_inside
from rubric_tools.audit.gerund_subject import gerund_subject_clause
from rubric_tools.audit.grammar import is_clause
from rubric_tools.audit.habitats import DEFAULT_SECTION, habitat_texts
from rubric_tools.audit.naturalness import problems
from rubric_tools.audit.negations import negated_clauses
from rubric_tools.audit.noun_phrases import with_definite_terms, with_determiners
from rubric_tools.audit.pattern_tree import compiled_branches
from rubric_tools.audit.stems import completed_stems
from rubric_tools.audit.thesaurus import Thesaurus
from rubric_tools.gate_analysis.gate_firing import FireText, GateList, fire_texts, fires, gate_lists, list_fires
from rubric_tools.gate_analysis.plain_search import re_compiled
from rubric_tools.loading.matter import MatterSource
from rubric_tools.scoring.gates import Gate

#: Witnesses per entry that are framed, placed in habitats and rewritten (the typical one first).
FRAMED_WITNESSES = 3
#: The rewrites tried on the witness with every optional part written out ("customer's").
_SPELLING_REWRITES = ("typographic", "hyphen", "space to hyphen")


@dataclass(frozen=True)
class VerdictText:
    """A text whose verdict on one gate list is known."""

    text: str
    expect_fire: bool
    kind: str  # "witness", "habitat: replacement recital", "rewrite: passive voice", "frame: hypothetical", "probe", …
    source: str  # "generated from entry 2", "probes.yaml:12", "playbook §3", …
    generated: bool
    entry: int | None = None  # the gate entry a generated text was built from
    file: Path | None = None
    line: int | None = None
    #: For a rewrite or a habitat, the witness (completed into a clause) it was built from.
    original: str | None = None
    #: How a generated text's clause was completed (`naturalness.ORIGIN_SCORES`): "matter
    #: clause", "clause", "carrier", "fragment"; None for the matter's own texts.
    origin: str | None = None


@dataclass(frozen=True)
class GateListTexts:
    issue_id: str
    surface: str
    must_fire: tuple[VerdictText, ...]
    must_not_fire: tuple[VerdictText, ...]


@dataclass(frozen=True)
class Robustness:
    """How a gate list does on its texts: must-fire texts caught, must-not-fire left silent."""

    caught: int
    must_fire: int
    silent: int
    must_not_fire: int

    @property
    def share_caught(self) -> float:
        return self.caught / self.must_fire if self.must_fire else 1.0

    @property
    def share_silent(self) -> float:
        return self.silent / self.must_not_fire if self.must_not_fire else 1.0


def robustness(gates: Sequence[Gate], texts: GateListTexts) -> Robustness:
    caught = sum(1 for t in texts.must_fire if list_fires(gates, t.text))
    silent = sum(1 for t in texts.must_not_fire if not list_fires(gates, t.text))
    return Robustness(caught, len(texts.must_fire), silent, len(texts.must_not_fire))


def framed(texts: Sequence[FireText], pattern: str = "") -> list[FireText]:
    """The witnesses that are framed, placed in habitats and rewritten: in context, and not
    the long ones (windows filled with words read badly once framed); the typical one first,
    then one of each other top-level alternative of `pattern` the first ones miss (a gate
    `18 months|preliminary discussions` is two sins: each needs its correct work shown). A
    witness that holds the gate's required words itself stands for the others beside which
    they were written: "the amendment cannot legally modify" reads as a drafter writes, "the
    amendment cannot modify legally" not; an alternative with no such witness keeps its own."""
    eligible = [t for t in texts if not t.bare_only and t.strategy != "long"]
    holds_requirement = any(not t.requirement_added for t in eligible)
    eligible.sort(key=lambda t: t.requirement_added)  # stable: the typical one first among each
    chosen = eligible[:1]
    for branch in compiled_branches(pattern)[1:] if eligible else ():
        if not any(branch.search(t.text) for t in chosen):
            # The branch's long witness when it has no other (its "window" may be no window).
            own = [t for t in texts if not t.bare_only and branch.search(t.text)]
            chosen += sorted(own, key=lambda t: (t.requirement_added, t.strategy == "long"))[:1]
    chosen += [t for t in eligible if t not in chosen and not (holds_requirement and t.requirement_added)]
    return chosen[:FRAMED_WITNESSES]


def _known_record(known: KnownText) -> VerdictText:
    return VerdictText(known.text, known.expect_fire, known.kind, known.source, False, file=known.file, line=known.line)


def entry_texts(
    gate: Gate,
    entry: int,
    surface: str,
    thesaurus: Thesaurus,
    *,
    partial: bool = False,
    finder: ClauseFinder | None = None,
) -> tuple[list[VerdictText], list[VerdictText]]:
    """The generated (must fire, must not fire) texts of one gate entry. Each framed witness
    is first completed into a clause (`clauses`: from the matter's own texts through
    `finder`, else a neutral carrier); texts that no lawyer would write
    (`naturalness.problems`) are left out."""
    source = f"generated from entry {entry}"
    fire: list[VerdictText] = []
    silent: list[VerdictText] = []
    all_witnesses = [replace(w, text=completed_stems(w.text, gate)) for w in fire_texts(gate)]
    for witness in all_witnesses:
        if not witness.bare_only:
            fire.append(VerdictText(witness.text, True, "witness", source, True, entry))
    inside = negated_inside(gate.pattern)
    if inside is not None and all_witnesses:
        silent.append(VerdictText(inside, False, "frame: negator inside the clause", source, True, entry))
    seen: set[str] = set()
    # The full witness is reworded too where it alone holds the gate's required words
    # ("the amendment cannot legally modify"): the others hold them only written beside.
    full_rewritten = not any(w.strategy != "full" and not w.requirement_added for w in all_witnesses)
    for witness in framed(all_witnesses, gate.pattern):
        completion = finder.complete(witness.text, gate) if finder else complete_alone(witness.text, gate)
        if finder is not None and _another_alternative(completion, witness.text, gate):
            silent += _negated_in_own_words(witness.text, gate, source, entry, seen)
        if completion.text in seen:
            continue
        seen.add(completion.text)
        origin, clause = origin_of(completion), completion.sentence()
        habitats = habitat_texts(
            completion.core,
            surface,
            completion.before,
            completion.after,
            carrier(witness.text).noun_phrase,
            finder.section if finder else DEFAULT_SECTION,
        )
        for kind, text in habitats if completion.is_clause else ():  # a habitat holds a clause
            fire.append(
                VerdictText(text, True, f"habitat: {kind}", source, True, entry, original=clause, origin=origin)
            )
        for frame in FRAMES:
            # A quotation quotes the matter's words or the gate's, never the carrier this tool
            # wrote around them ('the words "the clause is perpetual" are deleted').
            carried = frame.quoted and completion.how.startswith("carrier")
            base = witness.text if frame.quantity_only or carried else completion.text
            if frame.quantity_only and is_clause(base):
                continue  # the contrast names a figure, not a statement
            # A contrast names a figure: it wraps the quantity itself, whatever its completion.
            if (completion.is_clause or frame.quoted or frame.quantity_only) and frame.applies(base, surface):
                text = frame.wrap(base)
                silent.append(VerdictText(text, False, f"frame: {frame.kind}", source, True, entry, origin=origin))
        # A clause the gate matches twice ("… is the public domain, all source code must be
        # released") is negated at one match only: the other still asserts the sin.
        spans = _match_spans(gate.pattern, clause) if completion.is_clause else []
        if completion.is_clause and len(spans) < 2:
            # No match: an empty span at the end, nothing is taken for the object.
            for kind, text in negated_clauses(clause, spans[0] if spans else (len(clause), len(clause))):
                silent.append(VerdictText(text, False, f"frame: {kind}", source, True, entry, origin=origin))
        if partial:
            continue
        act_first = gerund_subject_clause(clause) if completion.is_clause else None
        if act_first is not None:  # "It is unlawful to sublet …" -> "Subletting … is unlawful."
            kind = "rewrite: gerund subject"
            fire.append(VerdictText(act_first, True, kind, source, True, entry, original=clause, origin=origin))
        for dodge in dodges(completion.core.lower(), gate.pattern, thesaurus, completion.after, completion.before):
            if witness.strategy == "full" and not full_rewritten and not dodge.kind.startswith(_SPELLING_REWRITES):
                continue  # optional words written out read badly once words are inserted or swapped
            if dodge.kind.startswith(_FROM_PATTERN):
                if finder is not None and not finder.known_words(dodge.text, gate.pattern):
                    continue  # a stem of the regex ("regulat under §6.2 …") is no English
                text = standalone(dodge.text)
            elif completion.renames(dodge.text):
                continue  # a defined term or a name is not reworded
            elif dodge.kind in ("passive voice", "active voice") and (
                completion.continues_core() or completion.cuts_subject()
            ):
                continue  # the passive would leave the object's list or the subject's determiner behind
            else:
                text = completion.around(dodge.text)
            kind = f"rewrite: {dodge.kind}"
            fire.append(VerdictText(text, True, kind, source, True, entry, original=clause, origin=origin))
    if finder is not None:  # names as the matter writes them ("Kestrel", not "kestrel")
        fire = [t if t.kind == "witness" else _recased(t, finder) for t in fire]
        silent = [_recased(t, finder) for t in silent]
        # A role the matter names no party by, bare in the singular ("after provider
        # confirms"): the matter's names known, it is a common noun, and takes its "the".
        fire = [d for t in fire if (d := t if t.kind == "witness" else _determined(t, gate, finder)) is not None]
        silent = [d for t in silent if (d := _determined(t, gate, finder)) is not None]
    return _readable(fire), _readable(silent)


def _negated_in_own_words(witness: str, gate: Gate, source: str, entry: int, seen: set[str]) -> list[VerdictText]:
    """The negations of a witness in its own words, where they make a clause ("Provider owns
    this" -> "Provider owns nothing", "Provider does not own this"): the correct work of an
    alternative the matter states no clause for, whose witness was completed into another
    alternative's clause. Only its negations: the matter's clause stays its evidence. The
    clause is added to `seen`, the completions already framed."""
    alone = complete_alone(witness, gate)
    if alone.how != "clause" or alone.text in seen:
        return []
    seen.add(alone.text)
    clause = alone.sentence()
    spans = _match_spans(gate.pattern, clause)
    if len(spans) != 1:
        return []
    return [
        VerdictText(text, False, f"frame: {kind}", source, True, entry, origin=origin_of(alone))
        for kind, text in negated_clauses(clause, spans[0])
    ]


def _another_alternative(completion: Completion, witness: str, gate: Gate) -> bool:
    """Whether the matter's clause a witness was completed into holds another top-level
    alternative of the gate and not the witness's own."""
    if completion.how != "matter clause":
        return False
    own = [branch for branch in compiled_branches(gate.pattern) if branch.search(witness)]
    return bool(own) and not any(branch.search(completion.text) for branch in own)


def _determined(text: VerdictText, gate: Gate, finder: ClauseFinder) -> VerdictText | None:
    """The text with "the" before each bare role (`noun_phrases.with_determiners`) and
    before a subject the matter writes with its "the" (`with_definite_terms`), where the
    gate's verdict on it stays what it was; else no text (a bare role), or the text as it
    was (a definite term)."""
    determined = with_determiners(text.text)
    if determined is None or (determined != text.text and fires(gate, determined) != fires(gate, text.text)):
        return None
    definite = with_definite_terms(determined, finder.casing.definite)
    if definite != determined and fires(gate, definite) == fires(gate, determined):
        determined = definite
    return text if determined == text.text else replace(text, text=determined)


def _recased(text: VerdictText, finder: ClauseFinder) -> VerdictText:
    recased = finder.recased(text.text)
    return text if recased == text.text else replace(text, text=recased)


def _match_spans(pattern: str, text: str) -> list[tuple[int, int]]:
    """The gate's matches in `text`, at most two (none when the pattern does not compile as
    `re`, compiled once for every text: `plain_search.re_compiled`)."""
    compiled = re_compiled(pattern)
    return [found.span() for found in islice(compiled.finditer(text), 2)] if compiled is not None else []


#: Rewrites built from the pattern alone, not from the witness: they stand on their own.
_FROM_PATTERN = ("clause split", "parenthetical in the gap")


def _readable(texts: list[VerdictText]) -> list[VerdictText]:
    """The texts a lawyer could have written: the bare witnesses (the regex's own words)
    always, every other generated text only without a well-formedness problem (a fragment
    only without debris, doubled words or a dangling preposition; a frame is a sentence,
    whatever it wraps: "… any term providing that without consent." has no clause). A
    rewrite of a clause that has such a problem has it too, whatever the rewrite reads
    ("the clause is perpetual its other" -> "… everlasting its other")."""
    return [
        t
        for t in texts
        if t.kind == "witness" or not (problems(t.text, sentence=_is_sentence(t)) or _rewrites_an_unreadable_clause(t))
    ]


def _rewrites_an_unreadable_clause(text: VerdictText) -> bool:
    if not text.kind.startswith("rewrite: ") or text.original is None:
        return False
    if text.kind.removeprefix("rewrite: ").startswith(_FROM_PATTERN):
        return False  # built from the pattern alone: it stands on its own
    return bool(problems(text.original, sentence=_is_sentence(text)))


def _is_sentence(text: VerdictText) -> bool:
    return text.origin != "fragment" or text.kind.startswith("frame")


def list_texts(
    gate_list: GateList,
    known: Sequence[KnownText],
    thesaurus: Thesaurus,
    matter: MatterClauses | None = None,
    *,
    generated: bool = True,
) -> GateListTexts:
    """Every text of known verdict for one gate list: generated from its entries (unless
    not `generated`), and the matter's own (`known`, already read by `corpus.known_texts`).
    `matter` holds the matter's sentences that witnesses are completed into clauses from."""
    mine = [k for k in known if k.concerns(gate_list.issue_id, gate_list.surface)]
    finder = matter.finder(gate_list.issue_id, gate_list.surface) if matter is not None and generated else None
    must_fire: list[VerdictText] = []
    must_not_fire: list[VerdictText] = []
    for entry in gate_list.entries if generated else ():
        fire, silent = entry_texts(
            entry.gate, entry.entry_index, gate_list.surface, thesaurus, partial=gate_list.partial, finder=finder
        )
        must_fire += fire
        must_not_fire += silent
    for known_text in mine:
        # A trajectory that trips a gate submits other texts too: only those that fire today count.
        if known_text.expect_fire and known_text.kind != "probe" and not list_fires(gate_list.gates, known_text.text):
            continue
        (must_fire if known_text.expect_fire else must_not_fire).append(_known_record(known_text))
    return GateListTexts(gate_list.issue_id, gate_list.surface, tuple(must_fire), tuple(must_not_fire))


def gate_list_texts(
    source: MatterSource,
    issue_id: str,
    surface: str,
    inputs: AuditInputs | None = None,
    thesaurus: Thesaurus | None = None,
) -> GateListTexts:
    """The texts of one gate list of a loaded matter (`inputs`: its probe files and
    trajectories, from `rubric_tools.checking.audit_inputs`)."""
    known = known_texts(source, inputs or AuditInputs())
    for gate_list in gate_lists(source.model):
        if gate_list.issue_id == issue_id and gate_list.surface == surface:
            return list_texts(gate_list, known, thesaurus or Thesaurus(), MatterClauses(source, known))
    return GateListTexts(issue_id, surface, (), ())
