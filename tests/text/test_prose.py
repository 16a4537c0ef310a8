"""Reading Markdown lines as plain text: the fast paths answer as the straightforward
ones."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from kas_tui.text import prose


def every_pattern(text: str) -> str:
    """:func:`prose.inline_text` as it was written first: every pattern run on every
    line, whether or not the line holds its character (an escaped character held aside
    first, so that no markup reads it)."""
    text = prose.outside_code_spans(text, lambda part: prose._ESCAPED.sub(prose._hold, part))
    text = prose._COMMENT.sub(" ", text)
    text = prose.DOCFX_INCLUDE.sub(" ", text)
    text = prose._CALLOUT.sub(" ", text)
    text = prose._IMAGE.sub(" ", text)
    text = prose._LINK.sub(r"\1", text)
    text = prose._REF_LINK.sub(r"\1", text)
    text = prose._AUTOLINK.sub(" ", text)
    text = prose._FOOTNOTE.sub("", text)
    text = prose._SHORTCODE.sub(" ", prose._INLINE_ATTRS.sub("", text))
    text = prose.outside_code_spans(
        text, lambda part: prose._EMOJI.sub("", prose._ICON.sub(" ", part))
    )
    text = prose.outside_code_spans(text, lambda part: prose._HTML.sub(prose._tag_gap, part))
    text = prose._CODE.sub(r"\1", text)
    for _ in range(2):
        text = prose._EMPHASIS.sub(r"\2", text)
    text = prose._UNDERSCORED.sub(r"\1", text)
    text = prose._KEYS.sub(prose._key_names, text)
    text = prose._ENTITY.sub(prose._character, text)
    text = text.translate(prose._RELEASED).replace("\\|", "|")
    return prose._SPACES.sub(" ", text).strip()


MARKUP = st.one_of(
    st.sampled_from(list("ab <>[]()!`*_~\\&;#^-:/.\n\t")),
    st.sampled_from(
        [
            "<!--",
            "-->",
            "[!NOTE]",
            "](x.md)",
            "![i](p.png)",
            "<https://a.b>",
            "[^1]",
            "&amp;",
            "&lt;",
            "&nbsp;",
            "&mdash;",
            "&#8212;",
            "&#x2014;",
            "&nosuch;",
            "_x",
            "y_",
            "a_b",
            "**",
            "~~",
            "é",
            "中",
            "++",
            "+",
            "++ctrl+c++",
            "{{% param x %}}",
            "{{<",
            ">}}",
            "{.note}",
            ":material-a:",
            "[!INCLUDE[a](b.md)]",
            '<abbr title="x y">',
            "</abbr>",
            "<br>",
        ]
    ),
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(MARKUP, max_size=30).map("".join))
def test_inline_text_is_every_pattern_run(line):
    assert prose.inline_text(line) == every_pattern(line)


def test_a_tag_inside_emphasis_leaves_it_closed_and_keys_joined() -> None:
    """FastAPI's CLI page: "**FastAPI <abbr title="command line interface">CLI</abbr>**
    is a command line program" was described "*FastAPI CLI * is ...": the closing tag
    left a space before the ``**``, which then no longer closed."""
    line = '**FastAPI <abbr title="command line interface">CLI</abbr>** is a program.'
    assert prose.inline_text(line) == "FastAPI CLI is a program."
    assert prose.inline_text("Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to stop.") == (
        "Press Ctrl+C to stop."
    )
    assert prose.inline_text("One line<br>and the next.") == "One line and the next."


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_letters_are_counted_as_isalpha_counts_them(text):
    assert prose.letter_count(text) == sum(c.isalpha() for c in text)


def test_ascii_letters():
    assert prose.letter_count("Reset 2 passwords, then sign in!") == 24
    assert prose.letter_count("") == 0


def every_line(markdown: str, *, max_lines: int = 600) -> Iterator[prose.Block]:
    """:func:`prose.blocks` as it was written first: every line split off, a set made of
    each line's characters."""
    fence: str | None = None
    para: list[str] = []
    para_kind = "paragraph"
    in_comment = False
    opened: list[tuple[str, bool]] = []  # the containers open: (colons, body is text)

    def flush() -> Iterator[prose.Block]:
        nonlocal para
        if para:
            text = prose.inline_text(" ".join(para))
            if text:
                yield prose.Block(para_kind, text)
        para = []

    lines = markdown.split("\n")
    for n, raw in enumerate(lines):
        if n >= max_lines:  # the rest: its headings, out of code
            yield from flush()
            for rest in lines[n:]:
                if fence is not None:
                    fence = None if rest.strip().startswith(fence) else fence
                elif prose.FENCE.match(rest):
                    fence = prose.FENCE.match(rest).group(1)[:3]
                elif (
                    (heading := prose._HEADING.match(rest.rstrip()))
                    and "#" in rest[:4]
                    and (text := prose.heading_text(heading.group(2)))
                ):
                    yield prose.Block("heading", text, len(heading.group(1)))
            return
        line = raw.rstrip()
        if in_comment:
            if "-->" in line:
                in_comment = False
            continue
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        fenced = prose.FENCE.match(line)
        if fenced:
            yield from flush()
            fence = fenced.group(1)[:3]
            continue
        stripped = line.strip()
        container = prose._CONTAINER.match(stripped)
        if container:  # a Docusaurus or VitePress container: a callout's body is no text
            key = container.group(1)
            kind = (container.group(2) or container.group(3) or "").lower()
            if not kind and any(k == key for k, _text in opened):
                yield from flush()
                while opened and opened.pop()[0] != key:
                    pass
                continue
            if kind in prose._CONTAINER_CALLOUTS or kind in prose._CONTAINER_TEXT:
                yield from flush()
                opened.append((key, kind in prose._CONTAINER_TEXT))
                continue
        if opened and not opened[-1][1]:
            continue
        if stripped.startswith("<!--") and "-->" not in stripped:
            yield from flush()
            in_comment = True
            continue
        if not stripped or stripped.startswith("|") or set(stripped) <= set("-=*_ |:"):
            if para and prose._SETEXT.match(line) and stripped[0] in "=-" and len(para) == 1:
                level = 1 if stripped[0] == "=" else 2
                text = prose.inline_text(para[0])
                para = []
                if text:
                    yield prose.Block("heading", text, level)
                continue
            yield from flush()
            continue
        heading = prose._HEADING.match(line)
        if heading:
            yield from flush()
            text = prose.inline_text(heading.group(2))
            if text:
                yield prose.Block("heading", text, len(heading.group(1)))
            continue
        if prose._ADMONITION.match(stripped):
            yield from flush()
            continue
        if line.startswith(("    ", "\t")) and not para:
            continue  # an indented code block
        body = stripped.lstrip(">").strip() if stripped.startswith(">") else stripped
        item = prose._LIST.match(body)
        if item:
            yield from flush()
            para, para_kind = [body[item.end() :]], "item"
            continue
        if not para:
            para_kind = "paragraph"
        elif len(para) == 1 and prose._heading_line(para[0]) and body[:1].isupper():
            yield from flush()  # a title line glued to its text (PDF, plain text)
            para_kind = "paragraph"
        para.append(body)
    yield from flush()


