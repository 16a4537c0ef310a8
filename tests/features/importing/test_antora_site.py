"""An Antora component built as its site shows it, shaped like eclipse-che/che-docs:
``antora.yml`` (name, title, ``nav:`` files in order, ``asciidoc: attributes:``),
``modules/ROOT`` and named modules with ``pages/``, ``partials/``, ``examples/``,
``images/`` and a ``nav.adoc`` each (``.Caption`` lines, nested ``*`` lists of
``xref:`` entries, words heading the entries below them); pages whose header sets
attributes above their ``= Title``, including partials and examples, linking across
modules, by a page alias, and to another component.

Built before, che-docs' package had 277 of 405 titles from file names
("Con next steps after installation"), descriptions reading ``_content-type: CONCEPT
:description: ...``, raw ``{attribute}``, ``xref:`` and ``include::`` lines, its
partials, examples and nav files as pages, and bundles named "Pages", "Partials" and
"Examples"."""

# ruff: noqa: E501  (sample pages hold long lines, as real ones do)

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.site_about import site_about
from kas_tui.features.importing.toc import find_toc
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

ANTORA_YML = """\
---
name: docs
title: Che Documentation
version: next
nav:
  - modules/ROOT/nav.adoc
  - modules/install/nav.adoc
  - modules/administration-guide/nav.adoc
asciidoc:
  attributes:
    prod: Eclipse&#160;Che
    prod-short: Che
    prod-namespace: eclipse-che
    orch-cli: kubectl
    link-kube-tools: "link:https://kubernetes.io/docs/tasks/tools/[{kubernetes} - Install Tools]"
    kubernetes: Kubernetes
    project-context: che
    soft-default: upstream@
"""


def _page(content_type: str, ident: str, title: str, body: str, description: str = "") -> str:
    return (
        f":_content-type: {content_type}\n"
        f":description: {description or title}\n"
        f":keywords: {ident.replace('-', ', ')}\n"
        f":navtitle: {title}\n"
        ":page-aliases:\n\n"
        f'[id="{ident}"]\n= {title}\n\n{body}'
    )


