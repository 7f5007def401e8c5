"""Run the scoring worker over a stream of work items: in this process or a process pool.

Both keep the input order and a bounded number of trajectories in flight, so memory
stays flat however long the archive is. Problems found before scoring (a malformed
record, a matter not found) pass through in their place. Lines of a JSONL of episodes
travel unparsed (`RawEpisode`) and are parsed by the worker, so the reading process
only reads.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice

from rubric_tools.diagnostics import Diagnostic
from rubric_tools.rescore.records import RawEpisode, RawFile
from rubric_tools.rescore.worker import Resolver, Scored, WorkItem, score_file, score_raw, score_with_brief

#: Trajectories sent to a worker at once: enough to amortize the hand-over, few enough
#: that what is in flight stays small.
CHUNK = 64
#: Chunks queued per worker beyond the one it is scoring.
QUEUED_PER_WORKER = 2

Work = WorkItem | RawEpisode | RawFile
Outcome = Scored | Diagnostic  # a worker's result, or a problem passed through


def score_one(item: Work, resolver: Resolver | None) -> Scored:
    if isinstance(item, RawEpisode | RawFile):
        assert resolver is not None, "unread records need a resolver"
        return score_raw(item, resolver) if isinstance(item, RawEpisode) else score_file(item, resolver)
    return score_with_brief(item)


def score_chunk(items: list[Work], resolver: Resolver | None) -> list[Scored]:
    return [score_one(item, resolver) for item in items]


def run_serial(items: Iterable[Work | Diagnostic], resolver: Resolver | None = None) -> Iterator[Outcome]:
    for item in items:
        yield item if isinstance(item, Diagnostic) else score_one(item, resolver)


def _chunks(items: Iterable[Work | Diagnostic]) -> Iterator[list[Work] | Diagnostic]:
    """Consecutive work items grouped; a diagnostic closes the group so order is kept."""
    group: list[Work] = []
    for item in items:
        if isinstance(item, Diagnostic):
            if group:
                yield group
                group = []
            yield item
            continue
        group.append(item)
        if len(group) == CHUNK:
            yield group
            group = []
    if group:
        yield group


def run_pool(items: Iterable[Work | Diagnostic], jobs: int, resolver: Resolver | None = None) -> Iterator[Outcome]:
    """Score in `jobs` worker processes; results come back in input order."""
    pending: deque[Future[list[Scored]] | Diagnostic] = deque()
    window = jobs * (1 + QUEUED_PER_WORKER)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        chunks = _chunks(items)

        def submit(chunk: list[Work] | Diagnostic) -> None:
            pending.append(chunk if isinstance(chunk, Diagnostic) else pool.submit(score_chunk, chunk, resolver))

        for chunk in islice(chunks, window):
            submit(chunk)
        while pending:
            head = pending.popleft()
            if isinstance(head, Diagnostic):
                yield head
            else:
                yield from head.result()
            for chunk in islice(chunks, 1):
                submit(chunk)
