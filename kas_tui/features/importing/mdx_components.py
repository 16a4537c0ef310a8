"""Markdown files an MDX page shows as components, expanded as its site renders them.

A Docusaurus, Astro Starlight or Mintlify page imports another Markdown file by name
(``import Beta from '/snippets/beta.mdx'``, ``import Warning from
'./_warning.md'``) and shows it where its tag stands (``<Beta />``, ``<Warning
product="x" />``): the reader sees the file's text there, the source holds a tag. Left
as it was, the page lost that text (the import line is code and goes; the tag stays
alone). Here a tag alone on its line, outside fenced code, is replaced by the file's
body: its frontmatter and module lines dropped, its own components expanded (up to
``max_depth``, never in a loop), its relative links rewritten to lead to the same files
from the page, its lines taking the tag's indentation. Props are not applied: a
``{props.name}`` in the file stays as written.

Where the file is: a path starting ``./`` or ``../`` from the page; ``/x`` from the
site's root, which is the page's folder or one above it (Mintlify's ``/snippets/``),
so each is tried, deepest first; ``@site/x`` (Docusaurus) likewise; an alias the
site's ``tsconfig.json`` declares (``@fragments/cta.mdx``) where it points. A tag whose file
is not in the source stays, with a problem naming the page's line. Named imports
(``import { Tabs } from ...``) and imports of code are components of the site's theme:
not files of the source, and no text here.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from kas_tui.features.importing.include_syntax import frontmatter_end
from kas_tui.features.importing.includes import IncludeProblem, rebase_links
from kas_tui.features.importing.js_literals import blank_js, js_string
from kas_tui.features.importing.toc_formats import load_lined
from kas_tui.text.mdx import without_module_code
from kas_tui.text.prose import fenced_lines

Read = Callable[[str], "str | None"]
#: A default import of a Markdown file: ``import Beta from '/snippets/beta.mdx';``.
_IMPORT = re.compile(
    r"""^import[ \t]+(?P<name>[A-Za-z_$][\w$]*)[ \t]+from[ \t]+['"]"""
    r"""(?P<path>[^'"\n]+\.(?:mdx|md|markdown))['"][ \t]*;?[ \t]*$""",
    re.M,
)
#: A component's tag alone on its line: ``<Beta />``, ``  <Warning product="x"/>``.
_TAG = re.compile(r"^(?P<indent>[ \t]*)<(?P<name>[A-Za-z_$][\w$]*)(?:\s[^<>]*?)?\s*/>[ \t]*$")


@dataclass
class Shown:
    text: str
    included: list[str] = field(default_factory=list)  # files shown, each once
    problems: list[IncludeProblem] = field(default_factory=list)


def component_imports(text: str) -> dict[str, str]:
    """The Markdown files ``text`` (an MDX page's source) imports by name, as written."""
    if "import" not in text:
        return {}
    found: dict[str, str] = {}
    for code, line in fenced_lines(text):  # an import shown in a code example imports nothing
        match = None if code or not line.startswith("import") else _IMPORT.match(line.rstrip())
        if match:  # a JavaScript string: "./\_steps.md" is "./_steps.md" (react-native-website)
            found[match.group("name")] = js_string(match.group("path").strip())
    return found


def path_aliases(
    files: Iterable[str], read: Read, *, site: str | None = None
) -> dict[str, list[str]]:
    """The import aliases a site's ``tsconfig.json`` (or ``jsconfig.json``) declares in
    ``compilerOptions.paths``, each target read from its ``baseUrl``: Tauri's
    ``@fragments/*`` is ``src/content/docs/_fragments/*``. Configs two folders deep at
    most (a site kept in ``website/``), never a package's in ``node_modules``. With
    ``site`` (the site's folder), only the configs at it or above it: a product app's
    beside the docs (``app/tsconfig.json``) declares that app's aliases."""
    aliases: dict[str, list[str]] = {}
    for rel in sorted(files, key=lambda f: (f.count("/"), f)):
        name = posixpath.basename(rel).lower()
        if name not in ("tsconfig.json", "jsconfig.json") or rel.count("/") > 2:
            continue
        folder = posixpath.dirname(rel)
        if "node_modules" in rel.split("/") or (
            site is not None and not _at_or_above(folder, site)
        ):
            continue
        data, _error = load_lined(blank_js(read(rel) or ""))
        options = data.get("compilerOptions") if isinstance(data, dict) else None
        paths = options.get("paths") if isinstance(options, dict) else None
        if not isinstance(paths, dict):
            continue
        base = posixpath.join(folder, str(options.get("baseUrl") or "."))
        for pattern, targets in paths.items():
            for target in targets if isinstance(targets, list) else []:
                if isinstance(target, str):
                    joined = posixpath.normpath(posixpath.join(base, target))
                    if not joined.startswith(".."):
                        aliases.setdefault(str(pattern), []).append(joined)
    return aliases


