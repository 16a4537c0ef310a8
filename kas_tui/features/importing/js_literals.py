"""JavaScript read as text, never run: the object or array literals of a site's
config (``sidebars.js``, ``astro.config.mjs``, ``.vitepress/config.ts``), its options,
its string literals' escapes. Code inside a literal (a spread, a template string that
computes, a call) is taken out or makes the literal unreadable, and says so.
"""

from __future__ import annotations

import re
from typing import Any

_JS_ESCAPE = re.compile(r"\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(.))", re.S)
_JS_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


#: A string literal (single or double quotes, escapes inside), its text in group 2.
_STRING = re.compile(r"""(['"])((?:\\.|(?!\1)[^\\\n])*)\1""")
#: Where a config module's object opens: ``defineConfig({``, a theme's
#: ``defineConfigWithTheme<ThemeConfig>({`` (vuejs/docs) or ``export default {``.
CONFIG_OBJECT = re.compile(r"\bdefineConfig\w*\s*(?:<[^<>()]*>)?\s*\(\s*\{|\bexport\s+default\s*\{")


def string_option(code: str, opened: int, key: str) -> str | None:
    """The text of the option ``key`` of the object opening at ``opened`` of ``code``
    (comments blanked), when it is a plain string literal (its escapes read, its
    spaces collapsed); ``None`` when it is another value (a template string, an
    object of one title per language) or absent."""
    at = js_option(blank_js(code, strings=True), opened, key, code)
    found = _STRING.match(code, at) if at is not None else None
    name = _NAME.match(code, at) if at is not None and found is None else None
    if name is not None:  # ``site,`` or ``site: site``: the string its const holds
        declared = re.search(_DECLARED_AS.format(name=re.escape(name.group())) + r"(?=['\"])", code)
        found = _STRING.match(code, declared.end()) if declared else None
    return " ".join(js_string(found.group(2)).split()) or None if found else None


def exported_object(code: str) -> int | None:
    """Where the object a config module exports opens (``defineConfig({``,
    ``export default {``, ``module.exports = {``, or through a ``const`` it names:
    ``const config = {...}; export default config``), in ``code`` with its comments
    blanked; ``None`` when it is built otherwise."""
    called = CONFIG_OBJECT.search(code) or re.search(r"\bmodule\.exports\s*=\s*\{", code)
    if called is not None:
        return called.end() - 1
    named = re.search(r"\b(?:export\s+default|module\.exports\s*=)\s*([A-Za-z_$][\w$]*)", code)
    if named is None:
        return None
    declared = re.search(_DECLARED_AS.format(name=re.escape(named.group(1))) + r"(?=\{)", code)
    return declared.end() if declared else None


def js_string(body: str) -> str:
    """A JavaScript string literal's text, its escapes read (metro's tagline
    ``"\\ud83d\\ude87 The JavaScript bundler"`` is "🚇 The JavaScript bundler")."""
    if "\\" not in body:
        return body

    def one(found: re.Match[str]) -> str:
        code = found.group(1) or found.group(2) or found.group(3)
        if code:
            return chr(int(code, 16)) if int(code, 16) <= 0x10FFFF else ""
        return _JS_SIMPLE.get(found.group(4), found.group(4))

    text = _JS_ESCAPE.sub(one, body)
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def js_object(text: str) -> str | None:
    """The object ``module.exports`` (or ``export default``) gives, directly or through
    a ``const``, as YAML-readable text at its own lines (all else blanked); ``None``
    when there is none or it is built by code."""
    code = _blank(text, strings=False)
    exported = re.search(r"\bmodule\.exports\s*=\s*|\bexport\s+default\s+", code)
    if exported is None:
        return None
    return js_value_at(code, exported.end(), "{")


def js_value_at(code: str, start: int, opener: str) -> str | None:
    """The object (``opener`` ``{``) or array (``[``) literal at ``start`` of ``code``,
    directly or through a ``const`` of the file it names (``sidebar: sidebar``,
    ``module.exports = sidebars``), as :func:`js_literal` gives it; ``None`` when it
    is neither."""
    if code[start : start + 1] != opener:
        name = re.match(r"[A-Za-z_$][\w$]*", code[start:])
        if name is None:
            return None
        declared = re.search(
            rf"\b(?:const|let|var)\s+{re.escape(name.group())}\s*(?::[^=]*)?=\s*", code
        )
        if declared is None or code[declared.end() : declared.end() + 1] != opener:
            return None
        start = declared.end()
    return js_literal(code, start)


