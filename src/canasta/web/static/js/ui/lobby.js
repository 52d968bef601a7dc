// A table with friends before its match (docs/PROTOCOL.md, "Tables"): who sits where and who is
// here, the join form for a friend's link, the host's links (with copy buttons) and actions, and
// the quick messages.  The page's URL is the link: "#table=ID&k=KEY"; the key never leaves the
// browser but in the X-Canasta-Key header and the socket's first message.
import { fill, h, keepFocus } from "../dom.js";
import { has, lang, t } from "../i18n.js";
import {
  fillTable, getTable, handSeat, joinTable, newLinks, startTable, tableSocketUrl,
} from "../net.js";

// The server's list (canasta.web.quick); each reader's own language shows them.
export const QUICK = [
  "hello", "good_luck", "well_played", "nice_canasta", "hurry_up",
  "sorry", "thanks", "one_moment", "good_game", "bye",
];
const LINKS_KEY = (id) => `canasta.table.${id}`; // the host's links, on the host's device
const SEAT_KEY = (id) => `canasta.seat.${id}`; // a seat's key made through the table's link
const FINAL_CLOSES = new Set([4401, 4403, 4404]);
const PING_EVERY = 60000;
const SAID_KEPT = 8;

function stored(name) {
  try {
    return JSON.parse(localStorage.getItem(name) || "null");
  } catch {
    return null;
  }
}

function store(name, value) {
  try {
    localStorage.setItem(name, JSON.stringify(value));
  } catch {
    /* private mode: the links stay on screen only */
  }
}

/** Keep a new table's links (the server gives them once) for the host's lobby. */
export function rememberLinks(links) {
  store(LINKS_KEY(links.id), links);
}

/** The table and key of a link's fragment ("#table=ID&k=KEY"). */
export function parseTableHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  return { id: params.get("table"), key: params.get("k") || "" };
}

export class TableScreen {
  constructor(root, id, key, { onGame, onExit }) {
    this.root = root;
    this.id = id;
    this.key = key;
    this.onGame = onGame;
    this.onExit = onExit;
    this.lobby = null;
    this.error = "";
    this.said = []; // the latest quick messages, oldest first
    this.socket = null;
    this.live = false; // whether the socket has been heard since it (re)connected
    this.retry = 500;
    this.disposed = false;
    this.joinName = (stored("canasta.form") || {}).name || "";
    this.joinSeat = null;
    this.render();
    this.start();
  }

  async start() {
    // A friend who took a seat through the table's link on this device comes back to it.
    const own = stored(SEAT_KEY(this.id));
    try {
      this.lobby = await getTable(this.id, this.key);
      if (this.lobby.you.role === "table" && typeof own === "string") {
        this.useKey(own);
        this.lobby = await getTable(this.id, this.key);
      }
    } catch (err) {
      this.error = t("table.loadError", { error: err.message });
    }
    this.render();
    if (!this.disposed && this.lobby) this.connect();
  }

  useKey(key) {
    this.key = key;
    history.replaceState(null, "", `#table=${encodeURIComponent(this.id)}&k=${encodeURIComponent(key)}`);
  }

