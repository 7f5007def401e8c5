"""`rubric audit` over several matters: the pool is given the costliest audits first (the
largest rubrics, with the most text to complete witnesses from), and the audits come back in
the order the matters were named."""

from __future__ import annotations

from pathlib import Path

from rubric_tools.commands.audit import audit_roots, costliest_first
from rubric_tools.config.audit import AuditSection
from tests.audit_support import make_matter

SMALL = "    critical_failure_patterns:\n      - 'uptime commitments are unenforceable'\n"
LARGE = SMALL + "".join(f"      - 'service credits? (?:are|is) waived in year {n}'\n" for n in range(12))


def test_the_costliest_audit_is_first(tmp_path: Path) -> None:
    small = make_matter(tmp_path / "small", SMALL)
    large = make_matter(tmp_path / "large", LARGE)
    missing = tmp_path / "missing"  # no rubric: last
    assert costliest_first([small, missing, large]) == [2, 0, 1]
    # The same gates, with more of the matter's own text to complete each witness from.
    documented = make_matter(tmp_path / "documented", LARGE, guide="Every hosting contract names its region. " * 200)
    assert costliest_first([small, large, documented]) == [2, 1, 0]


def test_audits_come_back_in_the_order_given(tmp_path: Path) -> None:
    roots = [make_matter(tmp_path / "small", SMALL), make_matter(tmp_path / "large", LARGE)]
    in_pool = audit_roots(roots, AuditSection(), jobs=2, propose=False)
    assert [audit.root for audit in in_pool] == roots
    alone = audit_roots(roots, AuditSection(), jobs=1, propose=False)
    assert [audit.diagnostics for audit in in_pool] == [audit.diagnostics for audit in alone]


def test_the_tables_are_read_before_forking_and_kept_out_of_collections() -> None:
    """`preload` (called before the pool forks) reads the lexicon's tables, with the
    collector paused and frozen after (they live as long as the process: its full passes
    no longer walk them, and the collector is as it was), and builds the table of number
    words."""
    import gc

    from rubric_tools.audit import lexicon, quantities
    from rubric_tools.audit.runner import preload

    was_collecting = gc.isenabled()
    lexicon._lookup.cache_clear()  # read again here, whatever an earlier test read
    gc.unfreeze()
    preload()
    assert gc.isenabled() == was_collecting
    assert gc.get_freeze_count() > 0
    assert lexicon.lemmas("fees")["NOUN"] == ("fee",)
    assert quantities._number_tokens.cache_info().currsize == 1


def test_an_auditing_process_collects_less_often() -> None:
    """A process that audits (a pool's worker, or the command's own with one job) lets the
    collector wait for `YOUNG_OBJECTS_BEFORE_COLLECTING` new objects, not Python's 700."""
    import gc

    from rubric_tools.audit.runner import YOUNG_OBJECTS_BEFORE_COLLECTING, collect_less

    before = gc.get_threshold()
    try:
        collect_less()
        assert gc.get_threshold() == (YOUNG_OBJECTS_BEFORE_COLLECTING, *before[1:])
    finally:
        gc.set_threshold(*before)