LINES = st.sampled_from(
    [
        "",
        "   ",
        "# Title",
        "## Section ##",
        "Title line",
        "===",
        "---",
        "* * *",
        "| a | b |",
        "|---|---|",
        "- an item",
        "1. first",
        "> quoted text",
        "    indented code",
        "```python",
        "```",
        "~~~",
        "<!-- a comment",
        "-->",
        "<!-- short -->",
        "Plain prose with a [link](x.md) and `code`.",
        "Another sentence follows here.",
        "_ - = : |",
        '??? api "API Documentation"',
        "!!! note",
        "::: pydantic.fields",
        "    options:",
        ":::tip What You'll Learn",
        "::: details More",
        "::::warning[Careful]",
        "::::",
        ":::",
        "    [`pydantic.main.BaseModel`][pydantic.main.BaseModel]",
    ]
)


@settings(max_examples=1000, deadline=None)
@given(st.lists(LINES, max_size=40), st.integers(1, 45))
def test_blocks_are_read_as_every_line_was(lines, max_lines):
    markdown = "\n".join(lines)
    assert list(prose.blocks(markdown, max_lines=max_lines)) == list(
        every_line(markdown, max_lines=max_lines)
    )


def test_a_headings_attribute_list_is_not_its_text() -> None:
    """MkDocs sites (FastAPI's docs) write ``## Sponsors { #sponsors }``: the title and
    the sections a description names are "Sponsors", never "{ #sponsors }"."""
    page = "# FastAPI { #fastapi }\n\nIntro.\n\n## Sponsors { #sponsors }\n\n## Setup {: .note }\n"
    blocks = list(prose.blocks(page))
    assert [b.text for b in blocks if b.kind == "heading"] == ["FastAPI", "Sponsors", "Setup"]
    assert [b.text for b in prose.headings(page)] == ["FastAPI", "Sponsors", "Setup"]
    # braces that are words, not attributes, stay
    assert [b.text for b in prose.blocks("## Dict {key: value}\n")] == ["Dict {key: value}"]


