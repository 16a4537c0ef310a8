"""reStructuredText read as its Sphinx site shows it: through docutils to HTML, then to
Markdown the way every other web page is (MarkItDown's HTML converter).

Sphinx adds roles and directives docutils does not know; a page is full of them
(``:class:`~flask.Flask```, ``:doc:`installation```, ``.. versionadded:: 2.0``,
``.. autofunction:: flask.url_for``). Unknown to docutils, each became an error in the
page, so they are read generically here: a role shows its text as a MyST page's does
(:mod:`.myst_refs`: ``~flask.Flask`` as ``Flask``, a cross-reference or ``:abbr:`` as
words, any other as code), ``:doc:`` links to the page it names (the build rewrites
the link), a directive shows its argument and content, ``code-block`` is a code block,
and a ``toctree`` is left to the TOC reader (:mod:`.toc_sphinx`). ``.. include::`` and
``.. literalinclude::`` show the file they name when the page is read with an
:class:`~.rst_includes.IncludeReader` (a build's: files of its source only), else say
what they include. Nothing docutils reports reaches the page or the terminal.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives, roles
from docutils.parsers.rst.directives.body import CodeBlock

from kas_tui.features.importing.autodoc import AUTODOC, autodoc_text, autosummary_lines
from kas_tui.features.importing.convert_model import STD_READING, RstReading
from kas_tui.features.importing.myst_directives import VERSIONS
from kas_tui.features.importing.myst_refs import WORD_ROLES, XREF_ROLES, shown
from kas_tui.features.importing.rst_html import listing_translator
from kas_tui.features.importing.rst_includes import PART_OPTIONS, IncludeReader, lines_picked
from kas_tui.features.importing.toc_formats import URL
from kas_tui.features.importing.toc_sphinx import TITLED

#: Settings for every page: no messages in the output or on stderr, no file read.
_SETTINGS = {
    "report_level": 5,
    "halt_level": 5,
    "warning_stream": False,
    "file_insertion_enabled": False,
    "raw_enabled": False,
    "syntax_highlight": "none",
    # a heading is no link back to a ``.. contents::`` list (ansible's 2,137 headings
    # linked to #toc-entry-N anchors nothing in the page has)
    "toc_backlinks": "none",
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
    added: RstReading = getattr(inliner.document.settings, "kas_roles", None) or STD_READING
    extlink = added.extlink(role)
    if extlink is not None:  # conf.py's extlinks: :ticket:`123` is an address
        return [_extlink(rawtext, label if titled else None, target.strip(), *extlink)], []
    if role == "doc":  # a link to the page, which the build rewrites to its document
        reader = getattr(inliner.document.settings, "kas_includes", None)
        link = f"{target.strip()}.rst"
        if isinstance(reader, IncludeReader):
            source, _line = inliner.reporter.get_source_and_line(lineno)
            target = reader.without_suffix(target.strip())
            if not reader.doc_found(target, str(source)):  # another project's page: the
                # build shows its words and counts it among the references naming none
                return [nodes.Text("{doc}"), nodes.literal(rawtext, text)], []
            if not titled:  # Sphinx shows its title
                label = reader.doc_title(target, str(source)) or label
            link = reader.doc_link(target, str(source)) or f"{target}.rst"
        return [nodes.reference(rawtext, shown(label), refuri=link)], []
    if (role in _RESOLVED or role in added.object_roles) and isinstance(
        getattr(inliner.document.settings, "kas_includes", None), IncludeReader
    ):  # in a build: written as MyST's role, which the build resolves to the target's
        # link and title as it does a MyST page's (:mod:`.myst_refs`)
        return [nodes.Text(f"{{{role}}}"), nodes.literal(rawtext, text)], []
    if role in XREF_ROLES or role in WORD_ROLES:  # as a MyST page's (:mod:`.myst_refs`)
        return [nodes.Text(shown(label))], []
    return [nodes.literal(rawtext, shown(label))], []


#: Cross-references a build resolves through the source's labels, terms and pages (and
#: the object types its project adds: :class:`.RstReading`).
_RESOLVED = frozenset({"ref", "numref", "any", "term"})


def _extlink(
    rawtext: str, label: str | None, part: str, url: str, caption: str | None
) -> nodes.Node:
    """An extlinks role as Sphinx shows it: a link to ``url`` with its ``%s`` the role's
    text, shown as ``label`` when titled, else as ``caption`` (the address without one)."""
    address = _formatted(url, part)
    words = label if label is not None else _formatted(caption, part) if caption else address
    return nodes.reference(rawtext, words, refuri=address)


def _formatted(pattern: str, part: str) -> str:
    """``pattern`` with its ``%s`` as ``part`` (``%%`` a ``%``), as Python's ``%`` does."""
    return "%".join(piece.replace("%s", part) for piece in pattern.split("%%"))


