// The HTTP API, and where a game's WebSocket is (connection.js speaks on it).
import { deviceKey } from "./device.js";
import { lang } from "./i18n.js";

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function api(path, { method = "GET", body, key } = {}) {
  // The server writes its refusals in the language asked for: the one the player chose.
  const init = { method, headers: { Accept: "application/json", "Accept-Language": lang() } };
  // Keys go in headers, never in the URL: the device's with every request (its games are its
  // own, docs/PROTOCOL.md, "Devices"), a table's where it has one ("Tables").
  init.headers["X-Canasta-Device"] = deviceKey();
  if (key) init.headers["X-Canasta-Key"] = key;
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

const tablePath = (id) => `/api/tables/${encodeURIComponent(id)}`;
export const openTable = (options) => api("/api/tables", { method: "POST", body: options });
export const getTable = (id, key) => api(tablePath(id), { key });
export const joinTable = (id, key, body) => api(`${tablePath(id)}/join`, { method: "POST", body, key });
/** This device's person's statistics and games (their seats at tables), when it has a key. */
export const getPersonStats = () => api("/api/person/stats");
export const fillTable = (id, key) => api(`${tablePath(id)}/fill`, { method: "POST", body: {}, key });
export const getTableReplay = (id, key, hand) =>
  api(`${tablePath(id)}/replay?hand=${encodeURIComponent(hand)}`, { key });
export const newLinks = (id, key) => api(`${tablePath(id)}/links`, { method: "POST", body: {}, key });
export const startTable = (id, key) => api(`${tablePath(id)}/start`, { method: "POST", body: {}, key });
export const handSeat = (id, key, seat, computer) =>
  api(`${tablePath(id)}/seats/${seat}`, { method: "POST", body: { computer }, key });

export function tableSocketUrl(id, play = false) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(id)}${play ? "/play" : ""}`;
}

export function socketUrl(id, seat = 0) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/games/${encodeURIComponent(id)}/${seat}`;
}
