"""An Antora component as its site reads it (pure: files through ``read``).

A component is ``antora.yml`` (its ``name``, ``title``, ``version``, ``nav`` files and
``asciidoc: attributes:``) beside ``modules/``: each module's ``pages/``, ``partials/``,
``examples/``, ``images/`` and ``attachments/`` (Antora 1's ``assets/images`` too). A
``modules`` folder built alone is a component without its ``antora.yml``: its modules
are the folders holding ``pages/``.

Resource IDs name its files as Antora does: ``[version@][component:][module:][family$]path``
(``xref:install:proc.adoc``, ``include::partial$snip.adoc[]``, ``image::diagram.png[]``);
the module is the referring file's when none is named, ``ROOT`` when a component is
named alone (``docs::index.adoc``); a page's ``./x.adoc`` is beside it. What names
another component or version, or a file the source does not hold, names nothing.
:class:`AntoraSite` answers a page's includes, cross-references and images
(:mod:`.asciidoc`); :class:`LooseSite` those of AsciiDoc pages outside any component,
by paths relative to the page.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from kas_tui.core.fileio import read_regular
from kas_tui.features.importing.asciidoc_source import entry, substitute

Read = Callable[[str], "str | None"]
#: Bytes read of a file a page imported alone includes.
MAX_READ = 50 * 1024 * 1024

FAMILIES = {
    "page": ("pages",),
    "partial": ("partials", "pages/_partials"),
    "example": ("examples", "assets/examples"),
    "image": ("images", "assets/images"),
    "attachment": ("attachments", "assets/attachments"),
}
_ID = re.compile(r"^(?:([^@:$/]+)@)?(?:([^:$/]*):)?(?:([^:$/]*):)?(?:([a-z]+)\$)?(.*)$")
_TITLE = re.compile(r"^=[ \t]+(\S.*?)\s*$")
_BUILTIN = {
    "nbsp": " ",
    "zwsp": "\u200b",
    "wj": "\u2060",
    "sp": " ",
    "empty": "",
    "blank": "",
    "amp": "&",
    "lt": "<",
    "gt": ">",
    "startsb": "[",
    "endsb": "]",
    "vbar": "|",
    "caret": "^",
    "asterisk": "*",
    "tilde": "~",
    "apos": "'",
    "backslash": "\\",
    "backtick": "`",
    "two-colons": "::",
    "two-semicolons": ";;",
    "plus": "+",
    "quot": '"',
    "ldquo": "“",
    "rdquo": "”",
    "lsquo": "‘",
    "rsquo": "’",
    "deg": "°",
    "cpp": "C++",
    "pp": "++",
    "asciidoctor": "",
    "backend-html5": "",
    "basebackend-html": "",
    "embedded": "",
    "idprefix": "_",
    "idseparator": "_",
}


def builtin_attributes() -> dict[str, str]:
    """The attributes every AsciiDoc page starts with (Asciidoctor's own)."""
    return dict(_BUILTIN)


@dataclass
class Component:
    file: str | None  # antora.yml, None for a modules folder built alone
    modules: str  # the folder holding the modules ("" the source's root)
    name: str = ""
    title: str = ""
    version: str = ""
    nav: list[str] = field(default_factory=list)  # source paths of its nav files, in order
    attributes: dict[str, str] = field(default_factory=dict)
    locked: frozenset[str] = frozenset()
    problems: list[str] = field(default_factory=list)

    def module_of(self, rel: str) -> tuple[str, str, str] | None:
        """(module, family folder, path inside it) of a file of the component."""
        inside = rel[len(self.modules) + 1 :] if self.modules else rel
        if self.modules and not rel.startswith(self.modules + "/"):
            return None
        parts = inside.split("/")
        if len(parts) < 3:
            return None
        module, rest = parts[0], parts[1:]
        for folders in FAMILIES.values():
            for folder in folders:
                depth = folder.count("/") + 1
                if "/".join(rest[:depth]) == folder and len(rest) > depth:
                    return module, folder, "/".join(rest[depth:])
        return None

    def module_name(self, rel: str) -> str:
        """The module the file ``rel`` is in (a nav file's too); ``ROOT`` elsewhere."""
        inside = rel[len(self.modules) + 1 :] if self.modules else rel
        if self.modules and not rel.startswith(self.modules + "/"):
            return "ROOT"
        return inside.split("/")[0] if "/" in inside else "ROOT"

    def is_page(self, rel: str) -> bool:
        found = self.module_of(rel)
        return found is not None and found[1] == "pages" and rel.endswith(".adoc")

    def resolve(self, target: str, at: str, family: str, files: Collection[str]) -> str | None:
        """The source file the resource ID ``target`` names from the file ``at``, in
        ``family`` when the ID names none; ``None`` when it names nothing here."""
        match = _ID.match(target.strip())
        if match is None:
            return None
        version, first, second, named_family, path = match.groups()
        if second is not None:
            component, module = first, second or "ROOT"
        else:
            component, module = None, first
        if component and component != self.name:
            return None  # another component: not in this source
        if version and self.version and version not in (self.version, "~", "_"):
            return None
        own = self.module_of(at)
        module = module or self.module_name(at)
        family = named_family or family
        if family not in FAMILIES or not path:
            return None
        relative = path.lstrip("/")  # example$/cp/Api.java: from the family's folder
        if path.startswith("./") and own is not None and not (first or second):
            relative = posixpath.join(posixpath.dirname(own[2]), path)
        relative = posixpath.normpath(relative)
        if relative.startswith("../") or relative == "..":
            return None
        for folder in FAMILIES[family]:
            found = posixpath.join(self.modules, module, folder, relative)
            if found in files:
                return found
        return None


def read_component(path: str, text: str, files: Collection[str]) -> Component | None:
    """The component ``antora.yml`` (at ``path``) describes; ``None`` when it is none."""
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):  # lists hundreds deep
        data = None
    if not isinstance(data, dict):
        return None
    home = posixpath.dirname(path)
    component = Component(path, posixpath.join(home, "modules") if home else "modules")
    component.name = _text(data.get("name"))
    component.title = _text(data.get("title"))
    component.version = _text(data.get("version"))
    for n, nav in enumerate(data.get("nav") or [] if isinstance(data.get("nav"), list) else []):
        rel = posixpath.normpath(posixpath.join(home, str(nav)))
        if rel in files:
            component.nav.append(rel)
        else:
            component.problems.append(
                f"{path}:{_line_of(text, str(nav), n)}: nav lists {nav}, which the source "
                "does not hold; fix the path or add the file"
            )
    asciidoc = data.get("asciidoc")
    given = asciidoc.get("attributes") if isinstance(asciidoc, dict) else None
    attributes, locked = builtin_attributes(), set()
    for key, value in (given or {}).items() if isinstance(given, dict) else ():
        name = str(key).lower()
        soft = isinstance(value, str) and value.endswith("@")
        if value is False or value is None:
            attributes.pop(name, None)
        else:
            shown = "" if value is True else str(value).removesuffix("@")
            attributes[name] = shown
        if not soft and value is not None:
            locked.add(name)
    for _ in range(4):  # values naming others ({kubernetes} in a link's text)
        attributes = {k: substitute(v, attributes) for k, v in attributes.items()}
    attributes.update(_intrinsic(component))
    component.attributes, component.locked = attributes, frozenset(locked)
    return component


