"""The lexicon's own reading of lemminflect's tables answers as lemminflect does, on every
word the tables and override files hold (`audit.lexicon_tables`), and the lexicon falls
back to lemminflect itself when the tables cannot be read."""

from __future__ import annotations

import gzip
from pathlib import Path

import lemminflect
import pytest

from rubric_tools.audit import lexicon, lexicon_tables
from rubric_tools.audit.lexicon_tables import LemminflectTables, read_tables


@pytest.fixture(scope="module")
def tables() -> LemminflectTables:
    read = read_tables()
    assert read is not None, "the installed lemminflect's tables could not be read"
    return read


def _every_word(tables: LemminflectTables) -> list[str]:
    keys = [
        *tables.lemma_lines.words(),
        *tables.lemma_overrides,
        *tables.inflection_lines.words(),
        *tables.inflection_overrides,
    ]
    # lemminflect looks a word up lowercased; words it does not list answer empty.
    return sorted({key.lower() for key in keys} | {"", "sablewing", "re-identify", "be", "can", "dare"})


def test_lemmas_are_lemminflects_on_every_word(tables: LemminflectTables) -> None:
    differing = [w for w in _every_word(tables) if tables.all_lemmas(w) != lemminflect.getAllLemmas(w)]
    assert differing == []


@pytest.mark.parametrize("upos", ["VERB", "NOUN", "ADJ", "ADV", "AUX", "PRON"])
def test_inflections_are_lemminflects_on_every_word(tables: LemminflectTables, upos: str) -> None:
    words = _every_word(tables)
    differing = [w for w in words if tables.all_inflections(w, upos) != lemminflect.getAllInflections(w, upos=upos)]
    assert differing == []


def test_the_tables_are_read_as_written(tables: LemminflectTables) -> None:
    # A spot check the comparison above cannot make by itself: it would pass were both empty.
    assert tables.all_lemmas("held")["VERB"] == ("hold",)
    assert tables.all_inflections("hold", "VERB")["VBD"] == ("held",)
    assert tables.all_inflections("datum", "NOUN")["NNS"][0] in ("data", "datums")
    assert tables.all_inflections("be", "VERB")["VBD"] == ("was", "were")  # filed by hand


def _table_files(folder: Path, lemma_lines: list[bytes]) -> None:
    (folder / "lemma_lu.csv.gz").write_bytes(gzip.compress(b"\n".join(lemma_lines)))
    (folder / "infl_lu.csv.gz").write_bytes(gzip.compress(b"hold,verb,held,held,holding,holds"))
    (folder / "lemma_overrides.csv").write_text("# word,upos,lemma\n")
    (folder / "infl_overrides.csv").write_text("")


def test_unreadable_tables_are_no_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexicon_tables, "_resources", lambda: tmp_path)
    assert read_tables() is None  # no files there
    lemma_lines = [b"%05d,noun,x" % n for n in range(300)]
    _table_files(tmp_path, lemma_lines)
    read = read_tables()
    assert read is not None and read.all_lemmas("00150") == {"NOUN": ("x",)}
    _table_files(tmp_path, lemma_lines[::-1])
    assert read_tables() is None  # not sorted: bisection would miss words
    _table_files(tmp_path, [b"%05d,noun,x,y" % n for n in range(300)])
    assert read_tables() is None  # a field more than lemminflect 0.2 writes
    (tmp_path / "lemma_lu.csv.gz").write_bytes(b"not gzip")
    assert read_tables() is None


def test_the_lexicon_asks_lemminflect_when_the_tables_cannot_be_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexicon, "read_tables", lambda: None)
    lexicon._lookup.cache_clear()
    try:
        fallback = lexicon._lookup()
        assert isinstance(fallback, lexicon._Library)
        assert fallback.all_lemmas("held") == lemminflect.getAllLemmas("held")
        assert fallback.all_inflections("hold", "VERB") == lemminflect.getAllInflections("hold", upos="VERB")
    finally:
        lexicon._lookup.cache_clear()
