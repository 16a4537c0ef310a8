"""References to moved files, rewritten in one file's text: links, code paths, sources.

When files move, every reference to them must follow, and a file that moves itself must
keep pointing where it pointed. :func:`relink_text` rewrites one file's text for a
:class:`PathMap` of what moves where, byte-minimally: only the characters of a reference
that no longer leads to its target change, in the style it was written in.

* Markdown links, images and reference definitions in the body (found and rewritten by
  span, :mod:`kas_tui.core.okf.links`): a ``/``-rooted link stays rooted, a relative one is
  recomputed from where the file is afterwards, ``./``, a trailing ``/``, ``<...>``,
  percent-encoding, ``#fragment``, ``?query`` and the link's title are kept.
* Paths written as code (`` `/billing/refunds.md` ``) in SKILL.md and index.md files, the
  navigation layer an agent reads first (SKILL.md's entry points are a table of them);
  code in documents is left alone, it may be an example.
* ``resource`` and ``sources[].resource`` in a document's frontmatter, patched in place
  (:func:`kas_tui.core.okf.yaml_patch.set_in`): rooted, relative to the document's folder
  (as OKF reads them) or, as kas-tui 0.1 wrote them, relative to the root.

Pure: text in, text out; the moves planner (:mod:`kas_tui.features.moves.planner`) reads and writes.
"""

from __future__ import annotations

import posixpath
from collections.abc import Container, Iterable, Iterator
from typing import Any
from urllib.parse import quote, unquote

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf import yaml_patch
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.links import SCHEME, Span, code_spans, relative_link, resolve, rewrite_links

#: A written path that is a URL (``https:``, ``mailto:``, ``file:``), not a package path.


class PathMap:
    """Where moved paths go (root-relative): a file, or a folder with all below it.

    ``moves`` are ``(old, new)`` pairs; a path below a moved folder moves with it, the
    nearest moved folder deciding. The package root never moves. ``names`` are the last
    names of the moved paths: every reference to one of them (or to a file below a moved
    folder) names it, unless it is written escaped.
    """

    def __init__(self, moves: Iterable[tuple[str, str]]) -> None:
        self.moves = dict(moves)
        self._below = tuple(old + "/" for old in self.moves if old)
        self.names = frozenset(posixpath.basename(old) for old in self.moves if old)

    def new(self, path: str) -> str | None:
        """Where ``path`` is after the moves, or ``None`` when it does not move."""
        if path not in self.moves and not path.startswith(self._below):
            return None  # (most paths: one look-up, one C-level prefix test)
        probe = path
        while probe:
            hit = self.moves.get(probe)
            if hit is not None:
                return hit + path[len(probe) :]
            probe = posixpath.dirname(probe)
        return None

    def final(self, path: str) -> str:
        """Where ``path`` is after the moves (itself when it does not move)."""
        found = self.new(path)
        return path if found is None else found


def may_refer(data: bytes, names: Iterable[str]) -> bool:
    """Whether a file holding ``data`` may refer to a path with one of these last
    ``names``: it holds one, or something a reference may be escaped with (``%``,
    ``&``, ``\\``), when only reading its links can tell. Never wrong by leaving one out."""
    if b"%" in data or b"&" in data or b"\\" in data:
        return True
    return any(name.encode("utf-8") in data for name in names)


def relink_text(
    text: str,
    source: str,
    paths: PathMap,
    *,
    known: Container[str] = (),
    code: bool = False,
    frontmatter: bool = False,
) -> str:
    """``text`` of the file at ``source`` (root-relative, before the moves) with every
    reference the moves break rewritten.

    ``code`` also rewrites paths written as code in the body, ``frontmatter`` the
    ``resource`` values of the frontmatter. ``known`` are the package's paths, to tell a
    root-relative ``resource`` (kas-tui 0.1) from a folder-relative one.
    """
    start = fm.body_start(text)
    body = text[start:]
    new_source = paths.final(source)

    def change(span: Span) -> str | None:
        return _moved(source, new_source, span.target, body[span.start : span.end], paths)

    body = rewrite_links(body, change, by_span=True)
    if code:
        body = _relink_code(body, source, new_source, paths)
    head = text[:start]
    text = head + body
    if frontmatter and start and (new_source != source or may_refer(head.encode(), paths.names)):
        text = _relink_resources(text, source, new_source, paths, known)
    return text


