"""Byte-minimal edits to a frontmatter block: set or remove one top-level key.

PyYAML's composer gives every node its start and end offsets, which is enough to
replace one value's span in place. Everything outside that span (other keys, comments,
key order, quoting, indentation, line endings) is left as the author wrote it, and the
replacement takes the style of what it replaces (flow or block, quotes, list indent).
Every result is parsed again and compared with the intended mapping before it is
returned, so an edit can never produce YAML that reads back differently.
"""

from __future__ import annotations

import copy
import datetime as dt
import io
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.frontmatter import MarkLoader, Timestamp
from kas_tui.core.okf.text import control_chars, line_end, line_start, newline_of, split_lines

_STR_TAG = "tag:yaml.org,2002:str"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_FLOW_SAFE = re.compile(r"[^,\[\]{}#?:\s!&*|>'\"%@`-][^,\[\]{}?]*")  # PyYAML ends at ?
_COLON_END = re.compile(r":(?=[,\[\]{}\s]|$)")


class _Dumper(yaml.SafeDumper):
    """Safe dumper that writes timestamps plain and never invents anchors."""

    indent_sequences = True

    def ignore_aliases(self, data: Any) -> bool:
        return True

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, indentless and not self.indent_sequences)

    def analyze_scalar(self, scalar: str) -> Any:
        """Allow ``{by: human:ana, at: 2026-06-25T09:00:00Z}`` plain, as YAML does.

        PyYAML's emitter quotes any ``:`` inside a flow collection although its own
        parser (and libyaml) read a colon that is not followed by a space as text.
        """
        analysis = super().analyze_scalar(scalar)
        if (
            analysis.allow_block_plain
            and not analysis.allow_flow_plain
            and _FLOW_SAFE.fullmatch(scalar)
            and not _COLON_END.search(scalar)
        ):
            analysis.allow_flow_plain = True
        return analysis


class _IndentlessDumper(_Dumper):
    """Writes ``key:\\n- item`` (sequence dashes level with the key)."""

    indent_sequences = False


def _represent_timestamp(dumper: yaml.SafeDumper, value: Timestamp) -> yaml.ScalarNode:
    return dumper.represent_scalar(_TIMESTAMP_TAG, str(value))


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value.rstrip("\n") else None
    return dumper.represent_scalar(_STR_TAG, value, style=style)


_Dumper.add_representer(Timestamp, _represent_timestamp)
_Dumper.add_representer(str, _represent_str)


def set_field(text: str, key: str, value: Any) -> str:
    """Return ``text`` with frontmatter field ``key`` set to ``value``.

    A document without frontmatter gets a block. Raises :class:`EditError` when the
    value cannot be written as YAML or the block cannot be edited safely.
    """
    if not key or "\n" in key or control_chars(key):
        raise EditError(f"{key!r} is not a usable frontmatter key")
    value = normalize(value, key)
    parsed = _parse(text)
    nl = newline_of(text)
    if parsed is None:
        new_text = f"---{nl}{_render_entry(key, value, None, None, _Dumper, nl)}---{nl}{text}"
        return _checked(text, new_text, {key: value}, {})
    yaml_text, base, root, data = parsed
    dumper = _dumper_for(root, yaml_text)
    pair = _find(root, key, yaml_text)
    if pair is not None and key in data and same_value(data[key], value):
        return text  # it already holds this value: keep the author's spelling of it
    if pair is None:
        insert = _render_entry(key, value, None, None, dumper, nl)
        at = len(yaml_text)
        if yaml_text and not yaml_text.endswith("\n"):
            insert = nl + insert
        new_yaml = yaml_text[:at] + insert
    else:
        new_yaml = _replace(yaml_text, pair, value, dumper, nl)
    expected = dict(data)
    expected[key] = value
    return _checked(text, text[:base] + new_yaml + text[base + len(yaml_text) :], expected, data)


def remove_field(text: str, key: str) -> str:
    """Return ``text`` without frontmatter field ``key`` (unchanged when it is absent)."""
    parsed = _parse(text)
    if parsed is None:
        return text
    yaml_text, base, root, data = parsed
    pair = _find(root, key, yaml_text)
    if pair is None:
        return text
    knode, vnode = pair
    start = line_start(yaml_text, knode.start_mark.index)
    end = _region_end(yaml_text, vnode)
    new_yaml = yaml_text[:start] + yaml_text[end:]
    expected = {k: v for k, v in data.items() if k != key}
    return _checked(text, text[:base] + new_yaml + text[base + len(yaml_text) :], expected, data)


