"""The server's own settings, from the client: `initializationOptions` at start-up, then
the `rubric` section of `workspace/configuration` (pulled at start-up and whenever the
client says it changed).

The project's settings (rule selection, severities, the audit's thresholds, the
baseline) are not here: they are read from `rubric.toml` or `[tool.rubric]` exactly as
the command line reads them. These only say what the editor integration does.

    {"rubric": {
        "audit": {"onSave": true},          # run `rubric audit` on save (its findings stay until the file changes)
        "debounce": 250,                    # milliseconds of quiet typing before a buffer is linted
        "configFile": null,                 # like `--config FILE` (relative to the workspace folder)
        "docs": {"baseUrl": null},          # where codeDescription links point (see below)
        "diagnostics": {"scope": "open"}    # "open": matters with an open file; "workspace": every matter
    }}

`docs.baseUrl`: a rule's `codeDescription` is `<baseUrl>#<the rule's heading anchor in
AUTHORING.md>` (for example `https://github.com/acme/rubric-tools/blob/main/AUTHORING.md`);
unset, it is the AUTHORING.md installed with the tool, as a `file:` URI with a `#L<line>`
fragment that editors open at the rule's heading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

DEFAULT_DEBOUNCE_MS = 250
SCOPES = ("open", "workspace")


@dataclass(frozen=True)
class Settings:
    audit_on_save: bool = True
    debounce_ms: int = DEFAULT_DEBOUNCE_MS
    config_file: str | None = None
    docs_base_url: str | None = None
    scope: str = "open"

    @property
    def debounce(self) -> float:
        return self.debounce_ms / 1000


def _section(options: Any) -> Mapping[str, Any]:
    """The `rubric` section, whether sent nested (`{"rubric": {...}}`) or as the section itself."""
    if not isinstance(options, Mapping):
        return {}
    nested = options.get("rubric")
    if isinstance(nested, Mapping):
        return nested
    settings = options.get("settings")  # the shape ruff's and other servers' clients send
    if isinstance(settings, Mapping):
        return _section(settings)
    return options


def _get(section: Mapping[str, Any], dotted: str) -> Any:
    """`audit.onSave` from `{"audit": {"onSave": ...}}` or from `{"audit.onSave": ...}`."""
    if dotted in section:
        return section[dotted]
    value: Any = section
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def merged(settings: Settings, options: Any) -> Settings:
    """`settings` with every valid value `options` holds; invalid values are ignored."""
    section = _section(options)
    changes: dict[str, Any] = {}
    on_save = _get(section, "audit.onSave")
    if isinstance(on_save, bool):
        changes["audit_on_save"] = on_save
    debounce = _get(section, "debounce")
    if isinstance(debounce, int | float) and not isinstance(debounce, bool) and 0 <= debounce <= 10_000:
        changes["debounce_ms"] = int(debounce)
    config_file = _get(section, "configFile")
    if isinstance(config_file, str) or config_file is None and "configFile" in section:
        changes["config_file"] = config_file or None
    base_url = _get(section, "docs.baseUrl")
    if isinstance(base_url, str) or base_url is None and _get(section, "docs") is not None:
        changes["docs_base_url"] = base_url or None
    scope = _get(section, "diagnostics.scope")
    if scope in SCOPES:
        changes["scope"] = scope
    return replace(settings, **changes)
