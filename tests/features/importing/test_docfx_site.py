"""dotnet/docfx's own repository: its site in ``docs/`` (``docs/docfx.json``, written
with a byte-order mark), its code and 440 test fixtures beside it, and a ``toc.yml``
whose items "Get started", "Essentials", "Advanced" are names alone heading the items
after them."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import read_toc
from tests.helpers.build_sources import source_files, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
DOCFX_JSON = '\ufeff{"build": {"globalMetadata": {"_appTitle": "docfx"}}}\n'
TOC = """\
- name: Get started
- href: basic-concepts.md
- href: ../index.md

- name: Essentials
- href: markdown.md
- name: Templates
  items:
  - href: template.md
"""


def page(title: str) -> str:
    return f"# {title}\n\n{title} explains one part of building a site.\n"


def test_a_name_alone_heads_the_items_after_it(tmp_path: Path) -> None:
    files = {
        "docs/toc.yml": TOC,
        "index.md": page("Quick Start"),
        "docs/basic-concepts.md": page("Basic Concepts"),
        "docs/markdown.md": page("Markdown"),
        "docs/template.md": page("Template"),
    }
    root = write_sources(tmp_path / "src", files)
    names = source_files(root)
    toc = read_toc("docs/toc.yml", lambda r: (root / r).read_text("utf-8"), names)
    assert toc is not None
    sections = toc.sections()
    assert sections["docs/basic-concepts.md"] == ["Get started"]
    assert sections["index.md"] == ["Get started"]
    assert sections["docs/markdown.md"] == ["Essentials"]
    assert sections["docs/template.md"] == ["Essentials", "Templates"]


def test_a_repository_with_its_site_in_docs_builds_the_site(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "docs/docfx.json": DOCFX_JSON,
        "docs/toc.yml": TOC,
        "docs/index.md": page("Quick Start"),
        "docs/basic-concepts.md": page("Basic Concepts"),
        "docs/markdown.md": page("Markdown"),
        "docs/template.md": page("Template"),
        "README.md": page("docfx repository"),
        "templates/package-lock.json": '{"name": "templates", "lockfileVersion": 3}',
        "test/Docfx.Tests/TestData/overwrite/rest.md": "---\nuid: &a\nx: *b\n---\nbad\n",
        "test/Docfx.Tests/TestData/empty.md": "",
    }
    for n in range(5):
        files[f"test/Docfx.Snapshot.Tests/case{n}.md"] = page(f"Snapshot {n}")
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    # the fixtures' bad YAML and the empty one are outside the site: no failure, no note
    assert result.errors == 0 and not result.failed, result.report
    assert not [n for n in result.notes if "test/" in n.split(": ", 1)[0]], result.notes
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert sorted(pkg.documents) == [
        "basic-concepts.md",
        "index-page.md",
        "markdown.md",
        "template.md",
    ]
    # docfx.json's _appTitle names the package, its byte-order mark notwithstanding
    assert (tmp_path / "kb" / "index.md").read_text("utf-8").splitlines()[3] == "# docfx"


def _cmdlet(name: str, module: str, extra: str = "") -> str:
    return (
        f"---\nexternal help file: {module}.dll-Help.xml\nModule Name: {module}\n"
        f"title: {name}\n{extra}---\n# {name}\n\n## SYNOPSIS\n{name} does one thing to objects.\n"
    )


def _reference_repository() -> dict[str, str | bytes]:
    """MicrosoftDocs/PowerShell-Docs' shape: ``reference/docfx.json`` (the site), a
    conceptual TOC two folders down, the cmdlet pages in one folder per version whose
    TOCs the docs build writes, CI pipelines and tools at the repository's root."""
    files: dict[str, str | bytes] = {
        "reference/docfx.json": '{"build": {"content": []}}',
        "reference/bread/toc.yml": "items:\n  - name: PowerShell\n    tocHref: /powershell/\n",
        "reference/docs-conceptual/toc.yml": (
            "items:\n  - name: Overview\n    items:\n"
            "      - name: What is PowerShell?\n        href: overview.md\n"
            "      - name: Install\n        href: install/install-powershell.md\n"
            "  - name: Learn\n    items:\n"
            "      - name: Deep dives\n        href: learn/deep-dives/everything-about-arrays.md\n"
        ),
        "reference/docs-conceptual/overview.md": page("What is PowerShell"),
        "reference/docs-conceptual/install/install-powershell.md": page("Install PowerShell"),
        "reference/docs-conceptual/learn/deep-dives/everything-about-arrays.md": page("Arrays"),
        "ci.yml": "name: PR-$(Date:yyyyMMdd)\ntrigger:\n  branches:\n    include: [live]\n",
        "tools/notes.md": page("Tool notes"),
        "README.md": page("PowerShell-Docs repository"),
    }
    for version in ("5.1", "7.4"):
        for module, cmdlets in {
            "Microsoft.PowerShell.Core": ("Get-Help", "Invoke-Command", "Where-Object"),
            "Microsoft.PowerShell.Utility": ("Select-Object", "Sort-Object", "Get-Date"),
        }.items():
            for name in cmdlets:
                files[f"reference/{version}/{module}/{name}.md"] = _cmdlet(name, module)
    return files


