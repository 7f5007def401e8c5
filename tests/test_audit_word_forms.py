"""The word forms of the audit's widening (`audit.lexicon`, `audit.thesaurus`, `audit.names`):
a gate is widened as a drafter would widen it. A head noun in both numbers, a verb in every
tense and person; never an adjective or adverb, a name, a function word, a word inside a
fixed expression, a word already inflected, or a number; every form maps back to its lemma;
alternations are written readably. And on the bundled matters, every word a widened pattern
spells is a real English form or the author's or the documents' own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rubric_tools.audit import lexicon
from rubric_tools.audit.fix_loop import fix_matter
from rubric_tools.audit.names import matter_names, matter_parties
from rubric_tools.audit.thesaurus import Thesaurus, phrase_forms
from rubric_tools.audit.thesaurus_groups import SYNONYM_GROUPS
from rubric_tools.audit.widening import widen_words
from rubric_tools.checking.audit_inputs import audit_inputs
from rubric_tools.config.audit import AuditSection
from rubric_tools.loading.matter import load_matter_source

REPO_ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted(p for p in (REPO_ROOT / "matters").iterdir() if (p / "rubric.yaml").is_file())


# ------------------------------------------------------------------ one word


@pytest.mark.parametrize(
    "word",
    ["void", "final", "whole", "internal", "binding", "full", "illegal", "unlawful", "invalid", "entire", "new"]
    + ["unenforceable", "ineffective", "conclusive", "later", "adequate", "reasonable", "limited", "completed"],
)
def test_adjectives_stay_as_written(word: str) -> None:
    assert lexicon.word_forms(word) == (word,)


@pytest.mark.parametrize("word", ["immediately", "promptly", "where", "once", "after", "within", "notwithstanding"])
def test_adverbs_and_connectives_stay_as_written(word: str) -> None:
    assert lexicon.word_forms(word) == (word,)


@pytest.mark.parametrize("word", ["sablewing", "glba", "pellham", "kettlebridge", "supercap"])
def test_words_the_lexicon_does_not_know_are_names(word: str) -> None:
    assert not lexicon.known(word)
    assert lexicon.word_forms(word) == (word,)


@pytest.mark.parametrize(
    "word", ["the", "of", "shall", "may", "will", "can", "is", "any", "such", "upon", "regarding", "five", "5"]
)
def test_function_words_modals_and_numbers_stay_as_written(word: str) -> None:
    assert lexicon.word_forms(word) == (word,)


@pytest.mark.parametrize(
    ("word", "forms"),
    [
        ("hold", ("hold", "holds", "held", "holding")),
        ("held", ("hold", "holds", "held", "holding")),
        ("vest", ("vest", "vests", "vested", "vesting")),
        ("vests", ("vest", "vests", "vested", "vesting")),
        ("vested", ("vest", "vests", "vested", "vesting")),
        ("notify", ("notify", "notifies", "notified", "notifying")),
        ("train", ("train", "trains", "trained", "training")),
    ],
)
def test_verbs_take_every_tense_and_person(word: str, forms: tuple[str, ...]) -> None:
    assert lexicon.word_forms(word) == forms


@pytest.mark.parametrize(
    ("word", "forms"),
    [
        ("fee", ("fee", "fees")),
        ("fees", ("fee", "fees")),
        ("investigation", ("investigation", "investigations")),
        ("obligations", ("obligation", "obligations")),
    ],
)
def test_nouns_take_both_numbers(word: str, forms: tuple[str, ...]) -> None:
    assert lexicon.word_forms(word) == forms


def test_irregular_plurals_and_nouns_in_their_own_right() -> None:
    assert "data" in lexicon.word_forms("datum")
    assert lexicon.word_forms("data") == ("data",)  # a mass noun is not made "datum"
    assert lexicon.word_forms("damages") == ("damages",)  # no "damageses", and not the verb "damaged"
    assert lexicon.word_forms("training") == ("training",)  # a gerund is not pluralised
    assert lexicon.word_forms("following") == ("following",)


def test_every_form_maps_back_to_its_lemma() -> None:
    # lemminflect lists "feed" as a past of "fee"; "feed" reads first as a verb of its own.
    assert "feed" not in lexicon.word_forms("fee") and lexicon.verb_forms("fee") == ("fee",)
    assert "feeing" not in lexicon.word_forms("fees")
    for word in ("hold", "vest", "fee", "datum", "notify", "cap", "use", "bind", "forbid"):
        for form in lexicon.word_forms(word):
            assert lexicon.known(form), (word, form)
    assert lexicon.verb_forms("bind") == ("bind", "binds", "bound", "binding")
    assert lexicon.past_participle("hold") == "held" and lexicon.past_participle("fee") is None


def test_a_verb_takes_every_spelling_of_a_form_and_writes_the_plain_verbs_first() -> None:
    # The lexicon lists two participles of "bear" and "strike", two pasts of "light".
    assert {"borne", "born"} <= set(lexicon.word_forms("bear"))
    assert {"struck", "stricken"} <= set(lexicon.verb_forms("strike"))
    assert {"lit", "lighted"} <= set(lexicon.verb_forms("light"))
    # Written: the participle that is no adjective in its own right, not the base form.
    assert lexicon.past_participle("bear") == "borne" and lexicon.past_participle("strike") == "struck"
    assert lexicon.past_participle("forbid") == "forbidden"
    assert lexicon.is_past_participle("borne") and lexicon.is_past_participle("stricken")


def test_prefixed_verbs_inflect_like_their_head() -> None:
    assert lexicon.verb_forms("re-identify") == ("re-identify", "re-identifies", "re-identified", "re-identifying")
    assert "reidentifies" in lexicon.verb_forms("reidentify")
    assert lexicon.inflect_like("forbid", "prohibits", "prohibit") == "forbids"
    assert lexicon.inflect_like("forbid", "prohibited", "prohibit") == "forbidden"
    # A prefixed verb the table gives no past participle takes its head's: "sublet", never "subletted".
    assert lexicon.verb_forms("sublet") == ("sublet", "sublets", "subletting")
    assert lexicon.past_participle("sublet") == "sublet"


@pytest.mark.parametrize(
    ("forms", "regex"),
    [
        (("fee", "fees"), "fees?"),
        (("train", "trains", "trained", "training"), "train(?:s|ed|ing)?"),
        (("authorize", "authorizes", "authorized", "authorizing"), "authoriz(?:e|es|ed|ing)"),
        (("forbid", "forbids", "forbade", "forbidden", "forbidding"), "(?:forbid(?:s|den|ding)?|forbade)"),
        (("bar", "bars", "barred", "barring", "ban", "bans"), "(?:bar(?:s|red|ring)?|bans?)"),
        (("void",), "void"),
        (("datum", "data"), "(?:datum|data)"),
    ],
)
def test_alternations_are_written_readably(forms: tuple[str, ...], regex: str) -> None:
    assert lexicon.alternation(forms) == regex


# ------------------------------------------------------------------ the thesaurus and the gate


def test_groups_inflect_by_their_part_of_speech() -> None:
    thesaurus = Thesaurus()
    assert {"forbids", "forbidden", "barred"} <= set(thesaurus.member_forms("prohibits"))
    assert {"fee", "fees", "charges"} <= set(thesaurus.member_forms("fee"))
    assert "charged" not in thesaurus.member_forms("fee")  # a group of nouns: number only
    forms = thesaurus.member_forms("void")
    assert "void" in forms and not {"voids", "invalids", "unenforceables", "illegals"} & set(forms)
    assert not {"immediatelies", "promptlies"} & set(thesaurus.member_forms("promptly"))
    assert not {"wheres", "ifs"} & set(thesaurus.member_forms("if"))
    # "completed its investigation" is no "whole its investigation"
    assert "whole" not in thesaurus.members("completed") and "complete" not in thesaurus.members("void")
    assert phrase_forms("final and binding", "FIXED") == ("final and binding",)


def test_coordinated_verbs_inflect_together_and_are_read_back_together() -> None:
    """A doublet's two verbs take the same form ("defends and indemnifies", never "defends
    and indemnify"), and a doublet in any form finds its group ("defended and indemnified" ->
    "indemnify")."""
    assert phrase_forms("defend and indemnify", "VERB") == (
        "defend and indemnify",
        "defends and indemnifies",
        "defended and indemnified",
        "defending and indemnifying",
    )
    assert "indemnifies and holds harmless" in phrase_forms("indemnify and hold harmless", "VERB")
    assert "holds harmless" in Thesaurus().member_forms("defends and indemnifies")
    assert "defends and indemnifies" in Thesaurus().member_forms("indemnifies")
    assert "indemnify" in Thesaurus().members("defended and indemnified")


def test_an_object_coordinated_after_the_verb_is_not_inflected() -> None:
    """Only the head verb of "hold all right, title and interest in" inflects: its "and"
    joins nouns of the object ("holds all right, title and interest in", never "held all
    right, title and interested in")."""
    forms = phrase_forms("hold all right, title and interest in", "VERB")
    assert "holds all right, title and interest in" in forms
    assert "held all right, title and interest in" in forms
    assert not any("interested" in form or "interests in" in form for form in forms)


def test_a_noun_the_lexicon_lists_only_as_a_verb_is_not_inflected_after_a_noun() -> None:
    """A word after a singular noun is a noun ("the rent act") even where the lexicon lists
    it as a verb only: it is written as it stands, never "the rent acted"; after a modal it
    is still a verb."""
    widened = widen_words(r"\bthe rent act prohibits\b", Thesaurus()) or ""
    assert "rents? act (?:" in widened and "act(?:s|ed|ing)?" not in widened
    assert "act(?:s|ed|ing)?" in (widen_words(r"\bthe landlord may act\b", Thesaurus()) or "")


def test_a_gate_keeps_its_adjectives_names_and_idioms() -> None:
    thesaurus = Thesaurus().with_matter(frozenset({"provider", "sablewing"}), frozenset({"pellham ridge"}))
    assert widen_words(r"\bsablewing shall not use its internal review\b", thesaurus) is not None
    widened = widen_words(r"\bsablewing shall not use its internal review\b", thesaurus) or ""
    assert "sablewings" not in widened and "internal(?:" not in widened and "internals" not in widened
    assert "use(?:s|d)?|using" in widened
    idiom = widen_words(r"\bin no event later than ten days after the incident\b", thesaurus) or ""
    assert "events" not in idiom and "(?:s|)" not in idiom
    assert widen_words(r"\bpellham ridge\b", thesaurus) is None
    adjectives = widen_words(r"\bcap is (?:adequate|customary|market|reasonable)\b", thesaurus) or ""
    assert "marketing" not in adjectives and "marketed" not in adjectives
    conjunctions = widen_words(r"\blaw\b[^.]{0,60}\b(?:but|provided|except|unless)\b requires", thesaurus) or ""
    assert "providing" not in conjunctions and "excepted" not in conjunctions
    compound = widen_words(r"\bto fine[- ]?tune\b", thesaurus) or ""
    assert "penalize" not in compound and "tunes" not in compound


def test_the_word_before_says_whether_a_noun_or_a_verb_is_meant() -> None:
    assert lexicon.word_forms("title", "NOUN") == ("title", "titles")
    assert lexicon.word_forms("use", "VERB") == ("use", "uses", "used", "using")
    assert lexicon.word_forms("void", "NOUN") == ("void",)  # an adjective stays one
    widened = widen_words(r"\bthe title to the deliverables vests in provider\b", Thesaurus()) or ""
    assert "titles?" in widened and "titled" not in widened
    recommend = widen_words(r"\bwe recommend any change\b", Thesaurus()) or ""
    assert "recommend(?:s|ed|ing)? " in recommend and recommend.endswith("not ))changes?\\b") and "|any|" in recommend
    assert "changed" not in recommend  # after a determiner, a noun


def test_the_matter_names_come_from_its_parties_and_documents() -> None:
    words, phrases = matter_names(load_matter_source(REPO_ROOT / "matters" / "ai_saas_001").model)
    assert {"sablewing", "provider", "customer", "york"} <= words
    assert {"sablewing labs", "pellham ridge federal credit union", "data breach claims"} <= phrases
    assert "data" not in words and "claims" not in words  # common words of a defined term stay common


def test_a_run_of_capitalised_words_mid_sentence_is_a_name_not_inflected() -> None:
    """ "Master Subscription Agreement", "Order Form": the documents capitalise the words
    together mid-sentence, though "order" or "form" alone may be common words; written
    together, they are a name ("order forms" is no form of "Order Form")."""
    _words, phrases = matter_names(load_matter_source(REPO_ROOT / "matters" / "ai_saas_001").model)
    assert {"master subscription agreement", "order form", "effective date"} <= phrases
    names = Thesaurus().with_matter(frozenset(), frozenset({"united states"}), ())
    widened = widen_words("tenant stores the records in the united states", names) or ""
    assert (
        widened.endswith("united states") and "stat(?:" not in widened and "stor(?:" in widened
    )  # the rest is widened
    assert "stat(?:e" in (widen_words("tenant stores the records in the united states", Thesaurus()) or "")


def test_a_party_is_called_by_its_role_or_its_name() -> None:
    """The matter's public facts name each party under its role: a gate that says
    "landlord" accepts the landlord's name and one that says the name accepts "landlord";
    a role no party is named under, and a word of no party, keep their own forms."""
    assert matter_parties(load_matter_source(REPO_ROOT / "matters" / "ai_saas_001").model) == (
        ("customer", "pellham ridge"),
        ("provider", "sablewing"),
    )
    thesaurus = Thesaurus().with_matter(frozenset({"ashgrove"}), frozenset(), (("landlord", "ashgrove"),))
    assert (widen_words(r"\blandlord may enter\b", thesaurus) or "").startswith(r"\b(?:ashgrove|landlord) ")
    assert (widen_words(r"\bashgrove may enter\b", thesaurus) or "").startswith(r"\b(?:landlord|ashgrove) ")
    assert "ashgrove" not in (widen_words(r"\btenant may enter\b", thesaurus) or "")
    assert thesaurus.party_names("tenant") == ()


# ------------------------------------------------------------------ the bundled matters


def _patterns(rubric: object) -> set[str]:
    """Every gate pattern written anywhere in a rubric (a string entry or a mapping's `pattern`)."""
    found: set[str] = set()
    if isinstance(rubric, dict):
        for key, value in rubric.items():
            if key.endswith("critical_failure_patterns") and isinstance(value, list):
                found |= {e if isinstance(e, str) else str(e.get("pattern", "")) for e in value}
            else:
                found |= _patterns(value)
    elif isinstance(rubric, list):
        for value in rubric:
            found |= _patterns(value)
    return found


def _without_negative_lookarounds(pattern: str) -> str:
    """The pattern without `(?!...)` and `(?<!...)`: what they spell must not be there."""
    out, depth_at, depth, index = [], -1, 0, 0
    while index < len(pattern):
        if pattern[index] == "\\":
            out.append(pattern[index : index + 2] if depth_at < 0 else "")
            index += 2
            continue
        if pattern[index] == "(":
            if depth_at < 0 and pattern.startswith(("(?!", "(?<!"), index):
                depth_at = depth
            depth += 1
        elif pattern[index] == ")":
            depth -= 1
            if depth == depth_at:
                depth_at, index = -1, index + 1
                out.append(" ")
                continue
        if depth_at < 0:
            out.append(pattern[index])
        index += 1
    return "".join(out)


#: A word and its endings as `lexicon.alternation` writes them: "train(?:s|ed|ing)?".
_WORD_AND_ENDINGS = re.compile(r"([A-Za-z]+)\(\?:([a-z]+(?:\|[a-z]+)*)\)(\?)?")


def _spelled_out(match: re.Match[str]) -> str:
    """The forms a word and its endings spell, as words: "train(?:s|ed)?" -> "train trains trained"."""
    stem, endings, optional = match.group(1), match.group(2).split("|"), match.group(3)
    return " ".join(([stem] if optional else []) + [stem + ending for ending in endings])


def _spelled_words(pattern: str) -> set[str]:
    """The words a pattern spells: letters between regex syntax, escapes and negative
    lookarounds (the negators the slack between words refuses) removed; a hyphen class is
    a hyphen."""
    text = _without_negative_lookarounds(pattern).replace("[- ]?", "-").replace("[- ]", "-")
    text = _WORD_AND_ENDINGS.sub(_spelled_out, re.sub(r"\\[A-Za-z]", " ", text))
    text = re.sub(r"\(\?P?<\w+>|\[[^\]]*\]|\?", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-z]+(?:[-'’][A-Za-z]+)*", text) if len(w) > 2}


#: The tool's own vocabulary, written as it stands: function words and the thesaurus's words.
VOCABULARY = lexicon.FUNCTION_WORDS | {
    word for group in SYNONYM_GROUPS for member in group for word in re.findall(r"[a-z]+", member)
}


def unreal_words(before: set[str], after: set[str], documents: str) -> set[str]:
    """Words of the widened patterns that are neither a form the lexicon knows nor the
    author's, the documents' or the thesaurus's own."""
    own = {w for p in before for w in _spelled_words(p)} | set(re.findall(r"[a-z]+", documents.lower())) | VOCABULARY
    return {w for p in after - before for w in _spelled_words(p) if w not in own and not lexicon.known(w)}


def test_the_check_rejects_the_spelling_rules_output() -> None:
    before = {r"\b(?:immediately|promptly) notify\b"}
    after = {r"\b(?:immediatelies|immediately|promptlies|promptly) notify\b"}
    assert unreal_words(before, after, "") == {"immediatelies", "promptlies"}
    # a word and its endings are read as the forms they spell: real ones pass, a wrong one not
    assert unreal_words(before, {r"\bnotif(?:ying|ied|ies|y)\b"}, "") == set()
    assert unreal_words(before, {r"\bprohibit(?:s|ed|ing)?\b"}, "") == set()
    assert unreal_words(before, {r"\bnotif(?:ying|ys)\b"}, "") == {"notifys"}
    assert unreal_words(before, {r"\bdamageses|bindinging|illegaled\b"}, "") == {"damageses", "bindinging", "illegaled"}


def test_every_widened_word_of_the_bundled_matters_is_real() -> None:
    widened_somewhere = False
    for matter in BUNDLED:
        result = fix_matter(matter, AuditSection(), audit_inputs(matter), unsafe=True)
        changed = {c.path.name: c for c in result.changes}
        if "rubric.yaml" not in changed:
            continue  # the audit widens nothing here (clean_saas_002)
        before = _patterns(yaml.safe_load(changed["rubric.yaml"].before))
        after = _patterns(yaml.safe_load(changed["rubric.yaml"].after))
        widened = after - before
        widened_somewhere |= bool(widened)
        documents = "\n".join(p.read_text(encoding="utf-8") for p in sorted((matter / "documents").glob("*.md")))
        assert unreal_words(before, after, documents) == set(), matter.name
        assert not any(re.search(r"\w\(\?:(?:s|es)\|\)", p) for p in widened), f"{matter.name}: an ending as (?:s|)"
        names, _phrases = matter_names(load_matter_source(matter).model)
        for name in names:
            # the name with an ending: "names", "names?", "name(?:s|…)" ("fees?" is "fee" inflected)
            plural = re.compile(rf"\b{re.escape(name)}(?:s\??|es|\(\?:e?s[|)])(?![a-z])")
            written = {m.group(0) for p in widened for m in plural.finditer(p)}
            authored = {m.group(0) for p in before for m in plural.finditer(p)}
            assert written <= authored, f"{matter.name}: a name inflected: {written - authored}"
    assert widened_somewhere  # ai_saas_001's gates are widened


def test_a_noun_beside_an_adjective_or_another_noun_takes_noun_forms_only() -> None:
    widened = widen_words(r"\bwe rely on the internal review\b", Thesaurus()) or ""
    assert "reviews?" in widened and "reviewed" not in widened
    # "model training": a noun modifier before a noun in its own right, and that noun is not
    # swapped for the forms of a verb ("training" is not "trains")
    widened = widen_words(r"\bmodel training of every kind\b", Thesaurus()) or ""
    assert "modeled" not in widened and "trains" not in widened and "training" in widened


@pytest.mark.parametrize(
    ("pattern", "synonym"),
    [
        # nouns the lexicon lists as nothing but nouns, each in a group of nouns
        ("landlord has no liability for the roof", "responsibilit"),
        ("tenant may sublet without approval of landlord", "consent"),
        ("on termination of the lease", "cancellation"),
        # an adjective the lexicon also lists as a noun, in a group of modifiers
        ("subletting is illegal", "unlawful"),
    ],
)
def test_a_noun_or_an_adjective_in_its_own_right_takes_its_own_groups(pattern: str, synonym: str) -> None:
    # Only a verb group's forms are kept from a noun in its own right ("training" is no
    # "train"): its groups as a noun or a modifier are the thesaurus's to give.
    widened = widen_words(pattern, Thesaurus()) or ""
    assert synonym in widened, widened


def test_a_project_group_is_not_read_through_the_verb_of_a_noun_in_its_own_right() -> None:
    from rubric_tools.audit.thesaurus import build

    thesaurus = build([("train", "coach")])
    assert "coach" not in (widen_words(r"\bmodel training of every kind\b", thesaurus) or "")
    assert "coach" in (widen_words(r"\btenant may train its staff\b", thesaurus) or "")


@pytest.mark.parametrize(
    ("pattern", "noun_only"),
    [
        ("tenant reports any security breach to the landlord", True),  # after a singular noun
        ("any breach of the lease", True),  # after a determiner, before "of"
        ("a security deposit", True),
        ("tenant shall not breach the lease", False),  # after "not": a verb, never a noun
    ],
)
def test_a_word_read_as_a_noun_takes_no_verb_group_and_a_verb_no_noun_group(pattern: str, noun_only: bool) -> None:
    # "breach" is both: in the group of "violate" as a verb, of "incident" as a noun.
    widened = widen_words(pattern, Thesaurus()) or ""
    if "breach" in pattern:
        assert ("violat" in widened) is not noun_only, widened
        assert ("incident" in widened) is noun_only, widened
    else:
        assert "deposited" not in widened and "deposits?" in widened, widened


def test_a_verb_before_its_object_keeps_its_verb_group() -> None:
    # Before a noun a word may be the noun's modifier ("model training") or its verb: a guess,
    # which chooses no group. After slack the word before says nothing either.
    widened = widen_words(r"tenant may\b(?:[^.;]|\.\d){1,30}?\buse landlord property", Thesaurus()) or ""
    assert "utiliz" in widened and "using" in widened, widened


def test_a_role_whose_public_fact_is_a_name_is_a_name_though_no_document_capitalises_it(tmp_path: Path) -> None:
    from tests.audit_support import make_matter

    root = make_matter(tmp_path / "lease")
    matter_file = root / "matter.yaml"
    matter_file.write_text(
        matter_file.read_text(encoding="utf-8").replace(
            "  customer: Lantern Books LLC\n",
            "  customer: Lantern Books LLC\n  landlord: Harbor Point Properties, LLC\n  rent: $4,000 a month\n",
        ),
        encoding="utf-8",
    )
    words, _phrases = matter_names(load_matter_source(root).model)
    assert "landlord" in words  # the rubric's "the Landlord": never "landlords", "landlorded"
    assert "rent" not in words  # a figure is no name
