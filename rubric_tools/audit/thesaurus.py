"""The audit's legal thesaurus: groups of words and idioms that contract drafting uses
interchangeably, for rewriting a sin (dodges) and for widening a gate to accept every
member of a group.

A group lists phrases in their base form; a phrase headed by a verb ("hold harmless",
"undertake to") is matched and written in every inflection of its head
(`lexicon.verb_forms`): "holds harmless", "undertook to". Members of a group say the
same thing with the same argument order ("X prohibits Y" / "X forbids Y"; "title vests
in X" / "title belongs to X"), so one may stand for another in a gate.

The groups are generic drafting vocabulary written for this tool from general legal
knowledge, never from any matter or probe. A project adds its own in
`[tool.rubric.audit]`:

```toml
[tool.rubric.audit]
synonym-groups = [["licence", "license"], ["terminate", "bring to an end"]]
thesaurus = { "terminate" = ["end"] }   # one-way synonyms (older form, still read)
```
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rubric_tools.audit import lexicon

SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    # what a law or a contract forbids or allows
    ("prohibit", "forbid", "bar", "preclude", "ban", "proscribe", "outlaw", "make unlawful", "render unlawful"),
    ("permit", "allow", "authorize", "authorise", "let", "enable"),
    ("require", "mandate", "compel", "oblige", "obligate", "call for", "insist on"),
    ("violate", "breach", "contravene", "infringe", "run afoul of", "fall foul of", "offend"),
    # what a party must or may do
    (
        "shall",
        "must",
        "will",
        "agree to",
        "undertake to",
        "covenant to",
        "commit to",
        "be obliged to",
        "be obligated to",
        "be required to",
        "be bound to",
    ),
    (
        "may",
        "can",
        "be entitled to",
        "be permitted to",
        "be allowed to",
        "have the right to",
        "be free to",
        "retain the right to",
        "reserve the right to",
        "be authorized to",
        "have discretion to",
    ),
    # indemnities and remedies
    (
        "indemnify",
        "hold harmless",
        "save harmless",
        "defend and indemnify",
        "indemnify and hold harmless",
        "make whole",
        "keep indemnified",
        "compensate",
        "reimburse",
    ),
    ("waive", "relinquish", "give up", "forgo", "forego", "surrender", "release", "abandon"),
    ("terminate", "end", "cancel", "rescind", "bring to an end", "put an end to", "walk away from", "exit"),
    ("notify", "inform", "give notice to", "advise", "alert", "tell", "report to"),
    ("disclose", "reveal", "divulge", "share", "make available", "communicate"),
    ("use", "exploit", "utilize", "utilise", "make use of", "employ", "leverage"),
    ("train", "fine-tune", "retrain"),
    ("re-identify", "reidentify", "re-link", "relink", "de-anonymize", "de-anonymise"),
    ("sell", "license", "monetize", "monetise", "commercialize", "commercialise"),
    ("assign", "transfer", "convey", "hereby assign"),
    ("own", "hold title to", "have title to", "be the owner of", "hold all right, title and interest in"),
    ("vest in", "belong to", "be owned by", "pass to"),
    ("fine", "penalize", "penalise", "sanction", "impose penalties on", "levy fines on"),
    ("store", "host", "keep", "house", "maintain"),
    ("retain", "keep", "hold onto", "preserve"),
    ("supersede", "override", "replace", "displace"),
    ("enforce", "uphold", "give effect to"),
    ("cover", "extend to", "apply to", "reach", "encompass", "include"),
    ("publish", "make public", "open-source", "disclose publicly"),
    ("confirm", "verify", "establish", "determine"),
    ("discover", "become aware of", "learn of", "detect"),
    ("is", "are"),
    # characterizations
    (
        "unenforceable",
        "void",
        "invalid",
        "null and void",
        "of no effect",
        "without effect",
        "of no force",
        "ineffective",
        "not enforceable",
        "cannot be enforced",
        "will not be enforced",
    ),
    (
        "unlawful",
        "illegal",
        "prohibited by law",
        "contrary to law",
        "against the law",
        "per se illegal",
        "per se unlawful",
    ),
    ("unlimited", "uncapped", "unbounded", "limitless", "not capped", "without limit"),
    ("unrestricted", "unfettered", "unconditional", "unqualified", "full"),
    ("automatically", "by operation of law", "without further action", "by default", "ipso facto"),
    ("irrevocable", "non-revocable", "perpetual and irrevocable"),
    ("perpetual", "indefinite", "everlasting", "unending"),
    (
        "sole discretion",
        "absolute discretion",
        "sole and absolute discretion",
        "unfettered discretion",
        "complete discretion",
    ),
    ("exclusive", "sole"),
    ("promptly", "without undue delay", "as soon as practicable", "as soon as reasonably practicable", "immediately"),
    ("conclusive", "final", "binding", "final and binding", "conclusive and binding"),
    ("responsible", "liable", "accountable", "answerable"),
    ("required", "needed", "necessary"),
    # nouns
    ("agreement", "contract"),
    ("obligation", "duty", "commitment", "undertaking"),
    ("liability", "responsibility", "exposure"),
    ("damages", "losses"),
    ("cap", "limit", "ceiling", "maximum", "limitation"),
    ("consent", "approval", "authorization", "authorisation", "sign-off", "permission"),
    ("notice", "notification"),
    ("law", "statute", "legislation", "applicable law"),
    ("regulator", "regulatory authority", "supervisory authority", "authority", "agency"),
    ("personal data", "personal information", "personally identifiable information"),
    ("intellectual property", "ip", "intellectual property rights"),
    ("first dollar", "dollar one", "the first dollar"),
    ("remedy", "recourse", "relief"),
    ("fee", "charge", "price"),
    ("increase", "uplift", "rise", "escalation"),
    ("incident", "breach", "security incident"),
    ("deliverables", "work product", "deliverable"),
    # connectives and time
    ("notwithstanding", "despite", "regardless of", "irrespective of", "without regard to"),
    ("whether or not", "regardless of whether", "irrespective of whether"),
    ("prior to", "before", "ahead of"),
    ("after", "following", "upon", "subsequent to", "once"),
    ("within", "no later than", "not later than", "in no event later than", "by no later than"),
    ("in the event that", "if", "where", "should"),
    ("with respect to", "regarding", "concerning", "in respect of", "relating to", "as to"),
    ("does not apply to", "shall not apply to", "will not apply to", "is inapplicable to", "excludes"),
    ("at any time", "from time to time", "at all times", "whenever"),
    ("all", "any and all", "every", "each"),
    ("entire", "whole", "full", "complete"),
)


#: Modals and forms of "be" are written as they stand (a group lists the forms it means).
_NOT_INFLECTED = frozenset("shall must will may can should would could might is are was were been being am".split())


@dataclass(frozen=True)
class Thesaurus:
    """The groups in force: the built-in ones, the project's groups and its one-way table."""

    groups: tuple[tuple[str, ...], ...] = SYNONYM_GROUPS
    one_way: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def members(self, phrase: str) -> tuple[str, ...]:
        """Every phrase that may stand for `phrase` (in base form), `phrase` first."""
        return _members(self, phrase)


