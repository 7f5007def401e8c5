"""Structure-aware mutations of matters and trajectories, and one run of the toolkit on them.

Shared by the property-based tests (`tests/test_fuzz.py`, driven by hypothesis) and the
long campaign (`benchmarks/fuzz.py`): both draw a `random.Random`, so a failing case
is reproduced from its seed alone.

A case starts from one of our own matters (`tests/rule_cases/_base`, `matters/*`) and
its trajectories, and changes a few places: a YAML value replaced by a hostile scalar
(non-finite and huge numbers, YAML 1.1 forms, surrogates, rich markup, empty and
enormous strings), a gate regex replaced by a hostile pattern (compile bombs,
catastrophic backtracking, dialect syntax), document lines with odd separators and
headings, trajectory fields of the wrong type, and file-system tricks (a symlink to a
sentinel file outside the matter). `run_case` then loads, lints, replays, and sometimes
solves, attacks and runs the command line, and says what went wrong.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import random
import re
import shutil
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

REPO_ROOT = Path(__file__).resolve().parent.parent
SEED_MATTERS = [REPO_ROOT / "tests" / "rule_cases" / "_base", *sorted((REPO_ROOT / "matters").glob("*/"))]
YAML_FILES = ("matter.yaml", "rubric.yaml", "hidden_facts.yaml", "counterparty.yaml")
#: The files beside a matter's own that `rubric check` and `rubric audit` read, mutated too
#: where the seed has them: a bound of 400 digits in expectations.yaml once crashed `check`.
CHECKED_FILES = ("expectations.yaml", "probes.yaml")


class Raw(str):
    """A YAML fragment written as is (a YAML 1.1 form, a tag, an alias)."""


HOSTILE_SCALARS: list[Any] = [
    math.inf,
    -math.inf,
    math.nan,
    1e308 * 10,
    10**5000,
    -1,
    0,
    2**63,
    1e-320,
    0.1,
    True,
    False,
    None,
    "",
    " ",
    "\ud800",
    "x\udfffy",
    "[/x]",
    "[Customer]",
    "[bold]b[/bold]",
    "\x00",
    "\x07",
    "\u2028",
    "\x85",
    "\f",
    "\r",
    "İİ",
    "ß",
    "e\u0301",
    "§",
    "msa §1",
    "msa §",
    "§§",
    "a" * 5000,
    "x" * 200_000,
    "{e<=2}",
    Raw("yes"),
    Raw("no"),
    Raw("on"),
    Raw("0o17"),
    Raw("010"),
    Raw("1:30"),
    Raw("1e2"),
    Raw("2024-01-01"),
    Raw("!!int June 1"),
    Raw("!custom x"),
    Raw("="),
    Raw("~"),
    Raw(".inf"),
    Raw(".nan"),
    Raw("[" * 60 + "]" * 60),
    Raw("&a [1, *a]"),
    Raw("<<: {a: 1}"),
    Raw("!!binary AAAA"),
    Raw('"\\ud800"'),
    # Standard tags on values their constructors cannot read: PyYAML raises AttributeError,
    # KeyError or IndexError inside `safe_load` (issue 24's internal errors).
    Raw('!!timestamp "not a date"'),
    Raw('!!bool "maybe"'),
    Raw("!!bool ''"),
    Raw("!!float ''"),
    Raw("!!int ''"),
    Raw("!!int 0x"),
    Raw("1" + "0" * 400),
    Raw("-1" + "0" * 400),
    Raw("-.nan"),
]
#: Tag values alone, for the tests that force one into a matter.
TAG_VALUES = [value for value in HOSTILE_SCALARS if isinstance(value, Raw) and value.startswith("!!")]
#: What libyaml takes and the reference's scanner refuses, written after a value on a line.
SCANNER_TAILS = ["\t", " \t", "\t# note", "\ufeff"]
HOSTILE_PATTERNS: list[str] = [
    "(?:a{65535}){65535}",
    "(?:x{1000}|y{1000}){1000}",
    "(a|aa)+$",
    "(?:a?){30}a{30}",
    "(a+)+$",
    "(\\w+\\s?)*unenforceable",
    "(.*,)*x",
    "(?:unenforceable){e<=2}",
    "cap of [[:digit:]]+ months",
    "\\bvoid\\b",
    "\\p{L}",
    "(",
    "[",
    "a{2,1}",
    "(?<=a+)b",
    "",
    "|",
    "(?i)(?s)(?m).",
    "\\",
    "[/x]",
    "(?P<a>x)(?P=a)",
    "(?(1)a|b)",
    "x" * 20_000,
    "\\d{1,3}(?:,\\d{3})*",
    "(?:\\S+\\s*){0,10}ten",
    "(?>a+)+b",
    "a++b",
    "(?u)\\w",
    "(?a:\\w)",
    "[^\\W\\d]+",
    "\\N{BULLET}",
    "\ud800",
    "\\Z",
    "\\B",
]
DOCUMENT_LINES: list[str] = [
    "## ",
    "##  ",
    "## \f",
    "## 9. Term",
    "## 9. Term",
    "\f## 4.2 Heading",
    "line\u2028## 7 Sep",
    "a\x85## 8 Nel",
    "a\r## 5 Cr",
    "### not a heading",
    "## full",
    "## 1",
    "## 1.",
    "## \u00a0x",
    "\ud800",
    "[/x]",
    "x" * 100_000,
]
ODD_VALUES: list[Any] = [
    None,
    True,
    7,
    2024,
    -1,
    1.5,
    math.inf,
    math.nan,
    10**5000,
    "",
    " ",
    "\ud800",
    "[/x]",
    "İİ",
    [],
    {},
    [1, [2]],
    {"a": 1},
    "msa §1",
    "msa",
    "hosting §3.1",
    "hosting",
    "x" * 10_000,
    ["hosting §3.1", 7, None],
]
ACTION_TYPES = [
    "read_document",
    "search_matter",
    "ask_client",
    "escalate",
    "submit_issue",
    "propose_redline",
    "revise_issue",
    "revise_redline",
    "send_markup",
    "accept_counterparty",
    "submit_final",
    "unknown",
    None,
    7,
]
ACTION_FIELDS = [
    "document_id",
    "section",
    "query",
    "question",
    "topic",
    "reason",
    "issue_id",
    "title",
    "severity",
    "citations",
    "analysis",
    "recommendation",
    "quotes",
    "replacement_text",
    "rationale",
    "proposed_text",
    "summary",
]


# ---------------------------------------------------------------- YAML text


def emit(value: Any) -> str:
    """YAML (flow style) for any value, hostile ones included: JSON-quoted strings carry
    `\\ud800` as an escape; `.inf`/`.nan` and huge integers are written as YAML reads them."""
    if isinstance(value, Raw):
        return str(value)
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return str(value) if value.bit_length() < 14_000 else "9" * 5000
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{emit(k)}: {emit(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(emit(v) for v in value) + "]"
    return json.dumps(str(value))


def _load(path: Path) -> Any:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of every node of a YAML tree."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _nodes(item, (*path, index))
    return found


def _set(tree: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = tree
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return tree


def _gate_paths(tree: Any) -> list[tuple[Any, ...]]:
    return [p for p in _nodes(tree) if any(isinstance(k, str) and k.endswith("critical_failure_patterns") for k in p)]


def mutate_yaml(rng: random.Random, name: str, tree: Any, scalars: list[Any] | None = None) -> Any:
    """One structural change to a YAML file's data; `scalars` forces the pool of values put in."""
    paths = _nodes(tree)
    choice = rng.random()
    gates = _gate_paths(tree) if name == "rubric.yaml" else []
    if scalars is not None:
        return _set(tree, rng.choice(paths), rng.choice(scalars))
    if gates and choice < 0.3:
        path = rng.choice(gates)
        pattern = rng.choice(HOSTILE_PATTERNS)
        if rng.random() < 0.3:
            pattern = {
                "pattern": pattern,
                rng.choice(["require_context", "exclude_context"]): rng.choice(HOSTILE_PATTERNS),
                "negation_guard": rng.choice([True, False, Raw("yes")]),
            }
        return _set(tree, path, pattern)
    path = rng.choice(paths)
    if choice < 0.75 or not path:
        return _set(tree, path, rng.choice(HOSTILE_SCALARS))
    parent_path, key = path[:-1], path[-1]
    parent = tree
    for step in parent_path:
        parent = parent[step]
    if isinstance(parent, dict) and choice < 0.85:
        del parent[key]
    elif isinstance(parent, list) and choice < 0.95:
        parent.append(copy.deepcopy(parent[key]) if rng.random() < 0.5 else parent[key])
    else:
        _set(tree, path, [rng.choice(HOSTILE_SCALARS) for _ in range(rng.randint(0, 3))])
    return tree


