"""Word forms for the audit: the inflections and parts of speech of English words, from
lemminflect's lexicon of English (a default dependency: see pyproject.toml).

The audit widens a gate as a drafter would: it inflects only what paraphrase needs, the
number of a head noun ("fee" / "fees", "datum" / "data") and the tense and person of a
verb ("vest" / "vests" / "vested" / "vesting", "hold" / "held"). `word_forms` never
inflects:

- a word the lexicon lists as an adjective or an adverb ("void", "final", "binding",
  "promptly", "later"): it is written as it stands;
- a word the lexicon does not know (a name: "Sablewing", "GLBA"), a function word or
  a modal ("where", "shall"), a number;
- a word that is already an inflection with a meaning of its own: a noun the lexicon
  lists as its own base form is not reduced or re-inflected as a verb ("damages",
  "training"), and a gerund is never made plural ("trainings").

Every generated form must map back to its lemma: a plural must have the noun among its
lemmas, a verb form must have the verb as its first (most likely) lemma — "feed" is read
as "feed" before "fee", so it is no past tense of "fee" here — and a verb reading with no
past tense left is no verb ("fee"). Forms with an apostrophe ("fee'd") are dropped.

The matter's own names and fixed expressions are the caller's to keep as they stand
(`thesaurus.Thesaurus.fixed_words` and `fixed_phrases`). Every function returns
lowercase forms.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Protocol

from rubric_tools.audit.lexicon_tables import read_tables

#: Words never inflected: articles, determiners, pronouns, prepositions, conjunctions,
#: modals and the forms of "be", "have" and "do" (the thesaurus handles modals).
FUNCTION_WORDS = frozenset(
    """
    a an the of to and or in on at by for with from as than that this these those its their his her our your
    any all each every such some no not nor never none is are was were be been being am has have had having do
    does did shall will may must can could would should might it they we he she i you me us them him which
    who whom whose what when where whereas whether there here then so if but also only very per via upon into
    onto out up off over under about after before until unless while although though because since both either
    neither another other same whereby thereof therein hereof herein hereby hereunder thereunder within
    without against between among throughout during despite regarding concerning following including
    excluding notwithstanding pending according provided except save whereas however unless
    """.split()
)
#: Modals: never inflected as verbs ("shalls", "cans").
MODALS = frozenset("may might shall should will would must can could".split())
#: Verbs whose infinitive after them is bare ("let Provider re-identify"): their participle
#: is no synonym before "to" ("is let to re-identify" is no English).
BARE_INFINITIVE_VERBS = frozenset("let make help".split())
#: The forms of "be".
BE_FORMS = frozenset(("am", "is", "are", "was", "were", "be", "been", "being"))
#: Verbs with no passive: the copula and the auxiliaries ("X is Y" is not "Y is been by X"),
#: the verbs that link a subject to its complement ("X becomes public domain" is not "public
#: domain is become by X") and the verbs of state that take no agent ("X means Y", "X costs Y").
NO_PASSIVE_VERBS = frozenset(
    ("be", "have", "do", "become", "remain", "seem", "appear", "stay", "mean", "equal", "cost", "lack", "resemble")
)
#: Inflection tags of a verb's forms, in the order they are written.
VERB_TAGS = ("VB", "VBZ", "VBD", "VBN", "VBG")
#: A word made of a prefix and a word the lexicon knows inflects like that word
#: ("reidentify" / "reidentifies", "re-identify" / "re-identified").
_PREFIXES = ("re", "sub", "de", "co", "pre", "un", "non", "over", "under", "out", "mis")


@contextmanager
def _kept_for_good() -> Iterator[None]:
    """What is built meanwhile lives as long as the process (the lexicon's tables: a few
    lists of lines, or, read by lemminflect itself, some 300,000 dicts and tuples): no
    collection runs while it is built, as it would free nothing, and it is frozen after
    (`gc.freeze`), so that the collector's full passes stop walking it. As
    `rubric_tools.cli` does for start-up."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
    gc.freeze()


class _Lookup(Protocol):
    def all_lemmas(self, word: str) -> dict[str, tuple[str, ...]]: ...

    def all_inflections(self, lemma: str, upos: str) -> dict[str, tuple[str, ...]]: ...


class _Library:
    """lemminflect asked itself: where its tables cannot be read directly
    (`lexicon_tables.read_tables`)."""

    def __init__(self) -> None:
        import lemminflect  # imports numpy, which only this fallback needs

        self._library: Any = lemminflect
        self._library.getAllLemmas("be")  # both tables read now, kept for good
        self._library.getAllInflections("be")

    def all_lemmas(self, word: str) -> dict[str, tuple[str, ...]]:
        return dict(self._library.getAllLemmas(word))

    def all_inflections(self, lemma: str, upos: str) -> dict[str, tuple[str, ...]]:
        return dict(self._library.getAllInflections(lemma, upos=upos))


