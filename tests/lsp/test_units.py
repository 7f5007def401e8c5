"""The server's pure parts, without a client: positions, the completion context read from
a half-typed buffer, settings, and the scheduler's debounce and supersession."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.lsp.support import require_extra

require_extra()

from lsprotocol import types

from rubric_tools.diagnostics import Span
from rubric_tools.lsp.completion import context_of
from rubric_tools.lsp.positions import TextIndex
from rubric_tools.lsp.scheduler import Scheduler, Superseded
from rubric_tools.lsp.settings import Settings, merged


def test_spans_become_client_positions_in_the_negotiated_units() -> None:
    text = 'a: "😀 x"\nanchor: "msa §4.2"\n'
    index = TextIndex(text, yaml=True)
    # The loader's 1-based columns count code points; UTF-16 counts the emoji twice.
    assert index.range(Span(1, 7, 1, 8)) == types.Range(start=types.Position(0, 7), end=types.Position(0, 8))
    utf8 = TextIndex(text, yaml=True, units=lambda s: len(s.encode("utf-8")))
    assert utf8.range(Span(2, 9, 2, 19)) == types.Range(start=types.Position(1, 8), end=types.Position(1, 19))
    assert utf8.point(types.Position(1, 19)) == (2, 19)
    assert index.point(types.Position(0, 7)) == (1, 7)


def test_yaml_line_breaks_editors_do_not_count_are_mapped() -> None:
    """The loader breaks YAML lines at NEL; editors (and LSP) do not."""
    text = "a: x\x85b: y\nc: z\n"
    index = TextIndex(text, yaml=True)
    assert index.range(Span(3, 1, 3, 2)).start == types.Position(1, 0)  # loader line 3 is the client's line 1
    assert index.range(Span(2, 1, 2, 2)).start == types.Position(0, 5)
    document = TextIndex("# T\r\n## 1 A\r\n", yaml=False)
    assert document.range(Span(2, 1, 2, 7)) == types.Range(start=types.Position(1, 0), end=types.Position(1, 6))


def test_a_byte_order_mark_is_not_counted() -> None:
    assert TextIndex("\ufeffa: 1\n", yaml=True).range(Span(1, 4, 1, 5)).start == types.Position(0, 3)


@pytest.mark.parametrize(
    ("lines", "before", "path", "typing_key", "typed"),
    [
        (["issues:", "  - id: x"], '    anchor: "msa §4', ("issues", 0, "anchor"), False, "msa §4"),
        # `- ` alone cannot tell a scalar item from a mapping's first key: completion asks the schema.
        (
            ["issues:", "  - id: x", "    required_citations:"],
            "      - play",
            ("issues", 0, "required_citations", 0),
            True,
            "play",
        ),
        (
            ["final_submission:"],
            "  required_issue_ids: [a, b",
            ("final_submission", "required_issue_ids", 0),
            False,
            "b",
        ),
        (["questions:", "- id: q"], "  ali", ("questions", 0), True, "ali"),  # an indentless sequence
        (["positions:", "  a:", "    resist_rounds: 1"], "  b", ("positions",), True, "b"),
        (
            ["issues:", "  - id: x", "    critical_failure_patterns:", "      - pattern: 'y'"],
            "        neg",
            ("issues", 0, "critical_failure_patterns", 0),
            True,
            "neg",
        ),
    ],
)
def test_the_completion_context_is_read_from_indentation(
    lines: list[str], before: str, path: tuple[object, ...], typing_key: bool, typed: str
) -> None:
    context = context_of(lines, len(lines), before)
    assert context is not None
    assert (context.path, context.typing_key, context.typed) == (path, typing_key, typed)
    assert before[context.start :] == typed


def test_no_completion_context_in_a_comment() -> None:
    assert context_of(["issues:"], 1, "  # a note about ") is None


def test_settings_take_valid_values_nested_flat_or_under_settings() -> None:
    base = Settings()
    nested = merged(
        base, {"rubric": {"audit": {"onSave": False}, "debounce": 0, "docs": {"baseUrl": "https://x/A.md"}}}
    )
    assert (nested.audit_on_save, nested.debounce_ms, nested.docs_base_url) == (False, 0, "https://x/A.md")
    assert merged(base, {"audit.onSave": False, "diagnostics": {"scope": "workspace"}}).scope == "workspace"
    assert merged(base, {"settings": {"configFile": "rubric.toml"}}).config_file == "rubric.toml"
    ignored = merged(
        base, {"rubric": {"debounce": "fast", "audit": {"onSave": "yes"}, "diagnostics": {"scope": "all"}}}
    )
    assert ignored == base


def test_the_scheduler_runs_only_the_newest_work_of_a_key() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        log: list[str] = []
        done: list[str] = []
        scheduler = Scheduler(log.append)
        pool = ThreadPoolExecutor(1)

        def work(name: str, seconds: float):  # type: ignore[no-untyped-def]
            def run(stale):  # type: ignore[no-untyped-def]
                deadline = time.monotonic() + seconds
                while time.monotonic() < deadline:
                    if stale():
                        raise Superseded
                    time.sleep(0.005)
                return name

            return run

        scheduler.submit("m", 1, 0.5, pool, work("waiting", 0), done.append)  # cancelled in its debounce
        scheduler.submit("m", 2, 0, pool, work("running", 5), done.append)  # superseded while it runs
        await asyncio.sleep(0.1)
        scheduler.submit("m", 3, 0, pool, work("newest", 0), done.append)
        scheduler.submit("other", 1, 0, pool, work("other key", 0), done.append)
        while scheduler.pending():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)
        pool.shutdown()
        return log, done

    log, done = asyncio.run(scenario())
    assert sorted(done) == ["newest", "other key"]
    assert any("cancelled" in line and "#1 before it started" in line for line in log)
    assert any("superseded" in line and "#2" in line for line in log)


def test_work_that_raises_is_reported_and_the_scheduler_goes_on() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        failures: list[str] = []
        done: list[str] = []
        scheduler = Scheduler(lambda line: None, failures.append)
        pool = ThreadPoolExecutor(1)

        def broken(stale):  # type: ignore[no-untyped-def]
            raise KeyError("a bug")

        scheduler.submit("m", 1, 0, pool, broken, done.append)
        while scheduler.pending():
            await asyncio.sleep(0.01)
        scheduler.submit("m", 2, 0, pool, lambda stale: "after", done.append)
        while scheduler.pending():
            await asyncio.sleep(0.01)
        pool.shutdown()
        return failures, done

    failures, done = asyncio.run(scenario())
    assert failures == ["m #1 failed: KeyError: 'a bug'"] and done == ["after"]
