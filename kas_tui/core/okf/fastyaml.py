"""A fast reader for the plain YAML most frontmatter is written in.

PyYAML builds a Python object per token and node, which costs about half a millisecond
per document: too slow for packages of ten thousand documents. Most frontmatter uses a
small, regular subset: ``key: value`` lines, flow lists and mappings of plain words,
block lists (of scalars or of small mappings) and one-level block mappings. This module
reads exactly that subset and returns ``None`` for anything else (quotes with escapes,
block scalars, anchors, tags, multi-line scalars, deeper nesting, tabs, a key written
twice...), so the caller falls back to PyYAML (which reports the repeated key). Scalars are typed by PyYAML's own resolver and constructors, so a
result is always what PyYAML would have produced; a property test holds it to that.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from typing import Any

import yaml

from kas_tui.core.okf.timestamp import Timestamp

_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_./-]*):(?:[ ]+(.*))?$")
_ITEM_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_./-]*):(?:[ ]+(.*))?$")
_BLOCK_START = frozenset("-?:,[]{}#&*!|>'\"%@`")

#: Characters PyYAML rejects or treats as line breaks, and a stray BOM: leave to PyYAML.
_ODD = re.compile(
    "[^\x0a\x0d\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]"
)

#: The same test for ASCII text (nearly all frontmatter), three times faster.
_ODD_ASCII = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]")
#: A flow scalar containing one of these is left to PyYAML. A ``?`` too: PyYAML's
#: pure-Python scanner ends a flow scalar there while libyaml reads on (``[a?]``), and
#: libyaml refuses a ``:`` before it (``[a:?]``) where PyYAML's scanner does not.
_FLOW_BAD_RE = re.compile("[" + re.escape(",[]{}#&*!|>'\"%@`?") + "]")
#: A ``:`` that would end a flow scalar (followed by a space or the end).
_FLOW_COLON_RE = re.compile(r":(?: |$)")
#: A key made of a letter and name characters: a string unless it is a YAML 1.1 word.
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*")

_resolver = yaml.resolver.Resolver()
_constructor = yaml.constructor.SafeConstructor()
_STR = "tag:yaml.org,2002:str"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"


class _Unsupported(Exception):
    """The text leaves the fast subset: use PyYAML."""


#: Plain scalars starting with a letter resolve to something other than a string only
#: when they are one of these words (YAML 1.1 booleans and nulls, as PyYAML reads them).
_LETTER_WORDS = frozenset(
    [
        "yes",
        "Yes",
        "YES",
        "no",
        "No",
        "NO",
        "true",
        "True",
        "TRUE",
        "false",
        "False",
        "FALSE",
        "on",
        "On",
        "ON",
        "off",
        "Off",
        "OFF",
        "null",
        "Null",
        "NULL",
    ]
)


def _typed(text: str) -> Any:
    """A plain scalar typed exactly as PyYAML's safe loader types it."""
    first = text[:1]
    if ("a" <= first <= "z" or "A" <= first <= "Z") and text not in _LETTER_WORDS:
        return text
    return _typed_slow(text)


@lru_cache(maxsize=65536)
def _typed_slow(text: str) -> Any:
    tag = _resolver.resolve(yaml.ScalarNode, text, (True, False))
    if tag == _STR:
        return text
    if tag == _TIMESTAMP:
        return Timestamp(text)
    if tag in ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"):
        raise _Unsupported
    return _constructor.yaml_constructors[tag](_constructor, yaml.ScalarNode(tag, text))


_SIMPLE_BLOCK = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^:#\t]*")
_SIMPLE_FLOW = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^:#\t,\[\]{}?]*")


def _plain(text: str, *, flow: bool) -> Any:
    """A scalar in block (``flow=False``) or flow context, or :class:`_Unsupported`."""
    if (_SIMPLE_FLOW if flow else _SIMPLE_BLOCK).fullmatch(text):
        return _typed(text.rstrip(" "))
    if " #" in text:
        if flow:
            raise _Unsupported
        text = text.split(" #", 1)[0]
    text = text.rstrip(" ")
    if not text:
        return None
    first = text[0]
    if first in ("'", '"') and not flow:
        return _quoted(text)
    if first in _BLOCK_START and (first != "-" or len(text) == 1 or text[1] == " "):
        raise _Unsupported
    if ": " in text or text.endswith(":") or "\t" in text:
        raise _Unsupported
    if flow and (_FLOW_BAD_RE.search(text) or _FLOW_COLON_RE.search(text)):
        raise _Unsupported
    return _typed(text)


def _quoted(text: str) -> str:
    quote = text[0]
    if len(text) < 2 or text[-1] != quote:
        raise _Unsupported
    inner = text[1:-1]
    if quote in inner or (quote == '"' and "\\" in inner):
        raise _Unsupported
    return inner


#: Values already read, by their text: most frontmatter lines repeat across a package
#: (``status: stable``, the same tags and dates), so each distinct value is typed once.
#: Flow collections hold only scalars, so a shallow copy keeps the cached one intact.
_MEMO: dict[str, Any] = {}
_MEMO_MAX = 65_536
_UNREAD = object()


def _inline(text: str) -> Any:
    """An inline value after ``key:`` or ``- ``: flow list, flow mapping or scalar."""
    first = text[:1]
    # A longer plain text (a title, a description) is rarely written twice: typed here
    # (a string, as _plain and _typed would say), not looked up in or added to the
    # memo, which stays small, and so quick, for the values that repeat.
    if (
        ("a" <= first <= "z" or "A" <= first <= "Z")
        and len(text) > 16
        and _SIMPLE_BLOCK.fullmatch(text)
    ):
        return text.rstrip(" ")
    value = _MEMO.get(text, _UNREAD)
    if value is _UNREAD:
        value = _inline_uncached(text)
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        _MEMO[text] = value
    return value.copy() if type(value) in (list, dict) else value