def test_an_admonitions_first_line_is_no_paragraph() -> None:
    """pydantic's docs open a section with ``??? api "API Documentation"`` and the API
    links indented below it: the page's description was '??? api "API Documentation"
    pydantic.main...'. An admonition's body is read as an indented block."""
    page = (
        '# JSON\n\n## Json Parsing\n\n??? api "API Documentation"\n'
        "    [`pydantic.main.BaseModel.model_validate_json`][pydantic.main.BaseModel]\n\n"
        "Pydantic provides builtin JSON parsing.\n\n!!! note\n\n    Indented.\n"
    )
    texts = [b.text for b in prose.blocks(page) if b.kind == "paragraph"]
    assert texts == ["Pydantic provides builtin JSON parsing."]


def test_an_mkdocstrings_directives_options_are_no_paragraph() -> None:
    """pydantic's API pages are ``::: pydantic.fields`` with ``options:`` indented below:
    described as 'Pydantic.fields options: group_by_category: false members.'"""
    page = "::: pydantic.fields\n    options:\n      group_by_category: false\n"
    assert list(prose.blocks(page)) == []
    # a Docusaurus tip is a callout: its body, as ``!!! tip``'s, is no text of the page's
    tip = ":::tip What You'll Learn\n\n- How to set up a store\n\n:::\n\nThe store holds it.\n"
    assert [b.text for b in prose.blocks(tip)] == ["The store holds it."]


def test_keys_written_for_pymdownx_read_as_the_site_shows_them() -> None:
    """Textual's Button page: "by pressing ++return++ when it has focus"."""
    line = "Press ++ctrl+return++ or ++return++ when it has focus; 1 + 1 ++ 2."
    assert prose.inline_text(line) == ("Press Ctrl+Return or Return when it has focus; 1 + 1 ++ 2.")


def test_attribute_lists_are_no_words() -> None:
    """FastAPI's and SQLModel's links carry ``{.internal-link target=_blank}``: eight
    descriptions ended "...get help{.internal-link target=_blank}"."""
    line = "[help FastAPI and get help](help-fastapi.md){.internal-link target=_blank}."
    assert prose.inline_text(line) == "help FastAPI and get help."
    assert prose.inline_text("A paragraph. {: .note #top }") == "A paragraph."
    assert prose.inline_text("Format it as {name} or {0}.") == "Format it as {name} or {0}."


def test_a_pymdownx_callout_is_no_paragraph_but_a_tab_is() -> None:
    """``/// note`` ... ``///`` (pymdownx.blocks) is what ``!!! note`` was: SQLModel's
    databases page was described by its note, "Then you can skip to the next sections
    right away"."""
    md = (
        "# Databases\n\n/// tip\n\nThen you can skip to the next sections right away.\n\n///\n\n"
        "//// tab | Python 3.10+\n\nA tab holds the page's own words.\n\n////\n\n"
        "A database is a system to store and manage data in a structured way.\n"
    )
    assert [(b.kind, b.text) for b in prose.blocks(md)] == [
        ("heading", "Databases"),
        ("paragraph", "A tab holds the page's own words."),
        ("paragraph", "A database is a system to store and manage data in a structured way."),
    ]


def test_an_icon_shortcode_is_no_word() -> None:
    """Material's grid cards: ``-   :octicons-book-16:{ .lg .middle } __CSS Types__``."""
    assert prose.inline_text(":octicons-book-16:{ .lg .middle } __CSS Types__") == "CSS Types"
    assert prose.inline_text("Meet at 10:30: sharp") == "Meet at 10:30: sharp"


