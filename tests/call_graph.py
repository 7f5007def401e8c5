"""A static call graph of `rubric_tools`, and the walk that follows the data from one entry.

Issue 21 measured the house by walking the calls from `rubric check`'s per-matter entry
(`checking.runner.check_matter`) and counting where the walk goes: how many functions it
stops at, in how many files, how often it enters each package, how often it crosses
between `audit` and `lint`, and how often it has to climb back up the layers
(`tests/test_architecture.py`) to go on. `benchmarks/call_walk.py` prints these figures for
any checkout; `tests/test_call_walk.py` holds the shape they must keep.

The graph is read from the source with `ast`, never by importing it. A function calls
what its body names and the name resolves to: through the module's imports (lazy ones
inside functions included, and the `_LAZY_NAMES` tables of the lazy packages), its own
top-level definitions, `module.function`, `Class.method`, and methods and properties of
values whose class is known from an annotation (`source: MatterSource`, a dataclass
field, `self.x = x` in `__init__`), a constructor call or a function's return annotation.
A function passed as a value (`pool.map(check_matter, ...)`) counts as called, and so does
every function a module-level table names (a dict, list, tuple or set) when a function
reads the table. Constructing a class runs its own `__init__`/`__post_init__` (a plain
dataclass runs none of our code). Method calls on values of unknown type are not
followed, with one exception: `rule.check(...)` in lint runs every `@rule` function.

The walk is depth-first, each function visited once, where the walk first reaches it. The
figures count the package of each stop from a floor up: the whole house (the scoring core
and above, leaving out diagnostics, configuration and the code declarations, leaves every
package looks things up in), or the stages only (`prove` and above: what runs a stage of
`rubric check`, above the model and the analyses the stages share). A climb is a step of
the walk to a package in a higher layer than the stop before: the walk has to come back up
to go on. A conservative, repeatable picture, not a profile.
"""

from __future__ import annotations

import ast
import importlib.util
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "rubric_tools"
#: Where the walk starts: `rubric check`'s work on one matter.
CHECK_ENTRY = "rubric_tools.checking.runner:check_matter"
#: A module-level value of these kinds may be a dispatch table (functions it names run when read).
_TABLES = (ast.Dict, ast.List, ast.Tuple, ast.Set, ast.DictComp)
#: The floors the figures are counted from: the whole house (the scoring core and above;
#: below it are look-ups every package makes), and the stages (the packages that run a
#: stage of `rubric check` or an analysis of its own, above the model and the analyses
#: they share).
WHOLE_HOUSE = "scoring"
STAGES = "prove"


@dataclass
class _Module:
    name: str
    tree: ast.Module
    #: name -> "module" or "module:attr", from the module's top-level imports.
    imports: dict[str, str] = field(default_factory=dict)
    #: top-level functions and classes: name -> node.
    definitions: dict[str, ast.AST] = field(default_factory=dict)
    #: top-level tables (dicts, lists, tuples, sets): name -> value expression.
    tables: dict[str, ast.expr] = field(default_factory=dict)


def _module_name(root: Path, path: Path) -> str:
    relative = path.relative_to(root.parent).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(parts)


def _import_bindings(node: ast.Import | ast.ImportFrom, package: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                yield alias.asname, alias.name
            else:
                yield alias.name.split(".")[0], alias.name.split(".")[0]
        return
    base = node.module or ""
    if node.level:
        parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
        base = f"{parent}.{base}" if base else parent
    for alias in node.names:
        yield alias.asname or alias.name, f"{base}:{alias.name}"


def _is_function(node: ast.AST | None) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)


