"""How a scoped exclusion is written as a regex, part by part, as a human auditor writes
it (`scoped_guards` chooses the parts and fits them in the budget): the markers of one
side of the key as one alternation ("\\b(?:reject|declin)\\w*"), a gap that keeps to the
key's clause at a chosen strictness, and the key's words."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from rubric_tools.audit import lexicon, markers
from rubric_tools.audit.guard_key_choice import Keys
from rubric_tools.audit.markers import GAP, LIMIT_IDIOM, Term
from rubric_tools.audit.pattern_tree import top_level_branches
from rubric_tools.audit.word_use import noun_in_its_own_right

#: The smallest gap written: an auditor rounds up ("{0,40}"), so that a determiner or a
#: short list more than the evidence showed is still covered.
MIN_GAP = 80


@dataclass(frozen=True)
class Strictness:
    """How strictly an exclusion keeps to the key's clause.

    `spelled`: markers in their strict spellings ("no"/"not" not in a limit idiom, "without"
    not in "without limiting"), no gap across "but", a strike not across words that
    introduce inserted text. `commas`, before the key: "all" (a list: "Neither Provider nor
    any affiliate, subprocessor, …, may"), "list" (only a list's, `LIST_COMMA`: "does not
    copy, store or train on", never the one that closes an opening clause, "Although the cap
    does not apply to fees, <the sin>"), "none" ("Without limiting Section 9.2, <the sin>").
    `barriers`: no gap across "provided", "except", "unless", "until" either ("may not
    terminate until five business days have passed" denies the act, not the period it
    waits)."""

    spelled: bool
    commas: Literal["all", "list", "none"]
    barriers: bool = False

    def without_commas(self) -> Strictness:
        """The same with no comma crossed (spelled, with the barrier words too)."""
        return replace(self, commas="none", barriers=self.spelled)


#: The strictnesses tried, broadest first.
STRICTNESS = (
    Strictness(spelled=False, commas="all"),
    Strictness(spelled=True, commas="all"),
    Strictness(spelled=False, commas="list"),
    Strictness(spelled=True, commas="list"),
    Strictness(spelled=False, commas="none"),
    Strictness(spelled=True, commas="none", barriers=True),
)
#: The strictest: what an exclusion written with no evidence read uses.
STRICTEST = STRICTNESS[-1]
#: A comma inside a list: another comma soon after it, or "and"/"or" after at most three
#: words ("copy, store, or train", "copy, store or train"). A lookahead, so that no
#: repeated part of the gap can divide the text two ways; one fixed construct, which the
#: budget counts as the plain gap it widens (`scoped_guards.budget_length`).
LIST_COMMA = r",(?=[^,.;]{1,40},| (?:[\w-]+ ){0,3}(?:and|or)\b)"
_BARRIER_WORDS = r"\b(?:but|provided|except|unless|until)\b"


def _gap(terms: Sequence[Term], size: int, strict: Strictness, listing: bool = False, subject: bool = False) -> str:
    """The gap between the markers `terms` and the key: a later rejection may follow a ";",
    a marker after the key stays before the next comma, a strike stops at a colon and
    (stricter) at words that introduce inserted text. A `listing` marker ("neither … nor
    …") crosses the commas of its list at every strictness."""
    if any(t.kind == "disowned" for t in terms):
        return f"[^.]{{0,{size}}}?"
    struck = any(t.kind == "struck" and t.side == "before" for t in terms)
    # After the key, a comma ends its clause ("…, and Northline shall not be required to
    # give reasons" is another clause's negator); before it, a comma may sit in a list
    # ("Neither Provider nor any affiliate, subprocessor, … may").
    after = all(t.side == "after" for t in terms)
    comma = "," if (strict.commas != "all" or after) and not listing else ""
    allowed = "[^.;" + comma + (":" if struck else "") + "]"
    if strict.commas == "list" and not (after or listing):
        allowed = f"(?:{allowed}|{LIST_COMMA})"
    if after and all(t.kind in ("struck", "restricted") for t in terms):
        # A strike recital or a limit names where the words stand: "the ninety-day period in
        # Section 13.1 is replaced" crosses the section number's period.
        allowed = f"(?:{allowed}|\\.\\d)"
    barred = [markers.INSERTION] if struck and strict.spelled else []
    # A negator after the key never crosses an "and" that opens a clause of its own ("… is
    # unlawful and must not go forward" denies something else); only a key that is a
    # `subject` may have an "and" right after it, in a compound subject ("Provider and its
    # affiliates shall not").
    negated_after = after and any(t.kind == "negated" for t in terms)
    compound = negated_after and subject
    if negated_after:
        barred.append(" and ")
    if strict.spelled:
        barred.append(_BARRIER_WORDS if strict.barriers else r" but\b")
    if not barred:
        return f"{allowed}{{0,{size}}}?"
    return ("(?: and)?" if compound else "") + f"(?:(?!{'|'.join(barred)}){allowed}){{0,{size}}}?"


def _alternation(terms: Sequence[str]) -> str:
    """Terms as one alternation, written as an auditor would: the words bounded on both
    sides together ("\\b(?:nobody|never)\\b"), those bounded before together, the rest."""
    if len(terms) == 1:
        return terms[0]
    both = [t[2:-2] for t in terms if _bare(t, "\\b", "\\b")]
    stems = [t[2:-3] for t in terms if _bare(t, "\\b", "\\w*")]
    left = [t[2:] for t in terms if t.startswith("\\b") and not _bare(t, "\\b", "\\b") and not _bare(t, "\\b", "\\w*")]
    rest = [t for t in terms if not t.startswith("\\b")]
    groups = []
    if both:
        groups.append("\\b" + _group(both) + "\\b")
    if stems:
        groups.append("\\b" + _group(stems) + "\\w*")
    if left:
        groups.append("\\b" + _group(left))
    groups += rest
    return groups[0] if len(groups) == 1 else "(?:" + "|".join(groups) + ")"


def _bare(term: str, prefix: str, suffix: str) -> bool:
    """`term` is prefix + words + suffix, the words free of any top-level `|`, `\\b` or lookaround."""
    if not (term.startswith(prefix) and term.endswith(suffix)) or len(term) <= len(prefix) + len(suffix):
        return False
    inner = term[len(prefix) : -len(suffix)]
    return "\\b" not in inner and "(?!" not in inner and "|" not in re.sub(r"\([^()]*\)", "", inner)


def _group(words: list[str]) -> str:
    return words[0] if len(words) == 1 else "(?:" + "|".join(words) + ")"


def _keyed(key: str, side: str) -> str:
    if side == "before" and key[:1].isalnum():
        return "\\b" + key
    return key


def _rounded(distance: int) -> int:
    return min(GAP, max(MIN_GAP, math.ceil(distance / 20) * 20))


@dataclass(frozen=True)
class ExclusionPart:
    """Markers on one side of the key, with one gap: "before", "after" (in the clause) or
    "later" (a later clause disowning it, past a ";")."""

    side: str
    kinds: tuple[str, ...]
    terms: tuple[Term, ...]
    distance: int
    support: int  # evidence texts it explains


def render_part(part: ExclusionPart, keyed: Keys, strict: Strictness) -> str:
    key = keyed.before if part.side == "before" else keyed.after
    size = _rounded(part.distance)
    if part.side != "before":
        restricting = [t for t in part.terms if t.kind == "restricted"]
        if not restricting or keyed.closing in ("", key):
            return _after_key(key, part.terms, size, strict, keyed)
        # A restriction is keyed apart, to the words that close the match (`Keys.closing`).
        rest = [t for t in part.terms if t not in restricting]
        keyed_apart = _after_key(keyed.closing, restricting, size, strict, keyed)
        return f"{_after_key(key, rest, size, strict, keyed)}|{keyed_apart}" if rest else keyed_apart
    # Before the key, two kinds of marker keep their own rule about commas: "neither" crosses
    # its list's ("Neither Provider nor any affiliate, subprocessor, or … may"), a supposition
    # never crosses the one that ends its clause ("If the service fails, regulators will fine
    # the vendor" asserts the fine).
    listing = [t for t in part.terms if t == _NEITHER and strict.commas != "all"]
    supposing = [t for t in part.terms if t.kind == "supposed"]
    rest = [t for t in part.terms if t not in listing and t not in supposing]
    branches = []
    if rest:
        branches.append(_marker(rest, strict) + _gap(rest, size, strict))
    if listing:
        branches.append(_NEITHER.loose + _gap(listing, size, strict, listing=True))
    supposition = ""
    if supposing:  # its gap never crosses a comma
        supposition = _marker(supposing, strict) + _gap(supposing, size, strict.without_commas())
    # The supposition is keyed apart, to the match's opening words (`Keys.opening`).
    apart = bool(supposition) and bool(keyed.opening) and keyed.opening != key
    if supposition and not apart:
        branches.append(supposition)
    striking = [t for t in part.terms if t.kind == "struck"]
    if striking:
        # The struck words quoted: the quotation is one unit, its commas are its own
        # ('Delete "all representations, including billing, expire …" and insert …'); the
        # words quoted right after "replacing" are the struck ones ('replacing "five
        # percent" with "ten percent"'; "replaced with: …" quotes the inserted ones).
        quoted = _alternation([_marker(striking, strict), _REPLACING])
        branches.append(f'{quoted} ?["“][^"”]{{0,{size}}}?')
    written = []
    if branches:
        marker = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        written.append(f"{marker}{_keyed(key, 'before')}")
    if apart:
        written.append(f"{supposition}{_keyed(keyed.opening, 'before')}")
    return "|".join(written)


def _after_key(key: str, terms: Sequence[Term], size: int, strict: Strictness, keyed: Keys) -> str:
    """Markers after the key; only a key that opens the sin (`Keys.subjects`) and is a noun
    phrase may be a compound's subject."""
    subject = key in keyed.subjects and _is_subject(key)
    return f"{key}{_gap(terms, size, strict, subject=subject)}{_marker(terms, strict)}"


@lru_cache(maxsize=1024)  # asked again for each exclusion written around the same key
def _is_subject(key: str) -> bool:
    """Whether a key is a noun phrase (the clause's subject, "provider", "customer data"),
    not a clause or a predicate of its own ("provider owns", "customer may use …")."""
    for word in re.findall(r"[a-z]+", key.lower()):
        if word in lexicon.MODALS or word in lexicon.BE_FORMS:
            return False
        if lexicon.is_verb(word) and not noun_in_its_own_right(word) and not lexicon.lemmas(word).get("NOUN"):
            return False
    return True


def _marker(terms: Sequence[Term], strict: Strictness) -> str:
    """The terms as one alternation; stricter, as their strict spellings, the terms that
    state a limit in an idiom sharing one lookahead, written once."""
    if strict.spelled:
        idiomatic = [t.loose for t in terms if t.strict == t.loose + LIMIT_IDIOM]
        spelled = [t.strict or t.loose for t in terms if t.loose not in idiomatic]
        if idiomatic:
            group = _alternation(idiomatic)
            spelled.append((f"(?:{group})" if top_level_branches(group) != [group] else group) + LIMIT_IDIOM)
    else:
        spelled = [t.loose for t in terms]
    return _alternation(list(dict.fromkeys(spelled)))


#: A replacement verb: right before a quotation, what it names is struck.
_REPLACING = r"\breplac\w*"

#: The negator that opens a list of subjects ("Neither Provider nor any affiliate,
#: subprocessor, or …"): a comma after it is the list's, not another clause's.
_NEITHER = next(t for t in markers.TERMS if t.loose == r"\bneither\b")