class _AnyOptions(dict):
    """An option spec that takes every option, as its words."""

    def __contains__(self, key: object) -> bool:
        return True

    def __bool__(self) -> bool:  # docutils reads a directive's options only when it has some
        return True

    def __getitem__(self, key: str) -> Any:
        return directives.unchanged


#: Most autodoc directives one page shows (what docstrings name read in too).
_MOST_AUTODOC = 2000


class _GenericDirective(Directive):
    """A Sphinx directive docutils does not know: its argument, then its content."""

    required_arguments = 0
    optional_arguments = 100
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOptions()

    def run(self) -> list[nodes.Node]:
        name = self.name.rsplit(":", 1)[-1].lower()
        if name == "toctree":
            return self._toctree()
        added = getattr(self.state.document.settings, "kas_roles", None) or STD_READING
        if added.target_role(name) is not None and not added.shows(name):
            return self._content()  # .. setting:: DEBUG: a target, which shows nothing
        argument = " ".join(self.arguments).strip()
        if name in ("currentmodule", "module"):  # what autodoc's names are relative to
            self._current_module("" if argument == "None" else argument)
        if name in _NO_TEXT:
            return []  # the rest is no text
        out: list[nodes.Node] = []
        if name in AUTODOC and argument and self._autodoc(name, argument):
            return []  # its object's description, read next
        extension = name.startswith("auto") and name not in _NOT_AUTODOC  # .. autoconfigurable::
        if extension and argument and self._autodoc(name, argument, like="autoclass"):
            return []  # an extension's autodoc of a class, read as autoclass
        if name == "include" or name == "literalinclude":
            return self._included(name, argument)
        if name == "autosummary":  # the names it summarises, a list (numpy's 238 tables)
            return self._autosummary()
        if argument and name in VERSIONS:  # "New in version 2.0: The --app option."
            version, _sp, said = argument.partition(" ")
            text, _messages = self.state.inline_text(f"{VERSIONS[name]} {version}: {said}", 0)
            out.append(nodes.paragraph("", "", *text))
        elif argument and (
            name.startswith("auto") or name in _PYTHON_OBJECTS or added.target_role(name)
        ):
            shown = _ANNOTATED.get(name.removeprefix("auto"), "") + argument  # the API named
            out.append(nodes.paragraph("", "", nodes.literal("", shown)))
        elif argument:
            text, _messages = self.state.inline_text(argument, 0)
            out.append(nodes.paragraph("", f"{name.capitalize()}: ", *text))
        if name in ("class", "exception") and argument:  # what its automethod:: names
            document = self.state.document
            outer = getattr(document, "kas_class", "")
            document.kas_class = argument.split("(", 1)[0].strip().rsplit(".", 1)[-1]
            try:
                return out + self._content()
            finally:
                document.kas_class = outer
        if not out and not self.content:  # pip's .. pip-requirements-file-options-ref-list::
            self._note(
                f".. {name}::",
                "it has no text of its own: an extension conf.py loads draws what the "
                "site shows there, and kas-tui never runs extensions",
            )
        return out + self._content()

    def _current_module(self, module: str) -> None:
        """What the names autodoc reads next are relative to, for this page and for the
        build's reader (a MyST page's next ``{eval-rst}`` block goes on from it)."""
        self.state.document.kas_module = module
        reader = getattr(self.state.document.settings, "kas_includes", None)
        if isinstance(reader, IncludeReader):
            reader.module = module

    def _note(self, directive: str, why: str) -> None:
        """Says, by line, that ``directive`` is not shown, and why (in a build)."""
        reader = getattr(self.state.document.settings, "kas_includes", None)
        if isinstance(reader, IncludeReader):
            current, offset = self.state_machine.input_lines.info(
                self.lineno - self.state_machine.input_offset - 1
            )
            reader.note((offset or 0) + 1, str(current), directive, why)

    def _autodoc(self, name: str, argument: str, like: str = "") -> bool:
        """Whether the autodoc directive ``name`` reads its object's description into the
        page (:mod:`.autodoc`, from the source's Python files): when the page is read
        with a build's :class:`.IncludeReader`, and the source defines the object. An
        extension's own (``like``: the autodoc directive it is read as) says nothing
        when it cannot: what it shows is its extension's."""
        reader = getattr(self.state.document.settings, "kas_includes", None)
        if not isinstance(reader, IncludeReader):
            return False
        added = getattr(self.state.document.settings, "kas_roles", None) or STD_READING
        current, offset = self.state_machine.input_lines.info(
            self.lineno - self.state_machine.input_offset - 1
        )
        document = self.state.document
        seen: set[str] = document.__dict__.setdefault("kas_autodoc", set())
        within = "" if name == "automodule" else getattr(document, "kas_module", "")
        key = f"{within}:{name}:{argument}"  # a module's name is whole, others relative
        if key in seen or len(seen) >= _MOST_AUTODOC:  # a docstring naming itself: no loop
            why = (
                "it is shown above on this page (named twice, or by a docstring of its own)"
                if key in seen
                else f"the page shows {_MOST_AUTODOC} of them already"
            )
            reader.note((offset or 0) + 1, str(current), f".. {name}:: {argument}", why)
            return False
        seen.add(key)
        shown = autodoc_text(
            like or name,
            argument,
            {**added.autodoc_options, **self.options},
            list(self.content),
            getattr(self.state.document, "kas_module", ""),
            getattr(self.state.document, "kas_class", ""),
            reader.root,
            reader.python_roots(str(current), added.python_paths),
            added.autodoc_order,
        )
        if isinstance(shown, str):
            if not like:
                reader.note((offset or 0) + 1, str(current), f".. {name}:: {argument}", shown)
            return False
        if name == "automodule":  # the module of what the page names next, as .. module::
            self._current_module(argument)
        self.state_machine.insert_input(shown, f"{current} ({name} {argument})")
        return True

    def _autosummary(self) -> list[nodes.Node]:
        """An autosummary table as a list: each name with its signature and summary
        when the page is read by a build's :class:`.IncludeReader` and the source defines
        it (:func:`.autodoc.autosummary_lines`), else its name alone. The pages Sphinx
        generates for a ``:toctree:`` are not built: a note says so."""
        names = [
            line.strip()
            for line in self.content
            if line.strip() and not line.strip().startswith(":")
        ]  # not its options (:toctree: generated/)
        reader = getattr(self.state.document.settings, "kas_includes", None)
        if not names:
            return []
        if not isinstance(reader, IncludeReader):
            items = nodes.bullet_list(bullet="-")
            for entry in names:
                items += nodes.list_item("", nodes.paragraph("", "", nodes.literal("", entry)))
            return [items]
        added = getattr(self.state.document.settings, "kas_roles", None) or STD_READING
        current, _offset = self.state_machine.input_lines.info(
            self.lineno - self.state_machine.input_offset - 1
        )
        if "toctree" in self.options:
            self._note(
                f".. autosummary:: :toctree: {self.options.get('toctree') or ''}".rstrip(),
                f"the {len(names)} pages Sphinx generates there are not built; its table is "
                "(each name with its signature and summary)",
            )
        document = self.state.document
        seen: set[str] = document.__dict__.setdefault("kas_autodoc", set())
        room = max(0, _MOST_AUTODOC - len(seen))  # the page's objects read: one budget
        shown = autosummary_lines(
            names,
            getattr(document, "kas_module", ""),
            reader.root,
            reader.python_roots(str(current), added.python_paths),
            room,
        )
        seen.update(f"autosummary:{n}:{name}" for n, name in enumerate(names[:room]))
        if len(names) > room:
            self._note(
                f"the summaries of {len(names) - room:,} names of .. autosummary::",
                f"the page reads {_MOST_AUTODOC:,} objects at most; their names are shown",
            )
        self.state_machine.insert_input(["", *shown, ""], f"{current} (autosummary)")
        return []

    def _content(self) -> list[nodes.Node]:
        """The directive's content, read as the page's text."""
        if not self.content:
            return []
        box = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, box)
        return [box]

    def _toctree(self) -> list[nodes.Node]:
        """What a toctree shows on its page, as Sphinx's HTML does: its caption, then a
        list of links to the pages it names, each titled by its page (or as the entry
        titles it); nothing when ``:hidden:``, and for a ``:glob:`` pattern or ``self``.
        The TOC reader (:mod:`.toc_sphinx`) reads the same entries for the tree; shown,
        a landing page whose only text is its toctree (packaging.python.org's
        "Installation") says what it leads to."""
        if "hidden" in self.options:
            return []
        reader = getattr(self.state.document.settings, "kas_includes", None)
        current, _offset = self.state_machine.input_lines.info(
            self.lineno - self.state_machine.input_offset - 1
        )
        items = nodes.bullet_list(bullet="-")
        for line in self.content:
            entry = line.strip()
            if not entry or entry == "self" or ("glob" in self.options and "*" in entry):
                continue
            titled = TITLED.match(entry)
            label, target = (titled.group(1), titled.group(2).strip()) if titled else ("", entry)
            if URL.match(target):
                link = nodes.reference("", label or target, refuri=target)
            else:
                refuri = f"{target}.rst"
                if isinstance(reader, IncludeReader):
                    target = reader.without_suffix(target)  # an entry written "x.rst"
                    label = label or reader.doc_title(target, str(current)) or ""
                    refuri = reader.doc_link(target, str(current)) or f"{target}.rst"
                link = nodes.reference("", shown(label or target), refuri=refuri)
            items += nodes.list_item("", nodes.paragraph("", "", link))
        if not len(items):
            return []
        caption = str(self.options.get("caption") or "").strip()
        return [*([nodes.paragraph("", "", nodes.strong("", caption))] if caption else []), items]

    def _included(self, name: str, argument: str) -> list[nodes.Node]:
        """What an include directive shows: the file's text parsed into the page (a
        ``literalinclude``'s, or an ``include``'s with ``:literal:`` or ``:code:``, as a
        code block), or the words "Includes x." when it is not read."""
        if not argument or (argument.startswith("<") and argument.endswith(">")):
            return []  # docutils' own substitution sets (<isonum.txt>): no text
        reader = getattr(self.state.document.settings, "kas_includes", None)
        current, offset = self.state_machine.input_lines.info(
            self.lineno - self.state_machine.input_offset - 1
        )  # the file the directive is in, an included one's own, and its line there
        if not isinstance(reader, IncludeReader):
            return [nodes.paragraph("", f"Includes {argument}.")]
        shown_as_code = "code" in self.options or "literal" in self.options  # PEP 12's template
        own = (
            reader.own_page(argument, str(current))
            if name == "include" and not shown_as_code
            else None
        )
        if own is not None:  # a page of its own: linked, as its text is there (sqlalchemy's
            # changelogs each included the one before, 5 MB a page)
            title = reader.doc_title(reader.without_suffix(own), str(current)) or own
            link = nodes.reference("", title, refuri=own)
            return [nodes.paragraph("", "See ", link, nodes.Text("."))]
        part = any(key in self.options for key in PART_OPTIONS)
        found = reader.text(argument, str(current), part)
        text = lines_picked(found[0], dict(self.options)) if isinstance(found, tuple) else None
        if text is None:
            why = (
                found
                if isinstance(found, str)
                else "the text its options start or end at is not in it"
            )
            reader.note((offset or 0) + 1, str(current), f".. {name}:: {argument}", why)
            return [nodes.paragraph("", f"Includes {argument}.")]
        language = self.options.get("language") or self.options.get("code")
        if name == "literalinclude" or "literal" in self.options or "code" in self.options:
            block = nodes.literal_block(text, text)
            block["classes"] += ["code", *([language.strip()] if language else [])]
            return [block]
        assert isinstance(found, tuple)
        self.state_machine.insert_input(text.split("\n"), found[1])
        return []