class CallGraph:
    """Every function and class of the package under `root`, and what each one calls."""

    def __init__(self, root: Path) -> None:
        self.modules: dict[str, _Module] = {}
        for path in sorted(root.rglob("*.py")):
            name = _module_name(root, path)
            module = _Module(name, ast.parse(path.read_text(encoding="utf-8")))
            package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
            for node in module.tree.body:
                if isinstance(node, ast.Import | ast.ImportFrom):
                    module.imports.update(_import_bindings(node, package))
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    module.definitions[node.name] = node
                elif isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, _TABLES):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        if isinstance(target, ast.Name):
                            module.tables[target.id] = node.value
                elif isinstance(node, ast.If):  # `if TYPE_CHECKING:` imports name types for annotations
                    for child in node.body:
                        if isinstance(child, ast.Import | ast.ImportFrom):
                            for bound, target in _import_bindings(child, package):
                                module.imports.setdefault(bound, target)
            lazy = module.tables.get("_LAZY_NAMES")
            if isinstance(lazy, ast.Dict):
                for key, value in zip(lazy.keys, lazy.values, strict=True):
                    if isinstance(key, ast.Constant) and isinstance(value, ast.Constant):
                        module.imports[str(key.value)] = f"{value.value}:{key.value}"
            self.modules[name] = module
        self._callees: dict[str, list[str]] = {}
        self._rules: list[str] | None = None

    # ------------------------------------------------------------ names
    def _resolve(self, target: str, depth: int = 0) -> str | None:
        """`module:name` (or a module) to the function, class, table or module it finally is."""
        if depth > 10:
            return None
        if ":" not in target:
            return target if target in self.modules else None
        module_name, name = target.split(":", 1)
        if f"{module_name}.{name}" in self.modules:
            return f"{module_name}.{name}"
        module = self.modules.get(module_name)
        if module is None:
            return None
        if name in module.definitions or name in module.tables:
            return f"{module_name}:{name}"
        if name in module.imports:
            return self._resolve(module.imports[name], depth + 1)
        return None

    def _bound(self, module: _Module, scope: dict[str, str], name: str) -> str | None:
        if name in scope:
            return self._resolve(scope[name])
        if name in module.definitions or name in module.tables:
            return f"{module.name}:{name}"
        if name in module.imports:
            return self._resolve(module.imports[name])
        return None

    def _definition(self, target: str) -> ast.AST | None:
        module_name, name = target.split(":", 1)
        module = self.modules[module_name]
        if "." in name:
            owner = self._definition(f"{module_name}:{name.split('.', 1)[0]}")
            method = name.split(".", 1)[1]
            if isinstance(owner, ast.ClassDef):
                return next((n for n in owner.body if _is_function(n) and n.name == method), None)  # type: ignore[attr-defined]
            return None
        return module.definitions.get(name) or module.tables.get(name)

    def _is_class(self, target: str | None) -> bool:
        return target is not None and ":" in target and isinstance(self._definition(target), ast.ClassDef)

    # ------------------------------------------------------------ types
    def _class_of(self, module: _Module, scope: dict[str, str], annotation: ast.expr | None) -> str | None:
        """The package class an annotation names (`X`, `X | None`, `"X"`), else None."""
        if annotation is None:
            return None
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:
                annotation = ast.parse(annotation.value, mode="eval").body
            except SyntaxError:
                return None
        if isinstance(annotation, ast.BinOp):
            return self._class_of(module, scope, annotation.left) or self._class_of(module, scope, annotation.right)
        target: str | None = None
        if isinstance(annotation, ast.Name):
            target = self._bound(module, scope, annotation.id)
        elif isinstance(annotation, ast.Attribute) and isinstance(annotation.value, ast.Name):
            base = self._bound(module, scope, annotation.value.id)
            target = self._resolve(f"{base}:{annotation.attr}") if base and ":" not in base else None
        return target if self._is_class(target) else None

    def _member(self, class_target: str, attr: str, depth: int = 0) -> str | None:
        """`Class.attr` when the class (or a base in the package) defines a method or property `attr`."""
        node = self._definition(class_target)
        if not isinstance(node, ast.ClassDef) or depth > 5:
            return None
        if any(_is_function(item) and item.name == attr for item in node.body):  # type: ignore[attr-defined]
            return f"{class_target}.{attr}"
        module = self.modules[class_target.split(":", 1)[0]]
        for base in node.bases:
            base_class = self._class_of(module, {}, base)
            found = self._member(base_class, attr, depth + 1) if base_class else None
            if found:
                return found
        return None

    def _attribute_class(self, class_target: str, attr: str) -> str | None:
        """The class of `instance.attr`: a field annotation, `self.attr = param` in __init__,
        or a property's return annotation."""
        node = self._definition(class_target)
        if not isinstance(node, ast.ClassDef):
            return None
        module = self.modules[class_target.split(":", 1)[0]]
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.target.id == attr:
                return self._class_of(module, {}, item.annotation)
            if _is_function(item) and item.name == attr:  # type: ignore[attr-defined]
                return self._class_of(module, {}, item.returns)  # type: ignore[attr-defined]
            if _is_function(item) and item.name == "__init__":  # type: ignore[attr-defined]
                parameters = {a.arg: a.annotation for a in item.args.args}  # type: ignore[attr-defined]
                for statement in ast.walk(item):
                    if (
                        isinstance(statement, ast.Assign)
                        and any(
                            isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name)
                            for t in statement.targets
                        )
                        and isinstance(statement.value, ast.Name)
                        and statement.value.id in parameters
                    ):
                        return self._class_of(module, {}, parameters[statement.value.id])
        return None

    def _type_of(self, module: _Module, scope: dict[str, str], types: dict[str, str], expr: ast.expr) -> str | None:
        if isinstance(expr, ast.Name):
            return types.get(expr.id)
        if isinstance(expr, ast.Attribute):
            owner = self._type_of(module, scope, types, expr.value)
            return self._attribute_class(owner, expr.attr) if owner else None
        if isinstance(expr, ast.Call):
            called = self._callable(module, scope, types, expr.func)
            if called is None:
                return None
            if self._is_class(called):
                return called
            node = self._definition(called)
            if _is_function(node):
                owner_module = self.modules[called.split(":", 1)[0]]
                return self._class_of(owner_module, {}, node.returns)  # type: ignore[union-attr]
        return None

    def _callable(self, module: _Module, scope: dict[str, str], types: dict[str, str], expr: ast.expr) -> str | None:
        """What a name or an attribute chain resolves to: a function, method, class, table or module."""
        if isinstance(expr, ast.Name):
            if expr.id in types:
                return None  # a variable holding an instance
            return self._bound(module, scope, expr.id)
        if isinstance(expr, ast.Attribute):
            instance = self._type_of(module, scope, types, expr.value)
            if instance is not None:
                return self._member(instance, expr.attr)
            base = self._callable(module, scope, types, expr.value)
            if base is None:
                return None
            if ":" not in base:  # a module
                return self._resolve(f"{base}:{expr.attr}")
            return self._member(base, expr.attr) if self._is_class(base) else None
        return None

    # ------------------------------------------------------------ calls
    def _rule_functions(self) -> list[str]:
        if self._rules is None:
            self._rules = sorted(
                f"{module.name}:{name}"
                for module in self.modules.values()
                for name, node in module.definitions.items()
                if _is_function(node)
                and any(
                    isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "rule"
                    for d in node.decorator_list  # type: ignore[attr-defined]
                )
            )
        return self._rules

    def callees(self, stop: str) -> list[str]:
        """What `stop` (a `module:function`, `module:Class.method` or `module:TABLE`) calls,
        in source order, each once."""
        if stop in self._callees:
            return self._callees[stop]
        self._callees[stop] = []  # a recursive table or class refers back to itself
        module_name, name = stop.split(":", 1)
        module = self.modules[module_name]
        node = self._definition(stop)
        found: dict[str, None] = {}
        if isinstance(node, ast.ClassDef):  # constructing a class runs its __init__/__post_init__
            for method in ("__init__", "__post_init__"):
                member = self._member(stop, method)
                if member:
                    found[member] = None
        elif node is not None:
            owner = f"{module_name}:{name.split('.', 1)[0]}" if "." in name else None
            scope: dict[str, str] = {}
            for child in ast.walk(node):  # lazy imports inside the function bind in its scope
                if isinstance(child, ast.Import | ast.ImportFrom):
                    scope.update(_import_bindings(child, module_name.rsplit(".", 1)[0]))
            types: dict[str, str] = {}
            if _is_function(node):
                for argument in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:  # type: ignore[union-attr]
                    if argument.arg in ("self", "cls") and owner is not None:
                        types[argument.arg] = owner
                    else:
                        typed = self._class_of(module, scope, argument.annotation)
                        if typed:
                            types[argument.arg] = typed
            for target in self._references(node, module, scope, types):
                if target != stop:
                    found[target] = None
        self._callees[stop] = list(found)
        return self._callees[stop]

    def _references(
        self, node: ast.AST, module: _Module, scope: dict[str, str], types: dict[str, str]
    ) -> Iterator[str]:
        body = node.body if _is_function(node) else [node]  # type: ignore[attr-defined]
        stack: list[ast.AST] = list(reversed(body))
        while stack:  # depth-first in source order
            current = stack.pop()
            if (
                isinstance(current, ast.Assign)
                and len(current.targets) == 1
                and isinstance(current.targets[0], ast.Name)
            ):
                typed = self._type_of(module, scope, types, current.value)
                if typed:
                    types[current.targets[0].id] = typed
            target: str | None = None
            if isinstance(current, ast.Name | ast.Attribute) and isinstance(current.ctx, ast.Load):
                target = self._callable(module, scope, types, current)
                if (
                    target is None
                    and isinstance(current, ast.Attribute)
                    and current.attr == "check"
                    and module.name.startswith(f"{PACKAGE}.lint")
                ):
                    yield from self._rule_functions()  # `rule.check(ctx)`: every registered rule
            if target is not None and ":" in target:
                if self._is_class(target):
                    yield from self.callees(target)  # its own __init__ (named only: no code runs, harmless)
                elif target.split(":", 1)[1] not in self.modules[target.split(":", 1)[0]].tables:
                    yield target
                elif self.callees(target):  # a table of functions
                    yield target
            if current is not node and isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue  # a nested definition runs when it is called, which the walk sees
            children = list(ast.iter_child_nodes(current))
            if isinstance(current, ast.AnnAssign):
                children = [child for child in children if child is not current.annotation]
            if isinstance(current, ast.Attribute):
                children = []  # the chain was resolved as a whole
            stack.extend(reversed(children))