# ---------------------------------------------------------------- cases


@dataclass
class Case:
    """One input. `kind` says what is mutated: a whole matter (written to disk, loaded,
    linted, replayed...), only a trajectory (replayed on a seed matter loaded once), or
    only gate regexes (analysed by the lint helpers and run by the scorer on texts)."""

    kind: str = "matter"  # matter | trajectory | gate
    seed: Path = SEED_MATTERS[0]
    files: dict[str, str] = field(default_factory=dict)  # relative path -> text
    symlinks: dict[str, str] = field(default_factory=dict)  # relative path -> "SENTINEL" or a path
    trajectory: list[str] = field(default_factory=list)  # JSONL lines
    patterns: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    operations: tuple[str, ...] = ("lint", "replay")
    cli: list[str] = field(default_factory=list)  # the command line run when "cli" is an operation


def _trajectory_lines(rng: random.Random, seed: Path) -> list[str]:
    files = sorted(seed.glob("trajectories/*.jsonl")) + sorted(seed.glob("**/*.jsonl"))
    if files and rng.random() < 0.8:
        lines = [line for line in rng.choice(files).read_text(encoding="utf-8").splitlines() if line.strip()]
    else:
        lines = [json.dumps({"type": "read_document", "document_id": "hosting"})]
    actions = [json.loads(line) for line in lines]
    for _ in range(rng.randint(0, 4)):
        roll = rng.random()
        if roll < 0.4 and actions:
            action = rng.choice(actions)
            action[rng.choice(ACTION_FIELDS)] = rng.choice(ODD_VALUES)
        elif roll < 0.7:
            action = {"type": rng.choice(ACTION_TYPES)}
            for name in rng.sample(ACTION_FIELDS, rng.randint(0, 6)):
                action[name] = rng.choice(ODD_VALUES)
            actions.insert(rng.randint(0, len(actions)), action)
        elif roll < 0.8:
            actions = actions[: rng.randint(0, len(actions))]
        else:
            actions = actions + actions[: rng.randint(0, 3)]
    out = [json.dumps(a, default=str, allow_nan=True) if not _huge(a) else _huge_line() for a in actions]
    if rng.random() < 0.1:
        out.insert(rng.randint(0, len(out)), rng.choice(["{", "[1]", '"x"', _huge_line(), "[" * 5000, "null"]))
    return out


