def test_the_sites_summary_opens_skill_md_in_whole_sentences() -> None:
    # trigger.dev's docs.json description is three sentences; clipped mid-sentence it
    # read "...Run long-running AI tasks…. 326 documents"
    from kas_tui.text.folder_summary import _summary_within

    summary = (
        "Trigger.dev is an open source background jobs framework that lets you write "
        "reliable workflows in plain async code. Run long-running AI tasks, handle complex "
        "background jobs, and build AI agents with built-in queuing."
    )
    assert _summary_within(summary, 160) == (
        "Trigger.dev is an open source background jobs framework that lets you write "
        "reliable workflows in plain async code."
    )
    assert _summary_within("Data validation using Python type hints", 160) == (
        "Data validation using Python type hints."
    )
    clipped = _summary_within("word " * 60, 160)
    assert clipped.endswith("…") and not clipped.endswith("….") and len(clipped) <= 160


def test_a_summary_naming_the_site_first_is_not_led_by_its_name_again() -> None:
    """FastAPI's SKILL.md opened "FastAPI: FastAPI framework, high performance...";
    Pydantic's, whose summary does not name it, keeps "Pydantic: Data validation"."""
    from collections import Counter

    from kas_tui.text.folder_summary import PackageFacts, skill_description

    def described(title: str, summary: str) -> str:
        facts = PackageFacts(
            name="kb",
            title=title,
            documents=3,
            bundles=[],
            root_documents=[],
            types=Counter({"Reference": 3}),
            kinds=Counter({"markdown": 3}),
            source="src",
            summary=summary,
        )
        return skill_description(facts)

    assert described("FastAPI", "FastAPI framework, high performance.").startswith(
        "FastAPI framework, high performance. 3 reference documents"
    )
    assert described("Pydantic", "Data validation using Python type hints").startswith(
        "Pydantic: Data validation using Python type hints. 3 "
    )
    # a longer word that opens with the name is no mention of it
    assert described("Jest", "Jester is a joke framework.").startswith("Jest: Jester is")
