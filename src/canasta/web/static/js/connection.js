// One game's connection to the server, with no DOM (docs/PROTOCOL.md, "The WebSocket"):
//   GameSocket      the WebSocket, connecting again after a dropped connection and pinging;
//   StateQueue      the states the server sent, put on screen one by one at the player's pace;
//   GameConnection  both, plus the requests the client has out: each is numbered, the server
//                   echoes the number in its answer, so the client knows which answer is which.
// The WebSocket class and the timers come in as options, so that Node's test runner can drive
// all of it without a browser (tests/js/connection.test.mjs).

/**
 * The server's refusals, after which connecting again cannot help: 4401 no usable key in the
 * first message, 4403 not a human seat, 4404 no such game (or another device's), 4409 a table
 * not started yet, 4422 the saved game cannot be read (an error message comes first).
 */
export const FINAL_CODES = new Set([4401, 4403, 4404, 4409, 4422]);

/**
 * The server's closes after which connecting again is the cure (the server sends the present
 * state on connecting): 1013 the socket fell too far behind reading what it was sent (the
 * server never waits for one slow reader), 4408 it sent nothing for five minutes.
 */
export const RESYNC_CODES = new Set([1013, 4408]);

/** How often the socket says it is alive: the server closes one silent for five minutes. */
export const KEEPALIVE_MS = 60_000;

/** How long a request may wait for its answer before the client stops waiting (never busy for
 * ever if an answer is lost). */
export const ANSWER_MS = 20_000;

const OPEN = 1; // WebSocket.OPEN

function defaultEnv() {
  return {
    WebSocket: globalThis.WebSocket,
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (id) => globalThis.clearTimeout(id),
    setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
    clearInterval: (id) => globalThis.clearInterval(id),
  };
}

/**
 * One game's socket, reconnecting after a dropped connection (not after a refusal: FINAL_CODES),
 * and pinging while it is open, so that a player who thinks for a long time keeps it.
 * Callbacks: onMessage(msg), onOpen(), onClose({code, final}).  `env`: WebSocket and timers.
 */
export class GameSocket {
  constructor(url, { onMessage, onOpen, onClose, env, hello } = {}) {
    this.url = url;
    this.hello = hello || null; // the socket's first message: whose key it has
    this.onMessage = onMessage || (() => {});
    this.onOpen = onOpen || (() => {});
    this.onClose = onClose || (() => {});
    this.env = { ...defaultEnv(), ...env };
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.timer = null;
    this.keepalive = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const env = this.env;
    const ws = new env.WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.hello) ws.send(JSON.stringify(this.hello));
      this.retry = 0;
      env.clearInterval(this.keepalive);
      this.keepalive = env.setInterval(() => this.send({ type: "ping" }), KEEPALIVE_MS);
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
      env.clearInterval(this.keepalive);
      const final = this.closed || FINAL_CODES.has(ev.code);
      this.onClose({ code: ev.code, final });
      if (!final) {
        // A close the server chose (not a failure): come back at once, for the present state.
        const wait = RESYNC_CODES.has(ev.code) ? 0 : Math.min(8000, 500 * 2 ** this.retry++);
        this.timer = env.setTimeout(() => this.connect(), wait);
      }
    });
  }

  get open() {
    return !!this.ws && this.ws.readyState === OPEN;
  }

  send(obj) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  close() {
    this.closed = true;
    this.env.clearTimeout(this.timer);
    this.env.clearInterval(this.keepalive);
    if (this.ws) this.ws.close(1000);
  }
}

/**
 * States waiting to be shown, in the order they came: `show(msg, fresh)` puts one on screen
 * after `delayFor(msg)` milliseconds (the computer players' pace); `onChange()` whenever
 * whether it is still showing changes.
 */
export class StateQueue {
  constructor({ show, delayFor = () => 0, sleep, onChange = () => {} }) {
    this.show = show;
    this.delayFor = delayFor;
    this.sleep = sleep;
    this.onChange = onChange;
    this.items = [];
    this.pumping = false;
    this.stopped = false;
  }

  get length() {
    return this.items.length;
  }

  /** Nothing waiting, nothing being shown. */
  get empty() {
    return !this.pumping && this.items.length === 0;
  }

  push(msg) {
    this.items.push(msg);
    this.pump();
  }

  /** Show `msg` at once, dropping whatever waited (the present, after connecting). */
  showNow(msg) {
    this.items = [];
    this.show(msg, true);
  }

  clear() {
    this.items = [];
  }

  /** No more showing (the screen is going away). */
  stop() {
    this.stopped = true;
    this.items = [];
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    this.onChange();
    while (this.items.length && !this.stopped) {
      const wait = this.delayFor(this.items[0]);
      if (wait > 0) await this.sleep(wait);
      // A reconnection may have emptied the queue while we waited.
      if (this.stopped || !this.items.length) break;
      this.show(this.items.shift(), false);
    }
    this.pumping = false;
    this.onChange();
  }
}