#: Directives that show nothing on the page: conditions,
#: and what sets the context of what follows (``.. currentmodule:: flask`` opening
#: Flask's API pages was "Currentmodule: flask", above the title, which then named no
#: page), who wrote it, what the index lists, or how the theme styles what follows
#: (``.. rst-class:: hide-header`` over Flask's home page title: "Rst-class:
#: hide-header", and the page titled "Index" by its file).
#: Directives named auto* that describe no Python object autodoc reads.
_NOT_AUTODOC = frozenset({"autosummary", "autoprogram", "autosectionlabel"})
_NO_TEXT = frozenset(
    {"only", "ifconfig", "tabularcolumns", "highlight", "index", "rst-class"}
    | {"currentmodule", "module", "sectionauthor", "moduleauthor", "codeauthor"}
    | {"todo", "spelling", "default-domain", "program"}
)
#: Directives describing one Python object (``.. function:: url_for(endpoint)``), or one
#: of Sphinx's other descriptions (``.. option:: -v``, ``.. describe:: PAPER``): the
#: signature shown as code.
_PYTHON_OBJECTS = frozenset(
    {"function", "class", "method", "attribute", "data", "exception", "module"}
    | {"decorator", "property", "classmethod", "staticmethod", "type", "option", "describe"}
    | {"object", "cmdoption"}
)

