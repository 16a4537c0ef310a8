"""AsciiDoc pages read as Markdown (:mod:`kas_tui.features.importing.asciidoc`): the
syntax che-docs' and Antora's own pages use (titles and header attributes, attribute
references, lists with ``+`` continuations, source blocks with ``subs``, admonitions,
tables, links and cross-references, includes with tags and level offsets,
conditionals), and what is wrong in a page (a missing include, a loop, an unclosed
block, an unknown attribute) said by file and line, never raised.

Before this reader an ``.adoc`` file was plain text: a title was its file's name and
every ``{attribute}``, ``xref:`` and ``include::`` stayed as written."""

# ruff: noqa: E501  (sample pages hold long lines, as real ones do)

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kas_tui.features.importing import asciidoc_source
from kas_tui.features.importing.antora import LooseSite, builtin_attributes
from kas_tui.features.importing.asciidoc import to_markdown
from kas_tui.features.importing.asciidoc_source import MAX_DEPTH
from kas_tui.features.importing.convert import Limits, convert_here


def _page(text: str, files: dict[str, str] | None = None, rel: str = "page.adoc", **attrs: str):
    files = {rel: text, **(files or {})}
    site = LooseSite(set(files), files.get)
    return to_markdown(text, rel, site, {**builtin_attributes(), **attrs})


PROCEDURE = """\
:_content-type: PROCEDURE
:description: Configuring a proxy for {prod}
:keywords: administration guide, proxy
:navtitle: Configuring proxy

[id="configuring-proxy"]
= Configuring {prod-short} proxy

Learn how to configure a proxy for {prod}. The *Operator* reads it from the `CheCluster` resource.

.Procedure

. Create a Secret in the {prod-namespace} namespace:
+
[source,yaml,subs="+quotes,+attributes"]
----
metadata:
  name: {prod-id-short}-proxy-credentials
stringData:
  user: __<user>__          <1>
----
<1> The username for the proxy server.

. Verify the workspace pod:
.. Open the *Workspace* panel.
.. Press kbd:[Ctrl+Shift+J] and click btn:[Install].

[NOTE]
====
The proxy settings are propagated to the workspaces.
====

WARNING: Never commit `{orch-cli}` credentials.

.Additional resources

* link:https://docs.openshift.com/proxy.html[Configuring the cluster-wide proxy]
* https://example.com/plain[Another page^]
"""


def test_a_procedure_page_reads_as_its_site_shows_it() -> None:
    page = _page(
        PROCEDURE,
        prod="Eclipse Che",
        **{
            "prod-short": "Che",
            "prod-namespace": "eclipse-che",
            "prod-id-short": "che",
            "orch-cli": "kubectl",
        },
    )
    md = page.markdown
    assert page.title == "Configuring Che proxy"
    assert md.startswith("# Configuring Che proxy\n")
    assert page.attributes["description"] == "Configuring a proxy for Eclipse Che"
    assert page.attributes["_content-type"] == "PROCEDURE"
    assert (
        "Learn how to configure a proxy for Eclipse Che. The **Operator** reads it from the `CheCluster` resource."
        in md
    )
    assert "**Procedure**" in md
    # an ordered list whose first item holds the code block its "+" attaches
    assert (
        "1. Create a Secret in the eclipse-che namespace:\n\n   ```yaml\n   metadata:\n     name: che-proxy-credentials"
        in md
    )
    assert "user: <user>          <1>" in md  # quotes read in the code: no __marks__
    assert (
        "2. Verify the workspace pod:\n   1. Open the **Workspace** panel.\n   2. Press `Ctrl+Shift+J` and click **Install**."
        in md
    )
    assert "> **Note**\n>\n> The proxy settings are propagated to the workspaces." in md
    assert "> **Warning:** Never commit `kubectl` credentials." in md
    assert "- [Configuring the cluster-wide proxy](https://docs.openshift.com/proxy.html)" in md
    assert "[Another page](https://example.com/plain)" in md
    for raw in ("{prod", "xref:", "include::", "----", ":description:", "[source", "[NOTE]"):
        assert raw not in md
    assert not page.problems and not page.missing