def modules_component(files: Collection[str]) -> Component | None:
    """A modules folder built alone (``install/pages/``, ``ROOT/nav.adoc``): its
    modules' nav files, ROOT's first; ``None`` when the source is none."""
    modules = {
        f.split("/", 1)[0] for f in files if f.count("/") >= 2 and f.split("/")[1] == "pages"
    }
    navs = sorted(
        (f"{m}/nav.adoc" for m in modules if f"{m}/nav.adoc" in files),
        key=lambda f: (not f.startswith("ROOT/"), f),
    )
    if not navs:
        return None
    component = Component(None, "", nav=navs)
    component.attributes = {**builtin_attributes(), **_intrinsic(component)}
    return component


def _intrinsic(component: Component) -> dict[str, str]:
    return {
        "page-component-name": component.name,
        "page-component-title": component.title,
        "page-component-version": component.version,
        "page-version": component.version,
        "env": "site",
        "env-site": "",
        "site-gen": "antora",
        "site-gen-antora": "",
        "partialsdir": "partial$",  # Antora 1's, which pages still use
        "examplesdir": "example$",
    }


def antora_about(text: str) -> tuple[str | None, str | None]:
    """(title, None) of a component's ``antora.yml``."""
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):  # lists hundreds deep
        return None, None
    if not isinstance(data, dict):
        return None, None
    return _text(data.get("title")) or _text(data.get("name")) or None, None


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if isinstance(value, (str, int, float)) else ""


def _line_of(text: str, needle: str, n: int) -> int:
    at = text.find(needle)
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


@dataclass
class _Header:
    title: str | None = None
    navtitle: str | None = None
    reftext: str | None = None
    aliases: list[str] = field(default_factory=list)


