"""The products and services a source's pages say they are about (``appliesto``,
``ms.service``...), spelled as the pages spell them: what SKILL.md names."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: Frontmatter keys a page names its product or service with.
SUBJECT_KEYS = ("appliesto", "applies_to", "products", "product", "ms.service", "ms.product")


def subjects(
    frontmatters: Iterable[Mapping[str, Any]],
    limit: int = 8,
    *,
    texts: Sequence[str] | None = None,
) -> list[str]:
    """The products or services the pages say they are about, most common first: the
    values of ``appliesto`` / ``applies_to`` / ``products`` lists and of ``ms.service``
    / ``ms.product`` (``exchange-online`` read as "Exchange online"), release years
    dropped ("Outlook 2016" and "Outlook 2019" are "Outlook").

    With ``texts`` (the pages' titles and descriptions), a name read from a slug is
    spelled as they spell it ("Dynamics 365 Business Central"), and one they never
    write (an abbreviated slug, ``dynamics-365-op``) is left out."""
    counts: Counter[str] = Counter()
    spelled: dict[str, str] = {}
    from_slug: set[str] = set()
    for data in frontmatters:
        seen: set[str] = set()
        for key in ("appliesto", "applies_to", "products", "product"):
            value = data.get(key)
            values = value if isinstance(value, list) else [value]
            for item in values:
                if isinstance(item, str) and 2 < len(item.strip()) < 60:
                    seen.add(item.strip())
        if not seen:
            for key in ("ms.service", "ms.product"):
                value = data.get(key)
                if isinstance(value, str) and value.strip():
                    words = value.strip().replace("-", " ")
                    seen.add(words[0].upper() + words[1:])
                    from_slug.add(_unversioned(words[0].upper() + words[1:]))
        for item in sorted({_unversioned(i) for i in seen}):
            key = item.lower()
            counts[key] += 1
            spelled.setdefault(key, item)
    if texts is not None:
        for key in [k for k, item in spelled.items() if item in from_slug]:
            written = spelled_in(key, texts)
            if written:
                spelled[key] = written
            else:
                del counts[key]
    return [spelled[k] for k, _n in counts.most_common(limit)]


def spelled_in(phrase: str, texts: Sequence[str]) -> str | None:
    """How ``texts`` most often write ``phrase`` (compared without case), the spelling
    with more capitals first among equals; ``None`` when they never write it."""
    pattern = re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, phrase.split())) + r"(?!\w)", re.I)
    found = Counter(" ".join(m.split()) for m in pattern.findall("\n".join(texts)))
    if not found:
        return None
    return max(found, key=lambda w: (found[w], sum(c.isupper() for c in w)))


_YEAR = re.compile(r"\s+(?:19|20)\d\d\b.*$")


def _unversioned(product: str) -> str:
    """A product without its release year and what follows ("Exchange Server 2013
    Enterprise" -> "Exchange Server"): one subject, however many releases."""
    return _YEAR.sub("", product).strip() or product
