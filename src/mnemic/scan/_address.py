"""Outside addresses in a sentence, for the intent layer (concept ``dest``, and ``send``
for an image URL that carries data away).

An outside address is a URL of any scheme, an e-mail address, an IPv4 address, or a
bare host name under a common top-level domain ("pastebin.com", "t.metrics-ping.net").
Not outside: this machine (``localhost``, ``127.0.0.1``) and host names under the names
reserved for private networks (``.local``, ``.internal``, ``.lan``, ``.localdomain``,
``home.arpa``, and ``.corp`` and ``.home``, which ICANN will not delegate): they resolve
nowhere outside one (scanner 23). The names reserved for
documentation (``example.com``, ``*.example``) stay outside addresses: a note may use
them as a stand-in for an attacker's server as well as a cheat sheet does.

``curl`` or ``wget`` with a flag that sends a file's content (``-d @MEMORY.md``,
``-F f=@~/.ssh/id_rsa``, ``-T``, ``--post-file``) reads as *send*.

A markdown or HTML image whose URL ends in an open query parameter
(``![](https://px.example-cdn.io/a.png?d=)``) is how a rendered answer sends data to a
server without a tool: the agent is to append the data after the ``=``. It reads as
*send* as well as *dest*.
"""

from __future__ import annotations

import re

__all__ = ["addresses"]

_URL = re.compile(
    r"\b(?:https?|s?ftps?|scp|rsync|ssh|s3|gs|smb|webdavs?|git(?:\+ssh)?)://[^\s\"'<>]+"
    r"|\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b"
    r"|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b"
)
# Top-level domains a bare host name is read under: the common generic ones and country
# codes, without those that are also file extensions ("install.sh", "main.rs", "a.py",
# "notes.md", "app.js", "run.pl").
_TLDS = (
    "com|net|org|io|co|app|dev|site|info|biz|xyz|me|cc|online|cloud|link|click|top|live|"
    "ru|cn|de|fr|it|nl|br|jp|kr|in|ua|tr|es|uk|eu|us|ch|at|be|se|no|fi|cz|su|tk|to|ly|gg|st"
)
_BARE_HOST = re.compile(
    r"(?<![\w@./:-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:" + _TLDS + r")(?![\w-]|\.\w)"
)
_LOCAL_HOST = re.compile(
    r"^(?:localhost|127\.[\d.]+|0\.0\.0\.0|\[::1\]|::1"
    # names reserved for private networks: they resolve nowhere outside one (RFC 6762
    # .local, RFC 8375 home.arpa, ICANN's .internal; .lan, .localdomain, and .corp and
    # .home, which ICANN will not delegate)
    r"|(?:[\w-]+\.)+(?:local|internal|lan|localdomain|home\.arpa|corp|home))$"
)
_HOST = re.compile(r"\[[0-9a-f:]+\]|[\w.-]+")
# curl or wget sending a file's content: "-d @file", "--data-binary @f", "-F x=@f",
# "-T file", "--post-file=f".
_UPLOAD = re.compile(
    r"\b(?:curl|wget)\b[^|;\n]*?\s(?:(?:-d|--data(?:-binary|-raw|-urlencode)?|-f|--form)"
    r"\s+[\"']?(?:[\w.-]+=)?@|(?:-t|--upload-file)\s+\S|--post-file[= ])"
)
_IMAGE_BEACON = re.compile(
    r"!\[[^\]]*\]\(\s*(?:https?:)?//[^)\s]*[?&][\w.-]*=|<img\b[^>]*\bsrc\s*=\s*[\"']?"
    r"(?:https?:)?//[^\"'\s>]*[?&][\w.-]*=(?=[\"'\s>]|$)"
)


# A phone number in international form: a text message is a way out too.
_PHONE = re.compile(r"(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?![\w])")
# A URL whose query ends open ("https://host/p?q="): what follows it is sent along.
_OPEN_QUERY = re.compile(r"(?:https?:)?//[^\s\"'<>)]*[?&][\w.-]*=(?=[\s\"'<>)]|$)")


# A shell redirect or tee into a system-wide startup location (or ~/.profile): what is
# written there runs at every login, boot or cron tick. A user's own ~/.bashrc is left
# alone (completion scripts and aliases are appended there honestly).
_AUTOSTART = re.compile(
    r"(?:>>?|\btee\s+(?:-a\s+)?)\s*[\"']?(?:/etc/(?:profile\b|profile\.d/|bash\.bashrc|"
    r"environment\b|ld\.so\.preload|rc\.local|init\.d/|crontab\b|"
    r"cron\.(?:d|daily|hourly|weekly|monthly)/|systemd/system/)|/var/spool/cron/|"
    r"(?:~|\$home)/\.profile\b|(?:~|\$home)?/library/launch(?:agents|daemons)/|"
    r"(?:~|\$home)/\.config/(?:autostart|systemd/user)/)"
)


# A cloud instance's metadata service: where its credentials are read from.
_METADATA = re.compile(
    r"\b169\.254\.169\.254\b|\bmetadata\.google\.internal\b|\b100\.100\.100\.200\b"
)


def _host(address: str) -> str:
    """The host name of a URL, e-mail or IP address (lower case, no port or user)."""
    rest = address.split("://", 1)[1] if "://" in address else address
    rest = re.split(r"[/?#]", rest, maxsplit=1)[0].rsplit("@", 1)[-1]
    m = _HOST.match(rest)
    return m.group().lower().rstrip(".") if m else ""


def addresses(sentence: str) -> list[tuple[int, int, str]]:
    """``(start, end, concept)`` of each outside address (``dest``) in ``sentence``, and
    of each image URL or open query that carries data away and each upload by curl or
    wget (``send``); a phone number in international form is an address too; a shell
    write into a system-wide startup location (``autostart``); a cloud metadata
    service (``metadata``)."""
    found: list[tuple[int, int, str]] = []
    spans: list[tuple[int, int]] = []
    for m in _URL.finditer(sentence):
        spans.append(m.span())
        if not _LOCAL_HOST.match(_host(m.group())):
            found.append((m.start(), m.end(), "dest"))
    for m in _BARE_HOST.finditer(sentence):
        inside = any(s <= m.start() < e for s, e in spans)
        if not inside and not _LOCAL_HOST.match(m.group()):
            found.append((m.start(), m.end(), "dest"))
    for m in _PHONE.finditer(sentence):
        if sum(c.isdigit() for c in m.group()) >= 8:
            found.append((m.start(), m.end(), "dest"))
    for m in _OPEN_QUERY.finditer(sentence):
        found.append((m.start(), m.end(), "send"))
    for m in _METADATA.finditer(sentence):
        found.append((m.start(), m.end(), "metadata"))
    for m in _AUTOSTART.finditer(sentence):
        found.append((m.start(), m.end(), "autostart"))
    for m in _IMAGE_BEACON.finditer(sentence):
        found.append((m.start(), m.end(), "send"))
    for m in _UPLOAD.finditer(sentence):
        found.append((m.start(), m.end(), "send"))
    return found
