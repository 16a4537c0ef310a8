"""Rename and move documents, assets and bundles with every reference kept; split, merge.

A move is planned before anything is written (:func:`plan_move`, :func:`plan_split`,
:func:`plan_merge`): the planner reads every file that may refer to what moves (a byte
search for the moved names, see :func:`kas_tui.features.moves.relink.may_refer`), rewrites its
references (:mod:`kas_tui.features.moves.relink`), moves index entries from the old bundle's index to
the new one's, into the section the index-layout policy picks
(:func:`kas_tui.core.okf.index_layout.list_entries`), and adds one ``log.md`` entry. The
:class:`MovePlan` holds the bytes each file had and will have, so ``--dry-run`` prints
its diff and :func:`apply_plan` writes it through the store as one group: every file
is checked against the bytes the plan read, then the renames and writes run, and a
failure half-way puts back what was done (see :meth:`kas_tui.core.store.Store.apply_group`).

Split and merge are moves of several paths at once, planned the same way.
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
import posixpath
from dataclasses import dataclass, field

from kas_tui.core.editing import entry_kinds, index_title
from kas_tui.core.fileio import read_regular
from kas_tui.core.okf import index as index_fmt
from kas_tui.core.okf import index_layout
from kas_tui.core.okf import log as log_fmt
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.text import decode, encode
from kas_tui.core.package import Package
from kas_tui.core.store import Change, Write
from kas_tui.features.moves import refusals as rules
from kas_tui.features.moves.relink import PathMap, may_refer, relink_text
from kas_tui.text.wording import counted


@dataclass(frozen=True)
class FileChange:
    """One file a plan writes: where it is (``path``) and will be (``new_path``), its
    bytes now (``None``: created) and then (``None``: removed, with the ``folders`` it
    leaves empty)."""

    path: str
    new_path: str
    before: bytes | None = field(repr=False)
    after: bytes | None = field(repr=False)
    folders: tuple[str, ...] = ()

    def diff(self) -> str:
        """Its unified diff, ``a/`` where it is and ``b/`` where it will be."""
        old = decode(self.before).text.splitlines(keepends=True) if self.before else []
        new = decode(self.after).text.splitlines(keepends=True) if self.after else []
        a = "/dev/null" if self.before is None else f"a/{self.path}"
        b = "/dev/null" if self.after is None else f"b/{self.new_path}"
        lines = list(difflib.unified_diff(old, new, a, b))
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n\\ No newline at end of file\n"
        return "".join(lines)


@dataclass
class MovePlan:
    """What a move (split, merge) writes: the renames, then every file's new bytes."""

    label: str  # the undo history's name for it
    target: str  # where the moved item is afterwards (a file or a folder)
    renames: list[tuple[str, str]]  # files and folders renamed, in order (root-relative)
    files: list[FileChange]  # every file whose bytes change, is created or is removed
    moved: dict[str, str]  # every path that changes (folders too): old -> new
    notes: list[str] = field(default_factory=list)  # files whose references were not read
    aliases: list[tuple[str, str]] = field(default_factory=list)  # merged away: old -> new

    def place(self, path: str) -> str:
        """Where ``path`` (a file or folder) is once the plan is written."""
        return PathMap([*self.renames, *self.aliases]).final(path)

    def place_before(self, path: str) -> str:
        """Where ``path`` (named as after the plan) was before it."""
        return PathMap((new, old) for old, new in self.renames).final(path)

    @property
    def touched(self) -> int:
        """How many files change: renamed, rewritten, created or removed."""
        renamed = {old for old, _ in self.renamed_files()}
        return len(renamed | {f.path for f in self.files})

    def renamed_files(self) -> list[tuple[str, str]]:
        """Every file that changes its path (the files of a moved folder too)."""
        return [(old, new) for old, new in self.moved.items() if not old.endswith("/")]

    def diff(self) -> str:
        """The renames, then the unified diff of every file written."""
        out = []
        for old, new in self.renames:
            out.append(f"rename {old} => {new}\n")
        return "".join(out) + "".join(f.diff() for f in self.files)

    def summary(self) -> str:
        """One line: how many files move and how many others are rewritten."""
        moving = len(self.renamed_files())
        others = [f for f in self.files if f.path == f.new_path]
        return (
            f"{counted(moving, 'file')} renamed, "
            f"{counted(len(others), 'other file')} rewritten ({counted(self.touched, 'file')} in all)"
        )


