"""How the matter writes its words, so that evidence built from a lowercase regex writes
them so too: names ("Kestrel", "MSA"), a party's role where the matter uses it as its name
("Customer"), an initialism the matter does not write ("CCPA"), and the words a capital only
opened a sentence of ("Regulators are …" inside a frame is "regulators are …").

Read from the sentences of a gate list's `clauses.ClauseFinder`: inside a sentence (its first
word is capitalized as the sentence opens), in its prose (not a heading, not a document's id
cited before "§").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence, Set
from functools import lru_cache

from rubric_tools.audit import lexicon
from rubric_tools.audit.grammar import DETERMINERS, PARTY_ROLES
from rubric_tools.audit.lexicon import FUNCTION_WORDS
from rubric_tools.audit.noun_phrases import bare_roles
from rubric_tools.audit.quantities import is_number_word
from rubric_tools.audit.thesaurus_groups import SYNONYM_GROUPS
from rubric_tools.audit.wording import all_words
from rubric_tools.audit.words import COMMON_WORDS

#: A word after another in a sentence; not a document's id cited before "§" ("in msa §12.2"):
#: an identifier, which tells nothing of how the matter writes the word in prose.
_WORD_INSIDE = re.compile(r"(?<=\w )[A-Za-z][\w'’-]*+(?! ?§)")
_CAPITALIZED_WORD = re.compile(r"[A-Z][a-z][\w'’-]*")


def _joined(texts: Iterable[str]) -> str:
    """`texts` as one text, a line break between two. No word, and nothing the searches
    below look for around one (a word before it and a space, a "§" after it), crosses a line
    break, so one search of the whole finds what a search of each text finds, in one call
    instead of one per sentence (tests/test_audit_casing.py)."""
    return "\n".join(texts)


def _words_of(texts: Sequence[str]) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The words of a matter's sentences: every word; the words written in lowercase inside
    a sentence, where a capital on one only opened a sentence ("Regulators are …" inside a
    frame is "regulators are …"); and those capitalized inside one."""
    joined = _joined(texts)
    inside = set(_WORD_INSIDE.findall(joined))  # each word once: most are written many times
    return (
        frozenset(all_words(joined)),
        frozenset(w for w in inside if w[0].islower()),
        frozenset(w.lower() for w in inside if w[0].isupper()),
    )


#: A word written in lowercase, which may be a name the matter writes with capitals.
_LOWERCASE_WORD = re.compile(r"\b[a-z][\w-]*")
#: The word that opens a text, capitalized as a sentence opens ("Msa").
_OPENING_WORD = re.compile(r"([A-Z][a-z]+)(?![\w'’-])")
#: A capitalized word inside a sentence, after a lowercase word or a comma (not after a
#: colon or a quotation mark, where a capital opens what is quoted or recited), and not
#: before another (a name or a defined term of several words: "the Effective Date"). The
#: lowercase word is taken whole (`*+`): a shorter part of it is never followed by the space.
_CAPITAL_INSIDE = re.compile(r"((?:\b[a-z][\w'’-]*+|,) )([A-Z][a-z][\w-]*)\b(?! [A-Z])")
#: How a sentence ends, a heading does not ("14.2 Governing Law").
_SENTENCE_ENDS = (".", ";", ":", "?", "!", '"', "”", ")")
#: "us" joined to a word by a hyphen ("us-only", "non-us"; "Us-only" opening a sentence): no
#: pronoun is, so it is the country.
_HYPHENATED_US = re.compile(r"(?<![\w-])[Uu]s(?=-[a-z])|(?<=[a-z]-)us\b")
#: Words never given a name's capital: "us" is a pronoun even where a matter writes "US"
#: (but for `_HYPHENATED_US`).
_NEVER_RECASED = FUNCTION_WORDS | frozenset("us it we me him them i may will".split())
#: The words the thesaurus's members are written with: this tool's English, never a name.
_THESAURUS_WORDS = frozenset(word for group in SYNONYM_GROUPS for member in group for word in member.split())
#: A short word no dictionary knows, which a regex writes in lowercase ("ccpa", "glba"): an
#: initialism, written in capitals where the matter does not write it otherwise. Not two
#: letters: those are as often a foreign word ("per se") or a regex's remnant ("an?y").
_INITIALISM = re.compile(r"[a-z]{3,5}")
_POSSESSIVE_END = re.compile(r"['’]s$")


