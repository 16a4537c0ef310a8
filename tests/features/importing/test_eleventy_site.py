"""An Eleventy site, as 18F's handbook is: its config names the folder its pages are
made from, its pages link by Liquid tags and by ``{{ site.baseurl }}``, and they list the
addresses they moved from (``redirect_from:``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.build_site_links import liquid_link_tags, without_base_tag
from kas_tui.features.importing.toc_eleventy import eleventy_dirs
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

CONFIG = """module.exports = function (config) {
  config.addPassthroughCopy({ "favicon.ico": "favicon.ico" });
  return {
    templateFormats: ["md", "html", "njk"],
    dir: {
      input: "pages",
      includes: "../_includes",
      data: "../_data",
      output: "_site",
    },
  };
};
"""


def test_the_config_names_the_pages_folder_and_its_own_folders() -> None:
    assert eleventy_dirs(".eleventy.js", CONFIG) == (
        "pages",
        ("_includes", "pages/_layouts", "_data"),
    )
    assert eleventy_dirs("site/eleventy.config.js", "export default {};") == (
        "site",
        ("site/_includes", "site/_layouts", "site/_data"),
    )


def test_liquid_link_tags_and_base_tags_name_pages_from_the_sites_root() -> None:
    text = (
        'See [Software]({% page "/general/software/#approved" %}), [Zoom]({% page "tools/zoom" %}),'
        " [the guide]({% link docs/guide.md %}), [a post]({% post_url 2010-07-21-name %}) and "
        '[KeePass]({% page "https://keepassxc.org/" %}).'
    )
    assert liquid_link_tags(text) == (
        "See [Software](/general/software/#approved), [Zoom](/tools/zoom),"
        " [the guide](/docs/guide.md), [a post]({% post_url 2010-07-21-name %}) and "
        '[KeePass]({% page "https://keepassxc.org/" %}).'
    )
    assert without_base_tag("{{ site.baseurl }}/software/") == "/software/"
    assert without_base_tag("%7B%7Bbase.baseurl%7D%7D/18f-bd/") == "/18f-bd/"
    assert without_base_tag("software.md") == "software.md"
    # another site's address, not this one's: Jekyll's {{ site.repository }}/issues/9762
    written = "[#9762]({{ site.repository }}/issues/9762)"
    assert liquid_link_tags(written) == written
    assert (
        without_base_tag("{{ site.repository }}/issues/9762") == "{{ site.repository }}/issues/9762"
    )


def test_an_eleventy_site_builds_its_input_folder_and_follows_its_links(tmp_path: Path) -> None:
    source = write_sources(
        tmp_path / "src",
        {
            ".eleventy.js": CONFIG,
            "package.json": '{"name": "handbook", "scripts": {"build": "eleventy"}}\n',
            "README.md": "# Handbook\n\nRun `npm start` to preview the site.\n",
            "_data/navigation.yml": "primary:\n  - text: Travel\n    url: /travel/\n",
            "_includes/layouts/page.html": "<main>{{ content }}</main>\n",
            "pages/travel/index.md": "---\ntitle: Travel\n---\n\nBook trips, then read "
            '[the software policy]({{ site.baseurl }}/software/) and [Zoom]({% page "tools/zoom" %}).\n'
            '\n```liquid\n[x]({% page "tools/zoom" %})\n```\n',
            "pages/general/software.md": "---\ntitle: Software under $10,000\nredirect_from:\n"
            "  - /software/\n---\n\nRequest software your work needs through the service desk.\n",
            "pages/tools/zoom.md": "---\ntitle: Zoom\n---\n\nHost meetings with interpreters.\n",
        },
    )
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0
    pkg = Package(out)
    pkg.load()
    assert sorted(pkg.documents) == ["general/software.md", "tools/zoom.md", "travel.md"]
    assert any(
        "outside the docs folder the site builds its docs from, pages/" in n for n in result.notes
    )
    body = (out / "travel.md").read_text("utf-8")
    assert "[the software policy](/general/software.md)" in body  # by its redirect_from
    assert "[Zoom](/tools/zoom.md)" in body
    assert '[x]({% page "tools/zoom" %})' in body  # in a code block: as written
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
