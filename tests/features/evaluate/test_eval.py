"""The evaluation core: the lexical navigator, ablations, the flat baseline, metrics, blame."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kas_tui.core.package import Package
from kas_tui.features.agent import replay_file
from kas_tui.features.agent.sandbox import Sandbox
from kas_tui.features.agent.skill_catalog import catalog_entry
from kas_tui.features.evaluate.ablation import (
    AblatedSandbox,
    flat_index,
    without_descriptions,
    without_frontmatter,
)
from kas_tui.features.evaluate.blame import (
    DETOUR,
    LEFT_PATH,
    NOT_CHOSEN,
    UNLISTED,
    PathFinder,
    blame_run,
)
from kas_tui.features.evaluate.flat_baseline import run_flat
from kas_tui.features.evaluate.metrics import by_bundle, overall
from kas_tui.features.evaluate.navigator import LexicalNavigator
from kas_tui.features.evaluate.report import evaluation_record, format_markdown, format_text
from kas_tui.features.evaluate.runner import evaluate
from kas_tui.features.evaluate.runs import ANSWERED, FAILED, GAVE_UP, Question
from kas_tui.text.lexical import LexicalIndex, joined_pairs, query_concepts, query_terms
from tests.helpers.evaluate import REFUND, doc, make_package, misleading_root, payments

DEMO = Path(__file__).resolve().parents[3] / "demo_kb" / "orbit-handbook"


def nav(root: Path, *, peek: bool = True, budget: int = 15) -> LexicalNavigator:
    pkg = Package.open(root)
    catalog = catalog_entry(pkg)
    return LexicalNavigator(
        Sandbox(pkg.root, location=catalog.location), catalog, budget=budget, peek=peek
    )


CHARGEBACK = Question("q2", "What do I send for a chargeback notice?", ("money/guide-b.md",))


# --- the scorer ---------------------------------------------------------------------------


def test_query_terms_drop_function_words_and_keep_order() -> None:
    assert query_terms("How do I rotate the Stripe API key, the key?") == [
        "rotate",
        "stripe",
        "api",
        "key",
    ]


def test_a_hyphenated_word_is_one_concept() -> None:
    assert query_concepts("On-call during the freeze: who staffs the secondary shift?") == [
        ("call", "oncall"),
        ("freeze",),
        ("staffs",),
        ("secondary",),
        ("shift",),
    ]
    # a part the question also writes alone is the same concept
    assert query_concepts("The dual-credential rule: never reuse a credential") == [
        ("dual", "credential", "dualcredential"),
        ("rule",),
        ("reuse",),
    ]


def test_the_answer_test_counts_a_hyphenated_word_once(tmp_path: Path) -> None:
    """A section that states the whole rule answers, though it does not say the
    question's one hyphenated word, which used to count as two of nine words (7/9 < 80%)."""
    root = make_package(
        tmp_path / "freeze",
        {
            "index.md": "# Handbook\n\n* [Policy](policy.md) - Escalation, and its "
            "exceptions during the freeze.\n",
            "policy.md": doc(
                "Policy",
                "The escalation policy.",
                "## Exceptions\n\nDuring the freeze the secondary shift is staffed by "
                "volunteers who receive double stipend.",
            ),
        },
    )
    question = Question(
        "q",
        "On-call during the freeze: is it true that secondary shifts are staffed by "
        "volunteers with double stipend?",
        ("policy.md",),
    )
    run = nav(root).run(question)
    assert run.ended == ANSWERED and run.reached and run.turns_to_gold == 2


def test_lexical_index_ranks_by_bm25_with_stemming() -> None:
    index = LexicalIndex(("cue",))
    index.add("a", "Refund policy and approval limits")
    index.add("b", "Rotating secrets such as Stripe keys")
    index.add("c", "Paging and escalation")
    assert [k for k, _ in index.search(query_terms("how do I rotate a stripe key"))] == ["b"]
    assert index.matched("b", ["rotate", "keys", "refund"]) == ["rotate", "keys"]
    index.add("b", "nothing alike")  # a key added again replaces its row
    assert index.search(["stripe"]) == []


# --- the navigator --------------------------------------------------------------------------