def _capitalized(inside: Iterable[str]) -> list[tuple[str, str]]:
    """The words `inside` (each after a sentence's first) that are written with a capital
    and may be names, in order: (lowercased, as written), a possessive "'s" dropped
    ("Kestrel's")."""
    found = []
    read: dict[str, list[tuple[str, str]]] = {}  # each word read once: most are written many times
    for word in inside:
        if not word[0].isupper():
            continue  # dropping "'s" leaves the first letter as it is
        if word not in read:
            read[word] = _as_names(_POSSESSIVE_END.sub("", word))
        found += read[word]
    return found


def _as_names(written: str) -> list[tuple[str, str]]:
    """A capitalized word (`_capitalized`) as the names it may be: (lowercased, as written)."""
    if written.lower() in _NEVER_RECASED:
        return []
    # An initialism joined to a word by a hyphen is a name of its own: "IP" of
    # "IP-indemnification", "IPO" of "pre-IPO" (not a pronoun: "US-only" is no "us").
    return [(written.lower(), written)] + [
        (part.lower(), part)
        for part in (written.split("-") if "-" in written else ())
        if _JOINED_INITIALISM.fullmatch(part) and part.lower() not in _NEVER_RECASED
    ]


#: An initialism before a hyphen ("IP-indemnification", "EU-hosted"): two to five capitals.
_JOINED_INITIALISM = re.compile(r"[A-Z]{2,5}")


#: A term of several capitalized words inside a sentence ("Customer Data", "New York").
_TERM_INSIDE = re.compile(r"(?<=[a-z,] )[A-Z][A-Za-z-]*(?: [A-Z][A-Za-z-]*)+\b(?!['’])")


def _any_of(phrases: Iterable[str]) -> re.Pattern[str]:
    """A search for any of `phrases` as written, the longest first."""
    return re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(phrases, key=len, reverse=True))) + r")\b")


@lru_cache(maxsize=64)  # the gate lists of one issue have finders over the same sentences
def _terms(texts: tuple[str, ...]) -> tuple[dict[str, str], re.Pattern[str] | None]:
    """The terms of several words `texts` write capitalized inside their sentences more
    often than in lowercase, by their lowercase: how they are written most often; and a
    search for them in lowercase (None when there is none)."""
    written = Counter(_TERM_INSIDE.findall(_joined(t for t in texts if t.rstrip().endswith(_SENTENCE_ENDS))))
    forms: dict[str, Counter[str]] = {}
    for term, count in written.items():
        if term.split(" ", 1)[0].lower() in DETERMINERS:
            continue  # "… and The Amendment" is a heading's capitals: the term's "the" stays lowercase
        forms.setdefault(term.lower(), Counter())[term] += count
    if not forms:
        return {}, None
    search = _any_of(forms)
    lowercase = Counter(search.findall(_joined(texts)))
    terms = {
        lowered: counts.most_common(1)[0][0] for lowered, counts in forms.items() if counts.total() > lowercase[lowered]
    }
    return terms, _any_of(terms) if terms else None


#: A word of a sentence (a possessive's "'s" kept on it: "Provider's" determines what follows).
_SENTENCE_WORD = re.compile(r"[A-Za-z][\w-]*(?:['’]s)?")
#: What follows a document's id or a heading's word when it is cited ("MSA §7.3", "Exhibit 2").
_CITED_AFTER = re.compile(r" ?(?:§|\d)")
#: Words before a noun that determine it otherwise than "the" does.
_OTHER_DETERMINERS = frozenset("a an this that these those any each every its their our your such no his her".split())


