"""Generate realistic Knowledge-as-Skill packages of any size, for benchmarks and tests."""

from __future__ import annotations

import random
from pathlib import Path

TYPES = ["Runbook", "Policy", "Reference", "FAQ", "Procedure", "Glossary"]
WORDS = [
    "incident",
    "latency",
    "billing",
    "refund",
    "deploy",
    "rollback",
    "alert",
    "budget",
    "customer",
    "invoice",
    "database",
    "failover",
    "escalation",
    "pager",
    "release",
    "canary",
    "flag",
    "migration",
    "access",
    "secret",
    "rotation",
    "outage",
    "severity",
    "review",
    "checklist",
    "region",
    "queue",
    "backlog",
    "webhook",
    "quota",
]


def _sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def _vocabulary(size: int) -> tuple[list[str], list[float]]:
    """``size`` made-up words (the 30 above first) with Zipf weights, as words in text
    are spread: a few very common, most rare."""
    rng = random.Random(size)
    onsets, vowels, codas = (
        [
            "b",
            "c",
            "d",
            "f",
            "g",
            "h",
            "k",
            "l",
            "m",
            "n",
            "p",
            "r",
            "s",
            "t",
            "v",
            "w",
            "z",
            "br",
            "ch",
            "pl",
            "st",
            "tr",
        ],
        "aeiou",
        ["", "n", "r", "s", "t", "x"],
    )
    words = list(WORDS)
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(onsets) + rng.choice(vowels) for _ in range(rng.randint(1, 3)))
        word += rng.choice(codas)
        if word not in seen:
            seen.add(word)
            words.append(word)
    weights, total = [], 0.0
    for rank in range(1, size + 1):
        total += 1 / rank
        weights.append(total)
    return words, weights


def _description(rng: random.Random, vocabulary: tuple[list[str], list[float]] | None) -> str:
    if vocabulary is None:
        return _sentence(rng, 14)
    words, weights = vocabulary
    if rng.random() < 0.01:  # a templated description, as exports have ("Fixes error 0x...")
        return f"Fixes error 0x{rng.randrange(1 << 32):08x} when you sign in to the {words[40]} portal."
    return (
        " ".join(rng.choices(words, cum_weights=weights, k=rng.randint(10, 22))).capitalize() + "."
    )


def descriptions(count: int, *, vocabulary: int = 5000, seed: int = 7) -> list[str]:
    """``count`` descriptions as :func:`generate_package` writes them with
    ``vocabulary``: 10 to 22 Zipf-spread words, 1 % templated."""
    rng = random.Random(seed)
    words = _vocabulary(vocabulary)
    return [_description(rng, words) for _ in range(count)]


def _document(
    rng: random.Random, i: int, folder: str, vocabulary: tuple[list[str], list[float]] | None = None
) -> str:
    title = _sentence(rng, 4)[:-1]
    tags = rng.sample(WORDS, 3)
    body = "\n\n".join(
        f"## {_sentence(rng, 3)[:-1]}\n\n{' '.join(_sentence(rng, 12) for _ in range(4))}\n\n"
        f"See [related](/{folder}/doc-{(i + 1):05d}.md) and [the policy](../index.md)."
        for _ in range(6)
    )
    return (
        "---\n"
        f"type: {rng.choice(TYPES)}\n"
        f"title: {title}\n"
        f"description: {_description(rng, vocabulary)}\n"
        f"tags: [{', '.join(tags)}]\n"
        "sources:\n"
        f"  - id: src{i}\n"
        f"    resource: https://docs.example.com/{folder}/{i}\n"
        f"    title: {_sentence(rng, 5)[:-1]}\n"
        f"generated: {{ by: kas-tui/0.1.0, at: 2026-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T10:00:00Z }}\n"
        "verified:\n"
        f"  - {{ by: human:user{rng.randint(1, 20)}, at: 2026-10-0{rng.randint(1, 9)}T09:00:00Z }}\n"
        f"status: {rng.choice(['stable', 'stable', 'stable', 'draft', 'deprecated'])}\n"
        f"stale_after: 2027-0{rng.randint(1, 9)}-01T00:00:00Z\n"
        "---\n\n"
        f"# {title}\n\n{body}\n"
    )