def test_lines_right_below_an_attached_block_stay_in_the_list_item() -> None:
    text = ". Create it.\n+\n----\nkind: ConfigMap\n----\nOptional: annotate it.\n+\nNOTE: Both work.\n. Apply it.\n"
    md = _page(text).markdown
    assert md == (
        "1. Create it.\n\n   ```\n   kind: ConfigMap\n   ```\n\n"
        "   Optional: annotate it.\n\n   > **Note:** Both work.\n\n2. Apply it.\n"
    )


def test_a_continuation_attaches_the_block_after_blank_lines() -> None:
    text = ". Install it:\n+\n\nWARNING: Same name.\n+\n\n[source,bash]\n----\nhelm install\n----\n"
    md = _page(text).markdown
    assert (
        md
        == "1. Install it:\n\n   > **Warning:** Same name.\n\n   ```bash\n   helm install\n   ```\n"
    )


def test_a_list_reads_past_line_comments() -> None:
    text = "url:: The endpoint.\n// vale off\n+\n--\nMore.\n--\n// vale on\ntoken:: Yours.\n"
    md = _page(text).markdown
    assert md == "- **url**: The endpoint.\n\n  More.\n\n- **token**: Yours.\n"


def test_a_listing_block_shows_attributes_only_when_its_subs_say_so() -> None:
    text = "= T\n\n----\n$ stat {home}/.claude\n----\n\n[subs=attributes+]\n----\n$ stat {home}/.claude\n----\n"
    md = _page(text, home="/home/user").markdown
    assert "$ stat {home}/.claude" in md  # as Asciidoctor shows it: no substitution
    assert "$ stat /home/user/.claude" in md


def test_sections_tables_and_description_lists() -> None:
    text = """\
= Reference

== Fields

[%header,cols="1,2"]
|===
|Field |Meaning

|`name`
|The workspace's name, `pass:a[{suffix}]` appended.

|`idle`
|Seconds \\| before it stops.
|===

=== Defaults

CPU:: One core.
Memory::
The container's limit.

[discrete]
== Not in the TOC
"""
    md = _page(text, suffix="-che").markdown
    assert "## Fields" in md and "### Defaults" in md and "## Not in the TOC" in md
    assert (
        "| Field | Meaning |\n| --- | --- |\n| `name` | The workspace's name, `-che` appended. |"
        in md
    )
    assert "| `idle` | Seconds \\| before it stops. |" in md
    assert "- **CPU**: One core." in md
    assert "- **Memory**: The container's limit." in md


def test_cross_references_and_anchors_are_links_to_the_source_files() -> None:
    files = {
        "guide/other.adoc": "= The Other Page\n\nText.\n",
        "guide/images/diagram.png": "png",
    }
    text = """\
= Guide
:imagesdir: images

See xref:other.adoc[] and xref:other.adoc#setup[the setup], or <<details,the details>> and <<details>>.

image::diagram.png[Architecture,600]

[[details]]
== Details of it

Nothing in xref:missing.adoc[Gone] names a page.
"""
    page = _page(text, files, rel="guide/page.adoc")
    md = page.markdown
    assert "See [The Other Page](other.adoc) and [the setup](other.adoc#setup)" in md
    assert "[the details](#details-of-it) and [Details of it](#details-of-it)" in md
    assert "![Architecture](images/diagram.png)" in md
    assert "Nothing in Gone names a page." in md
    assert page.unresolved == [("guide/page.adoc", 11, "missing.adoc")]


def test_includes_tags_level_offsets_and_conditionals() -> None:
    files = {
        "snip.adoc": "// tag::short[]\nThe short text.\n// end::short[]\nThe long text.\n",
        "module.adoc": "= Module\n\nModule body.\n",
        "code.yaml": "a: 1\nb: 2\nc: 3\n",
    }
    text = """\
= Assembly
:context: upstream

include::snip.adoc[tag=short]

include::module.adoc[leveloffset=+1]

[source,yaml]
----
include::code.yaml[lines=2..3]
----

ifdef::context[]
Shown where context is set.
endif::[]
ifndef::context[]
Hidden.
endif::context[]
ifeval::["{context}" == "upstream"]
Upstream only.
endif::[]
ifdef::nothing,context[Either of them.]
"""
    page = _page(text, files)
    md = page.markdown
    assert "The short text." in md and "The long text." not in md
    assert "## Module\n\nModule body." in md
    assert "```yaml\nb: 2\nc: 3\n```" in md
    assert "Shown where context is set." in md and "Hidden." not in md
    assert "Upstream only." in md and "Either of them." in md
    assert page.included == ["snip.adoc", "module.adoc", "code.yaml"]


