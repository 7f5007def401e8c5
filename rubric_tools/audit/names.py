"""A matter's names: the words and phrases the audit's widening writes as they stand,
never inflected ("sablewing(?:s|)", "customer(?:s|)" and "new(?:s|) york" are no forms
a drafter would write).

Read from the matter model:

- the parties and other public facts of `matter.yaml` (`public_facts`): each run of
  capitalised words is a name ("Sablewing Labs", "Pellham Ridge Federal Credit Union"),
  and a key naming a role is one too when the documents capitalise it ("customer":
  "Customer") or when its value is all one name ("target": "Alder Peak Robotics, Inc."
  — the rubric calls that party "the Target", whether or not the documents do);
- the documents' defined terms: `("Provider")`, `"Customer Data" means`;
- words the documents capitalise mid-sentence and never write in lowercase ("Sablewing",
  "York"): proper nouns; and runs of two or more capitalised words mid-sentence ("United
  States", "Exhibit B"), though a word of one may be written in lowercase elsewhere ("the
  states", "this exhibit"): a name, whose words are not inflected where they stand together
  ("united stat(?:e|es|ed)" is no form). Headings are not read (they capitalise every word).

One word is a fixed word; several are a fixed phrase, whose words are not inflected
where they stand together (`thesaurus.Thesaurus.fixed_phrases`) — "claims" still takes
"claim" outside "Data Breach Claims".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rubric_tools.loading.elements import MatterModel
from rubric_tools.loading.matter import MATTER_FILE

_CAPITALISED_RUN = re.compile(r"[A-Z][\w’'-]*(?:[ \t]+(?:[A-Z][\w’'-]*|of|and|&)\b)*(?<![ \t])")
_DEFINED = re.compile(
    r"\(\s*(?:the\s+)?[\"“]([A-Z][^\"”\n]{0,60})[\"”]\s*\)"
    r"|[\"“]([A-Z][^\"”\n]{0,60})[\"”]\s+(?:means|shall\s+mean|has\s+the\s+meaning)\b"
    r"|\*\*([A-Z][^*\n]{0,60})\*\*\s+means\b"
)
#: A capitalised word after a lowercase word, a digit, a comma or a closing bracket: mid-sentence.
_MID_SENTENCE = re.compile(r"(?<=[a-z0-9,)] )([A-Z][a-z]+)\b")
#: Two or more capitalised words mid-sentence ("United States", "Exhibit B"), not opening a sentence.
_MID_SENTENCE_RUN = re.compile(r"(?<=[a-z0-9,)] )([A-Z][a-z]*(?: [A-Z][a-z]*)+)\b")
_HEADING = re.compile(r"^\s*(?:#|\|)")
_WORD_RUN = re.compile(r"\w+")


def matter_names(model: MatterModel) -> tuple[frozenset[str], frozenset[str]]:
    """(names of one word, names of several words), lowercase."""
    prose = "\n".join(line for line in _documents_text(model).splitlines() if not _HEADING.match(line))
    words: set[str] = set()
    phrases: set[str] = set()
    # Whether `\bword\b` occurs in the prose, for a word of letters: it is then one of the
    # prose's maximal runs of word characters (one scan, not a search per word).
    written = set(_WORD_RUN.findall(prose))
    facts = _public_facts(model)
    for value in facts.values():
        _add(_runs(value), words, phrases)
    for key, value in facts.items():
        if re.fullmatch(r"[a-z]+", key) and (key.capitalize() in written or _all_one_name(value)):
            words.add(key)
    _add((next(t for t in match.groups() if t) for match in _DEFINED.finditer(prose)), words, phrases)
    for match in _MID_SENTENCE.finditer(prose):
        word = match.group(1)
        if word.lower() not in written:
            words.add(word.lower())
    _add((match.group(1) for match in _MID_SENTENCE_RUN.finditer(prose)), words, phrases)
    return frozenset(words), frozenset(phrases)


def _documents_text(model: MatterModel) -> str:
    return "\n".join(document.source.text or "" for document in model.documents)


def _public_facts(model: MatterModel) -> Mapping[str, str]:
    written = model.file(MATTER_FILE).field("public_facts")
    value = written.value if written is not None else None
    if not isinstance(value, Mapping):
        return {}
    return {str(k): str(v) for k, v in value.items() if isinstance(v, str | int | float)}


#: The keys under which `matter.yaml`'s public facts name a party (the roles a subject ends
#: in are `grammar.PARTY_ROLES`).
_PARTY_FACT_KEYS = frozenset(
    """customer provider vendor supplier client consultant contractor licensor licensee buyer seller purchaser
    target acquirer parent company landlord tenant lessor lessee borrower lender employer processor controller
    counterparty""".split()
)


def matter_parties(model: MatterModel) -> tuple[tuple[str, str], ...]:
    """(role, short name) of each party `matter.yaml` names under a role ("provider": "Kestrel
    Cloud Technologies, Inc." -> ("provider", "kestrel")), lowercase: the first word of its
    name as the documents call the party by it, with the next word when they mostly write
    the two together ("Alder Peak")."""
    prose = _documents_text(model)
    parties = []
    for role, value in _public_facts(model).items():
        runs = _runs(value) if role in _PARTY_FACT_KEYS else []
        words = runs[0].split() if runs else []
        if not words or not words[0].isalpha() or words[0].lower() == role:
            continue
        alone = len(re.findall(rf"\b{words[0]}\b", prose))
        together = len(re.findall(rf"\b{words[0]} {re.escape(words[1])}\b", prose)) if len(words) > 1 else 0
        if alone:
            parties.append((role, " ".join(words[:2] if 2 * together > alone else words[:1]).lower()))
    return tuple(parties)


def _all_one_name(value: str) -> bool:
    """Whether a fact's value is a party's name and nothing else ("Alder Peak Robotics,
    Inc.", not "$1.4 billion all cash" nor "New York law")."""
    return re.fullmatch(r"[A-Z][\w’'&.-]*(?:,? (?:[A-Z][\w’'&.-]*|of|and|&))*", value.strip()) is not None


def _runs(text: str) -> list[str]:
    return [match.group(0) for match in _CAPITALISED_RUN.finditer(text)]


def _add(names: Iterable[str], words: set[str], phrases: set[str]) -> None:
    for name in names:
        parts = re.findall(r"[\w’'-]+", name.lower().replace("’", "'"))
        parts = [p.removesuffix("'s") for p in parts]
        if len(parts) == 1:
            words.add(parts[0])
        elif parts:
            phrases.add(" ".join(parts))