/**
 * A game's connection as the game screen sees it.  Callbacks:
 *   onShow(state, fresh)   a state to put on screen now (fresh: the present after connecting);
 *   onError(msg, request)  an error: the answer to `request` ({id, type}), or news (null);
 *   onHint(msg)            the answer to a hint request;
 *   onPause(paused)        the server started or stopped being able to store the game;
 *   onOpen(), onClose({code, final, lost})  lost: the requests left unanswered;
 *   onChange()             busy or settled may have changed;
 *   delayFor(state)        milliseconds to wait before showing a queued state.
 */
export class GameConnection {
  constructor(url, callbacks = {}, { env, hello } = {}) {
    const nothing = () => {};
    this.cb = {
      onShow: nothing, onError: nothing, onHint: nothing, onPause: nothing, onOpen: nothing,
      onClose: nothing, onChange: nothing, delayFor: () => 0, ...callbacks,
    };
    this.env = { ...defaultEnv(), ...env };
    this.status = "connecting"; // "open", "lost" (connecting again) or "refused" (for good)
    this.closeCode = null;
    this.waiting = false; // the latest state says computer players are still to move
    this.paused = false;
    this.fresh = true; // the next state is the present after (re)connecting
    this.nextId = 1;
    this.pending = new Map(); // id -> {id, type, timer}
    this.queue = new StateQueue({
      show: (msg, fresh) => this.cb.onShow(msg, fresh),
      delayFor: (msg) => this.cb.delayFor(msg),
      sleep: (ms) => new Promise((resolve) => this.env.setTimeout(resolve, ms)),
      onChange: () => this.cb.onChange(),
    });
    this.socket = new GameSocket(url, {
      env: this.env,
      hello,
      onOpen: () => this.opened(),
      onMessage: (msg) => this.received(msg),
      onClose: (info) => this.closed(info),
    });
  }

  get open() {
    return this.status === "open";
  }

  /** Requests out, a state being shown or waiting, or computer players still to move. */
  get busy() {
    return !this.queue.empty || this.waiting || this.pending.size > 0;
  }

  /** Every state on screen and no computer player to move (requests may still be out). */
  get settled() {
    return this.open && this.queue.empty && !this.waiting;
  }

  /** Is a request of this type unanswered? */
  awaiting(type) {
    for (const r of this.pending.values()) if (r.type === type) return true;
    return false;
  }

  /** Send `msg` as a numbered request: its id, or null when the connection is not open. */
  request(msg) {
    const id = this.nextId++;
    if (!this.socket.send({ ...msg, id })) return null;
    const timer = this.env.setTimeout(() => {
      this.pending.delete(id);
      this.cb.onChange();
    }, ANSWER_MS);
    this.pending.set(id, { id, type: msg.type, timer });
    this.cb.onChange();
    return id;
  }

  close() {
    this.queue.stop();
    this.dropPending();
    this.socket.close();
  }

  // ---- the socket's events ---------------------------------------------------------------
  opened() {
    this.status = "open";
    this.fresh = true;
    this.cb.onOpen();
    this.cb.onChange();
  }

  closed({ code, final }) {
    this.status = final ? "refused" : "lost";
    this.closeCode = code;
    // What the server may not have seen is lost: the new connection's state tells the rest.
    const lost = this.dropPending();
    this.queue.clear();
    this.cb.onClose({ code, final, lost });
    this.cb.onChange();
  }

  received(msg) {
    const request = this.answered(msg.id);
    if (msg.type === "state") {
      this.waiting = !!msg.waiting;
      // The pause is news about now, not about the queued moves: told at once.
      if (this.paused !== !!msg.paused) {
        this.paused = !!msg.paused;
        this.cb.onPause(this.paused);
      }
      if (this.fresh) {
        this.fresh = false;
        this.queue.showNow(msg);
      } else {
        this.queue.push(msg);
      }
    } else if (msg.type === "error") {
      this.cb.onError(msg, request);
    } else if (msg.type === "hint") {
      this.cb.onHint(msg, request);
    } else if (msg.type === "notice" && this.cb.onNotice) {
      this.cb.onNotice(msg);
    } else if (msg.type === "said" && this.cb.onSaid) {
      this.cb.onSaid(msg);
    }
    this.cb.onChange();
  }

  /** The request `id` answers (now no longer pending), or null: news nobody asked for. */
  answered(id) {
    const request = id === undefined ? undefined : this.pending.get(id);
    if (!request) return null;
    this.env.clearTimeout(request.timer);
    this.pending.delete(id);
    return { id: request.id, type: request.type };
  }

  dropPending() {
    const lost = [];
    for (const r of this.pending.values()) {
      this.env.clearTimeout(r.timer);
      lost.push({ id: r.id, type: r.type });
    }
    this.pending.clear();
    return lost;
  }
}
