"""`rubric audit --write-probes`: append the evidence of gate findings to the matter's
probe file, as entries marked for the author's review, so that today's audit becomes
tomorrow's regression test.

The file is never re-dumped: new entries are appended as text at the end of its
`probes:` list (or of the bare list), comments and layout kept; the result is parsed
again and, if it does not hold exactly the old entries plus the new ones, the original
bytes are put back and the problem reported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rubric_tools.audit.codes import GATE_DODGED, GATE_FIRES_ON_CORRECT_WORK, GATE_FIRES_ON_NEGATED_FRAME
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.loading.layout import new_probe_file
from rubric_tools.loading.yaml_source import load_yaml

#: Verdict → what the probe must expect: correct work stays silent, a dodge must fire.
EXPECT_FIRE = {GATE_FIRES_ON_CORRECT_WORK.code: False, GATE_FIRES_ON_NEGATED_FRAME.code: False, GATE_DODGED.code: True}
#: Plain scalars YAML would not read as strings.
_YAML_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "null", "y", "n"})


@dataclass(frozen=True)
class ProbeWrite:
    path: Path
    added: int
    problem: str | None = None


def _entries(data: Any) -> list[Any] | None:
    if isinstance(data, Mapping):
        data = data.get("probes")
    return data if isinstance(data, list) else None


def _new_probes(diagnostics: Sequence[Diagnostic], existing: set[tuple[str, str, str]]) -> list[dict[str, Any]]:
    probes = []
    for diagnostic in diagnostics:
        expect = EXPECT_FIRE.get(diagnostic.code)
        subject = diagnostic.extra.get("subject")
        if expect is None or not isinstance(subject, Mapping):
            continue
        for item in diagnostic.extra.get("evidence", []):  # type: ignore[attr-defined]
            if item.get("kind") == "probe":
                continue  # already a probe
            key = (str(subject["surface"]), str(subject["issue"]), item["sentence"])
            if key in existing:
                continue
            existing.add(key)
            probes.append(
                {
                    "surface": key[0],
                    "criterion": key[1],
                    "text": key[2],
                    "expect_fire": expect,
                    "review": f"rubric audit {diagnostic.code} {diagnostic.name}: {item['kind']} "
                    f"({item['source']}); confirm the verdict, then delete this note",
                }
            )
    return probes


def _render(probes: list[dict[str, Any]], indent: str) -> str:
    lines = []
    for probe in probes:
        lines.append(f"{indent}- surface: {probe['surface']}")
        for key in ("criterion", "text", "expect_fire", "review"):
            value = probe[key]
            if isinstance(value, bool):
                shown = "true" if value else "false"
            elif key == "criterion" and re.fullmatch(r"[A-Za-z][\w-]*", value) and value.lower() not in _YAML_WORDS:
                shown = value  # a plain issue id, written as the author writes it
            else:
                shown = json.dumps(value, ensure_ascii=False)  # JSON strings are valid YAML
            lines.append(f"{indent}  {key}: {shown}")
    return "\n".join(lines) + "\n"


def _item_indent(text: str, bare: bool) -> str | None:
    """The indentation of the list's items; None when the list is written in flow style."""
    if bare:
        return ""
    header = re.search(r"^probes:[ \t]*(?P<rest>[^\n#]*)", text, re.MULTILINE)
    if header is None or header.group("rest").strip():
        return None  # `probes: []` or another flow list: appending text cannot extend it
    item = re.search(r"^(?P<indent>[ \t]*)- ", text[header.end() :], re.MULTILINE)
    return item.group("indent") if item else "  "


def write_probes(root: Path, diagnostics: Sequence[Diagnostic], probe_files: Sequence[Path] = ()) -> ProbeWrite:
    """Append the gate findings' evidence to the matter's first probe file among `probe_files`
    (those that exist), else to a new `probes.yaml` in the matter folder."""
    path = probe_files[0] if probe_files else new_probe_file(root)
    original = path.read_bytes() if path.is_file() else b""
    text = original.decode("utf-8", errors="strict") if original else "probes:\n"
    source = load_yaml(path) if original else None
    data = source.data if source is not None else {"probes": []}
    entries = _entries(data)
    if entries is None:
        return ProbeWrite(path, 0, "the probe file holds no `probes:` list to append to")
    seen = {
        (str(e.get("surface")), str(e.get("criterion")), str(e.get("text"))) for e in entries if isinstance(e, Mapping)
    }
    probes = _new_probes(diagnostics, seen)
    if not probes:
        return ProbeWrite(path, 0)
    if isinstance(data, Mapping) and list(data)[-1] != "probes":
        return ProbeWrite(path, 0, "`probes:` is not the last key of the file, so entries cannot be appended")
    indent = _item_indent(text, bare=isinstance(data, list))
    if indent is None:
        return ProbeWrite(path, 0, "the `probes:` list is written in flow style; write it as a block list first")
    appended = text + ("" if text.endswith("\n") else "\n") + _render(probes, indent)
    path.write_text(appended, encoding="utf-8")
    after = _entries(load_yaml(path).data)
    if after is None or len(after) != len(entries) + len(probes) or after[: len(entries)] != entries:
        if original:
            path.write_bytes(original)
        else:
            path.unlink()
        return ProbeWrite(path, 0, "appending would not have kept the existing probes intact; file left unchanged")
    return ProbeWrite(path, len(probes))
