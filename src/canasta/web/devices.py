"""Whose games are whose: every game of one person belongs to the device (the browser) that
created it, and only a request or socket carrying that device's key gets anything of it
(docs/PROTOCOL.md, "Devices").

The key is a random secret the browser makes on its first visit and keeps in its
``localStorage``; it travels in the ``X-Canasta-Device`` header of a request and in the first
message of a game's socket, never in a URL.  The server keeps only its SHA-256 hash (a game's
``owner``) and compares hashes with ``hmac.compare_digest``.

Games stored before devices existed belong to nobody.  The first request with a device key
that comes from the machine the server runs on (a loopback address and a loopback ``Host``,
through no proxy) adopts them all: that is the player who played them there, since the server
listened on loopback only until ``--host`` was given.  A table's match whose host sent no
device key is nobody's too, and stays so: it is never adopted (``Store.adopt``).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
from typing import Final

from starlette.requests import HTTPConnection

from canasta.errors import CanastaError

DEVICE_HEADER: Final = "x-canasta-device"
#: A device key as the client makes it: 30 URL-safe characters (22 random bytes, 176 bits),
#: or longer; anything shorter or of other characters is refused rather than trusted.
KEY_FORM: Final = re.compile(r"[A-Za-z0-9_-]{30,64}")
#: Headers a proxy adds: a request that carries one did not come from the machine itself,
#: whatever address the proxy connected from.
FORWARDING: Final = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip")
LOOPBACK_NAMES: Final = frozenset({"localhost", "localhost."})


class DeviceRefusal(CanastaError):
    """A request or socket without a usable device key (``device.no_key``,
    ``device.bad_key``): it gets nothing."""

    status = 403


def owner_of(key: object) -> str:
    """The owner a device key stands for (its SHA-256, in hex); DeviceRefusal when there is
    no key or it is not one of the form the client makes."""
    if key is None or key == "":
        raise DeviceRefusal("device.no_key")
    if not isinstance(key, str) or not KEY_FORM.fullmatch(key):
        raise DeviceRefusal("device.bad_key")
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def owns(owner: str, stored: str | None) -> bool:
    """Whether ``owner`` (a key's hash) is the stored owner of a game."""
    return stored is not None and hmac.compare_digest(owner, stored)


def _loopback(name: str) -> bool:
    if name.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


def from_the_machine(conn: HTTPConnection) -> bool:
    """Whether a request (or a socket's handshake) comes from the machine the server runs on:
    a loopback client address, a loopback name as ``Host``, and no proxy's headers."""
    client = conn.client
    if client is None or not _loopback(client.host):
        return False
    if any(name in conn.headers for name in FORWARDING):
        return False
    host = conn.headers.get("host", "")
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return bool(name) and _loopback(name)
