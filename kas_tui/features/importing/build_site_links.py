"""Where a link of a built page leads: the source page or asset it names, as the
site it came from would serve it (a mixin of the builder; its state is the builder's).

A link names a source file by its path (``../mail/restore.md``; in Docusaurus, also from
the docs folder: ``api/store.md`` in ``usage/x.md``), by the path the site
serves the page at (``/guide/app/``, ``../advanced/transports`` written against the
page's own URL), under the docset's path on its site
(``/dynamics365/business-central/welcome``, :mod:`.site_base`), or by a spelling that
differs only in case or separators (``Mail/Delayed-Mail.md``).
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections import Counter
from typing import Any
from urllib.parse import parse_qs, unquote

from kas_tui.core.okf.links import site_link
from kas_tui.features.importing.mdx_components import import_candidates
from kas_tui.features.importing.redirects import follow, redirect_map
from kas_tui.features.importing.site_address import site_address
from kas_tui.features.importing.site_base import learned_base, under_base
from kas_tui.features.importing.toc_docsify import docsify_page
from kas_tui.features.importing.toc_formats import SERVED_AS_IS
from kas_tui.features.importing.toc_vuepress import vuepress_page
from kas_tui.features.importing.toc_wiki import page_key
from kas_tui.text.slug import slugify, without_order_prefix


@functools.lru_cache(maxsize=1 << 16)
def _loose_key(path: str) -> str:
    """A path compared without case, extension case, the spelling of its names (spaces,
    underscores, hyphens and ``%20`` alike) or the number prefixes that order them
    (svelte serves ``03-template-syntax/01-basic-markup.md`` as ``basic-markup``)."""
    parts = [without_order_prefix(p) for p in unquote(path).split("/")]
    stem, dot, ext = parts[-1].rpartition(".")
    parts[-1] = f"{slugify(stem)}.{ext.lower()}" if dot else slugify(parts[-1])
    return "/".join([*(slugify(p) for p in parts[:-1]), parts[-1]])


#: What a page served at a path is made from: ``/guide/app/`` is ``guide/app.md``, or
#: ``guide/app/index.md`` (or ``.mdx``), or a docfx YAML page ``guide/app.yml``, or a
#: Quarto page ``guide/app.qmd``.
_SERVED_AS = (".md", "/index.md", "/_index.md", ".mdx", "/index.mdx", ".yml", ".qmd", "/index.qmd")
#: A Docusaurus link naming a page's file: looked for beside the page, then from the
#: docs folder (as Docusaurus resolves it).
_DOCUSAURUS_FILES = (".md", ".mdx")
#: Sites serving a page without a slash after it (Next.js'): its relative links are
#: read from its folder's path, as a browser reads them.
_BARE = ("nextra", "fumadocs")


#: The variables templates print a site's own address by (Jekyll's ``site.baseurl`` and
#: ``site.url``, Eleventy's ``base.baseurl``); not ``site.repository``, another site's.
_BASE_VARIABLE = r"[\w.]*(?:base_?url|\burl|path_?prefix)"
#: A template's expression for the site's address before a path (Jekyll's and
#: Eleventy's ``{{ site.baseurl }}/software/``, as written or as a link encodes it).
_BASE_TAG = re.compile(
    rf"^(?:\{{\{{\s*{_BASE_VARIABLE}\s*\}}\}}|%7B%7B(?:%20)*{_BASE_VARIABLE}(?:%20)*%7D%7D)(?=/)",
    re.I,
)


#: Front matter keys naming the addresses a page is served at: its own (``permalink:``,
#: which Jekyll, Eleventy and VuePress read; TypeScript's handbook pages link to each other
#: by theirs, ``/docs/handbook/2/everyday-types.html``, its site no config a build reads),
#: and those it was served at before it moved.
OLD_ADDRESS_KEYS = ("permalink", "redirect_from", "aliases")


#: A template tag that is the whole link, naming a page by its path or address: Jekyll's
#: ``{% link docs/x.md %}``, an Eleventy shortcode's ``{% page "/about/" %}``.
_PATH_TAG = re.compile(r"""^\{%-?\s*[a-z_]+\s+(["']?)([^"'%\s{}]+)\1\s*-?%\}$""", re.I)


#: A link whose address is a Liquid tag naming a page by its path from the site's root,
#: as Jekyll's ``link`` tag and sites' own shortcodes take it: ``[x]({% link docs/x.md
#: %})``, ``[x]({% page "/about/" %})``, ``[x]({% page "tools/zoom" %})``; a path of
#: folders or a page's file name (``.md``, ``.html``), never a URL or a post's name.
_LINK_TAG = re.compile(
    r"""\]\(\s*\{%-?\s*[a-z_]+\s+(["']?)((?![a-z][a-z0-9+.-]*:)(?:[^"'%\s{}()#/]*/[^"'%\s{}()#]*|"""
    r"""[^"'%\s{}()#/]+\.(?:md|html?))(?:#[^"'%\s{}()]*)?)\1\s*-?%\}\s*\)""",
    re.I,
)


#: A link whose address opens with the site's address as a template prints it:
#: ``[x]({{ site.baseurl }}/software/)`` (not Hugo's ``{{< ref >}}``).
_LINK_BASE = re.compile(rf"\]\(\s*\{{\{{\s*{_BASE_VARIABLE}\s*\}}\}}(?=/)", re.I)


def liquid_link_tags(text: str) -> str:
    """``text`` with each link whose address is a Liquid tag naming a page
    (:data:`_LINK_TAG`) written with that page's address, ``[x](/docs/x.md)``, and
    each opening with the site's address (:data:`_LINK_BASE`) from the site's root."""
    text = _LINK_BASE.sub("](", text)
    return _LINK_TAG.sub(lambda m: f"](/{m.group(2).lstrip('/')})", text)


def without_base_tag(target: str) -> str:
    """``target`` without the template expression it opens with (the site's address):
    ``/software/`` for ``{{ site.baseurl }}/software/``, ``/about/`` for ``{% page
    "/about/" %}`` (a path from the site's root, as Jekyll's ``{% link %}`` takes it),
    ``/docs/x.md`` for Zola's ``@/docs/x.md``; else ``target`` itself."""
    if target.startswith("@/"):  # Zola's internal link: a file from its content folder
        return "/" + target[2:]
    if target[:1] not in ("{", "%"):
        return target
    tag = _PATH_TAG.match(unquote(target).strip())
    if tag:
        return "/" + tag.group(2).lstrip("/")
    return _BASE_TAG.sub("", target, count=1)


def _category_index(stem: str) -> bool:
    """Whether a Docusaurus doc (its path without extension) is its folder's category
    index: ``index``, ``README`` or named as its folder (``releases/releases``)."""
    name, folder = posixpath.basename(stem).lower(), posixpath.basename(posixpath.dirname(stem))
    return name in ("index", "readme") or (bool(folder) and name == folder.lower())


class SiteLinksMixin:
    """The builder's link lookups (``docs``, ``assets``, ``toc``, ``folders``,
    ``source_files`` and ``tree_plan`` are the builder's)."""

    docs: dict[str, Any]
    assets: dict[str, str]
    toc: Any
    folders: dict[str, str]
    source_files: set[str]
    link_base: str
    result: Any
    #: page -> how often it links to each site-rooted path naming no file of the source
    _off_links: dict[str, Counter[str]]
    _above_links: dict[str, Counter[str]]

    def _folder_page(self, path: str) -> str | None:
        """The page a link to the source folder ``path`` opens (its ``index.md`` or
        ``README.md``), when the folders are not the package's tree."""
        for name in ("index.md", "README.md", "readme.md"):
            page = posixpath.join(path.rstrip("/"), name) if path.strip("/") else name
            if page in self.docs and self.docs[page].state != "failed":
                return page
        return None

    def _aliased(self, page: str, target: str) -> str | None:
        """The source file a link through an import alias of the site names (Astro's
        ``@assets/develop/debug.png``, declared in its ``tsconfig.json`` ``paths``), or
        ``None``."""
        aliases = getattr(self, "_aliases", None)
        if not aliases or target[:1] in ("", ".", "/", "#"):
            return None
        path = unquote(target.partition("#")[0].partition("?")[0])
        return next(
            (
                c
                for c in import_candidates(page, path, aliases)
                if c in self.docs or c in self.assets
            ),
            None,
        )

    def _served_page(self, path: str) -> str | None:
        """The source a site-absolute URL is served from: a site's root is its pages
        folder (MkDocs' ``docs_dir``, else the folder around every page), and a page
        is served at its path without ``.md``, as a directory (``/guide/app/`` for
        ``docs/guide/app.md``, ``/guide/`` for ``docs/guide/index.md``); under the path
        the site serves that folder at, when it says one (Fumadocs' ``/docs``); a Docsify
        or VuePress site's folder page is its ``README.md``."""
        if self.toc is not None and self.toc.kind == "docsify":
            found = docsify_page(path, self.toc.docs_dir, self.docs)
            if found is not None:
                return found
        if self.toc is not None and self.toc.kind == "vuepress":  # a folder's README.md
            lower = getattr(self, "_lower_docs", None)
            if lower is None:
                lower = self._lower_docs = {d.lower(): d for d in self.docs}
            home = self.toc.docs_dir
            for folder in dict.fromkeys(
                (home, "" if path.lstrip("/").startswith(f"{home}/") else home)
            ):
                found = vuepress_page(path, folder, self.docs, lower)  # a site's path, a source's
                if found is not None:
                    return found
        site = getattr(self, "_site", None)
        if site is None:
            root = self.toc.docs_dir if self.toc is not None and self.toc.docs_dir else ""
            root = root or next((s for s, o in self.folders.items() if s and not o), "")
            # the names a site-absolute path may start with: others (/powershell/...) are
            # another site's sections, never looked for
            inside = root + "/" if root else ""
            home = posixpath.dirname(self.toc.file) if self.toc is not None else ""
            # files the site serves from its root as they are (public/, static/)
            served = tuple(
                posixpath.join(f, d) + "/"
                for f in dict.fromkeys((root, home))
                for d in SERVED_AS_IS
            )
            tops = {  # from the source's root (Docusaurus' /docs/cli) or the site's
                slugify(posixpath.splitext(part)[0])
                for s in self.source_files
                for part in (
                    *s.split("/")[:2],
                    *s.removeprefix(inside).split("/")[:2],
                    *(s.split("/", 2)[-1].split("/")[:2] if s.startswith(served) else ()),
                    *(p for f in served if s.startswith(f) for p in s[len(f) :].split("/")[:1]),
                )
            }
            base = learned_base(
                (d.converted.markdown for d in self.docs.values() if d.converted is not None),
                self._names_page,
                tops,
            )
            site = self._site = (root, tops, base)
        site_root, tops, base = site
        path = path.strip("/")
        path = under_base(path, base) or path  # the docset's own path on its site
        found = self._other_docs_page(path)
        if found:
            return found
        whole = path  # the site's public/ files are served from its root, base or none
        served_at = self.toc.base_url if self.toc is not None else ""  # Fumadocs' /docs
        if served_at:
            path = "" if path == served_at else under_base(path, served_at) or path
        head, _, tail = path.partition("/")
        if tail and head == slugify(self.source.name) and head not in tops:
            path = tail  # the folder built is served under its own name: /docs/x of docs/
        for stem in (path, posixpath.join(site_root, path)):  # a page served by its id
            found = self._alias(stem)
            if found:
                return found
        inside = posixpath.join(site_root, path).strip("/") if site_root else path
        if path and slugify(posixpath.splitext(path.split("/", 1)[0])[0]) not in tops:
            return self._moved_page(whole if served_at else path)  # unless the site moved it
        stems = [inside, path]
        if path.endswith(".html"):  # VitePress, Sphinx, Jekyll: the page as .html
            stems += [stem[:-5] for stem in stems]
        # files a site serves from its root as they are: VitePress' and Astro's public/,
        # Docusaurus' static/, beside its pages or its config
        config = posixpath.dirname(self.toc.file) if self.toc is not None else ""
        for folder in dict.fromkeys((site_root, config)):
            stems += [
                posixpath.join(folder, kind, p)
                for kind in SERVED_AS_IS
                for p in dict.fromkeys((path, whole))
            ]
        for stem in dict.fromkeys(stems):
            for candidate in (*(f"{stem}{t}".lstrip("/") for t in _SERVED_AS), stem):
                found = candidate if candidate in self.docs or candidate in self.assets else None
                found = found or self._loose_match(candidate)
                if found:
                    return found
        return self._moved_page(whole if served_at else path)  # its redirects name its paths

    def _other_docs_page(self, path: str) -> str | None:
        """The page of another docs instance of the site a site-rooted ``path`` names
        (``community/overview`` of React Native's ``website/community/overview.md``,
        or the page whose ``id:`` it is), or ``None``."""
        more = self.toc.more_docs if self.toc is not None else {}
        for folder, route in more.items():
            rest = "" if path == route else under_base(path, route) if route else path
            if rest is None:
                continue
            stem = posixpath.join(folder, rest).rstrip("/") if rest else folder
            if stem in self.toc.served_as:
                return self.toc.served_as[stem]
            for candidate in (f"{stem}{t}".lstrip("/") for t in _SERVED_AS):
                if candidate in self.docs:
                    return candidate
        return None

    def _moved_page(self, path: str) -> str | None:
        """The page the site's map of moved pages sends ``path`` to (:mod:`.redirects`),
        when it is one of the source's; ``None`` otherwise."""
        moves = getattr(self, "_moves", None)
        if moves is None:
            read = getattr(self, "_read_source", lambda _rel: None)
            pages = {**self._old_addresses(), **(getattr(self, "_redirect_pages", None) or {})}
            moves = self._moves = redirect_map(self.source_files, read, self.toc, pages)
        if not moves or getattr(self, "_following", False):
            return None
        self._following = True
        try:
            for target in follow(moves, path):
                found = self._served_page(target.split("#", 1)[0])
                if found:
                    return found
        finally:
            self._following = False
        return None

    def _old_addresses(self) -> dict[str, str]:
        """Address -> the page that says in its front matter it is served there
        (``permalink:``) or moved from there (jekyll-redirect-from's
        ``redirect_from:``, Jekyll's and Eleventy's, and Hugo's ``aliases:``),
        site-absolute addresses (``/software/``)."""
        found: dict[str, str] = {}
        for source, doc in self.docs.items():
            data = doc.converted.frontmatter if doc.converted is not None else None
            if not data:
                continue
            for key in OLD_ADDRESS_KEYS:
                value = data.get(key)
                for old in [value] if isinstance(value, str) else value or ():
                    if isinstance(old, str) and old.strip().startswith("/"):
                        found.setdefault(old.strip(), source)
        return found

    def _served_at(self, doc: Any, target: str) -> str | None:
        """The source a relative link names when it was written against the page's
        URL: MkDocs serves ``docs/async.md`` at ``/async/``, so its
        ``../advanced/transports`` is ``docs/advanced/transports.md``; Docusaurus
        serves ``docs/cli.md`` at ``/docs/cli``, so its ``configuration`` is the page
        beside it (or the page whose ``id:`` it is); Starlight and Hugo serve as MkDocs
        does (Hugo's section page, ``_index.md``, at its folder); Nextra and Fumadocs as
        Docusaurus does, a folder's ``index`` (or Nextra's ``page.mdx``) at the folder;
        Docsify reads every link from the site's folder."""
        kinds = ("mkdocs", "docusaurus", "starlight", "hugo", "vitepress", "vuepress", "mintlify")
        kinds = (*kinds, "eleventy")  # served as MkDocs serves: pages/travel.md at /travel/
        kinds = (*kinds, *_BARE)
        if self.toc is not None and self.toc.kind == "docsify":  # read from the site's folder
            return docsify_page(target, self.toc.docs_dir, self.docs)
        if self.toc is None or self.toc.kind not in kinds:
            # no site known: a link without an extension names the page as any site
            # serves it (metro's docs/ built alone: ./configuration#x)
            path = unquote(target.partition("#")[0].partition("?")[0]).rstrip("/")
            rendered = path.lower().endswith((".html", ".htm"))  # the page as it is rendered
            if rendered:  # mdBook's ../cli/index.html is cli/README.md
                path = posixpath.splitext(path)[0]
            if not path or path.startswith("/"):
                return None
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(doc.source), path))
            tails = (*_SERVED_AS[:4], *_SERVED_AS[-2:])  # Quarto's x.html is x.qmd
            if posixpath.splitext(path)[1] and not rendered:  # a page named for a file:
                tails = (".md", ".mdx")  # react-router's ./entry.client.tsx (.tsx.md)
            if rendered and posixpath.basename(joined) == "index":
                joined, tails = posixpath.dirname(joined), ("/index.md", "/README.md", "/readme.md")
            for candidate in (joined + tail for tail in tails):
                found = candidate if candidate in self.docs else self._loose_match(candidate)
                if found in self.docs:
                    return found
            if "/" not in path and not rendered:  # a GitHub wiki's [Home](Home), any folder
                found = self._wiki_page(path)
                if found is not None:
                    return found
            inside = self.toc.docs_dir + "/" if self.toc is not None and self.toc.docs_dir else ""
            return self._moved_page(joined.removeprefix(inside))  # GitBook's redirects
        stem = posixpath.splitext(doc.source)[0]
        if self.toc.kind in _BARE:  # where it is served: Nextra's app/guide/page.mdx at guide
            served = self._served_paths().get(doc.source)
            if served is None:  # guide/index.mdx is served at guide, as guide.mdx is
                index = posixpath.basename(stem) == "index"
                served = posixpath.dirname(stem) if index else stem
            page = posixpath.dirname(served)
        elif self.toc.kind in (
            "docusaurus",
            "vitepress",
            "vuepress",
            "mintlify",
        ) or posixpath.basename(stem) in ("index", "_index"):
            if self.toc.kind == "docusaurus":  # at its id: 03-intro/01-help.md at intro/help
                stem = self._served_paths().get(doc.source, stem)
            page = posixpath.dirname(stem)  # Docusaurus serves docs/cli.md at /docs/cli
            if self.toc.trailing_slash and posixpath.basename(stem) != "index":
                page = stem  # ... at /docs/cli/ with trailingSlash: true
        else:
            page = stem  # MkDocs serves docs/async.md at /async/
        path = unquote(target.partition("#")[0].partition("?")[0])
        if self.toc.kind in _BARE and path.lower().endswith((".md", ".mdx")):
            path = posixpath.splitext(path)[0]  # Nextra drops a link's .mdx: ../install.mdx
        joined = posixpath.normpath(posixpath.join(page, path))
        found = None if joined.startswith("..") else self._served_page(joined)
        if found is None and self.toc.kind == "hugo" and page == stem:
            # Hugo's link render hook (on by default for a multilingual site) finds the
            # page from the page's folder, as .GetPage does: ../2022/hello/ of
            # blog/2023/x.md is blog/2022/hello.md
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(stem), path))
            found = None if joined.startswith("..") else self._served_page(joined)
        if found is None and self.toc.kind in _BARE and posixpath.basename(stem) == "index":
            # an index page's link written against its folder, as a folder's files are
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(stem), path))
            found = None if joined.startswith("..") else self._served_page(joined)
        if found is None and self.toc.kind == "docusaurus" and _category_index(stem):
            # a category's own doc (releases/releases.md) is served at its folder's path,
            # /docs/releases: its links are read from /docs/, as a browser reads them
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
            found = None if joined.startswith("..") else self._served_page(joined)
        if found is None and self.toc.kind == "docusaurus" and path.endswith(_DOCUSAURUS_FILES):
            # a file path not beside the page: Docusaurus looks for it in the docs folder
            inside = posixpath.normpath(posixpath.join(self.toc.docs_dir, path)).lstrip("/")
            if not inside.startswith(".."):
                found = inside if inside in self.docs else self._loose_match(inside)
        return found

    def _wiki_page(self, name: str) -> str | None:
        """The page a GitHub wiki's link names by its page name alone (``Home``,
        ``Setting-up-enrich``), wherever it sits: a wiki serves every page at
        ``/wiki/Page-Name``; ``None`` when the source is no such wiki (no ``Home.md`` at
        its root) or holds no page of that name."""
        pages = getattr(self, "_wiki_pages", None)
        if pages is None:
            pages = {}
            if any(d.lower() == "home.md" for d in self.docs):
                for d in sorted(self.docs, key=lambda p: (p.count("/"), p)):
                    stem, ext = posixpath.splitext(posixpath.basename(d))
                    if ext.lower() == ".md":
                        pages.setdefault(page_key(stem), d)
            self._wiki_pages = pages
        return pages.get(page_key(name)) if pages else None

    def _served_paths(self) -> dict[str, str]:
        """Source page -> the path the site serves it at, where the folders do not say
        it (the TOC's ``served_as`` read the other way)."""
        found = getattr(self, "_served_cache", None)
        if found is None:
            served = self.toc.served_as if self.toc is not None else {}
            found = self._served_cache = {f: k for k, f in served.items()}
        return found

    def _names_page(self, path: str) -> bool:
        """Whether ``path`` (as a site serves it, without ``.md``) is a source page."""
        versions = self.toc.served_versions if self.toc is not None else {}
        return (
            any(f"{path}{tail}" in self.docs for tail in _SERVED_AS)
            or bool(self._alias(path))
            or path.strip("/").lower() in versions
        )

    def _versioned_page(self, target: str, source: str) -> str | None:
        """The page a site-rooted link names in one of the versions a docfx site serves
        at one path (``/powershell/module/microsoft.powershell.core/where-object``): the
        version its ``?view=`` picks, else the linking page's own; ``None`` otherwise."""
        versions = self.toc.served_versions if self.toc is not None else {}
        if not versions:
            return None
        path, _, query = target.partition("#")[0].partition("?")
        site = getattr(self, "_site", None)
        base = site[2] if site else ""
        path = unquote(path).strip("/")
        key = (under_base(path, base) or path).lower() if base else path.lower()
        found = versions.get(key.rstrip("/"))
        if not found:
            return None
        view = parse_qs(query).get("view", [""])[0]
        if view in found:
            return found[view]
        own = next(
            (m for f, m in self.toc.version_folders.items() if source.startswith(f + "/")), ""
        )
        return found.get(own)

    def _alias(self, path: str) -> str | None:
        """The page the site serves at ``path`` by a name of its own (a Docusaurus
        ``id``, a docfx ``dest``: :attr:`Toc.served_as`, whose docfx paths are in lower
        case, as Learn's URLs are), or ``None``."""
        aliases = self.toc.served_as if self.toc is not None else {}
        stem = path.strip("/")
        return aliases.get(stem) or aliases.get(stem.lower()) if aliases else None

    def _loose_match(self, path: str) -> str | None:
        """The one source file a link's path names but for case or spelling:
        ``Mail/Delayed-Mail.md`` for ``mail/delayed mail.md`` (Windows-made exports,
        and sites that lower-case every URL). ``None`` when none is, or when two are."""
        table = getattr(self, "_loose_table", None)
        if table is None:
            table = {}
            for source in [*self.docs, *self.assets]:
                key = _loose_key(source)
                table[key] = None if key in table else source  # two alike: no guess
            self._loose_table = table
        return table.get(_loose_key(path))

    # -- links to pages the source does not hold ------------------------------------------

    def _site_base(self) -> str:
        """The address a site-rooted link to a page the source lacks is joined to:
        ``--link-base``, else the address the site's config gives (:mod:`.site_address`),
        else "" (the link stays as written)."""
        return self._site_found_at()[0]

    def _site_found_at(self) -> tuple[str, str]:
        """(the site's address, the config naming it: "" for ``--link-base``), worked
        out once, by whichever process needs it first (a page drafted in the forked
        helper leaves this process without it)."""
        found = getattr(self, "_site_found", None)
        if found is None:
            if self.link_base:
                found = (self.link_base, "")
            else:
                near = self.toc.file if self.toc is not None else ""
                read = getattr(self, "_read_source", lambda _rel: None)
                found = site_address(read, sorted(self.source_files), near) or ("", "")
            self._site_found = found
        return found

    def _off_source(self, doc: Any, target: str) -> str | None:
        """A site-rooted ``target`` of ``doc`` naming no page of the source: joined to
        the site's address when one is known, else ``None`` (left as written); counted
        either way, for :meth:`_note_off_source`."""
        path = target.partition("#")[0].partition("?")[0]
        if self._source_folder(path):
            return None  # a folder of the source's pages: a bundle of the package
        self._off_links.setdefault(doc.source, Counter())[path] += 1
        base = self._site_base()
        return site_link(base, target) if base else None

    def _above_docs(self, doc: Any, target: str) -> str | None:
        """A relative ``target`` of ``doc`` that climbs above the folder the site serves
        (the Rust book's ``../std/index.html``: the standard library's docs beside the
        book on its host): joined to the page's own address when the site's address is
        known, else ``None`` (left as written); counted either way, for the note.
        ``None`` too for a target that stays inside (nothing to say of it here)."""
        path = unquote(target.partition("#")[0].partition("?")[0])
        if not path:
            return None
        root = self.toc.docs_dir if self.toc is not None else ""
        page = (
            doc.source[len(root) + 1 :]
            if root and doc.source.startswith(root + "/")
            else doc.source
        )
        folder = posixpath.dirname(page)
        if not posixpath.normpath(posixpath.join(folder, path)).startswith("../"):
            return None
        self._above_links.setdefault(doc.source, Counter())[path] += 1
        base = self._site_base()
        if not base:
            return None
        served = base if base.endswith("/") else base + "/"  # the folder the pages are in
        return site_link(site_link(served, folder + "/" if folder else ""), target)

    def _source_folder(self, path: str) -> bool:
        """Whether the site-rooted ``path`` names a folder of the source's pages, from
        the source's root or the site's pages folder (``/spicedb`` of ``app/spicedb/``)."""
        folders = getattr(self, "_page_folders", None)
        if folders is None:
            folders = self._page_folders = {
                posixpath.dirname(p[: i + 1])
                for p in self.docs
                for i, c in enumerate(p)
                if c == "/"
            }
        path = unquote(path).strip("/")
        root = self.toc.docs_dir if self.toc is not None else ""
        return bool(path) and (path in folders or posixpath.join(root, path) in folders)

    def _note_off_source(self) -> None:
        """One note on the site-rooted links that name no page of the source, one on the
        links climbing above the folder the site serves: where they lead now, or how to
        make them lead somewhere."""
        self._note_off(
            self._off_links,
            "site-rooted link{s} name{v} {paths} the source holds no file at",
            "https://SITE",
        )
        self._note_off(
            self._above_links,
            "link{s} climb{v} to {paths} above the folder the site serves its pages from",
            "https://SITE/PATH/ (where its pages are served)",
        )

    def _note_off(self, counted: dict[str, Counter[str]], what: str, base: str) -> None:
        """The note on the links ``counted`` (page -> path -> times), ``what`` they do
        (``{s}``, ``{v}``: the plural's endings; ``{paths}``: how many paths)."""
        if not counted:
            return
        page = min(counted)
        path = next(iter(counted[page]))
        n = sum(c.total() for c in counted.values())
        paths = len(set().union(*counted.values()))
        told = what.format(
            s="s" if n > 1 else "",
            v="" if n > 1 else "s",
            paths=f"{paths:,} path{'s' if paths > 1 else ''}",
        )
        named = f"{n:,} {told} (e.g. {path})"
        address, config = self._site_found_at()
        if config:
            said = (
                f"{config}: {named}: they lead to the site, {address}, where those are; "
                "--link-base gives another address"
            )
        elif address:
            return  # --link-base: the curator said where they lead
        else:
            said = (
                f"{page}: {named}: left as written, so check counts them broken; "
                f"--link-base {base} makes them links to the site"
            )
        self.result.notes.append(said)