def generate_package(
    root: Path, documents: int, *, per_bundle: int = 100, seed: int = 7, vocabulary: int = 0
) -> Path:
    """Write a package of ``documents`` concepts in bundles of ``per_bundle`` under ``root``.

    Descriptions are 14 words of the 30 above unless ``vocabulary`` names a number of
    words: then 10 to 22 words of a Zipf-spread vocabulary of that size, 1 % of them
    templated (near-identical but for an error code), as real descriptions are.
    """
    rng = random.Random(seed)
    words = _vocabulary(vocabulary) if vocabulary else None
    root.mkdir(parents=True, exist_ok=True)
    (root / "SKILL.md").write_text(
        f"---\nname: {root.name}\ndescription: Generated benchmark package. Use for testing.\n---\n\n"
        "# Benchmark\n\nStart at index.md.\n"
    )
    (root / "log.md").write_text(
        "# Update log\n\n## 2026-11-30\n* **Initialization**: Generated.\n"
    )
    bundles = []
    for b in range(max(1, -(-documents // per_bundle))):
        group, folder = f"area-{b // 10:02d}", f"area-{b // 10:02d}/bundle-{b:03d}"
        (root / folder).mkdir(parents=True, exist_ok=True)
        entries = []
        for i in range(b * per_bundle, min(documents, (b + 1) * per_bundle)):
            text = _document(rng, i, folder, words)
            (root / folder / f"doc-{i:05d}.md").write_text(text)
            title = text.split("title: ", 1)[1].split("\n", 1)[0]
            desc = text.split("description: ", 1)[1].split("\n", 1)[0]
            entries.append(f"* [{title}](doc-{i:05d}.md) - {desc}")
        (root / folder / "index.md").write_text(f"# Bundle {b}\n\n" + "\n".join(entries) + "\n")
        bundles.append((group, folder))
    groups = sorted({g for g, _ in bundles})
    for group in groups:
        lines = [
            f"* [Bundle {f[-3:]}]({f.split('/')[1]}/) - Documents of bundle {f[-3:]}."
            for g, f in bundles
            if g == group
        ]
        (root / group / "index.md").write_text(f"# {group}\n\n" + "\n".join(lines) + "\n")
    (root / "index.md").write_text(
        '---\nokf_version: "0.2"\n---\n# Areas\n\n'
        + "\n".join(f"* [{g}]({g}/) - Bundles of {g}." for g in groups)
        + "\n"
    )
    return root


def generate_huge_page(
    root: Path, size: int, *, one_paragraph: bool = False, seed: int = 7
) -> Path:
    """Write a small package under ``root`` whose ``huge.md`` is about ``size`` bytes:
    sections (a heading, a paragraph, a short list) as an exported manual has, or one
    paragraph of words (``one_paragraph``), as a page pasted from a log can be."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    (root / "SKILL.md").write_text(
        f"---\nname: {root.name}\ndescription: A package with a huge page. Use for testing.\n"
        "---\n\n# Huge\n\nStart at index.md.\n"
    )
    (root / "log.md").write_text(
        "# Update log\n\n## 2026-11-30\n* **Initialization**: Generated.\n"
    )
    (root / "index.md").write_text(
        '---\nokf_version: "0.2"\n---\n# Pages\n\n'
        "* [Huge](huge.md) - A huge page.\n* [Small](small.md) - A small page.\n"
    )
    head = "---\ntype: Reference\ntitle: {}\ndescription: A page of the benchmark.\n---\n\n"
    parts, total, n = [head.format("Huge"), "# Huge\n\n"], 0, 0
    while total < size:
        n += 1
        if one_paragraph:
            part = " ".join(rng.choices(WORDS, k=2000)) + " "
        else:
            part = (
                f"## {_sentence(rng, 3)[:-1]} {n}\n\n{' '.join(_sentence(rng, 12) for _ in range(4))}"
                f"\n\n- {_sentence(rng, 5)}\n- See [the policy](small.md).\n- {_sentence(rng, 4)}\n\n"
            )
        parts.append(part)
        total += len(part)
    with (root / "huge.md").open("w") as out:
        out.writelines(parts)
        out.write("\n")
    (root / "small.md").write_text(head.format("Small") + "# Small\n\nHello.\n")
    return root


def generate_source(root: Path, pages: int, *, seed: int = 7, vocabulary: int = 5000) -> Path:
    """Write ``pages`` Markdown pages into the one folder ``root``, as a flat docs export
    is before a build: no frontmatter, a title heading, an opening paragraph of Zipf-spread
    words (2 % opening with one of a few templated sentences, as exported articles do),
    then sections with headings, prose and a link to the next page."""
    rng = random.Random(seed)
    words = _vocabulary(vocabulary)
    templated = [
        "This article describes how to fix the error that appears when you sign in to the portal.",
        "This article explains what to do when the service cannot be reached from your network.",
        "Use this page to find which setting controls the behaviour of the selected feature.",
    ]
    root.mkdir(parents=True, exist_ok=True)

    def sentence(low: int, high: int) -> str:
        chosen = rng.choices(words[0], cum_weights=words[1], k=rng.randint(low, high))
        return " ".join(chosen).capitalize() + "."

    for i in range(pages):
        title = " ".join(rng.choices(words[0], cum_weights=words[1], k=rng.randint(3, 7)))
        opening = [sentence(10, 22) for _ in range(rng.randint(2, 4))]
        if rng.random() < 0.02:
            opening.insert(0, rng.choice(templated))
        sections = "".join(
            f"## {sentence(2, 5)[:-1]}\n\n{' '.join(sentence(8, 20) for _ in range(4))}\n\n"
            for _ in range(rng.randint(2, 5))
        )
        (root / f"page-{i:05d}.md").write_text(
            f"# {title.capitalize()}\n\n{' '.join(opening)}\n\n{sections}"
            f"See [the next page](page-{(i + 1) % pages:05d}.md).\n",
            encoding="utf-8",
        )
    return root