def test_a_docfx_site_in_a_folder_of_the_repository_is_the_package(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "src", _reference_repository()),
        tmp_path / "kb",
        now=NOW,
        workers=1,
    )
    assert result.errors == 0 and not result.failed, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    # the CI pipeline, the tools and the README beside reference/ are not the site's
    assert not [d for d in pkg.documents if d.startswith(("tools/", "ci"))], sorted(pkg.documents)
    assert any("outside the docs folder" in n and "reference/" in n for n in result.notes)
    # the TOC lists 3 of 15 pages: the folders stay the tree, one bundle per version
    # and module, not scattered by their words
    assert "5-1/microsoft-powershell-core/get-help.md" in pkg.documents, sorted(pkg.documents)
    assert "7-4/microsoft-powershell-utility/sort-object.md" in pkg.documents
    assert "docs-conceptual/overview.md" in pkg.documents


def test_a_page_whose_frontmatter_yaml_refuses_is_built_from_its_text(tmp_path: Path) -> None:
    """ForEach-Object.md lists its alias ``- %``: YAML reads ``%`` as a directive, the
    docs site shows the page. The page is built, and the note says why its metadata
    is missing and where."""
    files = {
        "ForEach-Object.md": _cmdlet(
            "ForEach-Object", "Microsoft.PowerShell.Core", "aliases:\n  - %\n  - foreach\n"
        ),
        "Where-Object.md": _cmdlet("Where-Object", "Microsoft.PowerShell.Core"),
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert not result.failed, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    doc = pkg.documents["foreach-object.md"]
    assert doc.meta.get("title") == "ForEach-Object"
    assert "does one thing to objects" in doc.meta.get("description", "")
    assert "external help file" not in (tmp_path / "kb" / "foreach-object.md").read_text("utf-8")
    said = [n for n in result.notes if n.startswith("ForEach-Object.md")]
    assert said and "its frontmatter cannot be read (line 6: invalid YAML" in said[0], result.notes
    assert "fix the YAML" in said[0]


def test_the_docsets_own_links_and_moved_pages_resolve_by_docfx_json(tmp_path: Path) -> None:
    """PowerShell-Docs serves ``reference/docs-conceptual/`` at ``/powershell/scripting/``
    (docfx.json's ``src`` and ``dest``; the config ends objects with a trailing comma, as
    docfx allows), and keeps its map of moved pages in ``redir/``, whose source paths
    are its own (``../reference/...``). Its pages link both ways: site-rooted under the
    docset's path, and relative to files the map says moved."""
    moved = "redir/.openpublishing.redirection.json"
    files = {
        "reference/docfx.json": (
            '{"build": {"content": [\n'
            '  {"dest": "scripting", "files": ["**/*.md"], "src": "docs-conceptual"},\n'
            '  ],\n  "globalMetadata": {"titleSuffix": "PowerShell",},\n}}\n'
        ),
        moved: (
            '{"redirections": [{"source_path": '
            '"../reference/docs-conceptual/learn/old-remoting.md", "redirect_url": '
            '"/powershell/scripting/security/ssh-remoting", "redirect_document_id": false}]}'
        ),
        "reference/docs-conceptual/toc.yml": (
            "items:\n  - name: Learn\n    items:\n"
            "      - name: Arrays\n        href: learn/arrays.md\n"
            "      - name: Hash tables\n        href: learn/hashtables.md\n"
            "  - name: Security\n    items:\n"
            "      - name: SSH remoting\n        href: security/ssh-remoting.md\n"
        ),
        "reference/docs-conceptual/learn/arrays.md": (
            "# Arrays\n\nArrays hold items. See [hash tables](/powershell/scripting/learn/hashtables)"
            ", [remoting](/powershell/scripting/learn/old-remoting?view=powershell-7.4) and "
            "[remoting again](old-remoting.md).\n"
        ),
        # the docset's path is learned from its links: three distinct pages agree
        "reference/docs-conceptual/learn/hashtables.md": (
            "# Hash tables\n\nLike [arrays](/powershell/scripting/learn/arrays), keyed.\n"
        ),
        "reference/docs-conceptual/security/ssh-remoting.md": (
            "# SSH remoting\n\nSend [hash tables](/powershell/scripting/learn/hashtables/) "
            "and [itself](/powershell/scripting/security/ssh-remoting).\n"
        ),
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0 and not result.failed, result.report
    kb = tmp_path / "kb"
    pkg = Package(kb)
    pkg.load()
    [arrays] = [d for d in pkg.documents if d.endswith("arrays.md")]
    [hashtables] = [d for d in pkg.documents if d.endswith("hashtables.md")]
    [ssh] = [d for d in pkg.documents if d.endswith("ssh-remoting.md")]
    text = (kb / arrays).read_text("utf-8")
    here = Path(arrays).parent
    rel = lambda target: Path(os.path.relpath(target, here)).as_posix()  # noqa: E731
    # a site-rooted link stays rooted, at the package's root
    assert f"[hash tables](/{hashtables})" in text, text
    assert f"[remoting](/{ssh})" in text, text
    assert f"[remoting again]({rel(ssh)})" in text, text
    # docfx.json read as docfx reads it: its titleSuffix names the package
    assert (kb / "index.md").read_text("utf-8").splitlines()[3] == "# PowerShell"


def test_a_link_picks_the_version_of_a_page_its_view_names(tmp_path: Path) -> None:
    """PowerShell-Docs serves ``5.1/`` and ``7.4/`` both at ``/powershell/module/``, each
    a ``group`` of one moniker; ``?view=powershell-7.4`` picks the version, and a link
    without one, from a version's own page, means its own version."""
    files = {
        "reference/docfx.json": (
            '{"build": {"content": [\n'
            '  {"dest": "scripting", "files": ["**/*.md"], "src": "docs-conceptual"},\n'
            '  {"dest": "module", "files": ["**/*.md"], "group": "ps-5.1", "src": "5.1"},\n'
            '  {"dest": "module", "files": ["**/*.md"], "group": "ps-7.4", "src": "7.4"}\n'
            '  ],\n  "groups": {"ps-5.1": {"moniker_range": "powershell-5.1"},\n'
            '             "ps-7.4": {"moniker_range": "powershell-7.4"}}}}\n'
        ),
        "reference/docs-conceptual/toc.yml": "items:\n  - name: Jobs\n    href: jobs.md\n",
        "reference/docs-conceptual/jobs.md": (
            "# Jobs\n\nRun [Start-ThreadJob]"
            "(/powershell/module/threadjob/start-threadjob?view=powershell-7.4), "
            "[Get-Job](/powershell/module/microsoft.powershell.core/get-job?view=powershell-5.1)"
            ", see [jobs](/powershell/scripting/jobs).\n"
        ),
        "reference/5.1/Microsoft.PowerShell.Core/Get-Job.md": (
            "# Get-Job\n\nGets jobs. See [Receive-Job](/powershell/module/microsoft.powershell.core/receive-job).\n"
        ),
        "reference/5.1/Microsoft.PowerShell.Core/Receive-Job.md": "# Receive-Job\n\nReceives 5.1.\n",
        "reference/7.4/Microsoft.PowerShell.Core/Get-Job.md": (
            "# Get-Job\n\nGets jobs. See [Receive-Job](/powershell/module/microsoft.powershell.core/receive-job).\n"
        ),
        "reference/7.4/Microsoft.PowerShell.Core/Receive-Job.md": "# Receive-Job\n\nReceives 7.4.\n",
        "reference/7.4/ThreadJob/Start-ThreadJob.md": "# Start-ThreadJob\n\nStarts a thread job.\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0 and not result.failed, result.report
    kb = tmp_path / "kb"
    pkg = Package(kb)
    pkg.load()
    out = {
        doc.meta["sources"][0]["resource"].split("/reference/", 1)[1]: d
        for d, doc in pkg.documents.items()
    }
    jobs = (kb / out["docs-conceptual/jobs.md"]).read_text("utf-8")
    assert f"[Get-Job](/{out['5.1/Microsoft.PowerShell.Core/Get-Job.md']})" in jobs, jobs
    assert f"[Start-ThreadJob](/{out['7.4/ThreadJob/Start-ThreadJob.md']})" in jobs, jobs
    newer = (kb / out["7.4/Microsoft.PowerShell.Core/Get-Job.md"]).read_text("utf-8")
    assert f"(/{out['7.4/Microsoft.PowerShell.Core/Receive-Job.md']})" in newer, newer
    older = (kb / out["5.1/Microsoft.PowerShell.Core/Get-Job.md"]).read_text("utf-8")
    assert f"(/{out['5.1/Microsoft.PowerShell.Core/Receive-Job.md']})" in older, older


def test_files_docfx_json_serves_as_resources_are_assets_not_documents(tmp_path: Path) -> None:
    """Business Central's docfx.json serves ``**/*.pdf`` as resources: downloads, never
    pages. Its ``media/`` holds ten PDFs (two copies of a Spanish declaration no page
    links to), which were built as documents, two of them at the package's root. A
    file the TOC lists, or that no resource glob names, is still a document."""
    from tests.helpers.office import docx_bytes

    config = {
        "build": {
            "content": [{"files": ["**/*.md", "**/*.yml"], "exclude": ["**/includes/**"]}],
            "resource": [{"files": ["**/*.png", "**/*.pdf"], "exclude": ["**/obj/**"]}],
        }
    }
    files: dict[str, str | bytes] = {
        "docfx.json": json.dumps(config),
        "TOC.md": "# [Shortcuts](shortcuts.md)\n# [Handbook](media/handbook.pdf)\n",
        "shortcuts.md": page("Keyboard shortcuts")
        + "\n[Download them as a PDF](media/cheat-sheet.pdf).\n",
        "media/cheat-sheet.pdf": b"%PDF-1.7\nnot read: served as it is\n",
        "media/finance/declaration.pdf": b"%PDF-1.7\nnot read either\n",
        "media/obj/left.pdf": b"%PDF-1.7\n",
        "media/handbook.pdf": b"%PDF-1.7\nlisted by the TOC: a document, so read\n",
        "media/slides.docx": docx_bytes([("Heading1", "Service commitments"), ("", "Body.")]),
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    # the listed PDF is converted (and fails: its bytes are no PDF), as is the one the
    # glob's exclude leaves out; the others are not
    failed = sorted(e.message.split(":")[0] for e in result.failed)
    assert failed == ["media/handbook.pdf", "media/obj/left.pdf"]
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert not [d for d in pkg.documents if "cheat" in d or "declaration" in d], pkg.documents
    assert any(d.endswith("slides.md") for d in pkg.documents), sorted(pkg.documents)
    kb = tmp_path / "kb"
    (sheet,) = kb.rglob("cheat-sheet.pdf")  # copied as it is
    assert sheet.read_bytes().startswith(b"%PDF-1.7\nnot read")
    assert len(list(kb.rglob("declaration.pdf"))) == 1
    said = [n for n in result.notes if "build.resource" in n]
    assert said and said[0].startswith(
        "media/cheat-sheet.pdf: 2 files docfx.json's build.resource serves"
    ), result.notes
    assert "list one in the TOC" in said[0]
    text = (tmp_path / "kb" / "shortcuts.md").read_text("utf-8")
    assert f"]({sheet.relative_to(kb).as_posix()})" in text, text
