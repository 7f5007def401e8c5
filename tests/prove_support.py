"""Fixture matters for the solver and attack tests, built from `rule_cases/_base`.

`base_data()` gives the base matter's YAML files as plain data; a test edits that data
and `write_matter()` writes a complete matter folder from it, so each fixture states
only what makes it unreachable or exploitable.
"""

from __future__ import annotations

import copy
import io
import shutil
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from rubric_tools.loading.matter import MatterSource, load_matter_source

BASE_MATTER = Path(__file__).parent / "rule_cases" / "_base"
YAML_FILES = ("matter.yaml", "rubric.yaml", "hidden_facts.yaml", "counterparty.yaml")


def _yaml() -> YAML:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.allow_unicode = True
    return yaml


def base_data() -> dict[str, Any]:
    """The base matter's YAML files as data: {file name: data}."""
    return {name: _yaml().load((BASE_MATTER / name).read_text(encoding="utf-8")) for name in YAML_FILES}


def write_matter(root: Path, data: dict[str, Any], documents: dict[str, str] | None = None) -> MatterSource:
    """Write a matter folder: the base documents, then `data` (a None value deletes the
    file), then `documents` ({relative path: Markdown}); load it and return the source."""
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(BASE_MATTER / "documents", root / "documents")
    for name, content in data.items():
        if content is None:
            continue
        stream = io.StringIO()
        _yaml().dump(copy.deepcopy(content), stream)
        (root / name).write_text(stream.getvalue(), encoding="utf-8")
    for relative, text in (documents or {}).items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    return load_matter_source(root)


def issue(data: dict[str, Any], index: int = 0) -> dict[str, Any]:
    """The rubric issue at `index`, for editing in place."""
    return data["rubric.yaml"]["issues"][index]
