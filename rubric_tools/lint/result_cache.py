"""Remember each matter's lint findings, keyed by everything that can change them.

Like ruff's cache: a matter whose files, configuration and tool are unchanged since the
last run is not linted again (nor are the rule modules even imported when every matter
hits). The key covers what the loader may read under the matter folder (the bytes of
every regular file, never following a symlink out, never opening a FIFO), the settings
that shape findings (select, ignore, severity, canary), and a fingerprint of the
installed tool (its source files and schemas). A report holding an internal error is
never stored. Lives beside the YAML parse cache; RUBRIC_NO_CACHE=1 disables both.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import Diagnostic, Severity, Span
from rubric_tools.fixing.fixes import fix_from_cache, fix_to_cache
from rubric_tools.lint.witnesses import witness_files
from rubric_tools.loading import files
from rubric_tools.loading.yaml_cache import cache_dir

RESULT_FORMAT = 2
PACKAGE_ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=1)
def tool_fingerprint() -> str:
    """Changes whenever any source file or schema of the tool changes."""
    digest = hashlib.sha256(str(RESULT_FORMAT).encode())
    folders = [PACKAGE_ROOT]  # an installed wheel carries its schemas in rubric_tools/_schemas
    if (PACKAGE_ROOT.parent / "pyproject.toml").is_file():  # a source checkout keeps them beside it
        folders.append(PACKAGE_ROOT.parent / "schemas")
    for folder in folders:
        for relative, size, mtime_ns in sorted(_source_files(folder)):
            digest.update(f"{relative}:{size}:{mtime_ns};".encode())
    return digest.hexdigest()


def _config_fingerprint(config: LintSection) -> str:
    settings = {
        "select": list(config.select),
        "ignore": list(config.ignore),
        "severity": sorted((rule, severity.value) for rule, severity in config.severity.items()),
        "canary": config.canary,
        "prove_fixes": config.prove_fixes,
    }
    return json.dumps(settings, sort_keys=True)


def _added_rules() -> str:
    """Rules registered from outside the tool's own rule modules (plugins, tests)."""
    from rubric_tools.lint.registry import RULES

    builtin = "rubric_tools.lint.rules."
    return ",".join(sorted(code for code, rule in RULES.items() if not rule.check.__module__.startswith(builtin)))


def file_fingerprint(path: Path) -> bytes:
    """The digest of a file's bytes read under the file-system policy, or of why it was refused.

    Never blocks (a FIFO is refused before it is opened) and never reads past the cap.
    """
    content = files.read_regular_file(path, files.MAX_DOCUMENT_BYTES)
    if isinstance(content, files.Refused):
        return f"refused:{content.reason.value}:{content.detail}".encode("utf-8", "backslashreplace")
    return hashlib.sha256(content).digest()


def _hash_tree(root: Path, digest: Any) -> None:
    """Feed `digest` what the loader may read under `root`, under the file-system policy.

    Symlinks are not followed: a link contributes its target text (a target inside
    the matter is hashed as the regular file it is; one outside is never read, and
    the loader refuses it whatever it holds). FIFOs and devices contribute their
    type, never their content; a file over the cap only its size.
    """
    pending = [root]
    entries: list[tuple[str, bytes]] = []
    while pending:
        folder = pending.pop()
        with os.scandir(folder) as scan:
            for entry in scan:
                relative = Path(entry.path).relative_to(root).as_posix()
                if entry.is_symlink():
                    entries.append((relative, b"link:" + os.fsencode(os.readlink(entry.path))))
                elif entry.is_dir(follow_symlinks=False):
                    pending.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False):
                    entries.append((relative, file_fingerprint(Path(entry.path))))
                else:
                    entries.append((relative, f"special:{entry.stat(follow_symlinks=False).st_mode}".encode()))
    for relative, fingerprint in sorted(entries):
        digest.update(relative.encode("utf-8", "surrogateescape") + b"\0" + fingerprint)


