"""One WebSocket of the game server, in both directions, so that nobody ever waits for a slow
reader (docs/PROTOCOL.md, "Closing").

What the server sends a socket waits in that socket's own bounded queue, and one writer task per
socket empties it: a broadcast only puts a message into each queue, which never blocks (the
game's lock is held while it does).  A client that stops reading fills its queue and is closed
with ``CLOSE_LAGGING``; a client that sends nothing for ``IDLE_TIMEOUT`` seconds (the browser
client pings every minute) is closed with ``CLOSE_IDLE``.  Either client reconnects and is sent
the present state, so nothing is lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
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
    """An accepted WebSocket: ``send`` queues, ``receive`` reads, ``finish`` ends it."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.closing: tuple[int, str] | None = None  # the close the server asked for
        self._left = False  # the client closed the connection (or the network lost it)
        self._stopped = False  # the writer has ended: nothing more can be sent
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(SEND_QUEUE)
        self._receiving: asyncio.Timeout | None = None
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
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(CLOSE_LAGGING, "too far behind: reconnect")
            return False
        return True

    def close(self, code: int, reason: str) -> None:
        """Close the connection with ``code``: what is still queued is dropped (the client is
        sent the present state when it reconnects), and the close is sent as soon as the
        message being written is."""
        if not self.open:
            return
        self.closing = (code, reason)
        while not self._queue.empty():
            self._queue.get_nowait()
        self._queue.put_nowait(None)
        self._interrupt()

    def _interrupt(self) -> None:
        """End the client's pending ``receive`` at once (the connection is over)."""
        if self._receiving is not None and not self._receiving.expired():
            self._receiving.reschedule(asyncio.get_running_loop().time())

    async def receive(self) -> str | bytes | None:
        """The client's next message (text, or bytes it should not send); None once the
        connection is over: the client left, the server is closing it, or the client sent
        nothing for IDLE_TIMEOUT seconds (which closes it)."""
        if not self.open:
            return None
        try:
            async with asyncio.timeout(IDLE_TIMEOUT) as receiving:
                self._receiving = receiving
                try:
                    message = await self.ws.receive()
                finally:
                    self._receiving = None
        except TimeoutError:
            self.close(CLOSE_IDLE, "idle: reconnect")  # (nothing if it is closing already)
            return None
        if message["type"] == "websocket.disconnect":
            self._left = True
            return None
        text = message.get("text")
        return text if isinstance(text, str) else bytes(message.get("bytes") or b"")

    async def finish(self) -> None:
        """End the connection (its endpoint's last step).  A client that left needs nothing
        more; a close the server asked for gets CLOSE_WAIT seconds to be written (a client
        that does not read never gets it, and reconnects when its connection drops)."""
        if self._left:
            self._writer.cancel()
            return
        self.close(CLOSE_FAILED, "server error")  # only when nothing else ended it
        done, _pending = await asyncio.wait({self._writer}, timeout=CLOSE_WAIT)
        if not done:
            self._writer.cancel()

    async def _write(self) -> None:
        try:
            while (text := await self._queue.get()) is not None:
                await self.ws.send_text(text)
            if self.closing is not None:
                await self.ws.close(*self.closing)
        except GONE:
            pass  # the client has gone: there is no one to write to
        except Exception:
            log.exception("writing to a socket failed")
        finally:
            self._stopped = True
            self._interrupt()
