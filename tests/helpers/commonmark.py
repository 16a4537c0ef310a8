"""Markdown to test the body scanner on: a Hypothesis grammar of Markdown (:func:`bodies`)
and the 652 examples of the CommonMark spec (``tests/data/commonmark/README.md`` says
where from), with the contexts each example is also placed in."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import strategies as st

WORDS = ["alpha", "beta", "x", "ü", "a_b", "foo*bar", "C#", "1.", "+", "-", "#", "|", "=", "~"]
DESTS = [
    "a.md",
    "/b/c.md#frag",
    "../up.md",
    "https://example.com/x?y=1",
    "<a b.md>",
    "a(b).md",
    "a\\)b.md",
    "café.md",
    "a%20b.md",
    "%zz",
    "&amp;x",
    "mailto:x@y.z",
    "C:\\x",
    "",
    "(a",
]
TITLES = ["", ' "t"', " 't'", " (t)", ' "t\n t"', ' "bad']
LABELS = ["ref", "Ref", "r  ef", "ünï", "^1", "x y"]
FOOTNOTES = ["1", "a", "note", "src-2"]

word = st.sampled_from(WORDS)


@st.composite
def inline(draw, depth=0):
    parts = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.integers(0, 20))
        if kind < 5:
            parts.append(" ".join(draw(st.lists(word, min_size=1, max_size=3))))
        elif kind == 5:
            text = draw(inline(depth + 1)) if depth < 1 else draw(word)
            parts.append(f"[{text}]({draw(st.sampled_from(DESTS))}{draw(st.sampled_from(TITLES))})")
        elif kind == 6:
            parts.append(f"![{draw(word)}]({draw(st.sampled_from(DESTS))})")
        elif kind == 7:
            label = draw(st.sampled_from(LABELS))
            parts.append(
                draw(st.sampled_from([f"[{draw(word)}][{label}]", f"[{label}][]", f"[{label}]"]))
            )
        elif kind == 8:
            parts.append(f"[^{draw(st.sampled_from(FOOTNOTES))}]")
        elif kind == 9:
            code = draw(st.sampled_from(["code", "[a](b.md)", " x ", "a\nb", "[^1]"]))
            parts.append(draw(st.sampled_from(["`", "``"])) + code + "`")
        elif kind == 10:
            inner = draw(st.sampled_from(["https://auto.ex/x", "a@b.co", "span", "!-- [c](d) --"]))
            parts.append(f"<{inner}>")
        elif kind == 11:
            parts.append(
                draw(st.sampled_from(["*", "_", "**"]))
                + draw(word)
                + draw(st.sampled_from(["*", "_", ""]))
            )
        elif kind == 12:
            parts.append(
                draw(
                    st.sampled_from(
                        [
                            "[",
                            "]",
                            "(",
                            ")",
                            "![",
                            "\\[",
                            "\\",
                            "&amp;",
                            "&#91;",
                            "<",
                            "  \n",
                            "\n",
                            "\\\n",
                        ]
                    )
                )
            )
        elif kind == 13:
            parts.append(f"[{draw(word)}\n{draw(word)}]({draw(st.sampled_from(DESTS))})")
        elif kind == 14:
            parts.append(f"<!-- {draw(word)}\n[x](y) -->")
        elif kind == 15:
            parts.append(f"[*{draw(word)}* `c` ![i](i.png) <https://a.b>](x.md)")
        else:
            parts.append(f"[{draw(word)}]({draw(st.sampled_from(DESTS))})")
    return draw(st.sampled_from([" ", "", "\n"])).join(parts)


@st.composite
def block(draw, depth=0):
    kind = draw(st.integers(0, 18))
    indent = " " * draw(st.sampled_from([0, 0, 0, 1, 3]))
    if kind < 4:
        return indent + draw(inline())
    if kind == 4:
        level = "#" * draw(st.integers(1, 7))
        return f"{indent}{level} {draw(inline())}{draw(st.sampled_from(['', ' ##', '#']))}"
    if kind == 5:
        return draw(inline()) + "\n" + draw(st.sampled_from(["===", "---", "-"]))
    if kind == 6:
        fence = draw(st.sampled_from(["```", "~~~", "````"]))
        info = draw(st.sampled_from(["", "py", "a`b"]))
        close = draw(st.sampled_from([fence, "", fence + "`", "    " + fence]))
        return f"{indent}{fence}{info}\n{draw(inline())}\n{close}"
    if kind == 7:
        return "    " + draw(inline()).replace("\n", "\n    ")
    if kind == 8 and depth < 2:
        marker = draw(st.sampled_from(["-", "*", "1.", "2)"]))
        space = " " * draw(st.sampled_from([1, 1, 2, 5]))
        lines = draw(block(depth + 1)).split("\n")
        pad = " " * (len(marker) + len(space))
        rest = [(pad if draw(st.booleans()) else "") + line for line in lines[1:]]
        item = "\n".join([indent + marker + space + lines[0], *rest])
        if draw(st.booleans()):
            item += (
                "\n" + draw(st.sampled_from(["", "\n"])) + indent + marker + space + draw(inline())
            )
        return item
    if kind == 9 and depth < 2:
        lines = draw(block(depth + 1)).split("\n")
        return "\n".join((indent + "> " + line) if draw(st.booleans()) else line for line in lines)
    if kind == 10:
        label = draw(st.sampled_from(LABELS))
        return f"{indent}[{label}]:{draw(st.sampled_from([' ', chr(10)]))}{draw(st.sampled_from(DESTS))}{draw(st.sampled_from(TITLES))}"
    if kind == 11:
        defs = draw(st.lists(st.sampled_from(FOOTNOTES), min_size=1, max_size=3))
        return "\n".join(f"[^{label}]: {draw(inline())}" for label in defs)
    if kind == 12:
        return draw(st.sampled_from(["***", "---", "- - -"]))
    if kind == 13:
        opener = draw(st.sampled_from(["<div>", "<!-- c", "<script>", "<span>"]))
        closer = draw(st.sampled_from(["</div>", "-->", "</script>", ""]))
        return f"{indent}{opener}\n{draw(inline())}\n{closer}"
    if kind == 14:
        return f"| a | b |\n|---|---|\n| {draw(inline()).replace(chr(10), ' ')} | [x|y](z.md) |"
    if kind == 15:
        return "\t" + draw(inline())
    return indent + draw(inline())


@st.composite
def bodies(draw):
    blocks = draw(st.lists(block(), min_size=1, max_size=6))
    return draw(st.sampled_from(["\n\n", "\n"])).join(blocks)


SPEC_EXAMPLES = json.loads(
    (
        Path(__file__).resolve().parents[1] / "data" / "commonmark" / "spec-0.31.2-examples.json"
    ).read_text(encoding="utf-8")
)


def _in_list_item(markdown: str) -> str:
    lines = markdown.splitlines(keepends=True)
    return "".join(("- " if n == 0 else "  ") + line for n, line in enumerate(lines))


#: Each example alone, and placed where the block rules see it differently.
SPEC_CONTEXTS = {
    "alone": (lambda markdown: markdown, 1),
    "on line 7": (lambda markdown: markdown, 7),
    "after a paragraph with a link": (lambda markdown: "Intro [x](/a.md).\n\n" + markdown, 1),
    "in a list item": (_in_list_item, 1),
    "in a block quote": (lambda md: "".join("> " + line for line in md.splitlines(True)), 1),
    "with CRLF line endings": (lambda markdown: markdown.replace("\n", "\r\n"), 1),
    "before a footnote": (lambda markdown: markdown + "\n\nA claim.[^src]\n", 1),
}
