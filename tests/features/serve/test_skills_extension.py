"""The MCP Skills extension (``io.modelcontextprotocol/skills``) in ``kas-tui serve``: the
package as one skill, every file a ``skill://`` resource read byte for byte through the
tools' sandbox, folders listed, refusals the extension's ``-32602`` (issue 31, item 5)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import threading
from pathlib import Path

import anyio
import pytest
import yaml
from mcp import Client
from mcp.shared.exceptions import MCPError

from kas_tui.core.package import Package
from kas_tui.features.agent.replay import replay_file
from kas_tui.features.install import install
from kas_tui.features.serve.client_session import MAX_RESPONSE, ServedPackage
from kas_tui.features.serve.server import build_server
from kas_tui.features.serve.skill_resources import skill_uri
from tests.helpers.skill_serving import ENV, http_server, request, serve_command, stdio_server
from tests.helpers.special_files import PipeWatch
from tests.helpers.unprivileged import needs_unprivileged, run_unprivileged

NAME = "orbit-handbook"
EXTENSION = "io.modelcontextprotocol/skills"
INVALID_PARAMS = -32602
#: A PNG's first bytes: binary (NUL bytes), served as a base64 blob.
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01" + bytes(range(256))


def _plant(root: Path) -> None:
    """Files of every kind a crawl must return exactly, and hidden ones it must not."""
    (root / "references" / "diagram.png").write_bytes(PNG)
    (root / "references" / "windows notes.md").write_bytes(
        b"\xef\xbb\xbf---\r\ntype: Note\r\n---\r\n# Caf\xc3\xa9\r\n"  # BOM, CRLF, UTF-8
    )
    (root / "references" / "latin1.txt").write_bytes(b"caf\xe9\n")  # not UTF-8: a blob
    (root / "references" / "empty").mkdir()
    (root / ".hidden.md").write_text("---\ntype: Note\n---\nhidden\n")
    (root / ".kas-build.json").write_text("{}\n")


def _disk_files(root: Path) -> dict[str, bytes]:
    """Every file of the package as ``install`` copies it: hidden names and the root's
    ``evals/`` (the package's own questions and answers) left out."""
    found = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        if Path(folder) == root:
            dirs[:] = [d for d in dirs if d != "evals"]
        for name in files:
            if not name.startswith("."):
                path = Path(folder, name)
                found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def _bytes_of(content) -> bytes:
    if getattr(content, "text", None) is not None:
        return content.text.encode("utf-8")
    return base64.b64decode(content.blob)


async def _crawl(client: Client) -> tuple[dict, dict[str, bytes]]:
    """skills/list, then every listed resource read and checked against its digest."""
    listed = await request(client, "skills/list")
    assert listed["resultType"] == "complete"
    assert listed["ttlMs"] == 0 and listed["cacheScope"] == "private"
    (skill,) = listed["skills"]
    read = {}
    for resource in skill["resources"]:
        result = await client.read_resource(resource["uri"])
        (content,) = result.contents
        assert content.uri == resource["uri"]
        data = _bytes_of(content)
        assert len(data) == resource["size"]
        assert resource["digest"] == "sha256:" + hashlib.sha256(data).hexdigest()
        read[resource["uri"]] = data
    return skill, read


def _check_crawl(root: Path, skill: dict, read: dict[str, bytes]) -> None:
    expected = {skill_uri(NAME, path): data for path, data in _disk_files(root).items()}
    assert read == expected  # every file, byte for byte, and nothing else
    assert skill["uri"] == f"skill://{NAME}/SKILL.md"
    text = (root / "SKILL.md").read_text()
    assert skill["frontmatter"] == yaml.safe_load(text.split("---\n")[1])
    assert f"skill://{NAME}/references/windows%20notes.md" in read


def _check_capabilities(client: Client) -> None:
    capabilities = client.server_capabilities
    assert capabilities.extensions == {EXTENSION: {"directoryRead": True}}
    assert capabilities.resources is not None


def _log_lines(folder: Path) -> list[dict]:
    (log,) = folder.glob("*.jsonl")
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_over_stdio_the_sdk_client_crawls_the_skill_byte_for_byte(
    root: Path, tmp_path: Path
) -> None:
    _plant(root)
    logs = tmp_path / "logs"

    async def main() -> tuple[dict, dict[str, bytes], dict]:
        async with Client(stdio_server(root, logs)) as client:
            assert client.protocol_version == "2026-07-28"  # the declaration of server/discover
            _check_capabilities(client)
            skill, read = await _crawl(client)
            got = await request(client, "skills/get", uri=skill["uri"])
            assert got["skill"] == skill
            top = await request(client, "resources/directory/read", uri=f"skill://{NAME}")
            return skill, read, top

    skill, read, top = anyio.run(main)
    _check_crawl(root, skill, read)
    children = {c["name"]: c for c in top["resources"]}
    on_disk = sorted(p.name for p in root.iterdir() if not p.name.startswith("."))
    assert sorted(children) == [name for name in on_disk if name != "evals"]  # kept back
    assert children["incidents"] == {
        "uri": f"skill://{NAME}/incidents",
        "name": "incidents",
        "mimeType": "inode/directory",
    }
    assert children["SKILL.md"]["mimeType"] == "text/markdown"
    lines = _log_lines(logs)[1:]  # each read logged as a call, as the tools' calls are
    assert len(lines) == len(skill["resources"]) + 1  # skills/list and skills/get are not
    reads = [r for r in lines if r["tool"] == "readfile"]
    assert [r["args"]["uri"] for r in reads] == [r["uri"] for r in skill["resources"]]
    assert all(r["ok"] for r in reads)
    assert lines[-1]["tool"] == "listdir" and lines[-1]["args"]["path"] == ""
    (log,) = logs.glob("*.jsonl")
    replayed = replay_file(Package.open(root), log)  # what R shows of the session
    assert [s.path for s in replayed.steps] == [r["path"] for r in lines]


def test_over_streamable_http_the_crawl_is_the_same(root: Path, tmp_path: Path) -> None:
    _plant(root)

    async def main() -> tuple[dict, dict[str, bytes]]:
        async with Client(url) as client:
            _check_capabilities(client)
            return await _crawl(client)

    with http_server(root, tmp_path / "logs") as url:
        skill, read = anyio.run(main)
    _check_crawl(root, skill, read)


def _rpc(number: int, method: str, **params) -> dict:
    return {"jsonrpc": "2.0", "id": number, "method": method, "params": params}


def test_raw_json_rpc_lines_over_stdio(root: Path, tmp_path: Path) -> None:
    """A client of today (the 2025-11-25 handshake) sees the declaration and gets the
    spec's results and errors, line by line."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-BYTES\n")
    (root / "incidents" / "escape.md").symlink_to(secret)
    (root / ".hidden.md").write_text("hidden\n")
    skill_md = f"skill://{NAME}/SKILL.md"
    init = _rpc(
        1,
        "initialize",
        protocolVersion="2025-11-25",
        capabilities={"extensions": {EXTENSION: {}}},
        clientInfo={"name": "raw-lines", "version": "1"},
    )
    calls = [
        _rpc(2, "skills/list"),
        _rpc(3, "skills/get", uri=skill_md),
        _rpc(4, "resources/read", uri=skill_md),
        _rpc(5, "resources/directory/read", uri=f"skill://{NAME}/incidents"),
        _rpc(6, "skills/get", uri="skill://acme/billing/chargebacks/SKILL.md"),
        _rpc(7, "resources/directory/read", uri=skill_md),
        _rpc(8, "resources/read", uri=f"skill://{NAME}/incidents/../../secret.txt"),
        _rpc(9, "resources/read", uri=f"skill://{NAME}/incidents/escape.md"),
        _rpc(10, "resources/read", uri=f"skill://{NAME}/.hidden.md"),
        _rpc(11, "resources/directory/read", uri=f"skill://{NAME}/no-such-folder"),
        _rpc(12, "resources/read", uri=f"skill://{NAME}/incidents"),
    ]
    lines = [init, {"jsonrpc": "2.0", "method": "notifications/initialized"}, *calls]
    process = subprocess.Popen(
        serve_command(root, tmp_path / "logs"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        text=True,
    )
    killer = threading.Timer(60, process.kill)  # a server that stops answering fails the test
    killer.start()
    answers: dict = {}
    try:
        process.stdin.write("".join(json.dumps(line) + "\n" for line in lines))
        process.stdin.flush()
        while len(answers) < 1 + len(calls):  # stdin stays open until all are answered
            line = process.stdout.readline()
            assert line, "the server went away: " + process.stderr.read()[-2000:]
            answer = json.loads(line)
            answers[answer["id"]] = answer
        process.stdin.close()
        err = process.stderr.read()
        process.wait(timeout=30)
    finally:
        killer.cancel()
        process.kill()
    capabilities = answers[1]["result"]["capabilities"]
    assert capabilities["extensions"] == {EXTENSION: {"directoryRead": True}}
    assert "resources" in capabilities
    (entry,) = answers[2]["result"]["skills"]
    assert answers[2]["result"]["resultType"] == "complete"
    assert answers[3]["result"]["skill"] == entry and entry["uri"] == skill_md
    assert {r["uri"] for r in entry["resources"]} >= {skill_md, f"skill://{NAME}/index.md"}
    assert not any("escape" in r["uri"] or "hidden" in r["uri"] for r in entry["resources"])
    (content,) = answers[4]["result"]["contents"]
    assert content == {
        "uri": skill_md,
        "mimeType": "text/markdown",
        "text": (root / "SKILL.md").read_text(),
    }
    children = answers[5]["result"]["resources"]
    assert {"uri": f"skill://{NAME}/incidents/postmortems", "name": "postmortems",
            "mimeType": "inode/directory"} in children  # fmt: skip
    assert all("escape" not in c["uri"] for c in children)
    errors = {n: answers[n]["error"] for n in range(6, 13)}
    assert {e["code"] for e in errors.values()} == {INVALID_PARAMS}
    assert errors[6]["message"] == (
        "No skill is served at skill://acme/billing/chargebacks/SKILL.md"
    )
    assert errors[7]["message"] == f"{skill_md} is not a directory resource"
    assert "outside the skill" in errors[8]["message"]
    assert "outside the skill" in errors[9]["message"]
    assert "no such file" in errors[10]["message"]
    assert "directory resource" in errors[12]["message"]
    assert "TOP-SECRET" not in json.dumps(answers) and "Traceback" not in err


def _served(root: Path, logs: Path):
    return build_server(ServedPackage(Package.open(root)), log_dir=logs)


def test_refusals_are_the_sandbox_refusals_and_are_logged(root: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-BYTES\n")
    (root / "incidents" / "escape.md").symlink_to(secret)
    (root / "hop").symlink_to(tmp_path)
    (root / ".hidden.md").write_text("hidden\n")
    watch = PipeWatch()
    watch.mkfifo(root / "references" / "pipe.md")
    logs = tmp_path / "logs"
    server, sessions = _served(root, logs)
    base = f"skill://{NAME}/"
    refused = {
        base + "../secret.txt": "outside",
        base + "%2e%2e/secret.txt": "outside",
        base + "incidents/%2E%2E/%2E%2E/secret.txt": "outside",
        base + "..%5Csecret.txt": "outside",
        base + "incidents/escape.md": "outside",
        base + "hop/secret.txt": "outside",
        base + "%2Fetc%2Fpasswd": "outside",
        base + "~/secret.txt": "outside",
        base + "index.md%00.txt": "outside",
        base + "nope.md": "missing",
        base + ".hidden.md": "missing",
        base + "references/pipe.md": "missing",
        base + "x" * 5000: "outside",
    }

    async def main() -> dict[str, MCPError]:
        errors = {}
        async with Client(server) as client:
            for uri in refused:
                with pytest.raises(MCPError) as caught:
                    await client.read_resource(uri)
                errors[uri] = caught.value
            for uri in (base + "hop", base + "../", base + ".git"):
                with pytest.raises(MCPError) as caught:
                    await request(client, "resources/directory/read", uri=uri)
                errors[uri] = caught.value
            ok = await client.read_resource(base + "index.md")  # still serving
            assert ok.contents[0].text == (root / "index.md").read_text()
        return errors

    try:
        errors = anyio.run(main)
    finally:
        watch.close()
        sessions.close()
    assert {e.error.code for e in errors.values()} == {INVALID_PARAMS}
    for error in errors.values():
        assert "TOP-SECRET" not in error.error.message and len(error.error.message) < 1_000
        assert str(tmp_path) not in error.error.message  # package paths only, no folder
    assert watch.opened == []
    statuses = [(r["args"]["uri"], r["status"]) for r in _log_lines(logs)[1:]]
    # a logged argument is cut at 2,048 characters (the 5,000-character one among them)
    expected = [(uri[:2048], status) for uri, status in refused.items()]
    assert [(uri[:2048], status) for uri, status in statuses[: len(refused)]] == expected
    assert statuses[-1] == (base + "index.md", "ok")
    assert secret.read_text() == "TOP-SECRET-BYTES\n"


def test_the_skill_holds_what_install_copies(root: Path, tmp_path: Path) -> None:
    """The entry lists the files ``install`` copies, by the same rule: hidden files and the
    build manifest left out, symlinks leaving, dangling or looping left out, a pipe never
    opened, a symlink inside shown as its target."""
    _plant(root)
    (root / "references" / "same-slos.csv").symlink_to(root / "references" / "slo-targets.csv")
    (root / "references" / "dangling.md").symlink_to(root / "nowhere.md")
    (root / "references" / "loop").symlink_to(root / "references")
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-BYTES\n")
    (root / "references" / "escape.md").symlink_to(secret)
    watch = PipeWatch()
    watch.mkfifo(root / "references" / "pipe.md")
    try:
        placed = install(Package.open(root), tmp_path / "skills")
        server, sessions = _served(root, tmp_path / "logs")

        async def main() -> dict:
            async with Client(server) as client:
                return await _crawl(client)

        skill, read = anyio.run(main)
        sessions.close()
    finally:
        watch.close()
    copied = {
        skill_uri(NAME, path): data
        for path, data in _disk_files(placed.target).items()  # the marker is hidden
    }
    assert read == copied
    assert (
        read[skill_uri(NAME, "references/same-slos.csv")]
        == (root / "references" / "slo-targets.csv").read_bytes()
    )
    assert not any(("escape" in uri or "dangling" in uri or "/loop/" in uri) for uri in read)
    assert watch.opened == []


def test_a_long_text_is_cut_as_the_tools_cut_it_and_the_entry_says_so(
    root: Path, tmp_path: Path
) -> None:
    (root / "references" / "huge.txt").write_text("y" * (MAX_RESPONSE + 5000))
    server, sessions = _served(root, tmp_path / "logs")
    uri = skill_uri(NAME, "references/huge.txt")

    async def main() -> tuple[dict, str, str]:
        async with Client(server) as client:
            skill, read = await _crawl(client)  # checks the digest against what is served
            tool = await client.call_tool("readfile", {"path": "references/huge.txt"})
            return skill, read[uri].decode(), tool.content[0].text

    skill, text, tool_text = anyio.run(main)
    sessions.close()
    assert text == tool_text  # the tools' cut, note included
    assert text.endswith(
        f"[cut: {MAX_RESPONSE + 5000:,} characters, only the first 200,000 are returned]"
    )
    (entry,) = [r for r in skill["resources"] if r["uri"] == uri]
    assert entry["size"] == len(text.encode())


def test_skills_get_and_directory_reads(root: Path, tmp_path: Path) -> None:
    (root / "references" / "empty").mkdir()
    text = (root / "SKILL.md").read_text()
    (root / "SKILL.md").write_text(text.replace("license:", "released: 2026-11-28\nlicense:", 1))
    server, sessions = _served(root, tmp_path / "logs")
    base = f"skill://{NAME}"

    async def main() -> None:
        async with Client(server) as client:
            (listed,) = (await request(client, "skills/list"))["skills"]
            assert listed["frontmatter"]["released"] == "2026-11-28"  # as written, not a date
            got = await request(client, "skills/get", uri=base + "/SKILL.md")
            assert got["skill"] == listed and got["resultType"] == "complete"
            assert got["ttlMs"] == 0 and got["cacheScope"] == "private"
            with pytest.raises(MCPError) as caught:
                await request(client, "skills/list", cursor="next")
            assert caught.value.error.code == INVALID_PARAMS
            for wrong in (base, base + "/index.md", "skill://other/SKILL.md", "file:///SKILL.md"):
                with pytest.raises(MCPError) as caught:
                    await request(client, "skills/get", uri=wrong)
                assert caught.value.error.code == INVALID_PARAMS
            empty = await request(
                client, "resources/directory/read", uri=base + "/references/empty"
            )
            assert empty["resources"] == []
            folder = await request(client, "resources/directory/read", uri=base + "/releases")
            names = [c["name"] for c in folder["resources"]]
            assert names == sorted(p.name for p in (root / "releases").iterdir())
            with pytest.raises(MCPError) as caught:
                await request(client, "resources/directory/read", uri=base, cursor="2")
            assert caught.value.error.code == INVALID_PARAMS
            resources = await client.list_resources()
            assert [(r.uri, r.mime_type) for r in resources.resources] == [
                (base + "/SKILL.md", "text/markdown")
            ]
            templates = await client.list_resource_templates()
            assert [t.uri_template for t in templates.resource_templates] == [base + "/{+path}"]

    anyio.run(main)
    sessions.close()


def test_a_skill_md_without_description_is_no_skill_but_its_files_stay_readable(
    root: Path, tmp_path: Path
) -> None:
    text = (root / "SKILL.md").read_text()
    start = text.index("description:")
    end = text.index("\n", start)
    (root / "SKILL.md").write_text(text[:start] + text[end + 1 :])
    server, sessions = _served(root, tmp_path / "logs")

    async def main() -> None:
        async with Client(server) as client:
            assert (await request(client, "skills/list"))["skills"] == []
            with pytest.raises(MCPError) as caught:
                await request(client, "skills/get", uri=f"skill://{NAME}/SKILL.md")
            assert caught.value.error.code == INVALID_PARAMS
            assert caught.value.error.message.endswith("SKILL.md has no description")
            read = await client.read_resource(f"skill://{NAME}/index.md")
            assert read.contents[0].text == (root / "index.md").read_text()

    anyio.run(main)
    sessions.close()


_UNREADABLE = """
import json, sys
from pathlib import Path
import anyio
from mcp import Client
from mcp.shared.exceptions import MCPError
from kas_tui.core.package import Package
from kas_tui.features.agent.replay import replay_file
from kas_tui.features.serve.client_session import ServedPackage
from kas_tui.features.serve.server import build_server
from tests.helpers.skill_serving import request

server, sessions = build_server(ServedPackage(Package.open(Path(sys.argv[1]))), log_dir=Path(sys.argv[2]))

async def main():
    async with Client(server) as client:
        (skill,) = (await request(client, "skills/list"))["skills"]
        try:
            await client.read_resource(sys.argv[3])
            error = None
        except MCPError as exc:
            error = {"code": exc.error.code, "message": exc.error.message}
        print(json.dumps({"uris": [r["uri"] for r in skill["resources"]], "error": error}))

anyio.run(main)
sessions.close()
"""


@needs_unprivileged
def test_a_file_that_cannot_be_read_is_left_out_and_its_read_is_an_internal_error(
    root: Path, tmp_path: Path
) -> None:
    locked = root / "references" / "refund-matrix.txt"
    locked.chmod(0)
    uri = skill_uri(NAME, "references/refund-matrix.txt")
    done = run_unprivileged("-c", _UNREADABLE, root, tmp_path / "logs", uri)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout)
    assert uri not in answer["uris"] and skill_uri(NAME, "index.md") in answer["uris"]
    assert answer["error"] == {"code": -32603, "message": f"cannot read {uri}: permission denied"}


def test_a_name_changed_while_serving_is_no_skill_until_restarted(
    root: Path, tmp_path: Path
) -> None:
    server, sessions = _served(root, tmp_path / "logs")
    text = (root / "SKILL.md").read_text()
    (root / "SKILL.md").write_text(text.replace(f"name: {NAME}", "name: renamed", 1))

    async def main() -> None:
        async with Client(server) as client:
            assert (await request(client, "skills/list"))["skills"] == []
            with pytest.raises(MCPError) as caught:
                await request(client, "skills/get", uri=f"skill://{NAME}/SKILL.md")
            assert "restart kas-tui serve" in caught.value.error.message

    anyio.run(main)
    sessions.close()
