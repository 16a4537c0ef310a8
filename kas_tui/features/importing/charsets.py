"""Text that is not UTF-8: which encoding it is read as, and the words that say so.

UTF-8 (a BOM dropped) is read as it is. Otherwise a web page's own declaration
(``<meta charset>``, ``http-equiv``, an XML declaration) is taken when the bytes decode
with it; else charset-normalizer guesses. Its guesses tie often on short text: "procédure
à suivre" is as clean in Windows-1250 ("procédure ŕ suivre") as in Windows-1252, and
its language model, on a few words, leans to Croatian. Among the encodings as clean as
its best (the same "chaos"), the legacy encoding of the user's language is taken, as
the WHATWG Encoding Standard has browsers do (Windows-1250 for Czech, Polish or
Hungarian, Windows-1251 for Russian, Windows-1252 for the rest); then its best. Whatever
is assumed is said (:func:`assumed`), so a wrong guess is seen where it happens.
"""

from __future__ import annotations

import codecs
import re

#: a language's legacy encoding (the WHATWG Encoding Standard's locale defaults);
#: any other language: Windows-1252
LEGACY = {
    **dict.fromkeys(("cs", "hr", "hu", "pl", "ro", "sk", "sl", "sr"), "cp1250"),
    **dict.fromkeys(("bg", "be", "kk", "mk", "ru", "uk"), "cp1251"),
    **dict.fromkeys(("et", "lt", "lv"), "cp1257"),
    "el": "cp1253",
    "tr": "cp1254",
    "he": "cp1255",
    "ar": "cp1256",
    "fa": "cp1256",
    "vi": "cp1258",
    "th": "cp874",
    "ja": "shift_jis",
    "zh": "gb18030",
    "ko": "euc_kr",
}
#: a web page's own word on its encoding, in its first 4 KB
_DECLARED = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)|<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9._-]+)""",
    re.IGNORECASE,
)
_WEB = (".html", ".htm", ".xhtml", ".xml")


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _codec(name: str) -> str | None:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def declared(data: bytes) -> str | None:
    """The encoding a web page declares for itself, when Python knows it."""
    match = _DECLARED.search(data[:4096])
    if match is None:
        return None
    return _codec((match.group(1) or match.group(2)).decode("ascii"))


def legacy_encoding() -> str:
    """The legacy encoding of the user's language (``LC_ALL``, ``LC_CTYPE``, ``LANG``)."""
    import os

    for variable in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = os.environ.get(variable)
        if value:
            return _codec(LEGACY.get(value[:2].lower(), "cp1252")) or "cp1252"
    return "cp1252"


def detect(data: bytes) -> str | None:
    """charset-normalizer's encoding for ``data``; among those as clean as its best, the
    user's language's legacy encoding."""
    from charset_normalizer import from_bytes

    results = from_bytes(data)
    best = results.best()
    if best is None:
        return None
    clean = {  # no messier than the best, or decoding these bytes to the very same text
        _codec(name)
        for m in results
        if m.chaos <= best.chaos
        for name in (m.encoding, *m.could_be_from_charset)
    }
    preferred = legacy_encoding()
    return preferred if preferred in clean else _codec(best.encoding) or best.encoding


def encoding_of(data: bytes, ext: str = "") -> str | None:
    """The encoding to read ``data`` with: ``utf-8``, a declared or detected one, or
    ``None`` when none could be found."""
    if is_utf8(data.removeprefix(codecs.BOM_UTF8)):
        return "utf-8"
    if ext.lower() in _WEB:
        name = declared(data)
        if name is not None and name != "utf-8":
            try:
                data.decode(name)
                return name
            except UnicodeDecodeError:
                pass
    return detect(data)


#: how an encoding is named to a person
_NAMES = {"cp1252": "Windows-1252", "cp1250": "Windows-1250", "iso8859-15": "ISO-8859-15"}


#: UTF-8 read without the NUL bytes it held (:func:`~.convert_model.decode_text`).
UTF8_WITHOUT_NUL = "utf-8 without NUL"


def assumed(encoding: str | None) -> str | None:
    """What to tell the curator about a file read as ``encoding``: ``None`` for UTF-8."""
    if encoding is None or encoding == "utf-8":
        return None
    if encoding == UTF8_WITHOUT_NUL:
        return "its UTF-8 text holds NUL bytes (a pasted binary's?): read without them"
    name = _NAMES.get(encoding) or encoding.upper()
    return f"not UTF-8: read as {name}; check its accented letters"
