"""reStructuredText read as its Sphinx site shows it: through docutils to HTML, then to
Markdown the way every other web page is (MarkItDown's HTML converter).

Sphinx adds roles and directives docutils does not know; a page is full of them
(``:class:`~flask.Flask```, ``:doc:`installation```, ``.. versionadded:: 2.0``,
``.. autofunction:: flask.url_for``). Unknown to docutils, each became an error in the
page, so they are read generically here: a role shows its text as a MyST page's does
(:mod:`.myst_refs`: ``~flask.Flask`` as ``Flask``, a cross-reference or ``:abbr:`` as
words, any other as code), ``:doc:`` links to the page it names (the build rewrites
the link), a directive shows its argument and content, ``code-block`` is a code block,
and a ``toctree`` is left to the TOC reader (:mod:`.toc_sphinx`). ``.. include::`` reads
no file (a page may not pull files from outside the source into the package): it says
what it includes. Nothing docutils reports reaches the page or the terminal.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives, roles
from docutils.parsers.rst.directives.body import CodeBlock

from kas_tui.features.importing.myst_refs import WORD_ROLES, XREF_ROLES, shown
from kas_tui.features.importing.toc_sphinx import TITLED

#: Settings for every page: no messages in the output or on stderr, no file read.
_SETTINGS = {
    "report_level": 5,
    "halt_level": 5,
    "warning_stream": False,
    "file_insertion_enabled": False,
    "raw_enabled": False,
    "syntax_highlight": "none",
    "input_encoding": "unicode",
    "embed_stylesheet": False,
    "_disable_config": True,
}


def _generic_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: Any = None,
    content: Any = None,
) -> tuple[list[nodes.Node], list[Any]]:
    titled = TITLED.match(text)
    label, target = (titled.group(1), titled.group(2)) if titled else (text, text)
    role = name.rsplit(":", 1)[-1].lower()
    if role == "doc":  # a link to the page, which the build rewrites to its document
        return [nodes.reference(rawtext, shown(label), refuri=f"{target.strip()}.rst")], []
    if role in XREF_ROLES or role in WORD_ROLES:  # as a MyST page's (:mod:`.myst_refs`)
        return [nodes.Text(shown(label))], []
    return [nodes.literal(rawtext, shown(label))], []


class _AnyOptions(dict):
    """An option spec that takes every option, as its words."""

    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: str) -> Any:
        return directives.unchanged


class _GenericDirective(Directive):
    """A Sphinx directive docutils does not know: its argument, then its content."""

    required_arguments = 0
    optional_arguments = 100
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        name = self.name.rsplit(":", 1)[-1].lower()
        if name in _NO_TEXT:
            return []  # the TOC reader reads toctrees; the rest is no text
        out: list[nodes.Node] = []
        argument = " ".join(self.arguments).strip()
        if name == "include" or name == "literalinclude":
            return [nodes.paragraph("", f"Includes {argument}.")] if argument else []
        if argument and name in _VERSIONS:  # "New in version 2.0: The --app option."
            version, _sp, said = argument.partition(" ")
            text, _messages = self.state.inline_text(f"{_VERSIONS[name]} {version}: {said}", 0)
            out.append(nodes.paragraph("", "", *text))
        elif argument and (name.startswith("auto") or name in _PYTHON_OBJECTS):
            out.append(nodes.paragraph("", "", nodes.literal("", argument)))  # the API named
        elif argument:
            text, _messages = self.state.inline_text(argument, 0)
            out.append(nodes.paragraph("", f"{name.capitalize()}: ", *text))
        if self.content:
            box = nodes.container()
            self.state.nested_parse(self.content, self.content_offset, box)
            out.append(box)
        return out


#: Directives that show nothing on the page: the TOC reader's toctrees, conditions,
#: and what sets the context of what follows (``.. currentmodule:: flask`` opening
#: Flask's API pages was "Currentmodule: flask", above the title, which then named no
#: page), who wrote it, or what the index lists.
_NO_TEXT = frozenset(
    {"toctree", "only", "ifconfig", "tabularcolumns", "highlight", "index"}
    | {"currentmodule", "module", "sectionauthor", "moduleauthor", "codeauthor"}
    | {"todo", "spelling", "default-domain", "program"}
)
#: Sphinx's version notes, as its HTML words them.
_VERSIONS = {
    "versionadded": "New in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
}
#: Directives describing one Python object (``.. function:: url_for(endpoint)``).
_PYTHON_OBJECTS = frozenset(
    [
        "function",
        "class",
        "method",
        "attribute",
        "data",
        "exception",
        "module",
        "decorator",
        "property",
    ]
)

_original_role = roles.role
_original_directive = directives.directive


def _role(name: str, language: Any, lineno: int, reporter: Any) -> tuple[Any, list[Any]]:
    found, messages = _original_role(name, language, lineno, reporter)
    return (found, messages) if found is not None else (_generic_role, [])


def _directive(name: str, language: Any, document: Any) -> tuple[Any, list[Any]]:
    if name.lower() in ("code-block", "sourcecode"):
        return CodeBlock, []
    if name.lower() in ("include", "literalinclude"):
        return _GenericDirective, []  # never a file read into the page
    found, messages = _original_directive(name, language, document)
    return (found, messages) if found is not None else (_GenericDirective, [])


roles.role = _role
directives.directive = _directive


#: docutils' inline literal, which an HTML converter reads as plain text.
_LITERAL = re.compile(r'<span class="docutils literal">(.*?)</span>', re.S)


def to_html(text: str, source: str) -> tuple[str, str]:
    """(title, HTML body) of the reStructuredText ``text`` (the file ``source``)."""
    from docutils.core import publish_parts

    parts = publish_parts(
        source=text, source_path=source, writer_name="html5", settings_overrides=_SETTINGS
    )
    body = _LITERAL.sub(r"<code>\1</code>", parts.get("body", ""))
    return _plain(parts.get("title", "")), body


def _plain(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()