def _huge(action: Any) -> bool:
    return any(isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 14_000 for v in action.values())


def _huge_line() -> str:
    return '{"type": "read_document", "document_id": ' + "9" * 5000 + "}"


_REGEX_TOKENS = [
    "a",
    "aa",
    "(",
    ")",
    "(?:",
    "|",
    "*",
    "+",
    "?",
    "{2}",
    "{0,30}",
    "{e<=1}",
    "[[:digit:]]",
    "\\b",
    "\\w",
    "\\s",
    ".",
    "$",
    "^",
    "[^.]",
    "\\d",
    "x",
    "(?=",
    "(?<=a)",
    "(?>",
    "++",
    "\\",
    "[",
    "]",
]
_GATE_TEXTS = [
    "",
    "a" * 40 + "!",
    "aa" * 25 + "b",
    "the cap is void\u0301 here",
    "it is not\u0301 unlimited",
    "cap of 12 months",
    "unenforcable",
    "x" * 5000,
    "\ud800",
    "[/x] no. not! never?",
]


def make_gate_case(rng: random.Random) -> Case:
    patterns = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:
            patterns.append(rng.choice(HOSTILE_PATTERNS))
        else:
            patterns.append("".join(rng.choice(_REGEX_TOKENS) for _ in range(rng.randint(1, 12))))
    texts = [json.loads(f'"{t}"') for t in rng.sample(_GATE_TEXTS, 3)]
    return Case(kind="gate", patterns=patterns, texts=texts, operations=("gate",))


_KIND_ROLLS = {"gate": 0.0, "search": 0.35, "trajectory": 0.5, "matter": 0.9}