class AntoraSite:
    """A component's pages, for :func:`.asciidoc.to_markdown`."""

    def __init__(self, component: Component, files: Collection[str], read: Read) -> None:
        self.component = component
        self.files = files
        self._read = read
        self._headers: dict[str, _Header] = {}
        self._aliases: dict[str, str] | None = None

    def read(self, rel: str) -> str | None:
        return self._read(rel)

    def attributes_for(self, rel: str) -> dict[str, str]:
        """The attributes the page ``rel`` starts with: the component's and Antora's."""
        found = dict(self.component.attributes)
        own = self.component.module_of(rel)
        if own is not None:
            stem = posixpath.splitext(posixpath.basename(own[2]))[0]
            found.update({"page-module": own[0], "page-relative-src-path": own[2], "docname": stem})
            # link:{attachmentsdir}/data.txt[]: the module's attachments, from the page
            folder = posixpath.join(self.component.modules, own[0], "attachments")
            found["attachmentsdir"] = posixpath.relpath(folder, posixpath.dirname(rel) or ".")
        return found

    def include(self, target: str, at: str) -> str | None:
        if "$" in target or ":" in target:
            return self.component.resolve(target, at, "page", self.files)
        path = posixpath.normpath(posixpath.join(posixpath.dirname(at), target))
        return path if path in self.files and not path.startswith("../") else None

    def page(self, target: str, at: str) -> str | None:
        found = self.component.resolve(target, at, "page", self.files)
        if found is None:
            found = self._alias(target, at)
        return found

    def image(self, target: str, at: str, page: str) -> str | None:
        return self.component.resolve(target, page, "image", self.files)

    def title(self, rel: str) -> str | None:
        header = self.header(rel)
        return header.reftext or header.title

    def nav_title(self, rel: str) -> str | None:
        header = self.header(rel)
        return header.navtitle or header.title

    def header(self, rel: str) -> _Header:
        """The page's title, navtitle, reftext and aliases, from its header."""
        if rel not in self._headers:
            self._headers[rel] = _read_header(self._read(rel) or "", self.attributes_for(rel))
        return self._headers[rel]

    def _alias(self, target: str, at: str) -> str | None:
        """The page whose ``:page-aliases:`` name ``target`` (a page moved)."""
        if self._aliases is None:
            self._aliases = {}
            for rel in self.files:
                if self.component.is_page(rel):
                    for alias in self.header(rel).aliases:
                        module = self.component.module_name(rel)
                        named = alias if ":" in alias else f"{module}:{alias}"
                        self._aliases.setdefault(named.split("$")[-1], rel)
        key = target if ":" in target else f"{self.component.module_name(at)}:{target}"
        return self._aliases.get(key.split("$")[-1])


def _read_header(text: str, attributes: dict[str, str]) -> _Header:
    """What a page's header says of it (its lines up to the first section)."""
    header = _Header()
    for raw in text.splitlines()[:200]:
        line = raw.rstrip()
        if line.startswith("=="):
            break
        found = entry(line) if line.startswith(":") else None
        if found is not None:
            name, value = found
            if value is not None:
                attributes[name] = substitute(value, attributes)
                if name == "navtitle":
                    header.navtitle = attributes[name] or None
                elif name == "reftext":
                    header.reftext = attributes[name] or None
                elif name == "page-aliases":
                    header.aliases = [a.strip() for a in value.split(",") if a.strip()]
            continue
        title = _TITLE.match(line)
        if title is not None and header.title is None:
            header.title = _plain(substitute(title.group(1), attributes))
    return header


def _plain(text: str) -> str:
    text = re.sub(r"(?<![\w`])`\+?([^`]+?)\+?`(?!\w)", r"\1", text)
    text = re.sub(
        r"(\*\*|__)(.+?)\1|(?<!\w)[*_](\S(?:.*?\S)?)[*_](?!\w)",
        lambda m: m.group(2) or m.group(3),
        text,
    )
    return " ".join(text.replace("&#160;", " ").replace("&nbsp;", " ").split())


class LooseSite:
    """AsciiDoc pages of no Antora component: includes, cross-references and images by
    paths relative to the page (images to its ``imagesdir``), within the source."""

    def __init__(self, files: Collection[str], read: Read) -> None:
        self.files = files
        self._read = read
        self._titles: dict[str, str | None] = {}

    @classmethod
    def beside(cls, folder: Path) -> LooseSite:
        """The files of ``folder`` and below it, read from the disk (a page imported
        alone): nothing above it."""

        def read(rel: str) -> str | None:
            try:
                return read_regular(folder / rel, limit=MAX_READ).decode("utf-8", "replace")
            except OSError:
                return None

        class _Below(set):  # type: ignore[type-arg]
            def __contains__(self, rel: object) -> bool:
                inside = isinstance(rel, str) and not rel.startswith(("../", "/"))
                return inside and (folder / str(rel)).is_file()

        return cls(_Below(), read)

    def read(self, rel: str) -> str | None:
        return self._read(rel)

    def attributes_for(self, rel: str) -> dict[str, str]:
        stem = posixpath.splitext(posixpath.basename(rel))[0]
        return {**builtin_attributes(), "docname": stem}

    def _near(self, target: str, at: str) -> str | None:
        if target.startswith("/") or "://" in target:
            return None
        path = posixpath.normpath(posixpath.join(posixpath.dirname(at), target))
        return path if path in self.files and not path.startswith("../") else None

    def include(self, target: str, at: str) -> str | None:
        return self._near(target, at)

    def page(self, target: str, at: str) -> str | None:
        return self._near(target, at)

    def image(self, target: str, at: str, page: str) -> str | None:
        return self._near(target, page)

    def title(self, rel: str) -> str | None:
        if rel not in self._titles:
            self._titles[rel] = _read_header(self._read(rel) or "", builtin_attributes()).title
        return self._titles[rel]
