"""What tests share: sample packages, waiting for conditions, files made in memory, test
doubles (``llm_stub``: a stand-in LLM server). Test modules import these, never each other."""
