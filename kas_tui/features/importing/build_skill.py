"""SKILL.md of a build: what the package covers and when to use it, from the indexes'
view of the package (its bundles, their sentences, the documents readers are sent to
most)."""

from __future__ import annotations

import re
from collections import Counter

from kas_tui.features.importing.page_subjects import subjects
from kas_tui.features.importing.site_about import site_description
from kas_tui.text import folder_summary as summary

#: Words that mark a page as history: never an entry point.
_OBSOLETE = re.compile(r"\b(obsolete|deprecated|retired|legacy|no longer supported)\b", re.I)


class SkillMixin:
    """The builder's SKILL.md (its state is the builder's)."""

    def _most_linked(self, view: dict[str, tuple[str, str, str]]) -> list[tuple[str, str, str]]:
        """(path, title, description) of the documents other documents link to most
        (three links at least), obsolete and deprecated ones left out: where readers of
        the site are sent most often, so where an agent may start."""
        inbound = Counter(target for _source, target in self.links_between)
        chosen = []
        for source, count in sorted(inbound.items(), key=lambda kv: (-kv[1], kv[0])):
            doc = self.docs.get(source)
            if count < 3 or doc is None or doc.out not in view:
                continue
            title, description, _type = view[doc.out]
            if doc.draft is not None:
                fields = doc.draft.frontmatter
            else:  # unchanged since the last build: as it recorded them
                fields = (self.manifest or {}).get("documents", {}).get(source, {}).get("fields")
            status = str((fields or {}).get("status") or "").lower()
            if status == "deprecated" or _OBSOLETE.search(f"{title} {description}"):
                continue
            chosen.append((doc.out, title, description))
            if len(chosen) == 8:
                break
        return chosen

    def _skill(self, view: dict[str, tuple[str, str, str]]) -> tuple[str, str]:
        info = self._info or self._descriptions(view)
        top = [f for f in info if f and "/" not in f]
        types = Counter(t for _title, _desc, t in view.values() if t)
        kinds = Counter(
            self.kinds.get(d.source, "markdown") for d in self.docs.values() if d.out in view
        )
        root_docs = sorted(
            ((p, v[0], v[1]) for p, v in view.items() if "/" not in p), key=lambda x: x[1].lower()
        )
        facts = summary.PackageFacts(
            name=self.name,
            title=self._package_title(view),
            products=subjects(self.source_meta, texts=[f"{v[0]}\n{v[1]}" for v in view.values()]),
            most_linked=self._most_linked(view),
            documents=len(view),
            bundles=[(f, info[f][0], info[f][1], info[f][2]) for f in top],
            root_documents=root_docs,
            types=types,
            kinds=kinds,
            source=self.source.name,
            failed=[f"{self._rel(e.source)}: {e.reason}" for e in self.result.failed],
            topics=summary.topics([v[0] for v in view.values()], limit=6),
            summary=site_description(
                self._read_source,
                sorted(self.source_files),
                self.toc.file if self.toc is not None else "",
            )
            or "",
        )
        return summary.skill_description(facts), summary.skill_body(facts)
