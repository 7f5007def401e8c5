"""Run the scoring worker over a stream of work items: in this process or a process pool.

Both keep the input order and a bounded number of trajectories in flight, so memory
stays flat however long the archive is. Problems found before scoring (a malformed
record, a matter not found) pass through in their place.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice

from rubric_tools.diagnostics import Diagnostic
from rubric_tools.rescore.worker import WorkItem, score_item

#: Trajectories sent to a worker at once: enough to amortize the hand-over, few enough
#: that what is in flight stays small.
CHUNK = 8
#: Chunks queued per worker beyond the one it is scoring.
QUEUED_PER_WORKER = 2

Outcome = str | Diagnostic  # a worker's JSON result, or a problem passed through


def score_chunk(items: list[WorkItem]) -> list[str]:
    return [score_item(item) for item in items]


def run_serial(items: Iterable[WorkItem | Diagnostic]) -> Iterator[Outcome]:
    for item in items:
        yield item if isinstance(item, Diagnostic) else score_item(item)


def _chunks(items: Iterable[WorkItem | Diagnostic]) -> Iterator[list[WorkItem] | Diagnostic]:
    """Consecutive work items grouped; a diagnostic closes the group so order is kept."""
    group: list[WorkItem] = []
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


def run_pool(items: Iterable[WorkItem | Diagnostic], jobs: int) -> Iterator[Outcome]:
    """Score in `jobs` worker processes; results come back in input order."""
    pending: deque[Future[list[str]] | Diagnostic] = deque()
    window = jobs * (1 + QUEUED_PER_WORKER)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        chunks = _chunks(items)
        for chunk in islice(chunks, window):
            pending.append(chunk if isinstance(chunk, Diagnostic) else pool.submit(score_chunk, chunk))
        while pending:
            head = pending.popleft()
            if isinstance(head, Diagnostic):
                yield head
            else:
                yield from head.result()
            for chunk in islice(chunks, 1):
                pending.append(chunk if isinstance(chunk, Diagnostic) else pool.submit(score_chunk, chunk))
