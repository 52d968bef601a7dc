// HTTP API and the game's WebSocket.
import { lang } from "./i18n.js";

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function api(path, { method = "GET", body } = {}) {
  // The server writes its refusals in the language asked for: the one the player chose.
  const init = { method, headers: { Accept: "application/json", "Accept-Language": lang() } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError((data && data.error) || `HTTP ${res.status}`, res.status);
  return data;
}

export const getOptions = () => api("/api/options");
/** One page of the games list, the most recently played first; `before`: the previous page's `next`. */
export function listGames({ limit, before } = {}) {
  const query = new URLSearchParams();
  if (limit) query.set("limit", String(limit));
  if (before) query.set("before", before);
  const text = query.toString();
  return api(text ? `/api/games?${text}` : "/api/games");
}
export const getGame = (id) => api(`/api/games/${encodeURIComponent(id)}`);
export const getStats = () => api("/api/stats");
export const createGame = (options) => api("/api/games", { method: "POST", body: options });
export const getReplay = (id, hand) =>
  api(`/api/games/${encodeURIComponent(id)}/replay?hand=${encodeURIComponent(hand)}`);

export const setGameLang = (id, lang) =>
  api(`/api/games/${encodeURIComponent(id)}/lang`, { method: "POST", body: { lang } });

export function socketUrl(id, seat = 0) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/games/${encodeURIComponent(id)}/${seat}`;
}

/**
 * The server's refusals, after which connecting again cannot help: 4403 not a human seat,
 * 4404 no such game, 4422 the saved game cannot be read (an error message comes first).
 */
export const FINAL_CODES = new Set([4403, 4404, 4422]);

/**
 * The server's closes after which connecting again is the cure (the server sends the present
 * state on connecting): 1013 the socket fell too far behind reading what it was sent (the
 * server never waits for one slow reader), 4408 it sent nothing for five minutes.
 */
export const RESYNC_CODES = new Set([1013, 4408]);

/** How often the socket says it is alive: the server closes one silent for five minutes. */
export const KEEPALIVE_MS = 60_000;

/**
 * One game's socket, reconnecting after a dropped connection (not after a refusal: FINAL_CODES),
 * and pinging while it is open, so that a player who thinks for a long time keeps it.
 * Callbacks: onMessage(msg), onOpen(), onClose({code, final}).
 */
export class GameSocket {
  constructor(url, { onMessage, onOpen, onClose } = {}) {
    this.url = url;
    this.onMessage = onMessage || (() => {});
    this.onOpen = onOpen || (() => {});
    this.onClose = onClose || (() => {});
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.timer = null;
    this.keepalive = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      clearInterval(this.keepalive);
      this.keepalive = setInterval(() => this.send({ type: "ping" }), KEEPALIVE_MS);
      this.onOpen();
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      clearInterval(this.keepalive);
      const final = this.closed || FINAL_CODES.has(ev.code);
      this.onClose({ code: ev.code, final });
      if (!final) {
        // A close the server chose (not a failure): come back at once, for the present state.
        const wait = RESYNC_CODES.has(ev.code) ? 0 : Math.min(8000, 500 * 2 ** this.retry++);
        this.timer = setTimeout(() => this.connect(), wait);
      }
    });
  }

  get open() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(obj) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.keepalive);
    if (this.ws) this.ws.close(1000);
  }
}