def make_case(
    rng: random.Random,
    fs_tricks: bool = True,
    kind: str | None = None,
    heavy: bool = True,
    scalars: list[Any] | None = None,
) -> Case:
    """A mutated input: a whole matter with a trajectory (a fifth of them), a trajectory
    alone (two fifths), gate regexes alone (a third) or a structured gate whose search
    cost is measured (one in fifteen); `kind` forces one of them, `scalars` the values a
    matter's mutations put in (`TAG_VALUES`). `heavy=False` leaves out the 20,000
    duplicate headings (seconds per input until issue 15a makes D006 linear)."""
    seed = SEED_MATTERS[0] if rng.random() < 0.7 else rng.choice(SEED_MATTERS)
    roll = rng.random()
    if kind is not None:
        roll = _KIND_ROLLS[kind]
    if roll < 0.33:
        return make_gate_case(rng)
    if roll < 0.4:
        return make_search_case(rng)
    if roll < 0.8:
        extra = ("solve",) if rng.random() < 0.05 else ()
        return Case(
            kind="trajectory", seed=seed, trajectory=_trajectory_lines(rng, seed), operations=("replay", *extra)
        )
    case = Case(seed=seed)
    data = {name: _load(seed / name) for name in (*YAML_FILES, *CHECKED_FILES) if (seed / name).is_file()}
    mutated: set[str] = set()
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(list(data))
        data[name] = mutate_yaml(rng, name, data[name], scalars)
        mutated.add(name)
    for name, tree in data.items():
        case.files[name] = emit(tree) + "\n"
    if rng.random() < 0.15:
        # A file kept in block style, with what libyaml takes and the reference refuses
        # after one of its values (`  - id: q_deadline<TAB>`).
        name = rng.choice(list(data))
        case.files[name] = scanner_tail(rng, (seed / name).read_text(encoding="utf-8"))
    for document in sorted(seed.glob("documents/*.md")):
        lines = document.read_text(encoding="utf-8").split("\n")
        if rng.random() < 0.4:
            for _ in range(rng.randint(1, 4)):
                lines.insert(rng.randint(0, len(lines)), rng.choice(DOCUMENT_LINES))
        if rng.random() < 0.002 and heavy:
            lines += ["## 1 Same"] * 20_000  # many duplicate headings (D006, issue 15a: quadratic)
        case.files[f"documents/{document.name}"] = "\n".join(lines)
    if fs_tricks and rng.random() < 0.1:
        target = rng.choice([f"documents/{d.name}" for d in seed.glob("documents/*.md")] + list(YAML_FILES[1:]))
        case.symlinks[target] = "SENTINEL"
        case.files.pop(target, None)
    case.trajectory = _trajectory_lines(rng, seed)
    extra = [op for op, p in (("solve", 0.15), ("attack", 0.1), ("cli", 0.1)) if rng.random() < p]
    case.cli = rng.choice(_CLI_COMMANDS)
    if mutated & set(CHECKED_FILES):
        # Only `rubric check` and `rubric audit` read them: one of those runs.
        case.cli = rng.choice([command for command in _CLI_COMMANDS if command[0] in ("check", "audit")])
        extra = [*(op for op in extra if op != "cli"), "cli"]
    case.operations = ("lint", "replay", *extra)
    return case


def scanner_tail(rng: random.Random, text: str) -> str:
    """`text` with a tab (or a byte-order mark) after the value of one of its lines."""
    lines = text.split("\n")
    valued = [i for i, line in enumerate(lines) if ": " in line and not line.lstrip().startswith("#")]
    if valued:
        index = rng.choice(valued)
        lines[index] += rng.choice(SCANNER_TAILS)
    return "\n".join(lines)


#: Patterns that match ordinary prose densely or cheaply, for the search-cost class.
SEARCH_PATTERNS = [
    "\\S",
    "\\w",
    "\\w+",
    "[a-z]",
    ".",
    "\\s",
    "a",
    "e",
    "the",
    "to",
    "\\d",
    "[^.]",
    "(?:\\w+\\s+){1,3}",
    "\\bservice\\b",
    "credit",
    "\\bthe\\b[^.]{0,40}",
    "(?i)availab\\w*",
    ".*x",
    "[^.]*credit",
]
#: Context regexes run once per match, over the match's sentence.
SEARCH_CONTEXTS = [
    "(?x) v o i d",
    "\\bvoid\\b",
    "zebra",
    "\\b(?:gives?|provide[sd]?)\\s+(?:\\w+\\s+){0,3}notice\\b",
    "\\b(?:no|not|never)\\b[^.]*without inquiry",
    "[^.]*zebra",
    "(?:\\w+\\s*){0,10}zebra",
]


