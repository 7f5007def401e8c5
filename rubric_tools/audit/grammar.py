"""Just enough English grammar to tell a clause from a fragment, and a fragment's shape.

No tagger: a gate's witness is a handful of lowercase words built from a regex, and the
audit's verdicts must not depend on which optional library is installed. The word lists
are closed classes (modals, auxiliaries, prepositions, determiners) and the verbs of
contract drafting, written for this tool; a word is read as a *finite verb* when it is
a modal or an auxiliary, or the third person or past tense of a known verb not preceded
by a determiner ("the claims" is a noun, "customer claims" a clause).

Shapes (`shape`), decided on the first words, in this order:

- clause: a finite verb after a first word that is no preposition, modal or verb
  ("4.2 is void", "provider may use customer data");
- modal phrase: opens with a modal ("shall defend");
- prepositional phrase: opens with a preposition or a temporal idiom ("in provider's sole
  discretion", "after provider confirms");
- verb phrase: opens with the third person or the past of a verb ("permits provider to use
  customer data"), or with a finite auxiliary ("is illegal under the act");
- infinitive phrase: opens with the base form of a verb, not as a noun ("release the source
  code", but not "use of customer data");
- adjective phrase: opens with an adjective of legal effect or an adjective suffix
  ("unenforceable as a matter of law"), or with an adverb that grades one ("manifestly
  unenforceable");
- a "not" before an adjective phrase, or before a participle and its "to", agent or "from",
  takes the shape of what it negates ("not void", "not required by law to insure");
- quantity: opens with a number and a unit ("nine months", "5 %");
- noun phrase: anything else ("customer liability supercap").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rubric_tools.audit import inflection, lexicon
from rubric_tools.audit.quantities import is_number_word, quantities
from rubric_tools.audit.wording import FUNCTION_WORDS, words

MODALS = frozenset("may might shall should will would must can could".split())
#: Auxiliaries that are finite, by the subject they agree with (`completion.carrier`).
FINITE_AUXILIARIES = {"singular": frozenset("is was has does".split()), "plural": frozenset("are were have do".split())}
AUXILIARIES = frozenset("is are was were be been has have had does do did cannot".split())
PREPOSITIONS = frozenset(
    """
    after before within without under upon following until by for from of in on at to with into during
    throughout notwithstanding per via against beyond except including regarding concerning regardless
    pursuant subject prior save besides despite unlike like among between over across through once
    """.split()
)
#: Openings that date or time what follows ("no later than", "as soon as").
TEMPORAL_OPENINGS = (
    "after",
    "before",
    "within",
    "upon",
    "following",
    "until",
    "once",
    "prior to",
    "no later than",
    "not later than",
    "in no event later than",
    "on or before",
    "without undue delay",
    "as soon as",
    "promptly",
    "immediately",
)
DETERMINERS = frozenset(
    "a an the any each every all some no this that these those such its their our your his her either neither "
    "both another one".split()
)
#: Roles a contract gives its parties; a subject that ends in one, or in a name (a word no
#: dictionary knows), is a party (`is_party`).
PARTY_ROLES = frozenset(
    """party parties provider customer client consultant vendor supplier licensee licensor buyer
    seller purchaser contractor subcontractor processor controller company employer lender borrower
    tenant landlord""".split()
)
#: Pronouns that stand for a party ("we shall", "they agree to"); not "it", often a thing.
_PARTY_PRONOUNS = frozenset("i we you they he she".split())


def determines(word: str) -> bool:
    """Whether `word` opens a noun phrase as its determiner: "the", "any", "its", or a
    possessive ("tenant's")."""
    return word in DETERMINERS or word.endswith(("'s", "’s"))


def is_party(word: str, names: frozenset[str] | None = None) -> bool:
    """Whether the lowercase `word` ending a subject names a party: a party's role in either
    number ("tenant", "tenants"), a pronoun for a person, or a name: one of the matter's
    `names` when they are given, else a word the lexicon does not know ("ledgersync")."""
    if word in PARTY_ROLES or word in _PARTY_PRONOUNS:
        return True
    if not word.isalpha() or word in lexicon.FUNCTION_WORDS:
        return False  # "the", "it": words the lexicon leaves out, no names
    if names is not None and word in names:
        return True
    readings = lexicon.lemmas(word)
    return (not readings and names is None) or bool(PARTY_ROLES.intersection(readings.get("NOUN", ())))


#: Who may receive a thing beside a party: "to anyone who asks".
_ANYONE = frozenset("anyone anybody everyone everybody someone somebody".split())


def base_verb(word: str) -> bool:
    """A verb's base form, also one made with a prefix ("re-let", "re-identify")."""
    return lexicon.verb_forms_by_tag(word).get("VB") == word


