"""Measuring navigability: question sets, navigators that walk like the agent, a flat
retrieval baseline, metrics and blame. Headless (no Textual, no MarkItDown).

Modules: ``model`` (a question, one navigator's run of it), ``questions`` (reading and
writing question sets), ``drafting`` (questions drafted from a package's bodies),
``lexical`` (the one lexical scorer, SQLite FTS5's BM25), ``navigator`` (the
deterministic lexical navigator), ``llm`` (an OpenAI-compatible chat model as the
navigator), ``flat`` (the retrieve-and-concatenate baseline), ``ablation`` (the package
as an agent would see it without a layer), ``metrics``, ``blame``, ``runner`` (a whole
evaluation), ``report`` (text, JSON and Markdown).
"""
