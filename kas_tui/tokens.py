"""Token estimates that need no network and no tokenizer download.

One token is about four characters of English text (the rule of thumb OpenAI and
Anthropic publish for their tokenizers); we round up so a non-empty text costs at
least one token. Good to within about 15% on prose, which is what a budget needs.
"""

from __future__ import annotations

CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """Estimated tokens an LLM spends reading ``text``."""
    return -(-len(text) // CHARS_PER_TOKEN)