def matter_key(root: Path, config: LintSection) -> str | None:
    """The cache key of linting `root` under `config`, or None when caching is off."""
    if cache_dir() is None:
        return None
    fingerprint = f"{tool_fingerprint()}|{_config_fingerprint(config)}|{_added_rules()}|"
    digest = hashlib.sha256(fingerprint.encode())
    try:
        _hash_tree(root, digest)
        # Trajectories and probes beside `matters/` decide whether a fix is proven safe.
        for path in witness_files(root):
            digest.update(str(path).encode("utf-8", "surrogateescape") + b"\0" + file_fingerprint(path))
    except (OSError, ValueError):
        return None  # an unreadable folder: lint it for real, which reports it
    return digest.hexdigest()


def _entry(key: str) -> Path:
    folder = cache_dir()
    assert folder is not None
    return folder / "lint" / key[:2] / f"{key}.json"


def restore(key: str, root: Path) -> tuple[str, list[Diagnostic]] | None:
    """(matter_id, diagnostics) stored under `key`, with files re-anchored at `root`."""
    try:
        stored = json.loads(_entry(key).read_text(encoding="utf-8"))
        diagnostics = [
            Diagnostic(
                code=item["code"],
                name=item["name"],
                severity=Severity(item["severity"]),
                message=item["message"],
                file=root / item["file"],
                span=Span(*item["span"]) if item["span"] else None,
                fix_hint=item["fix_hint"],
                matter=item["matter"],
                fix=fix_from_cache(item.get("fix"), root),
            )
            for item in stored["diagnostics"]
        ]
        return str(stored["matter_id"]), diagnostics
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(key: str, root: Path, matter_id: str, diagnostics: list[Diagnostic]) -> None:
    """Remember a report. Failing to write the cache is never an error."""
    from rubric_tools.internal_codes import RULE_CRASHED  # imported on use: a warm run stores nothing

    if any(d.has(RULE_CRASHED) for d in diagnostics):
        return
    items: list[dict[str, Any]] = []
    for diagnostic in diagnostics:
        try:
            # The folder resolved, not the file: a finding may sit on a symlink (leading out, or a loop).
            relative = (diagnostic.file.parent.resolve() / diagnostic.file.name).relative_to(root.resolve())
            if diagnostic.fix is not None:
                fix_to_cache(diagnostic.fix, root)  # its edits must be re-anchorable too
        except (ValueError, OSError, RuntimeError):
            return  # a finding outside the matter folder cannot be re-anchored
        span = diagnostic.span
        items.append(
            {
                "code": diagnostic.code,
                "name": diagnostic.name,
                "severity": diagnostic.severity.value,
                "message": diagnostic.message,
                "file": relative.as_posix(),
                "span": [span.line, span.column, span.end_line, span.end_column] if span else None,
                "fix_hint": diagnostic.fix_hint,
                "matter": diagnostic.matter,
                "fix": fix_to_cache(diagnostic.fix, root) if diagnostic.fix is not None else None,
            }
        )
    entry = _entry(key)
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        temporary = entry.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"matter_id": matter_id, "diagnostics": items}), encoding="utf-8")
        temporary.replace(entry)
    except OSError:
        return


def _source_files(folder: Path) -> list[tuple[str, int, int]]:
    """(path relative to `folder`, size, mtime) of every .py and .json file below it.

    Every warm `rubric lint` computes this: os.scandir reads each folder once and builds
    no Path objects (pathlib's rglob costs several milliseconds over the package)."""
    found: list[tuple[str, int, int]] = []
    pending = [("", str(folder))]
    while pending:
        prefix, directory = pending.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    pending.append((f"{prefix}{entry.name}/", entry.path))
            elif entry.name.endswith((".py", ".json")) and entry.is_file():
                stat = entry.stat()
                found.append((prefix + entry.name, stat.st_size, stat.st_mtime_ns))
    return found