def test_a_skill_md_line_written_like_the_index_entry_is_one_cue(tmp_path: Path) -> None:
    """SKILL.md naming a document with the very words its index entry uses (a title
    alone, as under ``--ablate descriptions``): the index names it again later, and
    the navigator ranks it like any other entry (it used to fail on it)."""
    root = payments(tmp_path)
    index = root / "money/index.md"
    index.write_text(
        index.read_text("utf-8").replace(" - Answering a chargeback notice from the bank.", ""),
        "utf-8",
    )
    skill = root / "SKILL.md"
    skill.write_text(
        skill.read_text("utf-8") + "\n## Entry points\n\n* [Guide B](money/guide-b.md)\n", "utf-8"
    )
    run = nav(root).run(CHARGEBACK)
    assert run.reached and "money/guide-b.md" in [s.path for s in run.steps]


def test_navigator_walks_skill_index_bundle_document(tmp_path: Path) -> None:
    run = nav(payments(tmp_path)).run(REFUND)
    calls = [(s.tool, s.path) for s in run.steps]
    assert calls == [  # SKILL.md is in the prompt: the skill was activated
        ("readfile", "index.md"),
        ("readfile", "money/index.md"),
        ("readfile", "money/guide-a.md"),
        ("submit_answer", None),
    ]
    assert run.reached and run.ended == ANSWERED and run.turns_to_gold == 3
    assert run.preloaded == ("SKILL.md",)
    assert "money/guide-a.md" in run.answer
    assert all(step.revealed for step in run.steps)


def test_a_call_the_walk_refuses_fails_that_run_only(tmp_path: Path, monkeypatch) -> None:
    """Should the navigator ever call a path the walk refuses (a bug: it once did for
    links written with backslashes), that question's run ends FAILED with the reason,
    and the evaluation goes on: no traceback, nothing skipped."""
    from kas_tui.features.evaluate import navigator as module

    real = module._Navigation._choose

    def astray(self, tool, path, options):  # noqa: ANN001
        real(self, tool, "never/named.md" if path.endswith("guide-a.md") else path, options)

    monkeypatch.setattr(module._Navigation, "_choose", astray)
    root = payments(tmp_path)
    run = nav(root).run(REFUND)
    assert run.ended == FAILED and not run.reached
    assert "never/named.md has not been named" in run.note
    assert run.steps[-1].tool == "submit_answer"  # the trajectory still ends as a walk does
    ev = evaluate(Package.open(root), [REFUND, CHARGEBACK])
    text, markdown = format_text(ev), format_markdown(ev)
    assert ev.main.overall.failed == 1
    assert text.splitlines()[2].split()[-1] == "failed"  # the column, shown when a run failed
    assert "the navigator failed: the navigator tried to open something no step had shown" in text
    assert "| out of budget | failed |" in markdown


def test_navigator_never_opens_what_nothing_named(tmp_path: Path) -> None:
    """A document reachable only through a file no index names is never opened."""
    root = payments(tmp_path)
    (root / "orphan.md").write_text(
        doc("Orphan", "Refund a card payment", "See [the secret](secret.md)."), encoding="utf-8"
    )
    (root / "secret.md").write_text(
        doc("Secret", "refund card payment", "How do I refund a card payment: here."),
        encoding="utf-8",
    )
    opened: list[str] = []

    class Recording(Sandbox):
        def read_text(self, path: str) -> str:
            opened.append(path)
            return super().read_text(path)

        def listdir(self, path: str) -> list[str]:
            opened.append(path + "/")
            return super().listdir(path)

    pkg = Package.open(root)
    catalog = catalog_entry(pkg)
    navigator = LexicalNavigator(Recording(root, location=catalog.location), catalog)
    question = Question("q", "How do I refund a card payment?", ("secret.md",))
    run = navigator.run(question)
    assert not run.reached
    assert "secret.md" not in opened and "orphan.md" not in opened
    # every file it opened was named by an earlier result, and it read nothing else
    named = {s.path for s in run.steps if s.path is not None} | {"SKILL.md"}
    assert set(opened) <= named | {p + "/" for p in named}
    assert all(step.revealed for step in run.steps)


