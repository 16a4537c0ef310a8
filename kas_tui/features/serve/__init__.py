"""``kas-tui serve``: the package in front of agents over the Model Context Protocol.

:mod:`.session` serves and logs the calls (headless, no MCP: what each tool returns is
the agent walk's own answer); :mod:`.server` puts it on the official ``mcp`` SDK over
stdio or streamable HTTP; :mod:`.clients` prints the settings snippet of each client.
"""
