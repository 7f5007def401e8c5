"""How natural a piece of evidence reads: the checks it must pass and the order it is shown in.

`problems(text)` lists what no lawyer would write:

- regex debris: a backslash, a bracket, a brace, `^`, `|`, `*`, `+`, `(?`;
- a word or a pair of words written twice in a row ("make make use of of");
- a dangling preposition: a preposition right before another ("make use of to train",
  "fined by under §6.2", "within after"; not the pairs English has, "provided for in",
  "until after"), a preposition before a conjunction ("training on and improve"), or a
  preposition, an article or a conjunction as the last word; a preposition that takes a
  noun before a clause ("upon it validates"), or a word that opens a clause before a noun
  alone ("48 hours once confirmation"); a citation between a verb and its object
  ("assigns under §6.2 of the agreement consultant"); a number whose words and figures
  disagree ("three (0) days", "73 (0) hours"); a quotation mark with no partner; a count
  that disagrees with its unit ("3 business day 2 business day", "one years"; not "a 5 day
  period", where the unit modifies a noun); a
  malformed inflection ("illegaled", "forgoed");
- a subject that disagrees with its verb ("laws prohibits", "provider are");
- words out of their place: a modal or a bare "be" after a finite auxiliary ("has already
  must store", "is not be liable"); a verb's base form after "be" ("must be forego"); a
  word only ever a verb where an article makes a noun of it ("consents to the assign of",
  "the hereby assign of", "gives us an rescind for"); "a" or "an" that does not agree with
  the sound of the word after it ("an rescind"); a determiner before a personal pronoun
  ("gives no us an exit"), or a citation ("gives, under section 6.2, us"); "each" or
  "every" before a plural ("each obligations"); "despite whether"; a gerund after the
  performative "hereby" ("Provider hereby irrevocably assigning …"), which wants a finite
  verb ("hereby assigns", "is hereby deleted");
- for a sentence (`sentence=True`): no capital first letter or no final stop, and a clause
  without a finite verb — each part between ";", ":" and ", but" must have one,
  unless it is quoted, and so must the clause after "that" where a verb or a noun like
  "case" takes one ("It is not the case that customer liability supercap." fails); a
  clause that opens with a modal or an auxiliary has lost its subject ("Nobody has
  suggested that must release the code." fails).

Generated texts that fail these checks are dropped before they are used (`texts`), so a
finding never rests on a sentence nobody would write.

`score(...)` orders a finding's evidence, most natural first (the first `max-evidence`
are shown):

| what | score |
| --- | --- |
| the matter's own text (a document, a probe, a trajectory, a hidden answer) | +4 |
| generated around a clause of the matter's own texts | +3 |
| generated around a witness that is itself a clause | +2 |
| generated around a neutral carrier clause | +1 |
| a fragment | 0 |
| each well-formedness problem | -5 |
| length | -1 per 40 characters |

Ties keep the order the audit found them in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

from rubric_tools.audit import lexicon
from rubric_tools.audit.agreement import MANDATIVE_VERBS, agreement_errors
from rubric_tools.audit.grammar import (
    ADJECTIVES,
    AUXILIARIES,
    MODALS,
    finite_verb_at,
    plural_form,
    verb_of,
)
from rubric_tools.audit.number_wording import number_problems
from rubric_tools.audit.verb_government import government_problems
from rubric_tools.audit.word_order import PREPOSITIONS, dangling, out_of_place, verb_only
from rubric_tools.audit.wording import article, doubled, words

_DEBRIS = re.compile(r"[\\\[\]{}^|*+]|\(\?|\x00")
#: A conjunction with nothing after it before the clause ends: "… the carve-out and; we
#: reject that", "… the carve-out and, which the client cannot accept".
_CONJUNCTION_BEFORE_STOP = re.compile(r"\b(?:and|or|but|nor)\s*(?:[;.:]|,\s*which\b)", re.IGNORECASE)
#: A citation set in a clause without commas, with the words on both sides of it.
_BARE_CITATION = re.compile(r"\b(\w+) under (?:section|§)\s*[\d.]*\d(?: of the agreement)? (\w+)", re.IGNORECASE)


def _continues(word: str) -> bool:
    """Whether `word` can follow a verb and a citation: a preposition, "to", a verb, a modal."""
    return word in PREPOSITIONS or word in MODALS or word in AUXILIARIES or verb_of(word) is not None


_SEGMENTS = re.compile(r";|:(?!\d)|,\s+but\b", re.IGNORECASE)
#: Words after which "that" opens a clause ("it is not the case that <clause>").
_COMPLEMENT = re.compile(
    r"\b(?:case|requires?|agrees?|means?|suggest(?:s|ed)?|says?|said|accept(?:s|ed)?|proposal|proposes?|"
    r"provides?|provided|providing|argues?|contends?|claims?|view|position|fact|believes?|thinks?|notes?|states?|"
    r"stated|recommends?|holds?|held|concluded?|ensures?|warrants?|represents?|acknowledges?|confirms?)"
    r"\s+that\s+([^,;:.]*)",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"[\"“][^\"”]*[\"”]")
#: The checks of `_problems` below, run on every generated text: compiled once.
_QUOTATION_MARK = re.compile(r"[\"“”]")
_FIRST_LETTER = re.compile(r"[^\W\d_]")
_FINAL_STOP = re.compile(r"[.?!][\"”’')]*$")


#: A determiner only a noun follows ("that" and "this" also stand alone: "that it does")
#: before a personal pronoun, written in lowercase ("a US locker" is a name).
_DETERMINED_PRONOUN = re.compile(
    r"\b(?i:the|a|an|no|any|every|each|such|its|their|some) (?:us|them|him|me|it|we|they)\b"
)
#: What `_DETERMINED_PRONOUN` needs: a lowercase pronoun after a space (most texts have none).
_PRONOUN_AFTER_SPACE = re.compile(r" (?:us|them|him|me|it|we|they)\b")
#: A citation set between a verb and a pronoun, its object ("gives, under section 6.2, us").
_CITATION_BEFORE_PRONOUN = re.compile(
    r", (?:under|pursuant to|subject to) (?:section|§)\s*[\d.]*\d(?: of the agreement)?, (?:us|them|him|me|it)\b",
    re.IGNORECASE,
)


#: "despite" takes a noun, not a clause: "regardless of whether" is no "despite whether".
_DESPITE_WHETHER = re.compile(r"\b(?:despite|in spite of|notwithstanding) whether\b", re.IGNORECASE)
#: "hereby" makes the act it qualifies happen by these words, so a finite verb follows it
#: ("hereby assigns", "is hereby deleted"), through other adverbs, never a gerund: an
#: inflection swapped into such a clause ("Provider hereby irrevocably assigning …").
_HEREBY_GERUND = re.compile(r"\bhereby (?:[a-z]+ly )*([a-z]+ing)\b", re.IGNORECASE)
#: A verb of permission takes its object before the act it permits ("lets the tenant
#: terminate") or the act as a noun or gerund ("allows termination", "permits subletting"),
#: never the bare verb: "allows terminate" (a regex's optional object left out).
_PERMISSION_BEFORE_VERB = re.compile(
    r"\b(?:allow|permit|enable|let|authori[sz]e)(?:s|ed|ted|d|ing|ting)? ([a-z]+)\b(?![-'’])", re.IGNORECASE
)


#: The stems `_PERMISSION_BEFORE_VERB` opens with: an ASCII text holding none has no match.
_PERMISSION_STEMS = ("allow", "permit", "enable", "let", "authori")


def _may_permit(text: str, lowered: str) -> bool:
    """Whether `text` may hold a verb of permission: a plain search of its lowercase for the
    stems first (most texts hold none); in a text with other letters than ASCII, `re`'s
    case-insensitive matching is left to decide."""
    return not text.isascii() or any(stem in lowered for stem in _PERMISSION_STEMS)


def _each_plural(determiner: str, noun: str) -> bool:
    """ "each" or "every" before a plural ("each obligations": a swap for "all")."""
    return determiner in ("each", "every") and plural_form(noun) and not lexicon.is_verb(noun)


_ARTICLE = re.compile(r"\b([Aa]n?) ([A-Za-z][\w'-]*)")


def _article_disagreements(text: str) -> list[str]:
    """ "a" or "an" that does not agree with the sound of the word after it ("an rescind")."""
    return [
        f"{written.group(1)} {written.group(2)}"
        for written in _ARTICLE.finditer(text)
        if written.group(1).lower() != article(written.group(2))
    ]


def _clause_without_verb(text: str) -> list[str]:
    unquoted = _QUOTED.sub(" QUOTED ", text)
    found = []
    for segment in _SEGMENTS.split(unquoted):
        found += _unfinished(words(segment), segment, imperative_allowed=True)
    # Every complement holds "that": most texts do not, and the search tries each word.
    for complement in _COMPLEMENT.finditer(unquoted) if "that" in unquoted.lower() else ():
        # After "requires that", "recommends that" the verb is in the subjunctive: "… that
        # the tenant repair the roof" has its verb.
        mandated = complement.group(0).split()[0].lower() in MANDATIVE_VERBS
        found += _unfinished(
            words(complement.group(1)), complement.group(1), imperative_allowed=False, subjunctive=mandated
        )
    return found


def _unfinished(
    tokens: Sequence[str], segment: str, *, imperative_allowed: bool, subjunctive: bool = False
) -> list[str]:
    """A clause with no finite verb, or one that opens with its verb (no subject)."""
    if not tokens or "quoted" in tokens:
        return []
    if imperative_allowed and verb_of(tokens[0]) == (tokens[0], "base"):
        return []  # "Delete … and insert the agreed wording."
    in_subjunctive = subjunctive and any(verb_of(word) == (word, "base") for word in tokens[1:])
    if not in_subjunctive and not any(finite_verb_at(tokens, i) for i in range(len(tokens))):
        return [f"clause without a verb: {segment.strip()!r}"]
    if tokens[0] in MODALS or tokens[0] in AUXILIARIES:
        return [f"clause without a subject: {segment.strip()!r}"]
    opening = verb_of(tokens[0])
    if (
        opening is not None
        and opening[1] in ("3rd person", "past")
        and not any(finite_verb_at(tokens, i) for i in range(1, len(tokens)))
    ):
        # Its only verb opens it: "Covenants to publish the source." has no subject.
        return [f"clause without a subject: {segment.strip()!r}"]
    return []


def problems(text: str, *, sentence: bool = True) -> list[str]:
    """What keeps `text` from reading as something a lawyer would write (empty: nothing)."""
    return list(_problems(text, sentence))


@lru_cache(maxsize=16384)  # the same candidate sentences are judged again for every entry
def _problems(text: str, sentence: bool) -> tuple[str, ...]:
    found: list[str] = []
    if _DEBRIS.search(text):
        found.append("regex debris")
    found += [f"doubled words: {pair}" for pair in doubled(text)]
    tokens = words(text)
    found += dangling(tokens)
    found += out_of_place(tokens)
    found += [f"article disagrees: {pair}" for pair in _article_disagreements(text)]
    # The searches below try every word of the text: each is run only on a text holding the
    # words it needs (most do not), found by a plain search first. Their letters have no
    # other case form that `re.IGNORECASE` would match, so the lowercased text tells.
    lowered = text.lower()
    for m in _DETERMINED_PRONOUN.finditer(text) if _PRONOUN_AFTER_SPACE.search(text) else ():
        found.append(f"a determiner before a pronoun: {m.group(0)}")
    found += [f"a citation before a pronoun: {m.group(0)}" for m in _CITATION_BEFORE_PRONOUN.finditer(text)]
    for m in _DESPITE_WHETHER.finditer(text) if "whether" in lowered else ():
        found.append(f"a noun's preposition before a clause: {m.group(0)}")
    for m in _HEREBY_GERUND.finditer(text) if "hereby" in lowered else ():
        if verb_of(m.group(1).lower()) is not None or "VERB" in lexicon.lemmas(m.group(1).lower()):
            found.append(f"a gerund after 'hereby': {m.group(0)}")
    for m in _PERMISSION_BEFORE_VERB.finditer(text) if _may_permit(text, lowered) else ():
        if verb_only(m.group(1).lower()):
            found.append(f"a verb of permission before a bare verb: {m.group(0)}")
    # The two passes below over pairs and triples of words need a word most texts lack:
    # "each" or "every", and "of".
    pairs = zip(tokens, tokens[1:], strict=False) if "each" in tokens or "every" in tokens else ()
    for determiner, noun in pairs:
        if determiner in ("each", "every") and _each_plural(determiner, noun):
            found.append(f"'{determiner}' before a plural: {determiner} {noun}")
    found += number_problems(text)
    triples = zip(tokens, tokens[1:], tokens[2:], strict=False) if "of" in tokens else ()
    for article_, word, of in triples:
        if article_ not in ("the", "a", "an") or of != "of" or word.endswith("ing"):  # "the hosting of" is a noun
            continue
        if lexicon.known(word) and "NOUN" not in lexicon.lemmas(word):
            found.append(f"an article before no noun: {article_} {word} of")  # "the irrespective of whether"
    found += [f"an article before no noun phrase: {m.group(0)}" for m in _ARTICLE_BEFORE_NO_NOUN.finditer(text)]
    for m in _WORD_BEFORE_DETERMINER.finditer(lowered):  # no comma between: "perpetual the other client"
        if _only_an_adjective(m.group(1)):
            found.append(f"an adjective before a determiner: {m.group(0)}")
    if text.count('"') % 2 or text.count("“") != text.count("”"):
        found.append("a quotation never closed or never opened")  # a clause cut inside one
    found += [f"a conjunction before a stop: {m.group(0)}" for m in _CONJUNCTION_BEFORE_STOP.finditer(text)]
    found += government_problems(tokens)
    for word in tokens:
        if word.endswith("ed") and (word[:-2] in ADJECTIVES or word.endswith("goed")):
            found.append(f"malformed inflection: {word}")  # "illegaled", "forgoed"
    for cited in _BARE_CITATION.finditer(text) if " under " in lowered else ():
        verb, following = verb_of(cited.group(1).lower()), cited.group(2).lower()
        if verb is not None and verb[1] != "gerund" and not _continues(following):
            found.append(f"citation between a verb and its object: {cited.group(0)}")
    for piece in _QUOTATION_MARK.split(text):  # a quotation is no subject of the words after it
        found += [f"disagreement: {pair}" for pair in agreement_errors(piece)]
    if sentence:
        stripped = text.strip()
        first = _FIRST_LETTER.search(stripped)
        if first is not None and first.group(0).islower():
            found.append("no capital first letter")
        if not _FINAL_STOP.search(stripped):
            found.append("no final stop")
        found += _clause_without_verb(stripped)
    return tuple(found)


#: An article before a word that opens no noun phrase: a preposition, a conjunction, a
#: finite "be", a modal that is no noun, "whether"/"if"/"unless"/"because"/"although"
#: ("provides for the whether or not …", a frame's noun phrase filled with a clause's
#: fragment). Not a word a hyphen or an apostrophe continues ("the would-be assignee", "the
#: by-laws"), nor one that is also a noun or opens a noun phrase after an article ("the
#: following", "the not inconsiderable cost", "the whereas clauses", "a while", "the will");
#: "a"/"an" only before the clause openers, as a lowercase letter names a paragraph ("exhibit
#: a to the lease", "clause a is deleted").
_ARTICLE_BEFORE_NO_NOUN = re.compile(
    r"\bthe (?:of|by|to|for|with|from|at|on|in|into|upon|under|within|without|after|before|during|until|than|"
    r"and|or|nor|but|that|is|are|was|were|shall|should|would|could|whether|if|unless|because|although|"
    r"regardless|irrespective)\b(?![-'’])"
    r"|\ban? (?:whether|unless|because|although|regardless|irrespective|than)\b(?![-'’])",
    re.IGNORECASE,
)
#: A word right before one that opens a noun phrase, which no adjective takes as its object
#: ("that" opens a clause: "it is unlawful that …"). Each word is taken whole (`++`): a
#: shorter part of one is never followed by the space, and the search tries every word.
_WORD_BEFORE_DETERMINER = re.compile(r"\b([a-z]++) (?:the|an?|its|their|his|her|our|your|any|each|every|such)\b")
#: Adjectives that do take one ("worth the rent", "due the landlord").
_ADJECTIVES_WITH_OBJECTS = frozenset("worth like unlike near due opposite".split())


def _only_an_adjective(word: str) -> bool:
    """An adjective the lexicon knows as nothing else but an adverb: no verb, noun or function word."""
    if word in lexicon.FUNCTION_WORDS or word in _ADJECTIVES_WITH_OBJECTS:
        return False
    readings = lexicon.lemmas(word)
    return "ADJ" in readings and set(readings) <= {"ADJ", "ADV"}


#: Scores of where a text came from (see the module docstring).
ORIGIN_SCORES = {"matter": 4, "matter clause": 3, "clause": 2, "carrier": 1, "fragment": 0}


def score(text: str, origin: str, *, sentence: bool = True) -> float:
    """How natural `text` reads, from its origin ("matter", "matter clause", "clause",
    "carrier", "fragment"), its well-formedness and its length."""
    checked = problems(text, sentence=sentence)
    return ORIGIN_SCORES.get(origin, 0) - 5 * len(checked) - len(text) / 40


def text_score(text: str, origin: str | None, generated: bool) -> float:
    """`score` of a text of known verdict: the matter's own texts are judged without the
    sentence checks (they are the author's words, shown as written)."""
    if not generated:
        return score(text, "matter", sentence=False)
    return score(text, origin or "fragment", sentence=origin not in (None, "fragment"))


T = TypeVar("T")


def rank(items: Sequence[T], scored: Callable[[T], float]) -> list[T]:
    """`items`, most natural first (stable: ties keep their order)."""
    return [item for _, _, item in sorted(((-scored(item), n, item) for n, item in enumerate(items)))]