def set_in(text: str, path: Sequence[str | int], value: str) -> str:
    """Return ``text`` with the string scalar at ``path`` set to ``value``, in place.

    ``path`` walks from the top-level mapping through keys and list positions
    (``("sources", 1, "resource")``). Only that scalar's characters change, in its
    quoting style (a plain value that would read back differently is quoted); every
    other byte of the frontmatter stays. Raises :class:`EditError` when there is no such
    scalar or it cannot be rewritten on its line.
    """
    value = normalize(value, ".".join(map(str, path)))
    parsed = _parse(text)
    if parsed is None or parsed[2] is None:
        raise EditError("there is no frontmatter to edit")
    yaml_text, base, root, data = parsed
    node: yaml.Node = root
    expected = copy.deepcopy(data)
    holder: Any = expected
    for i, step in enumerate(path):
        where = ".".join(map(str, path[: i + 1]))
        if isinstance(step, int) and isinstance(node, yaml.SequenceNode) and step < len(node.value):
            node = node.value[step]
        elif isinstance(step, str) and isinstance(node, yaml.MappingNode):
            hits = [v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == step]
            if len(hits) != 1:
                raise EditError(f"{where}: not exactly one such key in the frontmatter")
            node = hits[0]
        else:
            raise EditError(f"{where}: no such value in the frontmatter")
        if i < len(path) - 1:
            holder = holder[step]
    if not isinstance(node, yaml.ScalarNode) or node.style in ("|", ">"):
        raise EditError(f"{'.'.join(map(str, path))}: not a one-line text value")
    holder[path[-1]] = value
    start, end = node.start_mark.index, node.end_mark.index
    dumper = _dumper_for(root, yaml_text)
    for style in (node.style, "'"):
        new_node = _represent(value, dumper)
        _inherit_style(new_node, node)
        if style == "'" and new_node.style is None:
            new_node.tag, new_node.style = _STR_TAG, "'"
        inline = _emit_inline(new_node, dumper)
        if inline is None:
            break
        new_yaml = yaml_text[:start] + inline + yaml_text[end:]
        try:
            return _checked(
                text, text[:base] + new_yaml + text[base + len(yaml_text) :], expected, data
            )
        except EditError:
            if new_node.style is not None:
                raise
    raise EditError(f"{'.'.join(map(str, path))}: the new value cannot be written on its line")


def same_value(a: Any, b: Any) -> bool:
    """Equal values of equal types (``True`` is not ``1``, a timestamp is not its string),
    mappings in the same key order: whether a field already holds what a write asks."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same_value, a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same_value(a[k], b[k]) for k in a)
    return a == b


def normalize(value: Any, key: str = "value") -> Any:
    """Turn ``value`` into plain YAML-able data; dates become :class:`Timestamp` text.

    Raises :class:`EditError` for values YAML cannot hold faithfully or strings with
    control characters (pasted terminal escapes, NULs).
    """
    if isinstance(value, Timestamp) or value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        bad = control_chars(value)
        if bad:
            raise EditError(
                f"{key}: the text contains control characters ({', '.join(map(repr, bad[:3]))}); "
                "remove them (pasted terminal escapes are a common cause)"
            )
        return value
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            raise EditError(f"{key}: a datetime needs a UTC offset (OKF timestamps carry one)")
        text = value.isoformat()
        return Timestamp(text[:-6] + "Z" if text.endswith("+00:00") else text)
    if isinstance(value, dt.date):
        return Timestamp(value.isoformat())
    if isinstance(value, (list, tuple)):
        return [normalize(v, key) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise EditError(f"{key}: mapping keys must be strings, not {type(k).__name__}")
            out[normalize(k, key)] = normalize(v, f"{key}.{k}")
        return out
    raise EditError(f"{key}: a {type(value).__name__} cannot be written as YAML")


# --- parsing -------------------------------------------------------------------------


def _parse(text: str) -> tuple[str, int, yaml.MappingNode | None, dict] | None:
    """(yaml text, its offset in ``text``, root node, data) or ``None`` without a block."""
    try:
        block = fm.find_block(text)
        if block is None:
            return None
        yaml_text = text[block.yaml_start : block.yaml_end]
        root = fm.compose(yaml_text, loader=MarkLoader)
        data = fm.construct(root, loader=MarkLoader) if root is not None else {}
    except FormatError as exc:
        raise EditError(f"the frontmatter cannot be read, so it is not edited: {exc}") from None
    if data is None:
        data, root = {}, None
    if not isinstance(data, dict) or (root is not None and not isinstance(root, yaml.MappingNode)):
        raise EditError("the frontmatter is not a mapping, so it is not edited; fix it by hand")
    if root is not None and root.flow_style:
        raise EditError("the frontmatter is one {flow: mapping}; edit it by hand")
    return yaml_text, block.yaml_start, root, data


def _find(
    root: yaml.MappingNode | None, key: str, yaml_text: str
) -> tuple[yaml.Node, yaml.Node] | None:
    if root is None:
        return None
    hits = [(k, v) for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == key]
    if len(hits) > 1:
        lines = " and ".join(str(k.start_mark.line + 1) for k, _ in hits)
        raise EditError(f"key {key!r} appears more than once (YAML lines {lines}); fix it by hand")
    return hits[0] if hits else None


def _dumper_for(root: yaml.MappingNode | None, yaml_text: str) -> type[_Dumper]:
    """Follow the file's list style: ``key:\\n  - a`` (indented) or ``key:\\n- a``."""
    for knode, vnode in root.value if root is not None else ():
        if isinstance(vnode, yaml.SequenceNode) and not vnode.flow_style and vnode.value:
            dash = line_start(yaml_text, vnode.value[0].start_mark.index)
            dash_col = yaml_text.index("-", dash) - dash
            return _Dumper if dash_col > knode.start_mark.column else _IndentlessDumper
    return _Dumper