@lru_cache(maxsize=1)
def _lookup() -> _Lookup:
    """lemminflect's lexicon: its tables read on first use (`lexicon_tables`: about 0.02 s
    of CPU; lemminflect's own reader takes 0.3 s, and imports numpy)."""
    with _kept_for_good():
        return read_tables() or _Library()


def preload() -> None:
    """Read the lexicon's tables now. A command that audits in forked workers calls this
    before forking, so that the workers share one copy instead of each reading its own."""
    _lookup()


_LETTERS = re.compile(r"[a-z]+(?:-[a-z]+)*")


def _plain(form: str, like: str) -> bool:
    """Letters only (a hyphen when the base form has one): no "fee'd"."""
    return bool(_LETTERS.fullmatch(form)) and ("-" not in form or "-" in like)


@lru_cache(maxsize=8192)
def lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """Base forms of `word` by part of speech ("NOUN", "VERB", "ADJ", "ADV", "AUX"), most
    likely first; empty when the lexicon does not know the word. A modal has no verb reading."""
    word = word.lower()
    found = _lookup().all_lemmas(word)
    if word in MODALS:
        found = {pos: forms for pos, forms in found.items() if pos not in ("VERB", "AUX")}
    return {pos: tuple(f.lower() for f in forms if _plain(f.lower(), word)) for pos, forms in found.items() if forms}


def known(word: str) -> bool:
    """Whether the lexicon knows `word` at all (an unknown word is read as a name)."""
    return bool(lemmas(word))


def is_modifier(word: str) -> bool:
    """Whether the lexicon lists an adjective or adverb reading of `word` ("void", "promptly")."""
    found = lemmas(word)
    return "ADJ" in found or "ADV" in found


def is_verb(word: str) -> bool:
    return "VERB" in lemmas(word)


@lru_cache(maxsize=8192)
def only_as(word: str, part_of_speech: str) -> bool:
    """Whether the lexicon reads `word` only as `part_of_speech` ("assign" only as a "VERB",
    "hereby" only as an "ADV"; "transfer" is a noun too)."""
    return set(lemmas(word)) == {part_of_speech}


def _split_compound(lemma: str) -> tuple[str, str] | None:
    """(prefix, known word) of a word the lexicon does not know: "re-identify" -> ("re-",
    "identify"), "reidentify" -> ("re", "identify")."""
    if known(lemma):
        return None
    if "-" in lemma:
        prefix, _, head = lemma.rpartition("-")
        return (prefix + "-", head) if known(head) else None
    for prefix in _PREFIXES:
        head = lemma[len(prefix) :]
        if lemma.startswith(prefix) and len(head) >= 4 and "VERB" in lemmas(head):
            return prefix, head
    return None


@lru_cache(maxsize=8192)
def verb_variants_by_tag(lemma: str) -> dict[str, tuple[str, ...]]:
    """Every form of a verb the lexicon lists, by tag (`VERB_TAGS`), each mapping back to
    `lemma` as its most likely verb lemma, the form to write first (`_preferred`): "bear"
    -> VBN ("borne", "born"), "strike" -> VBN ("struck", "stricken"). Empty when the lexicon
    has no such verb or a verb with no past tense ("fee" as a verb: its only past, "feed",
    is another verb)."""
    lemma = lemma.lower()
    compound = _split_compound(lemma)
    if compound is not None:
        prefix, head = compound
        return {tag: tuple(prefix + f for f in found) for tag, found in verb_variants_by_tag(head).items()}
    if lemma in MODALS or lemma not in lemmas(lemma).get("VERB", ()):
        return {}
    table = _lookup().all_inflections(lemma, "VERB")
    forms: dict[str, tuple[str, ...]] = {"VB": (lemma,)}
    for tag in VERB_TAGS[1:]:
        found = [
            form
            for form in dict.fromkeys(f.lower() for f in table.get(tag, ()))
            if _plain(form, lemma) and (form == lemma or lemmas(form).get("VERB", ("",))[0] == lemma)
        ]
        if found:
            forms[tag] = tuple(sorted(found, key=lambda form: _preferred(form, lemma)))
    if "VBN" not in table:
        # "sublet": the table's only past is "subletted"
        forms.update({tag: (form,) for tag, form in _past_of_head(lemma).items()})
    if "VBD" not in forms and "VBN" not in forms:
        return {}
    forms.setdefault("VBN", forms.get("VBD", (lemma,)))
    forms.setdefault("VBD", forms["VBN"])
    return forms