def _inline_uncached(text: str) -> Any:
    first = text[:1]
    if first == "[":
        body = _strip_comment(text)
        if not body.endswith("]"):
            raise _Unsupported
        inner = body[1:-1].strip(" ")
        if not inner:
            return []
        return [_flow_item(part) for part in inner.split(",")]
    if first == "{":
        body = _strip_comment(text)
        if not body.endswith("}"):
            raise _Unsupported
        inner = body[1:-1].strip(" ")
        out: dict[str, Any] = {}
        if not inner:
            return out
        for part in inner.split(","):
            key, sep, value = part.partition(": ")
            if not sep:
                raise _Unsupported
            _put(out, _key(key.strip(" "), flow=True), _flow_item(value))
        return out
    return _plain(text, flow=False)


def _flow_item(part: str) -> Any:
    part = part.strip(" ")
    if not part:
        raise _Unsupported  # an empty item or trailing comma: leave it to PyYAML
    return _plain(part, flow=True)


def _strip_comment(text: str) -> str:
    if " #" in text:
        text = text.split(" #", 1)[0]
    return text.rstrip(" ")


#: Key names already read as names (each its interned string): a package repeats a
#: handful of them in every document.
_NAMES: dict[str, str] = {}


def _key(text: str, *, flow: bool = False) -> str:
    name = _NAMES.get(text)
    if name is not None:
        return name
    if _NAME.fullmatch(text) and text not in _LETTER_WORDS:
        # one string per key name, not one per document: 0.8 KB less per document
        # held, and the pickles the reading workers send share it too
        if len(_NAMES) >= _MEMO_MAX:
            _NAMES.clear()
        name = _NAMES[text] = sys.intern(text)
        return name
    value = _plain(text, flow=flow) if text else None
    if not isinstance(value, str) or value != text:
        raise _Unsupported
    return value


def fast_load(yaml_text: str) -> dict[str, Any] | None:
    """The mapping in ``yaml_text`` if it stays in the fast subset, else ``None``."""
    if "\t" in yaml_text:
        return None
    if "\r" in yaml_text:
        yaml_text = yaml_text.replace("\r\n", "\n")
        if "\r" in yaml_text:
            return None  # a lone carriage return is a line break to YAML
    if (_ODD_ASCII if yaml_text.isascii() else _ODD).search(yaml_text):
        return None
    try:
        return _mapping(_LINE.findall(yaml_text)) or None
    except (_Unsupported, yaml.YAMLError, ValueError, TypeError):
        return None


#: A line that is not blank or a comment: (its indentation, its text without trailing spaces).
_LINE = re.compile(r"^( *)([^ #\n](?:[^\n]*[^ \n])?) *$", re.M)


def _mapping(items: list[tuple[str, str]]) -> dict[str, Any]:
    """The top-level mapping of ``items`` (each line's indentation and text)."""
    if items and items[0][1].startswith(("---", "%")):
        raise _Unsupported
    data: dict[str, Any] = {}
    i = 0
    while i < len(items):
        indent, text = items[i]
        match = _KEY.match(text)
        if indent or not match:
            raise _Unsupported
        key, value = _key(match.group(1)), match.group(2)
        if key in data:
            raise _Unsupported  # a repeated key: PyYAML's path reports it
        i += 1
        block = []
        while i < len(items) and (
            items[i][0] or items[i][1].startswith("- ") or items[i][1] == "-"
        ):
            block.append(items[i])
            i += 1
        if value is not None and value.strip(" "):
            if block:
                raise _Unsupported  # a multi-line scalar or a value on both lines
            data[key] = _inline(value)
        elif not block:
            data[key] = None
        elif block[0][1].startswith("-"):
            data[key] = _sequence(block)
        else:
            data[key] = _submapping(block)
    return data


def _sequence(block: list[tuple[str, str]]) -> list[Any]:
    dash = len(block[0][0])
    out: list[Any] = []
    i = 0
    while i < len(block):
        indent, text = block[i]
        if len(indent) != dash or not (text.startswith("- ") or text == "-"):
            raise _Unsupported
        rest = text[2:].strip(" ") if len(text) > 1 else ""
        i += 1
        follow = []
        while i < len(block) and len(block[i][0]) > dash:
            follow.append(block[i])
            i += 1
        match = _ITEM_KEY.match(rest) if rest[:1] not in ("[", "{", "'", '"') else None
        if match:  # "- key: value" opens a small mapping, continued at dash + 2
            item = {_key(match.group(1)): _value_or_none(match.group(2))}
            for f_indent, f_text in follow:
                f_match = _KEY.match(f_text)
                if len(f_indent) != dash + 2 or not f_match:
                    raise _Unsupported
                _put(item, _key(f_match.group(1)), _value_or_none(f_match.group(2)))
            out.append(item)
        elif follow:
            raise _Unsupported
        else:
            out.append(_inline(rest) if rest else None)
    return out


def _submapping(block: list[tuple[str, str]]) -> dict[str, Any]:
    indent = block[0][0]
    out: dict[str, Any] = {}
    for b_indent, text in block:
        match = _KEY.match(text)
        if b_indent != indent or not match:
            raise _Unsupported
        _put(out, _key(match.group(1)), _value_or_none(match.group(2)))
    return out


def _put(mapping: dict[str, Any], key: str, value: Any) -> None:
    """``mapping[key] = value``, unless the key repeats: PyYAML's path reports that."""
    if key in mapping:
        raise _Unsupported
    mapping[key] = value


def _value_or_none(value: str | None) -> Any:
    if value is None or not value.strip(" "):
        raise _Unsupported  # an empty value here may open a deeper block: PyYAML decides
    return _inline(value)
