"""Who may use the game server: the Host names it answers to, the pages that may open its
sockets or change its games, and the security headers of every answer (docs/PROTOCOL.md,
"Who may connect").

A browser sends an ``Origin`` with every WebSocket handshake and every cross-site POST, so a
request whose ``Origin`` is not one of the server's own comes from another site's page: it is
refused.  A request without one comes from a program (curl, the tests, the benchmark), which a
page cannot make a browser send.  A POST must also say its body is JSON: a foreign page can send
``text/plain`` without asking the browser first, and never ``application/json``.  Checking the
``Host`` (Starlette's ``TrustedHostMiddleware``) stops DNS rebinding: a foreign name made to
point at this machine.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from canasta.errors import CanastaError

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
EVERY_INTERFACE = ("", "0.0.0.0", "::")
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
# A Host that can go into a header as it is: a name, an IPv4 or a bracketed IPv6, and a port.
_PLAIN_HOST = re.compile(r"(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?")

Refuse = Callable[[Request, CanastaError, int], Response]


def origin_of(scheme: str, host: str, port: int) -> str:
    """``scheme://host:port`` as a browser writes it (no port when it is the default one)."""
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" if port == default else f"{scheme}://{host}:{port}"


def _bracketed(host: str) -> str:
    """An IPv6 address as a URL writes it ([::1]); anything else as it is."""
    try:
        return f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        return host


def _is_ip_host(host_header: str) -> bool:
    """Whether a Host header names an IP address (with or without a port)."""
    host = host_header.lower()
    if host.startswith("["):
        host = host[1:host.find("]")] if "]" in host else ""
    elif host.count(":") == 1:
        host = host.split(":")[0]
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _origin_host(origin: str) -> str:
    """The host of an origin (``scheme://host[:port]``), as a Host header names it; raises
    ValueError when ``origin`` is not one."""
    parts = urlsplit(origin)
    try:
        plain = parts.port is None or parts.port > 0  # (a port that is not a number raises)
    except ValueError:
        plain = False
    if not plain or parts.scheme not in ("http", "https") or not parts.hostname \
            or parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        raise ValueError(f"an origin is scheme://host[:port] (http or https), not {origin!r}")
    return _bracketed(parts.hostname)


@dataclass(frozen=True)
class Site:
    """The names the server answers to and the origins whose pages may use it.

    ``hosts`` are the Host names accepted (None: any, for an app not bound to a known address,
    as in the tests); ``any_ip`` also accepts any IP address as Host (bound to every interface:
    DNS rebinding needs a name, and an address reaches this server only if it is one of its
    own); ``origins`` are the pages allowed besides the request's own origin (the loopback names
    of a loopback server, a public address in front of it).
    """

    hosts: tuple[str, ...] | None = None
    any_ip: bool = False
    origins: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def bound(cls, host: str | None, port: int, origins: Iterable[str] = ()) -> Site:
        """The site of a server listening on ``host``:``port`` (``host`` None: not known).
        ``origins``: more origins whose pages may use it, such as the public address of a proxy
        in front of it; their names are answered as Host too (a proxy may pass its own on)."""
        extra = {o.lower().rstrip("/") for o in origins}
        extra_names = {_origin_host(o) for o in extra}
        if host is None:
            return cls(None, False, frozenset(extra))
        name = host.strip("[]").lower()
        if name in EVERY_INTERFACE:
            local = socket.gethostname().lower()
            names = {*LOOPBACK_NAMES, local, f"{local}.local", *extra_names}
            return cls(tuple(sorted(names)), True, frozenset(extra))
        names = {_bracketed(name)}
        try:
            loopback = name == "localhost" or ipaddress.ip_address(name).is_loopback
        except ValueError:
            loopback = False
        if loopback:
            names.update(LOOPBACK_NAMES)
        own = {origin_of("http", n, port) for n in names}
        return cls(tuple(sorted(names | extra_names)), False, frozenset(own | extra))

    def allows(self, origin: str, scope: Scope) -> bool:
        """Whether a page of ``origin`` may use the server through this request: it is one of
        ``origins``, or the very origin the request was sent to."""
        origin = origin.lower()
        if origin in self.origins:
            return True
        host = Headers(scope=scope).get("host")
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        return host is not None and origin == f"{scheme}://{host.lower()}"


class OriginGuard:
    """Refuses WebSocket handshakes and state-changing requests from other sites' pages, and
    POST bodies that do not say they are JSON."""

    def __init__(self, app: ASGIApp, site: Site, refuse: Refuse) -> None:
        self.app = app
        self.site = site
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        foreign = origin is not None and not self.site.allows(origin, scope)
        if kind == "websocket":
            if foreign:
                # Closing before accepting: the server answers the handshake with 403.
                await receive()
                await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        problem: tuple[CanastaError, int] | None = None
        if foreign and method in STATE_CHANGING:
            problem = (CanastaError("protocol.foreign_origin", text=repr(origin)), 403)
        elif method in WITH_BODY and headers.get("content-type", "").split(";")[0].strip() \
                .lower() != "application/json":
            problem = (CanastaError("protocol.json_content"), 415)
        if problem is not None:
            await self.refuse(Request(scope), *problem)(scope, receive, send)
            return
        await self.app(scope, receive, send)


class AnyAddress:
    """Bound to every interface: an IP address as Host goes straight on, a name goes through
    ``TrustedHostMiddleware`` (DNS rebinding needs a name)."""

    def __init__(self, app: ASGIApp, hosts: tuple[str, ...]) -> None:
        self.app = app
        self.named = TrustedHostMiddleware(app, allowed_hosts=list(hosts), www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = Headers(scope=scope).get("host", "") if scope["type"] in ("http", "websocket") \
            else ""
        if host and _is_ip_host(host):
            await self.app(scope, receive, send)
        else:
            await self.named(scope, receive, send)


def content_security_policy(host: str | None) -> str:
    """The page's CSP: only the server's own scripts, styles, images (and the inline SVG
    icon), its own socket; no frames, plugins or foreign forms.  The socket is named as well as
    'self', for browsers whose 'self' does not cover ws: yet."""
    sockets = ""
    if host is not None and _PLAIN_HOST.fullmatch(host.lower()):
        sockets = f" ws://{host} wss://{host}"
    return ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'")


SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


class SecurityHeaders:
    """Adds the security headers to every HTTP answer (refusals included)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = content_security_policy(Headers(scope=scope).get("host")).encode("latin-1")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() not in _ADDED]
                headers += [*SECURITY_HEADERS, (b"content-security-policy", csp)]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


_ADDED = frozenset({k for k, _ in SECURITY_HEADERS} | {b"content-security-policy"})


def protect(app: FastAPI, site: Site, refuse: Refuse) -> None:
    """Put the guards around ``app``: the security headers outermost (so that every refusal
    carries them too), then the Host check, then the Origin and content-type check."""
    app.add_middleware(OriginGuard, site=site, refuse=refuse)
    if site.hosts is not None:
        if site.any_ip:
            app.add_middleware(AnyAddress, hosts=site.hosts)
        else:
            app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(site.hosts),
                               www_redirect=False)
    app.add_middleware(SecurityHeaders)


__all__ = ["Site", "content_security_policy", "origin_of", "protect"]
