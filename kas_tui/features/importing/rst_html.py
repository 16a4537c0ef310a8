"""docutils' HTML as MarkItDown reads it best: a code block keeps its language, math
is its LaTeX, and definition and field lists are lists of items whose terms are bold."""

from __future__ import annotations

from typing import Any

from docutils import nodes

#: A code block's classes that name no language.
_NO_LANGUAGE = frozenset({"code", "literal-block", "highlight", "default", "none", "text"})


def pre_language(element: Any) -> str:
    """The language of a ``<pre>`` MarkItDown writes as a fenced block: the
    ``language-x`` class docutils' code block was given (:func:`listing_translator`),
    which its HTML writes as ``lang="x"``."""
    classes = element.get("class") or []
    named = next((c[len("language-") :] for c in classes if c.startswith("language-")), "")
    return named or str(element.get("lang") or "")


def listing_translator(base: type) -> type:
    """docutils' HTML translator writing definition and field lists as lists of items,
    each opening with its term in bold. Written as a definition list (``term`` over
    ``:   definition``), a definition's second paragraph is indented four spaces: code in
    CommonMark, so its links were neither rewritten nor checked (Sphinx's glossary:
    ``[Builders](/usage/builders/index.rst)``) and a reader showed it as code."""

    class Translator(base):  # type: ignore[misc,valid-type]
        def _nothing(self, node: nodes.Element) -> None:
            pass

        def visit_literal_block(self, node: nodes.Element) -> None:
            """A code block keeps its language for MarkItDown (:func:`pre_language`)."""
            language = next((c for c in node.get("classes", []) if c not in _NO_LANGUAGE), "")
            node["classes"] = [c for c in node.get("classes", []) if c != language]
            if language:
                node["classes"].append(f"language-{language}")
            super().visit_literal_block(node)

        def visit_math(self, node: nodes.Element) -> None:
            """Math as its LaTeX, in code (docutils' own rendering lost exponents and
            wrote "Unknown command" to the terminal)."""
            self.body.append(f"<code>{self.encode(node.astext())}</code>")
            raise nodes.SkipNode

        def visit_math_block(self, node: nodes.Element) -> None:
            self.body.append(
                f'<pre class="language-math"><code>{self.encode(node.astext())}</code></pre>\n'
            )
            raise nodes.SkipNode

        def visit_definition_list(self, node: nodes.Element) -> None:
            self.body.append(self.starttag(node, "ul"))

        def depart_definition_list(self, node: nodes.Element) -> None:
            self.body.append("</ul>\n")

        def visit_definition_list_item(self, node: nodes.Element) -> None:
            self.body.append(self.starttag(node, "li", ""))

        def depart_definition_list_item(self, node: nodes.Element) -> None:
            self.body.append("</li>\n")

        def visit_term(self, node: nodes.Element) -> None:
            self.body.append("<p><strong>")

        def depart_term(self, node: nodes.Element) -> None:
            self.body.append("</strong>")

        def visit_classifier(self, node: nodes.Element) -> None:
            self.body.append(" (")

        def depart_classifier(self, node: nodes.Element) -> None:
            self.body.append(")")

        def visit_definition(self, node: nodes.Element) -> None:
            self.body.append("</p>\n")  # the term's paragraph, its classifiers in it

        depart_definition = _nothing

        def depart_field_name(self, node: nodes.Element) -> None:
            self.body.append(":</strong></p>\n")

        # a field list is written as a definition list is: ``:Date: 2024`` an item
        visit_field_list, depart_field_list = visit_definition_list, depart_definition_list
        visit_field, depart_field = visit_definition_list_item, depart_definition_list_item
        visit_field_name = visit_term
        visit_field_body = depart_field_body = _nothing

    return Translator