# --- replacing -----------------------------------------------------------------------


def _replace(
    yaml_text: str, pair: tuple[yaml.Node, yaml.Node], value: Any, dumper: type[_Dumper], nl: str
) -> str:
    knode, vnode = pair
    new_node = _represent(value, dumper)
    _inherit_style(new_node, vnode)
    start, end = vnode.start_mark.index, vnode.end_mark.index
    single_line = "\n" not in yaml_text[start:end]
    same_kind = type(new_node) is type(vnode)
    if single_line and same_kind and isinstance(vnode, yaml.ScalarNode):
        if vnode.style not in ("|", ">") and (vnode.value or vnode.style):
            inline = _emit_inline(new_node, dumper)
            if inline is not None:
                return yaml_text[:start] + inline + yaml_text[end:]
    elif single_line and same_kind and vnode.flow_style:
        inline = _emit_inline(new_node, dumper)
        if inline is not None:
            if _padded(yaml_text[start:end]):
                inline = _pad(inline)
            return yaml_text[:start] + inline + yaml_text[end:]
    elif (
        isinstance(vnode, yaml.SequenceNode)
        and isinstance(new_node, yaml.SequenceNode)
        and not vnode.flow_style
        and new_node.value
    ):
        return _replace_items(yaml_text, vnode, value, new_node, dumper, nl)
    region_start = line_start(yaml_text, knode.start_mark.index)
    key_text = yaml_text[knode.start_mark.index : knode.end_mark.index]
    entry = _render_entry(key_text, value, new_node, key_text, dumper, nl)
    return yaml_text[:region_start] + entry + yaml_text[_region_end(yaml_text, vnode) :]


def _replace_items(
    yaml_text: str,
    vnode: yaml.SequenceNode,
    value: list,
    new_node: yaml.SequenceNode,
    dumper: type[_Dumper],
    nl: str,
) -> str:
    """Rebuild a block list item by item, keeping the text of every item that stays."""
    items = vnode.value
    starts = [line_start(yaml_text, item.start_mark.index) for item in items]
    ends = starts[1:] + [_region_end(yaml_text, vnode)]
    old_values = [fm.construct(item, loader=MarkLoader) for item in items]
    first = starts[0]
    dash_col = yaml_text.index("-", first) - first
    pieces: list[str] = []
    j = 0
    for new_value, node in zip(value, new_node.value, strict=True):
        hit = next((i for i in range(j, len(items)) if old_values[i] == new_value), None)
        if hit is not None:
            pieces.append(yaml_text[starts[hit] : ends[hit]])
            j = hit + 1
            continue
        rendered = _emit(yaml.SequenceNode("tag:yaml.org,2002:seq", [node]), dumper)
        like = items[min(len(pieces), len(items) - 1)]
        if _padded(yaml_text[like.start_mark.index : like.end_mark.index]):
            rendered = "- " + _pad(rendered[2:].rstrip("\n")) + "\n"
        pad = " " * dash_col
        lines = [line.rstrip("\n") for line in split_lines(rendered)]
        pieces.append("".join(pad + line + nl for line in lines))
    if pieces and not pieces[-1].endswith("\n"):
        pieces[-1] += nl
    body = "".join(pieces)
    return yaml_text[:first] + body + yaml_text[ends[-1] :]


