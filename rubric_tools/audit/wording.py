"""Putting evidence sentences together: a clause placed in a frame or a habitat reads as
one sentence a lawyer would write.

    fill("it is not the case that {w}.", "Provider may use Customer Data to train.")
    -> "It is not the case that Provider may use Customer Data to train."

- the clause is *embedded*: its final punctuation comes off, a leading "that" or "and"
  (already said by the frame) comes off, and its first word is lowercased when it is a
  function word ("The Provider" -> "the Provider"; a name or a defined term keeps its
  capital);
- the whole is one *sentence*: a capital first letter, exactly one final stop;
- "a" and "an" agree with the next word's sound ("an indemnity", "a unilateral right",
  "an MSA", "an 18-month term");
- no word is written twice at a join ("that that").

A slot in quotes (`'the words "{w}" are deleted.'`) takes any words, a fragment included:
quoting is how drafting names words. Every other slot takes a clause; which texts are
clauses is `clauses.shape`'s business.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: A word: letters, digits and the marks legal words carry inside them ("4.2", "1,000",
#: "provider's", "re-identify", "§6.2", "5%").
WORD = re.compile(r"[\w§$%]+(?:[.,'’-][\w%]+)*")

#: Words written in lowercase inside a sentence: a capital on them only marks a sentence start.
FUNCTION_WORDS = frozenset(
    """
    a an the any each every all some no none this that these those such either neither both another other
    it its we our us they their them he she his her i you your there here
    and or but nor so yet if when where while whereas unless until because although though since once
    after before upon within without under over by for from of in on at to with into onto between among
    during following notwithstanding subject save except including
    may shall will must can should would could might is are was were be been has have had does do did
    nothing nobody what which who whom whose how why whether
    """.split()
)
#: Words a frame already says before its slot: said again by the clause they would be doubled.
_LEADING_JOINERS = ("that", "and", "but", "or", "so", "then")
_FINAL_PUNCTUATION = re.compile(r"[\s.;:,!?]+$")
_SENTENCE_END = re.compile(r"[.?!][\"”’')]*$")
# `as_sentence` and `fix_articles` shape every generated text: their patterns compiled once.
_OPENING_QUOTES = re.compile(r"[\"“‘'(]*")
_LATER_SENTENCE = re.compile(r"(\b[^\W\d_]{3,}[.?!]\s+)([a-z])")
#: What `_LATER_SENTENCE` needs, found without trying every word first (most texts have one
#: sentence).
_STOP_THEN_LOWERCASE = re.compile(r"[.?!]\s+[a-z]")
_ARTICLE_AND_WORD = re.compile(r"\b([Aa]n?)(\s+)([\w§$%]+)")
_EIGHTEEN_OR_ELEVEN = re.compile(r"1[18](?:\d{3})*(?!\d)")
_INITIALISM = re.compile(r"[A-Z]{2,}(?![a-z])")

#: Words opening with a vowel letter that sound like a consonant ("a unique", "a one-time",
#: "a European"), and with a consonant letter that sound like a vowel ("an hour").
_CONSONANT_SOUND = re.compile(r"^(?:uni(?![nmd])|us[aeiu]|uti|eu|ewe|one\b|once\b|ubiq)", re.IGNORECASE)
_VOWEL_SOUND = re.compile(r"^(?:hour|honest|honou?r|heir)", re.IGNORECASE)
#: Letters whose names open with a vowel sound: "an MSA", "an NDA", "an SLA", "a DPA".
_VOWEL_LETTER_NAMES = frozenset("AEFHILMNORSX")


@lru_cache(maxsize=16384)  # asked of the same texts again by each check of a sentence (some four times on average)
def words(text: str) -> tuple[str, ...]:
    """The words of `text`, lowercased, without the punctuation between them."""
    return all_words(text)


def all_words(text: str) -> tuple[str, ...]:
    """`words`, not remembered: for a text read once (a matter's sentences joined)."""
    if text.isascii():  # lowercasing ASCII moves no word's bounds: the text is lowercased once
        return tuple(WORD.findall(text.lower()))
    return tuple(w.lower() for w in WORD.findall(text))


@lru_cache(maxsize=8192)  # asked of every "a" or "an" of every generated sentence, of few words
def article(word: str) -> str:
    """ "a" or "an" before `word`, by how it sounds."""
    if not word:
        return "a"
    if word[0].isdigit():
        # eight, eighteen, eighty, eleven (and 8,000 or 11,000) open with a vowel sound.
        number = word.replace(",", "")
        return "an" if number.startswith("8") or _EIGHTEEN_OR_ELEVEN.match(number) else "a"
    letters = _INITIALISM.match(word)
    if letters:  # an abbreviation read letter by letter
        return "an" if word[0] in _VOWEL_LETTER_NAMES else "a"
    if _VOWEL_SOUND.match(word):
        return "an"
    if _CONSONANT_SOUND.match(word):
        return "a"
    return "an" if word[0].lower() in "aeiou" else "a"


def fix_articles(text: str) -> str:
    """Every "a"/"an" made to agree with the word after it (its capital kept)."""

    def agree(match: re.Match[str]) -> str:
        written, space, following = match.group(1), match.group(2), match.group(3)
        wanted = article(following)
        if written.lower() == wanted:
            return match.group(0)
        return (wanted.capitalize() if written[0].isupper() else wanted) + space + following

    return _ARTICLE_AND_WORD.sub(agree, text)


@lru_cache(maxsize=1024)  # every frame embeds the same completions: a clause is embedded a dozen times
def embedded(clause: str) -> str:
    """`clause` made ready to sit inside another sentence."""
    text = " ".join(clause.split())
    text = _FINAL_PUNCTUATION.sub("", text)
    first = text.split(" ", 1)
    if len(first) == 2 and first[0].lower() in _LEADING_JOINERS:
        text = first[1]
    head = text.split(" ", 1)[0]
    if head.lower() in FUNCTION_WORDS and head[:1].isupper() and not head.isupper():
        text = head.lower() + text[len(head) :]
    return text


def quoted(words_: str) -> str:
    """Words placed between quotation marks: as written, without final punctuation."""
    return _FINAL_PUNCTUATION.sub("", " ".join(words_.split()))


def as_sentence(text: str) -> str:
    """One sentence: a capital first letter (after any opening quote), one final stop; a
    second sentence inside it opens with a capital too."""
    text = " ".join(text.split())
    if not text:
        return text
    opening = _OPENING_QUOTES.match(text)
    at = opening.end() if opening else 0
    if at < len(text):
        text = text[:at] + text[at].upper() + text[at + 1 :]
    # A later sentence opens with a capital too ("Uncapped liability. That is unenforceable"),
    # after a word, not after an abbreviation ("e.g. the") or a number.
    if _STOP_THEN_LOWERCASE.search(text):
        text = _LATER_SENTENCE.sub(lambda m: m.group(1) + m.group(2).upper(), text)
    text = text.rstrip(" ;:,")  # its only whitespace is a single space between words
    if not _SENTENCE_END.search(text):
        text += "."
    return text


def _join(left: str, inner: str) -> str:
    """`inner` after `left`, without the word `left` ends with repeated at its start."""
    left_words, inner_words = words(left), inner.split(" ", 1)
    if left_words and len(inner_words) == 2 and inner_words[0].lower() == left_words[-1]:
        if inner_words[0].lower() in FUNCTION_WORDS:
            return inner_words[1]
    return inner


def fill(template: str, text: str) -> str:
    """`template` with its slot `{w}` filled by `text`, as one sentence."""
    before, _, after = template.partition("{w}")
    if before.endswith(('"', "“")):
        inner = quoted(text)
    else:
        inner = _join(before, embedded(text))
    return as_sentence(fix_articles(before + inner + after))


def doubled(text: str) -> list[str]:
    """Words or word pairs written twice in a row ("make make", "of of", "use of use of"), and
    a phrase joined to itself by "and" or "or"."""
    tokens = words(text)
    if len(set(tokens)) == len(tokens):
        return []  # each finding below is a word written again: half the texts hold none
    found = []
    for first, second in zip(tokens, tokens[1:], strict=False):
        if first == second and not second.isdigit():
            found.append(f"{second} {second}")
    # A pair written twice: words 0 and 1 again as words 2 and 3 (single words compared
    # first: no slices are built for the pairs that differ at once).
    for index in range(3, len(tokens)):
        if tokens[index - 3] == tokens[index - 1] and tokens[index - 2] == tokens[index] != tokens[index - 1]:
            found.append(" ".join(tokens[index - 3 : index + 1]))
    # A phrase joined to itself: "from time to time and from time to time". Only the places
    # of "and" and "or" are tried, in order, for each size.
    joiners = [index for index, token in enumerate(tokens) if token in ("and", "or")]
    for size in range(1, 5):
        for joiner in joiners:
            start = joiner - size
            if (
                start >= 0
                and joiner + size < len(tokens)
                and tokens[start:joiner] == tokens[joiner + 1 : joiner + size + 1]
            ):
                found.append(" ".join(tokens[start : start + 2 * size + 1]))
    return found