def gives_to_someone(after: Sequence[str], names: frozenset[str] | None = None) -> bool:
    """Whether the words after a verb name a recipient: "to" and, within three words, a
    party or anyone ("… the code to any tenant", "… to anyone who asks"); not "to" and a
    verb ("waives the right to dispute"). `names` as for `is_party`."""
    return any(
        word == "to"
        and not base_verb(after[at + 1])
        and any(w in _ANYONE or is_party(w, names) for w in after[at + 1 : at + 4])
        for at, word in enumerate(after[:-1])
    )


#: Verbs of contract drafting and legal analysis beyond `inflection.CONTRACT_VERBS` (base forms).
VERBS = inflection.CONTRACT_VERBS | frozenset(
    """
    accept accrue act add advise agree allege allow apply apportion arbitrate arise ask assert assess assume
    attach attribute authorize award ban bar bear become begin believe benefit calculate cancel carry cause
    certify change claim collect compel compensate complete comply conclude conduct consider constitute construe
    contend continue convert correct count covenant cure decline decrease deduct deem deliver demand deny depend
    designate destroy determine develop direct discharge dispute divide drop elect employ enable end enforce
    engage ensure enter establish estimate evaluate exercise exist expect expire explain extinguish fall file
    find fix follow forbid force forfeit fund gain give govern grow guarantee happen hire hold impose include
    incur inform insist inspect insure intend interpret invest invoice issue join judge keep lapse last lease
    lend let levy lie liquidate list lodge lose maintain make mandate market mean measure meet mitigate need
    negotiate nominate note object obligate oblige obtain occur offer offset operate oppose order outlaw
    outsource owe participate pass perform pledge post prefer prepare present prevail prevent price procure
    produce promise propose protect prove provide purchase pursue qualify quote rank rate reach receive
    recommend reconcile record refer refund refuse register reinstate reject relate rely remain remedy remove
    render renew repair repay replace report represent rescind reserve resolve respond rest restore resume
    retire return review revoke rise rule run satisfy say schedule secure seek send serve settle show sign sit
    solve specify spend stand start state stay strike subcontract subject submit substitute succeed sue suggest
    supersede supply support suspend take tell tender test think track trade treat trigger undertake underwrite
    unlock upgrade validate value vary verify vest violate waive warrant withdraw withhold work yield
    """.split()
)
#: Adjectives of legal effect, and suffixes that make an adjective.
ADJECTIVES = frozenset(
    """
    void invalid illegal unlawful null liable free exempt entitled responsible binding conclusive final
    adequate sufficient reasonable unreasonable enforceable unenforceable unconscionable excessive uncapped
    unlimited perpetual irrevocable exclusive
    """.split()
)
_ADJECTIVE_SUFFIXES = ("able", "ible", "ous", "ful", "less")
#: Endings of words in "s" that are no plural ("access", "status", "analysis", "provider's").
SINGULAR_IN_S = ("ss", "us", "is", "'s", "’s")
_PRONOUNS = frozenset("we they i you".split())
#: Words after which a verb form is a noun ("the claims", "its uses"); "this" and "each" may
#: be subjects themselves ("this applies").
_NOUN_MARKERS = frozenset(
    "a an the its their our your his her every no such another all any each some these those".split()
)
#: Words after which a past form is a participle, not a finite verb.
_AGENT_WORDS = frozenset("by on upon against under".split())