def che_docs() -> dict[str, str | bytes]:
    return {
        "antora.yml": ANTORA_YML,
        "README.md": "# Che docs\n\nHow to build the site.\n",
        "antora-playbook.yml": "site:\n  title: Eclipse Che Documentation\n",
        "tools/preview.sh": "#!/bin/sh\nnpx antora antora-playbook.yml\n",
        "modules/ROOT/nav.adoc": ".Overview\n* xref:index.adoc[]\n",
        "modules/ROOT/pages/index.adoc": _page(
            "CONCEPT",
            "index",
            "{prod-short} documentation",
            "{prod} is a cloud development platform. Start with xref:install:con_installation-overview.adoc[].\n",
        ),
        "modules/install/nav.adoc": (
            ".Install\n"
            "* xref:con_installation-overview.adoc[]\n"
            "// Requirements\n"
            "* Requirements\n"
            "** xref:administration-guide:supported-platforms.adoc[]\n"
            "** xref:calculating-resource-requirements.adoc[Resource requirements]\n"
            "* Deploy on {kubernetes}\n"
            "** xref:proc_installing-on-minikube.adoc[]\n"
            "** xref:proc_installing-on-kind.adoc[]\n"
            "** xref:proc_installing-on-eks.adoc[]\n"
            "* xref:con_next-steps-after-installation.adoc[]\n"
            "* xref:other-component::page.adoc[Elsewhere]\n"
        ),
        "modules/install/pages/con_installation-overview.adoc": _page(
            "CONCEPT",
            "con_installation-overview",
            "Installation overview",
            "Install {prod-short} with `{orch-cli}`. See {link-kube-tools}.\n\ninclude::partial$snip_persona-admin.adoc[]\n",
        ),
        "modules/install/pages/calculating-resource-requirements.adoc": _page(
            "REFERENCE",
            "calculating-resource-requirements",
            "Calculating {prod-short} resource requirements",
            "include::example$snip_{project-context}-devfile-disclaimer.adoc[]\n\n"
            "[source,yaml]\n----\ninclude::example$/resources.yaml[tag=limits]\n----\n",
        ),
        "modules/install/pages/proc_installing-on-minikube.adoc": _page(
            "PROCEDURE",
            "proc_installing-on-minikube",
            "Installing {prod-short} on Minikube",
            '.Procedure\n\n. Start Minikube.\n. Deploy {prod-short}:\n+\n[subs="+attributes"]\n----\nchectl server:deploy --platform minikube -n {prod-namespace}\n----\n\n'
            "image::minikube-dashboard.png[Minikube dashboard]\n",
        ),
        "modules/install/pages/proc_installing-on-kind.adoc": _page(
            "PROCEDURE",
            "proc_installing-on-kind",
            "Installing {prod-short} on kind",
            "Like xref:proc_installing-on-minikube.adoc[Minikube], kind runs locally. "
            "Download link:{attachmentsdir}/kind-config.yaml[the kind config].\n",
            description="Run {prod-short} in xref:proc_installing-on-minikube.adoc[a local] *kind* cluster.",
        ),
        "modules/install/attachments/kind-config.yaml": "kind: Cluster\n",
        "modules/install/pages/proc_installing-on-eks.adoc": _page(
            "PROCEDURE",
            "proc_installing-on-eks",
            "Installing {prod-short} on Amazon EKS",
            "Create the cluster, then read xref:old-eks-name.adoc[the moved page].\n",
        ),
        "modules/install/pages/con_next-steps-after-installation.adoc": _page(
            "CONCEPT",
            "con_next-steps-after-installation",
            "Prepare {prod-short} for your team",
            '[role="_abstract"]\nPrepare {prod-short} for your team before inviting developers.\n\n'
            "include::{partialsdir}/snip_persona-admin.adoc[]\n\n"
            ".Additional resources\n\n* xref:administration-guide:configuring-oauth.adoc[]\n"
            "* xref:other-component:module:page.adoc[Another component's page]\n",
            description="Prepare {prod-short} for your team by completing these configuration tasks.",
        ),
        "modules/install/partials/snip_persona-admin.adoc": "This page is for platform administrators; see xref:administration-guide:supported-platforms.adoc[].\n",
        "modules/install/examples/snip_che-devfile-disclaimer.adoc": "NOTE: The devfile is an example.\n",
        "modules/install/examples/resources.yaml": "# tag::limits[]\nlimits:\n  memory: 4Gi\n# end::limits[]\nrequests: {}\n",
        "modules/install/images/minikube-dashboard.png": b"\x89PNG\r\n\x1a\nminikube",
        "modules/administration-guide/nav.adoc": (
            ".Administration Guide\n"
            "* xref:supported-platforms.adoc[]\n"
            "* Configuring {prod-short}\n"
            "** xref:configuring-oauth.adoc[]\n"
            "** xref:configuring-proxy.adoc[]\n"
            "** xref:configuring-namespaces.adoc[]\n"
        ),
        "modules/administration-guide/pages/supported-platforms.adoc": _page(
            "REFERENCE",
            "supported-platforms",
            "Supported platforms",
            '[%header,cols="1,1"]\n|===\n|Platform |Architecture\n\n|OpenShift\n|x86_64\n|===\n',
        ),
        "modules/administration-guide/pages/configuring-oauth.adoc": _page(
            "PROCEDURE",
            "configuring-oauth",
            "Configuring OAuth",
            "Set up OAuth for Git providers.\n",
        ),
        "modules/administration-guide/pages/configuring-proxy.adoc": _page(
            "PROCEDURE", "configuring-proxy", "Configuring proxy", "Configure a proxy.\n"
        ),
        "modules/administration-guide/pages/configuring-namespaces.adoc": _page(
            "PROCEDURE",
            "configuring-namespaces",
            "Configuring namespaces",
            "Configure namespaces.\n",
        ),
        "modules/administration-guide/pages/eks-details.adoc": (
            ":page-aliases: install:old-eks-name.adoc\n\n= EKS details\n\nAn unlisted page.\n"
        ),
    }


def _documents(kb: Path) -> dict[str, str]:
    return {
        p.relative_to(kb).as_posix(): p.read_text(encoding="utf-8")
        for p in kb.rglob("*.md")
        if p.name not in ("index.md", "SKILL.md", "log.md")
    }