def _padded(flow_text: str) -> bool:
    """Whether a one-line flow collection is written ``{ a: 1 }`` rather than ``{a: 1}``."""
    return (
        len(flow_text) > 2
        and flow_text[0] in "[{"
        and flow_text[1] == " "
        and "\n" not in flow_text
    )


def _pad(inline: str) -> str:
    if len(inline) > 2 and inline[0] in "[{" and inline[1] != " ":
        return f"{inline[0]} {inline[1:-1]} {inline[-1]}"
    return inline


def _region_end(yaml_text: str, vnode: yaml.Node) -> int:
    """Offset just past the last line holding part of ``vnode`` (trailing comment included)."""
    last = _last_offset(vnode)
    while last > 0 and yaml_text[last - 1] in " \t\r\n":
        last -= 1
    return line_end(yaml_text, max(last - 1, 0))


def _last_offset(node: yaml.Node) -> int:
    if isinstance(node, yaml.ScalarNode) or node.flow_style or not node.value:
        return node.end_mark.index
    if isinstance(node, yaml.SequenceNode):
        return max(_last_offset(child) for child in node.value)
    return max(max(_last_offset(k), _last_offset(v)) for k, v in node.value)


# --- rendering -----------------------------------------------------------------------


def _represent(value: Any, dumper: type[_Dumper]) -> yaml.Node:
    try:
        return dumper(io.StringIO(), sort_keys=False).represent_data(value)
    except yaml.representer.RepresenterError as exc:
        raise EditError(f"this value cannot be written as YAML: {exc}") from None


def _inherit_style(new: yaml.Node, old: yaml.Node | None) -> None:
    """Give ``new`` the flow/block and quoting style of the node it replaces."""
    if old is None:
        return
    if isinstance(new, yaml.ScalarNode) and isinstance(old, yaml.ScalarNode):
        quotable = new.tag in (_STR_TAG, _TIMESTAMP_TAG)
        if old.style in ('"', "'") and quotable and "\n" not in new.value:
            # a quoted timestamp stays quoted: the author's style, the same text
            new.tag, new.style = _STR_TAG, old.style
    elif isinstance(new, yaml.SequenceNode) and isinstance(old, yaml.SequenceNode):
        new.flow_style = old.flow_style
        for i, item in enumerate(new.value):
            if old.value:
                _inherit_style(item, old.value[min(i, len(old.value) - 1)])
    elif isinstance(new, yaml.MappingNode) and isinstance(old, yaml.MappingNode):
        new.flow_style = old.flow_style
        olds = {k.value: v for k, v in old.value if isinstance(k, yaml.ScalarNode)}
        for k, v in new.value:
            _inherit_style(v, olds.get(k.value))


def _emit(node: yaml.Node, dumper: type[_Dumper]) -> str:
    stream = io.StringIO()
    d = dumper(stream, default_flow_style=False, allow_unicode=True, width=10**9, sort_keys=False)
    d.open()
    d.serialize(node)
    d.close()
    return stream.getvalue()


def _emit_inline(node: yaml.Node, dumper: type[_Dumper]) -> str | None:
    """The one-line text of ``node`` as a value, or ``None`` when it needs several lines."""
    out = _emit(yaml.SequenceNode("tag:yaml.org,2002:seq", [node]), dumper)
    if not out.startswith("- ") or out.count("\n") != 1:
        return None
    return out[2:-1]


def _render_entry(
    key: str,
    value: Any,
    node: yaml.Node | None,
    key_text: str | None,
    dumper: type[_Dumper],
    nl: str,
) -> str:
    """``key: value`` lines ending in a line break, with the file's newline."""
    if node is None:
        node = _represent(value, dumper)
    key_node = _represent(key, dumper)
    out = _emit(yaml.MappingNode("tag:yaml.org,2002:map", [(key_node, node)]), dumper)
    if key_text is not None:
        rendered_key = _emit_inline(key_node, dumper)
        if rendered_key is not None and out.startswith(rendered_key + ":"):
            out = key_text + out[len(rendered_key) :]
    return out.replace("\n", nl) if nl != "\n" else out