def make_search_case(rng: random.Random) -> Case:
    """The base matter with one structured gate whose search is timed on a long text:
    lint must refuse it, or it must run within the budget (`run_case`)."""
    seed = SEED_MATTERS[0]
    pool = SEARCH_PATTERNS if rng.random() < 0.7 else HOSTILE_PATTERNS + SEARCH_PATTERNS
    gate: dict[str, Any] = {"pattern": rng.choice(pool)}
    for key in rng.sample(["require_context", "exclude_context", "negation_guard"], rng.randint(1, 3)):
        gate[key] = True if key == "negation_guard" else rng.choice(SEARCH_CONTEXTS)
    case = Case(kind="matter", seed=seed, operations=("lint", "search"))
    for name in YAML_FILES:
        if (seed / name).is_file():
            case.files[name] = (seed / name).read_text(encoding="utf-8")
    gate_line = '      - "uptime commitments are unenforceable"\n'
    case.files["rubric.yaml"] = case.files["rubric.yaml"].replace(gate_line, f"      - {emit(gate)}\n")
    for document in sorted(seed.glob("documents/*.md")):
        case.files[f"documents/{document.name}"] = document.read_text(encoding="utf-8")
    case.patterns = [str(v) for k, v in gate.items() if k != "negation_guard"]
    return case