def _front(text: str, key: str) -> str:
    match = re.search(rf"^{key}: (.*)$", text, re.M)
    return match.group(1).strip("'\"") if match else ""


def test_an_antora_components_nav_files_are_its_toc(tmp_path: Path) -> None:
    src = write_sources(tmp_path / "src", che_docs())
    files = {p.relative_to(src).as_posix() for p in src.rglob("*") if p.is_file()}
    toc = find_toc(files, lambda rel: (src / rel).read_text(encoding="utf-8"))
    assert toc is not None and toc.kind == "antora" and toc.docs_dir == "modules"
    assert [r.title for r in toc.roots] == ["Overview", "Install", "Administration Guide"]
    install = toc.roots[1]
    assert [c.title for c in install.children] == [
        None,
        "Requirements",
        "Deploy on Kubernetes",
        None,
    ]  # the entry naming another component's page leads nowhere here: none
    assert install.children[1].children[0].path == (
        "modules/administration-guide/pages/supported-platforms.adoc"
    )
    assert install.children[1].children[1].title == "Resource requirements"
    assert any(
        p.startswith("modules/install/nav.adoc:12: xref:other-component::page.adoc[]")
        for p in toc.problems
    )
    assert site_about(lambda rel: (src / rel).read_text(encoding="utf-8"), files)[0] == (
        "Che Documentation"
    )


