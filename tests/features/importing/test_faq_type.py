"""A page is a FAQ when most of its sections ask questions, by one rule for its type
and its description (:func:`kas_tui.text.section_topics.asked_questions`): cargo's
"Dependency Resolution" reference, closing with a troubleshooting section of three
"Why was ...?" headings, was typed a FAQ once its later sections were read."""

from __future__ import annotations

from pathlib import Path

from kas_tui.features.importing.convert import Converted
from kas_tui.features.importing.doc_types import content_type
from kas_tui.features.importing.heuristics import draft_description
from kas_tui.text import prose


def _page(markdown: str) -> tuple[Converted, list[prose.Block]]:
    converted = Converted(Path("page.md"), markdown, "markdown", "", 0, 0.0)
    return converted, list(prose.blocks(markdown))


REFERENCE = "# Dependency Resolution\n\nCargo resolves dependencies.\n\n" + "".join(
    f"## {name}\n\nText.\n\n"
    for name in [
        "Constraints",
        "Version numbers",
        "Lock file",
        "Features",
        "Overrides",
        "Why was a dependency included?",
        "Why was that feature enabled?",
        "Why wasn't a newer version selected?",
    ]
)
FAQ = "# Questions\n\n" + "".join(
    f"## {q}\n\nAn answer.\n\n"
    for q in ["How do I sign in?", "Why is the app slow?", "Can I export data?", "Pricing"]
)


def test_a_few_questions_closing_a_reference_make_no_faq() -> None:
    converted, blocks = _page(REFERENCE)
    assert content_type(converted, "Dependency Resolution", blocks) != "FAQ"
    assert not draft_description(converted, "Dependency Resolution", blocks).startswith("Answers")


def test_a_page_of_questions_is_a_faq_and_says_what_it_answers() -> None:
    converted, blocks = _page(FAQ)
    assert content_type(converted, "Questions", blocks) == "FAQ"
    assert draft_description(converted, "Questions", blocks).startswith("Answers: sign in")