def js_literal(code: str, start: int) -> str | None:
    """The object or array literal opening at ``start`` of ``code`` (comments already
    blanked, :func:`blank_js`) as YAML-readable text at its own lines (all else
    blanked); ``None`` when it does not close or is built by code."""
    end = _closing(code, start)
    if end is None:
        return None
    bare = _blank(code[start : end + 1], strings=True)
    if re.search(r"\.\.\.|=>|\bfunction\b|[\w$)\]]\s*\(|`", bare):
        return None  # spreads, calls, functions, template strings: code, not data
    for word in re.findall(r"[:\[,]\s*([A-Za-z_$][\w$.]*)\s*(?=[,}\]])", bare):
        if word not in ("true", "false", "null"):
            return None  # a variable
    head = "".join("\n" if c == "\n" else " " for c in code[:start])
    literal = code[start : end + 1]
    # YAML reads the literal: a key's colon needs a space after it (``beginner:"Guides"``
    # is one plain word to YAML), and a tab (most JavaScript is indented so) is a space
    for at in reversed([m.start() for m in re.finditer(r":(?=\S)", bare)]):
        literal = f"{literal[: at + 1]} {literal[at + 1 :]}"
    return (head + literal).replace("\t", " ")


def js_option(bare: str, opened: int, key: str, code: str | None = None) -> int | None:
    """Where the value of the option ``key`` of the object opening at ``opened`` starts
    (its own option, not one of an object inside it: a docs plugin's ``path``, not its
    ``versions: {current: {path}}``); ``None`` when it has none. A shorthand property
    (``sidebar,``) starts at its name, a variable. ``bare``: the code with comments and
    strings blanked (:func:`blank_js`); with ``code`` (the same, strings kept) a quoted
    key counts too (``"title": "pnpm"``, a config written as JSON)."""
    depth = 0
    pattern = re.compile(rf"{re.escape(key)}(?:\s*:\s*|(?=\s*[,}}]))")
    quoted = re.compile(rf"(['\"]){re.escape(key)}\1\s*:\s*")
    for at in range(opened, len(bare)):
        char = bare[at]
        if char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
            if depth == 0:
                return None
        elif depth == 1 and char == key[0] and bare[at - 1] in " \t\n{,":
            found = pattern.match(bare, at)
            if found:  # a shorthand's value is its name
                return found.end() if found.end() > at + len(key) else at
        elif depth == 1 and code is not None and char in "'\"" and bare[at - 1] in " \t\n{,":
            found = quoted.match(code, at)
            if found:
                return found.end()
    return None


def spread_name(text: str, at: int) -> str:
    """The function or variable a spread at ``at`` of ``text`` (``...makeLinks(...)``)
    expands, or ""."""
    found = re.compile(r"[A-Za-z_$][\w$]*").match(text, at + 3)
    return found.group() if found else ""


def spread_notes(path: str, text: str, literal: str, spreads: list[int]) -> list[str]:
    """One note for each spread :func:`without_computed` took out of the object or
    array ``literal`` (which keeps ``text``'s offsets, all else blanked), by its line in
    the file ``path``: the entries code makes there are not read, the rest is."""
    opened = len(literal) - len(literal.lstrip())
    notes = []
    for at in (s for s in spreads if opened < s < len(literal)):
        name = spread_name(text, at)
        what = f"...{name}" if name else "a ... spread"
        notes.append(
            f"{path}:{text.count(chr(10), 0, at) + 1}: entries made by code ({what}) are not "
            "read; the pages they list go by their folders"
        )
    return notes


def without_computed(code: str) -> tuple[str, list[int]]:
    r"""``code`` (comments blanked) with what code computes inside a literal taken out,
    every offset kept: each spread element (``...makeLinks([...]),``) blanked by
    spaces, and each template string (``\`Migration from v${major - 1}\```) read as
    ``null`` (a label code computes: the page's own title stands); and where each
    spread was: entries code makes, which a reader of the literal cannot know."""
    bare = _blank(code, strings=True)
    out = list(code)
    for quoted in re.finditer(r"`[^`]*`", bare):
        a, b = quoted.span()
        inner = code[a + 1 : b - 1]
        if not any(c in inner for c in ("${", '"', "\\", "\n")):
            out[a], out[b - 1] = '"', '"'  # a template string that computes nothing
            continue
        filler = "null" if b - a >= 4 else '""'
        out[a:b] = list(filler) + ["\n" if c == "\n" else " " for c in code[a + len(filler) : b]]
    found: list[int] = []
    at = bare.find("...")
    while at >= 0:
        depth, end = 0, at + 3
        while end < len(bare):
            char = bare[end]
            if char in "([{":
                depth += 1
            elif char in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif char == "," and depth == 0:
                end += 1
                break
            end += 1
        out[at:end] = ["\n" if c == "\n" else " " for c in code[at:end]]
        found.append(at)
        at = bare.find("...", end)
    return "".join(out), found


