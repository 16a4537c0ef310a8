"""Hugo's ``param`` shortcode, shown as the site shows it.

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
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

from kas_tui.features.importing.front_matter import front_matter
from kas_tui.features.importing.toc_hugo import hugo_config

#: ``{{% param name %}}``, ``{{< param "name" >}}``, with Hugo's ``-`` whitespace trims.
PARAM = re.compile(r"\{\{([%<])-?\s*param\s+(?:\"([^\"\n]*)\"|'([^'\n]*)'|([\w.-]+))\s*-?[%>]\}\}")
#: A site config's folder of split config files, whose ``params.*`` is its ``params``.
_SPLIT = "config/_default"
_SECTION = "_index."


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
        #: a section's folder -> what its ``_index`` passes down, and that ``_index`` file
        self.cascades: dict[str, tuple[dict[str, Any], str]] = {}
        prefix = content + "/" if content else ""
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


def uses_params(text: str) -> bool:
    """Whether ``text`` calls the ``param`` shortcode."""
    return "param" in text and PARAM.search(text) is not None


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
