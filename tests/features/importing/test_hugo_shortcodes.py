"""Hugo's ``param`` shortcode, printed as the site prints it: OpenTelemetry's docs
write every SDK version as ``{{% param vers.otel %}}`` (the versions cascaded from
``docs/languages/java/_index.md``) and each cross-posted blog post's address as
``<{{% param canonical_url %}}>``; 271 calls were left raw in the package, and 58 of
them made broken links."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.UTC)
CONFIG = """\
baseURL: https://opentelemetry.io
title: OpenTelemetry
defaultContentLanguage: en
params:
  Github_Repo: https://github.com/open-telemetry/opentelemetry.io
  vers: {otel: 0.1.0}
languages:
  en:
    params:
      description: The OpenTelemetry Project Site
"""
JAVA = """\
---
title: Java
cascade:
  vers:
    instrumentation: 2.30.0
    otel: 1.64.0
weight: 150
---

Java's SDK and API.
"""
API = """\
---
title: Record Telemetry with API
weight: 12
---

The `io.opentelemetry:opentelemetry-api:{{% param vers.otel %}}` artifact, with the
agent {{< param "vers.instrumentation" >}}; the site's repository is
{{% param github_repo %}}. {{% param vers %}} is a map, {{% param nowhere %}} nothing.

```kotlin
implementation("io.opentelemetry:opentelemetry-bom:{{% param vers.otel %}}")
```

To show the call itself, Hugo's docs escape it: `{{</* param vers.otel */>}}`.
"""
POST = """\
---
title: Histograms vs summaries
canonical_url: https://dyladan.me/histograms/2023/05/03/histograms-vs-summaries/
---

_A version of this article was [originally posted][] on the author's blog._

[originally posted]: <{{% param canonical_url %}}>
"""


def otel_like() -> dict[str, str]:
    en = "content/en/"
    return {
        "config/_default/hugo.yaml": CONFIG,
        "config/_default/params.yaml": "status: beta\n",
        en + "_index.md": "---\ntitle: OpenTelemetry\n---\n\nThe site, {{% param status %}}.\n",
        en
        + "docs/_index.md": "---\ntitle: Documentation\ncascade: {vers: {otel: 9.9.9}}\n---\n\nDocs.\n",
        en + "docs/java/_index.md": JAVA,
        en + "docs/java/api.md": API,
        en + "docs/go.md": "---\ntitle: Go\n---\n\nGo's SDK pins {{% param vers.otel %}}.\n",
        en + "blog/2023/histograms-vs-summaries/index.md": POST,
    }


def test_param_calls_print_the_page_section_and_site_values(tmp_path: Path) -> None:
    result = build(write_sources(tmp_path / "src", otel_like()), tmp_path / "kb", now=NOW)
    kb = tmp_path / "kb"
    api = (kb / "docs" / "java" / "api.md").read_text("utf-8")
    # the nearest section's cascade wins over a farther one's and the site's
    assert "`io.opentelemetry:opentelemetry-api:1.64.0` artifact" in api
    assert "with the\nagent 2.30.0;" in api
    assert "repository is\nhttps://github.com/open-telemetry/opentelemetry.io." in api  # no case
    assert 'opentelemetry-bom:1.64.0")' in api  # in a code fence too, as Hugo does
    assert "`{{</* param vers.otel */>}}`" in api  # an escaped call is no call
    # a map, or a name nothing defines, stays as written, and the build says where
    assert "{{% param vers %}} is a map, {{% param nowhere %}} nothing" in api
    notes = [n for n in result.notes if "param" in n]
    assert notes == [
        "content/en/docs/java/api.md:8: {{% param vers %}} prints nothing the page, a section "
        "above it or the site's params define as text: left as written",
        "content/en/docs/java/api.md:8: {{% param nowhere %}} prints nothing the page, a section "
        "above it or the site's params define as text: left as written",
    ]
    assert "pins 9.9.9." in (kb / "docs" / "go.md").read_text("utf-8")
    assert "The site, beta." in (kb / "index-page.md").read_text("utf-8")  # split params.yaml
    post = next(p for p in kb.glob("blog/**/*.md") if p.name != "index.md").read_text("utf-8")
    assert "[originally posted]: <https://dyladan.me/histograms/2023/05/03/" in post
    pkg = Package(kb)
    pkg.load()
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]


def test_a_changed_cascade_builds_the_pages_below_it_again(tmp_path: Path) -> None:
    files = otel_like()
    source = write_sources(tmp_path / "src", files)
    build(source, tmp_path / "kb", now=NOW)
    (source / "content/en/docs/java/_index.md").write_text(
        JAVA.replace("1.64.0", "1.65.0"), encoding="utf-8"
    )
    result = build(source, tmp_path / "kb", now=NOW)
    assert "docs/java/api.md" in result.updated
    api = (tmp_path / "kb" / "docs" / "java" / "api.md").read_text("utf-8")
    assert "opentelemetry-api:1.65.0" in api
    assert "docs/go.md" not in result.updated  # not below the changed section


KUBEFLOW_HOME = """\
+++
title = "Kubeflow"
+++