#: What Sphinx's HTML writes before an object's name, by its directive (a function's,
#: method's, attribute's: nothing).
_ANNOTATED = {
    "class": "class ",
    "exception": "exception ",
    "property": "property ",
    "classmethod": "classmethod ",
    "staticmethod": "static ",
    "decorator": "@",
}

_original_role = roles.role
_original_directive = directives.directive


def _role(name: str, language: Any, lineno: int, reporter: Any) -> tuple[Any, list[Any]]:
    found, messages = _original_role(name, language, lineno, reporter)
    return (found, messages) if found is not None else (_generic_role, [])


def _directive(name: str, language: Any, document: Any) -> tuple[Any, list[Any]]:
    if name.lower() in ("code-block", "sourcecode"):
        return CodeBlock, []
    if name.lower() == "class":  # Sphinx's Python class (docutils' is its rst-class)
        return _GenericDirective, []
    if name.lower() in ("include", "literalinclude"):
        return _GenericDirective, []  # never a file read into the page
    found, messages = _original_directive(name, language, document)
    return (found, messages) if found is not None else (_GenericDirective, [])


roles.role = _role
directives.directive = _directive


#: docutils' inline literal, which an HTML converter reads as plain text.
_LITERAL = re.compile(r'<span class="docutils literal">(.*?)</span>', re.S)
#: The pieces docutils' HTML wraps a literal's hyphenated words in (``python -m pip`` is
#: ``<span class="pre">python</span> <span class="pre">-m</span> ...``), which left the
#: literal's first ``</span>`` closing it: "`python -m` pip".
_PRE = re.compile(r'<span class="pre">([^<]*)</span>')