def test_an_antora_component_builds_as_its_site_shows_it(tmp_path: Path) -> None:
    result = build(write_sources(tmp_path / "src", che_docs()), tmp_path / "kb", now=NOW, workers=1)
    kb = tmp_path / "kb"
    docs = _documents(kb)
    # pages only: partials, examples, nav files and the repository's tooling are none
    assert len(docs) == 12
    assert not any("partials" in d or "examples" in d or "nav" in d for d in docs)
    titles = {d: _front(t, "title") for d, t in docs.items()}
    assert "Prepare Che for your team" in titles.values()
    assert "Installing Che on Minikube" in titles.values()
    assert not any(re.fullmatch(r"(Con|Proc) .*", t) for t in titles.values())
    # the nav's captions and sections are the bundles, named as the nav names them
    root = parse_index((kb / "index.md").read_text(encoding="utf-8"))
    assert [e.title for e in root.entries][:2] == ["Install", "Administration Guide"]
    install = [d for d in docs if d.startswith("install/")]
    assert "install/proc-installing-on-minikube.md" in install
    listed = (kb / "install" / "index.md").read_text(encoding="utf-8")
    assert "## Requirements" in listed and "## Deploy on Kubernetes" in listed
    assert not [d for d in docs if "/pages/" in d or d.startswith("modules/")]
    next_steps = next(t for t in docs.values() if "Prepare Che for your team" in t)
    assert _front(next_steps, "description").startswith("Prepare Che for your team by")
    assert _front(next_steps, "content_type") == "CONCEPT"
    body = next_steps.split("\n---\n", 1)[1]
    assert "This page is for platform administrators; see [Supported platforms](" in body
    assert (
        "](../../administration-guide/configuring-oauth.md)" in body
        or "configuring-oauth.md)" in body
    )
    assert "Another component's page" in body  # its text: no page of this source
    every = "\n".join(t.split("\n---\n", 1)[1] for t in docs.values())
    for raw in ("xref:", "include::", "{prod", "{orch-cli}", "{kubernetes}", ":description:"):
        assert raw not in every, raw
    assert "[Kubernetes - Install Tools](https://kubernetes.io/docs/tasks/tools/)" in every
    assert "limits:\n  memory: 4Gi" in every and "requests" not in every
    assert "> **Note:** The devfile is an example." in every
    assert "chectl server:deploy --platform minikube -n eclipse-che" in every
    kind = next(t for t in docs.values() if "on kind" in t)
    assert _front(kind, "description") == "Run Che in a local kind cluster."
    assert "[the kind config](" in kind and "kind-config.yaml)" in kind  # an attachment
    eks = next(t for t in docs.values() if "Amazon EKS" in t)
    assert "[the moved page](" in eks and "eks-details.md)" in eks  # a page alias
    # the image is an asset its page shows; no link leads nowhere
    pkg = Package(kb)
    pkg.load(scan=True)
    assert [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"] == []
    assert any(
        "xref:other-component:module:page.adoc" in n and "no page of the source" in n
        for n in result.notes
    )
    assert any("outside the docs folder" in n for n in result.notes)


def test_a_modules_folder_built_alone_reads_each_modules_nav(tmp_path: Path) -> None:
    files = {
        k.removeprefix("modules/"): v for k, v in che_docs().items() if k.startswith("modules/")
    }
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    docs = _documents(tmp_path / "kb")
    assert len(docs) == 12
    assert "install/proc-installing-on-minikube.md" in docs
    root = parse_index((tmp_path / "kb" / "index.md").read_text(encoding="utf-8"))
    assert "Install" in [e.title for e in root.entries]


def test_a_changed_partial_builds_the_pages_including_it_again(tmp_path: Path) -> None:
    src = write_sources(tmp_path / "src", che_docs())
    build(src, tmp_path / "kb", now=NOW, workers=1)
    (src / "modules/install/partials/snip_persona-admin.adoc").write_text(
        "This page is for cluster administrators.\n", encoding="utf-8"
    )
    again = build(src, tmp_path / "kb", now=NOW, workers=1)
    assert len(again.updated) == 2
    every = "\n".join(_documents(tmp_path / "kb").values())
    assert "cluster administrators" in every


def test_a_modules_folder_alone_says_its_antora_yml_is_not_in_the_source(tmp_path: Path) -> None:
    files = {
        k.removeprefix("modules/"): v for k, v in che_docs().items() if k.startswith("modules/")
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    said = [n for n in result.notes if "attribute references name no attribute" in n]
    assert len(said) == 1 and "antora.yml, which sets them, is not in the source" in said[0]


def test_plain_asciidoc_files_outside_antora_are_pages_and_their_includes_snippets(
    tmp_path: Path,
) -> None:
    files: dict[str, str | bytes] = {
        "guide.adoc": "= User Guide\n\ninclude::chapters/intro.adoc[leveloffset=+1]\n\nSee xref:faq.adoc[].\n",
        "chapters/intro.adoc": "= Introduction\n\nHello.\n",
        "faq.adoc": "= Frequently asked questions\n\nAsk.\n",
    }
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    docs = _documents(tmp_path / "kb")
    assert sorted(_front(t, "title") for t in docs.values()) == [
        "Frequently asked questions",
        "User Guide",
    ]
    guide = next(t for t in docs.values() if "User Guide" in t)
    assert "## Introduction\n\nHello." in guide
    assert "[Frequently asked questions](faq.md)" in guide


def test_an_asciidoc_page_of_binary_bytes_fails_alone_and_is_never_written(
    tmp_path: Path,
) -> None:
    """The builder reads AsciiDoc pages itself (with their component): a page holding
    NUL bytes was written into the package as Markdown (check: OKF002, exit 1), read
    as UTF-8 whatever its encoding, and with no size limit."""
    files = {
        "antora.yml": "name: docs\ntitle: Docs\nversion: ~\nnav:\n- modules/ROOT/nav.adoc\n",
        "modules/ROOT/nav.adoc": "* xref:index.adoc[Home]\n* xref:bad.adoc[Bad]\n",
        "modules/ROOT/pages/index.adoc": "= Home\n\nThe docs start here.\n",
        # binary bytes (a few NULs in UTF-8 text are dropped: test_odd_text_files.py)
        "modules/ROOT/pages/bad.adoc": b"= Bad\n\nA\x00B\n" + bytes(64) + b"\xff\xfe",
        "modules/ROOT/pages/latin.adoc": "= Caf\u00e9s\n\nThe caf\u00e9 opens at nine.\n".encode(
            "latin-1"
        ),
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    assert [e.message for e in result.failed] == [
        "modules/ROOT/pages/bad.adoc: binary data (NUL bytes), not text"
    ]
    for written in (tmp_path / "kb").rglob("*.md"):
        assert b"\0" not in written.read_bytes(), written
    latin = next((tmp_path / "kb").rglob("latin.md")).read_text("utf-8")
    assert "The café opens at nine." in latin
