"""The fast frontmatter reader agrees with PyYAML, or steps aside."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.explore_fastyaml import (
    ALPHABET,
    CORPORA,
    PREFIXES,
    disagreement,
    frontmatter_blocks,
    strings,
)
from kas_tui.core.okf.fastyaml import fast_load
from kas_tui.core.okf.frontmatter import Timestamp, compose, construct

COMMON = """\
type: Runbook
title: Incident response
description: Severity, containment and postmortem procedures.  # one sentence
tags: [oncall, incidents, sev1]
keywords:
  - alpha
  - beta gamma
sources:
  - id: pd-policy
    resource: /references/pagerduty.yaml
    title: PagerDuty export
  - resource: https://example.com/x?y=1
generated: { by: kas-tui/0.1.0, at: 2026-06-20T22:53:05Z }
verified:
  - { by: human:ana, at: 2026-06-25T09:00:00Z }
owner:
  team: payments
  since: 2026-01-01
status: stable
stale_after: 2027-03-01
usage_count: 5000
ratio: 0.5
flag: yes
empty:
quoted: 'Hello: world'
dquoted: "It is [draft]"
indentless:
- a
- b
"""


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b and type(a) is type(b) if not isinstance(a, (dict, list)) else a == b


def load_yaml(text: str) -> object:
    """PyYAML itself (libyaml), bypassing the fast path that ``frontmatter.load_yaml`` tries."""
    return construct(compose(text))


def _typed(value: object) -> object:
    """Value and type, recursively, so ``1 == True`` and NaN cannot hide a difference."""
    if isinstance(value, dict):
        return ("dict", [(k, _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def test_common_frontmatter_takes_the_fast_path_and_matches_pyyaml() -> None:
    fast = fast_load(COMMON)
    assert fast is not None
    assert fast == load_yaml(COMMON)
    assert list(fast) == list(load_yaml(COMMON))
    assert isinstance(fast["stale_after"], Timestamp) and fast["stale_after"] == "2027-03-01"
    assert fast["flag"] is True and fast["empty"] is None and fast["usage_count"] == 5000


def test_typed_scalars_match_pyyaml_types() -> None:
    text = "a: 0x1F\nb: 1:20\nc: .inf\nd: ~\ne: Off\nf: 1_000\ng: 2026-06-30T14:00:00Z\nh: 0.2\n"
    fast = fast_load(text)
    ref = load_yaml(text)
    assert fast is not None
    for key in ref:
        assert _same(fast[key], ref[key]), key
        assert type(fast[key]) is type(ref[key]), key


def test_outside_the_subset_it_steps_aside() -> None:
    for text in (
        "a: |\n  block\n",
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: b\n  continued\n",
        "a:\n  b:\n    c: 1\n",
        "'quoted key': 1\n",
        'a: "esc\\n"\n',
        "a: [x, [y]]\n",
        "a:\tb\n",
        "a: b: c\n",
        "- a\n",
        "a: [x,]\n",
        "a: {b: c d: e}\n",
        "k: [a:?]\n",  # libyaml refuses ':' before '?' in a flow scalar
        "k: [a?]\n",  # PyYAML's pure-Python scanner ends a flow scalar at '?'
        "k: {a: b?}\n",
        "a: 1\na: 2\n",  # a repeated key: PyYAML's path reports it (OKF112)
        "a: {b: 1, b: 2}\n",
        "a:\n  b: 1\n  b: 2\n",
        "a:\n- b: 1\n  b: 2\n",
    ):
        assert fast_load(text) is None, text


_word = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12
)
_scalar_text = st.one_of(
    _word,
    st.sampled_from(
        [
            "yes",
            "no",
            "on",
            "null",
            "~",
            "1",
            "-1",
            "0o7",
            "0x1f",
            "1.5e3",
            "1:30",
            ".nan",
            "true",
            "2026-06-30",
            "2026-06-30T14:00:00Z",
            "a: b",
            "a #b",
            "#x",
            "- x",
            "[x]",
            "{x}",
            "x,y",
            "human:ana",
            "http://x.y/z",
            "'q'",
            '"q"',
            "@x",
            "`x`",
            "x:",
            ":x",
            "-x",
            "?x",
            "%x",
            "*x",
            "&x",
            "!x",
            "|",
            ">",
            "a\\b",
            "é ü",
            "   ",
            "",
        ]
    ),
)
_key = st.sampled_from(["type", "title", "description", "tags", "status", "x-custom", "ms.date"])


@st.composite
def _frontmatter(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        key = draw(_key)
        shape = draw(
            st.sampled_from(["scalar", "flow_list", "block_list", "flow_map", "block_map"])
        )
        if shape == "scalar":
            lines.append(f"{key}: {draw(_scalar_text)}")
        elif shape == "flow_list":
            items = draw(st.lists(_scalar_text, max_size=4))
            lines.append(f"{key}: [{', '.join(items)}]")
        elif shape == "block_list":
            indent = draw(st.sampled_from(["", "  "]))
            lines.append(f"{key}:")
            lines += [
                f"{indent}- {v}" for v in draw(st.lists(_scalar_text, min_size=1, max_size=3))
            ]
        elif shape == "flow_map":
            pairs = draw(st.lists(st.tuples(_key, _scalar_text), max_size=3))
            lines.append(f"{key}: {{{', '.join(f'{k}: {v}' for k, v in pairs)}}}")
        else:
            lines.append(f"{key}:")
            lines += [
                f"  {k}: {v}"
                for k, v in draw(st.lists(st.tuples(_key, _scalar_text), min_size=1, max_size=3))
            ]
        if draw(st.booleans()):
            lines.append("# a comment")
    return "\n".join(lines) + "\n"


@settings(max_examples=400, deadline=None)
@given(_frontmatter())
def test_fast_path_never_disagrees_with_pyyaml(text: str) -> None:
    fast = fast_load(text)
    if fast is None:
        return
    try:
        ref = load_yaml(text)
    except Exception as exc:  # noqa: BLE001 - PyYAML refuses: the fast path must not accept
        raise AssertionError(f"fast path accepted YAML that PyYAML rejects: {exc}") from None
    assert _typed(fast) == _typed(ref)


def _disagreements(texts: object) -> list[str]:
    found = [problem for text in texts if (problem := disagreement(text))]
    return found[:10] + ([f"... and {len(found) - 10} more"] if len(found) > 10 else [])


def test_every_short_string_gets_pyyamls_answer_or_none() -> None:
    """All 813,615 strings of up to five characters of ``k:[]{}?,'"#- a\\n``."""
    assert _disagreements(strings(ALPHABET, 5)) == []