def test_a_comment_blocks_lines_are_no_directives() -> None:
    text = "= T\n\n////\ninclude::gone.adoc[]\nifdef::x[]\n////\n\nShown.\n"
    page = _page(text)
    assert page.markdown == "# T\n\nShown.\n" and not page.problems


def test_what_a_page_gets_wrong_is_said_by_file_and_line_never_raised() -> None:
    files = {
        "a.adoc": "A text.\ninclude::b.adoc[]\n",
        "b.adoc": "B text.\ninclude::a.adoc[]\n",
    }
    text = "= Broken\n\ninclude::a.adoc[]\n\ninclude::nowhere.adoc[]\n\ninclude::../../etc/passwd[]\n\nUses {undefined-name}.\n\n----\nnever closed\n"
    page = _page(text, files)
    said = [(p.file, p.line, p.message) for p in page.problems]
    assert any(
        f == "b.adoc" and n == 2 and "loop (a.adoc -> b.adoc -> a.adoc)" in m for f, n, m in said
    )
    assert any(f == "page.adoc" and n == 5 and "nowhere.adoc" in m for f, n, m in said)
    assert any(n == 7 and "no file of the source" in m for f, n, m in said)
    assert any(n == 11 and "never closed" in m for f, n, m in said)
    assert page.missing == [("page.adoc", 9, "undefined-name")]
    assert "include::nowhere.adoc[]" in page.markdown  # left as written
    assert "Uses {undefined-name}." in page.markdown
    assert "never closed" in page.markdown


def test_an_include_nested_past_the_limit_stops() -> None:
    files = {f"n{k}.adoc": f"level {k}\ninclude::n{k + 1}.adoc[]\n" for k in range(MAX_DEPTH + 10)}
    page = _page("= Deep\n\ninclude::n0.adoc[]\n", files)
    assert any("deeper than" in p.message for p in page.problems)
    assert f"level {MAX_DEPTH - 2}" in page.markdown  # the page and 63 includes below it


def test_an_include_bomb_stops_at_the_line_limit(monkeypatch) -> None:
    # a tenth of the limit: the same stop, without converting 100,000 paragraphs first
    monkeypatch.setattr(asciidoc_source, "MAX_LINES", asciidoc_source.MAX_LINES // 10)
    files = {f"b{k}.adoc": "\n".join([f"include::b{k + 1}.adoc[]"] * 10) for k in range(8)}
    files["b8.adoc"] = "x\n"
    page = _page("= Bomb\n\ninclude::b0.adoc[]\n", files)
    assert any("grows past" in p.message for p in page.problems)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "= T",
                "== S",
                "* a",
                "** b",
                ". c",
                "+",
                "----",
                "....",
                "====",
                "|===",
                "|x|y",
                "[NOTE]",
                "[source,java]",
                ".Title",
                "term:: d",
                "<1> c",
                "ifdef::x[]",
                "endif::[]",
                "include::x.adoc[]",
                "//",
                "////",
                "--",
                "text *b* _i_ `c` {a}",
                "xref:y.adoc[]",
                "",
                "<<z>>",
                "image::p.png[]",
                "NOTE: n",
                ":a: 1",
                "a|cell",
                "2+|span",
            ]
        ),
        max_size=40,
    )
)
def test_any_mix_of_lines_converts_without_raising(lines: list[str]) -> None:
    page = _page("\n".join(lines), {"x.adoc": "include::x.adoc[]\n"})
    assert isinstance(page.markdown, str)


def test_an_adoc_file_imported_alone_is_a_page_with_its_title(tmp_path: Path) -> None:
    (tmp_path / "guide.adoc").write_text(
        ":description: How to start.\n\n= Getting Started\n\ninclude::part.adoc[]\n",
        encoding="utf-8",
    )
    (tmp_path / "part.adoc").write_text("The included part.\n", encoding="utf-8")
    result = convert_here(tmp_path / "guide.adoc", Limits())
    assert result.title == "Getting Started"
    assert result.kind == "markdown"
    assert result.frontmatter == {"description": "How to start."}
    assert "The included part." in result.markdown