# --- the public plans ------------------------------------------------------------------


def plan_move(
    pkg: Package, src: str, dst: str, *, log: bool = True, today: dt.date | None = None
) -> MovePlan:
    """Plan moving (or renaming) ``src`` to ``dst``: a document, an asset or a folder.

    Root-relative paths; ``dst`` is the new path itself (see :func:`into` for "into this
    folder"). Raises :class:`EditError` saying why when the move is refused.
    """
    src, dst = rules.clean_path(pkg, src, "the source"), rules.clean_path(pkg, dst, "the target")
    kind = rules.source_kind(pkg, src)
    rules.check_target(pkg, src, dst, kind)
    planner = _Planner(pkg, [(src, dst)])
    planner.relink()
    planner.move_entries([(src, dst, planner.kind_of(src))])
    verb = "Renamed" if posixpath.dirname(src) == posixpath.dirname(dst) else "Moved"
    shown = _link_text(pkg, src, dst, kind)
    message = f"{verb} {shown} from `{src}{'/' if kind == 'folder' else ''}`"
    label = f"{verb.lower()[:-1]} {src} to {dst}"
    return planner.finish(label, dst, message if log else None, today)


def into(pkg: Package, src: str, folder: str) -> str:
    """The path ``src`` gets when moved into ``folder`` (root-relative) keeping its name."""
    folder = rules.clean_path(pkg, folder, "the target folder", root_ok=True)
    name = posixpath.basename(rules.clean_path(pkg, src, "the source"))
    return posixpath.join(folder, name) if folder else name


def plan_split(
    pkg: Package,
    bundle: str,
    paths: list[str],
    name: str,
    *,
    description: str,
    title: str = "",
    log: bool = True,
    today: dt.date | None = None,
) -> MovePlan:
    """Plan moving ``paths`` (documents or assets directly in ``bundle``) into a new
    sub-bundle ``bundle/name``: its own index.md lists them, ``bundle``'s lists it."""
    bundle = rules.clean_path(pkg, bundle, "the bundle", root_ok=True)
    if bundle not in pkg.folders:
        raise EditError(f"{bundle} is not a folder of this package")
    rules.check_name(name, "the new bundle's name")
    sub = posixpath.join(bundle, name) if bundle else name
    if os.path.lexists(pkg.root / sub):
        raise EditError(f"{sub} exists already; choose another name for the new bundle")
    if not description.strip():
        raise EditError(
            "the new bundle needs a description: its index entry is an agent's only cue"
        )
    if not paths:
        raise EditError("choose at least one document to move into the new bundle")
    moves = []
    for path in paths:
        path = rules.clean_path(pkg, path, "a document")
        if posixpath.dirname(path) != bundle or rules.source_kind(pkg, path) == "folder":
            raise EditError(f"{path} is not a document or asset directly in {bundle or '.'}/")
        moves.append((path, posixpath.join(sub, posixpath.basename(path))))
    title = title.strip() or index_layout.folder_title(name)
    planner = _Planner(pkg, moves)
    planner.relink()
    planner.kinds[sub] = index_layout.BUNDLE
    fallback = {
        new: index_layout.NewEntry(new, doc.title, doc.description, doc.type)
        for old, new in moves
        if (doc := pkg.documents.get(old)) is not None
    }
    planner.move_entries(
        [(old, new, planner.kind_of(old)) for old, new in moves], fallback=fallback, title=title
    )
    planner.list_in(bundle, [index_layout.NewEntry(sub, title, description, index_layout.BUNDLE)])
    message = f"Split [{title}](/{sub}/) out of `{bundle or '.'}/` ({counted(len(moves), 'file')})"
    return planner.finish(
        f"split {sub} out of {bundle or '.'}", sub, message if log else None, today
    )


