"""A page's boilerplate lead-in, dropped from the sentence a description is made of."""

from __future__ import annotations

import pytest

from kas_tui.text.openings import without_preamble


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "In this chapter we will cover how to use the App class to create an app.",
            "How to use the App class to create an app.",
        ),
        (
            "In this chapter we will explore widgets in more detail.",
            "Explores widgets in more detail.",
        ),
        (
            "This chapter covers the screen API of the framework.",
            "Covers the screen API of the framework.",
        ),
        (
            "This article describes an issue that occurs when you sign in.",
            "Describes an issue that occurs when you sign in.",
        ),
        (
            "This article will clarify the routing of mail in a tenant.",
            "Clarifies the routing of mail in a tenant.",
        ),
        (
            "In this post we'll look at new functions of the shell.",
            "Looks at new functions of the shell.",
        ),
        ("In this tutorial, you'll learn about the layout engine.", "The layout engine."),
        (
            "In this topic, the settings for mail flow are listed.",
            "The settings for mail flow are listed.",
        ),
        (
            "This guide walks you through setting up single sign-on.",
            "Walks through setting up single sign-on.",
        ),
        # a step's place in the page's sequence (Prettier's Install page)
        (
            "Then, create an empty config file to let editors know you use Prettier.",
            "Create an empty config file to let editors know you use Prettier.",
        ),
        (
            "Finally, restart the server to load the plugin.",
            "Restart the server to load the plugin.",
        ),
        ("Then the server restarts and loads it.", "Then the server restarts and loads it."),
        # no lead-in, or too little left after it: as it was
        ("Describes an issue in Outlook.", "Describes an issue in Outlook."),
        ("This page uses cookies to count visits.", "This page uses cookies to count visits."),
        ("This article covers SSO.", "This article covers SSO."),
        (
            "In this case the queue grows until it is cleared.",
            "In this case the queue grows until it is cleared.",
        ),
        # no verb of the page's to stand for "we'll be ..." (tauri-docs: "Be setting up")
        (
            "In this guide, we'll be setting up JetBrains RustRover for debugging.",
            "In this guide, we'll be setting up JetBrains RustRover for debugging.",
        ),
    ],
)
def test_a_lead_in_is_dropped_and_what_follows_kept(sentence: str, expected: str) -> None:
    assert without_preamble(sentence) == expected


def test_a_verb_needing_its_object_keeps_it() -> None:
    """Diamond-portal's how-tos and Business Central's walkthroughs: "This how-to will
    take you through the steps..." became "Takes through the steps..."."""
    said = without_preamble("This how-to will take you through the steps of registering it.")
    assert said == "Takes you through the steps of registering it."
    said = without_preamble("This walkthrough guides you through several core processes.")
    assert said == "Guides you through several core processes."
