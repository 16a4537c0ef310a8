"""A site's JavaScript and TypeScript modules read as text, never run: a value followed
from where a config names it (``sidebar: sidebarEn``) through the ``const`` that holds
it, the ``import`` or ``require`` that brings it from another file of the site
(``import { sidebarEn } from './configs/index.js'``, ``.js`` written for ``.ts``, a
folder's ``index``), that file's ``export const``, ``export { a as b }``, ``export *
from`` re-exports, ``module.exports`` and a JSON file's data, to the literal that gives
it. A module outside the source or a package's is not followed; a value code makes (a
call, a spread, a variable no file declares) is said, with its file and line.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from kas_tui.features.importing.js_literals import (
    blank_js,
    js_option,
    js_string,
    literal_data,
    literal_end,
    spread_name,
)
from kas_tui.features.importing.toc_formats import load_lined

Read = Callable[[str], "str | None"]

#: How many imports and re-exports a value is followed through.
_MOST_HOPS = 6
#: A call whose first argument is a literal: ``defaultTheme({``, ``sidebar([``.
CALL_OF_LITERAL = re.compile(r"[A-Za-z_$][\w$.]*\s*(?:<[^<>()]*>)?\s*\(\s*(?=[\[{])")
_REQUIRE = re.compile(r"""require\s*\(\s*(['"])([^'"]+)\1\s*\)""")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_IMPORT = re.compile(
    r"""\bimport\s+(?:type\s+)?(?:([A-Za-z_$][\w$]*)\s*,?\s*)?(?:\{([^{}]*)\})?"""
    r"""\s*from\s*(['"])([^'"]+)\3"""
)
_REQUIRED = re.compile(
    r"""\b(?:const|let|var)\s+(?:([A-Za-z_$][\w$]*)|\{([^{}]*)\})\s*=\s*"""
    r"""require\s*\(\s*(['"])([^'"]+)\3\s*\)"""
)
_EXPORT_LIST = re.compile(r"""\bexport\s*\{([^{}]*)\}\s*(?:from\s*(['"])([^'"]+)\2)?""")
_EXPORT_ALL = re.compile(r"""\bexport\s*\*\s*from\s*(['"])([^'"]+)\1""")
#: What may follow a value that is a name alone (``sidebar: sidebarEn,``).
_ALONE = re.compile(r"[ \t]*(?:[,;})\]\n]|as\b|$)")
_WORDS = {"true": True, "false": False, "null": None, "undefined": None}
_MODULE_EXTS = (".ts", ".js", ".mts", ".mjs", ".cts", ".cjs", ".json")


@dataclass
class JsValue:
    """A value of the site's code: its data (``None`` when code makes it), where it is
    written, why it could not be read, and the spreads inside it (line, name)."""

    data: Any
    file: str
    line: int
    why: str = ""
    spreads: list[tuple[int, str]] = field(default_factory=list)


class JsPlace(NamedTuple):
    """Where a value of the site's code is written: its file, that file's code (comments
    blanked) and the value's offset in it."""

    file: str
    code: str
    at: int


class SiteModules:
    """The site's modules, read as text: values followed through consts, imports,
    re-exports and ``require`` calls, to the literal that gives them."""

    def __init__(self, read: Read, path: str, code: str) -> None:
        self.read = read
        self.codes: dict[str, str | None] = {path: code}
        self.read_files: set[str] = set()

    def value(self, file: str, code: str, at: int) -> JsValue:
        """The value written at ``at`` of ``file`` (whose code is ``code``), wherever it
        leads: its data, or why it cannot be read."""
        found = self.place(file, code, at, 0)
        if isinstance(found, JsValue):
            return found
        file, code, at = found
        line = code.count("\n", 0, at) + 1
        if code[at : at + 1] in ("[", "{"):
            data, spreads = literal_data(code, at, lambda lit: load_lined(lit)[0])
            where = [(code.count("\n", 0, s) + 1, spread_name(code, s)) for s in spreads]
            return JsValue(data, file, line, "" if data is not None else _code_in(code, at), where)
        quoted = re.match(r"""(['"])((?:\\.|(?!\1).)*)\1""", code[at:])
        return JsValue(js_string(quoted.group(2)) if quoted else None, file, line)

    def place(self, file: str, code: str, at: int, hops: int) -> JsPlace | JsValue:
        """Where the literal (object, array, string) the value at ``at`` is comes from;
        a :class:`JsValue` saying why when it is none (``false``: no value)."""
        line = code.count("\n", 0, at) + 1
        if hops > _MOST_HOPS:
            return JsValue(None, file, line, "named through too many consts and imports")
        if code[at : at + 1] in ("[", "{", "'", '"'):
            return JsPlace(file, code, at)
        required = _REQUIRE.match(code, at)
        if required is not None:
            return self.exported(file, required.group(2), "default", line, hops + 1)
        call = CALL_OF_LITERAL.match(code, at)
        if call is not None:  # a helper's call of a literal: defineSidebarConfig({...})
            return JsPlace(file, code, call.end())
        name = _NAME.match(code, at)
        if name is None or not _ALONE.match(code, name.end()):
            return JsValue(None, file, line, "built by code")
        if name.group() in _WORDS:  # sidebar: false
            return JsValue(_WORDS[name.group()], file, line)
        return self.named(file, code, name.group(), line, hops)

    def named(self, file: str, code: str, name: str, line: int, hops: int) -> JsPlace | JsValue:
        """Where the value ``name`` has in ``file`` is: a ``const`` of it, or an import."""
        declared = re.search(rf"\b(?:const|let|var)\s+{re.escape(name)}\s*(?::[^=]*)?=\s*", code)
        if declared is not None:
            return self.place(file, code, declared.end(), hops + 1)
        imported = _imports(code).get(name)
        if imported is None:
            return JsValue(None, file, line, f"{name}, which the file neither declares nor imports")
        exported, source = imported
        return self.exported(file, source, exported, line, hops + 1)

    def exported(
        self, file: str, source: str, name: str, line: int, hops: int
    ) -> JsPlace | JsValue:
        """Where the value the module ``source`` (imported by ``file``) exports as
        ``name`` is."""
        module = self.module(file, source)
        if module is None:
            return JsValue(None, file, line, f"imported from {source}, no file of the source")
        found = self._export(module, name, hops)
        return found or JsValue(
            None, file, line, f"imported from {source}, which exports no {name}"
        )

    def _export(self, module: str, name: str, hops: int) -> JsPlace | JsValue | None:
        """What ``module`` exports as ``name`` (``default``: its ``export default``,
        ``module.exports``, a JSON file's data), through its re-exports; ``None`` when
        it exports none."""
        code = self.codes[module] or ""
        if hops > _MOST_HOPS:
            return JsValue(None, module, 1, "exported through too many files")
        if name == "default":
            if module.endswith(".json"):
                data = re.search(r"[\[{]", code)
                return JsPlace(module, code, data.start()) if data else None
            at = re.search(r"\bexport\s+default\s+|\bmodule\.exports\s*=\s*", code)
            return self.place(module, code, at.end(), hops) if at is not None else None
        own = re.search(
            rf"\bexport\s+(?:const|let|var)\s+{re.escape(name)}\s*(?::[^=]*)?=\s*"
            rf"|\b(?:module\.)?exports\.{re.escape(name)}\s*=\s*",
            code,
        )
        if own is not None:
            return self.place(module, code, own.end(), hops)
        for listed in _EXPORT_LIST.finditer(code):  # export { a, b as c } (from './x')
            line = code.count("\n", 0, listed.start()) + 1
            for local, outer in _names(listed.group(1)).items():
                if outer == name and listed.group(3):
                    return self.exported(module, listed.group(3), local, line, hops + 1)
                if outer == name:
                    return self.named(module, code, local, line, hops)
        for every in _EXPORT_ALL.finditer(code):  # export * from './sidebar/index.js'
            inner = self.module(module, every.group(2))
            found = self._export(inner, name, hops + 1) if inner is not None else None
            if found is not None:
                return found
        exports = re.search(r"\bmodule\.exports\s*=\s*\{", code)
        if exports is not None:  # module.exports = { sidebar: [...] }
            at = js_option(blank_js(code, strings=True), exports.end() - 1, name)
            if at is not None:
                return self.place(module, code, at, hops)
        return None

    def module(self, file: str, source: str) -> str | None:
        """The site's file ``source`` names from ``file`` (a relative path, its extension
        or ``/index`` left out, ``.js`` written for ``.ts``); ``None`` when it is a
        package's or outside the source."""
        if not source.startswith("."):
            return None
        base = posixpath.normpath(posixpath.join(posixpath.dirname(file), source))
        if base == ".." or base.startswith("../"):
            return None
        stem = re.sub(r"\.[mc]?js$", "", base)
        tries = [
            base,
            *(stem + e for e in _MODULE_EXTS),
            *(f"{base}/index{e}" for e in _MODULE_EXTS),
        ]
        for candidate in dict.fromkeys(tries):
            if candidate not in self.codes:
                text = self.read(candidate)
                self.codes[candidate] = blank_js(text) if text is not None else None
            if self.codes[candidate] is not None:
                self.read_files.add(candidate)
                return candidate
        return None


def _code_in(code: str, at: int) -> str:
    """What makes the literal at ``at`` code: the functions it calls, when it calls any
    (``built by code (getGuideSidebar(), ...)``)."""
    end = literal_end(code, at)
    if end is None:
        return "a literal that does not close"
    inside = blank_js(code[at:end], strings=True)
    called = list(dict.fromkeys(re.findall(r"([A-Za-z_$][\w$.]*)\s*\(", inside)))
    if not called:
        return "built by code"
    shown = ", ".join(f"{name}()" for name in called[:3])
    return f"built by code ({shown}{', ...' if len(called) > 3 else ''})"


def _imports(code: str) -> dict[str, tuple[str, str]]:
    """Local name -> (the name its module exports it as, the module) for the imports
    and ``require`` calls of ``code``."""
    found: dict[str, tuple[str, str]] = {}
    for match in _IMPORT.finditer(code):
        if match.group(1):
            found[match.group(1)] = ("default", match.group(4))
        for local, outer in _names(match.group(2) or "").items():
            found[outer] = (local, match.group(4))
    for match in _REQUIRED.finditer(code):
        if match.group(1):
            found[match.group(1)] = ("default", match.group(4))
        for part in (match.group(2) or "").split(","):
            exported, _, local = (p.strip() for p in part.partition(":"))
            if exported:
                found[local or exported] = (exported, match.group(4))
    return found


def _names(listed: str) -> dict[str, str]:
    """``a, b as c, type T`` -> {"a": "a", "b": "c", "T": "T"}: each name as written
    before ``as`` -> after it."""
    out: dict[str, str] = {}
    for part in listed.split(","):
        words = part.replace("type ", " ").split()
        if len(words) == 1:
            out[words[0]] = words[0]
        elif len(words) == 3 and words[1] == "as":
            out[words[0]] = words[2]
    return out
