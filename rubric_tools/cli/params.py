"""Parameters several commands declare the same way (typer reads the `Annotated` metadata)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

#: The matters a repository-wide command looks at: `rubric check`, `coverage`, `audit`.
MatterPaths = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Matter folders, files of matters, or folders holding matters "
        "\\[default: the configured matter-dirs, else .]",
        show_default=False,
    ),
]
