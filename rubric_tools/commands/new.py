"""`rubric new MATTER_ID` as a function of its options that returns the exit code."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from rubric_tools.authoring.new_matter import NewMatterOptions, create_matter, write_reference
from rubric_tools.commands.common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.resolve import resolve_config
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY


def run_new(options: NewMatterOptions, out: TextIO, err: TextIO) -> int:
    """`rubric new`: exit 0 with a skeleton that `rubric check` passes, 2 on a usage error."""
    try:
        config = resolve_config(
            [options.directory if options.directory.exists() else Path()], CONFIG_VOCABULARY, options.config_file
        )
    except ConfigError as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    try:
        result = create_matter(options, config.lint.canary)
    except ValueError as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    except OSError as exc:
        err.write(f"error: cannot write the matter: {exc.strerror or exc}\n")
        return EXIT_USAGE
    reached = write_reference(result, err)
    out.write(f"created matter {options.matter_id} in {result.root}:\n")
    for path in result.written:
        out.write(f"  {path.relative_to(result.root).as_posix()}\n")
    if result.schemas_written is not None:
        out.write(f"wrote the JSON Schemas the files' `$schema` lines point to into {result.schemas_written}\n")
    if not config.lint.canary:
        out.write("note: no canary is configured ([tool.rubric] canary); matter.yaml has a placeholder comment\n")
    out.write(f"next: replace the example content, then run `rubric check {result.root}`\n")
    return EXIT_OK if reached else EXIT_FINDINGS