def alias_folders(aliases: dict[str, list[str]], site: str) -> tuple[str, ...]:
    """The folders a site's aliases point into (``src/assets/`` of ``@assets/*``),
    none holding the site itself (``@/*``, the whole app, says nothing of its images)."""
    found = []
    for targets in aliases.values():
        for target in targets:
            folder = posixpath.dirname(target) if target.endswith("/*") else ""
            if folder and folder != "." and not _at_or_above(folder, site):
                found.append(folder + "/")
    return tuple(dict.fromkeys(found))


def _at_or_above(folder: str, inner: str) -> bool:
    """Whether ``folder`` is ``inner`` or a folder around it ("" is around all)."""
    return not folder or folder == "." or inner == folder or inner.startswith(folder + "/")


def import_candidates(
    page: str, written: str, aliases: dict[str, list[str]] | None = None
) -> list[str]:
    """Where the file ``written`` in ``page``'s import may be, most likely first
    (``aliases``: the site's, :func:`path_aliases`)."""
    if written.startswith(("./", "../")):
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(page), written))
        return [] if joined.startswith("..") else [joined]
    if not written.startswith(("/", "@site/")):  # an alias, else a package's
        found = []
        for pattern, targets in (aliases or {}).items():
            if pattern.endswith("*") and written.startswith(pattern[:-1]):
                rest = written[len(pattern) - 1 :]
                found += [t.replace("*", rest, 1) for t in targets if t.endswith("*")]
            elif written == pattern:
                found += targets
        return [f for f in found if not f.startswith("..")]
    rest = written.removeprefix("@site").lstrip("/")
    if not rest or rest.startswith(".."):
        return []
    folders = []
    folder = posixpath.dirname(page)
    while True:
        folders.append(folder)
        if not folder:
            break
        folder = posixpath.dirname(folder)
    return [posixpath.normpath(posixpath.join(f, rest)) for f in folders]


def expand_components(
    text: str,
    page: str,
    source: str,
    read: Read,
    *,
    aliases: dict[str, list[str]] | None = None,
    max_depth: int = 5,
) -> Shown:
    """``text`` (the page ``page`` as converted; ``source`` its text as written, whose
    imports name the files) with each Markdown component's tag replaced by the file."""
    shown = Shown(text)
    imports = component_imports(source)
    if imports:
        shown.text = _Components(read, shown, aliases or {}, max_depth).expand(
            text, imports, (page,), None
        )
    return shown


@dataclass
class _Components:
    read: Read
    shown: Shown
    aliases: dict[str, list[str]]
    max_depth: int

    def expand(
        self, text: str, imports: dict[str, str], chain: tuple[str, ...], at: int | None
    ) -> str:
        """``text`` of ``chain[-1]`` with its tags replaced; ``at``: the line in the page
        of the outermost tag (for a file a page shows), else ``None``."""
        out: list[str] = []
        for number, (code, ended) in enumerate(fenced_lines(text), start=1):
            line = ended.rstrip("\n")
            tag = None if code else _TAG.match(line)
            written = imports.get(tag.group("name")) if tag else None
            body = None
            if tag is not None and written is not None:
                where = at if at is not None else number
                body = self.body(written, tag.group("name"), chain, where)
            if tag is None or body is None:
                out.append(ended)
                continue
            indent = tag.group("indent")
            shown = [indent + x if x.strip() else "" for x in body.strip("\n").split("\n")]
            out.append("\n".join(shown) + ended[len(line) :])
        return "".join(out)

    def body(self, written: str, name: str, chain: tuple[str, ...], where: int) -> str | None:
        """The text the tag of ``name`` stands for, or ``None`` (with a problem)."""
        page = chain[-1]
        candidates = import_candidates(page, written, self.aliases)
        found = next((c for c in candidates if self.read(c) is not None), None)
        inner = f" (in {page})" if len(chain) > 1 else ""
        if found is None:
            looked = ", ".join(candidates) or "nowhere inside the source"
            self.problem(
                where,
                written,
                f"<{name} /> shows {written}, which is not in the source (looked for "
                f"{looked}){inner}: the tag was left as it was; build from the folder "
                "holding that file, or add it",
            )
            return None
        if found in chain or len(chain) > self.max_depth:
            why = "leads back to a file showing it" if found in chain else "nests too deep"
            self.problem(
                where,
                written,
                f"<{name} /> shows {found}, which {why} ({' -> '.join((*chain, found))})"
                f"{inner}: the tag was left as it was",
            )
            return None
        if found not in self.shown.included:
            self.shown.included.append(found)
        raw = (self.read(found) or "").lstrip("\ufeff").replace("\r\n", "\n")
        body = without_module_code(raw[frontmatter_end(raw) :])
        body = self.expand(body, component_imports(raw), (*chain, found), where)
        return rebase_links(body, found, page)

    def problem(self, line: int, target: str, message: str) -> None:
        self.shown.problems.append(IncludeProblem(line, target, message))
