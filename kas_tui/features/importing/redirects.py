"""A site's map of moved pages: where a link to an old address is sent.

Read as the site reads it, never run: a Netlify ``_redirects`` file (``/from /to
[status]``, one a line, at any depth; ``*`` rules and rewrites to other sites are
none of ours), docfx's ``.openpublishing.redirection*.json`` (``source_path`` ->
``redirect_url``), the ``redirects`` option of an Astro config (an object literal; a
spread of an object a file of the site exports, ``...redirects`` of
``import redirects from './redirects.js'``, is read from that file), and
mkdocs-redirects' ``redirect_maps`` (``old.md: new.md``), the ``redirects`` of a
Mintlify ``docs.json`` (``[{source, destination}]``, or the file its ``$ref`` names),
and those a Nextra or Fumadocs site's ``next.config`` returns (``{source, destination,
permanent}``). A move of a whole folder by pattern (``/en/:slug*`` -> ``/:slug*``;
Netlify's ``/old/*`` -> ``/new/:splat``) is followed for every address it matches.
Paths are compared as the site serves them: no slashes around them, no
``.md``/``.html``; a target keeps its ``#fragment``.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

import yaml

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.features.importing.docfx_config import (
    content_folders,
    is_docfx_redirects,
    read_docfx_json,
    served_path,
)
from kas_tui.features.importing.front_matter import toml_front_matter
from kas_tui.features.importing.js_literals import (
    CONFIG_OBJECT,
    blank_js,
    js_object,
    js_option,
    js_value_at,
    without_computed,
)
from kas_tui.features.importing.toc_formats import URL, load_lined
from kas_tui.features.importing.toc_mintlify import mintlify_data
from kas_tui.features.importing.toc_nextra import CONFIG_NAMES as NEXT_CONFIGS
from kas_tui.features.importing.toc_starlight import is_astro_config
from kas_tui.features.importing.toc_wiki import GITBOOK_CONFIG, gitbook_config

Read = Callable[[str], "str | None"]
#: How many moves a link is followed through (a loop ends there).
MOST_HOPS = 5
_IMPORT = re.compile(r"""\bimport\s+([A-Za-z_$][\w$]*)\s+from\s+['"](\.{1,2}/[^'"]+)['"]""")
_SPREAD = re.compile(r"\.\.\.\s*([A-Za-z_$][\w$]*)")


def served_key(path: str) -> str:
    """A path as redirects compare it: ``/guide/old.html`` and ``guide/old.md`` alike."""
    path = path.split("#", 1)[0].split("?", 1)[0].strip().strip("/")
    return re.sub(r"(?:/index)?\.(?:md|mdx|html?)$", "", path)


class Moves(dict[str, str]):
    """Old address -> new address, and the patterns a site moves whole folders by
    (``/en/:slug*`` -> ``/:slug*``, Netlify's ``/old/*`` -> ``/new/:splat``): an
    address no exact entry names is sent where the first pattern it matches says."""

    def __init__(self, exact: dict[str, str], patterns: list[tuple[re.Pattern[str], str]]) -> None:
        super().__init__(exact)
        self.patterns = patterns

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        found = super().get(key)
        if found is not None:
            return found
        for pattern, target in self.patterns:
            match = pattern.fullmatch(key)
            if match:
                values = match.groupdict()
                return _PARAM.sub(lambda m, v=values: v.get(m.group(1)) or "", target).strip()
        return default


#: A parameter of a moved address: ``:slug``, ``:path*``, ``:rest+``.
_PARAM = re.compile(r":([A-Za-z_]\w*)[*+?]?")


def _pattern(source: str) -> re.Pattern[str] | None:
    """A moved address's pattern as a regular expression over its ``served_key`` (one
    ``:name`` a segment, ``:name*`` any number, ``*`` Netlify's splat); ``None`` when it
    has no parameter."""
    key = served_key(source)
    if ":" not in key and "*" not in key:
        return None
    out, at = [], 0
    for match in re.finditer(r":([A-Za-z_]\w*)([*+?]?)|\*", key):
        literal = key[at : match.start()]
        name, mark = (
            match.group(1) or "splat",
            match.group(2) or ("*" if not match.group(1) else ""),
        )
        if mark == "*" and literal.endswith("/"):  # /en/:slug* matches /en too
            out.append(re.escape(literal[:-1]) + f"(?:/(?P<{name}>.*))?")
        elif mark in ("*", "+"):
            out.append(re.escape(literal) + f"(?P<{name}>.{mark})")
        else:
            out.append(re.escape(literal) + f"(?P<{name}>[^/]+)")
        at = match.end()
    out.append(re.escape(key[at:]))
    try:
        return re.compile("".join(out))
    except re.error:  # a name used twice
        return None


def _patterns(pairs: Iterator[tuple[Any, Any]]) -> list[tuple[re.Pattern[str], str]]:
    out = []
    for old, new in pairs:
        if isinstance(old, str) and isinstance(new, str) and not URL.match(new.strip()):
            pattern = _pattern(old)
            if pattern is not None:
                out.append((pattern, new.strip()))
    return out


def redirect_map(
    files: Collection[str], read: Read, toc: Any, pages: dict[str, str] | None = None
) -> Moves:
    """Old address -> new address (``served_key`` form, a target keeping its fragment)
    from every map of moved pages the source holds (see the module docstring), and the
    ``pages`` that only redirect (:func:`redirect_pages`)."""
    moved: dict[str, str] = {served_key(k): v for k, v in (pages or {}).items()}
    docfx_moves: list[tuple[str, Any]] = []  # docfx's moves: (source path, new address)
    patterns: list[tuple[re.Pattern[str], str]] = []
    for rel in sorted(files):
        name = posixpath.basename(rel).lower()
        if name == "_redirects":
            moved.update(_netlify(read(rel) or ""))
            patterns += _patterns(_netlify_lines(read(rel) or "", patterns=True))
        elif rel == GITBOOK_CONFIG:  # a GitBook space's: old path -> its page's file
            moves = gitbook_config(read, files).get("redirects")
            moved.update(
                _pairs(
                    (str(k), str(v)) for k, v in (moves.items() if isinstance(moves, dict) else [])
                )
            )
        elif is_docfx_redirects(name):  # its source paths are the file's own (../reference/x.md)
            folder = posixpath.dirname(rel)
            moves = [
                (posixpath.normpath(posixpath.join(folder, old)), new)
                for old, new in _docfx_entries(read(rel) or "")
                if isinstance(old, str) and old.strip()
            ]
            moved.update(_pairs(iter(moves)))
            docfx_moves += moves
    config = getattr(toc, "file", "") or ""
    kind = getattr(toc, "kind", "")
    if docfx_moves and kind in ("docfx-yml", "docfx-md"):
        # a moved file's source path as the site served it: its docfx.json's dest
        home = getattr(toc, "docs_dir", "") or ""
        folders = content_folders(posixpath.join(home, "docfx.json"), read)
        for where, new in docfx_moves if folders else ():
            served = served_path(where, folders)
            if served and isinstance(new, str) and not URL.match(new.strip()):
                moved.setdefault(served, new.strip())
    if kind == "starlight" and is_astro_config(config):
        moved.update(_astro(config, read, files))
    if kind == "mkdocs":
        moved.update(_mkdocs(read(config) or ""))
    if kind == "mintlify":
        moves = _mintlify_moves(config, read)
        moved.update(_pairs(m for m in moves if not re.search(r"[:*]", str(m[0]))))
        patterns += _patterns(iter(moves))
    if kind in ("nextra", "fumadocs"):  # a Next.js site: its next.config's redirects
        folder = posixpath.dirname(config)
        for name in sorted(NEXT_CONFIGS):
            rel = posixpath.join(folder, name)
            moves = _next_moves(read(rel) or "") if rel in files else []
            moved.update(_pairs(m for m in moves if not re.search(r"[:*(]", m[0])))
            patterns += _patterns(iter(m for m in moves if "(" not in m[0]))
    exact = {k: v for k, v in moved.items() if k and v and k != served_key(v)}
    return Moves(exact, patterns)


#: A page that only sends its reader on: ``<meta http-equiv="refresh" content="0; url=x">``.
_REFRESH = re.compile(r"""<meta\s[^>]*http-equiv\s*=\s*["']?refresh\b[^>]*>""", re.I)
_REFRESH_URL = re.compile(
    r"""content\s*=\s*["']?\s*\d*\s*[;,]?\s*url\s*=\s*['"]?([^'">\s]+)""", re.I
)
_NOT_TEXT = re.compile(r"<(script|style|title)\b.*?</\1\s*>|<[^>]*>|&\w+;", re.I | re.S)
#: A template's front matter (``---``, or Eleventy's ``---js`` / ``---json``), before its page.
_FRONT_MATTER = re.compile(r"\A\ufeff?---[a-z]*[ \t]*\n.*?^---[ \t]*$", re.S | re.M)
#: The most bytes of a page that only redirects (jekyll-redirect-from writes about 400)...
REDIRECT_PAGE_MAX = 4096
#: ...and the most words it says ("Redirecting… Click here if you are not redirected.").
_REDIRECT_WORDS = 12


def refresh_target(text: str) -> str | None:
    """Where an HTML page that does nothing but send its reader on (a meta refresh, at
    most a line such as "Redirecting…") sends them, as written; ``None`` for a page of
    its own."""
    tag = _REFRESH.search(text)
    found = _REFRESH_URL.search(tag.group(0)) if tag else None
    if found is None:
        return None
    page = _FRONT_MATTER.sub("", text, count=1)  # an Eleventy template's own settings
    if len(_NOT_TEXT.sub(" ", page).split()) > _REDIRECT_WORDS:
        return None
    return found.group(1).strip()


#: Front matter keys that send a page's reader on: jekyll-redirect-from's, and docfx's.
REDIRECT_KEYS = ("redirect_to", "redirect_url")


def front_matter_target(text: str) -> str | None:
    """Where a page whose front matter sends its reader on (``redirect_to:``,
    jekyll-redirect-from's key as the source page writes it, a list's first address;
    ``redirect_url:``, docfx's) and that says nothing below it sends them, as written;
    ``None`` for any other page. Jekyll's own docs keep ``pages/redirects/github.html``
    so: built, it was an empty document described "Web page imported from
    github.html"; docfx's keep 13 tutorials so, built as "Document imported from
    intro_toc.md"."""
    return _front_matter_redirect(text)[1]


def _front_matter_redirect(text: str) -> tuple[str, str | None]:
    """(the key, the address) of :func:`front_matter_target`; ("", None) for a page."""
    if "redirect_" not in text:
        return "", None
    toml = toml_front_matter(text.lstrip("\ufeff"))  # Zola's +++ redirect_to = "x/" +++
    rooted = toml is not None  # Zola's redirect_to is a path from the site's root
    if toml is not None:
        data, end = toml
        body = text.lstrip("\ufeff")[end:]
    elif text.lstrip("\ufeff").startswith("---"):
        try:
            parsed = fm.parse(text.lstrip("\ufeff"))
        except FormatError:
            return "", None
        if parsed is None:
            return "", None
        data, body = parsed.data, text[parsed.block.end :]
    else:
        return "", None
    if not isinstance(data, dict) or body.strip():
        return "", None
    for key in REDIRECT_KEYS:
        target = data.get(key)
        if isinstance(target, list) and target:
            target = target[0]
        if isinstance(target, str) and target.strip():
            target = target.strip()
            if rooted and not URL.match(target) and not target.startswith("/"):
                target = "/" + target
            return key, target
    return "", None


#: The most bytes of a Markdown page that only redirects: its front matter (a few
#: lines), so that the pages of a site are not all read twice to find one.
REDIRECT_FRONT_MAX = 1024
#: Sources that may only redirect: web pages (a meta refresh, or front matter) and
#: Markdown pages (front matter).
_MAY_REDIRECT = (".htm", ".html", ".md", ".markdown")


def redirect_pages(documents: Collection[str], read: Read, root: Path) -> dict[str, str]:
    """The files among ``documents`` that only redirect (:func:`refresh_target`,
    :func:`front_matter_target`): source path -> the source path or URL they send the
    reader to. Such a file is no page (Business Central's help holds 1,229 in
    ``pages/``: old help IDs sent on)."""
    found: dict[str, str] = {}
    for rel in documents:
        if not rel.lower().endswith(_MAY_REDIRECT):
            continue
        web = rel.lower().endswith((".htm", ".html"))
        if _size(root / rel) > (REDIRECT_PAGE_MAX if web else REDIRECT_FRONT_MAX):
            continue
        text = read(rel) or ""
        target = (refresh_target(text) if web else None) or front_matter_target(text)
        if target is None:
            continue
        if not URL.match(target) and not target.startswith(
            ("/", "{")
        ):  # {% page x %}: a template's
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), target))
        found[rel] = target
    return found