@dataclass(frozen=True)
class CollectionStyle:
    """How a frontmatter block writes its top-level lists and mappings."""

    flow: frozenset[str]  # keys whose list or mapping is on one line
    padded: frozenset[str]  # of those, the ones written with inner spaces: ``{ a: 1 }``
    block: frozenset[str]  # keys whose list or mapping takes block lines
    indent_lists: bool | None  # block lists indented under their key (``None``: none seen)


def collection_style(yaml_text: str) -> CollectionStyle:
    """The style of ``yaml_text``'s top-level lists and mappings (empty when unreadable)."""
    try:
        root = fm.compose(yaml_text, loader=MarkLoader)
    except FormatError:
        root = None
    flow, padded, block = set(), set(), set()
    for knode, vnode in root.value if isinstance(root, yaml.MappingNode) else ():
        if not isinstance(knode, yaml.ScalarNode) or isinstance(vnode, yaml.ScalarNode):
            continue
        if vnode.flow_style:
            flow.add(knode.value)
            if _padded(yaml_text[vnode.start_mark.index : vnode.end_mark.index]):
                padded.add(knode.value)
        elif vnode.value:
            block.add(knode.value)
    indent = None
    if isinstance(root, yaml.MappingNode) and any(
        isinstance(v, yaml.SequenceNode) and not v.flow_style and v.value for _, v in root.value
    ):
        indent = _dumper_for(root, yaml_text) is _Dumper
    return CollectionStyle(frozenset(flow), frozenset(padded), frozenset(block), indent)


def render_mapping(
    data: dict[str, Any],
    *,
    flow: Collection[str] = (),
    padded: Collection[str] = (),
    indent_lists: bool = True,
) -> str:
    """``data`` as the YAML lines of a new frontmatter block (without the ``---`` lines).

    Block style, except the keys in ``flow``, whose list or mapping is one line
    (``[a, b]``, ``{by: x, at: y}``, or ``{ by: x }`` for the keys in ``padded``); block lists are
    indented under their key unless ``indent_lists`` is false (``key:\\n- a``). The result
    is read back and compared with ``data`` (:class:`EditError` when it differs).
    """
    dumper = _Dumper if indent_lists else _IndentlessDumper
    data = normalize(data)
    lines = []
    for key, value in data.items():
        node = _represent(value, dumper)
        inline = None
        if key in flow and isinstance(node, (yaml.SequenceNode, yaml.MappingNode)) and value:
            node.flow_style = True
            inline = _emit_inline(node, dumper)
        key_text = _emit_inline(_represent(key, dumper), dumper)
        if inline is not None and key_text is not None:
            lines.append(f"{key_text}: {_pad(inline) if key in padded else inline}\n")
        else:
            if isinstance(node, (yaml.SequenceNode, yaml.MappingNode)):
                node.flow_style = False
            lines.append(_render_entry(key, value, node, None, dumper, "\n"))
    text = "".join(lines)
    try:
        parsed = fm.load_yaml(text) if text else {}
    except FormatError as exc:
        raise EditError(f"refused: the frontmatter would not read back ({exc})") from None
    if parsed != data or list(parsed or {}) != list(data):
        raise EditError("refused: the frontmatter would not read back as intended")
    return text


# --- checking ------------------------------------------------------------------------


def _checked(old_text: str, new_text: str, expected: dict, old_data: dict) -> str:
    """Parse ``new_text`` again; refuse it unless it reads back as ``expected``."""
    try:
        parsed = fm.parse(new_text)
    except FormatError as exc:
        raise EditError(f"refused: the edit would make the frontmatter invalid ({exc})") from None
    old_block = fm.find_block(old_text)
    old_body = old_text[old_block.end :] if old_block else old_text
    if parsed is None or new_text[parsed.block.end :] != old_body:
        raise EditError("refused: the edit would change where the frontmatter ends")
    if parsed.data != expected or list(parsed.data) != _order(old_data, expected):
        raise EditError("refused: the edited frontmatter would not read back as intended")
    return new_text


def _order(old: dict, expected: dict) -> list:
    keys = [k for k in old if k in expected]
    return keys + [k for k in expected if k not in old]
