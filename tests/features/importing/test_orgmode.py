"""Org-mode files, as an org-roam knowledge base keeps them (jethrokuan/braindump):
read as Org's export shows them. Read as text before, 26 of its notes were titled
"PROPERTIES: :ID: 5d4c... :END: #+title: Variational Autoencoders" and their drawers'
words made bundles ``end/`` and ``properties/``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.orgmode import read_org
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.timezone.utc)

VAE = """:PROPERTIES:
:ID:       5d4c6a77-df50-4c77-bc0c-ff8dcebe08b3
:END:
#+title: Variational Autoencoders
#+filetags: :ml:generative:
#+roam_aliases: VAE "Variational autoencoder"

An *autoencoder* learns a /latent/ space; see =encoder= and ~decoder~.
# a comment nobody reads

* Links
:PROPERTIES:
:CUSTOM_ID: links
:END:
- [[https://github.com/matthewvowels1/Awesome-VAEs][Awesome VAEs]]
- [[id:aa022a52-540a-4a38-8313-48aa3ef2f9e6][Ear training]], [[file:notes/gan.org][GANs]]
** Loss
#+begin_src python
loss = recon + kl  # *not* bold
#+end_src
#+begin_quote
It is a lower bound.
#+end_quote
| term | meaning |
|------+---------|
| kl   | prior   |
"""


def test_an_org_file_reads_as_its_export_shows_it() -> None:
    front, body = read_org(VAE)
    assert front == {
        "id": "5d4c6a77-df50-4c77-bc0c-ff8dcebe08b3",
        "title": "Variational Autoencoders",
        "tags": ["ml", "generative"],
        "aliases": ["5d4c6a77-df50-4c77-bc0c-ff8dcebe08b3", "VAE", "Variational autoencoder"],
    }
    assert body == (
        "An **autoencoder** learns a *latent* space; see `encoder` and `decoder`.\n"
        "\n"
        "## Links\n"
        "- [Awesome VAEs](https://github.com/matthewvowels1/Awesome-VAEs)\n"
        "- [[aa022a52-540a-4a38-8313-48aa3ef2f9e6|Ear training]], [GANs](notes/gan.org)\n"
        "### Loss\n"
        "```python\n"
        "loss = recon + kl  # *not* bold\n"
        "```\n"
        "> It is a lower bound.\n"
        "\n"
        "| term | meaning |\n"
        "|------|---------|\n"
        "| kl   | prior   |\n"
    )


def test_an_org_roam_folder_builds_with_its_links(tmp_path: Path) -> None:
    files = {
        "vae.org": VAE,
        "ear_training.org": ":PROPERTIES:\n:ID:       aa022a52-540a-4a38-8313-48aa3ef2f9e6\n"
        ":END:\n#+title: Ear Training\n\nTrain the ear to name intervals, chords and "
        "rhythms. Back to [[id:5d4c6a77-df50-4c77-bc0c-ff8dcebe08b3][VAEs]].\n",
        "notes/gan.org": "#+title: Generative Adversarial Networks\n\nTwo networks compete.\n",
    }
    result = build(write_sources(tmp_path / "roam", files), tmp_path / "kb", now=NOW, workers=1)
    assert not result.failed, result.failed
    pkg = Package(tmp_path / "kb")
    pkg.load()
    titles = {d.title for d in pkg.documents.values()}
    assert titles == {"Variational Autoencoders", "Ear Training", "Generative Adversarial Networks"}
    vae = next(d for d in pkg.documents.values() if d.title == "Variational Autoencoders")
    body = (tmp_path / "kb" / vae.path).read_text(encoding="utf-8")
    assert "[Ear training](ear-training.md)" in body and "[[" not in body, body
    assert "[GANs](notes/gan.md)" in body or "gan.md)" in body, body
    assert not any("wikilink" in n for n in result.notes), result.notes