def _moved(source: str, new_source: str, target: str, written: str, paths: PathMap) -> str | None:
    """The new destination of a link ``target`` (as markdown-it reads it, ``written`` as
    in the file) of ``source``, which moves to ``new_source``; ``None``: it still leads
    where it led."""
    found = resolve(source, target)
    if found.kind != "internal":
        return None
    destination = paths.new(found.path)
    if destination is None:
        if new_source == source:
            return None
        destination = found.path
    again = resolve(new_source, target)
    if again.kind == "internal" and again.path == destination:
        return None
    return _written_like(target, written, new_source, destination)


def _written_like(target: str, written: str, source: str, destination: str) -> str:
    """A link from ``source`` to ``destination`` written the way ``target`` was."""
    cut = min((i for i in (target.find("?"), target.find("#")) if i >= 0), default=len(target))
    path, suffix = target[:cut], target[cut:]
    encoded = "%" in written
    folder = path.endswith("/")
    if path.startswith("/"):
        new = "/" + destination + ("/" if folder and destination else "")
    else:
        new = relative_link(source, destination, folder=folder)
        if path.startswith("./") and not new.startswith("."):
            new = "./" + new
    if encoded:
        return quote(new, safe="/") + suffix
    return new + unquote(suffix)


def _relink_code(body: str, source: str, new_source: str, paths: PathMap) -> str:
    """``body`` with each code span that names a moved path (or, in a moving file, a path
    it no longer reaches) rewritten, as :func:`kas_tui.features.agent.reveal` reads them."""
    parts: list[str] = []
    at = 0
    for span in code_spans(body):
        code = span.target
        if not _looks_like_path(code):
            continue
        new = _moved(source, new_source, code, code, paths)
        if new is None:
            continue
        parts += [body[at : span.start], new]
        at = span.end
    return "".join([*parts, body[at:]]) if parts else body


def _looks_like_path(code: str) -> bool:
    """A code span an agent would read as a path: one word with a ``/`` or a ``.``."""
    if not code or code != code.strip() or any(c.isspace() for c in code):
        return False
    if "://" in code or code[0] in "#[-" or SCHEME.match(code):
        return False
    return "/" in code or "." in code


def _relink_resources(
    text: str, source: str, new_source: str, paths: PathMap, known: Container[str]
) -> str:
    """``text`` with the frontmatter's ``resource`` values that name moved paths (or that
    the document's move breaks) patched in place."""
    try:
        parsed = fm.parse(text)
    except FormatError:
        return text  # a frontmatter that cannot be read is not edited (check reports it)
    if parsed is None or not isinstance(parsed.data, dict):
        return text
    for where, value in _resources(parsed.data):
        new = _moved_resource(value, source, new_source, paths, known)
        if new is not None:
            try:
                text = yaml_patch.set_in(text, where, new)
            except EditError as exc:
                raise EditError(
                    f"{'.'.join(map(str, where))} names a moved file but cannot be rewritten "
                    f"in place ({exc.message}); edit it by hand first",
                    path=source,
                ) from None
    return text


def _resources(data: dict[str, Any]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if isinstance(data.get("resource"), str):
        yield ("resource",), data["resource"]
    sources = data.get("sources")
    if isinstance(sources, list):
        for i, item in enumerate(sources):
            if isinstance(item, dict) and isinstance(item.get("resource"), str):
                yield ("sources", i, "resource"), item["resource"]


def _moved_resource(
    value: str, source: str, new_source: str, paths: PathMap, known: Container[str]
) -> str | None:
    """The new ``resource`` for ``value`` of ``source`` (moving to ``new_source``)."""
    written = value.strip()
    if not written or written != value or SCHEME.match(written) or written.startswith("#"):
        return None
    if written.startswith("/"):
        return _moved(source, new_source, written, written, paths)
    from_folder = resolve(source, written)
    from_root = resolve("", written)
    if (
        from_folder.path not in known
        and from_root.kind == "internal"
        and from_root.path in known
        and posixpath.dirname(source)
    ):
        # kas-tui 0.1 wrote root-relative resources without the leading /
        destination = paths.new(from_root.path)
        if destination is None:
            return None
        cut = min((i for i in (written.find("?"), written.find("#")) if i >= 0), default=None)
        return destination + ("" if cut is None else written[cut:])
    return _moved(source, new_source, written, written, paths)
