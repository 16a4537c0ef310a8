"""The address a docs site is published at, as its configuration says it.

A page's ``/``-rooted link to a page the site makes but the source does not hold (an
API reference generated from code, a section mounted from another repository, a blog
kept elsewhere) works on the site; in the package it would lead nowhere. The build
joins such links to the site's address (:func:`kas_tui.core.okf.links.site_link`), as
``--link-base`` does, when the site names its address: ``site_url`` of ``mkdocs.yml``,
``url`` of a Docusaurus config (served at its root, ``baseUrl: '/'``), ``site`` of an
Astro config, ``baseURL`` of a Hugo config, ``url`` of a Jekyll ``_config.yml``.
Configs are read, never run. A scaffold's placeholder (``https://example.com``, a
host under a name reserved for examples and tests, RFC 2606 and 6761, or named
``your-...``) is no address.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from kas_tui.features.importing.js_literals import blank_js, exported_object, string_option
from kas_tui.features.importing.site_about import load_site_yaml, site_configs
from kas_tui.features.importing.toc_hugo import hugo_base_url, is_hugo_config
from kas_tui.features.importing.toc_starlight import is_astro_config

#: A site's address: an http(s) URL with a host.
ADDRESS = re.compile(r"https?://[^/?#\s]+(?:[/?#]\S*)?$")
#: Names reserved for examples and tests (RFC 2606, RFC 6761): a scaffold's placeholder.
_RESERVED = ("example", "test", "invalid", "localhost", "local")
_EXAMPLE_DOMAINS = ("example.com", "example.org", "example.net")


def site_address(
    read: Callable[[str], str | None], files: Iterable[str], near: str = ""
) -> tuple[str, str] | None:
    """(address, the config file saying it) of the site the source is, or ``None``
    when no config names a real one. ``near``: the file the site's table of contents
    was read from, whose folder's configs are read first (a repository may hold
    another tool's config at its top)."""
    for rel in site_configs(files, near):
        address = _configured(rel, read)
        if address is not None:
            return address, rel
    return None


def is_placeholder(address: str) -> bool:
    """Whether ``address`` is a scaffold's stand-in rather than a site's address."""
    host = (urlsplit(address).hostname or "").lower().rstrip(".")
    if not host or host.split(".")[-1] in _RESERVED or host.split(".")[0].startswith("your"):
        return True
    return any(host == d or host.endswith("." + d) for d in _EXAMPLE_DOMAINS) or host in (
        "127.0.0.1",
        "0.0.0.0",  # noqa: S104 - compared, never bound
    )


def _configured(rel: str, read: Callable[[str], str | None]) -> str | None:
    name = posixpath.basename(rel).lower()
    value: Any = None
    if name.startswith("mkdocs") and name.endswith((".yml", ".yaml")):
        data = load_site_yaml(read(rel))
        value = data.get("site_url") if isinstance(data, dict) else None
    elif name.startswith("docusaurus.config."):
        code = blank_js(read(rel) or "")
        opened = exported_object(code)
        if opened is not None and string_option(code, opened, "baseUrl") in (None, "/"):
            value = string_option(code, opened, "url")
    elif is_astro_config(rel):
        code = blank_js(read(rel) or "")
        opened = exported_object(code)
        value = string_option(code, opened, "site") if opened is not None else None
    elif is_hugo_config(rel):
        value = hugo_base_url(rel, read(rel) or "")
    elif name == "_config.yml":  # Jekyll's
        data = load_site_yaml(read(rel))
        value = data.get("url") if isinstance(data, dict) else None
    if not isinstance(value, str):
        return None
    value = value.strip()
    if not ADDRESS.match(value) or is_placeholder(value):
        return None
    return value
