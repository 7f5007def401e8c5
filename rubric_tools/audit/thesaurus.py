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
    ("prohibit", "forbid", "bar", "preclude", "ban", "proscribe"),
    ("permit", "allow", "authorize", "authorise"),
    ("require", "mandate", "compel", "oblige", "obligate"),
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
    ),
    # indemnities and remedies
    ("indemnify", "hold harmless", "defend and indemnify", "make whole", "keep indemnified", "compensate", "reimburse"),
    ("waive", "relinquish", "give up", "forgo", "forego", "surrender", "release"),
    ("terminate", "end", "cancel", "bring to an end", "put an end to"),
    ("breach", "violate", "contravene", "infringe"),
    ("notify", "inform", "give notice to", "advise", "alert"),
    ("disclose", "reveal", "divulge", "share", "make available"),
    ("use", "exploit", "utilize", "utilise", "make use of", "employ", "leverage"),
    ("train", "fine-tune", "retrain"),
    ("assign", "transfer", "convey"),
    ("own", "hold title to", "have title to", "be the owner of"),
    ("vest in", "belong to", "be owned by", "pass to"),
    ("fine", "penalize", "penalise", "sanction"),
    ("store", "host", "keep", "house"),
    ("retain", "keep", "hold onto"),
    ("is", "are"),
    # characterizations
    ("unenforceable", "void", "invalid", "null and void", "of no effect", "without effect", "of no force"),
    ("unlawful", "illegal", "prohibited by law", "contrary to law", "against the law"),
    ("unlimited", "uncapped", "unbounded", "limitless"),
    ("automatically", "by operation of law", "without further action"),
    ("irrevocable", "non-revocable", "perpetual and irrevocable"),
    ("sole discretion", "absolute discretion", "sole and absolute discretion", "unfettered discretion", "discretion"),
    ("exclusive", "sole"),
    ("promptly", "without undue delay", "as soon as practicable", "as soon as reasonably practicable"),
    # nouns
    ("agreement", "contract"),
    ("obligation", "duty", "commitment", "undertaking"),
    ("liability", "responsibility"),
    ("damages", "losses"),
    ("cap", "limit", "ceiling", "maximum"),
    ("consent", "approval", "authorization", "authorisation"),
    ("notice", "notification"),
    ("law", "statute", "legislation"),
    ("regulator", "regulatory authority", "supervisory authority", "authority"),
    ("personal data", "personal information", "personally identifiable information"),
    ("intellectual property", "ip", "intellectual property rights"),
    ("first dollar", "dollar one", "the first dollar"),
    # connectives and time
    ("notwithstanding", "despite", "regardless of", "irrespective of"),
    ("whether or not", "regardless of whether", "irrespective of whether"),
    ("prior to", "before"),
    ("after", "following", "upon", "subsequent to"),
    ("within", "no later than", "not later than", "in no event later than"),
    ("in the event that", "if", "where", "should"),
    ("with respect to", "regarding", "concerning", "in respect of"),
    ("does not apply to", "shall not apply to", "will not apply to", "is inapplicable to"),
    ("at any time", "from time to time", "at all times"),
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