<!-- Hero section -->
{{<blocks/cover title="Kubeflow" subtitle="The foundation of tools." color="dark">}}
<div class="mt-5"><a class="btn" href="/docs/started/">Get Started</a></div>
{{</blocks/cover>}}

<h3>What is Kubeflow?</h3>
<p>Kubeflow is the foundation of tools for AI Platforms on Kubernetes,
{{< param "status" >}} since 2018.</p>
"""


def test_an_html_page_with_front_matter_is_a_page_of_the_site(tmp_path: Path) -> None:
    """kubeflow/website's home is ``content/en/_index.html``: its TOML front matter
    was read as text (the page titled "Index") and its Docsy shortcodes, read as HTML
    tags, left "{{}}" in the body. Jekyll's ``index.html`` pages open with YAML."""
    from kas_tui.features.importing.convert import Converted, Limits, convert_here

    def convert(path: Path):
        return convert_here(path, Limits())

    hugo = tmp_path / "_index.html"
    hugo.write_text(KUBEFLOW_HOME, encoding="utf-8")
    page = convert(hugo)
    assert isinstance(page, Converted)
    assert page.title == "Kubeflow" and page.frontmatter == {"title": "Kubeflow"}
    assert page.kind == "html" and page.body_line == 4
    assert "{{" not in page.markdown.replace("{{< param", "")
    assert "[Get Started](/docs/started/)" in page.markdown
    assert '{{< param "status" >}} since 2018' in page.markdown  # printed by the build
    jekyll = tmp_path / "index.html"
    jekyll.write_text("---\nlayout: home\ntitle: Just the Docs\n---\n<p>A theme.</p>\n", "utf-8")
    page = convert(jekyll)
    assert isinstance(page, Converted) and page.title == "Just the Docs"
    assert page.markdown.strip() == "A theme." and "layout" not in page.markdown
    plain = tmp_path / "plain.html"  # no front matter: a web page as before
    plain.write_text("<html><head><title>Plain</title></head><p>Hi.</p></html>", "utf-8")
    page = convert(plain)
    assert isinstance(page, Converted) and page.title == "Plain" and page.frontmatter is None


def test_a_hugo_html_home_page_is_the_sites_home_in_the_package(tmp_path: Path) -> None:
    files = otel_like()
    files["content/en/_index.html"] = KUBEFLOW_HOME
    del files["content/en/_index.md"]
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    root = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert "* [Kubeflow](index-page.md) - Kubeflow is the foundation of tools" in root
    home = (tmp_path / "kb" / "index-page.md").read_text("utf-8")
    assert "AI Platforms on Kubernetes,\nbeta since 2018." in home or "beta since 2018" in home