def _package(stop: str) -> str:
    module = stop.split(":", 1)[0]
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


@dataclass(frozen=True)
class Walk:
    """The stops of a depth-first walk, in order, the layer of each package, and the calls
    the walk followed. The figures are counted from a floor package's layer up."""

    stops: tuple[str, ...]
    layers: dict[str, int]
    #: (caller, callee) of every call the walk followed into a new function.
    edges: tuple[tuple[str, str], ...]

    @property
    def packages(self) -> tuple[str, ...]:
        return tuple(_package(stop) for stop in self.stops)

    def counted(self, floor: str = WHOLE_HOUSE) -> tuple[str, ...]:
        """The stops in the layers from `floor`'s up."""
        return tuple(stop for stop in self.stops if self.layers[_package(stop)] >= self.layers[floor])

    def transitions(self, floor: str = WHOLE_HOUSE) -> Iterator[tuple[str, str]]:
        """(package left, package entered) each time the walk's counted stops change package."""
        packages = [_package(stop) for stop in self.counted(floor)]
        for before, after in zip(packages, packages[1:], strict=False):
            if before != after:
                yield before, after

    def entries(self, floor: str = WHOLE_HOUSE) -> Counter[str]:
        return Counter(after for _, after in self.transitions(floor))

    def climbs(self, floor: str = WHOLE_HOUSE) -> int:
        """How often the walk's next stop is in a higher layer than the one before."""
        return sum(1 for before, after in self.transitions(floor) if self.layers[after] > self.layers[before])

    def crossings(self, first: str, second: str, floor: str = WHOLE_HOUSE) -> int:
        return sum(1 for pair in self.transitions(floor) if set(pair) == {first, second})

    def callers_into(self, package: str) -> list[tuple[str, str]]:
        """(caller, callee) of each call the walk followed into `package` from outside it."""
        return [(a, b) for a, b in self.edges if _package(b) == package and _package(a) != package]

    def figures(self, floor: str = WHOLE_HOUSE) -> dict[str, object]:
        counted = self.counted(floor)
        return {
            "stops": len(counted),
            "files": len({stop.split(":", 1)[0] for stop in counted}),
            "climbs": self.climbs(floor),
            "audit-lint crossings": self.crossings("audit", "lint", floor),
            "entries": dict(sorted(self.entries(floor).items())),
        }


def layer_order(repo: Path) -> dict[str, int]:
    """The layer of each package, from the checkout's own `tests/test_architecture.py`."""
    spec = importlib.util.spec_from_file_location("_architecture_of_checkout", repo / "tests" / "test_architecture.py")
    assert spec is not None and spec.loader is not None
    architecture = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(architecture)
    return {package: index for index, layer in enumerate(architecture.LAYERS) for package in layer}


def walk(repo: Path, entry: str = CHECK_ENTRY) -> Walk:
    """Walk the calls from `entry` in the checkout at `repo`."""
    graph = CallGraph(repo / PACKAGE)
    stops: list[str] = []
    edges: list[tuple[str, str]] = []
    visited: set[str] = set()
    stack: list[tuple[str | None, str]] = [(None, entry)]
    while stack:  # preorder depth-first: a function is visited where the walk first reaches it
        caller, stop = stack.pop()
        if stop in visited:
            continue
        visited.add(stop)
        stops.append(stop)
        if caller is not None:
            edges.append((caller, stop))
        stack.extend((stop, callee) for callee in reversed(graph.callees(stop)) if callee not in visited)
    return Walk(tuple(stops), layer_order(repo), tuple(edges))