#: docutils' PEP format: RFC 2822 headers open the file (``PEP: 8``, ``Title: Style
#: Guide for Python Code``, an ``Author:`` continued on indented lines, an empty
#: ``Post-History:``), then a blank line.
#: Each line matches one way only (a value, or spaces alone), so a file of header-shaped
#: lines with trailing spaces and no blank line after them fails at once: with a value's
#: trailing spaces claimable twice, 25 such lines took longer than anyone waits.
_HEADERS = re.compile(
    r"\A(?:[A-Za-z][\w-]*:(?:[ \t]+\S[^\n]*|[ \t]*)\n(?:[ \t]+\S[^\n]*\n)*){2,}(?=[ \t]*\n)"
)


def _with_headers(text: str) -> tuple[str | None, str]:
    """The page's title from its PEP headers, and ``text`` with them as a field list
    (docutils reads them only in a PEP reader): python/peps' 753 pages were each a
    paragraph of headers titled by the file's name ("Pep 0008"). The title is the one
    the site shows ("PEP 8 – Style Guide for Python Code"). ``(None, text)`` without a
    ``Title:`` header."""
    found = _HEADERS.match(text)
    if found is None:
        return None, text
    fields = dict(
        (line.split(":", 1)[0], line.split(":", 1)[1].strip())
        for line in found.group().splitlines()
        if line[:1].strip()
    )
    title = " ".join(fields.get("Title", "").split())
    if not title:
        return None, text
    number = fields.get("PEP", "").strip()
    title = f"PEP {number} – {title}" if number.isdigit() else title
    lines = found.group().splitlines(keepends=True)
    listed = "".join(f":{line}" if line[:1].strip() else line for line in lines)
    return title, listed + text[found.end() :]


