"""`rubric convert IN OUT`: a trajectory from JSONL to YAML or back, as a function of
its options that returns the exit code."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from rubric_tools.commands.common import EXIT_OK, EXIT_USAGE
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.loading.layout import TRAJECTORY_SUFFIXES
from rubric_tools.loading.trajectory import is_yaml_trajectory, load_trajectory
from rubric_tools.loading.trajectory_writer import actions_to_jsonl, actions_to_yaml, has_non_finite
from rubric_tools.schemas import SchemaNotFoundError, schema_path


@dataclass
class ConvertOptions:
    source: Path
    destination: Path
    schema_line: str | None = None  # the $schema target of a YAML header, when known


def _print(stream: TextIO, diagnostic: Diagnostic) -> None:
    stream.write(
        f"{diagnostic.file}:{diagnostic.line}:{diagnostic.span.column if diagnostic.span else 1}: "
        f"{diagnostic.code} {diagnostic.message}\n"
    )


_SCHEMA_LINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)\s*$")


def _written_schema(source: Path) -> str | None:
    """The `$schema` target of the source's own `yaml-language-server` line, if it has one."""
    if not is_yaml_trajectory(source):
        return None
    try:
        with source.open(encoding="utf-8", errors="replace") as lines:
            for line in lines:
                if not line.startswith("#"):
                    return None
                match = _SCHEMA_LINE.match(line)
                if match:
                    return match.group(1)
    except OSError:
        return None
    return None


def _schema_line(source: Path, destination: Path) -> str | None:
    """The `$schema` target of the YAML written at `destination`, so that editors validate
    it: the nearest `schemas/trajectory.schema.json` above it (the folder `rubric new`
    writes), else the source's own line (a relative path rebased to the destination's
    folder, anything else kept), else the schema shipped with rubric-tools."""
    folder = destination.resolve().parent
    for candidate in (folder, *folder.parents):
        schema = candidate / "schemas" / "trajectory.schema.json"
        if schema.is_file():
            return Path(os.path.relpath(schema, folder)).as_posix()
    written = _written_schema(source)
    if written is not None:
        relative = source.resolve().parent / written
        if "://" in written or Path(written).is_absolute() or not relative.is_file():
            return written
        return Path(os.path.relpath(relative.resolve(), folder)).as_posix()
    try:
        return schema_path("trajectory").resolve().as_posix()
    except SchemaNotFoundError:
        return None


def run_convert(options: ConvertOptions, out: TextIO, err: TextIO) -> int:
    """Convert one trajectory file; the output format follows the destination's suffix."""
    source, destination = options.source, options.destination
    if not source.is_file():
        err.write(f"error: {source}: no such trajectory file\n")
        return EXIT_USAGE
    if destination.suffix.lower() not in TRAJECTORY_SUFFIXES:
        err.write(f"error: {destination}: the output must end in .jsonl, .yaml or .yml\n")
        return EXIT_USAGE
    if destination.resolve() == source.resolve():
        err.write(f"error: {destination} is the input file; choose another output\n")
        return EXIT_USAGE
    trajectory = load_trajectory(source)
    errors = [d for d in trajectory.diagnostics if d.severity is Severity.ERROR]
    for diagnostic in errors:
        _print(err, diagnostic)
    if errors:
        err.write(f"error: {source} was not converted\n")
        return EXIT_USAGE
    if any(has_non_finite(action) for action in trajectory.actions):
        err.write(f"error: {source}: a number is not finite (NaN or infinity); JSON cannot carry it\n")
        return EXIT_USAGE
    if is_yaml_trajectory(destination):
        text = actions_to_yaml(trajectory.actions, options.schema_line or _schema_line(source, destination))
    else:
        text = actions_to_jsonl(trajectory.actions)
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_text(text, encoding="utf-8")
    except OSError as exc:
        err.write(f"error: cannot write {destination}: {exc.strerror or exc}\n")
        return EXIT_USAGE
    count = len(trajectory.actions)
    out.write(f"{source} → {destination}: {count} action{'s' if count != 1 else ''}\n")
    return EXIT_OK