def long_sentence(root: Path, length: int) -> str:
    """`length` characters of the matter's documents as one normalized sentence (no full
    stop): the text the search-cost estimate assumes."""
    from rubric_tools.gate_analysis.search_cost import NEUTRAL_PROSE
    from rubric_tools.scoring.text import normalize

    prose = " ".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(root.glob("documents/*.md")))
    one = re.sub(r"[.?!](?=\s|$)", ",", normalize(f"{prose} {NEUTRAL_PROSE}"))
    return ((one + " ") * (length // (len(one) + 1) + 1))[:length]


def write_case(case: Case, root: Path, sentinel: Path) -> Path:
    """Write the matter into `root` (emptied first); return the trajectory's path.
    A trajectory-only or gate case writes only its trajectory."""
    trajectory = root.parent / f"{root.name}.jsonl"
    if case.kind != "matter":
        trajectory.write_text("\n".join(case.trajectory) + "\n", encoding="utf-8", errors="surrogatepass")
        return trajectory
    if root.exists():
        shutil.rmtree(root)
    (root / "documents").mkdir(parents=True)
    for relative, text in case.files.items():
        (root / relative).write_text(text, encoding="utf-8", errors="surrogatepass")
    for relative, target in case.symlinks.items():
        os.symlink(sentinel if target == "SENTINEL" else target, root / relative)
    trajectory.write_text("\n".join(case.trajectory) + "\n", encoding="utf-8", errors="surrogatepass")
    return trajectory


# ---------------------------------------------------------------- running


class OutsideReads:
    """An audit hook that records every attempt to open a sentinel file. Audit hooks
    cannot be removed, so one is installed per process and armed per case."""

    _installed: OutsideReads | None = None

    def __init__(self) -> None:
        self.sentinels: set[str] = set()
        self.opened: list[str] = []

    @classmethod
    def install(cls) -> OutsideReads:
        if cls._installed is None:
            cls._installed = cls()
            sys.addaudithook(cls._installed._hook)
        return cls._installed

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        if event == "open" and self.sentinels and args and isinstance(args[0], str | bytes | os.PathLike):
            try:
                opened = os.path.realpath(os.fsdecode(args[0]))
            except (TypeError, ValueError):
                return
            if opened in self.sentinels:
                self.opened.append(opened)


@dataclass
class Outcome:
    findings: list[tuple[str, str]] = field(default_factory=list)  # (class, signature)


def signature(exc: BaseException) -> str:
    """Exception type and where it was raised, to group findings."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = next((f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames) if "rubric_tools" in f.filename), "?")
    return f"{type(exc).__name__} at {where}: {str(exc)[:120]}"


_SEED_SOURCES: dict[Path, Any] = {}


def run_case(case: Case, root: Path, trajectory: Path, reads: OutsideReads) -> Outcome:
    """Run one case; collect what went wrong."""
    if case.kind == "gate":
        return _run_gate_case(case)
    if case.kind == "trajectory":
        from rubric_tools.loading.matter import load_matter_source

        if case.seed not in _SEED_SOURCES:
            _SEED_SOURCES[case.seed] = load_matter_source(case.seed)
        return _run_matter_case(case, case.seed, trajectory, reads, _SEED_SOURCES[case.seed])
    return _run_matter_case(case, root, trajectory, reads, None)


def _run_gate_case(case: Case) -> Outcome:
    from rubric_tools.gate_analysis.regex_problem import regex_problem
    from rubric_tools.gate_analysis.regex_risk import backtracking_risk
    from rubric_tools.gate_analysis.regex_shape import unnormalized_requirement
    from rubric_tools.lint.rules.regex_limits import dialect_difference
    from rubric_tools.scoring.gates import Gate, run_gates

    outcome = Outcome()
    try:
        gates = []
        for index, pattern in enumerate(case.patterns):
            regex_problem(pattern)
            backtracking_risk(pattern)
            unnormalized_requirement(pattern)
            dialect_difference(pattern)
            other = case.patterns[(index + 1) % len(case.patterns)]
            gates.append(Gate(pattern, negation_guard=index % 2 == 1, require_context=other if index == 2 else None))
        for text in case.texts:
            run_gates(tuple(gates), text, timeout=0.2)
    except Exception as exc:  # noqa: BLE001  every escaping exception is a finding
        outcome.findings.append(("traceback", f"gate: {signature(exc)}"))
    return outcome


def _run_matter_case(case: Case, root: Path, trajectory: Path, reads: OutsideReads, loaded: Any) -> Outcome:
    """Load, lint, replay (and maybe solve, attack, run the CLI); collect what went wrong."""
    operations = case.operations
    from rubric_tools.config.lint import LintSection
    from rubric_tools.lint.engine import lint_source
    from rubric_tools.loading.matter import load_matter_source
    from rubric_tools.loading.trajectory import load_trajectory
    from rubric_tools.scoring import replay

    outcome = Outcome()
    steps: list[tuple[str, Callable[[], Any]]] = []
    state: dict[str, Any] = {}

    def load() -> None:
        state["source"] = loaded if loaded is not None else load_matter_source(root)

    def lint() -> None:
        report = lint_source(state["source"], LintSection())
        state["report"] = report
        for diagnostic in report.diagnostics:
            if diagnostic.code.startswith("I"):
                outcome.findings.append(("internal-error", diagnostic.message[:160]))
        if case.kind == "matter" and loaded is None:
            outcome.findings += _unloadable_but_clean(root, report)

    def play() -> None:
        loaded = load_trajectory(trajectory)
        replay(state["source"].matter, loaded.actions)

    steps = [("load", load)] + [(name, step) for name, step in (("lint", lint), ("replay", play)) if name in operations]
    if "solve" in operations:
        steps.append(("solve", lambda: _solve(state["source"])))
    if "attack" in operations:
        steps.append(("attack", lambda: _attack(state["source"])))
    if "cli" in operations:
        steps.append(("cli", lambda: _cli(case.cli, root, trajectory, outcome)))
    if "search" in operations:
        steps.append(("search", lambda: _search(case, root, state, outcome)))
    for name, step in steps:
        try:
            step()
        except MemoryError:
            outcome.findings.append(("memory", f"MemoryError in {name}"))
            break
        except Exception as exc:  # noqa: BLE001  every escaping exception is a finding
            outcome.findings.append(("traceback", f"{name}: {signature(exc)}"))
            if name == "load":
                break
    if reads.opened:
        outcome.findings.append(("outside-read", "opened the sentinel file behind a symlink"))
    return outcome


#: The reference's loader: PyYAML's pure-Python `safe_load`.
_LOAD_CODES = ("L0", "Y005")


def _unloadable_but_clean(root: Path, report: Any) -> list[tuple[str, str]]:
    """A YAML file the reference's `yaml.safe_load` refuses must carry a load error
    (L001-L010, Y005) in the lint report: otherwise lint passed what the reference
    cannot load."""
    import yaml

    from rubric_tools.diagnostics import Severity

    found = []
    reported = {
        d.file.name for d in report.diagnostics if d.severity is Severity.ERROR and d.code.startswith(_LOAD_CODES)
    }
    for name in YAML_FILES:
        path = root / name
        if name in reported or path.is_symlink() or not path.is_file():
            continue  # lint refuses it already (or it is no file of the matter)
        try:
            yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)  # noqa: S506  pure safe_load
            continue
        except Exception as exc:  # noqa: BLE001  whatever safe_load raises, the reference cannot load it
            refusal = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:100]
        found.append(("unloadable-lint-clean", f"{name}: safe_load raises {refusal}"))
    return found


#: The errors that refuse a gate for what running it costs or cannot do: invalid (G003),
#: catastrophic backtracking (G012), compile cost (G016), search cost (G017), or a file
#: that does not load (L001, Y005).
_COST_CODES = frozenset({"G003", "G012", "G016", "G017", "L001", "Y005"})
#: CPU seconds a lint-clean structured gate may take on `SEARCH_TEXT_LENGTH` characters.
SEARCH_BUDGET = 5.0
SEARCH_TEXT_LENGTH = 30_000


def _search(case: Case, root: Path, state: dict[str, Any], outcome: Outcome) -> None:
    """A structured gate lint lets through runs within the budget on a long sentence."""
    import time

    from rubric_tools.diagnostics import Severity
    from rubric_tools.scoring.gates import GateRunner

    # Lint-clean as far as running it goes: other errors (G010: it fires on the right
    # answer) make a bad rubric, not one the reference cannot run.
    refused = [d for d in state["report"].diagnostics if d.severity is Severity.ERROR and d.code in _COST_CODES]
    if refused:
        return
    gates = tuple(g.gate for g in state["source"].model.gates() if g.gate is not None and g.gate.is_structured)
    text = long_sentence(root, SEARCH_TEXT_LENGTH)
    started = time.process_time()
    check = GateRunner(gates).run(text, SEARCH_BUDGET)
    spent = time.process_time() - started
    if spent > SEARCH_BUDGET or check.timed_out:
        shown = " / ".join(case.patterns)[:100]
        outcome.findings.append(("search-cost", f"lint-clean gate took {spent:.1f} s CPU: {shown}"))


def _solve(source: Any) -> None:
    from rubric_tools.prove.solver import solve

    solve(source.matter)


def _attack(source: Any) -> None:
    from rubric_tools.config.attack import AttackSection
    from rubric_tools.prove.attacks import attack_matter

    attack_matter(source, AttackSection())


_CLI_COMMANDS = [
    ["lint", "{root}", "--output-format", "full"],
    ["lint", "{root}", "--output-format", "json"],
    ["lint", "{root}", "--output-format", "sarif"],
    ["lint", "{root}", "--output-format", "github"],
    ["replay", "{trajectory}", "--matter", "{root}"],
    ["replay", "{trajectory}", "--matter", "{root}", "--format", "json"],
    ["max-score", "{root}"],
    ["solve", "{root}", "--format", "json"],
    ["check", "{root}", "--output-format", "junit"],
    ["check", "{root}", "--output-format", "json"],
    ["audit", "{root}", "--output-format", "json"],
]


def _cli(command: list[str], root: Path, trajectory: Path, outcome: Outcome) -> None:
    from rubric_tools.cli import main

    argv = [a.format(root=root, trajectory=trajectory) for a in command]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    text = out.getvalue() + err.getvalue()
    if code not in (0, 1, 2):
        outcome.findings.append(("exit-code", f"{argv[0]} exited {code}"))
    if "Traceback" in text or "I001" in text:
        outcome.findings.append(("internal-error", f"{argv[0]}: {text.strip().splitlines()[-1][:160]}"))
    if argv[-1] in ("json", "sarif") and code != 2:
        try:
            json.loads(out.getvalue(), parse_constant=_reject_constant)
        except ValueError as exc:
            outcome.findings.append(("bad-output", f"{' '.join(argv[:1] + argv[2:])}: {exc}"[:160]))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"JSON output contains {name}")
