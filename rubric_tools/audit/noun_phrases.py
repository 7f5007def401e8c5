"""Checks of the noun phrases of generated evidence: what a noun needs before it.

A regex names a party by its role, bare ("regulator (?:can|may) fine vendor"); a witness
keeps it bare ("regulator can fine vendor"). A bare role the matter uses as a party's name
("Customer") is written so (`clauses.ClauseFinder.recased`); a role left in lowercase is a
common noun, and in the singular a common noun wants a determiner: "the vendor", "any
other client", "Provider's customer", never "fine vendor" or "makes whole vendor".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from rubric_tools.audit import lexicon
from rubric_tools.audit.grammar import AUXILIARIES, DETERMINERS, MODALS, PARTY_ROLES, verb_of
from rubric_tools.audit.thesaurus import COUNT_ONLY_NOUNS, OBJECT_BEFORE_LAST_WORD

#: Nouns that want a determiner in the singular: the roles in the singular ("parties",
#: "customers" stand bare in the plural), and the nouns only ever counted ("regulator",
#: "cap"), bare only after the words of their idioms ("by statute").
_COUNTED_NOUNS = frozenset(role for role in PARTY_ROLES if not role.endswith("s")) | frozenset(COUNT_ONLY_NOUNS)
_WORD = re.compile(r"[A-Za-z][\w'’-]*|\d+(?:[.,]\d+)*|[,;:.!?]")
#: Any of them in any case, searched in the lowercased text (`re.IGNORECASE` is slower).
_ROLE = re.compile(r"\b(?:" + "|".join(sorted(_COUNTED_NOUNS)) + r")\b")
#: Words of a determiner's phrase before its noun that the lexicon files otherwise.
_OTHER = frozenset({"other", "same", "first", "second", "third"})


@dataclass(frozen=True)
class BareRole:
    start: int  # where the role is written in the text
    end: int
    phrase: str  # the role and the words before it back to the one that should determine it
    modified: bool  # a modifier stands before it ("other client"): no name reads so


@lru_cache(maxsize=8192)  # asked of a text when its names are recased, and again when its roles take "the"
def bare_roles(text: str) -> tuple[BareRole, ...]:
    """The singular roles written in lowercase with no determiner: past the modifiers before
    one ("other", "third", "sole"), the word before must be a determiner, a possessive or a
    number ("the vendor", "Kestrel's customer", "one supplier"); "that" only where it is no
    conjunction opening a clause the role is the subject of ("… requires that customer
    indemnifies"). A role that modifies the noun after it is not the head of its phrase
    ("vendor risk", "customer data")."""
    if _ROLE.search(text.lower()) is None:
        return ()  # most texts name no role: asked of every generated text
    tokens = list(_WORD.finditer(text))
    found = []
    for index, token in enumerate(tokens):
        # A capitalized role is the matter's name for a party ("Customer"); a counted noun
        # opening the text is capitalized as the sentence opens ("Regulator can fine …").
        opening_noun = index == 0 and token.group(0).lower() in COUNT_ONLY_NOUNS and token.group(0).istitle()
        if token.group(0) not in _COUNTED_NOUNS and not opening_noun:
            continue
        following = tokens[index + 1].group(0).lower() if index + 1 < len(tokens) else ""
        noun_after = (
            following.isalpha() and following not in lexicon.FUNCTION_WORDS and "NOUN" in lexicon.lemmas(following)
        )
        if noun_after and following not in OBJECT_BEFORE_LAST_WORD:
            continue  # a modifier of the noun after it (not "whole" of "make vendor whole")
        before = index - 1
        while before >= 0 and _modifier(tokens[before].group(0)):
            before -= 1
        opener = tokens[before].group(0).lower() if before >= 0 else ""
        clause_opener = opener == "that" and (following in lexicon.MODALS or lexicon.is_verb(following))
        if (opener in DETERMINERS and not clause_opener) or opener.endswith(("'s", "’s")) or opener[:1].isdigit():
            continue
        if opener in COUNT_ONLY_NOUNS.get(token.group(0).lower(), ()):
            continue  # an idiom: "prohibited by statute"
        phrase = text[tokens[max(before, 0)].start() : token.end()]
        found.append(BareRole(token.start(), token.end(), phrase, before < index - 1))
    return tuple(found)


#: A quotation: the words it quotes are the clause's fragment, judged as such, not here.
_QUOTED = re.compile(r"[\"“][^\"”]*[\"”]")


def _unquoted_roles(text: str) -> list[BareRole]:
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    return [r for r in bare_roles(text) if not any(start <= r.start < end for start, end in quoted)]


def has_bare_role(text: str) -> bool:
    """Whether `text`, outside its quotations, holds a bare role (`bare_roles`)."""
    return bool(_unquoted_roles(text))


#: A word opening a clause: the text's first, or the first after "that", "but", a comma, a
#: semicolon or a colon ("… is deleted and replaced with: Addendum permits …").
_CLAUSE_SUBJECT = re.compile(
    # Every opening but the text's first follows a space: that is asked first, in one character.
    r"(?:^|(?<= )(?:(?<=\bthat )|(?<=\bbut )|(?<=[,;:] )))([A-Za-z][\w-]*)(?= ([a-z][\w'’-]*))"
)


#: A word right after a preposition that closes its phrase: punctuation or the text's end
#: follows ("… is required by MSA.", "… under Amendment;"): the preposition's whole object.
_PHRASE_CLOSING_OBJECT = re.compile(
    r"\b(?:by|under|in|of|to|from|with|than|into|against) ([A-Za-z][\w-]*)(?=[.,;:!?]|$)"
)
#: A run of word characters and hyphens: the word either search above names is a whole one.
_RUN = re.compile(r"[\w-]+")


def with_definite_terms(text: str, definite: Mapping[str, str]) -> str:
    """`text` with "the" before a term the matter writes with it (`definite`: its own "the
    Amendment", "the MSA", by the lowercase, as written), where it stands bare as a noun
    phrase of its own: opening a clause before a verb ("Amendment cannot supersede" -> "The
    Amendment cannot supersede"), or as the whole object of a preposition ("required by MSA."
    -> "required by the MSA."). Written as the matter writes it after "the"."""
    # Lowercasing ASCII moves no run's bounds: the text is lowercased once.
    runs = _RUN.findall(text.lower()) if text.isascii() else [run.lower() for run in _RUN.findall(text)]
    if not definite or definite.keys().isdisjoint(runs):
        return text  # no word the matter writes after "the": most texts (a plain search first)
    for found in reversed(list(_CLAUSE_SUBJECT.finditer(text))):
        written = definite.get(found.group(1).lower())
        # A verb follows ("permits", "cannot", "permit" after "requires that"), not a noun
        # it modifies ("Lease premises").
        following = found.group(2).lower()
        if written is None or not (following in MODALS or following in AUXILIARIES or verb_of(following)):
            continue
        the = "The" if found.start(1) == 0 else "the"
        text = f"{text[: found.start(1)]}{the} {written}{text[found.end(1) :]}"
    for found in reversed(list(_PHRASE_CLOSING_OBJECT.finditer(text))):
        written = definite.get(found.group(1).lower())
        if written is not None:
            text = f"{text[: found.start(1)]}the {written}{text[found.end(1) :]}"
    return text


def with_determiners(text: str) -> str | None:
    """`text` with "the" before each bare role outside its quotations ("after provider
    confirms" -> "after the provider confirms", "of other client" -> "of the other
    client") and before a subject opened by "whole" or "entire" ("that whole firmware is"
    -> "that the whole firmware is"); `text` itself when it has none; None when a role's
    modifier is not one "the" goes before ("makes whole vendor": "whole" belongs to the verb)."""
    lowered = text.lower()
    if "whole" in lowered or "entire" in lowered:  # a plain search first: few texts hold either
        text = _WHOLE_OPENING.sub(_with_the, text)
    roles = _unquoted_roles(text)
    ending_at = {m.end(): m for m in _WORD.finditer(text)} if roles else {}
    for role in reversed(roles):
        at = role.start
        if role.modified:
            modifier = ending_at.get(role.start - 1)  # the word right before the role
            if modifier is None or modifier.group(0).lower() not in _OTHER:
                return None
            at = modifier.start()
        if at == 0 and text[:1].isupper():
            text = f"The {text[:1].lower()}{text[1:]}"  # "Regulator can fine" -> "The regulator can fine"
        else:
            text = f"{text[:at]}the {text[at:]}"
    return text


#: "whole" or "entire" opening a clause's subject, with no determiner: it takes one ("the whole
#: firmware is …", never "whole firmware is …").
_WHOLE_OPENING = re.compile(r"(^|\b(?:that|whether|if|because) |[:;] )(whole|entire)(?= [a-z])", re.IGNORECASE)


def _with_the(found: re.Match[str]) -> str:
    opening, word = found.group(1), found.group(2)
    return f"{opening}{'The' if word[0].isupper() else 'the'} {word.lower()}"


def _modifier(word: str) -> bool:
    """An adjective or a noun before the role ("other", "third", "cloud"), not a determiner."""
    lowered = word.lower()
    if lowered in _OTHER:
        return True
    if lowered in DETERMINERS or lowered in lexicon.FUNCTION_WORDS:
        return False
    readings = lexicon.lemmas(lowered)
    return "ADJ" in readings or ("NOUN" in readings and "VERB" not in readings)