@lru_cache(maxsize=65536)  # asked hundreds of thousands of times per matter, of few words
def verb_of(word: str) -> tuple[str, str] | None:
    """(base form, form name) when `word` is a form of a known verb: "base", "3rd person",
    "past", "gerund"."""
    for base in (word, *lexicon.lemmas(word).get("VERB", ())):
        if base in VERBS:
            for name, form in inflection.forms(base).items():
                if form == word:
                    return base, name
    return None


def finite_verb_at(tokens: Sequence[str], index: int) -> bool:
    """Whether tokens[index] is a finite verb: a modal, an auxiliary, a known verb in the
    third person or the past not preceded by a determiner or a preposition, or in the base
    form after a plural pronoun or a plural noun ("we recommend", "the parties agree")."""
    word = tokens[index]
    if word in MODALS or word in AUXILIARIES:
        return True
    if word.endswith(("n't", "n’t")):  # a contraction: "doesn't", "can’t"
        return True
    found = verb_of(word)
    if found is None:
        return False  # most words are no verb: nothing around them is looked at
    before = tokens[index - 1] if index else ""
    after = tokens[index + 1] if index + 1 < len(tokens) else ""
    if found[1] == "past" and after in _AGENT_WORDS:
        return False  # a participle: "fines imposed on vendor", "data held by provider"
    if found[1] == "base":
        # "we recommend", "the parties agree", "the fines imposed on vendor apply": the base
        # form after a plural subject, or after the object of a preposition that follows one.
        if before in _PRONOUNS or _plural_noun(before):
            return True
        after_object = index >= 2 and tokens[index - 2] in PREPOSITIONS
        return after_object and any(_plural_noun(w) for w in tokens[: index - 2])
    if found[1] not in ("3rd person", "past"):
        return False
    if found[1] == "3rd person" and (_adjective(before) or (before.endswith("ed") and verb_of(before) is None)):
        return False  # a plural noun after its adjective: "unrestricted accesses"
    return before not in _NOUN_MARKERS and before not in PREPOSITIONS


def _plural_noun(word: str) -> bool:
    return word.endswith("s") and not word.endswith(SINGULAR_IN_S) and len(word) > 2


@lru_cache(maxsize=4096)  # a clause is cut from a sentence again for each gate that matches it
def has_finite_verb(text: str) -> bool:
    tokens = words(text)
    return any(finite_verb_at(tokens, i) for i in range(len(tokens)))


def _opens_with_temporal(text: str) -> bool:
    lowered = " ".join(words(text))
    return any(lowered == t or lowered.startswith(t + " ") for t in TEMPORAL_OPENINGS)


def is_temporal(text: str) -> bool:
    """Whether a phrase opens with a word that dates or times what follows."""
    return _opens_with_temporal(text)


def _adjective(word: str) -> bool:
    return word in ADJECTIVES or (word.endswith(_ADJECTIVE_SUFFIXES) and len(word) > 5)


def _adjective_and_noun(tokens: Sequence[str]) -> bool:
    """Adjectives before the noun they modify, and what follows it ("unlimited liability",
    "exclusive licence", "reasonable efforts to enforce it"): a noun phrase, whose carrier
    is not "the clause is …". Not an adjective with what it governs ("void as a matter of
    law", "subject to approval")."""
    at = 0
    while at < len(tokens) and (_adjective(tokens[at]) or (at > 0 and tokens[at] in ("and", "or"))):
        at += 1
    if at == 0 or at == len(tokens):
        return False
    head = tokens[at]
    return head not in FUNCTION_WORDS and "NOUN" in lexicon.lemmas(head) and not _adjective(head)


