"""A Mintlify site as mintlify/docs keeps it: ``docs.json`` whose navigation nests
``languages`` > ``tabs`` > ``groups`` > pages (a group's ``root`` page, a tab's ``menu``,
a tab that only links off the site, pages an OpenAPI spec makes), the other languages'
navigation in ``fr.json`` by ``$ref`` and their pages in ``fr/``, ``redirects`` in a
file of their own, reusable ``snippets/``, a ``.mintignore``, the repository's README
and CONTRIBUTING beside the pages. And the older ``mint.json`` (langtrace-docs: groups,
a ``tabs`` entry gathering the groups under its ``url``, an anchor linking off the site).

Built before this reader, mintlify/docs' root was alphabetical ("Ai", "Analytics
overview", ...), its config and its translations' navigation (``docs.json``,
``fr.json``, ``gt-lock.json``) and seven OpenAPI specs were documents, and the package
was titled "Mint" (its folder)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import find_toc, read_toc
from kas_tui.features.importing.toc_mintlify import mintlify_about
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

NAVIGATION = {
    "languages": [
        {
            "language": "en",
            "tabs": [
                {
                    "tab": "Documentation",
                    "groups": [
                        {
                            "group": "Get started",
                            "pages": [
                                "index",
                                "quickstart",
                                {"group": "CLI", "root": "cli/index", "pages": ["cli/install"]},
                            ],
                        },
                        {
                            "group": "Create content",
                            "pages": [
                                {"group": "Formatting", "pages": ["create/text", "create/code"]},
                                "create/tables",
                            ],
                        },
                    ],
                },
                {
                    "tab": "API reference",
                    "openapi": "openapi.json",
                    "groups": [
                        {
                            "group": "Endpoints",
                            "pages": ["api/introduction", "GET /users", "openapi.json POST /users"],
                        }
                    ],
                },
                {"tab": "Blog", "href": "https://acme.example/blog"},
                {
                    "tab": "Learn",
                    "menu": [
                        {
                            "item": "Guides",
                            "groups": [{"group": "Overview", "pages": ["guides/index"]}],
                        },
                        {"item": "Courses", "href": "https://learn.acme.example/"},
                    ],
                },
            ],
        },
        {"$ref": "./fr.json"},
    ]
}
DOCS_JSON = json.dumps(
    {
        "$schema": "https://mintlify.com/docs.json",
        "theme": "mint",
        "name": "Acme",
        "description": "Acme is a platform for shipping invoices to the tax office.",
        "navigation": NAVIGATION,
        "redirects": {"$ref": "./redirects.json"},
    },
    indent=2,
)


def page(title: str, body: str = "", description: str = "") -> str:
    said = description or f"How {title.lower()} works in Acme, step by step."
    return f'---\ntitle: "{title}"\ndescription: "{said}"\n---\n\n{body or title + " in Acme."}\n'


def mintlify_like() -> dict[str, str | bytes]:
    return {
        "docs.json": DOCS_JSON,
        "fr.json": json.dumps(
            {"language": "fr", "groups": [{"group": "Démarrer", "pages": ["fr/index"]}]}
        ),
        "redirects.json": json.dumps(
            [
                {"source": "/old-quickstart", "destination": "/quickstart"},
                {"source": "/blog/:slug*", "destination": "https://acme.example/blog/:slug*"},
            ]
        ),
        "index.mdx": page(
            "Introduction",
            'import Note from "/snippets/note.mdx"\n\n<Note />\n\nStart with the '
            "[quickstart](/old-quickstart) or [install the CLI](/cli/install).",
        ),
        "quickstart.mdx": page("Quickstart", "Deploy, then see [text](/create/text#bold)."),
        "cli/index.mdx": page("CLI", "The CLI previews your site. [Install it](install)."),
        "cli/install.mdx": page("Install the CLI"),
        "create/text.mdx": page("Format text"),
        "create/code.mdx": page("Format code"),
        "api/introduction.mdx": page("API introduction"),
        "guides/index.mdx": page("Guides"),
        "guides/keep.draft.mdx": page("A draft kept"),
        "guides/idea.draft.mdx": page("An idea"),
        "drafts/wip.mdx": page("Work in progress"),
        "fr/index.mdx": page("Introduction (fr)", "Commencez ici."),
        "fr/quickstart.mdx": page("Démarrage rapide", "Déployez."),
        "snippets/note.mdx": "<Note>Acme is in beta.</Note>\n",
        "snippets/widget.jsx": "export const Widget = () => <div />\n",
        ".mintignore": "# drafts stay in the repository\ndrafts/\n*.draft.mdx\n!keep.draft.mdx\n",
        "README.md": "# Acme docs\n\nRun `mint dev` to preview.\n",
        "CONTRIBUTING.md": "# Contributing\n\nOpen a pull request.\n",
        "openapi.json": json.dumps({"openapi": "3.1.0", "info": {"title": "Acme"}, "paths": {}}),
        "images/hero.png": b"\x89PNG\r\n\x1a\nfake",
    }


def test_a_mintlify_site_builds_as_its_navigation_lists_it(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "src", mintlify_like()), tmp_path / "kb", now=NOW, workers=1
    )
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    # no translation, snippet, ignored draft, README or config is a page; the draft
    # .mintignore takes back is one
    assert sorted(pkg.documents) == [
        "api/introduction.md",
        "cli/index-page.md",
        "cli/install.md",
        "create/code.md",
        "create/text.md",
        "guides/index-page.md",
        "guides/keep-draft.md",
        "index-page.md",
        "quickstart.md",
    ]
    root = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert root.splitlines()[3] == "# Acme"
    assert "Get started" in [s.title for s in parse_index(root).sections]
    notes = "\n".join(result.notes)
    # a page the navigation lists that the source lacks is said where it is listed
    line = next(n for n, text in enumerate(DOCS_JSON.splitlines(), 1) if '"create/tables"' in text)
    assert f"docs.json:{line}: its navigation lists 'create/tables'" in notes
    assert "2 pages of its navigation are made from an OpenAPI" in notes
    assert "in fr/" in notes and "translations" in notes
    # links as the site serves them: extensionless, site-absolute, through its redirects
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken
    intro = (tmp_path / "kb" / "index-page.md").read_text("utf-8")
    assert "(/quickstart.md)" in intro and "(/cli/install.md)" in intro
    skill = (tmp_path / "kb" / "SKILL.md").read_text("utf-8")
    assert "Acme is a platform for shipping invoices to the tax office." in skill
    assets = {
        p.relative_to(tmp_path / "kb" / "assets").as_posix()
        for p in (tmp_path / "kb" / "assets").rglob("*")
        if p.is_file()
    }
    # snippets and ignored pages are files (a snippet as text), the config read for the tree
    assert {"snippets/note.txt", "snippets/widget.jsx", "openapi.json", "images/hero.png"} <= assets
    assert "drafts/wip.txt" in assets and "docs.json" not in assets


def test_the_navigation_tree_tabs_groups_and_roots(tmp_path: Path) -> None:
    files = mintlify_like()
    names = set(files)
    toc = find_toc(names, files.get)  # type: ignore[arg-type]
    assert toc is not None and toc.kind == "mintlify" and toc.docs_dir == ""

    def shape(nodes: list) -> list:
        return [(n.title, n.path, shape(n.children)) for n in nodes]

    assert shape(toc.roots) == [
        (
            "Documentation",
            None,
            [
                (
                    "Get started",
                    None,
                    [
                        (None, "index.mdx", []),
                        (None, "quickstart.mdx", []),
                        ("CLI", "cli/index.mdx", [(None, "cli/install.mdx", [])]),
                    ],
                ),
                (
                    "Create content",
                    None,
                    [
                        (
                            "Formatting",
                            None,
                            [(None, "create/text.mdx", []), (None, "create/code.mdx", [])],
                        )
                    ],
                ),
            ],
        ),
        ("API reference", None, [("Endpoints", None, [(None, "api/introduction.mdx", [])])]),
        ("Learn", None, [("Guides", None, [("Overview", None, [(None, "guides/index.mdx", [])])])]),
    ]
    assert mintlify_about(DOCS_JSON) == (
        "Acme",
        "Acme is a platform for shipping invoices to the tax office.",
    )


def test_other_versions_pages_are_left_out(tmp_path: Path) -> None:
    docs = {
        "$schema": "https://mintlify.com/docs.json",
        "name": "Acme",
        "navigation": {
            "versions": [
                {"version": "v1", "groups": [{"group": "Start", "pages": ["v1/start", "shared"]}]},
                {
                    "version": "v2",
                    "default": True,
                    "groups": [{"group": "Start", "pages": ["start", "shared"]}],
                },
            ]
        },
    }
    files = {
        "docs.json": json.dumps(docs, indent=2),
        "start.mdx": page("Start"),
        "shared.mdx": page("Shared page"),
        "v1/start.mdx": page("Start (v1)"),
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert sorted(pkg.documents) == ["shared.md", "start.md"]
    assert "1 file of the docs' earlier versions (the other versions docs.json lists)" in "\n".join(
        result.notes
    )


def test_mint_json_groups_and_its_tabs_by_url() -> None:
    mint = {
        "name": "Langtrace AI Docs",
        "navigation": [
            {"group": "Getting Started", "pages": ["introduction", "quickstart"]},
            {"group": "Project APIs", "pages": ["api-reference/project/create"]},
            {
                "group": "Tracing",
                "pages": ["tracing/overview", {"group": "Sampling", "pages": ["tracing/sampling"]}],
            },
        ],
        "tabs": [{"name": "API Reference", "url": "api-reference"}],
        "anchors": [
            {"name": "GitHub", "icon": "github", "url": "https://github.com/Scale3-Labs/langtrace"}
        ],
    }
    files = {
        "mint.json": json.dumps(mint, indent=2),
        "introduction.mdx": "x",
        "quickstart.mdx": "x",
        "api-reference/project/create.mdx": "x",
        "tracing/overview.mdx": "x",
        "tracing/sampling.md": "x",
    }
    toc = read_toc("mint.json", files.get, set(files))

    def shape(nodes: list) -> list:
        return [(n.title, n.path, shape(n.children)) for n in nodes]

    assert toc is not None and toc.problems == []
    assert shape(toc.roots) == [
        ("Getting Started", None, [(None, "introduction.mdx", []), (None, "quickstart.mdx", [])]),
        (
            "Tracing",
            None,
            [
                (None, "tracing/overview.mdx", []),
                ("Sampling", None, [(None, "tracing/sampling.md", [])]),
            ],
        ),
        (
            "API Reference",
            None,
            [("Project APIs", None, [(None, "api-reference/project/create.mdx", [])])],
        ),
    ]


def test_another_tools_docs_json_is_no_mintlify_config(tmp_path: Path) -> None:
    # a docs.json of another tool (a list of pages, no navigation) is a data file
    files = {
        "docs.json": json.dumps({"pages": ["a", "b"], "version": 3}),
        "a.md": "# A\n\nThe first page of the guide.\n",
        "b.md": "# B\n\nThe second page of the guide.\n",
    }
    assert read_toc("docs.json", files.get, set(files)) is None
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert {"a.md", "b.md"} <= set(pkg.documents)
    assert not any("navigation" in n for n in result.notes)


def test_versions_in_every_language_keep_one_version_in_one_language(tmp_path: Path) -> None:
    # crewAI: docs/docs.json, 4 languages x 35 versions, pages in docs/<version>/<lang>/;
    # built before, 18,077 documents (every version in ar, ko, pt-BR) for about 208
    def version(name: str, lang: str, default: bool = False) -> dict:
        entry: dict = {
            "version": name,
            "tabs": [
                {
                    "tab": "Docs",
                    "groups": [
                        {
                            "group": "Start",
                            "pages": [f"{name}/{lang}/intro", f"{name}/{lang}/install"],
                        }
                    ],
                }
            ],
        }
        return {**entry, "default": True} if default else entry

    docs = {
        "$schema": "https://mintlify.com/docs.json",
        "name": "CrewAI",
        "navigation": {
            "languages": [
                {
                    "language": lang,
                    "versions": [
                        version("edge", lang),
                        version("v2", lang, True),
                        version("v1", lang),
                    ],
                }
                for lang in ("en", "ko")
            ]
        },
    }
    files: dict[str, str | bytes] = {"docs/docs.json": json.dumps(docs, indent=2)}
    for name in ("edge", "v2", "v1"):
        for lang in ("en", "ko"):
            files[f"docs/{name}/{lang}/intro.mdx"] = page(f"Introduction {name} {lang}")
            files[f"docs/{name}/{lang}/install.mdx"] = page(f"Installation {name} {lang}")
    files["docs/v1/en/old-unlisted.mdx"] = page("A page only v1 kept")
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    titles = sorted(str(d.meta.get("title")) for d in pkg.documents.values())
    assert titles == ["Installation v2 en", "Introduction v2 en"], titles
    notes = "\n".join(result.notes)
    assert "9 files of the docs' earlier versions" in notes and "translations" in notes


def test_mint_json_versions_leave_the_others_out(tmp_path: Path) -> None:
    # agentops: "versions": ["v2", "v1", "v0"], groups naming their version, v0/ in no group
    mint = {
        "name": "AgentOps",
        "versions": ["v2", "v1", "v0"],
        "navigation": [
            {"group": "Getting Started", "version": "v1", "pages": ["v1/quickstart"]},
            {"group": "Getting Started", "version": "v2", "pages": ["v2/quickstart"]},
            {"group": "Help", "pages": ["faq"]},
        ],
    }
    files = {
        "mint.json": json.dumps(mint, indent=2),
        "v2/quickstart.mdx": page("Quickstart"),
        "v1/quickstart.mdx": page("Quickstart (v1)"),
        "v0/logger.mdx": page("Logger (v0)"),
        "faq.mdx": page("FAQ"),
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert sorted(str(d.meta.get("title")) for d in pkg.documents.values()) == ["FAQ", "Quickstart"]
    assert "2 files of the docs' earlier versions" in "\n".join(result.notes)


SPEC = """\
openapi: 3.0.0
info: {title: Trigger API, version: 1.0.0}
paths:
  /api/v1/schedules/{schedule_id}:
    parameters:
      - $ref: "#/components/parameters/ScheduleId"
    put:
      summary: Update Schedule
      description: Update a schedule by its ID. This only works on IMPERATIVE schedules.
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/UpdateSchedule"}
      responses:
        "200": {description: Schedule updated successfully}
        "404": {$ref: "#/components/responses/NotFound"}
