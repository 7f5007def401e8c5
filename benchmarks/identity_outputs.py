"""Record every command's output on the conformance corpus, the edge cases and the bundled
matters, to compare two revisions byte for byte (a restructuring must not change a byte).

    python benchmarks/identity_outputs.py OUT_DIR            # record this checkout's outputs
    python benchmarks/identity_outputs.py OUT_DIR --only lint --jobs 2
    diff -r BASELINE_DIR OUT_DIR                              # compare two recordings

Each invocation is one file in OUT_DIR: the command line, the exit code, stdout and
stderr (bytes as written), and the files the command wrote (`solve --write`,
`convert`, `new`, `coverage --html`). Every command runs as `python -m rubric_tools` in
a fresh interpreter on this checkout's package (PYTHONPATH), with the result and YAML
caches off (RUBRIC_NO_CACHE=1), a fixed terminal width, hash seed and locale, from the
repository root (so paths print as `matters/...`); the scratch folder it writes into is
printed as `<scratch>`, the repository's own path as `<repo>` (two checkouts compare).
Not a speed benchmark: it prints only how many invocations ran and how long they took.

The corpora are found at `$RUBRIC_CONFORMANCE_DIR` (default `../shared/conformance`) and
`$RUBRIC_CONFORMANCE_EDGE_DIR` (default `../shared/conformance-edge`); both are read only.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
#: In an argument, the invocation's scratch folder (and in the outputs, where it was).
S = "<scratch>/"


@dataclass(frozen=True)
class Invocation:
    """One command line (`<scratch>` in an argument is this invocation's scratch folder);
    `writes` are paths in the scratch folder whose contents are recorded after it ran;
    `setup` copies a folder into the scratch folder first."""

    name: str
    args: tuple[str, ...]
    writes: tuple[str, ...] = ()
    stdin: str | None = None
    setup: tuple[tuple[str, ...], ...] = field(default_factory=tuple)


def _corpus(variable: str, default: Path) -> Path:
    return Path(os.environ.get(variable) or default)


def _codes() -> list[str]:
    """Every documented code: the headings of AUTHORING.md's generated catalogue."""
    text = (REPO / "AUTHORING.md").read_text(encoding="utf-8")
    return sorted(set(re.findall(r"^#### ([A-Z]\d{3}) ", text, flags=re.MULTILINE)))


def _invocations(conformance: Path, edge: Path) -> Iterator[Invocation]:
    bundled = sorted(p.parent.relative_to(REPO) for p in (REPO / "matters").glob("*/matter.yaml"))
    conformance_matters = sorted(p for p in (conformance / "matters").iterdir() if p.is_dir())
    edge_cases = sorted(p for p in edge.iterdir() if (p / "matter").is_dir())
    corpora: dict[str, list[str]] = {
        "bundled": [str(p) for p in bundled],
        "conformance": [str(p) for p in conformance_matters],
        "edge": [str(p / "matter") for p in edge_cases],
    }
    every_matter = [
        (f"{corpus}-{Path(m).name if corpus != 'edge' else Path(m).parent.name}", m)
        for corpus, ms in corpora.items()
        for m in ms
    ]

    # --- help screens
    yield Invocation("help-root", ("--help",))
    for command in (
        "lint",
        "explain",
        "rules",
        "new",
        "replay",
        "convert",
        "check",
        "max-score",
        "solve",
        "attack",
        "rescore",
        "audit",
        "coverage",
    ):
        yield Invocation(f"help-{command}", (command, "--help"))

    # --- lint: every format over each corpus (several matters per run), fixes as diffs
    for corpus, matters in corpora.items():
        for fmt in ("full", "concise", "json", "sarif", "github"):
            yield Invocation(f"lint-{corpus}-{fmt}", ("lint", "--no-color", "--output-format", fmt, *matters))
        yield Invocation(f"lint-{corpus}-diff", ("lint", "--no-color", "--diff", *matters))
        yield Invocation(f"lint-{corpus}-diff-unsafe", ("lint", "--no-color", "--diff", "--unsafe-fixes", *matters))
        yield Invocation(
            f"lint-{corpus}-select",
            ("lint", "--no-color", "--select", "G,A", "--ignore", "G011", "--output-format", "concise", *matters),
        )
    yield Invocation(
        "lint-discover-conformance", ("lint", "--no-color", "--output-format", "concise", str(conformance))
    )
    yield Invocation("lint-discover-edge", ("lint", "--no-color", "--output-format", "concise", str(edge)))
    yield Invocation("lint-discover-repo", ("lint", "--no-color", "--output-format", "concise", "matters"))
    yield Invocation("lint-file-in-matter", ("lint", "--no-color", "matters/ai_saas_001/rubric.yaml"))
    yield Invocation("lint-missing-path", ("lint", "--no-color", "no/such/matter"))
    yield Invocation("lint-not-a-matter", ("lint", "--no-color", "README.md"))
    yield Invocation(
        "lint-fix-copy",
        ("lint", "--no-color", "--fix", "--unsafe-fixes", S + "fixcopy"),
        writes=("fixcopy",),
        setup=(("copy", str(edge / "H19-anchor-trailing-dot-section" / "matter"), "fixcopy"),),
    )

    # --- check, audit, coverage: each corpus in one run
    for corpus, matters in corpora.items():
        for fmt in ("text", "json", "junit"):
            yield Invocation(f"check-{corpus}-{fmt}", ("check", "--no-color", "--output-format", fmt, *matters))
        for fmt in ("text", "json", "sarif"):
            yield Invocation(f"audit-{corpus}-{fmt}", ("audit", "--output-format", fmt, *matters))
        yield Invocation(f"audit-{corpus}-diff", ("audit", "--diff", *matters))
        yield Invocation(f"audit-{corpus}-diff-unsafe", ("audit", "--diff", "--unsafe-fixes", *matters))
        for fmt in ("text", "json"):
            yield Invocation(f"coverage-{corpus}-{fmt}", ("coverage", "--no-color", "--output-format", fmt, *matters))
    yield Invocation("check-discover-repo", ("check", "--no-color", "matters"))
    yield Invocation("check-strict-bundled", ("check", "--no-color", "--strict", *corpora["bundled"]))
    yield Invocation("check-coverage-bundled", ("check", "--no-color", "--coverage", "--mutation", *corpora["bundled"]))
    yield Invocation(
        "check-trajectory-file", ("check", "--no-color", "matters/ai_saas_001/trajectories/reference.jsonl")
    )
    yield Invocation("coverage-bundled-mutation", ("coverage", "--no-color", "--mutation", *corpora["bundled"]))
    yield Invocation(
        "coverage-bundled-html", ("coverage", "--no-color", "--html", S + "html", *corpora["bundled"]), writes=("html",)
    )

    # --- single-matter commands
    for name, matter in every_matter:
        for fmt in ("text", "json"):
            yield Invocation(f"solve-{name}-{fmt}", ("solve", "--no-color", "--output-format", fmt, matter))
            yield Invocation(f"attack-{name}-{fmt}", ("attack", "--no-color", "--output-format", fmt, matter))
            yield Invocation(f"max-score-{name}-{fmt}", ("max-score", "--no-color", "--output-format", fmt, matter))
        yield Invocation(
            f"solve-{name}-write",
            ("solve", "--no-color", "--write", S + "solved.jsonl", matter),
            writes=("solved.jsonl",),
        )

    # --- replay: the conformance layout (matters/<id> beside trajectories/<id>), edge cases, bundled
    for fmt in ("text", "concise", "json", "jsonl"):
        for matter in conformance_matters:
            trajectories = conformance / "trajectories" / matter.name
            yield Invocation(
                f"replay-conformance-{matter.name}-{fmt}",
                ("replay", "--no-color", "--output-format", fmt, str(trajectories)),
            )
        edge_arguments: list[str] = []
        for case in edge_cases:
            yield Invocation(
                f"replay-edge-{case.name}-{fmt}",
                (
                    "replay",
                    "--no-color",
                    "--output-format",
                    fmt,
                    "--matter",
                    str(case / "matter"),
                    str(case / "trajectory.jsonl"),
                ),
            )
            edge_arguments.append(str(case / "trajectory.jsonl"))
        yield Invocation(f"replay-edge-found-{fmt}", ("replay", "--no-color", "--output-format", fmt, *edge_arguments))
        yield Invocation(f"replay-bundled-{fmt}", ("replay", "--no-color", "--output-format", fmt, "matters"))
    yield Invocation(
        "replay-glob", ("replay", "--no-color", "--output-format", "concise", "matters/*/trajectories/*.jsonl")
    )
    yield Invocation(
        "replay-stdin",
        ("replay", "--no-color", "--output-format", "concise", "-"),
        stdin="matters/ai_saas_001/trajectories/reference.jsonl\n# a comment\n\nmatters/clean_saas_002/trajectories\n",
    )
    yield Invocation(
        "replay-jobs",
        (
            "replay",
            "--no-color",
            "--output-format",
            "jsonl",
            "--jobs",
            "2",
            str(conformance / "trajectories" / "ai_saas_001"),
        ),
    )
    yield Invocation(
        "replay-trace",
        (
            "replay",
            "--no-color",
            "--output-format",
            "concise",
            "--trace",
            S + "trace.json",
            "matters/ai_saas_001/trajectories",
        ),
        writes=("trace.json",),
    )
    yield Invocation("replay-missing", ("replay", "--no-color", "no/such/trajectory.jsonl"))

    # --- convert, both ways, and back
    for trajectory in sorted((REPO / "matters").glob("*/trajectories/*")):
        stem = f"{trajectory.parent.parent.name}-{trajectory.name}"
        relative = str(trajectory.relative_to(REPO))
        if trajectory.suffix == ".jsonl":
            yield Invocation(f"convert-{stem}", ("convert", relative, S + "converted.yaml"), writes=("converted.yaml",))
        else:
            yield Invocation(
                f"convert-{stem}", ("convert", relative, S + "converted.jsonl"), writes=("converted.jsonl",)
            )
    yield Invocation(
        "convert-conformance",
        ("convert", str(conformance / "trajectories/ai_saas_001/fuzz_0000.jsonl"), S + "fuzz.yml"),
        writes=("fuzz.yml",),
    )
    yield Invocation(
        "convert-edge",
        ("convert", str(edge / "H21-surrogate-in-action/trajectory.jsonl"), S + "h21.yaml"),
        writes=("h21.yaml",),
    )

    # --- new, then check what it made
    yield Invocation("new-matter", ("new", "house_new_001", "--dir", S + "made"), writes=("made",))

    # --- rescore (one worker: the table is the same either way)
    for fmt in ("table", "json"):
        yield Invocation(
            f"rescore-bundled-{fmt}",
            (
                "rescore",
                "--no-color",
                "--jobs",
                "1",
                "--output-format",
                fmt,
                "--matters",
                "matters",
                "--base",
                "matters",
                "matters/ai_saas_001/trajectories",
            ),
        )
    yield Invocation(
        "rescore-conformance",
        (
            "rescore",
            "--no-color",
            "--jobs",
            "1",
            "--output-format",
            "json",
            "--matters",
            str(conformance / "matters"),
            "--base",
            str(conformance / "matters"),
            str(conformance / "trajectories"),
        ),
    )

    # --- explain every code (and a name, a lower-case code, an unknown one), rules
    for code in _codes():
        yield Invocation(f"explain-{code}", ("explain", "--no-color", code))
    yield Invocation("explain-by-name", ("explain", "--no-color", "invalid-regex"))
    yield Invocation("explain-lower-case", ("explain", "--no-color", "g003"))
    yield Invocation("explain-unknown", ("explain", "--no-color", "G99"))
    yield Invocation("explain-unknown-name", ("explain", "--no-color", "invalid-regx"))
    for fmt in ("table", "json"):
        yield Invocation(f"rules-{fmt}", ("rules", "--no-color", "--output-format", fmt))


def _environment(cache: Path) -> dict[str, str]:
    keep = ("PATH", "HOME", "VIRTUAL_ENV")
    env = {key: os.environ[key] for key in keep if key in os.environ}
    env.update(
        PYTHONPATH=str(REPO),
        PYTHONHASHSEED="0",
        RUBRIC_NO_CACHE="1",
        RUBRIC_CACHE_DIR=str(cache),
        COLUMNS="160",
        LINES="50",
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
        TERM="dumb",
    )
    return env


def _written(scratch: Path, relative: str) -> bytes:
    target = scratch / relative
    if not target.exists():
        return f"=== wrote {relative}: nothing\n".encode()
    files = sorted(p for p in target.rglob("*") if p.is_file()) if target.is_dir() else [target]
    chunks = []
    for path in files:
        chunks.append(f"=== wrote {path.relative_to(scratch)}\n".encode())
        chunks.append(path.read_bytes())
        chunks.append(b"\n")
    return b"".join(chunks)


def _run(invocation: Invocation, out: Path, root: Path, env: dict[str, str]) -> None:
    scratch = root / invocation.name
    scratch.mkdir(parents=True)
    for step in invocation.setup:
        if step[0] == "copy":
            shutil.copytree(step[1], scratch / step[2])
    args = [arg.replace(S, f"{scratch}/") for arg in invocation.args]
    completed = subprocess.run(
        [sys.executable, "-m", "rubric_tools", *args],
        cwd=REPO,
        env=env,
        input=invocation.stdin.encode() if invocation.stdin is not None else None,
        stdin=subprocess.DEVNULL if invocation.stdin is None else None,
        capture_output=True,
        check=False,
    )
    record = [
        f"$ rubric {' '.join(invocation.args)}\n".encode(),
        f"=== exit {completed.returncode}\n=== stdout\n".encode(),
        completed.stdout,
        b"\n=== stderr\n",
        completed.stderr,
        b"\n",
        *(_written(scratch, relative) for relative in invocation.writes),
    ]
    text = b"".join(record).replace(str(scratch).encode(), b"<scratch>").replace(str(REPO).encode(), b"<repo>")
    (out / f"{invocation.name}.txt").write_bytes(text)
    shutil.rmtree(scratch, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="folder to write the outputs into (emptied first)")
    parser.add_argument("--jobs", type=int, default=2, help="invocations run at once (default 2)")
    parser.add_argument("--only", default="", help="run only invocations whose name matches this regex")
    parser.add_argument("--list", action="store_true", help="list the invocations and exit")
    args = parser.parse_args(argv)
    conformance = _corpus("RUBRIC_CONFORMANCE_DIR", SHARED / "conformance")
    edge = _corpus("RUBRIC_CONFORMANCE_EDGE_DIR", SHARED / "conformance-edge")
    if not (conformance / "matters").is_dir() or not edge.is_dir():
        print(f"error: the corpora are not at {conformance} and {edge}", file=sys.stderr)
        return 2
    invocations = [i for i in _invocations(conformance, edge) if re.search(args.only, i.name)]
    if args.list:
        print("\n".join(f"{i.name}: rubric {' '.join(i.args)}" for i in invocations))
        return 0
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rubric-identity-") as temporary:
        root = Path(temporary)
        env = _environment(root / "cache")
        with ThreadPoolExecutor(max(args.jobs, 1)) as pool:
            for future in [pool.submit(_run, i, args.out, root / "runs", env) for i in invocations]:
                future.result()
    print(f"{len(invocations)} invocations in {time.perf_counter() - started:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