def test_ref_links_paired_shortcodes_and_figures_show_as_the_site_shows_them(
    tmp_path: Path,
) -> None:
    """grpc.io links its quick starts with ``{{< relref "/docs/languages/go/quickstart" >}}``
    (from the content folder), ``{{< relref "docs/languages/cpp/alts" >}}`` (not found
    beside the page: from the content folder) and ``{{< relref grpc-on-dotnetcore >}}``
    (a page's name alone): 40 links that were no links; its ``{{% alert %}}`` callouts
    wrapped the page's own text in template calls."""
    en = "content/en/"
    files = {
        "hugo.toml": 'baseURL = "https://grpc.io/"\ntitle = "gRPC"\n',
        en + "_index.md": "---\ntitle: gRPC\n---\n\nA high performance RPC framework.\n",
        en
        + "docs/languages/go/quickstart.md": "---\ntitle: Quick start\n---\n\n## Install\n\nGo.\n",
        en + "docs/languages/cpp/alts.md": "---\ntitle: ALTS in C++\n---\n\nALTS.\n",
        en + "blog/grpc-on-dotnetcore.md": "---\ntitle: gRPC on .NET Core\n---\n\nNews.\n",
        en + "docs/guides/auth.md": (
            "---\ntitle: Authentication\n---\n\n"
            'Start with [Go]({{< relref "/docs/languages/go/quickstart#install" >}}), see\n'
            '[ALTS in C++]({{<relref "docs/languages/cpp/alts">}}) and [the news][ga].\n\n'
            '{{% alert title="Warning" color="warning" %}}\nUse TLS in production.\n'
            "{{% /alert %}}\n\n"
            '{{< figure src="/img/auth.png" alt="The auth flow" >}}\n\n{{< youtube abc >}}\n\n'
            "[ga]: {{< relref grpc-on-dotnetcore >}}\n"
        ),
    }
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    kb = tmp_path / "kb"
    auth = next(kb.rglob("auth.md")).read_text("utf-8")
    go = next(kb.rglob("quickstart.md")).relative_to(kb).as_posix()
    assert "[Go](" in auth and "quickstart.md#install)" in auth, auth
    assert "[ALTS in C++](" in auth and "alts.md)" in auth
    assert "[ga]: " in auth and "grpc-on-dotnetcore.md" in auth
    assert "**Warning**\nUse TLS in production." in auth and "alert" not in auth
    assert "![The auth flow](" in auth
    assert "{{< youtube abc >}}" in auth  # a theme's template: as written
    pkg = Package(kb)
    pkg.load()
    assert go in pkg.documents
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]


def test_a_paired_shortcode_around_code_shows_a_code_block(tmp_path: Path) -> None:
    """hugoDocs wraps every config example of 168 pages in ``{{< code-toggle >}}``:
    unwrapped as text, its settings read as the page's sentences (Configure modules was
    described "[module] replacements = 'github.com/bep/my-theme -> ../..'"). Hugo's own
    ``highlight`` and a shortcode named for code show their text as a code block."""
    en = "content/en/"
    files = {
        "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Docs"\n',
        en + "_index.md": "---\ntitle: Docs\n---\n\nThe site's docs.\n",
        en + "configuration/module.md": (
            "---\ntitle: Configure modules\n---\n\nThis is the default configuration:\n\n"
            "{{< code-toggle config=module />}}\n\n## Top-level settings\n\nSet these.\n\n"
            "{{< code-toggle file=hugo >}}\n[module]\nreplacements = 'github.com/bep/my-theme"
            " -> ../..,github.com/bep/shortcodes -> /some/path'\n{{< /code-toggle >}}\n\n"
            '{{< highlight go "linenos=table" >}}\nfunc main() { fmt.Println("hi") }\n'
            "{{< /highlight >}}\n\n"
            "`auth`\n: (`string`) Configures `GOAUTH` when running the Go command for module "
            "operations.\n"
        ),
    }
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    page = next((tmp_path / "kb").rglob("module.md")).read_text("utf-8")
    assert "```\n[module]\nreplacements = 'github.com" in page, page
    assert '```go\nfunc main() { fmt.Println("hi") }\n```' in page, page
    description = next(line for line in page.splitlines() if line.startswith("description:"))
    assert "replacements" not in description and "[module]" not in description, description
    assert "Auth : " not in description, description  # a definition list's term and text
    # the one that prints the site's defaults wraps nothing: no block opens there
    assert "covers Top-level settings" in description, description


def test_include_shortcodes_show_the_named_pages_text_and_follow_its_changes(
    tmp_path: Path,
) -> None:
    """gohugoio/hugoDocs shows ``content/en/_common/*.md`` snippets (``cascade: build:
    render: never``) with its own ``{{% include "/_common/x.md" %}}`` in 162 pages;
    Kubernetes names its ``includes/`` pages alone, Docsy calls ``readfile file=``. The
    calls were left as written, with no word."""
    en = "content/en/"
    files = {
        **otel_like(),
        en + "_common/_index.md": "---\ncascade:\n  build:\n    render: never\n---\n",
        en + "_common/options.md": "---\n_comment: shown by include\n---\n\n"
        '`lineNos`\n: Whether to number the lines.\n\n{{% include "/_common/more.md" %}}\n',
        en + "_common/more.md": "Other options follow the site's settings.\n",
        en + "includes/prereqs.md": "You need a cluster and `kubectl`.\n",
        en + "docs/highlight.md": "---\ntitle: Highlight\n---\n\nIt takes options.\n\n"
        '{{% include "_common/options.md" %}}\n\n{{< include "prereqs.md" >}}\n\n'
        '{{< readfile file="/includes/prereqs.md" >}}\n\n{{% include "/_common/gone.md" %}}\n',
    }
    source = write_sources(tmp_path / "src", files)
    result = build(source, tmp_path / "kb", now=NOW)
    page = (tmp_path / "kb" / "docs" / "highlight.md").read_text("utf-8")
    assert "`lineNos`" in page and "_comment" not in page
    assert "Other options follow the site's settings." in page  # an include's own include
    assert page.count("You need a cluster") == 2
    assert "include" not in page.replace('{{% include "/_common/gone.md" %}}', "")
    said = [n for n in result.notes if "_common/gone.md" in n]
    assert said and "highlight.md:" in said[0] and "no page of the site" in said[0]
    (source / en / "_common/more.md").write_text("Other options are new.\n", encoding="utf-8")
    again = build(source, tmp_path / "kb", now=NOW)
    assert "docs/highlight.md" in again.updated
    assert "Other options are new." in (tmp_path / "kb" / "docs" / "highlight.md").read_text()