@lru_cache(maxsize=64)  # the gate lists of one issue have finders over the same sentences
def _definite(texts: tuple[str, ...]) -> dict[str, str]:
    """The words the sentences write after "the" more often than bare (at least twice; an
    initialism once and never bare), by their lowercase: how they are written after it most
    often. The matter's definite terms ("the Amendment", "the MSA", "the supercap"), which a
    generated text opening a clause with one writes with its "the" too; not a party's name
    the matter writes bare ("Customer shall …")."""
    sentences = [(text, _SENTENCE_WORD.findall(text)) for text in texts if text.rstrip().endswith(_SENTENCE_ENDS)]
    after_the: dict[str, Counter[str]] = {}
    for _text, words in sentences:
        for before, word in zip(words, words[1:], strict=False):  # every word but the opening one
            if before.lower() == "the":
                after_the.setdefault(word.lower(), Counter())[word] += 1
    # How often each is written bare: only the words written after "the" are counted.
    bare = Counter(word for text, words in sentences for word in _written_bare(text, words, after_the.keys()))
    return {
        lowered: forms.most_common(1)[0][0]
        for lowered, forms in after_the.items()
        if forms.total() > bare[lowered] and (forms.total() >= 2 or (not bare[lowered] and _initialisms(forms)))
    }


def _written_bare(text: str, words: list[str], among: Set[str]) -> list[str]:
    """Those of the words `among` (lowercased) that the sentence `text` (its `words`) writes
    bare: not after "the", another determiner or a possessive, nor cited ("MSA §7.3"); not
    as its opening word."""
    lowered = [word.lower() for word in words]
    if among.isdisjoint(lowered[1:]):
        return []  # most sentences: no word is looked at
    matches = list(_SENTENCE_WORD.finditer(text))
    found = []
    for index in range(1, len(matches)):
        word, before = lowered[index], lowered[index - 1]
        if word not in among or before == "the" or before in _OTHER_DETERMINERS or before.endswith(("'s", "’s")):
            continue
        if _CITED_AFTER.match(text, matches[index].end()) is None:  # "MSA §7.3" is a document's id
            found.append(word)
    return found


def _initialisms(forms: Counter[str]) -> bool:
    """Whether a word is written in capitals ("the MSA", "the SOW"): an initialism names one
    document or body, so once after "the" and never bare is enough to read it as definite; a
    word in lowercase may be a modifier ("the first day") and needs a second sighting."""
    return all(written.isupper() for written in forms)