def redirect_pages_note(pages: dict[str, str], read: Read) -> str:
    """The build's note on the pages that only redirect (``read``: a source file's text,
    to say how the first one does)."""
    first = min(pages)
    n = len(pages)
    how = _front_matter_redirect(read(first) or "")[0] or "a meta refresh"
    to = pages[first] if "{" not in pages[first] else "an address the site's template fills in"
    return (
        f"{first}: {n:,} file{'s' if n > 1 else ''} only send{'' if n > 1 else 's'} the "
        f"reader on to another page ({how}: {first} -> {to}); no pages "
        "of their own, and a link to one leads where it sends"
    )


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return REDIRECT_PAGE_MAX + 1  # unreadable: converting it will say why


def follow(moved: dict[str, str], path: str) -> Iterator[str]:
    """The addresses ``path`` is sent to, one move after another (at most
    ``MOST_HOPS``, never back to one already seen)."""
    seen = {served_key(path)}
    key = served_key(path)
    for _hop in range(MOST_HOPS):
        target = moved.get(key)
        if target is None:
            return
        key = served_key(target)
        if key in seen:
            return
        seen.add(key)
        yield target


def _pairs(pairs: Iterator[tuple[Any, Any]]) -> dict[str, str]:
    out = {}
    for old, new in pairs:
        if isinstance(old, str) and isinstance(new, str) and not URL.match(new.strip()):
            out[served_key(old)] = new.strip()
    return out