def test_an_include_loop_or_a_snippet_shown_thousands_of_times_ends_and_is_said(
    tmp_path: Path,
) -> None:
    """A snippet including itself, and one showing another ten times four deep (10,000
    copies), end: the loop is said, the page shows at most 200 includes."""
    en = "content/en/"
    fan = "".join('{{% include "/_common/fan2.md" %}}\n' for _ in range(10))
    files = {
        **otel_like(),
        en + "_common/_index.md": "---\ncascade:\n  build:\n    render: never\n---\n",
        en + "_common/self.md": 'Before.\n\n{{% include "/_common/self.md" %}}\n',
        en + "_common/fan1.md": fan,
        en + "_common/fan2.md": fan.replace("fan2", "fan3"),
        en + "_common/fan3.md": fan.replace("fan2", "fan4"),
        en + "_common/fan4.md": "Leaf text.\n",
        en + "docs/loop.md": '---\ntitle: Loop\n---\n\n{{% include "/_common/self.md" %}}\n'
        + "".join('{{% include "/_common/fan1.md" %}}\n' for _ in range(10)),
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    page = (tmp_path / "kb" / "docs" / "loop.md").read_text("utf-8").split("\n---\n", 1)[1]
    assert page.count("Before.") == 1 and 0 < page.count("Leaf text.") <= 200
    notes = "\n".join(result.notes)
    assert "a page it is shown inside of (a loop)" in notes
    assert "past the 200 includes a page shows" in notes


GLOSSARY = """\
---
title: Glossary
description: Terms commonly used throughout the documentation.
build:
  render: always
  list: always
cascade:
  build:
    render: never
    list: local
---

{{% glossary %}}
"""


def test_a_section_whose_pages_are_never_rendered_shows_them_on_its_page(
    tmp_path: Path,
) -> None:
    """hugoDocs' glossary: 157 term pages the site renders only on the Glossary page
    (``cascade: build: render: never, list: local``). The whole section was left out as
    headless (its terms copied as ``.txt`` files, no Glossary in the index)."""
    en = "content/en/"
    files = {
        **otel_like(),
        en + "reference/_index.md": "---\ntitle: Reference\n---\n\nLook things up.\n",
        en + "reference/glossary/_index.md": GLOSSARY,
        en + "reference/glossary/span.md": "---\ntitle: span\n---\n\nA unit of work.\n",
        en + "reference/glossary/Attribute.md": "---\ntitle: Attribute\n---\n\nA key-value pair.\n",
        en + "reference/glossary/trace.md": "---\ntitle: trace\n---\n\nA tree of [spans](#span).\n",
    }
    source = write_sources(tmp_path / "src", files)
    build(source, tmp_path / "kb", now=NOW)
    out = tmp_path / "kb"
    glossary = (
        next(out.rglob("glossary*.md"))
        if not (out / "reference/glossary").is_dir()
        else (out / "reference/glossary/index-page.md")
    )
    text = glossary.read_text("utf-8")
    assert text.index("## Attribute") < text.index("## span") < text.index("## trace")
    assert "A tree of [spans](#span)." in text
    assert not [p for p in out.rglob("*") if p.stem in ("span", "trace", "attribute")]
    assert "Glossary" in (out / "reference" / "index.md").read_text("utf-8")
    (source / en / "reference/glossary/span.md").write_text(
        "---\ntitle: span\n---\n\nAn operation.\n", encoding="utf-8"
    )
    again = build(source, tmp_path / "kb", now=NOW)
    assert again.updated and "An operation." in glossary.read_text("utf-8")
