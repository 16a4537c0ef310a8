"""The fuzzy finder: ranking, tags, paths, markup, broken documents, accents, caching."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.generate import generate_package
from kas_tui.core.package import Package
from kas_tui.features.find import fuzzy as search
from kas_tui.features.find.fuzzy import Finder, Hit, fold, fold_map
from tests.helpers.acme import make_package

ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "demo_kb" / "orbit-handbook"


def document(title: str | None, description: str = "Something.", tags: str = "[]") -> str:
    lines = ["---", "type: Reference"]
    if title is not None:
        lines.append(f"title: {json.dumps(title)}")
    lines += [f"description: {json.dumps(description)}", f"tags: {tags}", "---", "", "Body."]
    return "\n".join(lines) + "\n"


def finder_for(tmp_path: Path, files: dict[str, str]) -> Finder:
    """The acme sample package plus ``files``, opened and indexed."""
    root = make_package(tmp_path)
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Finder(Package.open(root))


def paths(hits: list[Hit]) -> list[str]:
    return [h.path for h in hits]


def marked(text: str, spans: tuple[tuple[int, int], ...]) -> list[str]:
    return [text[a:b] for a, b in spans]


@pytest.fixture(scope="module")
def demo() -> Finder:
    return Finder(Package.open(DEMO))


# -- queries that find nothing ------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "   ", "#", "/", " # / "])
def test_empty_queries_find_nothing(demo: Finder, query: str) -> None:
    assert demo.search(query) == []


def test_limit(demo: Finder) -> None:
    assert len(demo.search("i", limit=3)) == 3
    assert demo.search("incident", limit=0) == []
    assert len(demo.search("e", limit=1000)) <= len(demo)


def test_nothing_matches(demo: Finder) -> None:
    assert demo.search("zzzqqq") == []


# -- ranking ------------------------------------------------------------------------------


def test_title_exact_then_prefix_then_word_start_then_description_then_typo(tmp_path):
    finder = finder_for(
        tmp_path,
        {
            "r/typo.md": document("Refnuds FAQ"),
            "r/desc.md": document("Money back", "How refunds work for annual plans."),
            "r/issuing.md": document("Issuing refunds"),
            "r/policy.md": document("Refunds policy for enterprise customers"),
            "r/exact.md": document("Refunds"),
            "r/inside.md": document("Nonrefundsable fees"),
        },
    )
    hits = [h for h in finder.search("refunds") if h.path.startswith("r/")]
    assert paths(hits) == [
        "r/exact.md",
        "r/policy.md",
        "r/issuing.md",
        "r/desc.md",
        "r/inside.md",
        "r/typo.md",
    ]
    assert [h.field for h in hits] == ["title"] * 3 + ["description", "title", "title"]
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)
    assert marked(hits[5].title, hits[5].title_spans) == ["Refnuds"]


def test_title_word_start_beats_description_typo(tmp_path):
    finder = finder_for(
        tmp_path,
        {
            "a.md": document("Unrelated", "The canery release of the search service."),
            "b.md": document("Canary analysis", "Automated checks."),
        },
    )
    hits = finder.search("canary")
    assert paths(hits)[:2] == ["b.md", "a.md"]
    assert hits[0].score > 60 > 30 > hits[1].score


def test_shorter_title_first_among_equals(demo: Finder) -> None:
    titles = [h.title for h in demo.search("incident")[:3]]
    assert titles == sorted(titles, key=len)
    assert all(t.startswith("Incident") for t in titles)


def test_words_in_any_order_and_phrase_first(demo: Finder) -> None:
    assert demo.search("incident resp")[0].title == "Incident response procedure"
    assert demo.search("response incident")[0].title == "Incident response procedure"
    assert demo.search("postgres fail")[0].path == "incidents/database-failover-runbook.md"


def test_every_word_must_match(demo: Finder) -> None:
    hits = demo.search("refund credit")
    assert hits
    for hit in hits:
        doc = Package.open(DEMO).documents[hit.path]
        text = fold(f"{doc.title} {doc.description} {doc.path} {' '.join(doc.tags)}")
        assert "refund" in text and "credit" in text


def test_description_only_match(tmp_path):
    finder = finder_for(tmp_path, {"x.md": document("Plain title", "Mentions zeppelins once.")})
    (hit,) = finder.search("zeppelin")
    assert (hit.path, hit.field, hit.title_spans) == ("x.md", "description", ())


def test_typos(demo: Finder) -> None:
    assert demo.search("rollbak")[0].title == "Rollback runbook"
    assert demo.search("pagreduty")[0].title == "PagerDuty runbook for responders"  # swapped
    assert demo.search("escalaton polcy")[0].path == "oncall/escalation-policy.md"


# -- tags ---------------------------------------------------------------------------------


def test_hash_searches_tags_only(tmp_path):
    finder = finder_for(
        tmp_path,
        {
            "t/prefix.md": document("Alpha", tags="[refunds]"),
            "t/exact.md": document("Beta", tags="[refund, other]"),
            "t/title.md": document("Refund in the title only"),
        },
    )
    hits = finder.search("#refund")
    assert paths(hits)[:2] == ["t/exact.md", "t/prefix.md"]
    assert "t/title.md" not in paths(hits)
    assert (hits[0].field, hits[0].tag) == ("tag", "refund")
    assert hits[1].tag == "refunds"


def test_plain_word_also_matches_tags(demo: Finder) -> None:
    hits = demo.search("triage")
    tagged = [h for h in hits if h.field == "tag"]
    assert tagged and all(h.tag == "triage" for h in tagged)


def test_hash_tag_on_acme(tmp_path):
    finder = Finder(Package.open(make_package(tmp_path)))
    assert sorted(paths(finder.search("#billing"))) == [
        "billing/chargebacks.md",
        "billing/invoice-disputes.md",
        "billing/refund-policy.md",
    ]


# -- paths --------------------------------------------------------------------------------


def test_path_query(demo: Finder) -> None:
    (hit, *_) = demo.search("inc/sev")
    assert hit.path == "incidents/severity-levels.md"
    assert hit.field == "path"
    assert marked(hit.path, hit.path_spans) == ["inc", "sev"]


def test_path_parts_keep_their_order(demo: Finder) -> None:
    assert "incidents/severity-levels.md" not in paths(demo.search("sev/inc"))


def test_path_anchors(demo: Finder) -> None:
    assert {h.path.split("/")[0] for h in demo.search("/bill")} == {"billing-support"}
    folder = paths(demo.search("billing-support/refunds/"))
    assert sorted(folder) == [
        "billing-support/refunds/issuing-a-refund.md",
        "billing-support/refunds/refund-policy.md",
        "billing-support/refunds/refund-rate-computation.md",
        "billing-support/refunds/sla-credits.md",
    ]


def test_path_words_combine_with_words(demo: Finder) -> None:
    hits = demo.search("postmortems/ eu")
    assert hits[0].path == "incidents/postmortems/2026-10-22-eu-login-latency.md"


def test_path_inside_words(demo: Finder) -> None:
    hits = demo.search("cidents/verity")
    assert hits and hits[0].path == "incidents/severity-levels.md"
    assert marked(hits[0].path, hits[0].path_spans) == ["cidents", "verity"]


# -- display text -------------------------------------------------------------------------


def test_markup_characters_in_titles(tmp_path):
    finder = finder_for(
        tmp_path,
        {
            "m/draft.md": document("[draft] Refunds"),
            "m/bold.md": document("[bold]Loud[/bold] \\ notes"),
        },
    )
    (hit,) = finder.search("draft ref")
    assert marked(hit.title, hit.title_spans) == ["draft", "Ref"]
    hit = finder.search("[draft]")[0]
    assert hit.path == "m/draft.md" and marked(hit.title, hit.title_spans) == ["[draft]"]
    hit = finder.search("loud")[0]
    assert hit.path == "m/bold.md" and marked(hit.title, hit.title_spans) == ["Loud"]
    assert finder.search("[/bold]")[0].path == "m/bold.md"


def test_a_slash_inside_a_title(tmp_path):
    finder = finder_for(tmp_path, {"ci.md": document("CI/CD pipeline")})
    hit = finder.search("ci/cd")[0]
    assert (hit.path, hit.field) == ("ci.md", "title")
    assert marked(hit.title, hit.title_spans) == ["CI/CD"]


def test_broken_documents_are_found_by_path_and_entry(tmp_path):
    root = make_package(tmp_path)
    (root / "runbooks").mkdir()
    (root / "runbooks" / "disk-full.md").write_text("# Disk full\n\nNo frontmatter.\n")
    (root / "runbooks" / "bad-yaml.md").write_text("---\ntitle: [unclosed\n---\n\nBody.\n")
    (root / "runbooks" / "index.md").write_text(
        "# Runbooks\n\n* [Disk space alarms](disk-full.md) - When a volume fills up.\n"
    )
    package = Package.open(root)
    assert package.documents["runbooks/disk-full.md"].broken
    finder = Finder(package)
    assert finder.search("disk full")[0].path == "runbooks/disk-full.md"
    assert finder.search("runbooks/disk")[0].path == "runbooks/disk-full.md"
    hit = finder.search("alarms")[0]
    assert (hit.path, hit.field) == ("runbooks/disk-full.md", "entry")
    assert finder.search("volume fills")[0].path == "runbooks/disk-full.md"
    assert finder.search("bad yaml")[0].path == "runbooks/bad-yaml.md"


def test_accents_and_case_are_ignored(tmp_path):
    finder = finder_for(
        tmp_path,
        {
            "u/cafe.md": document("Café au lait", "Le résumé du menu."),
            "u/strasse.md": document("Straßenbahn ÜBERSICHT"),
            "u/greek.md": document("Σύνοψη ΟΔΗΓΟΥ"),
        },
    )
    for query in ("cafe", "CAFÉ", "Cafe\u0301"):
        hit = finder.search(query)[0]
        assert hit.path == "u/cafe.md"
        assert marked(hit.title, hit.title_spans) == ["Café"]
    assert finder.search("resume")[0].path == "u/cafe.md"
    hit = finder.search("strasse ubers")[0]
    assert marked(hit.title, hit.title_spans) == ["Straße", "ÜBERS"]
    hit = finder.search("συνοψη οδηγου")[0]
    assert marked(hit.title, hit.title_spans) == ["Σύνοψη", "ΟΔΗΓΟΥ"]


def test_fold() -> None:
    assert fold("Café ÜBER Straße ﬁle") == "cafe uber strasse file"
    folded, where = fold_map("aß é")
    assert folded == "ass e" and where == [0, 1, 1, 2, 3]
    assert fold_map("plain") == ("plain", None)


def test_spans_point_at_the_query(demo: Finder) -> None:
    for query in ["inc", "on-call", "slo", "refund credit", "billing/refunds", "eu login"]:
        for hit in demo.search(query):
            for a, b in hit.title_spans:
                assert 0 <= a < b <= len(hit.title)
            for a, b in hit.path_spans:
                assert 0 <= a < b <= len(hit.path)
            words = fold(query).replace("/", " ").split()
            for part in marked(fold(hit.title), hit.title_spans):
                assert any(w.startswith(part) or part in w or w in part for w in words)


# -- the cache between keystrokes ---------------------------------------------------------


@pytest.mark.parametrize(
    "query", ["incident review", "rollbak", "#refund", "bundle-001/doc-0012", "ion", "canary x"]
)
def test_typing_gives_the_same_results_as_a_fresh_search(tmp_path, query: str) -> None:
    package = Package.open(generate_package(tmp_path / "gen", 300))
    typed = Finder(package)
    for end in range(1, len(query) + 1):
        prefix = query[:end]
        assert typed.search(prefix, 20) == Finder(package).search(prefix, 20), prefix


def test_generated_package(tmp_path) -> None:
    finder = Finder(Package.open(generate_package(tmp_path / "gen", 300)))
    assert len(finder) == 300
    hits = finder.search("bundle-002/doc-0021")
    assert sorted(paths(hits)) == [f"area-00/bundle-002/doc-{i:05d}.md" for i in range(210, 220)]


# -- headless -----------------------------------------------------------------------------


def test_search_imports_no_textual() -> None:
    script = (
        "import sys, kas_tui.features.find.fuzzy; "
        "print([m for m in sys.modules if m == 'textual' or m.startswith('textual.')])"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


# -- the arrays under the index -----------------------------------------------------------

documents = st.integers(min_value=1, max_value=400).flatmap(
    lambda count: st.tuples(
        st.just(count),
        st.lists(st.lists(st.integers(0, count - 1), max_size=60), min_size=1, max_size=5),
    )
)


@given(documents)
@settings(max_examples=300, deadline=None)
def test_document_sets_agree_with_python_sets(case) -> None:
    """Union and intersection of sorted document numbers take a sort or a pass over every
    document depending on their sizes; both give what sets give."""
    count, lists = case
    parts = [np.unique(np.array(values, np.int32)) for values in lists]
    union = search._union(parts, count)
    assert union.tolist() == sorted(set().union(*map(set, lists)))
    common = search._common(parts, count)
    assert common.tolist() == sorted(set.intersection(*map(set, lists)))
    assert search._distinct(np.array(lists[0], np.int32), count).tolist() == sorted(set(lists[0]))
    for doc in range(count):
        assert search._has(union, doc) == (doc in set().union(*map(set, lists)))


def test_word_starts_rank_as_defined(tmp_path) -> None:
    """One- and two-letter queries match most of a package (the big-set paths): the order
    is the documented one, computed here the slow way from the folded fields."""
    finder = Finder(Package.open(generate_package(tmp_path / "gen", 300)))
    keys = {
        field: [search._word_keys(t) if field != "path" else search._path_keys()(t) for t in texts]
        for field, texts in finder.text.items()
    }

    def expected(query: str) -> list[str]:
        words, ranked = query.split(), []
        for doc in range(len(finder)):
            total = 0
            for word in words:
                weights = [
                    search.WEIGHTS[field]
                    for field in search.FIELDS
                    if any(k.startswith(word) for k in keys[field][doc])
                ]
                if not weights:
                    break
                total += max(weights)
            else:
                title = finder.text["title"][doc]
                bonus = (
                    3
                    if title == query
                    else 2
                    if title.startswith(query)
                    else 1
                    if any(k.startswith(query) for k in keys["title"][doc]) and len(words) == 1
                    else 0
                )
                ranked.append((-total, -bonus, len(title), finder.paths[doc]))
        return [path for *_, path in sorted(ranked)[:50]]

    for query in ["a", "b", "d", "r", "in", "re", "ro", "a b", "r d", "in c"]:
        assert paths(finder.search(query, 50)) == expected(query), query
