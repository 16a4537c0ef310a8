"""A repository's build and tool files: no knowledge, left out of a build, unless a
page links to one (k3d's CUDA guide links the ``Dockerfile`` it explains)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from kas_tui.features.importing.convert_model import (
    ASCIIDOC_EXTS,
    MARKDOWN_EXTS,
    ORG_EXTS,
    RST_EXTS,
    TIDDLER_EXTS,
)
from kas_tui.features.importing.docfx_yaml import yamlmime_kind
from kas_tui.features.importing.front_matter import front_matter
from kas_tui.features.importing.source_meta import FURNITURE
from kas_tui.text.wording import counted

#: The files a repository's build and tools read (compared in lower case, any depth):
#: no knowledge, in a docs folder or beside it. ``requirements*.txt`` too.
MACHINERY = frozenset(
    {"makefile", "gnumakefile", "make.bat", "dockerfile", "containerfile", "tox.ini"}
    | {"setup.cfg", "manifest.in", "pytest.ini", ".readthedocs.yml", ".readthedocs.yaml"}
    | {"package.json", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb"}
    | {"cargo.toml", "cargo.lock", "poetry.lock", "pyproject.toml", "uv.lock", "go.mod"}
    | {"go.sum", "gemfile", "gemfile.lock", "composer.json", "composer.lock", "lerna.json"}
    | {"tsconfig.json", "netlify.toml", "vercel.json", "environment.yml", "pipfile.lock"}
    # services' and tools' settings kept at a repository's root (encode/django-rest-
    # framework's codecov.yml was a "Data" document)
    | {"codecov.yml", "codecov.yaml", "renovate.json", "mypy.ini", "ruff.toml", "pipfile"}
    | {"docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml"}
    | {"procfile", "vagrantfile", "justfile", "taskfile.yml", "brewfile", "crowdin.yml"}
    | {"rustfmt.toml", "clippy.toml", "deny.toml", "rust-toolchain.toml", "rust-toolchain"}
    | {"biome.json", "turbo.json", "nx.json", "pnpm-workspace.yaml", "deno.json"}
    | {"typos.toml", "_typos.toml", "cspell.json", "cspell.yml", "cspell.yaml"}
    # Clojure's tools (logseq/docs' bb.edn was a page "Bb": "Tasks {nbb {:doc ...")
    | {"bb.edn", "deps.edn", "shadow-cljs.edn", "project.clj"}
    # the Microsoft Learn build's version map (PowerShell-Docs' mapping/monikerMapping.json
    # was a "Data" document listing powershell-5.1, powershell-7.4...)
    | {"monikermapping.json"}
    # instructions to coding agents working in the repository (vitest's docs/AGENTS.md,
    # "Guidance for working on the VitePress site"), not knowledge of what it documents
    | {"agents.md", "claude.md", "gemini.md"}
    # an R package's and RStudio's (r4ds', adv-r's DESCRIPTION was a page "Description")
    | {"description", "namespace", "makevars", "makevars.win", ".rbuildignore", "renv.lock"}
    # a bookdown book's build settings, a Quarto project's profiles and publishing record
    | {"_output.yml", "_publish.yml"}
)
_REQUIREMENTS = re.compile(r"^requirements(?:[-_.][\w.-]+)?\.(?:txt|in)$")
#: A spelling checker's word list: sphinxcontrib-spelling's ``spelling_wordlist.txt``
#: (jupyterhub's page "Spelling wordlist": "Afterwards alchemyst alope api..."),
#: codespell's ``codespell-ignore-words.txt``, cspell's ``cspell-words.txt``.
_WORD_LIST = re.compile(r"^[\w.-]*spell[\w.-]*(?:word|ignore|dict)[\w.-]*\.(?:txt|dic)$")
#: Tools' settings by their name's pattern: TypeScript's (pinia's ``typedoc.tsconfig.json``
#: was a "Data" page), linters', what a browser reads of a site
#: (``browserconfig.xml``, ``opensearch.xml``, a web app manifest).
_TOOL_CONFIG = re.compile(
    r"^(?:[\w-]+\.)*(?:tsconfig|jsconfig)(?:\.[\w-]+)*\.json$"
    r"|^\.?(?:eslintrc|prettierrc|babelrc|stylelintrc|markdownlint)(?:\.[\w-]+)?$"
    r"|^(?:browserconfig|opensearch)\.xml$|^(?:site\.|manifest\.)?webmanifest$"
    r"|^[\w.-]+\.rproj$|^_quarto[\w.-]*\.ya?ml$"  # RStudio's project, Quarto's profiles
    # LaTeX's classes, styles, bibliographies and their styles: the typesetting of a book
    r"|^[\w.-]+\.(?:cls|sty|bst|bib|csl)$"
)
#: A note-taking app's own folder in a graph, by the file that marks it: Logseq's
#: ``logseq/config.edn`` beside ``custom.css`` and its state (``metadata.edn``).
_APP_FOLDERS = {"logseq": "config.edn"}
#: How far above a tool file a page linking to it is looked for (its folder, and two up).
_LINKED_FROM = 3


#: What a folder's own pages are written in; a package whose only such files are its
#: furniture (README, CHANGELOG, LICENSE) holds no page of the source's.
_PAGE_EXTS = tuple(MARKDOWN_EXTS | RST_EXTS | ASCIIDOC_EXTS | ORG_EXTS | TIDDLER_EXTS | {".ipynb"})
#: A package's own files, no pages of the source: its furniture and its history.
_PACKAGE_FILES = FURNITURE | {"changelog", "changes", "history", "news"}


def vendored_packages(files: list[str]) -> tuple[str, ...]:
    """The folders (with their ``/``) of JavaScript packages kept inside the source: a
    folder below its root holding a ``package.json`` and no page but its README,
    CHANGELOG or LICENSE (CS-Notes' ``docs/_style/prism-master/``: Prism's code, its
    1,143 ``.test`` fixtures and 182 example pages, built as 1,329 documents)."""
    packages = {f[: -len("package.json")] for f in files if f.endswith("/package.json")}
    if not packages:
        return ()
    with_pages = set()
    for f in files:
        name = f.rsplit("/", 1)[-1]
        if (
            not name.lower().endswith(_PAGE_EXTS)
            or name.rsplit(".", 1)[0].lower() in _PACKAGE_FILES
        ):
            continue
        folder = f
        while "/" in folder:
            folder = folder.rsplit("/", 1)[0]
            if folder + "/" in packages:
                with_pages.add(folder + "/")
    return tuple(sorted(packages - with_pages))


def without_machinery(
    documents: list[str],
    assets: list[str],
    notes: list[str],
    read: Callable[[str], str | None] = lambda _rel: None,
) -> tuple[list[str], list[str]]:
    """A build's files without the repository's build and tool files (:data:`MACHINERY`:
    a Sphinx site's ``Makefile`` and ``requirements.txt``, a site's ``package.json``),
    left out with one note; one a page near it links to (``[Dockerfile](cuda/Dockerfile)``,
    a page of its folder or of the two above, read by ``read``) is kept as an asset."""
    vendored = vendored_packages([*documents, *assets])
    if vendored:
        inside = [f for f in [*documents, *assets] if f.startswith(vendored)]
        more = f" and {len(vendored) - 1:,} more" if len(vendored) > 1 else ""
        notes.append(
            f"{vendored[0]}{more}: a JavaScript package kept in the source (its package.json, "
            f"{counted(len(inside), 'file')}: its code, tests and examples), no knowledge; "
            "left out"
        )
        gone_files = set(inside)
        documents = [d for d in documents if d not in gone_files]
        assets = [a for a in assets if a not in gone_files]
    apps = _app_folders([*documents, *assets])
    machinery = [
        f
        for f in [*documents, *assets]
        if (
            (name := f.rsplit("/", 1)[-1].lower()) in MACHINERY
            or _REQUIREMENTS.match(name)
            or _WORD_LIST.match(name)
            or _TOOL_CONFIG.match(name)
            or f.startswith(apps)
            or "_freeze" in f.split("/")[:-1]  # Quarto's store of its computations' results
        )
        and not _a_page(f, read)
    ]
    if not machinery:
        return documents, assets
    linked = _linked(machinery, documents, read)
    gone = [m for m in machinery if m not in linked]
    if gone:
        one = len(gone) == 1
        notes.append(
            f"{counted(len(gone), 'build and tool file')} ({gone[0]}{'' if one else ', ...'}) "
            f"configure{'s' if one else ''} the repository, no knowledge; left out"
        )
    left = set(gone)
    kept = [d for d in documents if d not in left and d not in linked]
    return kept, [a for a in assets if a not in left] + sorted(linked & set(documents))


def _a_page(path: str, read: Callable[[str], str | None]) -> bool:
    """Whether the file at ``path``, named as a tool's, says it is a page: a docfx
    structured YAML page (the Azure CLI reference's ``apic/environment.yml``, its
    ``az apic environment`` commands, is no conda environment), or Markdown whose
    frontmatter titles it (a handbook's ``zendesk/users/agents.md``, "Agents", is no
    coding agent's instructions)."""
    low = path.lower()
    if low.endswith((".yml", ".yaml")):
        return yamlmime_kind(read(path) or "") is not None
    if low.endswith(".md"):
        title = front_matter(read(path) or "").get("title")
        return isinstance(title, str) and bool(title.strip())
    return False


def _linked(
    machinery: list[str], documents: list[str], read: Callable[[str], str | None]
) -> set[str]:
    """The tool files of ``machinery`` a Markdown page near each links to or includes."""
    pages: dict[str, list[str]] = {}
    for page in documents:
        if page.lower().endswith((".md", ".mdx", ".markdown", ".rst")):
            pages.setdefault(posixpath.dirname(page), []).append(page)
    found: set[str] = set()
    texts: dict[str, str] = {}
    for tool in machinery:
        folder = posixpath.dirname(tool)
        for _ in range(_LINKED_FROM):
            for page in pages.get(folder, ()):
                if page not in texts:
                    texts[page] = read(page) or ""
                rel = posixpath.relpath(tool, posixpath.dirname(page) or ".")
                if any(f"{o}{rel}{c}" in texts[page] for o, c in _LINK_FORMS):
                    found.add(tool)
            if tool in found or not folder:
                break
            folder = posixpath.dirname(folder)
    return found


#: How a link or an include writes a path: ``(cuda/Dockerfile)``, ``"./cuda/Dockerfile"``.
_LINK_FORMS = [
    (o + dot, c)
    for o, c in (("(", ")"), ('"', '"'), ("'", "'"), ("<", ">"), ("(", " "), ("(", "#"))
    for dot in ("", "./")
]


def _app_folders(files: list[str]) -> tuple[str, ...]:
    """The folders (with their ``/``) a note-taking app keeps its settings and state in
    (:data:`_APP_FOLDERS`): logseq/docs' ``logseq/config.edn`` was a page "{:text-formats
    [], :all-pages-public? true ...", its ``metadata.edn`` another."""
    have = set(files)
    return tuple(
        sorted(
            {
                f"{folder}/"
                for f in files
                if (folder := f.rsplit("/", 1)[0] if "/" in f else "")
                and folder.rsplit("/", 1)[-1] in _APP_FOLDERS
                and f"{folder}/{_APP_FOLDERS[folder.rsplit('/', 1)[-1]]}" in have
            }
        )
    )
