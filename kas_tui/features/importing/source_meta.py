"""What a documentation source says about itself, beyond its pages.

Exports of docs sites (docfx, MkDocs, Docusaurus, a wiki) carry repository furniture
(README, LICENSE, SECURITY...), folder names squashed for URLs (``ExchangeOnline``,
``SkypeforBusiness``), page titles with the site's suffix (``... | Microsoft Docs``)
and the product's name in their configuration (``mkdocs.yml``'s ``site_name``,
``docfx.json``'s ``_appTitle``) or their pages' metadata (``ms.service``,
``appliesto``). This module reads those; the build decides what to do with them.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from kas_tui.core.fileio import read_regular
from kas_tui.features.importing.toc_hugo import hugo_config, is_hugo_config
from kas_tui.features.importing.toc_nextra import is_meta_file
from kas_tui.features.importing.toc_vitepress import is_vitepress_config
from kas_tui.features.importing.toc_vuepress import is_vuepress_config
from kas_tui.text.prose import inline_text, markup_read

#: Repository files that describe the repository, not the subject: kept as assets at
#: the package root, never listed as documents (compared without extension, any case).
FURNITURE = frozenset(
    {
        "readme",
        "contributing",
        "contributors",
        "license",
        "licence",
        "license-code",
        "license-docs",
        "security",
        "code_of_conduct",
        "code-of-conduct",
        "codeofconduct",
        "support",
        "codeowners",
        "thirdpartynotices",
        "third-party-notices",
        "notice",
        "notices",
        "pull_request_template",
        "issue_template",
        # where an export came from and who keeps it: "SOURCE.txt" of both shared corpora
        "source",
        "authors",
        "maintainers",
        "citation",
        "funding",
    }
)
#: Files a site serves to robots and hosts, at any level: not knowledge.
SITE_FILES = frozenset(
    {
        "robots.txt",
        "cname",
        "sitemap.xml",
        ".nojekyll",
        "favicon.ico",
        "404.md",
        "404.mdx",  # Nextra's "page not found"
        "404.html",
    }
)
#: Folder names docs sites keep snippet files in (pulled into pages, not pages).
INCLUDE_FOLDERS = frozenset({"includes", "_includes", "includes-shared", "snippets", "_snippets"})
#: Site suffixes page titles carry: "Sign-in fails | Microsoft Docs", "Widgets -
#: Textual Documentation" (a separator with spaces, up to three words, then Docs,
#: Documentation or Wiki).
_SUFFIX = re.compile(
    r"\s+(?:\||-|–|—)\s+(?:Microsoft\s+(?:Docs|Learn)|(?:[\w.]+\s+){0,3}"
    r"(?:Docs|Documentation|Wiki))\s*$",
    re.IGNORECASE,
)
#: What a title bar shows after a page's heading: " | Config", " | Guide".
_BAR = re.compile(r"(?<=\S)\s+\|\s+\S.*$")
_SQUASH = re.compile(r"[\W_]+", re.UNICODE)
_WORDS = re.compile(r"[^\W_]+", re.UNICODE)


#: A template's tags (Jinja, Liquid, Nunjucks): an HTML file holding them is a theme's
#: template (MkDocs' ``overrides/``), never a page.
_TEMPLATE_TAG = re.compile(rb"\{%-?\s*(?:extends|block|include|if|for|macro|set|import)\b")


def is_template(source: Path, rel: str) -> bool:
    """Whether ``rel`` (of the folder ``source``) is an HTML file written as a template
    (``{% extends %}``), or a fragment a site puts into its pages and no page: a short
    file of scripts and tags alone, no words (Quarto's and bookdown's ``include-in-header``
    analytics, ``plausible.html``, ``ga_script.html``)."""
    if not rel.lower().endswith((".html", ".htm")):
        return False
    try:
        head = read_regular(source / rel, listed=True, limit=8192)  # never a pipe's wait
    except OSError:
        return False  # the conversion says what is wrong with it
    if _TEMPLATE_TAG.search(head) is not None:
        return True
    if len(head) >= 8192 or b"<" not in head or b"refresh" in head.lower():
        return False  # a page that only sends its reader on is a redirect (redirects.py)
    return not _WORDS_B.search(_NOT_TEXT_B.sub(b" ", head))


#: What is no text of an HTML fragment: its scripts, styles, comments and tags.
_NOT_TEXT_B = re.compile(rb"<(script|style)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>", re.I | re.S)
_WORDS_B = re.compile(rb"[A-Za-z\x80-\xff]{2,}")


def is_furniture(rel: str) -> bool:
    """Whether a source file is repository furniture: a README, LICENSE, SECURITY,
    CONTRIBUTING... at the source's root (in a sub-folder a README is a landing page),
    or a file the site serves robots (``robots.txt``, ``sitemap.xml``) anywhere."""
    if rel.rsplit("/", 1)[-1].lower() in SITE_FILES:
        return True
    if "/" in rel:
        return False
    stem = rel.rsplit(".", 1)[0] if "." in rel[1:] else rel
    return stem.lower() in FURNITURE


#: A root README in another language: ``README-zh.md``, ``README.ja.md``, ``README_pt-BR.md``.
_README_TRANSLATION = re.compile(
    r"^readme[-_.][a-z]{2,3}(?:[-_][a-z]{2,4})?\.(?:md|markdown|rst|txt)$"
)


def readmes_as_pages(documents: list[str], assets: list[str], wrapper: str = "") -> list[str]:
    """The root README(s) of ``assets`` that are the source's content rather than its
    furniture: a repository that is its README (an awesome list, a one-page reference),
    alone or beside its translations (``README-zh.md``), has no other page."""
    if any(not _README_TRANSLATION.match(d[len(wrapper) :].lower()) for d in documents):
        return []
    return [
        a
        for a in assets
        if "/" not in a[len(wrapper) :]
        and a[len(wrapper) :].lower()
        in ("readme.md", "readme.markdown", "readme.rst", "readme.txt")
    ]


#: Files that configure the site or list its pages: read for structure and names,
#: never documents (compared in lower case; ``toc.*`` at any level).
_SITE_CONFIG = re.compile(
    r"^(?:mkdocs[\w.-]*\.ya?ml|docfx\.json|_config\.ya?ml|(?:docusaurus|astro)\.config\.[mc]?[jt]s|"
    r"sidebars\.(?:js|ts|json)|book\.toml|conf\.py|"
    r"\.?eleventy(?:\.config)?\.[mc]?[jt]s|_bookdown\.yml)$"
)
_TOC = re.compile(r"^(?:toc\.(?:ya?ml|md|json|xml)|_toc\.ya?ml|_category_\.(?:json|ya?ml))$")
#: A wiki's or a Docsify site's parts of every page, in any folder (a GitHub wiki's
#: folder-level ``_Sidebar.md``, snowplow's nine of them, were pages "Sidebar").
_PAGE_PARTS = frozenset({"_sidebar.md", "_navbar.md", "_footer.md", "_header.md", "_coverpage.md"})
#: A site's map of moved pages, at any depth: gemini-cli's ``docs/redirects.json``,
#: Netlify's ``_redirects``, docfx's ``.openpublishing.redirection.json``.
_REDIRECTS = re.compile(r"^[._]?(?:[\w-]+[._-])?redirect(?:s|ion)?(?:\.(?:json|ya?ml))?$")


def is_site_config(rel: str) -> bool:
    """Whether a source file configures the docs site (``mkdocs.yml``, ``docfx.json``,
    a Docusaurus or Jekyll config, a wiki's ``_Sidebar.md``, ``_Footer.md`` or
    ``_Header.md`` at the root; ``docfx.json`` anywhere), is a table of contents
    (``toc.yml``, ``TOC.md`` anywhere) or a map of moved pages (``redirects.json`` anywhere)."""
    name = rel.rsplit("/", 1)[-1].lower()
    if name in _PAGE_PARTS:
        return True
    if is_toc_file(rel) or _REDIRECTS.match(name) or name == "docfx.json":
        return True  # docfx.json configures a site wherever it is (dotnet/docfx's docs/)
    return "/" not in rel and bool(_SITE_CONFIG.match(name))


def is_page_part(rel: str) -> bool:
    """Whether a source file is a part of every page of a wiki or a Docsify site (its
    ``_Sidebar.md``, ``_Footer.md``...): no page, and nothing to copy."""
    return rel.rsplit("/", 1)[-1].lower() in _PAGE_PARTS


def is_toc_file(rel: str) -> bool:
    """Whether a source file is a table of contents by its name (``toc.yml``, ``TOC.md``,
    ``toc.json``, an older docfx site's ``ToC.xml``, a Docusaurus folder's
    ``_category_.json``, a Nextra folder's ``_meta.json`` or ``_meta.ts`` anywhere): read
    for the package's tree, never copied into it."""
    return bool(_TOC.match(rel.rsplit("/", 1)[-1].lower())) or is_meta_file(rel)


#: Program sources: examples a page shows or links to, kept as assets, never documents.
SOURCE_CODE = frozenset(
    [
        ".py",
        ".pyi",
        ".js",
        ".mjs",
        ".cjs",
        ".ts",
        ".tsx",
        ".jsx",
        ".css",
        ".tcss",
        ".scss",
        ".sass",
        ".less",
        ".styl",
        ".scm",
        ".sh",
        ".bash",
        ".zsh",
        ".ps1",
        ".bat",
        ".rb",
        ".go",
        ".rs",
        ".java",
        ".kt",
        ".c",
        ".h",
        ".cc",
        ".cpp",
        ".hpp",
        ".cs",
        ".php",
        ".swift",
        ".lua",
        ".r",
        ".pl",
        ".vue",
        # a site's components and shaders (an Astro site's src/components/Button.astro,
        # its hero's .glsl): the code that draws pages, no page (expressjs.com: 67)
        ".astro",
        ".svelte",
        ".glsl",
        ".frag",
        ".vert",
        ".wgsl",
    ]
)


def is_source_code(rel: str) -> bool:
    """Whether a source file is a program's source (``.py``, ``.tcss``, ``.js``...)."""
    name = rel.rsplit("/", 1)[-1].lower()
    return "." in name and name[name.rindex(".") :] in SOURCE_CODE


def in_include_folder(rel: str) -> bool:
    """Whether a source file sits in a folder docs sites keep snippets in."""
    return any(part.lower() in INCLUDE_FOLDERS for part in rel.split("/")[:-1])


#: A folder's landing page, by its file name (without extension, lower case).
LANDING_PAGES = frozenset({"index", "readme", "_index"})


#: The id Notion's export writes after each page's and folder's name ("Collaborations
#: 1b475bfc115480fc96a1e8436796ac71.md" beside "Collaborations/"): no words of it.
_EXPORT_ID = re.compile(r" [0-9a-f]{32}$")


def without_export_id(name: str) -> str:
    """A file's stem or a path without the id a Notion export writes after a name."""
    return _EXPORT_ID.sub("", name)


def folder_named_as(page: str, folders: Iterable[str]) -> str:
    """The one of ``folders`` (names) named as the page file ``page`` (without its
    extension and a Notion export's id, case ignored), or ""."""
    stem = without_export_id(posixpath.splitext(page)[0]).lower()
    return next((f for f in folders if without_export_id(f).lower() == stem), "")


def is_landing_page(rel: str) -> bool:
    """Whether a source file is its folder's landing page (``index``, ``README``,
    Hugo's ``_index``)."""
    return posixpath.splitext(posixpath.basename(rel))[0].lower() in LANDING_PAGES


def is_partial(rel: str) -> bool:
    """Whether a source file is an MDX partial: ``_fragments/cta.mdx``,
    ``develop/_sections/listen.mdx``, ``_warning.mdx``. Docusaurus and Astro publish no
    file or folder whose name starts with ``_``; pages import them."""
    return rel.lower().endswith(".mdx") and any(p.startswith("_") for p in rel.split("/"))


def title_as_shown(title: str) -> str:
    """A front matter title as its site shows it (Jekyll, Eleventy, Hugo write it into
    the page's HTML): "TTS <em>before</em> onboarding", "Logging in &amp; Networks"
    read as words (:func:`~kas_tui.text.prose.markup_read`)."""
    return markup_read(title)


def strip_site_suffix(title: str, heading: str | None = None) -> str:
    """A page title without the site's suffix ("X | Microsoft Docs" -> "X"), or the
    section's a title bar shows after the page's own heading (vitest's ``title: alias |
    Config`` over ``# alias``: ``heading``, the page's first level-1 heading)."""
    stripped = _SUFFIX.sub("", title)
    stripped = stripped if stripped.strip() else title
    bar = _BAR.search(stripped) if heading else None
    if bar is not None and heading and heading.startswith(inline_text(stripped[: bar.start()])):
        return stripped[: bar.start()].strip()  # "fsModuleCache" of "# fsModuleCache 5.0.0" too
    return stripped


def readable_name(name: str, titles: Iterable[str] = ()) -> str | None:
    """A squashed folder name written as its documents write it: ``ExchangeOnline``
    -> "Exchange Online", ``SkypeforBusiness`` -> "Skype for Business",
    ``Microsoft365`` -> "Microsoft 365", using the words of ``titles`` (the folder's own
    documents'); ``None`` when the name is not squashed or its letters cannot be cut
    into words those titles use."""
    if not re.fullmatch(r"[A-Za-z0-9]+", name) or not re.search(
        r"[a-z][A-Z]|[A-Za-z][0-9]|[a-z]{12,}", name
    ):
        return None
    titles = list(titles)
    forms: dict[str, Counter[str]] = {}
    for title in titles:
        for word in _WORDS.findall(title):
            forms.setdefault(word.lower(), Counter())[word] += 1
    target = name.lower()
    # fewest words that spell the name, each a word the titles use (dynamic programming)
    best: list[list[str] | None] = [None] * (len(target) + 1)
    best[0] = []
    for end in range(1, len(target) + 1):
        for start in range(max(0, end - 30), end):
            head = best[start]
            piece = target[start:end]
            shorter = head is not None and (best[end] is None or len(head) + 1 < len(best[end]))
            # a letter alone spells no part of a name (a vault's titles "Z score", "T
            # test", "Vitamin E" cut "zettelkasten" into "Z e t t e l k AST e n")
            word = len(piece) > 1 or piece.isdigit()
            if shorter and word and piece in forms and piece != target:
                best[end] = [*head, piece]
    words = best[-1]
    if not words or len(words) < 2:
        return None
    # the name as the titles write it whole, in the name's own capitals ("Exchange Server
    # 2013", though "server" is mostly lower-case elsewhere), else word by word
    capitals, at = [], 0
    for word in words:
        capitals.append(name[at].isupper())
        at += len(word)
    phrase = re.compile(r"\b" + r"\s+".join(map(re.escape, words)) + r"\b", re.IGNORECASE)
    whole = Counter(
        " ".join(found.split())
        for title in titles
        for found in (m.group(0) for m in phrase.finditer(title))
        if [w[0].isupper() for w in found.split()] == capitals
    )
    if whole:
        return max(whole.items(), key=lambda kv: (kv[1], kv[0]))[0]
    spelled = [_spelling(w, forms[w]) for w in words]
    text = " ".join(spelled)
    return text[0].upper() + text[1:]


def acronyms_as_written(title: str, titles: Iterable[str]) -> str:
    """``title`` (a folder's name made readable) with each word that ``titles`` write
    in capitals, or with a capital inside it, mostly written so: "Azure cli" -> "Azure
    CLI" (its pages say "Azure CLI"), "Ios" -> "iOS", "Github" -> "GitHub"; every other
    word as it was."""
    forms: dict[str, Counter[str]] = {}
    for text in titles:
        for word in _WORDS.findall(text):
            forms.setdefault(word.lower(), Counter())[word] += 1

    def spell(match: re.Match[str]) -> str:
        word = match.group(0)
        seen = forms.get(word.lower())
        best = seen.most_common(1)[0][0] if seen else word
        capitals = best.isupper() and not best.isdigit() or best[1:] != best[1:].lower()
        return best if len(best) > 1 and capitals else word

    return _WORDS.sub(spell, title) if forms else title


def _spelling(word: str, forms: Counter[str]) -> str:
    """How the titles write a word: lower case when they ever do mid-title ("for"),
    else their most common spelling ("SharePoint")."""
    if word in forms and len(word) <= 3:
        return word
    return forms.most_common(1)[0][0]


#: Where beside its root a site keeps its config (Docusaurus' website/, VitePress'
#: .vitepress/, VuePress' .vuepress/, Hugo's config/_default/).
_CONFIG_FOLDERS = ("", "website", ".vitepress", ".vuepress", "config/_default")


def _configures_site(rel: str) -> bool:
    """Whether a file configures a docs site, by its name where it sits (one rule for
    a site's own root: :func:`is_site_config`, Hugo's, VitePress', VuePress')."""
    name = rel.rsplit("/", 1)[-1]
    if _REDIRECTS.match(name.lower()):
        return False  # a map of moved pages says nothing of the site's structure
    hugo = is_hugo_config(rel) and (name.lower().startswith("hugo.") or "/" in rel)
    return is_site_config(name) or hugo or is_vitepress_config(rel) or is_vuepress_config(rel)


def _hugo_config_at(path: Path, rel: str) -> bool:
    """Whether ``path`` (``rel`` in its folder), an older ``config.yaml`` or the like
    at a site's root, holds a Hugo config's keys (grpc.io's): read to tell it from
    another tool's config of that name."""
    if "/" in rel or not is_hugo_config(rel):
        return False
    try:
        text = read_regular(path, limit=1 << 20).decode("utf-8", errors="replace")
    except OSError:
        return False
    return hugo_config(rel, text) is not None


def site_config_above(source: Path) -> str | None:
    """A site config in one of the three folders above ``source`` (``../mkdocs.yml``
    of a ``docs/`` folder built alone), as a note saying what was not read and how to
    read it; ``None`` when there is none. Only looked for, never read."""
    folder = source.resolve()
    for up in range(1, 4):
        folder = folder.parent
        if folder == folder.parent:
            return None
        for inner in _CONFIG_FOLDERS:
            try:
                names = sorted(os.listdir(folder / inner))
            except OSError:
                continue
            for name in names:
                there = f"{inner}/{name}" if inner else name
                if not (folder / there).is_file():
                    continue
                if not _configures_site(there) and not _hugo_config_at(folder / there, there):
                    continue
                rel = "/".join([".."] * up + [there])
                return (
                    f"{rel} configures the site this folder is part of: its structure "
                    f"(navigation, names, which files are pages) was not read; build "
                    f"{folder} to have it"
                )
    return None
