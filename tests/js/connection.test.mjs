// The game's connection without a browser: numbered requests and their answers, the queue of
// states, reconnecting, pinging.
import { test } from "node:test";
import assert from "node:assert/strict";
import { STATIC, fakeEnv, settle } from "./fakes.mjs";

const { ANSWER_MS, GameConnection, KEEPALIVE_MS } = await import(`${STATIC}js/connection.js`);

function state(n, { seat = null, id, waiting = false, paused = false } = {}) {
  const msg = {
    type: "state", view: { n, seat: 0 }, last: seat === null ? null : { seat, move: `m${n}` },
    can_undo: false, waiting, paused,
  };
  if (id !== undefined) msg.id = id;
  return msg;
}

function connect(callbacks = {}) {
  const fake = fakeEnv();
  const seen = { shown: [], errors: [], hints: [], closes: [], pauses: [] };
  const conn = new GameConnection("ws://test/ws/games/g/0", {
    onShow: (msg, fresh) => seen.shown.push([msg.view.n, fresh]),
    onError: (msg, request) => seen.errors.push([msg.english, request]),
    onHint: (msg) => seen.hints.push(msg.move),
    onClose: (info) => seen.closes.push(info),
    onPause: (paused) => seen.pauses.push(paused),
    ...callbacks,
  }, { env: fake.env });
  return { conn, fake, seen, socket: () => fake.sockets[fake.sockets.length - 1] };
}

test("requests are numbered and an answer is matched by its id, not by who moved", () => {
  const { conn, seen, socket } = connect();
  socket().open();
  socket().receive(state(1));
  assert.deepEqual(seen.shown, [[1, true]]);
  assert.equal(conn.busy, false);
  const id = conn.request({ type: "move", move: "draw" });
  assert.equal(id, 1);
  assert.deepEqual(socket().sent, [{ type: "move", move: "draw", id: 1 }]);
  assert.equal(conn.busy, true);
  // The player's own move, made in another tab: news, not the answer (it carries no id).
  socket().receive(state(2, { seat: 0 }));
  assert.equal(conn.pending.size, 1);
  socket().receive(state(3, { seat: 0, id: 1 }));
  assert.equal(conn.pending.size, 0);
  assert.equal(conn.request({ type: "undo" }), 2);
});

test("an error answers the request whose id it carries; one without an id is news", () => {
  const { conn, seen, socket } = connect();
  socket().open();
  socket().receive(state(1));
  const hint = conn.request({ type: "hint" });
  assert.equal(conn.awaiting("hint"), true);
  socket().receive({ type: "error", english: "the computer players stopped" });
  assert.equal(conn.awaiting("hint"), true);
  socket().receive({ type: "error", english: "no hint can be given now", id: hint });
  assert.equal(conn.awaiting("hint"), false);
  assert.deepEqual(seen.errors, [
    ["the computer players stopped", null],
    ["no hint can be given now", { id: hint, type: "hint" }],
  ]);
  conn.request({ type: "hint" });
  socket().receive({ type: "hint", move: "draw", reason: "", id: 999 }); // not ours: ignored as an answer
  assert.equal(conn.awaiting("hint"), true);
});

test("states are shown one by one, the computer players' at the player's pace", async () => {
  const { conn, fake, seen, socket } = connect({ delayFor: (msg) => (msg.last && msg.last.seat !== 0 ? 700 : 0) });
  socket().open();
  socket().receive(state(1, { waiting: true }));
  socket().receive(state(2, { seat: 1, waiting: true }));
  socket().receive(state(3, { seat: 2 }));
  await settle();
  assert.deepEqual(seen.shown, [[1, true]]);
  assert.equal(conn.busy, true); // the states wait to be shown
  await fake.advance(700);
  assert.deepEqual(seen.shown, [[1, true], [2, false]]);
  await fake.advance(700);
  assert.deepEqual(seen.shown, [[1, true], [2, false], [3, false]]);
  assert.equal(conn.busy, false);
  assert.equal(conn.settled, true);
});