def test_a_table_without_outer_pipes_is_no_paragraph() -> None:
    """gohugoio/hugoDocs' glob patterns page: its table, written without outer pipes,
    was its description ("Images/foo/a.jpg|images/foo/.jpg|true ...", the ``*`` eaten as
    emphasis)."""
    from kas_tui.text import prose

    md = (
        "Pattern|Path|Match\n:--|:--|:--\nimages/foo/*.jpg|images/foo/a.jpg|true\n"
        "images/foo/*.jpg|images/foo/bar/a.jpg|false\n\nGlob patterns match paths.\n"
    )
    assert [b.text for b in prose.blocks(md)] == ["Glob patterns match paths."]
    # a pipe in a sentence, and a rule below a paragraph, are what they were
    said = [b.text for b in prose.blocks("Use a | b here.\nMore.\n\n---\n\nAfter.\n")]
    assert said == ["Use a | b here. More.", "After."]


def test_angle_brackets_inside_code_are_its_words() -> None:
    """facebook/metro's ``loadConfig(<options>)`` read "loadConfig( )": the brackets
    were taken for an HTML tag inside the code span."""
    from kas_tui.text import prose

    assert prose.inline_text("Call `loadConfig(<options>)` or <b>bold</b> text") == (
        "Call loadConfig(<options>) or bold text"
    )


def test_script_and_style_elements_are_code_not_words() -> None:
    """A VitePress page opens with ``<script setup>`` importing its components: its
    import line was the page's description."""
    from kas_tui.text import prose

    md = (
        "<script setup>\nimport Home from './Layout.vue'\n</script>\n\n<Home />\n\n"
        "Vite is fast.\n<style scoped>\n.a { color: red }\n</style>\nAfter.\n"
    )
    assert [b.text for b in prose.blocks(md)] == ["Vite is fast.", "After."]


def test_site_markup_is_no_words_of_a_page() -> None:
    """Debris the helpers found in real builds: Vue's heading ids with dots
    (``{#vue.js-privacy-policy}``), k3d's pymdownx.inlinehilite marks (`` `#!bash ...` ``),
    diamond-portal's emoji shortcodes (``:link:``)."""
    blocks = list(prose.blocks("# Vue.js Privacy Policy {#vue.js-privacy-policy}\n\nText.\n"))
    assert blocks[0].text == "Vue.js Privacy Policy"
    said = prose.inline_text("at creation time: `#!bash k3d cluster create x` and `#!/bin/sh`")
    assert said == "at creation time: k3d cluster create x and #!/bin/sh"
    said = prose.inline_text("Registration Tutorial :link:, How To :+1: done `a :b: c`")
    assert said == "Registration Tutorial, How To done a :b: c"
    assert prose.inline_text("std::vector::size at 12:30:00") == "std::vector::size at 12:30:00"


def test_docusaurus_and_vitepress_containers() -> None:
    """React Native's Dimensions page opens with an ``:::info`` callout, which
    described the page ("UseWindowDimensions is the preferred API ..."); a callout's
    body is no text of the page's own, a ``details``' is, and mkdocstrings' ``:::`` line
    opens nothing."""
    text = (
        ":::info\nUse the other API for components, as it updates with the window.\n:::\n\n"
        "You can get the window's width and height with the following code.\n\n"
        "::: details More\nThe details are the page's own words.\n:::\n\n"
        "::::warning[Careful]\n:::tip\nNested.\n:::\nStill the warning.\n::::\n\n"
        "::: pydantic.fields\n    options:\n      x: 1\n\nAfter the reference.\n"
    )
    assert [b.text for b in prose.blocks(text) if b.kind == "paragraph"] == [
        "You can get the window's width and height with the following code.",
        "The details are the page's own words.",
        "After the reference.",
    ]


def test_a_containers_title() -> None:
    """React Native's removed components are one ``:::danger[Removed from React
    Native]`` callout: their description quoted the marker."""
    assert prose.container_title(":::danger[Removed from React Native]") == (
        "Removed from React Native"
    )
    assert prose.container_title("::: tip Remember this") == "Remember this"
    assert prose.container_title(":::info") == "" and prose.container_title(":::") == ""
    assert prose.container_title("::: pydantic.fields") is None
    assert prose.container_title("Plain text") is None


def test_a_sentence_starts_with_a_capital_but_a_name_keeps_its_case() -> None:
    """grpc.io's home page was described "GRPC is a modern open source ...", k3d's
    "K3d is a lightweight wrapper ...": a capital misspells a name written in its own
    case."""
    from kas_tui.text.prose import sentence_start

    assert sentence_start("gRPC is a modern open source RPC framework.").startswith("gRPC ")
    for name in ("iOS 17 blocks it.", "macOS asks first.", "k3d runs k3s.", "eBPF maps."):
        assert sentence_start(name) == name
    assert sentence_start("configure the mailbox.") == "Configure the mailbox."
    assert sentence_start("e-mail the team.") == "E-mail the team."
    assert sentence_start("") == ""


