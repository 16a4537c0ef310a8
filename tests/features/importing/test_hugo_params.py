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
