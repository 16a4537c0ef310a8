"""YAML frontmatter: find the block, load it safely, keep timestamps as written.

The block is the text between a first line ``---`` and the next line that is exactly
``---`` (trailing spaces allowed). A ``---`` inside a value never closes it, and a BOM
has been removed by :func:`kas_tui.core.okf.text.decode` before we look.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import yaml

from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.fastyaml import fast_load
from kas_tui.core.okf.text import line_of
from kas_tui.core.okf.timestamp import Timestamp

#: Frontmatter larger than this is refused (a document header, not a database).
MAX_FRONTMATTER_CHARS = 1_000_000
#: A mapping whose aliases expand to more values than this is an alias bomb.
MAX_EXPANDED_NODES = 100_000
#: Frontmatter nested deeper than this is refused (real metadata nests a few levels). Well
#: under what libyaml allows (1,000 in 0.2.5, none in older wheels) and under Python's
#: recursion limit, so what recurses over a value later (pickle for the worker pipes, the
#: metadata cache and the TUI's compact frontmatter; copies; JSON) never runs out of stack.
MAX_NESTING = 100

_DELIM = re.compile(r"^---[ \t]*\r?$", re.MULTILINE)
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_MERGE_TAG = "tag:yaml.org,2002:merge"


def _construct_timestamp(loader: yaml.BaseLoader, node: yaml.ScalarNode) -> Timestamp:
    return Timestamp(loader.construct_scalar(node))


_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class FastLoader(_Base):
    """libyaml-backed safe loader (falls back to pure Python) keeping timestamps as text."""


class MarkLoader(yaml.SafeLoader):
    """Pure-Python safe loader: slower, used for edits (same node marks as libyaml)."""


for _loader in (FastLoader, MarkLoader):
    _loader.add_constructor(_TIMESTAMP_TAG, _construct_timestamp)


@dataclass(frozen=True)
class Block:
    """Where the frontmatter sits in a text (character offsets)."""

    yaml_start: int  # first character of the YAML (after the opening line)
    yaml_end: int  # first character of the closing ``---`` line
    end: int  # first character of the body (after the closing line and its break)


def body_start(text: str) -> int:
    """Where the body begins: after the frontmatter block, or 0 when there is none or
    it is never closed (then all of the text is read as body)."""
    try:
        block = find_block(text)
    except FormatError:
        return 0
    return block.end if block else 0


def find_block(text: str) -> Block | None:
    """Locate the frontmatter block, or ``None`` when the text has none.

    Raises :class:`FormatError` when the block is opened but never closed.
    """
    first = _DELIM.match(text)
    if not first:
        return None
    yaml_start = first.end() + 1 if first.end() < len(text) else first.end()
    close = _DELIM.search(text, yaml_start)
    if close is None:
        raise FormatError(
            "frontmatter opened on line 1 is never closed",
            line=1,
            hint="add a line containing only --- after the last field",
        )
    end = close.end()
    if end < len(text):
        end += 1  # the line break ending the closing delimiter
    return Block(yaml_start, close.start(), end)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return node.value
    if isinstance(node, yaml.MappingNode):
        return [child for pair in node.value for child in pair]
    return []


def _fold(node: yaml.Node, combine: Callable[[list[int]], int]) -> int:
    """Fold the node graph bottom-up, once per node (aliases share their result).

    Iterative, so YAML nested as deep as libyaml allows cannot exhaust the Python stack.
    """
    memo: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    while stack:
        current, done = stack.pop()
        key = id(current)
        if done:
            memo[key] = combine([memo[id(child)] for child in _children(current)])
            continue
        if key in memo:
            continue
        memo[key] = 1  # a recursive alias counts once; libyaml refuses those anyway
        stack.append((current, True))
        stack.extend((child, False) for child in _children(current))
    return memo[id(node)]


def _expanded_size(node: yaml.Node) -> int:
    """How many values ``node`` stands for once every alias is expanded."""
    return _fold(node, lambda sizes: 1 + sum(sizes))


def _depth(node: yaml.Node) -> int:
    """How many levels deep collections nest in ``node``, through aliases too."""
    return _fold(node, lambda depths: 1 + max(depths, default=0))


def compose(yaml_text: str, *, first_line: int = 1, loader: type = FastLoader) -> yaml.Node | None:
    """Compose ``yaml_text`` into a node graph, refusing alias bombs.

    ``first_line`` is the file line the YAML starts on, so errors point into the file.
    """
    if len(yaml_text) > MAX_FRONTMATTER_CHARS:
        raise FormatError(
            f"frontmatter is {len(yaml_text):,} characters, over the "
            f"{MAX_FRONTMATTER_CHARS:,} limit",
            line=first_line,
            hint="keep metadata short and move long content into the body",
        )
    ldr = loader(yaml_text)
    try:
        node = ldr.get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(exc, first_line) from None
    except yaml.YAMLError as exc:
        raise FormatError(f"invalid YAML: {_one_line(exc)}", line=first_line) from None
    except RecursionError:
        raise FormatError("YAML nested too deeply to read", line=first_line) from None
    finally:
        ldr.dispose()
    # each level takes at least one character, so short text cannot nest too deeply
    if node is not None and len(yaml_text) > MAX_NESTING and _depth(node) > MAX_NESTING:
        raise FormatError(
            f"YAML nested more than {MAX_NESTING:,} levels deep",
            line=first_line,
            hint="flatten the structure: frontmatter is metadata, not a data store",
        )
    if node is not None and "*" in yaml_text and _expanded_size(node) > MAX_EXPANDED_NODES:
        raise FormatError(
            f"YAML aliases expand to more than {MAX_EXPANDED_NODES:,} values "
            "(an alias bomb); refused without expanding it",
            line=first_line,
            hint="remove the anchors (&) and aliases (*)",
        )
    return node


def construct(node: yaml.Node | None, *, first_line: int = 1, loader: type = FastLoader) -> Any:
    """Build Python values from a composed node (timestamps stay :class:`Timestamp`)."""
    if node is None:
        return None
    ldr = loader("")
    try:
        return ldr.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        raise _yaml_error(exc, first_line) from None
    except (yaml.YAMLError, TypeError, ValueError) as exc:
        # e.g. an unhashable mapping key: ``? [a, b] : c``
        raise FormatError(f"invalid YAML value: {_one_line(exc)}", line=first_line) from None
    except RecursionError:
        raise FormatError("YAML nested too deeply to read", line=first_line) from None
    finally:
        ldr.dispose()


class DuplicateKey(NamedTuple):
    """A mapping key written twice: YAML keeps the value of the later one, silently."""

    key: str
    first: int  # 1-based file line of the key's first occurrence
    line: int  # 1-based file line of this later occurrence


def duplicate_keys(node: yaml.Node | None, first_line: int = 1) -> tuple[DuplicateKey, ...]:
    """Every key written again in the same mapping, at any depth, in file order.

    Keys compare as written (tag and text); merge keys (``<<``) are left alone.
    """
    found: list[tuple[int, int, DuplicateKey]] = []  # (line, column, duplicate)
    seen_nodes: set[int] = set()
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if id(current) in seen_nodes:
            continue
        seen_nodes.add(id(current))
        if isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
        elif isinstance(current, yaml.MappingNode):
            first_seen: dict[tuple[str, str], int] = {}
            for key_node, value_node in current.value:
                stack.extend((key_node, value_node))
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE_TAG:
                    continue
                key = (key_node.tag, key_node.value)
                line = first_line + key_node.start_mark.line
                if key in first_seen:
                    duplicate = DuplicateKey(key_node.value, first_seen[key], line)
                    found.append((line, key_node.start_mark.column, duplicate))
                else:
                    first_seen[key] = line
    return tuple(duplicate for _, _, duplicate in sorted(found))


def load_yaml_checked(
    yaml_text: str, *, first_line: int = 1
) -> tuple[Any, tuple[DuplicateKey, ...]]:
    """Safely load ``yaml_text`` (see :func:`compose` for the guards), and its repeated keys.

    Plain frontmatter takes :func:`~kas_tui.core.okf.fastyaml.fast_load`, which gives the
    same values several times faster (and steps aside when a key repeats); anything
    else goes through PyYAML.
    """
    if len(yaml_text) <= MAX_FRONTMATTER_CHARS:
        fast = fast_load(yaml_text)
        if fast is not None:
            return fast, ()
    node = compose(yaml_text, first_line=first_line)
    return construct(node, first_line=first_line), duplicate_keys(node, first_line)


def load_yaml(yaml_text: str, *, first_line: int = 1) -> Any:
    """Safely load ``yaml_text``: :func:`load_yaml_checked` without the repeated keys."""
    return load_yaml_checked(yaml_text, first_line=first_line)[0]


#: What was left open, for the errors PyYAML finds only lines later: the line to blame
#: is the one that opened it (an unclosed ``[`` on line 1 is found on line 2).
_UNCLOSED = {
    "while parsing a flow sequence": ("a [ list", "]"),
    "while parsing a flow mapping": ("a { mapping", "}"),
    "while scanning a quoted scalar": ("a quoted value", "its closing quote"),
}


def _one_line(exc: Exception) -> str:
    """PyYAML's message on one line (it puts "in <unicode string>, position 29" on its own)."""
    return " ".join(str(exc).split())


