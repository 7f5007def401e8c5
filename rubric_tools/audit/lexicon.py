"""Word forms for the audit: the inflections and parts of speech of English words.

`lemminflect` (a lexicon of English inflections with its own rules for unknown words)
is used when it is installed (`pip install 'rubric-tools[lexicon]'`); it pulls numpy,
so it is an optional extra. Without it, regular English spelling rules are applied,
with the common irregular verbs of contract drafting listed here; they cover the
words gates are written in, less surely for unusual words. `backend()` says which one
runs; `RUBRIC_AUDIT_LEXICON=rules` forces the rules (tests compare both).

Every function returns lowercase forms, the word itself included.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Any

from rubric_tools.audit import inflection

#: Irregular verbs of contract drafting: base -> (past, past participle).
_IRREGULAR = {
    "bear": ("bore", "borne"),
    "bind": ("bound", "bound"),
    "buy": ("bought", "bought"),
    "choose": ("chose", "chosen"),
    "forbid": ("forbade", "forbidden"),
    "forgive": ("forgave", "forgiven"),
    "give": ("gave", "given"),
    "grant": ("granted", "granted"),
    "have": ("had", "had"),
    "hold": ("held", "held"),
    "keep": ("kept", "kept"),
    "lay": ("laid", "laid"),
    "lend": ("lent", "lent"),
    "make": ("made", "made"),
    "mean": ("meant", "meant"),
    "pay": ("paid", "paid"),
    "say": ("said", "said"),
    "sell": ("sold", "sold"),
    "send": ("sent", "sent"),
    "set": ("set", "set"),
    "take": ("took", "taken"),
    "undertake": ("undertook", "undertaken"),
    "withdraw": ("withdrew", "withdrawn"),
    "withhold": ("withheld", "withheld"),
    "write": ("wrote", "written"),
    "strike": ("struck", "struck"),
    "arise": ("arose", "arisen"),
    "become": ("became", "become"),
    "bring": ("brought", "brought"),
    "get": ("got", "gotten"),
    "go": ("went", "gone"),
    "know": ("knew", "known"),
    "lose": ("lost", "lost"),
    "put": ("put", "put"),
    "run": ("ran", "run"),
    "see": ("saw", "seen"),
    "seek": ("sought", "sought"),
    "shut": ("shut", "shut"),
    "spend": ("spent", "spent"),
    "tell": ("told", "told"),
    "think": ("thought", "thought"),
    "waive": ("waived", "waived"),
}
_MODALS = frozenset("may might shall should will would must can could".split())
_IRREGULAR_NOUNS = {"datum": "data", "criterion": "criteria", "analysis": "analyses", "basis": "bases"}
#: Verbs that double their last consonant (stress on the last syllable).
_DOUBLING = frozenset("admit bar cap commit omit permit refer submit transfer ship stop plan regret".split())
_DOUBLING_RE = re.compile(r"^(?:[^aeiou]*[aeiou][^aeiouwxy])$")


@lru_cache(maxsize=1)
def _lemminflect() -> Any | None:
    if os.environ.get("RUBRIC_AUDIT_LEXICON") == "rules":
        return None
    try:
        import lemminflect
    except ImportError:
        return None
    return lemminflect


def backend() -> str:
    """ "lemminflect" or "rules": which inflects words in this process."""
    return "lemminflect" if _lemminflect() is not None else "rules"


# ------------------------------------------------------------------ rules


def _double(verb: str) -> bool:
    return verb in _DOUBLING or bool(_DOUBLING_RE.match(verb))


def _past(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb][0]
    if verb.endswith("e"):
        return verb + "d"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ied"
    if _double(verb):
        return verb + verb[-1] + "ed"
    return verb + "ed"


def _gerund(verb: str) -> str:
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    if _double(verb):
        return verb + verb[-1] + "ing"
    return verb + "ing"


def _rule_verb_forms(lemma: str) -> tuple[str, ...]:
    participle = _IRREGULAR[lemma][1] if lemma in _IRREGULAR else _past(lemma)
    return tuple(dict.fromkeys((lemma, inflection.third_person(lemma), _past(lemma), participle, _gerund(lemma))))


def _rule_plural(noun: str) -> str:
    if noun in _IRREGULAR_NOUNS:
        return _IRREGULAR_NOUNS[noun]
    if noun.endswith(("s", "sh", "ch", "x", "z")):
        return noun + "es"
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    return noun + "s"


def _rule_lemmas(word: str) -> set[str]:
    """Candidate base forms of `word` by undoing regular endings (the word itself included)."""
    found = {word}
    for lemma, (past, participle) in _IRREGULAR.items():
        if word in (past, participle):
            found.add(lemma)
    for plural, singular in ((v, k) for k, v in _IRREGULAR_NOUNS.items()):
        if word == plural:
            found.add(singular)
    if word.endswith("ies") and len(word) > 4:
        found.add(word[:-3] + "y")
    elif word.endswith("es") and word[:-2].endswith(("ss", "sh", "ch", "x", "z")):
        found.add(word[:-2])
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        found.add(word[:-1])
    for ending in ("ed", "ing"):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            stem = word[: -len(ending)]
            if stem.endswith("i") and ending == "ed":
                found.add(stem[:-1] + "y")
            elif len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "ls":
                found.add(stem[:-1])
            else:
                found.update({stem, stem + "e"})
    return found


# ------------------------------------------------------------------ API


@lru_cache(maxsize=8192)
def verb_forms(lemma: str) -> tuple[str, ...]:
    """Every form of a verb: base, third person, past, past participle, gerund."""
    lemma = lemma.lower()
    library = _lemminflect()
    if library is None:
        return _rule_verb_forms(lemma)
    forms = [lemma]
    for tag in ("VBZ", "VBD", "VBN", "VBG"):
        found = library.getInflection(lemma, tag)
        forms += [f.lower() for f in found if "-" not in f or "-" in lemma]
    return tuple(dict.fromkeys(forms))


@lru_cache(maxsize=8192)
def past_participle(lemma: str) -> str:
    library = _lemminflect()
    if library is None:
        return _IRREGULAR[lemma][1] if lemma in _IRREGULAR else _past(lemma)
    found = library.getInflection(lemma, "VBN")
    return str(found[0]).lower() if found else _past(lemma)


@lru_cache(maxsize=8192)
def lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """Base forms of `word` by part of speech ("NOUN", "VERB", "ADJ", ...). With the rules,
    every candidate base form is listed under "VERB" and "NOUN" (the rules cannot tell)."""
    word = word.lower()
    library = _lemminflect()
    if library is None:
        candidates = tuple(sorted(_rule_lemmas(word)))
        return {"VERB": candidates, "NOUN": candidates}
    found = library.getAllLemmas(word)
    if word in _MODALS:  # never inflected as a verb ("shalls")
        found = {pos: forms for pos, forms in found.items() if pos not in ("VERB", "AUX")}
    return {pos: tuple(f.lower() for f in forms if "-" not in f or "-" in word) for pos, forms in found.items()}


def is_verb(word: str) -> bool:
    if _lemminflect() is None:
        return any(_known_verb(lemma) for lemma in _rule_lemmas(word.lower()))
    return "VERB" in lemmas(word)


def _known_verb(lemma: str) -> bool:
    """Without the library only verbs of the built-in lexicons are inflected as verbs."""
    return lemma in inflection.CONTRACT_VERBS or lemma in _IRREGULAR


@lru_cache(maxsize=8192)
def word_forms(word: str) -> tuple[str, ...]:
    """The inflections of `word` as a noun (singular, plural) and as a verb (every form),
    for each base form it may have: "vests" -> vest, vests, vested, vesting. The word
    itself comes first."""
    word = word.lower()
    forms = [word]
    if word in _MODALS:
        return (word,)
    library = _lemminflect()
    if library is None:
        for lemma in sorted(_rule_lemmas(word)):
            if _known_verb(lemma) and word in _rule_verb_forms(lemma):
                forms += _rule_verb_forms(lemma)
            elif lemma == word and not word.endswith("s") or _rule_plural(lemma) == word:
                forms += [lemma, _rule_plural(lemma)]
        return tuple(dict.fromkeys(forms))
    found = lemmas(word)
    for lemma in found.get("VERB", ()):
        forms += verb_forms(lemma)
    for lemma in found.get("NOUN", ()):
        forms.append(lemma)
        forms += [f.lower() for f in library.getInflection(lemma, "NNS") if "-" not in f]
    return tuple(dict.fromkeys(f for f in forms if f))


def inflect_like(lemma: str, model: str, model_lemma: str) -> str:
    """`lemma` in the form `model` has as a form of `model_lemma` ("forbid", "prohibits",
    "prohibit" -> "forbids"); the lemma itself when the form is not recognized."""
    if model == model_lemma:
        return lemma
    forms = verb_forms(model_lemma)
    mine = verb_forms(lemma)
    if model in forms and len(forms) == len(mine):
        return mine[forms.index(model)]
    if model.endswith("ing"):
        return mine[-1] if mine[-1].endswith("ing") else lemma
    if model.endswith("s") and len(mine) > 1:
        return mine[1]
    if model.endswith("ed") and len(mine) > 2:
        return mine[2]
    return lemma