  connect() {
    const ws = new WebSocket(tableSocketUrl(this.id));
    this.socket = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", key: this.key, lang: lang() }));
      this.retry = 500;
      this.pinger = setInterval(() => ws.readyState === 1 && ws.send('{"type":"ping"}'), PING_EVERY);
    };
    ws.onmessage = (e) => {
      if (this.disposed) return;
      const msg = JSON.parse(e.data);
      if (msg.type === "lobby") {
        this.live = true; // the socket is heard: what is said at the table reaches this page
        const starting = this.lobby && !this.lobby.started && msg.started;
        this.lobby = msg;
        this.error = "";
        // The host started: everybody at the table goes to the match.
        if (starting && (msg.you.joined || msg.you.role === "watch")) {
          this.onGame();
          return;
        }
      } else if (msg.type === "said") {
        this.said = [...this.said, msg].slice(-SAID_KEPT);
      } else if (msg.type === "error") {
        this.error = msg.error;
      }
      this.render();
    };
    ws.onclose = (e) => {
      clearInterval(this.pinger);
      this.live = false;
      if (this.disposed || FINAL_CLOSES.has(e.code)) return;
      setTimeout(() => !this.disposed && this.connect(), this.retry);
      this.retry = Math.min(8000, this.retry * 2);
    };
  }

  dispose() {
    this.disposed = true;
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
  }

  relabel() {
    // The server keeps each person's language with their seat: tell it the new one.
    if (this.lobby && this.lobby.you.joined && this.socket && this.socket.readyState === 1) {
      this.socket.send(JSON.stringify({ type: "lang", lang: lang() }));
    }
    this.render();
  }

  get variant() {
    return this.lobby ? this.lobby.variant : null;
  }

  get houseRules() {
    return this.lobby ? this.lobby.options : null;
  }

  /** Run a request; its refusal is shown, its lobby (if it answers one) drawn. */
  async act(request) {
    try {
      const answer = await request();
      if (answer && answer.type === "lobby") this.lobby = answer;
      this.error = "";
    } catch (err) {
      this.error = err.message;
    }
    this.render();
  }

  async join(e) {
    e.preventDefault();
    const body = { name: this.joinName.trim() };
    if (this.lobby.you.role === "table") body.seat = Number(this.joinSeat ?? this.freeSeats()[0]);
    await this.act(async () => {
      const answer = await joinTable(this.id, this.key, body);
      if (answer.key) {
        store(SEAT_KEY(this.id), answer.key);
        this.useKey(answer.key);
        if (this.socket) this.socket.close(); // it says hello again, with the seat's key
      }
      return getTable(this.id, this.key);
    });
  }

  freeSeats() {
    return this.lobby.seats.filter((s) => s.kind === "friend" && !s.taken).map((s) => s.seat);
  }

  say(id) {
    if (this.socket && this.socket.readyState === 1) this.socket.send(JSON.stringify({ type: "say", say: id }));
  }

  seatName(seat) {
    const s = this.lobby.seats[seat];
    return s.name || t("start.seat", { n: seat });
  }

  render() {
    if (this.disposed) return;
    const L = this.lobby;
    const error = h("p", { class: "form-error", role: "alert", dataset: { testid: "table-error" } }, this.error);
    if (!L) {
      fill(this.root, h("div", { class: "start" }, h("section", { class: "panel" },
        h("h2", {}, t("table.title")), this.error ? error : h("p", { class: "muted" }, t("app.loading")))));
      return;
    }
    const you = L.you;
    const main = [h("h2", { id: "table-title" }, t("table.title")),
      h("p", { class: "muted" }, `${has(`variant.${L.variant}`) ? t(`variant.${L.variant}`) : L.variant} · ${t("start.nPlayers", { n: L.players })}`
        + (L.clock ? ` · ${t("table.clock", { n: L.clock })}` : "")),
      this.seatsList(), error];
    if (!you.joined && !L.started && you.role !== "watch") main.push(this.joinForm());
    if (you.role === "host") main.push(this.hostActions());
    else if (L.started && (you.joined || you.role === "watch")) {
      main.push(h("p", { dataset: { testid: "table-started" } }, t("table.started")), this.goButton());
    } else if (L.started) { // the table's link, or an invite whose seat a computer took
      main.push(h("p", { dataset: { testid: "table-full" } }, t("table.full")), this.goButton("table.watchGame"));
    }
    else if (you.joined) main.push(h("p", { class: "muted", dataset: { testid: "wait-host" } }, t("table.waitHost")));
    const side = [];
    if (you.role === "host") side.push(this.linksPanel());
    if (you.joined) side.push(this.quickPanel());
    else if (this.said.length) side.push(this.quickPanel());
    // The table is drawn again at every change (a friend sits down, a message is said): the
    // control that has the focus keeps it, and the name being typed its caret.
    keepFocus(this.root, () => fill(this.root, h("div", { class: "start table-lobby" },
      h("section", { class: "panel panel-new", "aria-labelledby": "table-title", dataset: { testid: "lobby", live: this.live ? "yes" : "no" } }, main),
      side.length ? h("div", { class: "start-side" }, side) : null)), "testid");
  }

  seatsList() {
    const L = this.lobby;
    const rows = L.seats.map((s) => {
      const mine = L.you.joined && L.you.seat === s.seat;
      let who;
      if (s.kind === "computer") who = t("table.computer", { level: t(`level.${s.level}`) });
      else if (s.kind === "friend" && s.taken && s.computer) who = t("table.standIn", { name: s.name, level: t(`level.${s.level}`) });
      else if (s.kind === "friend" && !s.taken) who = s.computer ? t("table.computer", { level: t(`level.${s.level}`) }) : t("table.empty");
      else who = s.name;
      const tags = [];
      // Partners are the seats of one side (seat % sides): what a friend choosing a seat asks.
      const me = L.you.joined ? L.you.seat : L.you.role === "invite" ? L.you.seat : 0;
      if (s.seat !== me && L.sides < L.players) {
        tags.push(h("span", { class: "muted" }, (s.seat - me) % L.sides === 0 ? t("start.partner") : t("start.opponent")));
      }
      if (s.kind === "host") tags.push(h("span", { class: "tag tag--open" }, t("table.host")));
      if (mine) tags.push(h("span", { class: "tag tag--won" }, t("table.you")));
      if (s.taken && !s.computer) {
        tags.push(s.present
          ? h("span", { class: "tag tag--won", dataset: { testid: "present" } }, t("table.here"))
          : h("span", { class: "tag tag--lost", dataset: { testid: "away" } }, t("table.away", { name: s.name })));
      }
      let action = null;
      // (a seat a computer plays may be given back with its friend here, not handed over)
      if (L.you.role === "host" && s.kind === "friend" && s.taken && (s.computer || !s.present)) {
        action = h("button", {
          type: "button", class: "btn btn-small", dataset: { testid: `hand-${s.seat}` },
          onclick: () => this.act(() => handSeat(this.id, this.key, s.seat, !s.computer)),
        }, s.computer ? t("table.giveBack") : t("table.handOver"));
      }
      return h("li", { class: "table-seat", dataset: { testid: `seat-${s.seat}`, seat: s.seat } },
        h("span", { class: "muted" }, t("start.seat", { n: s.seat })), " ",
        h("strong", {}, who), " ", tags, action ? " " : null, action);
    });
    return h("div", {}, h("h3", {}, t("table.seats")), h("ul", { class: "table-seats", "aria-live": "polite" }, rows));
  }

  joinForm() {
    const L = this.lobby;
    const free = this.freeSeats();
    const fields = [];
    if (L.you.role === "table") {
      if (!free.length) return h("p", { dataset: { testid: "no-free-seat" } }, t("join.noFreeSeat"));
      if (!free.includes(Number(this.joinSeat))) this.joinSeat = free[0];
      fields.push(h("div", { class: "field" }, h("label", { for: "join-seat" }, t("join.seat")),
        h("select", {
          id: "join-seat", dataset: { testid: "join-seat" },
          onchange: (e) => { this.joinSeat = Number(e.target.value); },
        }, free.map((n) => h("option", { value: n, selected: n === Number(this.joinSeat) }, t("start.seat", { n }))))));
    }
    return h("form", { class: "new-game join-form", novalidate: true, onsubmit: (e) => this.join(e) },
      h("h3", {}, t("join.title")),
      fields,
      h("div", { class: "field" }, h("label", { for: "join-name" }, t("join.name")),
        h("input", {
          id: "join-name", type: "text", autocomplete: "nickname", maxlength: "30", value: this.joinName,
          dataset: { testid: "join-name" }, oninput: (e) => { this.joinName = e.target.value; },
        })),
      h("div", { class: "form-actions" },
        h("button", { type: "submit", class: "btn btn-primary", dataset: { testid: "join" } }, t("join.join"))));
  }

  hostActions() {
    const L = this.lobby;
    if (L.started) {
      return h("div", { class: "form-actions" }, h("p", {}, t("table.started")), this.goButton());
    }
    const empty = L.seats.some((s) => s.kind === "friend" && !s.taken && !s.computer);
    return h("div", { class: "form-actions" },
      empty ? h("button", {
        type: "button", class: "btn", dataset: { testid: "fill" },
        onclick: () => this.act(() => fillTable(this.id, this.key)),
      }, t("table.fill")) : null,
      h("button", {
        type: "button", class: "btn btn-primary btn-large", dataset: { testid: "start-table" },
        onclick: () => this.act(async () => {
          await startTable(this.id, this.key);
          this.onGame();
        }),
      }, t("table.start")));
  }

  goButton(label = "table.goToGame") {
    return h("button", {
      type: "button", class: "btn btn-primary btn-large", dataset: { testid: "go-to-game" }, onclick: () => this.onGame(),
    }, t(label));
  }

  linksPanel() {
    const links = stored(LINKS_KEY(this.id));
    const body = [h("h2", {}, t("table.links")), h("p", { class: "muted field-note" }, t("table.linksNote"))];
    if (!links) {
      body.push(h("p", { class: "muted" }, t("table.linksLost")));
    } else {
      const rows = Object.entries(links.invites).map(([seat, link]) => [`invite-${seat}`, t("table.inviteFor", { n: seat, role: this.seatName(Number(seat)) }), link]);
      rows.push(["table-link", t("table.tableLink"), links.table], ["watch-link", t("table.watchLink"), links.watch]);
      for (const [testid, label, link] of rows) body.push(copyField(testid, label, link));
    }
    body.push(h("p", { class: "muted field-note" }, t("table.newLinksNote")),
      h("button", {
        type: "button", class: "btn btn-small", dataset: { testid: "new-links" },
        onclick: () => this.act(async () => {
          rememberLinks(await newLinks(this.id, this.key));
          return getTable(this.id, this.key);
        }),
      }, t("table.newLinks")));
    return h("section", { class: "panel", dataset: { testid: "links" } }, body);
  }

  quickPanel() {
    const list = h("ul", { class: "quick-said", "aria-live": "polite", dataset: { testid: "quick-said" } },
      this.said.map((m) => h("li", {}, t("quick.said", { name: this.seatName(m.seat), text: has(`quick.${m.say}`) ? t(`quick.${m.say}`) : m.say }))));
    const buttons = this.lobby.you.joined
      ? h("div", { class: "quick-buttons" }, QUICK.map((id) => h("button", {
        type: "button", class: "btn btn-small", dataset: { testid: `quick-${id}` }, onclick: () => this.say(id),
      }, t(`quick.${id}`))))
      : null;
    return h("section", { class: "panel", "aria-labelledby": "quick-title" },
      h("h2", { id: "quick-title" }, t("quick.title")), list, buttons);
  }
}

function copyField(testid, label, link) {
  const id = `link-${testid}`;
  const input = h("input", { id, type: "text", readonly: true, value: link, dataset: { testid } });
  const note = h("span", { class: "muted", "aria-live": "polite" });
  const button = h("button", {
    type: "button", class: "btn btn-small", dataset: { testid: `copy-${testid}` },
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        note.textContent = t("table.copied");
      } catch {
        input.select(); // (no clipboard outside a secure page: the link is selected instead)
        note.textContent = t("table.copyFailed");
      }
    },
  }, t("table.copy"));
  return h("div", { class: "field copy-field" }, h("label", { for: id }, label), h("div", { class: "copy-row" }, input, button, note));
}
