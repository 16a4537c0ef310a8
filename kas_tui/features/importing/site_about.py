"""What a docs site says of itself in its configuration: its name and what it is about
(``mkdocs.yml``'s ``site_name`` and ``site_description``, docfx.json's ``_appTitle``, a
Docusaurus config's ``title`` and ``tagline``, a Quarto project's, a bookdown book's...),
read from the files where a site's configuration may be, never run."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import tomllib
import yaml

from kas_tui.features.importing.antora import antora_about
from kas_tui.features.importing.docfx_config import read_docfx_json
from kas_tui.features.importing.front_matter import front_matter
from kas_tui.features.importing.js_literals import (
    blank_js,
    exported_object,
    string_option,
)
from kas_tui.features.importing.source_meta import strip_site_suffix
from kas_tui.features.importing.toc_dendron import dendron_about, is_dendron_config
from kas_tui.features.importing.toc_docsify import docsify_about
from kas_tui.features.importing.toc_hugo import hugo_about, is_hugo_config
from kas_tui.features.importing.toc_jupyterbook import MYST_CONFIG, myst_about
from kas_tui.features.importing.toc_mintlify import is_mintlify_config, mintlify_about
from kas_tui.features.importing.toc_nextra import next_app_about
from kas_tui.features.importing.toc_starlight import is_astro_config, starlight_about
from kas_tui.features.importing.toc_vitepress import is_vitepress_config, vitepress_about
from kas_tui.features.importing.toc_vuepress import is_vuepress_config, vuepress_about

#: What parts a site's name from the tagline after it: " • ", " | ", " · ".
_TAGLINE = re.compile(r"\s+[•|·]\s+")


def site_title(
    read: Callable[[str], str | None], files: Iterable[str], near: str = ""
) -> str | None:
    """The documentation's own name, from the site's configuration: ``site_name`` of an
    MkDocs yml, ``_appTitle`` of docfx.json's global metadata, ``title`` of a Jekyll
    ``_config.yml`` or a Docusaurus config, ``project`` of a Sphinx ``conf.py``; ``None``
    when there is none. ``near``: the file the site's TOC was read from (see
    :func:`site_configs`)."""
    return site_about(read, files, near)[0]


def site_description(
    read: Callable[[str], str | None], files: Iterable[str], near: str = ""
) -> str | None:
    """What the documentation says it is about, in one line of its configuration:
    ``site_description`` of an MkDocs yml ("Data validation using Python type hints"),
    a Docusaurus config's ``tagline``, ``description`` of a Jekyll ``_config.yml`` or of
    docfx.json's global metadata; ``None`` when it says nothing."""
    return site_about(read, files, near)[1]


def site_about(
    read: Callable[[str], str | None], files: Iterable[str], near: str = ""
) -> tuple[str | None, str | None]:
    """(name, description) from the first site configuration that gives either (see
    :func:`site_title`, :func:`site_description`); configs are read, never run."""
    for rel in site_configs(files, near):
        found = _config_about(rel.rsplit("/", 1)[-1].lower(), rel, read)
        if found is not None and any(found):
            return found
    return None, None


def site_configs(files: Iterable[str], near: str = "") -> list[str]:
    """The files where a site's configuration may be, in the order they are read: at
    the source's top, one folder down (a site kept in ``website/``), Hugo's
    ``config/_default/``, VitePress' ``.vitepress/``, VuePress' ``.vuepress/``, Sphinx's
    ``docs/source/conf.py``, a Next.js app's root layout. ``near``: the file the site's
    table of contents was read from: it and the files beside it first, at any depth
    (pytest's ``doc/en/conf.py``; a repository may hold another tool's config at its
    top)."""
    files = list(files)
    home = posixpath.dirname(near)
    beside = sorted(f for f in files if near and posixpath.dirname(f) == home)
    names = [near] if near in files else []
    names += [f for f in beside if f != near]
    book = posixpath.join(posixpath.dirname(home), "book.toml") if home else ""
    names += [book] if book in files else []  # an mdBook's, above its SUMMARY.md's folder
    names += sorted(f for f in files if "/" not in f)
    names += sorted(f for f in files if f.count("/") == 1)  # a site kept in website/
    names += sorted(f for f in files if f.startswith("config/_default/"))  # Hugo's
    names += sorted(f for f in files if is_vitepress_config(f) and f.count("/") <= 2)
    names += sorted(f for f in files if is_vuepress_config(f) and f.count("/") <= 2)
    names += sorted(f for f in files if f.endswith("/source/conf.py") and f.count("/") == 2)
    names += sorted(f for f in files if f in _NEXT_LAYOUTS and f.count("/") == 2)  # src/app/
    return list(dict.fromkeys(names))


#: A Next.js app's root layout, whose ``metadata`` names the site.
_NEXT_LAYOUTS = frozenset(
    f"{folder}/layout.{ext}" for folder in ("app", "src/app") for ext in ("tsx", "jsx", "js", "ts")
)