@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_short_value_gets_pyyamls_answer_or_none(prefix: str) -> None:
    """The same alphabet, four characters after each prefix (``k: [`` + ``a:?]``...).

    ``benchmarks/explore_fastyaml.py`` runs it longer (no disagreement at six and five).
    """
    assert _disagreements(strings(ALPHABET, 4, prefix)) == []


_CORPORA = sorted(p for p in CORPORA.iterdir() if p.is_dir()) if CORPORA.is_dir() else []


@pytest.mark.skipif(not _CORPORA, reason=f"the shared corpora ({CORPORA}) are not on this machine")
@pytest.mark.parametrize("corpus", _CORPORA, ids=lambda path: path.name)
def test_every_corpus_frontmatter_gets_pyyamls_answer_or_none(corpus: Path) -> None:
    blocks = [text for _, text in frontmatter_blocks(corpus)]
    assert blocks
    assert _disagreements(blocks) == []


def test_a_timestamp_pickles_as_a_call_with_its_text():
    """Frontmatter crosses process pipes pickled: a timestamp goes as ``Timestamp(text)``
    (not the generic path of a str subclass), and comes back the same type and text."""
    import copy
    import pickle

    stamp = Timestamp("2026-06-30T14:00:00Z")
    assert stamp.__reduce_ex__(pickle.HIGHEST_PROTOCOL) == (Timestamp, ("2026-06-30T14:00:00Z",))
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps({"at": stamp}, protocol=protocol))["at"]
        assert type(back) is Timestamp and back == stamp
    assert type(copy.deepcopy([stamp])[0]) is Timestamp


LONG_TEXT_PARTS = [
    "Reset",
    " your",
    " password",
    ":",
    " #x",
    "#",
    "  ",
    "-",
    "'",
    '"',
    "[a]",
    "é",
    "1",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LONG_TEXT_PARTS), min_size=3, max_size=12))
def test_long_plain_values_get_pyyamls_answer_without_the_memo(parts: list[str]) -> None:
    """A value of more than 16 characters starting with a letter (a title, a
    description) is typed where it is read, not remembered: PyYAML's answer still."""
    from kas_tui.core.okf import fastyaml

    value = "Title " + "".join(parts)
    assert disagreement(f"title: {value}\n") is None
    fastyaml._MEMO.clear()
    if fast_load(f"title: {value}\nstatus: stable\n") is None:
        return  # left to PyYAML
    if len(value) > 16 and fastyaml._SIMPLE_BLOCK.fullmatch(value):  # no comment, no ': '...
        assert value not in fastyaml._MEMO
    assert "stable" in fastyaml._MEMO  # a short value that repeats is remembered
