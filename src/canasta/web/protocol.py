"""The game sockets' protocol, apart from any game: what a client may send and how a refusal is
written for it (docs/PROTOCOL.md).  Both the games of one person (``canasta.web.app``) and the
tables (``canasta.web.lobby``) parse and answer with these.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any, Final

from fastapi import Request, WebSocket

from canasta.errors import CanastaError
from canasta.i18n import LANGS, params_json, render

MAX_MESSAGE = 4096  # characters: every legal message is far shorter
WS_MAX_SIZE = 4 * MAX_MESSAGE  # bytes: MAX_MESSAGE characters of UTF-8 at most
FIELDS: dict[str, dict[str, type]] = {  # the client's messages and their fields
    "move": {"move": str},
    "hint": {},
    "undo": {},
    "next_hand": {},
    "deal_now": {},  # the host of a table: the next hand without waiting for everybody
    "lang": {"lang": str},
    "sync": {},
    "ping": {},
    "say": {"say": str},  # a quick message (a table's people only)
}
ID_MAX = 2**31 - 1  # a request id that is a number: 0 to ID_MAX
ID_LENGTH = 32  # a request id that is a string: 1 to ID_LENGTH of ID_CHARS
ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:")
CLOSE_NO_KEY = 4401  # the socket did not say first whose key it has (or gave a bad one)
CLOSE_NOT_HUMAN = 4403
CLOSE_NO_GAME = 4404
CLOSE_CORRUPT = 4422


RequestId = int | str


class BadMessage(CanastaError):
    """A client message that is not one of the protocol's (a ``protocol.*`` code); ``id``: the
    message's own request id when it gave a valid one (its error echoes it, so the client knows
    what was refused)."""

    def __init__(self, code: str, request: RequestId | None = None, /, **params: Any) -> None:
        super().__init__(code, **params)
        self.id = request


def sendable(text: str) -> str:
    """``text`` as valid UTF-8: a client may send what JSON allows but UTF-8 cannot carry
    (a lone surrogate), and an error message may quote it back."""
    return text.encode("utf-8", "replace").decode("utf-8")


#: pydantic's error types for a value that is no whole number (the parameters that FastAPI
#: checks are the whole numbers 'limit' and 'hand').
NOT_WHOLE: Final = frozenset({"int_parsing", "int_from_float", "int_type"})


def request_problem(errors: Sequence[Any]) -> BadMessage:
    """Why FastAPI refused a request's parameters, by code (pydantic's own words are English
    only): the first problem it found, with the parameter's name and the value given."""
    first = errors[0] if errors else {}
    name = repr(str(first.get("loc", ("", "?"))[-1]))
    kind = first.get("type")
    if kind == "missing":
        return BadMessage("protocol.request_needs", name=name)
    if kind in NOT_WHOLE:
        return BadMessage("protocol.whole_number", name=name, value=repr(first.get("input")))
    return BadMessage("protocol.invalid_field", name=name)


def error_json(error: CanastaError | str, lang: str) -> dict[str, Any]:
    """An error for the client: ``message`` in the player's language, ``english`` as the API
    says it (in the notation), and the refusal's ``code`` and ``params`` (docs/PROTOCOL.md).
    A plain text (a malformed request: the developer's error) has the code ``error.uncoded``."""
    e = error if isinstance(error, CanastaError) else CanastaError(error)
    return {"message": sendable(render(e, lang if lang in LANGS else "en")),
            "english": sendable(str(e)), "code": e.code,
            "params": json_safe(params_json(e.params))}


def json_safe(value: Any) -> Any:
    """``value`` with its texts made valid UTF-8 (``sendable``): a parameter may quote the
    client's text back."""
    if isinstance(value, str):
        return sendable(value)
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_safe(v) for v in value]
    return value


def request_lang(request: Request) -> str:
    """The language a request asks for (its Accept-Language header; English otherwise)."""
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"


class _Repeated(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Repeated(key)
        out[key] = value
    return out


def loads(text: str | bytes, what: str) -> Any:
    """JSON ``text`` of a client's ``what`` ("message" or "request"); raises BadMessage when it
    is not JSON or an object in it names a field twice (JSON would keep the last one silently,
    where the client may have meant the first)."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except _Repeated as e:
        raise BadMessage("protocol.message_field_twice" if what == "message"
                         else "protocol.request_field_twice", name=repr(sendable(e.name))) from None
    except (ValueError, RecursionError):
        raise BadMessage("protocol.message_not_json" if what == "message"
                         else "protocol.request_not_json") from None


def request_id(data: dict[str, Any]) -> RequestId | None:
    """A message's ``id`` (None when it gives none): what the server echoes in its answer.
    Only small values are taken, so that an echo is never larger or stranger than the
    client's own message; anything else raises BadMessage."""
    if "id" not in data:
        return None
    value = data["id"]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= ID_MAX:
        return value
    if isinstance(value, str) and 0 < len(value) <= ID_LENGTH and set(value) <= ID_CHARS:
        return value
    raise BadMessage("protocol.bad_id", most=ID_MAX, length=ID_LENGTH)


def parse_message(text: str) -> dict[str, Any]:
    """Check a client message against the protocol; raises BadMessage saying what is wrong
    (carrying the message's id once that is known to be valid)."""
    if len(text) > MAX_MESSAGE:
        raise BadMessage("protocol.message_too_long")
    data = loads(text, "message")
    if not isinstance(data, dict):
        raise BadMessage("protocol.not_object")
    rid = request_id(data)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise BadMessage("protocol.unknown_type", rid, text=repr(kind), known=", ".join(FIELDS))
    fields = FIELDS[kind]
    unknown = sorted(set(data) - set(fields) - {"type", "id"})
    if unknown:
        raise BadMessage("protocol.unknown_fields", rid, text=repr(kind), names=", ".join(unknown))
    for name, typ in fields.items():
        if name not in data:
            raise BadMessage("protocol.needs_field", rid, text=repr(kind), name=repr(name))
        if not isinstance(data[name], typ):
            raise BadMessage("protocol.field_type", rid, name=repr(name), text=typ.__name__)
    return data


def answering(message: dict[str, Any], rid: RequestId | None) -> dict[str, Any]:
    """``message`` as the answer to the request ``rid`` (unchanged when it had no id)."""
    return message if rid is None else {**message, "id": rid}



async def hello_of(ws: WebSocket, fields: frozenset[str], wait: float) -> dict[str, Any] | None:
    """A socket's first message when it is a hello, ``{"type": "hello", ...}`` with no field but
    ``fields`` beside its type, sent within ``wait`` seconds (TimeoutError past them); None for
    any other first message (BadMessage for text that is not JSON)."""
    async with asyncio.timeout(wait):
        first = await ws.receive()
    text = first.get("text")
    msg = loads(text, "message") if isinstance(text, str) and len(text) <= MAX_MESSAGE else None
    if not isinstance(msg, dict) or msg.get("type") != "hello" or set(msg) - fields - {"type"}:
        return None
    return msg