def _preferred(form: str, lemma: str) -> tuple[bool, bool]:
    """Sorts first a form other than the verb's base ("forbidden" before the rare participle
    "forbid"), then one the lexicon reads only as the verb's: a participle that is also an
    adjective in its own right may have drifted from the verb ("born" beside "borne",
    "stricken" beside "struck"), so it is accepted, not written."""
    return form == lemma, "ADJ" in lemmas(form)


@lru_cache(maxsize=8192)
def verb_forms_by_tag(lemma: str) -> dict[str, str]:
    """The form of a verb to write for each tag (`VERB_TAGS`; `verb_variants_by_tag` lists
    them all)."""
    return {tag: found[0] for tag, found in verb_variants_by_tag(lemma).items()}


def _past_of_head(lemma: str) -> dict[str, str]:
    """The past forms of a prefixed verb's head, prefixed ("sublet" -> "let": "sublet"), for
    a verb the table gives no past participle; empty when `lemma` is no prefix and verb."""
    for prefix in _PREFIXES:
        head = lemma[len(prefix) :]
        if lemma.startswith(prefix) and len(head) >= 3 and head in lemmas(head).get("VERB", ()):
            past = verb_forms_by_tag(head)
            return {tag: prefix + past[tag] for tag in ("VBD", "VBN") if tag in past}
    return {}


def verb_forms(lemma: str) -> tuple[str, ...]:
    """Every form of a verb: base, third person, past, past participle, gerund ("hold",
    "holds", "held", "holding"), each in every spelling the lexicon lists ("borne", "born");
    the lemma alone when it is no verb the lexicon knows."""
    forms = verb_variants_by_tag(lemma)
    return tuple(dict.fromkeys(f for tag in VERB_TAGS for f in forms.get(tag, ()))) or (lemma.lower(),)


def verb_form(lemma: str, tag: str) -> str | None:
    """One form of a verb ("VBZ", "VBD", "VBN", "VBG"), or None."""
    return verb_forms_by_tag(lemma).get(tag)


def past_participle(lemma: str) -> str | None:
    return verb_form(lemma, "VBN")


def past_participles(lemma: str) -> tuple[str, ...]:
    """Every past participle of a verb the lexicon lists, the one to write first."""
    return verb_variants_by_tag(lemma).get("VBN", ())


@lru_cache(maxsize=8192)
def plurals(noun: str) -> tuple[str, ...]:
    """The plurals of a noun that map back to it ("datum" -> "data"); () for none."""
    noun = noun.lower()
    table = _lookup().all_inflections(noun, "NOUN")
    found = [f.lower() for f in table.get("NNS", ())]
    return tuple(p for p in dict.fromkeys(found) if _plain(p, noun) and noun in lemmas(p).get("NOUN", ()))


def plural(noun: str) -> str | None:
    """The plural of a noun other than the noun itself ("claim" -> "claims"), or None."""
    return next((p for p in plurals(noun) if p != noun), None)


def _gerund_or_participle(word: str) -> bool:
    """Whether `word` is the -ing or -ed form of a verb other than itself ("training")."""
    return any(
        verb != word and word in (verb_form(verb, "VBG"), verb_form(verb, "VBN"))
        for verb in lemmas(word).get("VERB", ())
    )


def participle_verbs(word: str) -> tuple[str, ...]:
    """The verbs `word` is a past participle of ("stored" -> "store"; "borne" -> "bear")."""
    return tuple(verb for verb in lemmas(word).get("VERB", ()) if word in past_participles(verb))


def is_past_participle(word: str) -> bool:
    """Whether `word` is the past participle of a verb the lexicon knows ("permitted")."""
    return bool(participle_verbs(word))


def fixed(word: str) -> bool:
    """Whether `word` is written as it stands, whatever the gate: a function word, a
    number, a word the lexicon does not know (a name), an adjective or an adverb."""
    word = word.lower()
    return word in FUNCTION_WORDS or not word.isalpha() or not known(word) or is_modifier(word) or word in MODALS


def _noun_forms(word: str, nouns: tuple[str, ...]) -> list[str]:
    """A noun in both numbers: the lemma and its plurals; a noun in its own right as written
    and, unless it is a gerund ("training"), its plurals."""
    if word in nouns:
        return [word, *(() if _gerund_or_participle(word) else plurals(word))]
    return [nouns[0], *plurals(nouns[0])] if nouns else []


@lru_cache(maxsize=8192)
def noun_forms(word: str) -> tuple[str, ...]:
    """`word` read as a noun, in both numbers ("fee" -> fee, fees; "losses" -> loss,
    losses); `(word,)` when the lexicon has no such noun or it is a function word or a number."""
    word = word.lower()
    if word in FUNCTION_WORDS or not word.isalpha():
        return (word,)
    forms = list(dict.fromkeys(_noun_forms(word, lemmas(word).get("NOUN", ()))))
    return tuple(forms) if word in forms else (word, *forms)


