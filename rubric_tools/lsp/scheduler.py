"""Background work that never blocks the editor: debounced, superseded by newer work.

Each piece of work has a key (a matter and what is done to it: lint, audit) and a token
(the matter's generation, bumped by every change of one of its files). Submitting work
for a key cancels the work still waiting there (its debounce), and marks running work
as stale: the work asks `stale()` between its stages and stops early (`Superseded`),
and whatever a stale run returns is dropped, never published. The work itself runs in
an executor thread, so the event loop keeps answering hovers and completions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from typing import Any, TypeVar

Result = TypeVar("Result")

#: `stale()`: whether newer work for the same key has been submitted since.
Stale = Callable[[], bool]


class Superseded(Exception):
    """Raised by work that found itself stale between two stages."""


class Scheduler:
    """Runs work for keys; `log` gets a line for each start, cancellation and supersession,
    `failed` a line for work that raised (a bug: the server must go on serving)."""

    def __init__(self, log: Callable[[str], None], failed: Callable[[str], None] | None = None) -> None:
        self._log = log
        self._failed = failed or log
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}
        self._latest: dict[Hashable, int] = {}
        self._running: dict[Hashable, int] = {}  # the token whose work is in the executor, by key

    def submit(
        self,
        key: Hashable,
        token: int,
        delay: float,
        executor: Executor,
        work: Callable[[Stale], Result],
        done: Callable[[Result], None],
    ) -> None:
        """Run `work(stale)` in `executor` after `delay` seconds of quiet, then `done(result)`
        on the event loop unless newer work for `key` was submitted in the meantime."""
        previous = self._tasks.get(key)
        if previous is not None and not previous.done():
            waiting = self._latest.get(key)
            if self._running.get(key) != waiting:
                self._log(f"cancelled {_describe(key)} #{waiting} before it started: a newer change arrived")
            previous.cancel()
        self._latest[key] = token
        self._tasks[key] = asyncio.ensure_future(self._run(key, token, delay, executor, work, done))

    def is_latest(self, key: Hashable, token: int) -> bool:
        return self._latest.get(key) == token

    def pending(self) -> list[asyncio.Task[None]]:
        return [task for task in self._tasks.values() if not task.done()]

    def cancel_all(self) -> None:
        for task in self._tasks.values():
            task.cancel()

    async def _run(
        self,
        key: Hashable,
        token: int,
        delay: float,
        executor: Executor,
        work: Callable[[Stale], Any],
        done: Callable[[Any], None],
    ) -> None:
        if delay > 0:
            await asyncio.sleep(delay)

        def stale() -> bool:
            return self._latest.get(key) != token

        loop = asyncio.get_running_loop()
        self._running[key] = token
        self._log(f"started {_describe(key)} #{token}")
        try:
            result = await loop.run_in_executor(executor, work, stale)
        except Superseded:
            self._log(f"stopped {_describe(key)} #{token}: superseded by #{self._latest.get(key)}")
            return
        except asyncio.CancelledError:
            self._log(f"superseded {_describe(key)} #{token} while it ran: its result is dropped")
            raise
        except Exception as exc:  # a bug in the analysis: report it, keep serving
            self._failed(f"{_describe(key)} #{token} failed: {type(exc).__name__}: {exc}")
            return
        finally:
            if self._running.get(key) == token:
                del self._running[key]
        if stale():
            self._log(f"dropped the result of {_describe(key)} #{token}: superseded by #{self._latest.get(key)}")
            return
        done(result)


def _describe(key: Hashable) -> str:
    if isinstance(key, tuple) and len(key) == 2:
        return f"{key[1]} of {key[0]}"
    return str(key)