#: Where a JSX element is written as a value: ``title: <Icon />``, ``title: (<b>x</b>)``.
_JSX_VALUE = re.compile(r"[:\[,]\s*(\(\s*)?<(?=[A-Za-z>])")


def without_jsx(code: str) -> str:
    """``code`` (comments blanked) with each JSX element written as a value
    (``title: <TitleWithIcon icon={Home}>Docs Home</TitleWithIcon>``, in parentheses or
    not) read as ``null``, every offset kept: a title a component draws is none a reader
    of text can give (the page's own title stands)."""
    out = list(code)
    at = 0
    while (found := _JSX_VALUE.search(code, at)) is not None:
        opened = found.end() - 1
        start = found.start(1) if found.group(1) else opened
        end = _jsx_end(code, opened)
        if end is not None and found.group(1):  # its closing parenthesis
            close = end + len(code[end:]) - len(code[end:].lstrip())
            end = close + 1 if code[close : close + 1] == ")" else None
        if end is None:
            at = found.end()
            continue
        filler = "null" if end - start >= 4 else "~"
        out[start:end] = list(filler) + [
            "\n" if c == "\n" else " " for c in code[start + len(filler) : end]
        ]
        at = end
    return "".join(out)


def _jsx_end(code: str, at: int) -> int | None:
    """Where the JSX element whose tag opens at ``at`` ends (just after it)."""
    depth, index = 0, at
    while index < len(code):
        char = code[index]
        if char == "{":  # an expression in the element's text
            inner = _closing(code, index)
            if inner is None:
                return None
            index = inner + 1
            continue
        if char != "<":
            index += 1
            continue
        end = _tag_end(code, index)
        if end is None:
            return None
        if code.startswith("</", index):
            depth -= 1
        elif code[end - 1] != "/":  # not self-closing: <b>, <>
            depth += 1
        index = end + 1
        if depth <= 0:
            return index
    return None


