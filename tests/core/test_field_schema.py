"""One field schema: the loader, the document rules, the form and bulk edit ask it.

Changing the schema (here: ``title`` made required, ``status`` given a fourth value) is
seen by all four at once, with no change to any of them.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kas_tui.core import field_schema
from kas_tui.core import form_fields as F
from kas_tui.core.document_rules import document_findings
from kas_tui.core.loader import read_document
from kas_tui.features.bulk_edit import BulkError, RemoveField, SetField, parse_value


def _findings(meta: dict) -> list:
    return document_findings(meta, None, lambda: {})


def _write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "doc.md").write_text(text, "utf-8")
    return tmp_path


def test_as_shipped_type_is_the_one_required_field(tmp_path: Path) -> None:
    assert field_schema.required_keys() == ("type",)
    read = read_document(_write(tmp_path, "---\ntitle: Typeless\n---\nBody.\n"), "doc.md")
    assert [p.message for p in read.problems] == [
        "missing 'type': every concept needs a non-empty type"
    ]
    assert F.check_meta({"title": "x"}) == {"type": field_schema.required_error("type")}
    with pytest.raises(BulkError, match="type cannot be removed: type is required by OKF"):
        RemoveField("type").check()
    RemoveField("title").check()  # an optional field goes
    assert field_schema.allowed_values("status") == ("draft", "stable", "deprecated")


@pytest.fixture
def house_schema(monkeypatch):
    """``title`` required, ``status`` also ``archived``: a schema the readers never saw."""
    fields = dict(field_schema.FIELDS)
    fields["title"] = dataclasses.replace(fields["title"], required=True, required_by="the house")
    status = fields["status"]
    fields["status"] = dataclasses.replace(status, values=(*status.values, "archived"))
    monkeypatch.setattr(field_schema, "FIELDS", fields)


@pytest.mark.usefixtures("house_schema")
def test_the_loader_follows_the_schema(tmp_path: Path) -> None:
    read = read_document(_write(tmp_path, "---\ntype: Runbook\n---\nBody.\n"), "doc.md")
    assert [(p.code, p.message) for p in read.problems] == [
        ("required", "missing 'title': every concept needs a non-empty title")
    ]


@pytest.mark.usefixtures("house_schema")
def test_the_rules_follow_the_schema() -> None:
    assert [f for f in _findings({"type": "X", "status": "archived"}) if f[0] == "OKF105"] == []
    [finding] = [f for f in _findings({"type": "X", "status": "retired"}) if f[0] == "OKF105"]
    assert "draft, stable, deprecated, archived" in str(finding)


@pytest.mark.usefixtures("house_schema")
def test_the_form_follows_the_schema() -> None:
    assert F.check_meta({"type": "Runbook"}) == {"title": "title is required by the house"}
    assert F.parse_field("title", "  ") == (None, "title is required by the house")
    assert F.parse_field("resource", "") == (F.REMOVE, None)  # still optional
    assert F.parse_status("archived") == ("archived", None)
    assert "archived" in (F.parse_status("retired")[1] or "")


@pytest.mark.usefixtures("house_schema")
def test_bulk_edit_follows_the_schema() -> None:
    with pytest.raises(BulkError, match="title cannot be removed: title is required by the house"):
        RemoveField("title").check()
    with pytest.raises(BulkError, match="title cannot be empty"):
        parse_value("title", " ")
    SetField("status", "archived").check()
    assert parse_value("status", "archived") == "archived"
    with pytest.raises(BulkError, match="archived"):
        parse_value("status", "retired")