def test_a_source_file_outside_the_package_is_never_tried(tmp_path: Path) -> None:
    """A built document's ``sources`` name the file it came from (``file:///...``), in
    the question's words; that path is outside the package, so the navigator never
    spends a turn on it (it once lost its root and was tried as a package path: 252
    wasted calls over 94 questions on Textual's docs)."""
    root = payments(tmp_path)
    guide = root / "money" / "guide-a.md"
    text = guide.read_text("utf-8").replace(
        "---\n",
        "---\nsources:\n- resource: file:///srv/docs/refund/card/payment.md\n"
        "  title: refund card payment.md\n",
        1,
    )
    guide.write_text(text, "utf-8")
    sandbox = Sandbox(root)
    assert sandbox.locate("/srv/docs/refund/card/payment.md").path.startswith("/")
    run = nav(root).run(Question("q", "Which ledger records a card payment refund?", ("x.md",)))
    assert not [s for s in run.steps if s.path and "srv" in s.path]
    assert not [s for s in run.steps if s.status not in ("ok", None)]


def test_joined_pairs_are_the_one_word_spellings_of_two() -> None:
    assert joined_pairs("Should I hand over, or fail over the primary?") == [
        "ihand",
        "handover",
        "orfail",
        "failover",
        "theprimary",
    ]
    assert joined_pairs("in to the") == joined_pairs("a b") == joined_pairs("10 20") == []


def test_a_question_writing_two_words_finds_the_entry_spelling_one(tmp_path: Path) -> None:
    """ "fail over" in the question finds the bundle whose entry says "failover"; the
    other bundle's entry shares a word with the question ("failed") and came first."""
    root = make_package(
        tmp_path / "ops",
        {
            "index.md": "# Ops\n\n"
            "* [Payments](pay/) - Failed payments, retries and dunning emails.\n"
            "* [Databases](db/) - Postgres failover, replicas and backups.\n",
            "pay/index.md": "# Payments\n\n* [Dunning](dunning.md) - Retrying failed cards.\n",
            "pay/dunning.md": doc("Dunning", "Retrying failed cards.", "Cards are retried."),
            "db/index.md": "# Databases\n\n"
            "* [Failover runbook](failover.md) - Promoting a replica when the primary dies.\n",
            "db/failover.md": doc(
                "Failover runbook",
                "Promoting a replica when the primary dies.",
                "Never fail over the primary for slow queries alone: check replication first.",
            ),
        },
    )
    question = Question("q", "When should I fail over the primary?", ("db/failover.md",))
    run = nav(root).run(question)
    assert [s.path for s in run.steps][:3] == ["index.md", "db/index.md", "db/failover.md"]
    assert run.reached and run.turns_to_gold == 3


def test_navigator_backtracks_when_a_bundle_disappoints(tmp_path: Path) -> None:
    root = payments(tmp_path)
    # the root entry for ops/ now also promises refunds, but its index holds none
    index = root / "index.md"
    index.write_text(
        index.read_text().replace("Outages, paging", "Refund outages, card payment paging, refund"),
        encoding="utf-8",
    )
    run = nav(root).run(REFUND)
    paths = [s.path for s in run.steps]
    assert paths.index("ops/index.md") < paths.index("money/index.md")
    assert run.reached


def test_navigator_gives_up_when_nothing_matches(tmp_path: Path) -> None:
    run = nav(payments(tmp_path)).run(Question("q", "zebra giraffe", ("ops/paging.md",)))
    assert run.ended == GAVE_UP and run.answer == "" and not run.reached
    assert run.steps[-1].tool == "submit_answer"


def test_navigator_respects_the_budget(tmp_path: Path) -> None:
    run = nav(payments(tmp_path), budget=3).run(REFUND)
    assert run.summary.turns == 3 and run.steps[-1].tool == "submit_answer"
    assert run.ended == "budget" and not run.reached


def test_navigator_peeks_a_document_named_without_description(tmp_path: Path) -> None:
    root = payments(tmp_path)
    (root / "money/index.md").write_text(
        "# Money back\n\n* [Guide A](guide-a.md)\n* [Guide B](guide-b.md)\n", encoding="utf-8"
    )
    with_peek = nav(root).run(REFUND)
    assert ("peek", "money/guide-a.md") in [(s.tool, s.path) for s in with_peek.steps]
    assert with_peek.reached
    without = nav(root, peek=False).run(REFUND)
    assert all(s.tool != "peek" for s in without.steps)


def test_navigator_is_deterministic(tmp_path: Path) -> None:
    root = payments(tmp_path)
    one = [s.text for s in nav(root).run(CHARGEBACK).steps]
    two = [s.text for s in nav(root).run(CHARGEBACK).steps]
    assert one == two