def plan_merge(
    pkg: Package, source: str, target: str, *, log: bool = True, today: dt.date | None = None
) -> MovePlan:
    """Plan moving everything in bundle ``source`` into bundle ``target``: its entries go
    to ``target``'s index, its index.md and its entry in its parent's index go."""
    source = rules.clean_path(pkg, source, "the bundle to merge")
    target = rules.clean_path(pkg, target, "the bundle to merge into", root_ok=True)
    for folder in (source, target):
        if folder not in pkg.folders:
            raise EditError(f"{folder or '.'} is not a folder of this package")
    if source == target:
        raise EditError(f"{source} cannot be merged into itself")
    if target.startswith(source + "/"):
        raise EditError(f"{source} cannot be merged into {target}, a folder inside it")
    children = rules.children(pkg, source)
    taken = sorted(n for n in children if os.path.lexists(pkg.root / target / n))
    if taken:
        raise EditError(
            f"{target or '.'}/ already holds {', '.join(taken)}; rename "
            f"{'it' if len(taken) == 1 else 'them'} in {source}/ first"
        )
    moves = [(f"{source}/{n}", posixpath.join(target, n)) for n in children]
    index_rel = f"{source}/index.md"
    aliases = [(source, target), (index_rel, posixpath.join(target, "index.md"))]
    planner = _Planner(pkg, moves, aliases=aliases)
    planner.remove(index_rel, (source,))
    parent = posixpath.dirname(source)
    own = planner.entries_listing(parent, source)  # before the links to it lead to target
    planner.relink()
    planner.remove_lines(_index_rel(parent), {e.line for e in own})
    planner.merge_entries(source, target)
    shown = _link_text(pkg, target, target, "folder")
    message = f"Merged `{source}/` into {shown}"
    return planner.finish(
        f"merge {source} into {target or '.'}", target, message if log else None, today
    )


def apply_plan(pkg: Package, plan: MovePlan, *, reload: bool = True) -> list[Change]:
    """Write ``plan`` through the package's store, as one group (all or nothing); then
    read the package again (``reload``). Raises :class:`~kas_tui.core.store.ConflictError`
    when a file changed since the plan read it, :class:`~kas_tui.core.store.StoreError`
    when the disk refuses: nothing is written either way."""
    root = pkg.root
    writes = [
        Write(root / f.new_path, f.before, f.after, tuple(root / d for d in f.folders))
        for f in plan.files
    ]
    renames = [(root / old, root / new) for old, new in plan.renames]
    changes = pkg.store.apply_group(renames, writes, label=plan.label)
    if reload:
        pkg.load()
    return changes


def _link_text(pkg: Package, src: str, dst: str, kind: str) -> str:
    """How the log names the moved item: a rooted link to where it is now."""
    doc = pkg.documents.get(src)
    title = doc.title if doc else index_layout.folder_title(posixpath.basename(dst) or pkg.name)
    title = index_fmt.escape_title(title)
    return f"[{title}](/{dst}{'/' if kind == 'folder' and dst else ''})"


# --- the planner -----------------------------------------------------------------------