@lru_cache(maxsize=4096)  # asked of a completion again by each frame (four times in five a text asked before)
def shape(text: str) -> str:
    """The syntactic shape of a fragment (see the module's table)."""
    tokens = words(text)
    if not tokens:
        return "noun phrase"
    first = tokens[0]
    first_verb = verb_of(first)
    # A gerund can be the subject ("selling the data is illegal"): only other verb forms open a phrase.
    # A participle can modify the subject ("de-identified data is the provider's property").
    modifier = first_verb is not None and first_verb[1] in ("gerund", "past") and len(tokens) > 2
    opener = (
        first in PREPOSITIONS
        or first in MODALS
        or (first_verb is not None and not modifier)
        or _opens_with_temporal(text)
    )
    if not opener and any(finite_verb_at(tokens, i) for i in range(1, len(tokens))):
        return "clause"
    if first in SUBORDINATORS and _main_clause_after_comma(text):
        return "clause"  # "once losses exceed the cap, all losses are recoverable"
    if first in MODALS:
        return "modal phrase"
    if first in PREPOSITIONS or _opens_with_temporal(text):
        return "prepositional phrase"
    verb = verb_of(first)
    if (verb is not None and verb[1] in ("3rd person", "past")) or _finite_auxiliary(first):
        return "verb phrase"
    if verb is not None and verb[1] == "base" and (len(tokens) < 2 or tokens[1] != "of"):
        return "infinitive phrase"
    if _adjective(first) and not _adjective_and_noun(tokens):
        return "adjective phrase"
    if len(tokens) > 1 and (first == "not" or _degree_adverb(first)):
        # "manifestly void" is what a clause is, as "void" is; a "not" also negates a passive
        # predicate ("not required by law to insure"): the shape of what the word modifies.
        rest = shape(" ".join(tokens[1:]))
        if rest == "adjective phrase" or (first == "not" and rest == "verb phrase" and passive_participle(tokens[1:])):
            return rest
    found = quantities(text)
    if (found and found[0].start == 0 and not found[0].adjectival) or first.isdigit() or is_number_word(first):
        return "quantity" if not (found and found[0].adjectival) else "noun phrase"
    return "noun phrase"


def passive_participle(tokens: Sequence[str]) -> bool:
    """Whether `tokens` open with a participle before "to", an agent or a "from" ("required by
    law to insure", "barred by law from subletting", "excluded from the deposit"): a passive
    predicate, said of a subject with "is"."""
    verb = verb_of(tokens[0]) if tokens else None
    return verb is not None and verb[1] == "past" and len(tokens) > 1 and tokens[1] in ("to", "by", "from")


#: Adverbs that negate, or that only open a clause, never grade the adjective after them.
_NOT_DEGREE = frozenset("not never hereby".split())


def _degree_adverb(word: str) -> bool:
    """An adverb that can grade an adjective after it ("manifestly", "wholly", "legally"):
    the lexicon reads it only as an adverb, and it does not negate."""
    return word not in _NOT_DEGREE and lexicon.only_as(word, "ADV")


def _finite_auxiliary(word: str) -> bool:
    return any(word in forms for forms in FINITE_AUXILIARIES.values())


#: Words that open a subordinate clause; a main clause may follow after a comma.
SUBORDINATORS = frozenset("once when if after before until unless while where although because since".split())


def _main_clause_after_comma(text: str) -> bool:
    _head, comma, rest = text.partition(",")
    return bool(comma) and shape(rest.strip()) == "clause"


def is_clause(text: str) -> bool:
    return shape(text) == "clause"


def plural_form(word: str) -> bool:
    """A noun's plural ("credits", "fees"): the lexicon reads it as a noun whose lemma is
    another word; not a word in -s that is its own lemma ("news", "analysis")."""
    nouns = lexicon.lemmas(word).get("NOUN", ())
    return word.endswith("s") and bool(nouns) and word not in nouns and not word.endswith(SINGULAR_IN_S)