# --- ablations ------------------------------------------------------------------------------


def test_without_descriptions_keeps_titles_and_links() -> None:
    text = "# T\n\n* [A](a.md) - says a\n* [B](b/) — says b\nprose\n"
    assert without_descriptions(text) == "# T\n\n* [A](a.md)\n* [B](b/)\nprose\n"


def test_without_frontmatter_returns_the_body() -> None:
    assert without_frontmatter("---\ntitle: x\n---\n# X\n") == "# X\n"
    assert without_frontmatter("# no block\n") == "# no block\n"


def test_ablated_indexes_serve_one_flat_listing(tmp_path: Path) -> None:
    pkg = Package.open(payments(tmp_path))
    view = AblatedSandbox(pkg, "indexes")
    assert view.kind_of("money/index.md") == "missing"
    assert "index.md" not in view.listdir("money")
    assert "index.md" in view.listdir("")
    flat = view.read_text("index.md")
    assert flat == flat_index(pkg)
    for path in pkg.documents:
        assert f"({path})" in flat


def test_ablated_frontmatter_peek_finds_none(tmp_path: Path) -> None:
    from kas_tui.features.agent.tools import run_tool

    pkg = Package.open(payments(tmp_path))
    outcome = run_tool(AblatedSandbox(pkg, "frontmatter"), "peek", {"path": "ops/paging.md"})
    assert outcome.text == "ops/paging.md has no YAML frontmatter"


def test_descriptions_ablation_lowers_reach(tmp_path: Path) -> None:
    """Titles alone ("Guide A", "Guide B") cannot tell the documents apart."""
    pkg = Package.open(payments(tmp_path))
    ev = evaluate(pkg, [REFUND, CHARGEBACK], ablations=["descriptions"], within=4)
    full, ablated = ev.variants
    assert full.overall.reach_within == 1.0
    assert ablated.overall.reach_within < full.overall.reach_within


# --- flat baseline, metrics ------------------------------------------------------------------


def test_flat_baseline_ranks_bodies(tmp_path: Path) -> None:
    pkg = Package.open(payments(tmp_path))
    found = run_flat(pkg, [REFUND, CHARGEBACK])
    assert [r.gold_rank for r in found] == [1, 1]
    assert found[0].ranked[0] == "money/guide-a.md"


def test_metrics_and_bundles(tmp_path: Path) -> None:
    navigator = nav(payments(tmp_path))
    runs = [navigator.run(q) for q in (REFUND, CHARGEBACK)]
    runs.append(navigator.run(Question("q3", "zebra", ("ops/paging.md",))))
    o = overall(runs)
    assert (o.questions, o.reached, o.reached_within, o.gave_up) == (3, 2, 2, 1)
    assert o.median_turns == 4
    assert set(by_bundle(runs)) == {"money", "ops"}


# --- blame ------------------------------------------------------------------------------------


def test_blame_names_the_entry_left_and_the_sibling_chosen(tmp_path: Path) -> None:
    root = payments(tmp_path)
    # the chargeback guide's entry now reads like the refund guide's
    (root / "money/index.md").write_text(
        "# Money back\n\n"
        "* [Guide A](guide-a.md) - Disputes and notices from the bank.\n"
        "* [Guide B](guide-b.md) - How to refund a card payment in the dashboard.\n",
        encoding="utf-8",
    )
    pkg = Package.open(root)
    assert nav(root).run(REFUND).reached  # it backtracks to Guide A when B disappoints
    run = nav(root, budget=4).run(REFUND)  # ... but not within four turns
    blame = blame_run(run, PathFinder(pkg))
    assert blame is not None and blame.kind == NOT_CHOSEN
    assert blame.expected is not None and blame.expected.where == "money/index.md:3"
    assert blame.chosen is not None and blame.chosen.where == "money/index.md:4"
    assert "money/index.md:3" in blame.hint and "refund" in blame.hint


