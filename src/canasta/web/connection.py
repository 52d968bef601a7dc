"""One WebSocket of the game server, in both directions, so that nobody ever waits for a slow
reader (docs/PROTOCOL.md, "Closing").

What the server sends a socket waits in that socket's own bounded queue, and one writer task per
socket empties it: a broadcast only puts a message into each queue, which never blocks (the
game's lock is held while it does).  The socket's own reader task also writes what is queued
once it has handled a request (outside the lock): the answer leaves at once rather than on the
writer's turn of the event loop, which costs the most when computer players' threads hold the
interpreter.  A client that stops reading fills its queue and is closed with
``CLOSE_LAGGING``; a client that sends nothing for ``IDLE_TIMEOUT`` seconds (the browser client
pings every minute) is closed with ``CLOSE_IDLE``.  Either client reconnects and is sent the
present state, so nothing is lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

SEND_QUEUE = 64  # messages waiting for one socket (a computer round is a few dozen at most)
IDLE_TIMEOUT = 300.0  # seconds without a message from the client (it pings every 60)
CLOSE_WAIT = 10.0  # seconds the close of a lagging socket may wait behind what it has not read
CLOSE_LAGGING = 1013  # "try again later": the client fell behind; reconnecting resyncs it
CLOSE_IDLE = 4408  # the client sent nothing for IDLE_TIMEOUT seconds
CLOSE_FAILED = 1011  # the server failed while serving the socket
log = logging.getLogger("canasta.web")

# Starlette reports a socket whose client has gone as one of these, depending on when it went.
GONE = (WebSocketDisconnect, RuntimeError, OSError)


def dumps(message: dict[str, Any]) -> str:
    """A message as the socket sends it (compact, UTF-8 left as it is)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Connection:
    """An accepted WebSocket: ``send`` queues, ``receive`` reads, ``flush`` writes from the
    reader, ``finish`` ends it."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.closing: tuple[int, str] | None = None  # the close the server asked for
        self._left = False  # the client closed the connection (or the network lost it)
        self._stopped = False  # nothing more can be written
        self._pending: deque[str] = deque()
        self._wake = asyncio.Event()  # something to write, or the close
        self._sending = asyncio.Lock()  # one writer at a time, taking messages in order
        self._waiting: asyncio.Timeout | None = None  # the reader's wait, cut short by close()
        self._writer = asyncio.create_task(self._write())

    @property
    def open(self) -> bool:
        return self.closing is None and not self._left and not self._stopped

    def send(self, message: dict[str, Any]) -> bool:
        return self.send_text(dumps(message))

    def send_text(self, text: str) -> bool:
        """Queue ``text``; False when the connection is closing or over (and when its queue is
        full, which closes it: its client will reconnect)."""
        if not self.open:
            return False
        if len(self._pending) >= SEND_QUEUE:
            self.close(CLOSE_LAGGING, "too far behind: reconnect")
            return False
        self._pending.append(text)
        self._wake.set()
        return True

    def close(self, code: int, reason: str) -> None:
        """Close the connection with ``code``: what is still queued is dropped (the client is
        sent the present state when it reconnects), and the close is sent as soon as the
        message being written is."""
        if not self.open:
            return
        self.closing = (code, reason)
        self._pending.clear()
        self._wake.set()
        self._interrupt()

    def _interrupt(self) -> None:
        """End the reader's pending wait at once (the connection is over)."""
        if self._waiting is not None and not self._waiting.expired():
            self._waiting.reschedule(asyncio.get_running_loop().time())

    async def receive(self) -> str | bytes | None:
        """The client's next message (text, or bytes it should not send); None once the
        connection is over: the client left, the server is closing it, or the client sent
        nothing for IDLE_TIMEOUT seconds (which closes it)."""
        if not self.open:
            return None
        try:
            async with asyncio.timeout(IDLE_TIMEOUT) as waiting:
                self._waiting = waiting
                try:
                    message = await self.ws.receive()
                finally:
                    self._waiting = None
        except TimeoutError:
            self.close(CLOSE_IDLE, "idle: reconnect")  # (nothing if it is closing already)
            return None
        if message["type"] == "websocket.disconnect":
            self._left = True
            return None
        text = message.get("text")
        return text if isinstance(text, str) else bytes(message.get("bytes") or b"")

    async def flush(self) -> None:
        """Write what is queued from the reader's task, unless the writer is at it already.
        A client that does not read holds up only its own reader, until it is closed."""
        if not self._pending or self._sending.locked() or not self.open:
            return
        try:
            async with asyncio.timeout(None) as waiting:
                self._waiting = waiting
                try:
                    async with self._sending:
                        await self._send_pending()
                finally:
                    self._waiting = None
        except TimeoutError:
            pass  # it is being closed: the writer sends the close
        except GONE:
            self._stopped = True  # the client has gone

    async def finish(self) -> None:
        """End the connection (its endpoint's last step).  A close the server asked for gets
        CLOSE_WAIT seconds to be written (a client that does not read never gets it, and
        reconnects when its connection drops); a client that left needs nothing more."""
        self.close(CLOSE_FAILED, "server error")  # only when nothing else ended it
        if self.closing is not None and not self._left and not self._stopped:
            await asyncio.wait({self._writer}, timeout=CLOSE_WAIT)
        self._writer.cancel()

    async def _send_pending(self) -> None:
        while self._pending:
            await self.ws.send_text(self._pending.popleft())

    async def _write(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                async with self._sending:
                    await self._send_pending()
                    if self.closing is not None:
                        await self.ws.close(*self.closing)
                        return
        except GONE:
            pass  # the client has gone: there is no one to write to
        except Exception:
            log.exception("writing to a socket failed")
        finally:
            self._stopped = True
            self._interrupt()