def _head_lemmas(phrase: str) -> set[str]:
    """The phrase with its first word at each base form it may have ("holds harmless" ->
    {"holds harmless", "hold harmless"})."""
    words = phrase.split()
    found = {phrase}
    for lemma in lexicon.lemmas(words[0]).get("VERB", ()):
        found.add(" ".join([lemma, *words[1:]]))
    if words[0] in ("is", "are", "was", "were", "been", "being"):
        found.add(" ".join(["be", *words[1:]]))
    return found


@lru_cache(maxsize=4096)
def _members(thesaurus: Thesaurus, phrase: str) -> tuple[str, ...]:
    forms = _head_lemmas(phrase.lower())
    found: list[str] = []
    for group in thesaurus.groups:
        if forms & set(group):
            found += group
    for word, synonyms in thesaurus.one_way:
        if word in forms:
            found += [word, *synonyms]
    return tuple(dict.fromkeys(found))


def phrase_forms(phrase: str) -> tuple[str, ...]:
    """A base-form phrase in every inflection of its head verb ("undertake to" ->
    undertake to, undertakes to, undertook to, …); "be" heads become is/are/shall be."""
    words = phrase.split()
    if words[0] in _NOT_INFLECTED:
        return (phrase,)
    if words[0] == "be":
        heads: Iterable[str] = ("is", "are", "be", "was", "were", "been")
    elif len(words) == 1 and not lexicon.is_verb(words[0]):
        return tuple(lexicon.word_forms(words[0])) if words[0].isalpha() else (phrase,)
    elif lexicon.is_verb(words[0]) and words[0] in lexicon.lemmas(words[0]).get("VERB", ()):
        heads = lexicon.verb_forms(words[0])  # a base form: every inflection ("following" stays as it is)
    else:
        heads = (words[0],)
    return tuple(dict.fromkeys(" ".join([head, *words[1:]]) for head in heads))


def build(groups: Sequence[Sequence[str]] = (), one_way: Mapping[str, Sequence[str]] | None = None) -> Thesaurus:
    """The built-in groups plus a project's (`synonym-groups`) and its one-way table (`thesaurus`)."""
    extra = tuple(tuple(" ".join(p.lower().split()) for p in group) for group in groups)
    table = tuple((word, tuple(synonyms)) for word, synonyms in (one_way or {}).items())
    return Thesaurus(SYNONYM_GROUPS + extra, table)