def test_blame_at_a_bundle_entry_and_for_unlisted_gold(tmp_path: Path) -> None:
    root = payments(tmp_path)
    (root / "index.md").write_text(
        "# Payments\n\n"
        "* [Money back](money/) - Disputed charges.\n"
        "* [Operations](ops/) - Refund a card payment outage, paging.\n",
        encoding="utf-8",
    )
    (root / "lost.md").write_text(doc("Lost", "lost", "nothing"), encoding="utf-8")
    pkg = Package.open(root)
    navigator = nav(root, budget=4)
    blame = blame_run(navigator.run(REFUND), PathFinder(pkg))
    assert blame is not None and blame.kind == LEFT_PATH
    assert blame.expected is not None and blame.expected.target == "money/"
    assert blame.chosen is not None and blame.chosen.target == "ops/"
    lost = blame_run(navigator.run(Question("q9", "zebra", ("lost.md",))), PathFinder(pkg))
    assert lost is not None and lost.kind == UNLISTED and "lost.md" in lost.hint


def test_a_late_reach_is_blamed_as_a_detour(tmp_path: Path) -> None:
    root = misleading_root(payments(tmp_path))
    run = nav(root).run(REFUND)
    assert run.reached and run.turns_to_gold is not None and run.turns_to_gold > 4
    paths = PathFinder(Package.open(root))
    assert blame_run(run, paths) is None  # without ``within``, only misses are blamed
    blame = blame_run(run, paths, within=4)
    assert blame is not None and blame.kind == DETOUR and blame.late
    # the first entry on the path the walk did not follow straight away, and what it took
    assert blame.expected is not None and blame.expected.where == "index.md:3"
    assert blame.chosen is not None and blame.chosen.where == "index.md:4"
    assert blame.hint.startswith(f"reached on turn {run.turns_to_gold}: index.md:3")
    # within a larger budget of turns it is no detour
    assert blame_run(run, paths, within=run.turns_to_gold) is None


def test_a_reach_within_the_turns_is_no_detour(tmp_path: Path) -> None:
    root = payments(tmp_path)
    run = nav(root).run(REFUND)
    assert run.turns_to_gold is not None and run.turns_to_gold <= 4
    assert blame_run(run, PathFinder(Package.open(root)), within=4) is None


def test_a_detour_names_the_gold_path_the_walk_kept_to_longest(tmp_path: Path) -> None:
    root = misleading_root(payments(tmp_path))
    (root / "ops/index.md").write_text(
        "# Operations\n\n"
        "* [Refund outage](refund-outage.md) - The card payment refund outage of May.\n"
        "* [Paging](paging.md) - Who is paged for an outage and how to escalate.\n",
        encoding="utf-8",
    )
    (root / "ops/refund-outage.md").write_text(
        doc("Outage of May", "What broke in May.", "It lasted an hour."),  # no answer
        encoding="utf-8",
    )
    # two gold documents: the refund guide, whose path the walk left at the root, and the
    # paging runbook, whose bundle it opened first and left for the wrong document
    question = Question("q1", REFUND.question, ("money/guide-a.md", "ops/paging.md"))
    run = nav(root).run(question)
    assert [s.path for s in run.steps[:3]] == ["index.md", "ops/index.md", "ops/refund-outage.md"]
    blame = blame_run(run, PathFinder(Package.open(root)), within=3)
    assert blame is not None and blame.kind == DETOUR
    assert blame.expected is not None and blame.expected.where == "ops/index.md:4"
    assert blame.chosen is not None and blame.chosen.target == "ops/refund-outage.md"


def test_no_detour_when_a_gold_path_was_followed_straight(tmp_path: Path) -> None:
    root = misleading_root(payments(tmp_path))
    question = Question("q1", REFUND.question, ("money/guide-a.md", "ops/paging.md"))
    run = nav(root).run(question)
    assert [s.path for s in run.steps[:3]] == ["index.md", "ops/index.md", "ops/paging.md"]
    # the paging runbook took three turns along its path: long, but no entry misled
    assert blame_run(run, PathFinder(Package.open(root)), within=2) is None


def test_reports_keep_detours_apart_from_misses(tmp_path: Path) -> None:
    root = misleading_root(payments(tmp_path))
    lost = Question("q9", "zebra", ("ops/paging.md",))
    ev = evaluate(Package.open(root), [REFUND, lost])
    kinds = [b.kind for b in ev.main.blames]
    assert DETOUR in kinds and len(kinds) == 2
    text = format_text(ev)
    assert "Blame (1 missed):" in text
    assert "Detours (1 reached, but after turn 4):" in text
    assert "reached on turn" in text.split("Detours")[1]
    markdown = format_markdown(ev)
    assert "### Missed questions" in markdown and "### Reached after turn 4" in markdown
    record = evaluation_record(ev)["variants"][0]
    assert record["blame_summary"]["by_kind"][DETOUR] == 1
    assert ev.main.blame.misleading[0][0].where == "index.md:4"  # Operations drew it away