def _config_about(
    low: str, rel: str, read: Callable[[str], str | None]
) -> tuple[str | None, str | None] | None:
    def text(value: Any) -> str | None:
        return " ".join(value.split()) or None if isinstance(value, str) else None

    if low.startswith("mkdocs") and low.endswith((".yml", ".yaml")):
        data = _yaml(read(rel))
        if isinstance(data, Mapping):
            return text(data.get("site_name")), text(data.get("site_description"))
    elif low == "docfx.json":
        data = read_docfx_json(read(rel))
        if data is None:
            return None
        meta = (data.get("build") or {}).get("globalMetadata") or {}
        name = next(
            (
                strip_site_suffix(meta[key].strip(" |-"))
                for key in ("_appTitle", "titleSuffix", "_appName")
                if isinstance(meta.get(key), str) and meta[key].strip()
            ),
            None,
        )
        return name, text(meta.get("description"))
    elif low == "_bookdown.yml":  # a bookdown book's title is its index.Rmd's
        for name in ("index.Rmd", "index.rmd"):
            front = front_matter(read(posixpath.join(posixpath.dirname(rel), name)) or "")
            if text(front.get("title")):
                return text(front.get("title")), text(
                    front.get("description") or front.get("subtitle")
                )
        return None
    elif low in ("_quarto.yml", "_quarto.yaml"):  # a Quarto website's or book's
        data = _yaml(read(rel))
        for key in ("book", "website") if isinstance(data, Mapping) else ():
            part = data.get(key)
            if isinstance(part, Mapping) and (
                text(part.get("title")) or text(part.get("description"))
            ):
                return text(part.get("title")), text(
                    part.get("description") or part.get("subtitle")
                )
        return None
    elif low == "antora.yml":  # an Antora component's
        return antora_about(read(rel) or "")
    elif low == MYST_CONFIG:  # Jupyter Book 2, MyST-MD
        return myst_about(read(rel) or "")
    elif low == "_config.yml":  # Jekyll's, Jupyter Book 1's
        data = _yaml(read(rel))
        if isinstance(data, Mapping):
            # Jekyll's older ``name`` (jekyll-seo-tag reads it after ``title``), without
            # the tagline a browser tab shows after it ("Jekyll • Simple, blog-aware,
            # static sites")
            name = text(data.get("title")) or text(data.get("name"))
            return _TAGLINE.split(name, 1)[0] if name else None, text(data.get("description"))
    elif low.startswith("docusaurus.config."):
        # the config object's own title, not a footer column's or a navbar's
        code = blank_js(read(rel) or "")
        opened = exported_object(code)
        if opened is None:
            return None
        return string_option(code, opened, "title"), string_option(code, opened, "tagline")
    elif is_astro_config(low):
        return starlight_about(read(rel) or "")
    elif is_vitepress_config(rel):
        return vitepress_about(read(rel) or "")
    elif is_vuepress_config(rel):
        return vuepress_about(read(rel) or "")
    elif is_mintlify_config(rel):
        return mintlify_about(read(rel) or "")
    elif low == "index.html":  # a Docsify site's, when it sets window.$docsify
        return docsify_about(read(rel) or "")
    elif rel in _NEXT_LAYOUTS:  # a Next.js app's (Nextra's, Fumadocs') root layout
        return next_app_about(read(rel) or "")
    elif is_hugo_config(rel):  # a config with none of Hugo's keys is another tool's
        return hugo_about(rel, read(rel) or "")
    elif is_dendron_config(rel):  # a Dendron workspace's published site
        return dendron_about(read(rel) or "")
    elif low == "book.toml":  # mdBook
        try:
            book = tomllib.loads(read(rel) or "").get("book")
        except ValueError:
            return None
        if isinstance(book, dict):
            return text(book.get("title")), text(book.get("description"))
    elif low == "conf.py":  # Sphinx: read literally, never run
        match = re.search(r"^project\s*=\s*['\"]([^'\"]+)['\"]", read(rel) or "", re.M)
        return (match.group(1).strip() if match else None), None
    return None


def load_site_yaml(text: str | None) -> Any:
    """A site config's YAML (MkDocs, docfx, Jekyll), its Python and environment tags
    read as ``None``; ``None`` when it does not parse."""
    return _yaml(text)


def _yaml(text: str | None) -> Any:
    if not text:
        return None
    try:
        return yaml.load(text, Loader=_Tolerant)  # noqa: S506 - SafeLoader subclass
    except (yaml.YAMLError, RecursionError):  # lists hundreds deep
        return None


class _Tolerant(yaml.SafeLoader):
    """A safe loader that reads MkDocs configs: unknown tags (``!!python/name:...``,
    ``!ENV``) load as ``None`` instead of failing."""


def _unknown(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> None:  # noqa: ARG001
    return None


_Tolerant.add_multi_constructor("", _unknown)
_Tolerant.add_multi_constructor("tag:yaml.org,2002:python/", _unknown)
