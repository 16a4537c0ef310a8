"""A later build: new and changed sources written into the package, reconciled with
what a curator did since the last build (their edits are kept, and said so)."""

from __future__ import annotations

import posixpath
from typing import Any

from kas_tui.core.fileio import read_regular
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf import index as index_fmt
from kas_tui.core.okf import index_layout, yaml_patch
from kas_tui.core.okf import log as log_fmt
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.text import decode
from kas_tui.core.records import Document
from kas_tui.core.store import Store, StoreError, Write
from kas_tui.features.importing.build_layout import _Doc
from kas_tui.features.importing.build_manifest import (
    MANIFEST,
    BuildError,
    _json_value,
    _same,
    _sha,
)
from kas_tui.features.importing.convert import sha256_file
from kas_tui.features.importing.draft import body_text
from kas_tui.text.wording import counted


class ReconcileMixin:
    """The builder's writes over an existing package (its state is the builder's)."""

    def _write_again(self) -> None:
        """Plan every write on a dry-run store (each file read as it is now), then write
        them all at once: on any failure (a full disk, a file changed meanwhile) the
        package is as it was, to the byte, and the build says so."""
        try:
            writes = self._plan_again()
        except StoreError as exc:
            raise self._unchanged(exc) from None
        self._write_all(writes)

    def _plan_again(self) -> list[Write]:
        from kas_tui.core.package import Package

        assert self.manifest is not None
        store = Store(dry_run=True)
        old = self.manifest.get("documents", {})
        changed = [d for d in self.docs.values() if d.draft is not None]
        for n, doc in enumerate(changed, start=1):
            target = self.out / doc.out
            if doc.state == "new" or not target.exists():
                if target.exists():  # never over a file the build did not write
                    self.result.notes.append(
                        f"{doc.out}: a file of that name is already there; kept"
                    )
                    doc.draft = None
                    continue
                store.apply(target, lambda _t, text=doc.text: text, create=True, label=doc.out)
                self.result.created.append(doc.out)
            else:
                self._update_document(store, doc, old.get(doc.source, {}))
            self.progress("write", n, len(changed))
        assets = [w for w in (self._update_asset(s, o) for s, o in self.assets.items()) if w]
        pkg = Package(self.out)
        pkg.load()
        view = {p: (d.title, d.description, d.type) for p, d in pkg.documents.items()}
        view.update(self._staged_view(store))
        entries = self._reconcile_indexes(pkg, store, view)
        skill_description, skill_body = self._skill(view)
        skill_description, skill_sha = self._update_skill(store, skill_description, skill_body)
        if self.result.created or self.result.updated or self._index_changes:
            added, updated = len(self.result.created), len(self.result.updated)
            message = (
                f"Rebuilt from {self.source.name}: {added:,} added, {updated:,} updated, "
                f"{self.result.unchanged:,} unchanged"
                + (f", {len(self.result.failed):,} failed" if self.result.failed else "")
                + (
                    f"; curator edits kept in {counted(len(self.result.kept), 'place')}"
                    if self.result.kept
                    else ""
                )
                + "."
            )
            store.apply(
                self.out / "log.md",
                lambda t: log_fmt.append_log_entry(t, self.today.isoformat(), "Update", message),
                create=not (self.out / "log.md").exists(),
                label="log.md",
            )
        writes = store.pending_writes() + assets
        record = self._manifest_bytes(entries, skill_description, skill_sha)
        if record is not None:
            path = self.out / MANIFEST
            writes.append(Write(path, read_regular(path) if path.exists() else None, record))
        return writes

    def _write_all(self, writes: list[Write]) -> None:
        """Write the rebuild's files as one group: all of them, or none (a full disk, a
        file a curator changed meanwhile: :class:`BuildError`, the package as it was)."""
        if not writes:
            return
        try:
            Store().apply_group([], writes, label="build")
        except StoreError as exc:
            raise self._unchanged(exc) from None

    def _unchanged(self, exc: StoreError) -> BuildError:
        """A rebuild that wrote nothing, in one line: that, and why."""
        from kas_tui.core.editing import failure_line

        return BuildError(f"{self.out}: {failure_line(exc, self.out)}")

    def _staged_view(self, store: Store) -> dict[str, tuple[str, str, str]]:
        """Title, description and type of each document the dry run would write, as the
        package will read them once it is written."""
        view = {}
        for doc in self.docs.values():
            staged = store.pending.get(self.out / doc.out)
            if doc.draft is None or staged is None:
                continue
            try:
                parsed = fm.parse(decode(staged[1]).text)
            except FormatError:
                parsed = None
            read = Document(doc.out, parsed.data if parsed else {}, parsed is not None, 1, None)
            view[doc.out] = (read.title, read.description, read.type)
        return view

    def _update_asset(self, src: str, out: str) -> Write | None:
        """The copy of a new or changed asset, unless a curator replaced or removed it."""
        assert self.manifest is not None
        target = self.out / out
        previous = self.manifest.get("assets", {}).get(src)
        digest = sha256_file(self.source / src)
        self.asset_sha[src] = digest
        before: bytes | None = None
        if previous is None:
            if target.exists():
                self.result.notes.append(f"{out}: a file of that name is already there; kept")
                self.asset_sha[src] = ""
                return None
        elif previous.get("sha256") == digest:
            return None
        elif not target.exists() or sha256_file(target) != previous.get("sha256"):
            self.result.kept.append(f"{out}: replaced or removed by a curator; kept")
            self.asset_sha[src] = previous.get("sha256", "")
            return None
        else:
            before = read_regular(target)
        self.result.assets += 1
        return Write(target, before, read_regular(self.source / src))

    def _update_document(self, store: Store, doc: _Doc, previous: dict[str, Any]) -> None:
        assert doc.draft is not None
        written = previous.get("fields") or {}
        new = doc.draft.frontmatter
        target = self.out / doc.out
        kept_fields: dict[str, Any] = {}
        notes: list[str] = []

        def transform(text: str | None) -> str:
            assert text is not None
            try:
                parsed = fm.parse(text)
            except FormatError:
                notes.append(f"{doc.out}: its frontmatter cannot be read; left as it is")
                return text
            current = parsed.data if parsed else {}
            for key, value in new.items():
                if key in written:
                    if key not in current:
                        notes.append(f"{doc.out}: '{key}' was removed by a curator; not restored")
                        kept_fields[key] = written[key]
                    elif _same(current[key], written[key]):
                        if not _same(current[key], value):
                            text = yaml_patch.set_field(text, key, value)
                    elif not _same(current[key], value):
                        notes.append(f"{doc.out}: '{key}' was edited by a curator; kept")
                        kept_fields[key] = written[key]
                elif key not in current:
                    text = yaml_patch.set_field(text, key, value)
            for key in written:
                if key not in new and key in current and _same(current[key], written[key]):
                    text = yaml_patch.remove_field(text, key)
            block = fm.find_block(text)
            head, body = (text[: block.end], text[block.end :]) if block else ("", text)
            if _sha(body) == previous.get("body"):
                text = head + body_text(doc.draft)
            elif _sha(body) != _sha(doc.draft.body):
                notes.append(
                    f"{doc.out}: the body was edited by a curator; the source's new text was not applied"
                )
                kept_fields["\0body"] = previous.get("body")
            return text

        try:
            change = store.apply(target, transform, label=doc.out)
        except (EditError, StoreError) as exc:
            self.result.notes.append(f"{doc.out}: not updated ({exc})")
            return
        self.result.kept.extend(notes)
        fields = {k: kept_fields.get(k, v) for k, v in _json_value(new).items()}
        self.new_manifest[doc.source] = {
            "fields": fields,
            "body": kept_fields.get("\0body") or _sha(doc.draft.body),
        }
        if change is not None:
            self.result.updated.append(doc.out)

    def _reconcile_indexes(
        self, pkg: Any, store: Store, view: dict[str, tuple[str, str, str]]
    ) -> dict[str, dict[str, list[str]]]:
        wanted, info = self._wanted_entries(view)
        self._info = info
        old_entries: dict[str, dict[str, list[str]]] = (
            self.manifest.get("indexes", {}) if self.manifest else {}
        )
        result: dict[str, dict[str, list[str]]] = {}
        self._index_changes = 0
        from kas_tui.core.editing import entry_kinds

        kinds = entry_kinds(pkg)  # the curator's documents count too, the build's win
        kinds.update((path, value[2]) for path, value in view.items())
        kinds.update((folder, index_layout.BUNDLE) for folder in wanted if folder)

        def there(item: Any) -> bool:
            """Whether an entry's document or bundle is there once the build is written
            (one it writes is not on disk yet: the package was read before)."""
            if item.kind in ("document", "bundle"):
                return True
            return item.kind == "missing" and (item.path in view or item.path in wanted)

        for folder, entries in wanted.items():
            index_rel = posixpath.join(folder, "index.md") if folder else "index.md"
            path = self.out / index_rel
            index_file = pkg.indexes.get(folder)
            if index_file is None:
                store.apply(
                    path,
                    lambda _t, f=folder, e=entries: self._index_text(f, e, info, view),
                    create=not path.exists(),
                    label=index_rel,
                )
                result[folder] = {t: [title, desc] for t, title, desc, _b in entries}
                self._index_changes += 1
                self.result.indexes += 1
                continue
            before = old_entries.get(folder, {})
            record: dict[str, list[str]] = {}
            listed = {item.path: item for item in index_file.listings if there(item)}
            line_edits: list[tuple[int, str, str]] = []
            additions: list[tuple[str, str, str, bool]] = []
            for target, title, description, is_bundle in entries:
                item = listed.get(target)
                previous = before.get(target)
                if item is None:
                    if previous is not None:
                        self.result.kept.append(
                            f"{index_rel}: the entry for {target} was removed by a curator; "
                            "not restored"
                        )
                        record[target] = previous
                        continue
                    additions.append((target, title, description, is_bundle))
                    record[target] = [title, description]
                    continue
                now_pair = [item.entry.title, item.entry.description]
                if previous is None:
                    continue  # an entry the build did not write: the curator's
                if now_pair != previous:
                    self.result.kept.append(
                        f"{index_rel}: the entry for {target} was edited by a curator; kept"
                    )
                    record[target] = previous
                    continue
                if now_pair != [title, description]:
                    line_edits.append((item.entry.line, title, description))
                record[target] = [title, description]
            removals: list[int] = []
            for item in index_file.listings:
                # an entry the build wrote for a document a curator has deleted since
                pair = [item.entry.title, item.entry.description]
                if not there(item) and item.kind == "missing" and before.get(item.path) == pair:
                    removals.append(item.entry.line)
                    self.result.notes.append(
                        f"{index_rel}: removed the entry for {item.path}, which was deleted"
                    )
            if line_edits or additions or removals:

                def transform(
                    text: str | None,
                    folder: str = folder,
                    line_edits: list = line_edits,
                    additions: list = additions,
                    removals: list = removals,
                ) -> str:
                    assert text is not None
                    for line, title, description in line_edits:  # lines as read: first
                        text = index_fmt.set_entry(text, line, title=title, description=description)
                    for line in sorted(removals, reverse=True):
                        text = index_fmt.remove_entry(text, line)
                    return index_layout.list_entries(
                        text, folder, self._new_entries(additions, view), kinds
                    )

                try:
                    if store.apply(path, transform, expect=index_file.fingerprint, label=index_rel):
                        self._index_changes += 1
                except (EditError, StoreError) as exc:
                    self.result.notes.append(f"{index_rel}: not updated ({exc})")
            result[folder] = record
        return result

    def _update_skill(self, store: Store, description: str, body: str) -> tuple[str, str]:
        """Update SKILL.md where the build's last text is still there; keep curator edits."""
        path = self.out / "SKILL.md"
        previous = (self.manifest or {}).get("skill", {})
        if not path.exists():
            self.result.notes.append("SKILL.md: deleted since the last build; not recreated")
            return previous.get("description", description), previous.get("body", "")
        kept_description = kept_body = False

        def transform(text: str | None) -> str:
            nonlocal kept_description, kept_body
            assert text is not None
            parsed = fm.parse(text)
            current = parsed.data.get("description") if parsed else None
            if current == previous.get("description"):
                if current != description:
                    text = yaml_patch.set_field(text, "description", description)
            else:
                kept_description = True
            block = fm.find_block(text)
            head, old_body = (text[: block.end], text[block.end :]) if block else ("", text)
            if _sha(old_body) == previous.get("body"):
                text = head + "\n" + body
            else:
                kept_body = True
            return text

        try:
            if store.apply(path, transform, label="SKILL.md"):
                self._index_changes += 1
        except (EditError, StoreError, FormatError) as exc:
            self.result.notes.append(f"SKILL.md: not updated ({exc})")
        if kept_description:
            self.result.kept.append("SKILL.md: the description was edited by a curator; kept")
            description = previous.get("description", description)
        if kept_body:
            self.result.kept.append("SKILL.md: the body was edited by a curator; kept")
            return description, previous.get("body", "")
        return description, _sha(body)
