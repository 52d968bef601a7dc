// Test doubles for the client's DOM-free modules: a WebSocket the test drives by hand, timers
// on a clock the test moves, and the English catalogue installed without fetching.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const STATIC = fileURLToPath(new URL("../../src/canasta/web/static/", import.meta.url));

export const LOCALE = fileURLToPath(new URL("../../src/canasta/locale/", import.meta.url));

export async function english() {
  const i18n = await import(`${STATIC}js/i18n.js`);
  i18n.setCatalogue("en", i18n.parsePo(readFileSync(`${LOCALE}en.po`, "utf8")));
  i18n.setLang("en", { remember: false });
  return i18n;
}

/** Timers on a clock that moves only when the test says (`advance`), and a WebSocket whose
 * instances (`sockets`) the test opens, feeds and drops. */
export function fakeEnv() {
  let now = 0;
  let seq = 0;
  const timers = new Map();
  const sockets = [];

  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.sent = [];
      this.listeners = {};
      sockets.push(this);
    }

    addEventListener(type, fn) {
      (this.listeners[type] ||= []).push(fn);
    }

    emit(type, ev = {}) {
      for (const fn of this.listeners[type] || []) fn(ev);
    }

    open() {
      this.readyState = 1;
      this.emit("open");
    }

    receive(msg) {
      this.emit("message", { data: typeof msg === "string" ? msg : JSON.stringify(msg) });
    }

    drop(code) {
      this.readyState = 3;
      this.emit("close", { code });
    }

    send(text) {
      this.sent.push(JSON.parse(text));
    }

    close(code) {
      this.readyState = 3;
      this.closedWith = code;
    }
  }

  const env = {
    WebSocket: FakeSocket,
    setTimeout: (fn, ms) => { timers.set(++seq, { at: now + ms, fn, every: 0 }); return seq; },
    clearTimeout: (id) => timers.delete(id),
    setInterval: (fn, ms) => { timers.set(++seq, { at: now + ms, fn, every: ms }); return seq; },
    clearInterval: (id) => timers.delete(id),
  };

  /** Move the clock by `ms`, firing every timer due on the way, in time order. */
  async function advance(ms) {
    const end = now + ms;
    for (;;) {
      let next = null;
      for (const [id, timer] of timers) if (timer.at <= end && (!next || timer.at < next[1].at)) next = [id, timer];
      if (!next) break;
      const [id, timer] = next;
      now = timer.at;
      if (timer.every) timer.at += timer.every;
      else timers.delete(id);
      timer.fn();
      await settle();
    }
    now = end;
    await settle();
  }

  return { env, sockets, advance, pending: () => timers.size };
}

/** Let promise continuations run (the state queue awaits its sleeps). */
export function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}
