"""lemminflect's two look-up tables, read without lemminflect's line-by-line reader.

On first use lemminflect reads its tables of lemmas and of inflections one gzip line at a
time, parsing every entry in Python: about a third of a second of CPU (and numpy's import
besides), paid before an audit's workers fork and so the larger part of `rubric audit`'s
serial start-up (issue #25). `LemminflectTables` reads the same files, as the installed
lemminflect ships them, by decompressing each at once and finding a word's lines by
bisection (each table is sorted by its first field); an entry is parsed only when it is
looked up, by the rules of lemminflect's own readers. Its two lookups answer what `lemminflect.getAllLemmas(word)` and
`lemminflect.getAllInflections(lemma, upos)` answer for a lowercase word:
`tests/test_lexicon_tables.py` compares them on every word of both tables and of both
override files. A lemminflect whose files are not where and as these expect gives
`read_tables() is None`, and the lexicon asks lemminflect itself (`lexicon._lookup`).
"""

from __future__ import annotations

import gzip
import importlib.util
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: The files, under the installed package's `resources` folder.
_LEMMAS, _LEMMA_OVERRIDES = "lemma_lu.csv.gz", "lemma_overrides.csv"
_INFLECTIONS, _INFLECTION_OVERRIDES = "infl_lu.csv.gz", "infl_overrides.csv"
#: The inflection tags a line of the inflection table lists its forms under, by category,
#: and the tags its base form is filed under (lemminflect's `InflectionLUCodec`).
_FORM_TAGS = {"noun": ("NNS",), "adj": ("JJR", "JJS"), "adv": ("RBR", "RBS"), "verb": ("VBD", "VBN", "VBG", "VBZ")}
_BASE_TAGS = {"noun": ("NN",), "adj": ("JJ",), "adv": ("RB",), "verb": ("VB", "VBP")}
#: The modals and "be", which lemminflect files by hand over whatever its table says.
_HAND_FILED: dict[str, dict[str, tuple[str, ...]]] = {
    "can": {"VB": ("can",), "VBD": ("could",)},
    "may": {"VB": ("may",), "VBD": ("might",)},
    "will": {"VB": ("will",), "VBD": ("would",)},
    "shall": {"VB": ("shall",), "VBD": ("should",)},
    "must": {"VB": ("must",), "VBD": ("must",)},
    "ought": {"VB": ("ought",), "VBD": ("ought",)},
    "dare": {"VB": ("dare",)},
    "be": {
        "VB": ("be",),
        "VBD": ("was", "were"),
        "VBG": ("being",),
        "VBN": ("been",),
        "VBP": ("am", "are"),
        "VBZ": ("is",),
    },
}
#: The tags a part of speech asks for (lemminflect's `uposToTags`).
_TAGS_OF = {
    "VERB": ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "MD"),
    "AUX": ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "MD"),
    "ADJ": ("JJ", "JJR", "JJS"),
    "ADV": ("RB", "RBR", "RBS"),
    "NOUN": ("NN", "NNS", "NNP", "NNPS"),
}

Forms = dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class Table:
    """A gzip table's lines as written, in the file's order: sorted by their first field (a
    word as the table writes it), as lemminflect writes them."""

    lines: list[str]

    def entries(self, word: str) -> list[str]:
        """What each line of `word` holds after its first field, in file order."""
        found = []
        at = bisect_left(self.lines, word, key=_first_field)
        while at < len(self.lines):
            head, _, rest = self.lines[at].partition(",")
            if head != word:
                break
            found.append(rest)
            at += 1
        return found

    def words(self) -> set[str]:
        return {_first_field(line) for line in self.lines}


def _first_field(line: str) -> str:
    return line.partition(",")[0]


