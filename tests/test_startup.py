"""Start-up stays cheap: a command imports only what it runs. Checked by which modules a
fresh interpreter has loaded, never by timing (`benchmarks/startup.py` measures time).

`rubric --help` and a warm `rubric lint` (every matter restored from the result cache)
may load no third-party package beyond what `import typer` loads itself, and only the
modules of this package listed below: a new import on these paths fails here until it
is made lazy or, if it is really needed, added to the list."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path

import pytest

from rubric_tools.cli.app import COMMAND_MODULES
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.engine import LintReport, MatterReport
from rubric_tools.reporting.lint_common import clean_summary
from tests.conftest import MATTERS_DIR, REPO_ROOT

#: Costly to import and needed only by the work itself (parsing, scoring, typer's adapters).
HEAVY = ("pydantic", "regex", "ruamel.yaml", "rubric_tools.scoring.episode", "rubric_tools.loading.matter")

#: What `rubric --help` may load of this package: the command line (every command module,
#: to list the commands) and what those modules need to declare their parameters.
HELP_MODULES = (
    "rubric_tools",
    "rubric_tools._accelerator",  # installs the compiled scorer's finder (reads nothing until a scoring import)
    "rubric_tools._lazy",
    "rubric_tools._version",
    "rubric_tools.defaults",
    "rubric_tools.diagnostics",
    "rubric_tools.cli",
    "rubric_tools.cli.*",
    "rubric_tools.commands",
    "rubric_tools.commands.common",
    "rubric_tools.reporting",
    "rubric_tools.reporting.formats",
    "rubric_tools.reporting.safe_output",
    "rubric_tools.scoring",
    "rubric_tools.scoring.text",  # safe_output's check for unencodable text (pure, small)
)

#: The command line of the commands registered by `cli.lint_cmd` (lint, explain, rules):
#: `--help`'s modules, with the named command-line modules instead of any.
LINT_COMMAND_LINE_MODULES = (
    *(name for name in HELP_MODULES if name != "rubric_tools.cli.*"),
    "rubric_tools.cli.app",
    "rubric_tools.cli.coercion",
    "rubric_tools.cli.help",
    "rubric_tools.cli.lazy_group",
    "rubric_tools.cli.linear_parser",
    "rubric_tools.cli.lint_cmd",
)

#: What a warm `rubric lint` may load besides: the configuration, the lint engine and
#: its result cache, finding the matters and fingerprinting their files, the summary.
#: Not the rules, the YAML loader, the scorer, rich or any other command's module.
WARM_LINT_MODULES = (
    *LINT_COMMAND_LINE_MODULES,
    "rubric_tools.commands.lint",
    "rubric_tools.commands.lint_fixing",
    "rubric_tools.config",
    "rubric_tools.config.*",
    "rubric_tools.catalogue",  # diagnostic-code declarations: constants
    "rubric_tools.*codes",
    "rubric_tools.lint",
    "rubric_tools.lint.vocabulary",  # what the configuration may name (the configuration rework, issue 8)
    "rubric_tools.regular_files",  # the file-system policy for one file (likewise)
    "rubric_tools.lint.engine",
    "rubric_tools.fixing",  # fixes as data, shared with the audit (issue 21)
    "rubric_tools.fixing.fixes",
    "rubric_tools.lint.registry",
    "rubric_tools.code_registry",  # the registry hands rules registered at run time to the code registry
    "rubric_tools.lint.result_cache",
    "rubric_tools.loading",
    "rubric_tools.loading.files",
    "rubric_tools.loading.layout",  # the matter-folder layout: finding the matters and their witnesses
    "rubric_tools.loading.yaml_cache",
    "rubric_tools.reporting.lint_common",
)

#: What `rubric explain CODE` and `rubric rules` may load besides the command line: the
#: code registry (every code's facts; a rule's docstring is read from the source) and the
#: catalogue's declaration modules (another code's documentation), and their renderers.
#: Not the rules, the lint engine, the loader or the scorer.
EXPLAIN_MODULES = (
    *LINT_COMMAND_LINE_MODULES,
    "rubric_tools.commands.explain",
    "rubric_tools.code_registry",
    "rubric_tools.catalogue",
    "rubric_tools.*codes",
    "rubric_tools.lint",  # the package of a declaration module (`lint.fix_codes`): a lazy __init__
    "rubric_tools.audit",  # the packages of declaration modules (`audit.codes`, …): empty __init__s
    "rubric_tools.coverage",
    "rubric_tools.rescore",
    "rubric_tools.reporting.console",
    "rubric_tools.reporting.explain",
    "rubric_tools.reporting.lint_rules",
)

#: rich lays the page out, its Markdown with markdown-it (and pygments, which rich.syntax imports).
EXPLAIN_THIRD_PARTY = {"rich", "markdown_it", "mdurl", "pygments"}

_PROBE = """
import json, sys
from rubric_tools.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)
"""


def _loaded_after(arguments: list[str], cache_dir: Path) -> tuple[int, list[str]]:
    """Exit code of `rubric ARGUMENTS` in a fresh interpreter, and every module it loaded."""
    environment = {**os.environ, "RUBRIC_CACHE_DIR": str(cache_dir)}
    environment.pop("RUBRIC_NO_CACHE", None)
    completed = subprocess.run(
        [sys.executable, "-c", _PROBE, *arguments],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=environment,
        check=False,
    )
    code, loaded = json.loads(completed.stderr.strip().splitlines()[-1])
    return code, loaded


def _heavy_modules_after(arguments: list[str], cache_dir: Path) -> tuple[int, list[str]]:
    code, loaded = _loaded_after(arguments, cache_dir)
    return code, [name for name in HEAVY if name in loaded]


def _third_party(modules: list[str]) -> set[str]:
    tops = {name.split(".")[0] for name in modules}
    return {top for top in tops if top not in sys.stdlib_module_names and not top.startswith("_")} - {"rubric_tools"}


@cache
def _typer_third_party() -> frozenset[str]:
    """The third-party packages `import typer` loads by itself (click, shellingham, …)."""
    completed = subprocess.run(
        [sys.executable, "-c", "import json, sys, typer; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return frozenset(_third_party(json.loads(completed.stdout)))


@cache
def _interpreter_start_up() -> frozenset[str]:
    """What a bare interpreter has loaded before any of our code runs: `site` and the
    `.pth` files of its site-packages (CI's interpreter has some that import
    importlib.resources), which no command of ours can avoid."""
    completed = subprocess.run(
        [sys.executable, "-c", "import json, sys; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return frozenset(json.loads(completed.stdout))


def _unlisted(modules: list[str], allowed: tuple[str, ...]) -> list[str]:
    ours = [name for name in modules if name == "rubric_tools" or name.startswith("rubric_tools.")]
    return [name for name in ours if not any(fnmatchcase(name, pattern) for pattern in allowed)]


def test_the_package_and_help_import_nothing_heavy(tmp_path: Path) -> None:
    assert _heavy_modules_after(["--help"], tmp_path) == (0, [])
    assert _heavy_modules_after(["replay", "--help"], tmp_path) == (0, [])
    completed = subprocess.run(
        [sys.executable, "-c", f"import sys, rubric_tools; print([m for m in {HEAVY!r} if m in sys.modules])"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert completed.stdout.strip() == "[]"


@pytest.mark.parametrize("arguments", [["--help"], *([name, "--help"] for name in COMMAND_MODULES)])
def test_help_loads_only_typer_and_the_command_line(tmp_path: Path, arguments: list[str]) -> None:
    code, loaded = _loaded_after(arguments, tmp_path)
    assert code == 0
    assert _third_party(loaded) <= _typer_third_party(), "help must not import rich or any other package"
    assert _unlisted(loaded, HELP_MODULES) == []
    if arguments != ["--help"]:  # a command's help imports that command's module only
        command_modules = {name for name in loaded if name.endswith("_cmd")}
        assert command_modules == {COMMAND_MODULES[arguments[0]]}


def test_a_warm_lint_imports_neither_the_loader_nor_the_scorer(tmp_path: Path) -> None:
    matter = str(MATTERS_DIR / "ai_saas_001")
    first_code, first_loaded = _heavy_modules_after(["lint", matter], tmp_path)
    assert "rubric_tools.loading.matter" in first_loaded  # a cold run does the work
    code, loaded = _loaded_after(["lint", matter], tmp_path)
    assert code == first_code
    assert [name for name in HEAVY if name in loaded] == []
    assert _third_party(loaded) <= _typer_third_party(), "a warm lint must not import YAML, rich, regex, …"
    assert _unlisted(loaded, WARM_LINT_MODULES) == []


@pytest.mark.parametrize(("fixed", "baselined"), [(0, 0), (2, 0), (0, 3), (1, 1)])
def test_a_clean_report_is_printed_as_the_rich_renderers_print_it(tmp_path: Path, fixed: int, baselined: int) -> None:
    from rubric_tools.reporting.lint_concise import render_concise
    from rubric_tools.reporting.lint_full import render_full

    for matters in ([], [MatterReport(tmp_path, "a")], [MatterReport(tmp_path, "a"), MatterReport(tmp_path, "b")]):
        report = LintReport(matters=matters, fail_level=Severity.WARNING, fixed=fixed, baselined=baselined)
        assert clean_summary(report) == render_full(report, color=False) == render_concise(report, color=False)


def test_the_tool_fingerprint_covers_every_source_file_and_schema(tmp_path: Path) -> None:
    from rubric_tools.lint import result_cache

    for folder in (result_cache.PACKAGE_ROOT, REPO_ROOT / "schemas"):
        expected = {
            path.relative_to(folder).as_posix()
            for path in folder.rglob("*")
            if path.suffix in (".py", ".json") and path.is_file() and "__pycache__" not in path.parts
        }
        assert {relative for relative, _, _ in result_cache._source_files(folder)} == expected
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "sub" / "a.py").write_text("x = 1\n", encoding="utf-8")
    before = result_cache._source_files(tmp_path / "pkg")
    (tmp_path / "pkg" / "sub" / "a.py").write_text("x = 22\n", encoding="utf-8")
    assert result_cache._source_files(tmp_path / "pkg") != before  # the size moved


def test_a_warm_lint_with_findings_needs_rich_to_show_them_but_no_yaml(tmp_path: Path, conformance: Path) -> None:
    matter = str(conformance / "matters" / "public_merger_target_011")  # one finding, in matter.yaml
    _loaded_after(["lint", matter], tmp_path)
    code, loaded = _loaded_after(["lint", matter], tmp_path)
    assert code == 1
    assert _third_party(loaded) - _typer_third_party() == {"rich"}  # lays out the findings and their snippets
    assert [name for name in HEAVY if name in loaded] == []
    shown = (
        "rubric_tools.reporting.lint_full",
        "rubric_tools.reporting.console",
        "rubric_tools.loading.lines",
        "rubric_tools.scoring.sections",
    )
    assert _unlisted(loaded, (*WARM_LINT_MODULES, *shown)) == []


@pytest.mark.parametrize(
    "query",
    [
        "G001",  # a lint rule, by code
        "invalid-regex",  # … by name
        "l001",  # a loader's rule, declared below lint
        "T101",  # a replay code
        "E001",  # a check code
        "U003",  # an audit code
        "I001",  # the internal-error code
    ],
)
def test_explain_imports_only_what_its_page_needs(tmp_path: Path, query: str) -> None:
    _assert_rule_documentation_only(tmp_path, ["explain", query])


@pytest.mark.parametrize("output_format", ["table", "json"])
def test_the_list_of_rules_imports_no_rule(tmp_path: Path, output_format: str) -> None:
    _assert_rule_documentation_only(tmp_path, ["rules", "--output-format", output_format])


def _assert_rule_documentation_only(tmp_path: Path, arguments: list[str]) -> None:
    code, loaded = _loaded_after(arguments, tmp_path)
    assert code == 0
    assert _third_party(loaded) - _typer_third_party() <= EXPLAIN_THIRD_PARTY
    assert [name for name in HEAVY if name in loaded] == []
    assert _unlisted(loaded, EXPLAIN_MODULES) == []


@pytest.mark.parametrize("output_format", ["json", "jsonl"])
def test_a_json_replay_imports_no_rich(tmp_path: Path, output_format: str) -> None:
    """rich lays out the text formats only; JSON records are built without it."""
    trajectory = MATTERS_DIR / "ai_saas_001" / "trajectories" / "reference.jsonl"
    code, loaded = _loaded_after(["replay", str(trajectory), "--output-format", output_format], tmp_path)
    assert code == 0
    assert "rich" not in _third_party(loaded)
    assert "rubric_tools.reporting.replay" not in loaded  # the text renderers
    # An action is checked by our own table of the schema, read from the package's folder.
    assert "jsonschema" not in _third_party(loaded)
    # asked only for a package not on the file system
    assert "importlib.resources" not in set(loaded) - _interpreter_start_up()


@pytest.mark.parametrize("collecting", [True, False])
def test_importing_the_command_line_leaves_the_collector_as_it_was(collecting: bool) -> None:
    """No collection runs while the command line's modules are imported (they live as long as
    the process); the collector is then as the importer had it."""
    probe = (
        "import gc, rubric_tools\n"
        f"{'' if collecting else 'gc.disable()'}\n"
        "def collections(): return sum(generation['collections'] for generation in gc.get_stats())\n"
        "before = collections()\n"
        "import rubric_tools.cli\n"
        "print(gc.isenabled(), collections() - before)\n"
    )
    completed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    enabled, collections = completed.stdout.split()
    assert enabled == str(collecting)
    # The few that may follow once collection is on again (how many varies with the hash
    # seed's allocations); typer's import alone ran about 20.
    assert int(collections) <= 3