def to_html(
    text: str,
    source: str,
    includes: IncludeReader | None = None,
    roles: RstReading = STD_READING,
    fragment: bool = False,
) -> tuple[str, str]:
    """(title, HTML body) of the reStructuredText ``text`` (the file ``source``), its
    include directives read by ``includes`` (none read without one), the roles and
    object types its project adds and the text it reads the page with (its project's
    ``rst_prolog`` before, ``rst_epilog`` after) as ``roles`` says; a page in the PEP format is titled
    by its headers (:func:`_with_headers`); a page whose first section comes after other
    text (an include, a sidebar) by that section's heading, as Sphinx titles it. A
    ``fragment`` (a Markdown page's ``{eval-rst}`` block) has no title, headers or
    prolog: its headings are its sections."""
    from docutils.writers import html5_polyglot

    headed, text = _with_headers(text) if not fragment else (None, text)
    page = includes.relative(source) if includes is not None and not fragment else None
    before, after = roles.texts_for(page) if page is not None else ("", "")
    if includes is not None and before:  # a note's line is the page's own
        includes.page, includes.lines_before = source, before.count("\n") + 1
    text = "\n".join(t for t in (before, text, after) if t)
    writer = html5_polyglot.Writer()
    writer.translator_class = listing_translator(html5_polyglot.HTMLTranslator)
    settings = {**_SETTINGS, "kas_includes": includes, "kas_roles": roles}
    # a PEP's headers stay in the page, a list (its status, its type), not docinfo
    settings["docinfo_xform"] = not headed and not fragment
    settings["doctitle_xform"] = not fragment
    parts = _published(text, source, writer, settings)
    body = _LITERAL.sub(r"<code>\1</code>", _PRE.sub(r"\1", parts.get("body", "")))
    subtitle = parts.get("subtitle", "")
    if subtitle:  # a page's one section, which docutils makes the title's subtitle
        body = f"<h2>{_plain(subtitle)}</h2>\n{body}"
    title = headed or _plain(parts.get("title", ""))
    if not title:  # a section after other text: Sphinx's title is still its heading
        first = re.search(r"<h2>(.*?)</h2>", body, re.S)
        title = _plain(first.group(1)) if first else ""
    return title, body


#: A substitution docutils cannot define inside another's definition (``.. |x|
#: replace:: Enable |br| mode``, ``|br|`` a ``raw:: html`` one, never read here) fails
#: the whole page with a ``KeyError``; each is read as nothing, at most this many.
_MISSING_SUBSTITUTIONS = 8


def _published(text: str, source: str, writer: Any, settings: dict[str, Any]) -> dict:
    from docutils.core import publish_parts

    for _attempt in range(_MISSING_SUBSTITUTIONS):
        try:  # a writer, not its name: docutils 0.22 warns on writer_name
            return publish_parts(
                source=text, source_path=source, writer=writer, settings_overrides=settings
            )
        except KeyError as exc:
            name = exc.args[0] if exc.args and isinstance(exc.args[0], str) else ""
            if not name or "|" in name or "\n" in name:
                raise
            text += f"\n\n.. |{name}| replace:: \\ \n"
    return publish_parts(
        source=text, source_path=source, writer=writer, settings_overrides=settings
    )


def _plain(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip())
