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