def _yaml_error(exc: yaml.MarkedYAMLError, first_line: int) -> FormatError:
    hint = "check quoting and indentation; values containing ': ' or ' #' need quotes"
    unclosed = _UNCLOSED.get(exc.context or "")
    if unclosed is not None and exc.context_mark is not None:
        what, closer = unclosed
        found = exc.problem_mark.line if exc.problem_mark is not None else None
        later = f" (found on line {first_line + found})" if found is not None else ""
        return FormatError(
            f"invalid YAML: {what} opened on this line is not closed with {closer}{later}",
            line=first_line + exc.context_mark.line,
            hint=hint,
        )
    mark = exc.problem_mark or exc.context_mark
    line = first_line + mark.line if mark is not None else first_line
    problem = exc.problem or "invalid YAML"
    context = f" {exc.context}" if exc.context else ""
    return FormatError(f"invalid YAML: {problem}{context}".rstrip(), line=line, hint=hint)


@dataclass(frozen=True)
class Frontmatter:
    """A parsed frontmatter block: its values, in file order, and where it sits."""

    data: dict[str, Any]
    block: Block
    first_line: int  # 1-based file line where the YAML starts (2 when the file opens with ---)
    duplicates: tuple[DuplicateKey, ...] = ()  # keys written twice (the later value won)


def parse(text: str) -> Frontmatter | None:
    """Parse a document's frontmatter; ``None`` when it has none.

    Raises :class:`FormatError` (with the line) for an unterminated block, invalid YAML
    or a block that is not a mapping.
    """
    block = find_block(text)
    if block is None:
        return None
    first_line = line_of(text, block.yaml_start)
    yaml_text = text[block.yaml_start : block.yaml_end]
    data, duplicates = load_yaml_checked(yaml_text, first_line=first_line)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FormatError(
            f"frontmatter must be a YAML mapping (key: value lines), not a {_kind(data)}",
            line=first_line,
            hint="write one 'key: value' per line between the --- lines",
        )
    return Frontmatter(data, block, first_line, duplicates)


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return "string"
    return type(value).__name__