def _netlify(text: str) -> dict[str, str]:
    return _pairs(_netlify_lines(text, patterns=False))


def _netlify_lines(text: str, *, patterns: bool) -> Iterator[tuple[str, str]]:
    """A ``_redirects`` file's (from, to) lines: the exact ones, or those with a
    placeholder or a splat."""
    for line in text.splitlines():
        parts = line.split("#", 1)[0].split()
        if len(parts) >= 2 and (("*" in parts[0] or ":" in parts[0]) == patterns):
            yield parts[0], parts[1]


def _docfx_entries(text: str) -> list[tuple[Any, Any]]:
    """(``source_path``, ``redirect_url``) of a docfx redirection file's entries."""
    data = read_docfx_json(text)
    entries = data.get("redirections") if data else None
    if not isinstance(entries, list):
        return []
    return [(e.get("source_path"), e.get("redirect_url")) for e in entries if isinstance(e, dict)]


def _mkdocs(text: str) -> dict[str, str]:
    data, _error = load_lined(text)
    plugins = data.get("plugins") if isinstance(data, dict) else None
    for plugin in plugins if isinstance(plugins, list) else []:
        options = plugin.get("redirects") if isinstance(plugin, dict) else None
        maps = options.get("redirect_maps") if isinstance(options, dict) else None
        if isinstance(maps, dict):
            return _pairs(iter(maps.items()))
    return {}