@dataclass(frozen=True)
class LemminflectTables:
    """The two tables and the two override files, read."""

    lemma_lines: Table
    lemma_overrides: dict[str, Forms]
    inflection_lines: Table
    inflection_overrides: dict[str, Forms]

    def all_lemmas(self, word: str) -> Forms:
        """`lemminflect.getAllLemmas(word)` for a lowercase `word`: its lemmas by part of
        speech, a modal's under "AUX"."""
        found: Forms = {}
        for line in self.lemma_lines.entries(word):
            category, forms = line.split(",")
            found["AUX" if category == "modal" else category.upper()] = tuple(forms.split("/"))
        found.update(self.lemma_overrides.get(word, {}))
        return _lowercase(found)

    def all_inflections(self, lemma: str, upos: str) -> Forms:
        """`lemminflect.getAllInflections(lemma, upos)` for a lowercase `lemma`: its forms
        by inflection tag, those of the part of speech `upos` only."""
        found: Forms = {}
        for line in self.inflection_lines.entries(lemma):
            found.update(_inflection_entry(lemma, line))
        if lemma in _HAND_FILED:
            found = dict(_HAND_FILED[lemma])
        found.update(self.inflection_overrides.get(lemma, {}))
        wanted = _TAGS_OF.get(upos, ())
        return _lowercase({tag: forms for tag, forms in found.items() if tag in wanted})


def _inflection_entry(word: str, line: str) -> Forms:
    """One line of the inflection table: "category,forms of the first tag,…", each field
    the spellings separated by "/" (an empty field lists none)."""
    category, *fields = line.split(",")
    if category not in _FORM_TAGS:
        raise ValueError(f"unrecognized category: {category}")  # as lemminflect's reader
    entry: Forms = {}
    for tag, field in zip(_FORM_TAGS[category], fields, strict=False):
        spellings = tuple(field.split("/"))
        if len(spellings) > 1 or spellings[0]:
            entry[tag] = spellings
    for tag in _BASE_TAGS[category]:
        entry[tag] = (word,)
    return entry


def _lowercase(forms: Forms) -> Forms:
    return {tag: tuple(form.lower() for form in spellings) for tag, spellings in forms.items()}


def read_tables() -> LemminflectTables | None:
    """The installed lemminflect's tables, or None when its files are not there to read
    (lemminflect not installed, or a release that keeps them elsewhere or otherwise)."""
    folder = _resources()
    if folder is None:
        return None
    try:
        return LemminflectTables(
            _sorted_table(folder / _LEMMAS, _lemma_line),
            _overrides(folder / _LEMMA_OVERRIDES),
            _sorted_table(folder / _INFLECTIONS, _inflection_line),
            _overrides(folder / _INFLECTION_OVERRIDES),
        )
    except (OSError, ValueError, EOFError):
        return None


def _resources() -> Path | None:
    # Found without importing lemminflect, which imports numpy: only its files are read.
    spec = importlib.util.find_spec("lemminflect")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "resources"


def _sorted_table(path: Path, written_as_expected: Callable[[str], bool]) -> Table:
    """A gzip table, checked at a hundred lines spread over the file: each written as
    expected, and sorted by their first field. A release that wrote its tables otherwise
    is read by lemminflect itself (`tests/test_lexicon_tables.py` compares every word)."""
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    sampled = lines[:: max(1, len(lines) // 100)]
    heads = [_first_field(line) for line in sampled]
    if not lines or heads != sorted(heads) or not all(map(written_as_expected, sampled)):
        raise ValueError(f"{path.name}: not written as lemminflect 0.2 writes it")
    return Table(lines)


def _lemma_line(line: str) -> bool:
    return line.count(",") == 2  # word,category,lemmas


def _inflection_line(line: str) -> bool:
    fields = line.split(",")
    return len(fields) >= 3 and fields[1] in _FORM_TAGS  # word,category,the forms of each tag


def _overrides(path: Path) -> dict[str, Forms]:
    """An override file: "word,tag,form" lines (lemminflect's `OverridesCodec`), blank lines
    and "#" comments skipped; a later line of a word and tag replaces an earlier one."""
    overrides: dict[str, Forms] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, tag, form = line.split(",")
        overrides.setdefault(word, {})[tag] = (form,)
    return overrides
