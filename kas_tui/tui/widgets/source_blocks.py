"""Which rendered Markdown block shows a given source line (headless: ranges in, index out).

Textual's ``MarkdownBlock.source_range`` is markdown-it's token ``map``: the 0-based
``[start, end)`` lines of the source each block was made from (``(0, 0)`` when unknown).
Blocks nest (a list, its items, their paragraphs), so the block to scroll to is the
innermost one holding the line.
"""

from __future__ import annotations


def block_at(ranges: list[tuple[int, int]], line: int) -> int | None:
    """Which of the rendered blocks (their 0-based ``[start, end)`` source line ranges,
    from markdown-it's token maps, in document order) shows source line ``line``: the
    innermost one holding it, else (a blank line) the first one after it, else the last."""
    real = [(i, start, end) for i, (start, end) in enumerate(ranges) if end > start]
    holding = [(start, i) for i, start, end in real if start <= line < end]
    if holding:
        return max(holding)[1]
    after = [(start, i) for i, start, _ in real if start > line]
    if after:
        return min(after)[1]
    return max(((end, i) for i, _, end in real), default=(0, None))[1]