def _mintlify_moves(config: str, read: Read) -> list[tuple[Any, Any]]:
    """A Mintlify config's ``redirects`` as (source, destination) pairs."""
    data = mintlify_data(read(config) or "") or {}
    moves = data.get("redirects")
    if isinstance(moves, dict) and isinstance(moves.get("$ref"), str):
        rel = posixpath.normpath(posixpath.join(posixpath.dirname(config), moves["$ref"]))
        try:
            moves = json.loads(read(rel) or "")
        except ValueError:
            return []
    return [
        (m.get("source"), m.get("destination"))
        for m in (moves if isinstance(moves, list) else [])
        if isinstance(m, dict)
    ]


#: A redirect of a Next.js config: a flat object naming its ``source`` and its
#: ``destination``, either first.
_NEXT_MOVE = re.compile(
    r"\{[^{}]*\bsource\s*:[^{}]*\bdestination\s*:[^{}]*\}|"
    r"\{[^{}]*\bdestination\s*:[^{}]*\bsource\s*:[^{}]*\}"
)
_NEXT_OPTION = r"""\b{key}\s*:\s*['"]([^'"]+)['"]"""


def _next_moves(text: str) -> list[tuple[str, str]]:
    """The redirects a Next.js config's ``redirects()`` returns (``{source, destination,
    permanent}``), as (source, destination) pairs; those a ``has`` condition limits hold
    an object: not flat, not read."""
    code = blank_js(text)
    pairs = []
    for move in _NEXT_MOVE.findall(code):
        old = re.search(_NEXT_OPTION.format(key="source"), move)
        new = re.search(_NEXT_OPTION.format(key="destination"), move)
        if old and new:
            pairs.append((old.group(1), new.group(1)))
    return pairs


def _astro(config: str, read: Read, files: Collection[str]) -> dict[str, str]:
    text = read(config) or ""
    code = blank_js(text)
    call = CONFIG_OBJECT.search(code)
    at = js_option(blank_js(code, strings=True), call.end() - 1, "redirects") if call else None
    if at is None or code[at : at + 1] != "{":
        return {}
    out: dict[str, str] = {}
    plain, spreads = without_computed(code)
    literal = js_value_at(plain, at, "{")  # offsets kept: it ends where the object does
    end = len(literal) if literal is not None else len(code)
    imports = dict(_IMPORT.findall(code))
    for spread in (s for s in spreads if at < s < end):  # ...redirects of an imported file
        name = _SPREAD.match(code, spread)
        source = imports.get(name.group(1)) if name else None
        if source is None:
            continue
        rel = posixpath.normpath(posixpath.join(posixpath.dirname(config), source))
        exported = js_object(read(rel) or "") if rel in files else None
        out.update(_object(exported))
    out.update(_object(literal))
    return out


def _object(literal: str | None) -> dict[str, str]:
    if literal is None:
        return {}
    try:
        data = yaml.safe_load(literal)
    except (yaml.YAMLError, RecursionError):  # lists hundreds deep
        return {}
    if not isinstance(data, dict):
        return {}
    return _pairs(
        (old, new.get("destination") if isinstance(new, dict) else new) for old, new in data.items()
    )