test("a pause is told at once, ahead of the states still waiting to be shown", async () => {
  const { fake, seen, socket } = connect({ delayFor: () => 500 });
  socket().open();
  socket().receive(state(1));
  socket().receive(state(2, { seat: 1 }));
  socket().receive(state(3, { seat: 1, paused: true }));
  assert.deepEqual(seen.pauses, [true]);
  assert.deepEqual(seen.shown, [[1, true]]);
  await fake.advance(1000);
  socket().receive(state(4, { paused: false }));
  assert.deepEqual(seen.pauses, [true, false]);
});

test("a dropped connection loses its requests and the queue; the new one shows the present at once", async () => {
  const { conn, fake, seen, socket } = connect({ delayFor: () => 500 });
  const first = socket();
  first.open();
  first.receive(state(1));
  conn.request({ type: "lang", lang: "es" });
  first.receive(state(2, { seat: 1 })); // waiting to be shown
  first.drop(1006);
  assert.equal(conn.status, "lost");
  assert.deepEqual(seen.closes, [{ code: 1006, final: false, lost: [{ id: 1, type: "lang" }] }]);
  assert.equal(conn.pending.size, 0);
  assert.equal(fake.sockets.length, 1);
  await fake.advance(500); // the first wait before connecting again
  assert.equal(fake.sockets.length, 2);
  socket().open();
  assert.equal(conn.status, "open");
  socket().receive(state(5));
  await fake.advance(1000);
  assert.deepEqual(seen.shown, [[1, true], [5, true]]);
  // The request numbers go on: an answer to a lost request is never taken for a new one's.
  assert.equal(conn.request({ type: "sync" }), 2);
});

test("the wait before connecting again grows, is skipped after 1013 and 4408, and a refusal is final", async () => {
  const { conn, fake, seen, socket } = connect();
  socket().drop(1006);
  await fake.advance(499);
  assert.equal(fake.sockets.length, 1);
  await fake.advance(1);
  socket().drop(1006);
  await fake.advance(999);
  assert.equal(fake.sockets.length, 2);
  await fake.advance(1);
  assert.equal(fake.sockets.length, 3);
  socket().open();
  socket().drop(1013); // fell behind: back at once, and the wait starts again from the first
  await fake.advance(0);
  assert.equal(fake.sockets.length, 4);
  socket().drop(4404);
  assert.equal(conn.status, "refused");
  assert.equal(seen.closes.at(-1).final, true);
  await fake.advance(60_000);
  assert.equal(fake.sockets.length, 4);
});

test("an open socket pings every minute, and only while it is open", async () => {
  const { conn, fake, socket } = connect();
  socket().open();
  await fake.advance(KEEPALIVE_MS * 3);
  assert.deepEqual(socket().sent, [{ type: "ping" }, { type: "ping" }, { type: "ping" }]);
  conn.close();
  assert.equal(socket().closedWith, 1000);
  await fake.advance(KEEPALIVE_MS * 3);
  assert.equal(socket().sent.length, 3);
  assert.equal(fake.pending(), 0);
});

test("an answer that never comes stops holding the client busy after a while", async () => {
  const { conn, fake, socket } = connect();
  socket().open();
  socket().receive(state(1));
  conn.request({ type: "next_hand" });
  await fake.advance(ANSWER_MS - 1);
  assert.equal(conn.busy, true);
  await fake.advance(1);
  assert.equal(conn.busy, false);
});

test("a request while the socket is not open is not sent and not awaited", () => {
  const { conn, socket } = connect();
  assert.equal(conn.request({ type: "move", move: "draw" }), null);
  assert.deepEqual(socket().sent, []);
  assert.equal(conn.busy, false);
});

test("what is not JSON is ignored, and nothing is shown once the connection is closed", async () => {
  const { conn, fake, seen, socket } = connect({ delayFor: () => 100 });
  socket().open();
  socket().receive("{not json");
  socket().receive(state(1));
  socket().receive(state(2, { seat: 1 }));
  conn.close();
  await fake.advance(1000);
  assert.deepEqual(seen.shown, [[1, true]]);
});

test("a notice is news for the player, told apart from errors", () => {
  const notices = [];
  const { seen, socket } = connect({ onNotice: (msg) => notices.push(msg.code) });
  socket().open();
  socket().receive(state(1));
  socket().receive({ type: "notice", code: "web.repaired", message: "repaired", english: "repaired" });
  assert.deepEqual(notices, ["web.repaired"]);
  assert.deepEqual(seen.errors, []);
});
