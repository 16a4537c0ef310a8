"""The rule catalog: every check kas-tui runs, with its stable code.

Codes are never reused or renumbered. ``OKF`` codes are OKF v0.2 conformance (errors
only for what OKF §11 rejects); ``KAS`` codes are the Knowledge-as-Skill agent-ready
checks, run with ``--agent-ready``; ``PRF`` codes are the package's own rules
(``.kas-tui.yaml``), run in either profile when it declares some. ``docs/rules.md`` is generated from this list.
"""

from __future__ import annotations

from kas_tui.features.check.computations import COMPUTATION_RULES
from kas_tui.features.check.findings import Rule
from kas_tui.features.check.house_rules import HOUSE_RULES
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET, MAX_BUNDLE_ENTRIES

OKF, KAS = "okf", "agent-ready"


def split_hint(entries: int = MAX_BUNDLE_ENTRIES) -> str:
    """KAS046's fix hint, for sub-bundles of at most about ``entries`` entries each."""
    return (
        f"Split the bundle into topical sub-bundles of at most about {entries} entries each "
        "(each with its own index.md and a sentence telling it apart from its siblings), "
        "shorten descriptions to one sentence, or move raw tables out of the index."
    )


RULES: tuple[Rule, ...] = (
    # --- OKF conformance: errors (OKF §11) -------------------------------------------------
    Rule(
        "OKF001",
        "error",
        OKF,
        "Document has no readable YAML frontmatter",
        "Every non-reserved .md file is a concept and must start with a YAML frontmatter "
        "block: a line '---', a YAML mapping, and a closing line '---'. Missing, unterminated "
        "or invalid YAML, a block that is not a mapping, and an empty file all break this.",
        "Start the file with '---', 'type: <Type>', '---'; fix the YAML at the reported line.",
    ),
    Rule(
        "OKF002",
        "error",
        OKF,
        "File is not UTF-8 text",
        "OKF documents are UTF-8 Markdown. A binary file or one in another encoding cannot be "
        "read by agents or tools.",
        "Re-save the file as UTF-8, or move a binary file out of the package (or rename it "
        "so it does not end in .md).",
    ),
    Rule(
        "OKF003",
        "error",
        OKF,
        "File cannot be read",
        "The file exists but could not be opened (permissions, a broken symlink, a symlink "
        "loop). A consumer cannot read it either.",
        "Fix the file's permissions or replace the symlink with the file itself.",
    ),
    Rule(
        "OKF004",
        "error",
        OKF,
        "Concept has no type",
        "'type' is the only always-required frontmatter key (OKF §4.1); consumers route, "
        "filter and present concepts by it. It must be a non-empty string.",
        "Add a line such as 'type: Runbook' or 'type: Reference' to the frontmatter.",
    ),
    Rule(
        "OKF005",
        "error",
        OKF,
        "index.md breaks the index format",
        "index.md files carry no frontmatter, except the root index.md, which may carry only "
        "'okf_version' (OKF §8, §12).",
        'Remove the frontmatter block, or keep only okf_version: "0.2" in the root index.',
    ),
    Rule(
        "OKF006",
        "error",
        OKF,
        "log.md date heading is not an ISO date",
        "log.md groups entries under '## YYYY-MM-DD' headings (OKF §9).",
        "Write the heading as '## 2026-11-30' (a ': summary' suffix is tolerated).",
    ),
    Rule(
        "OKF007",
        "error",
        OKF,
        "log.md is not newest first",
        "log.md date groups run from the newest to the oldest (OKF §9).",
        "Move the date group above the older ones.",
    ),
    Rule(
        "OKF008",
        "error",
        OKF,
        "log.md date group has no entries",
        "Each date group in log.md holds at least one bullet (OKF §9).",
        "Add a bullet such as '* **Update**: ...' under the heading, or remove the heading.",
    ),
    # --- OKF conformance: shape warnings ---------------------------------------------------
    Rule(
        "OKF101",
        "warning",
        OKF,
        "tags is not a list of strings",
        "'tags' is a YAML list of short strings. A plain string is a common mistake: "
        "consumers iterate it character by character or ignore it.",
        "Write tags as a list: 'tags: [billing, refunds]'.",
    ),
    Rule(
        "OKF102",
        "warning",
        OKF,
        "sources is malformed",
        "'sources' is a list of mappings; each needs 'resource' and may have 'id', 'title', "
        "'author', 'usage_count' (an integer) and 'last_modified' (a timestamp) (OKF §5.1).",
        "Make each source a mapping with at least 'resource: <URL or path>'.",
    ),
    Rule(
        "OKF103",
        "warning",
        OKF,
        "generated is malformed",
        "'generated' is a mapping '{by, at}' whose 'by' is required: the actor that produced "
        "the content (OKF §5.2).",
        "Write 'generated: {by: human:<id>, at: 2026-11-30T10:00:00Z}'.",
    ),
    Rule(
        "OKF104",
        "warning",
        OKF,
        "verified is malformed",
        "'verified' is a list of '{by, at}' mappings (a bare mapping counts as one); each "
        "needs 'by' (an actor) and 'at' (a timestamp) (OKF §5.2).",
        "Write each verification as '- {by: human:<id>, at: 2026-11-30T10:00:00Z}'.",
    ),
    Rule(
        "OKF105",
        "warning",
        OKF,
        "status is not draft, stable or deprecated",
        "'status' takes one of three values; absent means stable (OKF §5.4).",
        "Use 'status: draft', 'status: stable' or 'status: deprecated'.",
    ),
    Rule(
        "OKF106",
        "warning",
        OKF,
        "Timestamp has no UTC offset",
        "OKF timestamps are ISO 8601 datetimes with an explicit offset (OKF §5); a datetime "
        "without one, or a date alone, means different instants in different time zones. "
        "Such a value is still read, never rejected (§11): a time without offset as UTC, a "
        "date as the start of that day in UTC.",
        "Add the time and 'Z' or an offset: '2026-06-30T14:00:00Z' (a date alone: "
        "'2026-06-30T00:00:00Z').",
    ),
    Rule(
        "OKF107",
        "warning",
        OKF,
        "Date cannot be parsed",
        "Timestamp fields (stale_after, generated.at, verified[].at, sources[].last_modified, "
        "usage_window) hold ISO 8601 datetimes with an offset (OKF §5).",
        "Write the timestamp as '2026-06-30T14:00:00Z'.",
    ),
    Rule(
        "OKF108",
        "warning",
        OKF,
        "usage_window is malformed",
        "'usage_window' is a mapping '{from, to}' of timestamps framing every usage_count "
        "(OKF §5.1).",
        "Write 'usage_window: {from: 2026-06-01T00:00:00Z, to: 2026-06-30T00:00:00Z}'.",
    ),
    Rule(
        "OKF109",
        "warning",
        OKF,
        "Footnote has no matching source",
        "A footnote '[^id]' attributes a claim to the source whose 'id' is 'id' (OKF §5.1). "
        "Without a matching sources entry the attribution leads nowhere.",
        "Add a sources entry with 'id: <label>', or correct the footnote label.",
    ),
    Rule(
        "OKF110",
        "warning",
        OKF,
        "Legacy OKF v0.1 field",
        "OKF v0.1's 'timestamp' is superseded by 'generated.at', and a body '# Citations' "
        "list by 'sources' (OKF §13). Both still work, but consumers may ignore them.",
        "Move 'timestamp' into 'generated: {by, at}' and citations into 'sources'.",
    ),
    Rule(
        "OKF111",
        "info",
        OKF,
        "Actor does not follow the actor convention",
        "Actors are 'human:<id>', 'process:<id>' or '<producer>/<version>' (OKF §7). Trust "
        "tiers key off the 'human:' prefix.",
        "Write the actor as 'human:<id>', 'process:<id>' or 'tool/1.2.3'.",
    ),
    Rule(
        "OKF112",
        "warning",
        OKF,
        "Frontmatter repeats a key",
        "A key written twice in one mapping ('type: Reference', later 'type: Policy') is "
        "not valid YAML, yet YAML readers accept it and silently keep the later value: the "
        "earlier one is lost to every consumer, and which one wins depends on the reader.",
        "Keep one line for the key: merge the two values or delete the one you do not mean.",
    ),
    Rule(
        "OKF120",
        "warning",
        OKF,
        "Link target does not exist",
        "A link whose target is not in the package is allowed by OKF (it may be knowledge "
        "not written yet) but is a dead end for an agent following it.",
        "Fix the path (prefer '/'-rooted links), write the missing document, or unlink it.",
    ),
    Rule(
        "OKF121",
        "warning",
        OKF,
        "Link leaves the package",
        "A link to '../..' beyond the root, an absolute file path or a file: URL points "
        "outside the package. It is never followed or read.",
        "Link to a document inside the package, or to an https:// URL.",
    ),
    Rule(
        "OKF122",
        "warning",
        OKF,
        "Document is very large",
        "A document of several megabytes cannot be read by an agent in one call and drowns "
        "its context.",
        "Split it into smaller documents, each with its own frontmatter.",
    ),
    Rule(
        "OKF123",
        "warning",
        OKF,
        "Symlink is not followed",
        "A symlink that loops, dangles or points outside the package is not followed.",
        "Replace the symlink with the file or folder it should stand for.",
    ),
    Rule(
        "OKF124",
        "warning",
        OKF,
        "Not a regular file",
        "A named pipe (FIFO), a socket or a device file (or a symlink to one) in the "
        "package is not a document, an index or an asset: reading it may wait for ever "
        "or never end. kas-tui never opens it, and an agent gets nothing from it.",
        "Remove it: a package holds regular files and folders only.",
    ),
    Rule(
        "OKF130",
        "warning",
        OKF,
        "File name is not portable",
        'The name cannot be used on every system: characters Windows forbids (<>:"|?*\\), '
        "reserved names (CON, NUL, ...), a trailing dot or space, or two names in one folder "
        "that differ only by case.",
        "Rename the file to lowercase letters, digits, '-', '_' and '.'.",
    ),
    Rule(
        "OKF131",
        "info",
        OKF,
        "File name is awkward in links",
        "Spaces, upper-case letters and non-ASCII characters work, but links to them need "
        "escaping and break on case-insensitive file systems.",
        "Prefer lowercase names with hyphens: 'incident-response.md'.",
    ),
    Rule(
        "OKF140",
        "info",
        OKF,
        "Concept is stale",
        "Today is on or after the concept's 'stale_after' (OKF §5.5); consumers should treat "
        "its content as possibly out of date.",
        "Review the content, then move 'stale_after' forward (or mark it deprecated).",
    ),
    Rule(
        "OKF150",
        "warning",
        OKF,
        'okf_version is not the string "0.2"',
        "The root index.md declares the OKF version as a quoted string; unquoted 0.2 is a "
        "float, and 0.20 would read as 0.2 (OKF §12).",
        'Write okf_version: "0.2" (with quotes).',
    ),
    # --- Agent-ready: discovery (SKILL.md) -------------------------------------------------
    Rule(
        "KAS001",
        "error",
        KAS,
        "SKILL.md is missing",
        "Agents discover a package through its root SKILL.md (Agent Skills specification). "
        "Without it the package is not a skill.",
        "Create SKILL.md with 'name' (the folder name) and 'description' (what it covers and "
        "when to use it).",
    ),
    Rule(
        "KAS002",
        "error",
        KAS,
        "SKILL.md frontmatter cannot be read",
        "SKILL.md starts with YAML frontmatter between '---' lines holding a mapping.",
        "Start SKILL.md with '---', 'name: ...', 'description: ...', '---'.",
    ),
    Rule(
        "KAS003",
        "warning",
        KAS,
        "SKILL.md has fields the specification does not allow",
        "Only name, description, license, compatibility, metadata and allowed-tools are "
        "allowed; the reference validator (skills-ref) rejects others, some agent frameworks "
        "tolerate them.",
        "Move other fields under 'metadata', or remove them.",
    ),
    Rule(
        "KAS004",
        "error",
        KAS,
        "SKILL.md lacks name or description",
        "'name' and 'description' are required non-empty strings.",
        "Add 'name: <folder-name>' and a description of what the package covers and when to "
        "use it.",
    ),
    Rule(
        "KAS005",
        "error",
        KAS,
        "Skill name is invalid",
        "A skill name is 1-64 characters of lowercase letters, digits and hyphens, with no "
        "leading, trailing or double hyphen.",
        "Rename to something like 'orbit-handbook' (and rename the folder to match).",
    ),
    Rule(
        "KAS006",
        "error",
        KAS,
        "Skill name differs from its folder name",
        "Agent frameworks find a skill by its folder; the name must equal the folder name.",
        "Make 'name' and the package folder's name the same.",
    ),
    Rule(
        "KAS007",
        "error",
        KAS,
        "SKILL.md description is too long",
        "The description sits in every agent's system prompt; the specification caps it at "
        "1,024 characters.",
        "Shorten it to what the package covers and when to use it.",
    ),
    Rule(
        "KAS008",
        "error",
        KAS,
        "SKILL.md compatibility is too long",
        "'compatibility' is capped at 500 characters.",
        "Shorten it.",
    ),
    Rule(
        "KAS009",
        "warning",
        KAS,
        "SKILL.md metadata is not a map of strings",
        "'metadata' maps string keys to string values.",
        "Quote the values: 'version: \"1.0\"'.",
    ),
    Rule(
        "KAS010",
        "warning",
        KAS,
        "SKILL.md body is over budget",
        "An activated skill's body enters the agent's context whole; keep it under 500 lines "
        "and about 5,000 tokens. It holds usage rules, not knowledge.",
        "Move knowledge into documents and keep scope, navigation and stopping rules here.",
    ),
    Rule(
        "KAS011",
        "warning",
        KAS,
        "Skill file is named skill.md, not SKILL.md",
        "The Agent Skills specification names the file SKILL.md. The reference validator "
        "(skills-ref) also finds a lowercase skill.md when there is no SKILL.md, so kas-tui "
        "reads it as the skill, never as a document; agents and tools that look for SKILL.md "
        "only will not find it. A skill.md beside SKILL.md is ignored by both.",
        "Rename skill.md to SKILL.md (or, beside a SKILL.md, merge it in and delete it).",
    ),
    # --- Agent-ready: knowledge (documents) ------------------------------------------------
    Rule(
        "KAS020",
        "error",
        KAS,
        "Concept has no title",
        "Index entries and agents' previews show the title.",
        "Add 'title: <display name>' to the frontmatter.",
    ),
    Rule(
        "KAS021",
        "error",
        KAS,
        "Concept has no description",
        "The one-sentence description is what an agent reads to decide whether to open the "
        "document, and what index entries are made from.",
        "Add 'description: <one specific sentence>' to the frontmatter.",
    ),
    # --- Agent-ready: navigation (index.md) ------------------------------------------------
    Rule(
        "KAS030",
        "error",
        KAS,
        "Folder has no index.md",
        "Every folder holding concepts (or bundles of them) needs an index.md: it is how an "
        "agent sees what the folder offers without opening every file.",
        "Run 'kas-tui check --agent-ready --fix' to create it from the documents' titles and "
        "descriptions.",
        fixable=True,
    ),
    Rule(
        "KAS031",
        "error",
        KAS,
        "Concept is not listed in its folder's index.md",
        "An agent navigates by index entries; a document its folder's index does not list is "
        "invisible to it.",
        "Add an entry, or run 'kas-tui check --agent-ready --fix'.",
        fixable=True,
    ),
    Rule(
        "KAS032",
        "error",
        KAS,
        "Bundle is not listed in its parent's index.md",
        "A sub-folder of documents that the parent index does not list cannot be entered by "
        "an agent walking the indexes.",
        "Add an entry 'subdir/' with a sentence on what the folder holds, or run --fix.",
        fixable=True,
    ),
    Rule(
        "KAS033",
        "error",
        KAS,
        "Index entry has no description",
        "The entry's description is the agent's only cue when choosing a path; without one, "
        "navigation is a guess.",
        "Write one sentence after the link, or run --fix to copy the document's description.",
        fixable=True,
    ),
    Rule(
        "KAS034",
        "error",
        KAS,
        "Index entry points at a missing file",
        "An entry whose target does not exist sends the agent to a dead end.",
        "Fix the link target or remove the entry.",
    ),
    Rule(
        "KAS035",
        "error",
        KAS,
        "Package has no log.md",
        "The root log.md records what changed and when, so agents and curators can judge "
        "freshness.",
        "Create it, or run --fix, which creates it and records the run.",
        fixable=True,
    ),
    # --- Agent-ready: navigation quality ---------------------------------------------------
    Rule(
        "KAS040",
        "warning",
        KAS,
        "Index description drifted from the document's",
        "Index generators copy the document's description into its entry; when the two say "
        "different things, one of them is out of date.",
        "Make the entry and the document's description agree (the TUI copies either way).",
    ),
    Rule(
        "KAS041",
        "warning",
        KAS,
        "Sibling descriptions are near-duplicates",
        "Two entries of one index whose descriptions read almost the same give the agent no "
        "way to choose between them.",
        "Say what distinguishes each document.",
    ),
    Rule(
        "KAS042",
        "warning",
        KAS,
        "Description says nothing",
        "Descriptions such as 'Document about X', the title repeated, or 'TODO' make "
        "navigation random.",
        "Write one specific sentence: what the document answers and when to read it.",
    ),
    Rule(
        "KAS043",
        "warning",
        KAS,
        "Document is an orphan",
        "No index lists the document and no other document links to it: no agent can reach it.",
        "List it in its folder's index.md, link it from a related document, or delete it.",
    ),
    Rule(
        "KAS044",
        "warning",
        KAS,
        "Index entry and document disagree on deprecated or stale",
        "An agent choosing from the index should know that a document is deprecated or stale "
        "before it spends a turn reading it, and should not skip a current one because its "
        "entry still opens with a note that is no longer true.",
        "Say so in the entry: 'Deprecated: use ... instead.' or '(stale, under review)'; "
        "drop the note once the document is current again.",
    ),
    Rule(
        "KAS045",
        "info",
        KAS,
        "Description is not one sentence",
        "Descriptions are read in bulk when an agent scans an index; one sentence of at most "
        "about 200 characters keeps the index cheap and scannable.",
        "Cut it to one sentence; put detail in the body.",
    ),
    Rule(
        "KAS046",
        "warning",
        KAS,
        "Index is over the token budget",
        "An agent reads an index.md in one call and must weigh every entry in it against the "
        "question. An index estimated (four characters a token) at more than the budget "
        f"(default {INDEX_TOKEN_BUDGET:,} tokens, about {MAX_BUNDLE_ENTRIES} entries of a title "
        "and a one-sentence description; --index-budget sets it) is more than it can weigh "
        "at once, and crowds the documents out of a walk's context.",
        split_hint(),
    ),
    Rule(
        "KAS047",
        "warning",
        KAS,
        "Bundle has too many entries",
        f"An index listing more than {MAX_BUNDLE_ENTRIES} entries asks the agent to choose "
        "among more options than it can tell apart in one turn, however short each entry is.",
        "Group the entries into topical sub-bundles of at most about "
        f"{MAX_BUNDLE_ENTRIES} entries each, each with its own index.md and a sentence telling "
        "it apart from its siblings.",
    ),
    Rule(
        "KAS048",
        "info",
        KAS,
        "Bundle has a single entry",
        "A sub-folder whose index lists exactly one entry adds a turn to every walk through "
        "it and tells the agent nothing the parent's entry could not.",
        "Move the entry up into the parent bundle (its file into the parent folder, its "
        "entry into the parent's index.md in place of the folder's), or add its siblings.",
    ),
)

RULES += COMPUTATION_RULES  # OKF §10, Attested Computation contracts
RULES += HOUSE_RULES  # the package's own rules (.kas-tui.yaml), when it declares them

BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}