def split_headings(markdown: str, max_lines: int) -> list[prose.Block]:
    """:func:`prose.headings` as it was written first: the whole text split into lines."""
    out: list[prose.Block] = []
    fence: str | None = None
    for n, line in enumerate(markdown.split("\n")):
        if n >= max_lines:
            break
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            marker = stripped[:3]
            fence = None if fence == marker else (fence or marker)
            continue
        if fence is None and stripped.startswith("#"):
            match = prose._HEADING.match(line)
            if match:
                text = prose.heading_text(match.group(2))
                if text:
                    out.append(prose.Block("heading", text, len(match.group(1))))
    return out


HEADING_LINES = st.sampled_from(
    [
        "# Title",
        "## Setup",
        "### Deep `code`",
        "#no space",
        "  # indented",
        "```",
        "~~~",
        "text",
        "",
        "#",
        "# ",
        "####### seven",
        "# Trailing #",
        "    ```sh",
        "\u00a0# no-break space before",
        "\t~~~",
        "\x1c# a separator is white space to lstrip",
        "# ends in CR\r",
        "\r",
        " \u2003```",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(HEADING_LINES, max_size=25).map("\n".join), st.integers(0, 30))
def test_headings_read_line_by_line_as_split_lines_read(markdown, max_lines):
    expected = split_headings(markdown, max_lines)
    assert prose.headings(markdown, max_lines=max_lines) == expected
    assert [b for b, _text in prose.sections(markdown, max_lines=max_lines)] == expected
    for level in (1, 2):
        first = next((b.text for b in expected if b.level == level), "")
        assert prose.first_heading(markdown, level, max_lines=max_lines) == first


def test_first_heading_stops_at_the_first():
    page = "intro\n```\n# not a heading: code\n```\n# Install the agent\n" + "x\n" * 100_000
    assert prose.first_heading(page) == "Install the agent"
    assert prose.first_heading("## Only a section\n") == ""


def test_sections_are_the_headings_with_the_text_under_each() -> None:
    md = "# T\n\nintro\n\n## A\n\ntext a\n| x |\n\n```\n# not a heading\n```\n## B\n### C\nc text\n"
    got = [(b.text, b.level, t) for b, t in prose.sections(md)]
    assert got == [
        ("T", 1, "intro"),
        ("A", 2, "text a\n| x |\n\n```\n# not a heading\n```"),
        ("B", 2, ""),
        ("C", 3, "c text"),
    ]
    assert [b for b, _t in prose.sections(md)] == prose.headings(md)
    # read no further than the headings are
    assert prose.sections("## A\nx\ny\nz\n## B\nq", max_lines=3) == [
        (prose.Block("heading", "A", 2), "x\ny")
    ]


def test_underscore_emphasis_and_character_references_read_as_shown() -> None:
    """jekyll/jekyll's pages: "With many websites &mdash; especially blogs &mdash; it's
    very common..." and "_The Jekyll Core Team's responsibility is..._" were described
    with the reference and the underscores as written."""
    text = prose.inline_text("With many websites &mdash; especially blogs &#8212; it&#x2019;s")
    assert text == "With many websites — especially blogs — it’s"
    assert prose.inline_text("_The Core Team's job_ is to ensure it thrives.") == (
        "The Core Team's job is to ensure it thrives."
    )
    # a name with underscores, a reference that names nothing, "&" without ";" stay
    for kept in ("set max_line_length to 88", "a_b_c", "R&D &nosuch; AT&T"):
        assert prose.inline_text(kept) == kept


def test_a_definition_list_is_items_not_a_paragraph() -> None:
    """Hugo's config pages (and kramdown's, Python-Markdown's def_list) write settings as
    a term over ": its definition": read as one paragraph, "`auth`" and its text became
    the description "Auth : : (string) Configures GOAUTH..."."""
    md = "Intro text here.\n\n`auth`\n: (`string`) Configures GOAUTH.\n: More.\n\nA: b\nc: d\n"
    got = [(b.kind, b.text) for b in prose.blocks(md)]
    assert got == [
        ("paragraph", "Intro text here."),
        ("item", "auth"),
        ("item", "(string) Configures GOAUTH."),
        ("item", "More."),
        ("paragraph", "A: b c: d"),  # a colon inside a line is no definition
    ]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="#`~ \t\n\r\u00a0\u2003\x1c\x85ab", max_size=80), st.integers(0, 12))