def _tag_end(code: str, at: int) -> int | None:
    """Where the tag opening at ``at`` closes (its ``>``), its attributes' strings and
    ``{...}`` expressions skipped."""
    index, quote = at + 1, ""
    while index < len(code):
        char = code[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "{":
            inner = _closing(code, index)
            if inner is None:
                return None
            index = inner
        elif char == ">":
            return index
        index += 1
    return None


#: How a value naming a ``const`` of the file is marked by :func:`with_consts`.
CONST_MARK = "@const:"
#: Where a ``const`` (``let``, ``var``) named ``{name}`` is given its value.
_DECLARED_AS = r"\b(?:const|let|var)\s+{name}\s*(?::[^=]*)?=\s*"
_DECLARED = _DECLARED_AS + r"(?=[\[{{])"  # ... an object or array literal
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_VALUE_NAME = re.compile(r"(?<=[:\[,])(\s*)([A-Za-z_$][\w$]*)(?=\s*[,}\]])")


def with_consts(code: str, *, declared_in: str | None = None) -> str:
    """``code`` (comments blanked) with each value naming a ``const`` of the file that
    holds an object or array literal (``guide: { items: GUIDE }``) written as the string
    ``"@const:GUIDE"``, every line kept: :func:`const_values` reads them once the
    literal around them is read. ``declared_in``: the whole file, when ``code`` is a
    part of it (one literal)."""
    whole = code if declared_in is None else declared_in
    declared = set(re.findall(_DECLARED.format(name=r"([A-Za-z_$][\w$]*)"), whole))
    bare = _blank(code, strings=True)
    out = code
    for found in reversed(list(_VALUE_NAME.finditer(bare))):
        name = found.group(2)
        if name in declared:
            a, b = found.span(2)
            out = f'{out[:a]}"{CONST_MARK}{name}"{out[b:]}'
    return out


def const_values(data: Any, code: str, read: Any, depth: int = 0) -> Any:
    """``data`` (read from a literal of ``code``, the text :func:`with_consts` made) with
    each ``"@const:NAME"`` string replaced by what ``read(literal)`` makes of that
    ``const``'s literal (``None`` when it is none, or the consts nest too deeply)."""
    if isinstance(data, str) and data.startswith(CONST_MARK):
        declared = re.search(_DECLARED.format(name=re.escape(data[len(CONST_MARK) :])), code)
        literal = js_literal(code, declared.end()) if declared and depth < 8 else None
        return None if literal is None else const_values(read(literal), code, read, depth + 1)
    if isinstance(data, dict):
        for key, value in list(data.items()):
            data[key] = const_values(value, code, read, depth)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            data[index] = const_values(value, code, read, depth)
    return data


def literal_data(code: str, start: int, load: Any) -> tuple[Any, list[int]]:
    """What the object or array literal opening at ``start`` of ``code`` (comments
    blanked) holds, as ``load(text)`` reads the YAML-readable text :func:`js_literal`
    makes of it: each value naming a ``const`` of the file that holds a literal read
    as that literal (:func:`with_consts`), a template string that computes as ``None``;
    ``None`` when it does not close or is built by code. And where the spreads inside
    it were (entries code makes, taken out: :func:`without_computed`)."""
    end = literal_end(code, start)
    if end is None:
        return None, []
    head = "".join("\n" if c == "\n" else " " for c in code[:start])
    plain, spreads = without_computed(head + with_consts(code[start : end + 1], declared_in=code))
    literal = js_literal(plain, start)
    if literal is None:
        return None, spreads
    consts = without_computed(with_consts(code))[0]
    return const_values(load(literal), consts, load), spreads


def literal_end(code: str, start: int) -> int | None:
    """Where the object or array literal opening at ``start`` of ``code`` closes (its
    last character; strings skipped); ``None`` when it does not."""
    return _closing(code, start)


def blank_js(text: str, *, strings: bool = False) -> str:
    """JavaScript ``text`` with its comments (and, with ``strings``, string contents)
    blanked by spaces, line breaks kept: every offset stays where it was."""
    return _blank(text, strings=strings)


def _blank(text: str, *, strings: bool) -> str:
    """``text`` with its comments (and, with ``strings``, string contents) blanked
    by spaces, line breaks kept."""
    out = list(text)
    index, quote = 0, ""
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                if strings:
                    out[index] = " "
                    if index + 1 < len(text) and text[index + 1] != "\n":
                        out[index + 1] = " "
                index += 2
                continue
            if char == quote:
                quote = ""
            elif strings and char != "\n":
                out[index] = " "
        elif char in "'\"`":
            quote = char
        elif text.startswith("//", index):
            end = text.find("\n", index)
            end = len(text) if end < 0 else end
            out[index:end] = " " * (end - index)
            index = end
            continue
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = len(text) if end < 0 else end + 2
            out[index:end] = ["\n" if c == "\n" else " " for c in text[index:end]]
            index = end
            continue
        index += 1
    return "".join(out)


def _closing(code: str, start: int) -> int | None:
    """Where the brace opened at ``start`` closes (strings skipped)."""
    depth, quote, index = 0, "", start
    while index < len(code):
        char = code[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"`":
            quote = char
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return None


def plain_entries(code: str, start: int) -> tuple[list[str], list[str]] | None:
    """The object literal opening at ``start`` of ``code`` read entry by entry: (each
    entry that is data, as :func:`js_literal` gives it inside braces of its own; the
    keys of those code computes), cut at the commas outside strings and brackets;
    ``None`` when no object opens there. Pelican's ``_meta.js`` computes one entry (its
    navbar's ``versions`` menu, a ``reduce()``) beside its pages' plain titles."""
    end = _closing(code, start) if code[start : start + 1] == "{" else None
    if end is None:
        return None
    bare = _blank(code[start : end + 1], strings=True)
    cuts, depth = [0], 0
    for at in range(1, len(bare) - 1):
        char = bare[at]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            cuts.append(at)
    cuts.append(len(bare) - 1)
    plain, computed = [], []
    for a, b in zip(cuts, cuts[1:], strict=False):
        entry = code[start + a + 1 : start + b]
        if not entry.strip():
            continue
        literal = js_literal("{" + entry + "}", 0)
        if literal is not None:
            plain.append(literal)
        else:
            computed.append(entry.split(":", 1)[0].strip().strip("\"'[]") or "?")
    return plain, computed