components:
  parameters:
    ScheduleId: {name: schedule_id, in: path, required: true, schema: {type: string}, description: The ID of the schedule.}
  schemas:
    UpdateSchedule:
      type: object
      required: [cron]
      properties:
        cron: {type: string, description: A CRON expression.}
        timezone: {type: string}
  responses:
    NotFound: {description: Resource not found}
"""


def test_pages_an_openapi_spec_makes_show_the_endpoint(tmp_path: Path) -> None:
    # trigger.dev: `openapi: "v3-openapi PUT /api/v1/schedules/{schedule_id}"` and an empty
    # body; dub: `openapi: patch /commissions/{id}` with `sidebarTitle`, its spec a URL.
    # Built before, each was "Document imported from update.mdx." (title: "Update").
    docs = {
        "$schema": "https://mintlify.com/docs.json",
        "name": "Trigger.dev",
        "api": {"openapi": "https://spec.example.com/dub"},
        "navigation": {
            "tabs": [
                {
                    "tab": "API reference",
                    "openapi": ["openapi.yml", "v3-openapi.yaml"],
                    "groups": [
                        {"group": "Schedules", "pages": ["schedules/update", "commissions/update"]}
                    ],
                }
            ]
        },
    }
    files = {
        "docs.json": json.dumps(docs, indent=2),
        "v3-openapi.yaml": SPEC,
        "openapi.yml": "openapi: 3.0.0\npaths: {}\n",
        "schedules/update.mdx": '---\ntitle: "Update Schedule"\nopenapi: "v3-openapi PUT /api/v1/schedules/{schedule_id}"\n---\n',
        "commissions/update.mdx": "---\nopenapi: patch /commissions/{id}\nsidebarTitle: Update commission\n---\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    schedule = pkg.documents["schedules/update.md"]
    assert schedule.meta["description"].startswith("Update a schedule by its ID")
    body = (tmp_path / "kb" / "schedules" / "update.md").read_text("utf-8")
    assert "`PUT /api/v1/schedules/{schedule_id}`" in body
    assert "- `schedule_id` (path, string, required): The ID of the schedule." in body
    assert "- `cron` (string, required): A CRON expression." in body
    assert "- `404`: Resource not found" in body
    commission = pkg.documents["commissions/update.md"]
    assert commission.meta["title"] == "Update commission"
    text = (tmp_path / "kb" / "commissions" / "update.md").read_text("utf-8")
    assert "`PATCH /commissions/{id}`" in text and "https://spec.example.com/dub" in text


def test_an_overfull_folder_splits_by_the_sites_own_groups(tmp_path: Path) -> None:
    # trigger.dev: docs/ holds 74 pages of its own beside folders (realtime/, cli/...); the
    # navigation puts them under "Writing tasks", "CLI", "Troubleshooting"... Built before,
    # they were grouped by title words into tasks/, cli/ and queue/ ("Email us" in Queue)
    groups = {"Writing tasks": 18, "Troubleshooting": 16, "Help center": 14, "Deployment": 18}
    folders = ("realtime", "management", "guides")
    pages: dict[str, str | bytes] = {}
    nav_groups = []
    for group, n in groups.items():
        names = [f"{slug}-{i}" for i, slug in enumerate([group.split()[0].lower()] * n)]
        nav_groups.append({"group": group, "pages": names})
        for i, name in enumerate(names):
            pages[f"{name}.mdx"] = page(f"{group} topic {i} with words {name}", f"About {name}.")
    for folder in folders:
        names = [f"{folder}/page-{i}" for i in range(30)]
        nav_groups.append({"group": folder.title(), "pages": names})
        for name in names:
            pages[f"{name}.mdx"] = page(f"{folder} {name}", f"About {name}.")
    docs = {
        "$schema": "https://mintlify.com/docs.json",
        "name": "Trigger.dev",
        "navigation": {"tabs": [{"tab": "Documentation", "groups": nav_groups}]},
    }
    pages["docs.json"] = json.dumps(docs, indent=2)
    result = build(write_sources(tmp_path / "src", pages), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    root = parse_index((tmp_path / "kb" / "index.md").read_text("utf-8"))
    bundles = {e.title for e in root.entries if e.target.endswith("/")}
    assert set(groups) <= bundles, bundles
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert all(p.startswith("help-center/") for p in pkg.documents if p.startswith("help-"))


def test_a_bundle_spanning_tabs_stands_under_no_one_group(tmp_path: Path) -> None:
    # dub: docs/ holds the Developer Docs, API Reference and Webhooks tabs; its root entry
    # stood under "## GETTING STARTED", the group of its first page
    nav = {
        "tabs": [
            {
                "tab": "Developer Docs",
                "groups": [
                    {"group": "GETTING STARTED", "pages": ["docs/introduction", "docs/quickstart"]},
                    {
                        "group": "CONCEPTS",
                        "pages": ["docs/concepts/links", "docs/concepts/analytics"],
                    },
                ],
            },
            {
                "tab": "API Reference",
                "groups": [
                    {
                        "group": "Links",
                        "pages": ["docs/api/create", "docs/api/list", "docs/api/get"],
                    }
                ],
            },
            {
                "tab": "Webhooks",
                "groups": [
                    {"group": "Events", "pages": ["docs/hooks/a", "docs/hooks/b", "docs/hooks/c"]}
                ],
            },
            {
                "tab": "Help Center",
                "groups": [{"group": "Basics", "pages": ["help/one", "help/two", "help/three"]}],
            },
        ]
    }
    files: dict[str, str | bytes] = {
        "docs.json": json.dumps(
            {"$schema": "https://mintlify.com/docs.json", "name": "Dub", "navigation": nav}
        )
    }
    for name in (
        "introduction",
        "quickstart",
        "concepts/links",
        "concepts/analytics",
        "api/create",
        "api/list",
        "api/get",
        "hooks/a",
        "hooks/b",
        "hooks/c",
    ):
        files[f"docs/{name}.mdx"] = page(name.replace("/", " ").title())
    for name in ("one", "two", "three"):
        files[f"help/{name}.mdx"] = page(f"Help article {name}")
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    text = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert "## GETTING STARTED" not in text
    assert text.index("](docs/)") < text.index("## ")  # above every section
