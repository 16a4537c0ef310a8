"""mkdocstrings' blocks read from the source's Python code, found by building FastAPI's
repository (2026-12-07): its 22 reference pages each showed a sentence and
``::: fastapi.APIRouter`` with its options, nothing of the class. The code is read,
never imported or run."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.UTC)

ROUTING = '''\
"""Routing: how requests reach their handlers."""

from typing import Annotated

from typing_extensions import Doc

from starlette.requests import Request as Request  # another project's: not read


class Router:
    """Groups *path operations*, so that an app can be split into several files.

    ## Example

    ```python
    router = Router(prefix="/items")
    ```
    """

    def __init__(
        self,
        *,
        prefix: Annotated[str, Doc("An optional path prefix for the router.")] = "",
        tags: Annotated[
            list[str] | None,
            Doc(
                """
                Tags for every operation.

                Shown in the OpenAPI docs.
                """
            ),
        ] = None,
        debug: bool = False,
    ) -> None:
        raise SystemExit("never run")

    def get(self, path: Annotated[str, Doc("The URL path.")]) -> None:
        """Add a GET operation."""

    def post(self, path: str) -> None:
        """Add a POST operation."""

    @staticmethod
    def make(name: Annotated[str, Doc("What the router is called.")]) -> "Router":
        """Make a router."""

    def _private(self) -> None:
        """Not for users."""

    def undocumented(self) -> None:
        pass


def include(router: Router) -> None:
    """Include ``router`` in the app."""


def _helper() -> None:
    """Private."""
'''

FILES: dict[str, str | bytes] = {
    "docs/mkdocs.yml": (
        "site_name: Demo\nnav:\n  - Router: reference/router.md\n  - Module: reference/module.md\n"
        "plugins:\n  - search\n  - mkdocstrings:\n      handlers:\n        python:\n"
        "          options:\n            show_root_heading: true\n"
        "markdown_extensions:\n  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
    ),
    "docs/docs/reference/router.md": (
        "# `Router` class\n\nThe reference of the router.\n\n"
        "::: demo.routing.Router\n    options:\n        members:\n            - post\n"
        "            - get\n\n"
        "::: demo.requests.Request\n\n"
        "```markdown\n::: demo.routing.include\n```\n"
    ),
    "docs/docs/reference/module.md": "# Module\n\n::: demo.routing\n",
    "demo/__init__.py": "",
    "demo/routing.py": ROUTING,
    "demo/requests.py": "from starlette.requests import Request as Request\n",
}


def test_mkdocstrings_blocks_show_what_the_code_says(tmp_path: Path) -> None:
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", FILES), out, now=NOW, workers=1)
    assert result.failed == [] and result.errors == 0
    pkg = Package(out)
    pkg.load()
    titles = {d.title: p for p, d in pkg.documents.items()}
    router = (out / titles["Router class"]).read_text("utf-8")
    assert not pkg.documents[titles["Router class"]].description.startswith("Prefix")
    # the class: its signature without the Doc(...) its parameters carry, its docstring
    assert "```python\nclass Router(*, prefix: str='', tags: list[str] | None=None" in router
    assert "Groups *path operations*, so that" in router and 'Router(prefix="/items")' in router
    # each parameter's words, as griffe-typingdoc shows them
    assert "- `prefix` (`str`, default `''`): An optional path prefix for the router." in router
    assert "- `tags` (`list[str] | None`, default `None`): Tags for every operation." in router
    assert "  Shown in the OpenAPI docs." in router
    assert "`debug`" not in router.split("**Parameters:**")[1].split("##")[0]  # no Doc
    # the members the options list, in their order, each under a heading
    assert router.index("## `post`") < router.index("## `get`")
    assert (
        "```python\ndef get(path: str)\n```" in router
        and "- `path` (`str`): The URL path." in router
    )
    assert "undocumented" not in router and "_private" not in router
    assert "::: demo.routing.include" in router  # in a code block: as written
    assert "::: demo.requests.Request" in router  # another project's: as written, and said
    notes = "\n".join(result.notes)
    assert "docs/docs/reference/router.md:11: ::: demo.requests.Request is not shown" in notes
    assert "never run" not in router
    # a module: its docstring, then what it defines, public and documented, A to Z
    module = (out / titles["Module"]).read_text("utf-8")
    assert "Routing: how requests reach their handlers." in module
    assert module.index("## `Router`") < module.index("## `include`")
    assert "### `get`" in module and "### `post`" in module  # the class's own, one down
    assert "def make(name: str)" in module  # a static method keeps its first parameter
    assert "_helper" not in module and "## `Request`" not in module


def test_hostile_options_and_configs_are_read_as_none(tmp_path: Path) -> None:
    # options nested past any parser's stack: the block is drawn with its defaults; a
    # config of the same is no site's (a traceback before, in the package's title)
    deep = "[" * 700 + "]" * 700  # past the parser's stack (600 is)
    options = {
        **FILES,
        "docs/docs/reference/module.md": f"# Module\n\n::: demo.routing\n    options: {deep}\n",
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", options), out, now=NOW, workers=1)
    assert result.failed == []
    pkg = Package(out)
    pkg.load()
    path = next(p for p, d in pkg.documents.items() if d.title == "Module")
    assert "## `Router`" in (out / path).read_text("utf-8")
    config = {**FILES, "docs/mkdocs.yml": f"site_name: Demo\nplugins: {deep}\n"}
    result = build(write_sources(tmp_path / "src2", config), tmp_path / "kb2", now=NOW, workers=1)
    assert result.failed == [] and result.errors == 0


def test_the_sites_handler_options_hold_for_every_block(tmp_path: Path) -> None:
    # FastAPI's mkdocs.yml says members_order: source and show_if_no_docstring: true
    config = (
        "site_name: Demo\nnav:\n  - Module: reference/module.md\nplugins:\n  - mkdocstrings:\n"
        "      handlers:\n        python:\n          options:\n"
        "            members_order: source\n            show_if_no_docstring: true\n"
    )
    out = tmp_path / "kb"
    build(
        write_sources(tmp_path / "src", {**FILES, "docs/mkdocs.yml": config}),
        out,
        now=NOW,
        workers=1,
    )
    pkg = Package(out)
    pkg.load()
    path = next(p for p, d in pkg.documents.items() if d.title == "Module")
    module = (out / path).read_text("utf-8")
    assert (
        module.index("### `get`") < module.index("### `post`") < module.index("### `undocumented`")
    )
    assert "_private" not in module and "_helper" not in module