def test_a_hint_names_the_rarest_missing_words_first(tmp_path: Path) -> None:
    root = misleading_root(payments(tmp_path))
    run = nav(root).run(REFUND)
    paths = PathFinder(Package.open(root))
    plain = blame_run(run, paths, within=4)
    assert plain is not None and "does not mention refund, card, payment:" in plain.hint
    counts = {"refund": 1, "card": 3, "payment": 2}
    ranked = blame_run(run, paths, within=4, frequencies=lambda ws: {w: counts[w] for w in ws})
    assert ranked is not None and "does not mention refund, payment, card:" in ranked.hint
    # a word no document holds comes last: no entry could honestly mention it
    counts["refund"] = 0
    last = blame_run(run, paths, within=4, frequencies=lambda ws: {w: counts[w] for w in ws})
    assert last is not None and "does not mention payment, card, refund:" in last.hint


def test_a_word_is_counted_once_per_document_by_its_stem() -> None:
    table = LexicalIndex(("text",))
    try:
        table.add_many(
            [
                ("a", ("Refunds go back to the card",)),
                ("b", ("Go to settings and refund it",)),
                ("c", ("Nothing here",)),
            ]
        )
        assert table.frequencies(["refund", "go", "back", "zebra"]) == {
            "refund": 2,
            "go": 2,
            "back": 1,
            "zebra": 0,
        }
    finally:
        table.close()


def test_no_blame_when_reached(tmp_path: Path) -> None:
    root = payments(tmp_path)
    assert blame_run(nav(root).run(REFUND), PathFinder(Package.open(root))) is None


# --- the whole evaluation ------------------------------------------------------------------


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return Path(shutil.copytree(DEMO, tmp_path / "orbit-handbook"))


def test_evaluation_writes_trajectories_that_replay(demo: Path, tmp_path: Path) -> None:
    pkg = Package.open(demo)
    questions = [
        Question(
            "q1",
            "What happens after a card payment fails?",
            ("billing-support/failed-payments-dunning.md",),
        ),
        Question("q/2", "zebra giraffe", ("slos/slo-overview.md",)),
    ]
    out = tmp_path / "out"
    ev = evaluate(pkg, questions, ablations=["frontmatter"], out_dir=out)
    first = out / "full" / "q1.jsonl"
    header = json.loads(first.read_text().splitlines()[0])
    assert header["kind"] == "header" and header["question"] == questions[0].question
    assert header["navigator"] == "lexical-bm25" and header["package"] == "orbit-handbook"
    replayed = replay_file(pkg, first)
    assert not replayed.problems and not replayed.guessed
    assert [s.text for s in replayed.steps] == [s.text for s in ev.main.runs[0].steps]
    assert replayed.question == questions[0].question
    assert (out / "full" / "q_2.jsonl").is_file()
    assert (out / "frontmatter" / "q1.jsonl").is_file()
    record = evaluation_record(ev)
    assert record["variants"][0]["questions"][0]["trajectory"] == "full/q1.jsonl"
    assert record["variants"][0]["questions"][1]["ended"] == GAVE_UP
    assert set(record["flat"]["recall"]) == {"1", "3", "5"}
    text = format_text(ev)
    assert "flat baseline" in text and "--ablate frontmatter" in text
    assert "## kas-tui eval: orbit-handbook" in format_markdown(ev)


def test_workers_give_the_same_runs_in_the_same_order(demo: Path) -> None:
    from kas_tui.features.evaluate.drafting import draft_questions

    pkg = Package.open(demo)
    questions = draft_questions(pkg, n=40)
    one = evaluate(pkg, questions, workers=1)
    two = evaluate(pkg, questions, workers=2)
    assert [r.question.id for r in two.main.runs] == [q.id for q in questions]
    assert [[s.text for s in r.steps] for r in one.main.runs] == [
        [s.text for s in r.steps] for r in two.main.runs
    ]
    stopped = evaluate(pkg, questions, workers=2, should_stop=lambda: True)
    assert stopped.stopped and not stopped.main.runs
