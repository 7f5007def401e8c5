"""How soon `rubric lsp` publishes diagnostics after a change, on a warm server.

The server runs as an editor runs it (`python -m rubric_tools lsp`, over stdio, driven by
pygls's own client) on a temporary copy of the bundled matters. For each matter the
rubric is opened and, once the server is warm (a few changes linted), edited N times
(the first anchor broken, then restored, in turn); each latency is the wall time from
sending `didChange` to receiving the `publishDiagnostics` of that version, with the
server's default debounce (250 ms of quiet typing) and without one (`debounce: 0`: what
the analysis itself costs). An edit of a cited document (which re-checks the rubric) is
timed the same way.

The reference, measured in this run and this process: the same analysis called
directly (load the matter with the edited buffer, lint with the fix proof, replay the
trajectories against their expectations, run the probes), without a server.

    python benchmarks/lsp.py [--changes N]

Needs the lsp extra: pip install -e '.[lsp]'.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
BROKEN = ('anchor: "', 'anchor: "X')


def _require_extra() -> None:
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        sys.exit("benchmarks/lsp.py needs the lsp extra: pip install -e '.[lsp]'")


async def _latencies(root: Path, folder: Path, changes: int, debounce: int) -> dict[str, list[float]]:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("benchmark", "1")
    arrived: dict[tuple[str, int | None], float] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: types.PublishDiagnosticsParams) -> None:
        arrived.setdefault((params.uri, params.version), time.perf_counter())

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def logged(params: types.LogMessageParams) -> None:
        pass

    await client.start_io(sys.executable, "-m", "rubric_tools", "lsp")
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="bench")],
            initialization_options={"rubric": {"debounce": debounce, "audit": {"onSave": False}}},
        )
    )
    client.initialized(types.InitializedParams())

    async def wait(uri: str, version: int) -> float:
        while (uri, version) not in arrived:
            await asyncio.sleep(0.001)
        return arrived[(uri, version)]

    timings: dict[str, list[float]] = {"rubric.yaml": [], "a document": []}
    for name, path in (("rubric.yaml", root / "rubric.yaml"), ("a document", _first_document(root))):
        text = path.read_text(encoding="utf-8")
        edited = _edited(name, text)
        uri = path.as_uri()
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
            )
        )
        await wait(uri, 1)
        for version in range(2, changes + 5):
            sent = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[
                        types.TextDocumentContentChangeWholeDocument(text=edited if version % 2 else text)
                    ],
                )
            )
            received = await wait(uri, version)
            if version >= 5:  # the first three changes warm the server up
                timings[name].append(received - sent)
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return timings


def _first_document(root: Path) -> Path:
    import yaml

    documents = yaml.safe_load((root / "matter.yaml").read_text(encoding="utf-8"))["documents"]
    return root / documents[0]["path"]


def _edited(name: str, text: str) -> str:
    if name == "rubric.yaml":
        return text.replace(*BROKEN, 1)
    # Rename the first section heading: every anchor citing it stops resolving.
    lines = text.splitlines(keepends=True)
    first = next(n for n, line in enumerate(lines) if line.startswith("## "))
    lines[first] = "## Z" + lines[first][3:]
    return "".join(lines)


def _reference(root: Path, rounds: int) -> float:
    """The analysis the server runs for one change, called directly (best of `rounds`)."""
    from rubric_tools.lsp import adapter
    from rubric_tools.lsp.analysis import config_for

    rubric = root / "rubric.yaml"
    overlay = {rubric.resolve(): _edited("rubric.yaml", rubric.read_text(encoding="utf-8")).encode("utf-8")}
    config = config_for(root, _settings(), root.parent.parent)
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        source = adapter.load(root, overlay)
        adapter.lint(source, config, overlay)
        adapter.trajectory_checks(source, overlay)
        for probes in adapter.probe_files(root):
            adapter.probe_problems(source, probes, overlay)
        best = min(best, time.perf_counter() - started)
    return best


def _settings():  # type: ignore[no-untyped-def]
    from rubric_tools.lsp.settings import Settings

    return Settings()


def _row(label: str, values: list[float], reference: float) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    median = statistics.median(ordered)
    return (
        f"  {label:<34} median {median * 1000:6.0f} ms  p90 {p90 * 1000:6.0f} ms  max {ordered[-1] * 1000:6.0f} ms"
        f"  ({median / reference:4.1f}x the direct analysis)"
    )


def main() -> None:
    _require_extra()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--changes", type=int, default=20, help="timed changes per file (default 20)")
    options = parser.parse_args()
    os.environ.setdefault("RUBRIC_CACHE_DIR", tempfile.mkdtemp(prefix="rubric-bench-cache-"))
    with tempfile.TemporaryDirectory(prefix="rubric-lsp-bench-") as folder:
        workspace = Path(folder)
        shutil.copytree(REPO_ROOT / "matters", workspace / "matters")
        shutil.copy(REPO_ROOT / "pyproject.toml", workspace / "pyproject.toml")
        for root in sorted(p.parent for p in (workspace / "matters").glob("*/matter.yaml")):
            reference = _reference(root, rounds=5)
            print(f"{root.name}: direct analysis of one change (the reference) {reference * 1000:.0f} ms")
            for debounce in (250, 0):
                timings = asyncio.run(_latencies(root, workspace, options.changes, debounce))
                for name, values in timings.items():
                    print(_row(f"edit of {name}, debounce {debounce} ms", values, reference))


if __name__ == "__main__":
    main()