def test_headings_of_any_text_are_the_line_by_line_ones(markdown, max_lines):
    assert prose.headings(markdown, max_lines=max_lines) == split_headings(markdown, max_lines)


def test_a_wikilink_reads_as_its_words_and_a_citation_link_stays() -> None:
    """A description drafted from a vault's page read "See [[The basics]]"; the PEPs'
    ``[[1]](#footnote-1)`` citations and a code span are no wikilinks."""
    assert prose.inline_text("See [[The basics]] and [[Note#Part|the part]].") == (
        "See The basics and the part."
    )
    assert prose.inline_text("A ![[a.png|300]] [[Note#H]] [[a\\|b]] [[a|]]").split() == [
        "A",
        "Note",
        "b",
        "a",
    ]
    assert prose.inline_text("as Twisted [[1]](#footnote-1) does") == (
        "as Twisted [[1]](#footnote-1) does"
    )
    assert prose.inline_text("`[[packages]]`") == "[[packages]]"


def test_a_footnote_mark_goes_but_a_regex_class_stays() -> None:
    """wp-cli's Behat steps are titled by their regex: ``Given /^a WP( [^\\s]+)? ...``
    lost its ``[^\\s]`` (21 titles), taken for a footnote's mark."""
    title = "Given /^a WP( [^\\s]+)? install(?:ation)? in (.+)$/"
    assert prose.inline_text(title) == title
    assert prose.inline_text("matched by [^a-z] patterns") == "matched by [^a-z] patterns"
    assert prose.inline_text("as noted[^1] and again.[^note-2]") == "as noted and again."


def test_a_line_that_leaves_a_link_open_is_no_title_glued_to_its_text() -> None:
    text = "If you have been [set up in\nConcur](/first-time), received your card.\n"
    assert [b.text for b in prose.blocks(text)] == [
        "If you have been set up in Concur, received your card."
    ]
    for opened in ("See the (old\nConfig) page now.", "Run `make\nInstall` first."):
        assert len(list(prose.blocks(opened))) == 1
    assert [b.kind for b in prose.blocks("Short Title\nThe text under it.")] == [
        "paragraph",
        "paragraph",
    ]


def test_an_escaped_character_is_that_character_never_markup() -> None:
    """vuejs/docs: ``# \\<script setup> {#script-setup}`` was titled from its file name
    ("Sfc script setup": the escaped tag read as a tag, leaving a lone backslash) and
    ``## PropType\\<T>`` described "PropType\\"."""
    assert prose.heading_text("\\<script setup> {#script-setup}") == "<script setup>"
    assert prose.heading_text("`<script setup>` \\*\\*") == "<script setup> **"
    assert prose.inline_text("PropType\\<T>, MaybeRef\\<T>") == "PropType<T>, MaybeRef<T>"
    assert prose.inline_text("\\_not emphasis\\_ and \\*none\\*") == "_not emphasis_ and *none*"
    assert prose.inline_text("`a\\*b` stays") == "a\\*b stays"  # no escape in code


def test_a_long_pages_later_sections_are_read_for_their_headings() -> None:
    """Flask's API page, its classes' docstrings read by autodoc, is 4,600 lines; its
    sections after the first 600 (Blueprint Objects, Incoming Request Data...) went
    unread, and its description named one section."""
    filler = "\n\n".join(f"Paragraph {n} of the Flask class." for n in range(400))
    text = (
        f"# API\n\n## Application Object\n\n{filler}\n\n```python\n# not a heading\n```\n\n"
        "## Blueprint Objects\n\nA paragraph past the lines read whole.\n\n~~~\n## code\n"
    )
    later = list(prose.blocks(text))[-2:]
    assert later[-1] == prose.Block("heading", "Blueprint Objects", 2)
    assert not [b for b in later if "past the lines" in b.text or "not a heading" in b.text]
    assert [b.text for b in prose.blocks(text) if b.kind == "heading"] == [
        "API",
        "Application Object",
        "Blueprint Objects",
    ]
