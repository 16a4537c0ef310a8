"""Hugo's shortcodes, shown as the site shows them: ``param`` printing a parameter,
``ref`` and ``relref`` making a link's address, paired shortcodes wrapping the page's
own text (Docsy's ``{{% alert %}}``), ``figure`` showing an image.

A Hugo page writes ``{{% param vers.otel %}}`` (or ``{{< param "title" >}}``) where the
site prints a parameter: the page's own (its front matter, and its ``params``), else
one an ancestor section passes down with ``cascade`` (the nearest ``_index.md`` first),
else the site's (``params`` of its config, of ``config/_default/params.*``, the default
language's ``params`` over them). A dotted name reads into nested maps; keys are read
without case, as Hugo lower-cases them. OpenTelemetry's docs print every SDK version so
(``{{% param vers.otel %}}`` in install commands) and every blog post's original address
(``<{{% param canonical_url %}}>``); left raw, the package's pages would show template
calls where the site shows versions, and links to nowhere.

A name nothing defines, or one naming a map or a list, stays as written (the site would
print nothing useful either), and the build counts those in a note. Configs and front
matter are read, never run; an escaped call (``{{</* param x */>}}``) is no call.

``[Go]({{< relref "/docs/languages/go/quickstart" >}})`` is a link to that page (a path
from the content folder, or from the page's own): the call becomes the path, which the
build resolves as any link (grpc.io's 40 quick-start links were no links at all). A
paired shortcode's tags go and its text stays, its ``title`` as the callout's first
words (``{{% alert title="Note" %}}...{{% /alert %}}``); a ``figure`` is its image.
``{{% include "/_common/x.md" %}}`` (hugoDocs' own shortcode, 214 calls in 162 pages;
Kubernetes' ``{{< include "task-tutorial-prereqs.md" >}}``) and Docsy's ``{{< readfile
file="x.md" >}}`` show the named page's text, as those sites' templates do: its body in
place of the call, its own calls shown too (four deep at most); one naming no page stays
and is said. Other shortcodes (a theme's ``{{< youtube >}}``, ``{{< blocks/cover >}}``)
are the site's templates and stay as written.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

from kas_tui.features.importing.front_matter import front_matter
from kas_tui.features.importing.include_syntax import frontmatter_end
from kas_tui.features.importing.toc_hugo import hugo_config

#: ``{{% param name %}}``, ``{{< param "name" >}}``, with Hugo's ``-`` whitespace trims.
PARAM = re.compile(r"\{\{([%<])-?\s*param\s+(?:\"([^\"\n]*)\"|'([^'\n]*)'|([\w.-]+))\s*-?[%>]\}\}")
#: A site config's folder of split config files, whose ``params.*`` is its ``params``.
_SPLIT = "config/_default"
_SECTION = "_index."
_PAGES = (".md", ".markdown", ".html")
#: Includes shown inside included text, at most; and in one page, at most (a snippet
#: showing another twice, four deep, would be shown 16 times: 200 is far past any site's).
_INCLUDE_DEPTH = 4
_INCLUDES_A_PAGE = 200


class HugoParams:
    """The parameters a Hugo site's pages can print: built once for the site from its
    config (``config``: the config file the site's tree was read from) and the
    ``cascade`` of each section under ``content`` (its pages' folder)."""

    def __init__(
        self,
        config: str,
        content: str,
        read: Callable[[str], str | None],
        files: Collection[str],
    ) -> None:
        self.config_files = [config]
        self._read = read
        data = hugo_config(config, read(config) or "") or {}
        site = _mapping(data.get("params"))
        folder = posixpath.dirname(config)
        for name in ("params.toml", "params.yaml", "params.yml", "params.json"):
            split = posixpath.join(folder if folder.endswith(_SPLIT) else _SPLIT, name)
            if split in files:
                self.config_files.append(split)
                site = {**site, **(_split_params(split, read(split) or ""))}
        languages = _mapping(data.get("languages"))
        own = _mapping(languages.get(str(data.get("defaultContentLanguage") or "en")))
        self.site = {**site, **_mapping(own.get("params"))}
        self.content = content
        prefix = content + "/" if content else ""
        self.pages = {f for f in files if f.startswith(prefix) and f.lower().endswith(_PAGES)}
        self.named: dict[str, list[str]] = {}  # a page's name -> the pages of that name
        for page in sorted(self.pages):
            stem = posixpath.splitext(posixpath.basename(page))[0]
            if stem in ("index", "_index"):
                stem = posixpath.basename(posixpath.dirname(page))
            self.named.setdefault(stem.lower(), []).append(page)
        #: a section's folder -> what its ``_index`` passes down, and that ``_index`` file
        self.cascades: dict[str, tuple[dict[str, Any], str]] = {}
        for rel in files:
            name = posixpath.basename(rel)
            if not rel.startswith(prefix) or not name.startswith(_SECTION):
                continue
            text = read(rel) or ""
            if "cascade" not in text:
                continue
            passed = _cascaded(front_matter(text).get("cascade"))
            if passed:
                self.cascades[posixpath.dirname(rel)] = (passed, rel)

    def sources(self, rel: str) -> list[str]:
        """The files whose change changes what ``rel``'s calls print: the site's config
        files and the sections above it that pass parameters down."""
        found = list(self.config_files)
        for folder in _folders_above(rel, self.content):
            if folder in self.cascades:
                found.append(self.cascades[folder][1])
        return found

    def expand(
        self, text: str, rel: str, own: Mapping[str, Any]
    ) -> tuple[str, list[tuple[int, str]]]:
        """``text`` of the page ``rel`` (its front matter ``own``) with each call
        replaced by the value it prints, and (offset in ``text``, name) of the calls
        nothing printable defines."""
        if "param" not in text:
            return text, []
        layers = [_mapping(own), _mapping(own.get("params"))]
        layers += [
            self.cascades[f][0] for f in _folders_above(rel, self.content) if f in self.cascades
        ]
        layers.append(self.site)
        unknown: list[tuple[int, str]] = []

        def printed(found: re.Match[str]) -> str:
            name = found.group(2) or found.group(3) or found.group(4) or ""
            for layer in layers:
                value = _lookup(layer, name)
                if value is not None:
                    break
            if isinstance(value, bool):
                return "true" if value else "false"
            if isinstance(value, (str, int, float)):
                return str(value)
            unknown.append((found.start(), name))
            return found.group(0)

        return PARAM.sub(printed, text), unknown

    def with_included(self, text: str, rel: str) -> tuple[str, list[tuple[int, str, str]]]:
        """``text`` of the page ``rel`` with each include shortcode (:data:`INCLUDE`) as
        the body of the page it names, and (offset in ``text``, target, what is wrong
        and how to fix it) of the calls left as written: naming no page, a page they
        are shown inside of (a loop), or past the page's budget."""
        if not _may_include(text):
            return text, []
        missing: list[tuple[int, str, str]] = []
        budget = [_INCLUDES_A_PAGE]
        shown = self._included(text, rel, (rel,), budget, missing.append)
        return shown, missing

    def included_files(self, text: str, rel: str) -> list[str]:
        """The pages ``text``'s include shortcodes show (their own included ones too):
        a change to one changes the page."""
        if not _may_include(text):
            return []
        found: list[str] = []
        todo, seen = [(text, rel)], {rel}
        while todo and len(seen) < 64:
            page_text, page = todo.pop()
            for call in INCLUDE.finditer(page_text):
                target = self._include_target(page, _argument(call))
                if target and target not in seen:
                    seen.add(target)
                    found.append(target)
                    todo.append((self._read(target) or "", target))
        return found

    def _included(
        self,
        text: str,
        rel: str,
        chain: tuple[str, ...],
        budget: list[int],
        missing: Callable[[tuple[int, str, str]], Any],
    ) -> str:
        """``text`` (of ``rel``, shown inside the pages of ``chain``) with its includes
        shown: none of a page it is inside of (a loop), none past the page's budget."""

        def body(call: re.Match[str]) -> str:
            written = _argument(call)
            target = self._include_target(rel, written)
            page = self._read(target) if target and target not in chain else None
            if page is None or budget[0] <= 0:
                missing((call.start(), written, _not_shown(written, target, chain)))
                return call.group(0)
            budget[0] -= 1
            inner = page[frontmatter_end(page) :].strip("\n")
            if len(chain) < _INCLUDE_DEPTH:  # what it shows says where the page calls it
                inner = self._included(
                    inner,
                    target,
                    (*chain, target),
                    budget,
                    lambda said: missing((call.start(), *said[1:])),
                )
            return inner

        return INCLUDE.sub(body, text)

    def _include_target(self, rel: str, written: str) -> str | None:
        """The page an include names: from the content folder or the page's own, then
        the site's folder, with or without ``.md`` or as a bundle's ``index.md``, else
        by its name alone when one page has it (Kubernetes' ``includes/``)."""
        path = written.split("#", 1)[0].strip()
        if not path:
            return None
        site = posixpath.dirname(self.config_files[0])
        if site.endswith(_SPLIT):
            site = posixpath.dirname(posixpath.dirname(site))
        starts = [self.content] if path.startswith("/") else [posixpath.dirname(rel), self.content]
        for start in (*starts, site):
            stem = posixpath.normpath(posixpath.join(start, path.strip("/")))
            for candidate in (stem, *(stem + t for t in (".md", "/index.md", "/_index.md"))):
                if candidate in self.pages:
                    return candidate
        named = self.named.get(posixpath.splitext(posixpath.basename(path.rstrip("/")))[0].lower())
        return named[0] if named and len(named) == 1 else None

    def shown(self, text: str, rel: str) -> str:
        """The page ``rel``'s ``text`` with its shortcodes shown (:func:`shown_shortcodes`),
        its ``ref`` and ``relref`` calls as links to the pages they name."""
        return shown_shortcodes(text, lambda target: _ref_in(self, rel, target))


def _ref_in(site: HugoParams, rel: str, target: str) -> str:
    """The link ``ref`` makes of ``target`` on the page ``rel``: the page it names as a
    path from ``rel``'s folder (``../go/quickstart.md#install``), looked for from the
    page's folder, then the content folder, then by its name alone when one page has
    it, as Hugo looks; ``target`` as written when none is."""
    path, hash_, fragment = target.partition("#")
    if not path:
        return target  # "#part": an anchor of the page itself
    here = posixpath.dirname(rel)
    starts = [site.content] if path.startswith("/") else [here, site.content]
    found = None
    for start in starts:
        stem = posixpath.normpath(posixpath.join(start, path.strip("/")))
        for candidate in (stem, *(stem + t for t in (".md", "/index.md", "/_index.md"))):
            if candidate in site.pages:
                found = candidate
                break
        if found:
            break
    if found is None:
        named = site.named.get(posixpath.splitext(posixpath.basename(path.rstrip("/")))[0].lower())
        found = named[0] if named and len(named) == 1 else None
    if found is None:
        return target
    return posixpath.relpath(found, here or ".") + (hash_ + fragment if hash_ else "")


def uses_params(text: str) -> bool:
    """Whether ``text`` calls the ``param`` shortcode."""
    return "param" in text and PARAM.search(text) is not None


#: A call's argument: quoted (either quote) or a bare word.
_ARG = r"(?:\"([^\"\n]*)\"|'([^'\n]*)'|([^\s%>\"']+))"
#: A site's shortcode showing another page's text: hugoDocs' and Kubernetes' ``include``
#: (a path, quoted), Docsy's ``readfile`` (``file="..."``).
INCLUDE = re.compile(
    rf"\{{\{{[<%]-?\s*(?:include|readfile)\s+(?:file\s*=\s*)?{_ARG}[^\n%>]*?-?[%>]\}}\}}"
)


def _may_include(text: str) -> bool:
    return "include" in text or "readfile" in text


def _not_shown(written: str, target: str | None, chain: tuple[str, ...]) -> str:
    """Why an include shortcode naming ``written`` was left as written, and the fix."""
    said = f"the include shortcode names {written}"
    if target is None:
        return f"{said}, which is no page of the site: left as written; fix the path or add it"
    if target in chain:
        return f"{said}, a page it is shown inside of (a loop): left as written; remove the loop"
    return f"{said} past the {_INCLUDES_A_PAGE} includes a page shows: left as written; show fewer"


def _argument(call: re.Match[str]) -> str:
    return call.group(1) or call.group(2) or call.group(3) or ""


#: ``{{< relref "/docs/x" >}}``, ``{{% ref "page.md#part" %}}``, ``path=`` named too.
REF = re.compile(rf"\{{\{{[<%]-?\s*(?:rel)?ref\s+(?:path=)?{_ARG}\s*-?[%>]\}}\}}")
#: Any shortcode tag: ``{{< name args >}}``, ``{{% /name %}}``; group 1 the ``/`` of a
#: closing tag, group 2 the name, group 3 its arguments.
_TAG = re.compile(r"\{\{[<%]-?\s*(/?)\s*([\w./-]+)([^\n]*?)\s*/?-?[%>]\}\}")
_NAMED = re.compile(r"([\w-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|(\S+))")


def shown_shortcodes(text: str, ref: Callable[[str], str] = lambda path: path) -> str:
    """``text`` with the shortcodes the site shows as Markdown written so: ``ref`` and
    ``relref`` calls as the paths ``ref`` makes of their arguments, paired shortcodes
    as the text they wrap (a ``title`` argument its first words, in bold), ``figure``
    as its image; other calls as written."""
    if "{{" not in text:
        return text
    text = REF.sub(lambda m: ref(m.group(1) or m.group(2) or m.group(3) or ""), text)
    closed = {m.group(2) for m in _TAG.finditer(text) if m.group(1)}

    def shown(found: re.Match[str]) -> str:
        closing, name, args = found.group(1), found.group(2), found.group(3)
        named = {
            m.group(1).lower(): m.group(2) or m.group(3) or m.group(4)
            for m in _NAMED.finditer(args)
        }
        alone = found.group(0).rstrip("}%>-").rstrip().endswith("/")  # {{< x />}}: no text
        if name in closed and _wraps_code(name) and not alone:  # its text is code: fenced
            first = (args.split() or [""])[0]  # highlight's language, when not a name=value
            language = "" if closing or "=" in first else first.strip("\"'")
            return "```" + (language if re.fullmatch(r"[\w+-]*", language) else "")
        if name in closed:
            title = named.get("title", "")
            return "" if closing or not title else f"**{title}**"
        if name == "figure" and named.get("src"):
            words = named.get("alt") or named.get("caption") or named.get("title") or ""
            return f"![{words}]({named['src']})"
        return found.group(0)

    return _TAG.sub(shown, text)


def _wraps_code(name: str) -> bool:
    """Whether a paired shortcode shows the text it wraps as code: Hugo's own
    ``highlight``, and one named for code (hugoDocs' ``code-toggle`` around every config
    example of 168 pages, whose settings read as the pages' sentences when unwrapped)."""
    return name == "highlight" or "code" in re.split(r"[-_/.]", name.lower())


def _lookup(layer: Mapping[str, Any], name: str) -> Any:
    """The value a dotted ``name`` reaches in ``layer``, keys read without case."""
    value: Any = layer
    for key in name.split("."):
        if not isinstance(value, Mapping):
            return None
        low = key.lower()
        value = next((v for k, v in value.items() if str(k).lower() == low), None)
        if value is None:
            return None
    return value


def _cascaded(value: Any) -> dict[str, Any]:
    """What a ``cascade`` passes down to every page below: a map, or the maps of a list
    that name no ``_target`` (a cascade aimed at some pages only is not guessed at); a
    ``params`` map inside it is read as its own."""
    maps = [value] if isinstance(value, Mapping) else value if isinstance(value, list) else []
    passed: dict[str, Any] = {}
    for one in maps:
        if isinstance(one, Mapping) and "_target" not in one and "target" not in one:
            passed.update(one)
            passed.update(_mapping(one.get("params")))
    return passed


def _split_params(rel: str, text: str) -> dict[str, Any]:
    """A split config's ``params.*`` file: its root is the site's ``params``."""
    return _mapping(hugo_config(rel, text, split=True))


def _folders_above(rel: str, content: str) -> list[str]:
    """``rel``'s folder and those above it, down to ``content``, nearest first."""
    folders = []
    folder = posixpath.dirname(rel)
    while True:
        folders.append(folder)
        if folder == content or not folder:
            return folders
        folder = posixpath.dirname(folder)


def _mapping(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {}
