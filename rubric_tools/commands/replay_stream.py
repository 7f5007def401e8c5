"""Replay one trajectory into encoded output: the unit of work of a streaming `rubric replay`.

A worker (this process, or one of a pool) loads each matter once, replays a trajectory and
returns strings only: the stdout text of the chosen format, the stderr text, the JSON of
its diagnostics and trace. Nothing of the replay outlives the call, so memory stays flat
in the number of trajectories, and a pool sends back bytes rather than pickled objects.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from rubric_tools.codes import GATE_TIMEOUT
from rubric_tools.commands.common import internal_error_report
from rubric_tools.commands.replay_inputs import InputError
from rubric_tools.diagnostics import Severity
from rubric_tools.replaying import MatterCache, TrajectoryReplay, replay_file
from rubric_tools.reporting import replay_json
from rubric_tools.reporting.safe_output import clean_text, json_safe
from rubric_tools.scoring.json_values import json_default, json_default_or_repr

if TYPE_CHECKING:  # rich, and the text renderers, are imported for the text formats only
    from rich.console import Console

#: Nested JSON elements of the streamed `--format json` document sit at this depth.
ELEMENT_INDENT = "    "


@dataclass(frozen=True)
class StreamSettings:
    """What a worker needs to encode a trajectory (picklable)."""

    output_format: str  # "text", "concise", "json" or "jsonl"
    matter_root: Path | None
    gate_timeout: float
    trace: bool = False
    color_system: str | None = None  # rich's colour system of the real stdout; None: plain
    width: int = 80
    debug: bool = False  # --debug: an internal error carries its traceback (a pool worker has no option set)


class Encoded(NamedTuple):
    """One input's contribution to every output stream, already encoded."""

    output: str = ""
    errors: str = ""
    diagnostics: tuple[str, ...] = ()  # each a JSON element for the `diagnostics` array
    trace: str = ""  # a JSON element for the trace's `replays` array; "" when not replayed
    usage_error: str = ""
    input_error: bool = False
    gate_timeout: bool = False


def element_json(value: Any, *, text_keys: bool = False, **options: Any) -> str:
    """`value` encoded exactly as `json.dumps(document, indent=2)` prints an array element."""
    text = safe_json(value, text_keys=text_keys, indent=2, **options)
    return text.replace("\n", "\n" + ELEMENT_INDENT)


def safe_json(value: Any, *, text_keys: bool = False, **options: Any) -> str:
    """`json.dumps(json_safe(value))`: no NaN/Infinity (null instead), no lone surrogate.

    `text_keys`: the caller knows every mapping in `value` has text keys only (a record the
    scorer built). Then it is encoded as it is, which is what json_safe's copy would encode
    (it changes only non-text keys, non-finite floats and surrogates), and the rare surrogate
    (U+FFFD, one for one) or non-finite float (ValueError: the copy after all) is handled after.
    """
    # No circular check: these values are trees the scorer and the readers built (shared
    # events are not cycles), and the check cost a fifth of the encoding.
    if text_keys:
        try:
            return clean_text(json.dumps(value, ensure_ascii=False, allow_nan=False, check_circular=False, **options))
        except ValueError:
            pass
    return json.dumps(json_safe(value), ensure_ascii=False, allow_nan=False, check_circular=False, **options)


def _text_keys_only(item: TrajectoryReplay) -> bool:
    """Whether the replay records of `item` hold text keys only: the scorer builds them with
    text keys; only an action's `type` is the agent's value, and may be a mapping."""
    if item.replay is None:
        return True
    kinds = {type(record.type) for record in item.replay.steps}  # text, nearly always
    return not any(issubclass(kind, dict | list) for kind in kinds)


def _console(settings: StreamSettings, buffer: io.StringIO) -> Console:
    from rich.console import Console

    colour = settings.color_system is not None
    return Console(
        file=buffer,
        width=settings.width,
        force_terminal=colour,
        no_color=not colour,
        color_system=settings.color_system if colour else None,  # type: ignore[arg-type]
        highlight=False,
        markup=False,  # replays quote the agent's text: never read as markup
    )


def _text(settings: StreamSettings, item: TrajectoryReplay) -> tuple[str, str]:
    from rubric_tools.reporting import replay as render

    output, errors = io.StringIO(), io.StringIO()
    if settings.output_format == "concise":
        _console(settings, output).print(render.concise_line(item), soft_wrap=True)  # one line, never wrapped
    else:
        render.render_item(_console(settings, output), item)
    render.render_diagnostics(_console(settings, errors), item)
    return output.getvalue(), errors.getvalue()


def encode_item(settings: StreamSettings, cache: MatterCache, entry: Path | InputError) -> Encoded:
    """Replay one trajectory file and encode what every stream gets from it."""
    if isinstance(entry, InputError):
        return Encoded(usage_error=entry.message)
    try:
        return _encode(settings, cache, entry)
    except Exception as exc:  # a bug on one trajectory must not stop the others
        line, trace = internal_error_report(exc, f"replaying {entry}", debug=settings.debug)
        return Encoded(errors=trace, usage_error=line)


def _encode(settings: StreamSettings, cache: MatterCache, entry: Path) -> Encoded:
    # The JSON formats carry no hints: the closest passage of an unverified quote is not worked out.
    hints = settings.output_format not in ("json", "jsonl")
    item = replay_file(entry, settings.matter_root, cache, settings.gate_timeout, quote_hints=hints)
    input_error = any(d.severity is Severity.ERROR and not d.has(GATE_TIMEOUT) for d in item.diagnostics)
    gate_timeout = any(d.has(GATE_TIMEOUT) for d in item.diagnostics)
    trace = ""
    if settings.trace:
        entry_json = replay_json.trace_entry(item)
        trace = element_json(entry_json, default=json_default_or_repr) if entry_json is not None else ""
    output, errors = "", ""
    diagnostics: tuple[str, ...] = ()
    if settings.output_format == "jsonl":
        record = replay_json.jsonl_record(item)
        output = safe_json(record, text_keys=_text_keys_only(item), default=json_default) + "\n"
    elif settings.output_format == "json":
        replay_entry = replay_json.replay_json(item)
        text_keys = _text_keys_only(item)
        output = (
            element_json(replay_entry, text_keys=text_keys, default=json_default) if replay_entry is not None else ""
        )
        diagnostics = tuple(element_json(replay_json.diagnostic_json(d), text_keys=True) for d in item.diagnostics)
    else:
        output, errors = _text(settings, item)
    return Encoded(output, errors, diagnostics, trace, "", input_error, gate_timeout)


# ----------------------------------------------------------------- pool workers

_worker_settings: StreamSettings | None = None
_worker_cache: MatterCache | None = None


def init_worker(settings: StreamSettings) -> None:
    """Pool initializer: each worker process keeps its own matter cache for the run."""
    global _worker_settings, _worker_cache
    _worker_settings, _worker_cache = settings, MatterCache()


def encode_in_worker(entry: Path | InputError) -> Encoded:
    assert _worker_settings is not None and _worker_cache is not None, "init_worker was not called"
    return encode_item(_worker_settings, _worker_cache, entry)