class MatterCasing:
    """How the sentences of a matter (`texts`) write their words."""

    def __init__(self, texts: Sequence[str]) -> None:
        vocabulary, self.lowercase, self.capitalized = _words_of(texts)
        #: Every word of the sentences, and common English.
        self.vocabulary = vocabulary | COMMON_WORDS
        #: How the matter writes a name it never writes in lowercase ("Kestrel", "CCPA"),
        #: read in its sentences, not its headings ("Governing Law" names no "Law").
        sentences = _joined(text for text in reversed(texts) if text.rstrip().endswith(_SENTENCE_ENDS))
        self.names = {
            lowered: written
            for lowered, written in _capitalized(_WORD_INSIDE.findall(sentences))
            if lowered not in self.lowercase
        }
        #: How the matter writes a term of several words it capitalizes more often than not
        #: ("Customer Data", "New York"), and a search for each in lowercase.
        self.terms, self._lowercase_terms = _terms(tuple(texts))
        #: The words the matter writes after "the" more often than not (`_definite`).
        self.definite = _definite(tuple(texts))
        #: The lowercase words found written as they stand (`_as_it_stands`).
        self._standing: set[str] = set()
        #: Each text recased, by the text: one in seven is recased again (the same frame or
        #: habitat of the same clause, built for another gate list of the matter).
        self._recased: dict[str, str] = {}

    def recased(self, text: str) -> str:
        """`text` with each name written as the matter writes it: a witness of a lowercase
        regex reads "kestrel may terminate", the matter "Kestrel may terminate"; and a word
        the matter capitalizes only to open a sentence written in lowercase inside one
        ("Nobody has suggested that Title to …" -> "… that title to …"); "us-only" is "US-only"."""
        if text not in self._recased:
            self._recased[text] = self._recase(text)
        return self._recased[text]

    def _recase(self, text: str) -> str:
        text = self._with_terms(text)
        if "s-" in text or "-us" in text:  # a plain search first: few texts hold either
            text = _HYPHENATED_US.sub("US", text)
        text = _CAPITAL_INSIDE.sub(self._lowered_if_common, text)
        opening = _OPENING_WORD.match(text)
        if opening is not None:
            # A sentence opened with a lowercase witness's name: "Msa already …" is "MSA already …".
            written = self._written(opening.group(1).lower())
            if written.isupper():
                text = written + text[opening.end(1) :]
        for role in reversed(bare_roles(text)):
            # A bare role is the matter's name for a party where it writes one ("that customer
            # waives" -> "that Customer waives"); elsewhere it is left for the checks.
            if not role.modified and text[role.start : role.end] in self.capitalized:
                text = text[: role.start] + text[role.start].upper() + text[role.start + 1 :]
        if all(self._as_it_stands(word) for word in set(_LOWERCASE_WORD.findall(text)) - self._standing):
            return text  # most texts hold no name: nothing to substitute
        return _LOWERCASE_WORD.sub(lambda found: self._written(found.group(0)), text)

    def _with_terms(self, text: str) -> str:
        """`text` with the matter's terms of several words as it writes them ("may use
        customer data" -> "may use Customer Data"; "Customer data may …" opening it)."""
        if self._lowercase_terms is None:
            return text
        text = self._lowercase_terms.sub(lambda m: self.terms[m.group(0)], text)
        opening = self._lowercase_terms.match(text[:1].lower() + text[1:])
        if opening is not None and text[:1].isupper():
            text = self.terms[opening.group(0)] + text[opening.end() :]
        return text

    def _as_it_stands(self, word: str) -> bool:
        """Whether a lowercase `word` is written as it stands: no name, no initialism; each
        word the generated texts hold is asked once (`_standing` keeps those that are)."""
        standing = word not in self.names and not self._initialism(word)
        if standing:
            self._standing.add(word)
        return standing

    def _written(self, word: str) -> str:
        """A lowercase `word` as the matter writes it: its name, an initialism, or itself."""
        return self.names.get(word) or (word.upper() if self._initialism(word) else word)

    def _initialism(self, word: str) -> bool:
        """Whether `word` reads as an initialism: short, unknown to the lexicon, no number
        ("six", which the lexicon does not list), no word of the thesaurus's ("afoul",
        "ipso facto") and not a word the matter writes (in lowercase or as a name of its own)."""
        return (
            _INITIALISM.fullmatch(word) is not None
            and word not in self.vocabulary
            and word not in _NEVER_RECASED
            and word not in _THESAURUS_WORDS
            and not is_number_word(word)
            and not lexicon.known(word)
        )

    def _lowered_if_common(self, found: re.Match[str]) -> str:
        word = found.group(2)
        lowered = word.lower()
        # Common: the matter writes it in lowercase, or the lexicon knows it, it names no
        # party ("Tenant" is often a defined term) and the matter never capitalizes it
        # inside a sentence (a defined term or a name it does).
        known = lowered in self.lowercase or (lexicon.known(lowered) and lowered not in PARTY_ROLES)
        common = known and lowered not in self.capitalized and not word.isupper()
        return f"{found.group(1)}{lowered if common else word}"

    def opened_a_sentence(self, text: str) -> bool:
        """Whether the first word's capital only opened its sentence: the matter writes the
        word in lowercase elsewhere and never capitalized inside a sentence."""
        head = _CAPITALIZED_WORD.match(text)
        if head is None:
            return False
        word = head.group(0).lower()
        return word in self.lowercase and word not in self.capitalized