@lru_cache(maxsize=8192)
def word_forms(word: str, reading: str | None = None) -> tuple[str, ...]:
    """The forms a paraphrase may write for `word`: a noun in both numbers, a verb in
    every tense and person, the lemma first ("vests" -> vest, vests, vested, vesting;
    "fees" -> fee, fees). `(word,)` for a word that is never inflected (`fixed`), and
    for a noun the lexicon lists as its own base form that is already an inflection
    ("damages", "training"). `reading` ("NOUN" or "VERB"), when the caller knows how the
    word is used ("the title", "to title"), keeps the forms of that reading only."""
    word = word.lower()
    if fixed(word):
        return (word,)
    found = lemmas(word)
    nouns, verbs = found.get("NOUN", ()), found.get("VERB", ())
    if reading == "NOUN" and not nouns:
        return (word,)  # read as a noun the lexicon does not list ("the privacy act"): as written
    if reading == "NOUN":
        verbs = ()
    elif reading == "VERB" and verbs:
        nouns = ()
    forms = _noun_forms(word, nouns)
    if word in nouns and word not in verbs:
        verbs = ()  # "damages", "training": the noun in its own right, not a form of "damage", "train"
    if verbs:
        forms += verb_forms(verbs[0]) if verb_forms_by_tag(verbs[0]) else ()
    forms = list(dict.fromkeys(forms))
    return tuple(forms) if word in forms else (word, *forms)


def inflect_like(lemma: str, model: str, model_lemma: str) -> str | None:
    """`lemma` in the form `model` has as a form of `model_lemma` ("forbid", "prohibits",
    "prohibit" -> "forbids"); the lemma itself when `model` is no inflected verb form or
    `lemma` no verb ("prohibited" -> "unlawful"); None for a verb with no such form
    ("forego", whose forms the lexicon gives to "forgo": no "the tenant forego")."""
    if model == model_lemma:
        return lemma
    tags = verb_forms_by_tag(model_lemma)
    # A form both past and participle ("prohibited") is read as the participle: "is prohibited".
    tag = next((t for t in ("VB", "VBZ", "VBN", "VBD", "VBG") if tags.get(t) == model), None)
    if tag is None or tag == "VB":
        return lemma
    forms = verb_forms_by_tag(lemma)  # also a prefixed verb: "fine-tune" -> "fine-tuning"
    return forms.get(tag) if forms or is_verb(lemma) else lemma


def alternation(forms: Iterable[str]) -> str:
    """Word forms as one readable regex, in the order given, each word's forms written as an
    auditor writes them — the word and its endings: "fees?", "prohibit(?:s|ed|ing)?",
    "(?:forbid(?:s|den|ding)?|forbade)"; a lone form as it is. The regex accepts exactly the
    forms given (no `\\w*`: "bar" must not become "bargain")."""
    words = [re.escape(f).replace("\\-", "-").replace("\\ ", " ") for f in dict.fromkeys(forms)]
    if len(words) == 1:
        return words[0]
    written = [_word_and_endings(family) for family in _families(words)]
    return written[0] if len(written) == 1 and _one_item(written[0]) else "(?:" + "|".join(written) + ")"


#: A form joins a word's family when it keeps all of the word but its last letter
#: ("authorize" -> "authorizing"), and at least this many letters.
_STEM = 3


def _families(words: list[str]) -> list[list[str]]:
    """The forms grouped by the word they inflect, in order of first appearance: a form
    joins the first family whose first word it extends (or extends but for its last letter)."""
    families: list[list[str]] = []
    for word in words:
        for family in families:
            head = family[0]
            stem = head if len(head) <= _STEM else head[:-1]
            if len(stem) >= _STEM and word.startswith(stem) and word.isalpha() and head.isalpha():
                family.append(word)
                break
        else:
            families.append([word])
    return families


def _word_and_endings(family: list[str]) -> str:
    """One word's forms: "train(?:s|ed|ing)?", "fees?", "authoriz(?:e|es|ed|ing)"."""
    if len(family) == 1:
        return family[0]
    stem = family[0]
    for word in family[1:]:
        while not word.startswith(stem):
            stem = stem[:-1]
    endings = list(dict.fromkeys(word[len(stem) :] for word in family))
    optional = "" in endings
    endings = [e for e in endings if e]
    if len(endings) == 1 and len(endings[0]) == 1 and optional:
        return f"{stem}{endings[0]}?"
    group = "(?:" + "|".join(endings) + ")"
    return f"{stem}{group}?" if optional else f"{stem}{group}"


def _one_item(regex: str) -> bool:
    """Whether `regex` is one word, or a word and its endings, with no top-level `|`."""
    outside = re.sub(r"\(\?:[^()]*\)", "", regex)
    return regex.count("(") <= 1 and "|" not in outside