class _Planner:
    """Reads the files a move touches and collects their new texts."""

    def __init__(
        self,
        pkg: Package,
        moves: list[tuple[str, str]],
        *,
        aliases: list[tuple[str, str]] | tuple = (),
    ) -> None:
        self.pkg = pkg
        self.renames = list(moves)
        self.paths = PathMap([*moves, *aliases])
        self.back = PathMap((new, old) for old, new in moves)  # where a new path is now
        self.read: dict[str, tuple[bytes, bool]] = {}  # file -> bytes now, BOM
        self.original: dict[str, str] = {}
        self.text: dict[str, str] = {}  # file (where it is now) -> text planned
        self.created: dict[str, str] = {}  # a new file (where it will be) -> text
        self.removed: dict[str, tuple[str, ...]] = {}  # file -> folders it leaves empty
        self.notes: list[str] = []
        self.known = pkg.known_paths()
        self.kinds = {self.paths.final(p): k for p, k in entry_kinds(pkg).items()}

    # -- files --------------------------------------------------------------------------

    def get(self, rel: str) -> str | None:
        """The text planned for ``rel`` (a file as it is now), read on first use;
        ``None`` when it does not exist (or cannot be edited: a note says so)."""
        if rel in self.text:
            return self.text[rel]
        try:
            data = read_regular(self.pkg.root / rel)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise EditError(
                f"cannot read it ({exc.strerror}); nothing was written", path=rel
            ) from None
        return self._decoded(rel, data)

    def _decoded(self, rel: str, data: bytes) -> str | None:
        try:
            decoded = decode(data)
        except FormatError as exc:
            self.notes.append(f"{rel}: {exc.message}; its references were not read")
            return None
        self.read[rel] = (data, decoded.bom)
        self.original[rel] = self.text[rel] = decoded.text
        return decoded.text

    def put(self, rel: str, text: str) -> None:
        if rel in self.created:
            self.created[rel] = text
        else:
            self.text[rel] = text

    def remove(self, rel: str, folders: tuple[str, ...] = ()) -> None:
        if self.get(rel) is not None:
            self.removed[rel] = folders

    def kind_of(self, path: str) -> str:
        """What the index policy calls ``path`` (a document's type, a bundle, an asset)."""
        return self.kinds.get(self.paths.final(path), "Asset")

    # -- references ---------------------------------------------------------------------

    def relink(self) -> None:
        """Rewrite every reference the moves break, in every Markdown file of the package
        that may hold one (and in every Markdown file that moves)."""
        pkg = self.pkg
        names = self.paths.names
        root = str(pkg.root)
        files = [*pkg.documents, *pkg.index_paths(), *pkg.logs]
        if pkg.skill is not None:
            files.append(pkg.skill_file)
        for rel in files:
            if rel in self.removed:
                continue
            moving = self.paths.new(rel) is not None
            if rel in self.text:
                text: str | None = self.text[rel]
            else:
                try:
                    data = read_regular(os.path.join(root, rel))
                except OSError as exc:
                    self.notes.append(f"{rel}: cannot be read ({exc.strerror}); not checked")
                    continue
                if not moving and not may_refer(data, names):
                    continue
                text = self._decoded(rel, data)
            if text is None:
                continue
            navigation = rel == pkg.skill_file or posixpath.basename(rel) == "index.md"
            try:
                new = relink_text(
                    text,
                    rel,
                    self.paths,
                    known=self.known,
                    code=navigation,
                    frontmatter=rel in pkg.documents,
                )
            except EditError as exc:
                exc.path = exc.path or rel
                raise
            self.text[rel] = new

    # -- index entries ------------------------------------------------------------------

    def move_entries(
        self,
        items: list[tuple[str, str, str]],
        *,
        fallback: dict[str, index_layout.NewEntry] | None = None,
        title: str | None = None,
    ) -> None:
        """For each ``(old, new, kind)`` that changes folder: its entries leave the old
        folder's index and one (its first, title and description kept; else
        ``fallback[new]``) goes into the new folder's, where the layout policy puts it.

        Entries are found in the indexes as they were read (every removal of a plan
        comes before its additions, so their lines are where they were)."""
        adds: dict[str, list[index_layout.NewEntry]] = {}
        removals: dict[str, set[int]] = {}
        for old, new, kind in items:
            home, new_home = posixpath.dirname(old), posixpath.dirname(new)
            if home == new_home:
                continue
            hits = self.entries_listing(home, old)
            removals.setdefault(_index_rel(home), set()).update(e.line for e in hits)
            if hits:
                entry = index_layout.NewEntry(new, hits[0].title, hits[0].description, kind)
            else:
                entry = (fallback or {}).get(new)
            if entry is not None:
                adds.setdefault(new_home, []).append(entry)
        for rel, lines in removals.items():
            self.remove_lines(rel, lines)
        for folder, entries in adds.items():
            self.list_in(folder, entries, title=title)

    def entries_listing(self, folder: str, path: str) -> list[index_fmt.Entry]:
        """The entries of ``folder``'s index, as read, that list ``path`` (as it was)."""
        if folder not in self.pkg.indexes or self.get(_index_rel(folder)) is None:
            return []
        text = self.original[_index_rel(folder)]
        return [e for e in index_fmt.parse_index(text).entries if _lists(folder, e, path)]

    def remove_lines(self, rel: str, lines: set[int]) -> None:
        """Remove the entries on ``lines`` (numbered as read) of index ``rel``."""
        text = self.get(rel)
        if text is None or not lines:
            return
        for line in sorted(lines, reverse=True):
            text = index_fmt.remove_entry(text, line)
        self.put(rel, text)

    def list_in(
        self, folder: str, entries: list[index_layout.NewEntry], *, title: str | None = None
    ) -> None:
        """List ``entries`` in ``folder``'s index.md (named as after the moves); a missing
        one is created when ``title`` is given (a new bundle), else refused."""
        final = _index_rel(folder)
        rel = self.back.final(final)
        text = self.created.get(rel) if rel in self.created else self.get(rel)
        if text is None and title is None and rel not in self.created:
            if posixpath.dirname(final) in self.pkg.folders and folder in self.pkg.indexes:
                raise EditError(f"{final} cannot be read, so it cannot list the moved entries")
            names = ", ".join(e.path for e in entries)
            raise EditError(
                f"{folder or '.'}/ has no index.md, so {names} would not be listed there; "
                "move into a bundle with an index.md (kas-tui check --fix makes one)"
            )
        new = index_layout.list_entries(
            text, folder, entries, self.kinds, title=title or index_title(self.pkg, folder)
        )
        if text is None:
            self.created[final] = new
        else:
            self.put(rel, new)

    def merge_entries(self, source: str, target: str) -> None:
        """Every entry of ``source``'s index (being removed) into ``target``'s index."""
        rel = f"{source}/index.md"
        text = self.original.get(rel)
        if text is None:
            return
        entries = []
        for entry in index_fmt.parse_index(text).entries:
            if self.pkg.resolve(rel, entry.target).kind != "internal":
                self._add_verbatim(target, entry)
                continue
            path = self.paths.final(index_layout.resolve_entry_path(source, entry))
            kind = self.kinds.get(path, "Asset")
            entries.append(index_layout.NewEntry(path, entry.title, entry.description, kind))
        if entries:
            self.list_in(target, entries, title=index_title(self.pkg, target))

    def _add_verbatim(self, folder: str, entry: index_fmt.Entry) -> None:
        """An entry linking outside the package, added to ``folder``'s index as written."""
        rel = self.back.final(_index_rel(folder))
        text = self.get(rel)
        if text is None or any(
            e.target == entry.target for e in index_fmt.parse_index(text).entries
        ):
            return
        sections = {s.title for s in index_fmt.parse_index(text).sections}
        section = entry.section if entry.section in sections else None
        self.put(
            rel,
            index_fmt.add_entry(
                text, entry.title, entry.target, entry.description, section=section
            ),
        )

    # -- the plan -----------------------------------------------------------------------

    def finish(
        self, label: str, target: str, message: str | None, today: dt.date | None
    ) -> MovePlan:
        """The plan, with the ``log.md`` entry ``message`` (none when ``None``)."""
        if message is not None:
            edited = sum(1 for rel, text in self.text.items() if text != self.original[rel])
            message += f"; {counted(edited, 'other file')} updated." if edited else "."
            date = (today or dt.date.today()).isoformat()
            text = self.get("log.md")
            entry = log_fmt.append_log_entry(text, date, "Update", message)
            if text is None:
                self.created["log.md"] = entry
            else:
                self.put("log.md", entry)
        files = []
        for rel, text in sorted(self.text.items()):
            data, bom = self.read[rel]
            if rel in self.removed:
                files.append(FileChange(rel, rel, data, None, self.removed[rel]))
            elif text != self.original[rel]:
                files.append(FileChange(rel, self.paths.final(rel), data, encode(text, bom)))
        files += [
            FileChange(rel, rel, None, encode(text, False))
            for rel, text in sorted(self.created.items())
        ]
        aliases = [
            (old, new) for old, new in self.paths.moves.items() if (old, new) not in self.renames
        ]
        return MovePlan(label, target, self.renames, files, self._moved(), self.notes, aliases)

    def _moved(self) -> dict[str, str]:
        """Every file and folder the renames move, old -> new (folders end in ``/``)."""
        moved: dict[str, str] = {}
        for old, new in self.renames:
            if old in self.pkg.folders:
                moved[old + "/"] = new + "/"
                for path in sorted(self.known):
                    if path.startswith(old + "/"):
                        folder = path in self.pkg.folders
                        suffix = "/" if folder else ""
                        moved[path + suffix] = new + path[len(old) :] + suffix
            else:
                moved[old] = new
        return moved


def _index_rel(folder: str) -> str:
    return f"{folder}/index.md" if folder else "index.md"


def _lists(folder: str, entry: index_fmt.Entry, path: str) -> bool:
    try:
        return index_layout.resolve_entry_path(folder, entry) == path
    except ValueError:
        return False
