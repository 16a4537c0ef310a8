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


#: Most tokens an index a build writes may take, and past which ``check --agent-ready``
#: warns: what an agent can read in one call and still weigh every entry (about 60
#: entries of a title and a one-sentence description; see the README, "Index budgets").
INDEX_TOKEN_BUDGET = 4000
#: A bundle listing more entries than this is hard to choose from, whatever its size.
MAX_BUNDLE_ENTRIES = 60
