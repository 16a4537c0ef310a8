"""Sentences and words of a text: where a sentence ends (abbreviations such as ``e.g.``
do not end one), its words, how it opens, and a text cut to fit at a clause or word."""

from __future__ import annotations

import re

_ABBREVIATIONS = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|approx|incl|no|fig|dr|mr|mrs|ms|st|jr|sr|inc|ltd|co|corp"
    r"|dept|est|min|max|vol|ver|v|al)|\b[A-Z])\.$",
    re.I,
)
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9])")


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences (abbreviations such as ``e.g.`` do not end one)."""
    out: list[str] = []
    start = 0
    for match in _SENTENCE_BREAK.finditer(text):
        piece = text[start : match.start()].strip()
        if _ABBREVIATIONS.search(piece):
            continue
        if piece:
            out.append(piece)
        start = match.end()
    rest = text[start:].strip()
    if rest:
        out.append(rest)
    return out


def words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", text)


_OWN_CASE = re.compile(r"^\S*?[a-z][^\s]*?[A-Z0-9]")


def sentence_start(text: str) -> str:
    """``text`` opening with a capital, as a sentence does, unless its first word is a
    name written in its own case: a capital or a figure after a lower-case letter
    ("gRPC is ...", "iOS 17", "macOS", "k3d", "eBPF programs"), which a capital would
    misspell ("GRPC", "K3d")."""
    if not text or _OWN_CASE.match(text.split(" ", 1)[0]):
        return text
    return text[0].upper() + text[1:]


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a clause or word boundary, with '…'."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if cut.count("(") > cut.count(")"):
        cut = cut[: cut.rfind("(")].rstrip()
    for mark in ("; ", ", ", " – ", " — ", " - ", ": "):
        at = cut.rfind(mark)
        if at >= limit * 0.6:
            return cut[:at].rstrip(" ,;:-–—") + "…"
    at = cut.rfind(" ")
    if at > limit // 2:
        cut = cut[:at]
    return cut.rstrip(" ,;:-–—([") + "…"


def lower_first(text: str, body: str) -> str:
    """``text`` with its first letter lowered, unless that word is a name: an acronym,
    or a word the body writes capitalised mid-sentence and never in lower case as a
    word of its own ("Outlook", "SharePoint"; not "Workflows")."""
    first = text.split(" ", 1)[0]
    if not first or not first[0].isupper() or any(c.isupper() for c in first[1:]):
        return text
    word = re.escape(first)
    named = re.search(r"[a-z,;] +" + word + r"\b", body)
    common = re.search(r"(?<![/\w.-])" + word.lower() + r"(?![/\w-])", body)
    if named and not common:
        return text
    return first[0].lower() + text[1:]
