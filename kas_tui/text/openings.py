"""How documentation pages open: the boilerplate lead-in of a page's first sentence
("In this chapter we will cover...", "This article describes how to...", "In this
topic, ...", a step's "Then, ...") and the sentence without it.

The lead-in says where the reader is, not what the page answers; a description built
from the sentence keeps what follows it: "This article describes how to reset a
password." -> "Describes how to reset a password."; "In this chapter we will cover how
to use the App class." -> "How to use the App class.". The patterns are the shapes
such openings take in docs sites (a noun for the page, a pronoun, a verb of telling),
never the words of one site.
"""

from __future__ import annotations

import re

from kas_tui.text import prose

#: Nouns a page calls itself by.
_PAGE = (
    r"(?:chapter|article|topic|page|section|guide|document|doc|tutorial|post|blog post"
    r"|walkthrough|quickstart|quick start|lesson|module|unit|part|how-to|reference|note"
    r"|video|series|step|example|sample|exercise|lab|course|book|manual|entry|faq)"
)
#: Verbs of telling, as they follow "this article" (third person) or "we will" (base).
_TELL = (
    r"(?:describe|explain|cover|discuss|show|provide|introduce|list|outline|walk|take"
    r"|teach|help|give|present|demonstrate|summari[sz]e|answer|address|detail|document"
    r"|guide|review|look|go|explore|examine|learn|see|find out|dive|focus|contain|tell"
    r"|fix|resolve|solve|troubleshoot|clarif(?:y|ie)|identif(?:y|ie)|work around|offer)"
)
_S = r"(?:s|es)?"
#: "This article describes X", "The following article explains X", "This chapter will cover X".
_SUBJECT = re.compile(
    rf"^(?:the following|this|these|the present)\s+{_PAGE}s?\s+"
    rf"(?:(?:will|can|should|is going to|aims to|tries to)\s+)?"
    rf"(?P<verb>{_TELL}{_S}(?:\s+(?:you|readers|users))?(?:\s+(?:at|through|over|into|on|about))?)"
    r"\s+(?P<rest>.+)",
    re.I,
)
#: "In this chapter we will cover X", "In this tutorial, you'll learn X", "Here we look at X".
_FRAME = re.compile(
    rf"^(?:in|within|throughout|on|over the course of)\s+this\s+{_PAGE},?\s+"
    r"(?:we|you|I|readers|users)(?:'ll|'re going to| will| are going to| can| shall| want to)?\s+"
    rf"(?:(?P<verb>(?:{_TELL}|take a look|have a look)(?:\s+(?:you|readers|users))?"
    r"(?:\s+(?:at|through|over|into|on|about))?)\s+)?(?P<rest>.+)",
    re.I,
)
#: "In this topic, X": the frame and a comma, then the sentence proper.
_PLACE = re.compile(rf"^(?:in|within|throughout)\s+this\s+{_PAGE},\s+(?P<rest>.+)", re.I)
#: "Then, create an empty config file ...": a step's place in a sequence the page's
#: earlier words set (Prettier's Install page), which the description does not follow.
_SEQUENCE = re.compile(
    r"^(?:then|next|finally|afterwards|after that|lastly|first|firstly|second|secondly)"
    r",\s+(?P<rest>.+)",
    re.I,
)
#: What follows that already reads as a description: "how to...", "what...", "why...".
_QUESTION = re.compile(r"^(?:how|what|why|when|which|where|whether|who)\b", re.I)
#: Verbs that tell nothing once the page is gone: "we will see X" -> "X".
_EMPTY = re.compile(r"^(?:learn|see|find out)\b", re.I)
_IRREGULAR = {"go": "goes", "do": "does", "have": "has", "be": "is"}
#: What a lead-in's "we'll" may be followed by that no verb of the page's can stand
#: for: "In this guide, we'll be setting up X" was "Be setting up X".
_ASPECT = re.compile(r"^(?:be|been|being|have)\s", re.I)
#: Verbs that need their object: "This how-to will take you through the steps" is
#: "Takes you through the steps", never "Takes through the steps".
_NEEDS_OBJECT = re.compile(r"^(?:take|guide|lead|bring)", re.I)
#: Fewest words left for the rest to stand as a description.
_MIN_WORDS = 3


def _third_person(verb: str) -> str:
    """``cover`` -> ``Covers``, ``discuss`` -> ``Discusses``, ``walk through`` ->
    ``Walks through``; a verb already in the third person is kept."""
    head, _sp, tail = verb.partition(" ")
    low = head.lower()
    if low in _IRREGULAR:
        low = _IRREGULAR[low]
    elif low.endswith("y") and low[-2:-1] not in "aeiou":
        low = low[:-1] + "ies"
    elif not low.endswith("s") or low.endswith(("ss", "us")):
        low += "es" if low.endswith(("s", "sh", "ch", "x", "z")) else "s"
    return (low.capitalize() + (" " + tail if tail else "")).strip()


def _capital(text: str) -> str:
    return prose.sentence_start(text)


def without_preamble(sentence: str) -> str:
    """``sentence`` without its boilerplate lead-in, or as it was when it has none (or
    too little would be left to say anything)."""
    text = sentence.strip()
    rest = verb = ""
    for pattern in (_SUBJECT, _FRAME, _PLACE, _SEQUENCE):
        match = pattern.match(text)
        if match:
            rest = match.group("rest").strip()
            verb = (match.groupdict().get("verb") or "").strip()
            if not _NEEDS_OBJECT.match(verb):  # "takes you through": "you" stays
                verb = re.sub(r"\s+(?:you|readers|users)\b", "", verb, flags=re.I)
            break
    if not rest or len(rest.split()) < _MIN_WORDS or _ASPECT.match(rest):
        return sentence
    if _QUESTION.match(rest) or not verb or _EMPTY.match(verb):
        return _capital(rest)
    return f"{_third_person(verb)} {rest}"
