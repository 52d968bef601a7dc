// The game screen: one WebSocket, a queue of states shown one by one, the player's selection
// and staged groups, the action buttons (enabled from view.legal), dialogs and shortcuts.
import { $, fill, h, keepFocus, sleep } from "../dom.js";
import { lang, t, tn, formatNumber } from "../i18n.js";
import { GameSocket, setGameLang, socketUrl } from "../net.js";
import {
  SORT_ORDERS, cardName, cardSymbol, describeMove, moveCards, parseCard, sortOrder, sumValues, takeText,
} from "../cards.js";
import { cardClasses, cardFace, cardInside } from "./cardview.js";
import { historyList, ownSeatBadge, renderFelt, seatName, sideName, sidesOf } from "./table.js";
import { scoreSheet } from "./scoresheet.js";
import { anyDialogOpen, openDialog, openHelp, openRules } from "./dialogs.js";
import { settings } from "../settings.js";

const norm = (text) => parseCard(text).text;

/** Which move keys exist; each action: shortcut, test id, and the catalogue key of its label. */
const ACTIONS = [
  { id: "draw", key: "d", label: "actions.draw" },
  { id: "take", key: "t", label: "actions.take" },
  { id: "meld", key: "m", label: "actions.meld" },
  { id: "add-group", key: "g", label: "actions.addGroup" },
  { id: "add-to", key: "a", label: "actions.addTo" },
  { id: "discard", key: "x", label: "actions.discard" },
  { id: "pass", key: "p", label: "actions.pass" },
  { id: "ask", key: "q", label: "actions.ask" },
  { id: "undo", key: "u", label: "actions.undo" },
  { id: "hint", key: "h", label: "actions.hint" },
  { id: "clear", key: "c", label: "actions.clear" },
  { id: "sort", key: "s", label: "actions.sort" },
  { id: "show-score", key: "k", label: "actions.scoreSheet" },
];

export class GameScreen {
  constructor(root, id, { onExit }) {
    this.root = root;
    this.id = id;
    this.onExit = onExit;
    this.view = null; // the view on screen
    this.shown = null; // the state message on screen
    this.latestWaiting = false;
    this.canUndo = false;
    this.queue = [];
    this.pumping = false;
    this.immediateNext = true; // the first state after (re)connecting is shown at once
    this.selected = new Set(); // indices into view.hand
    this.staged = []; // groups of indices into view.hand
    this.hint = null;
    this.error = "";
    this.caption = () => ""; // the line about the last move, written when shown (any language)
    this.conn = "connecting";
    this.scoreSeenFor = null; // hand number whose score sheet the player closed
    this.answerFor = null;
    this.disposed = false;
    this.pending = 0; // requests sent and not answered yet
    this.hintPending = false; // a hint asked for and not answered yet
    this.toldLang = null; // the language the server was last told (its errors and hints)
    this.fatalKey = null; // the catalogue key of why the server refused the game, if it did
    this.paused = false; // the server cannot store the game now: it goes on once it can
    this.build();
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keyHandler);
    this.setBusy();
    this.start();
  }

  /** Tell the game our language (its errors and hints come in it), then connect. */
  async start() {
    try {
      const code = lang();
      await setGameLang(this.id, code);
      this.toldLang = code;
    } catch {
      /* an unknown game: the socket will say so */
    }
    if (this.disposed) return;
    this.socket = new GameSocket(socketUrl(this.id, 0), {
      onOpen: () => this.onOpen(),
      onMessage: (msg) => this.onMessage(msg),
      onClose: (info) => this.onClose(info),
    });
  }

  dispose() {
    this.disposed = true;
    clearTimeout(this.pendingTimer);
    if (this.resizer) this.resizer.disconnect();
    if (this.socket) this.socket.close();
    document.removeEventListener("keydown", this.keyHandler);
    this.closeDialogs();
  }

  closeDialogs() {
    for (const id of ["#score-dialog", "#answer-dialog", "#addto-dialog", "#history-dialog"]) {
      const d = $(id);
      if (d.open) d.close();
    }
  }

  get variant() {
    return this.view ? this.view.variant : null;
  }

  get houseRules() {
    return this.view ? this.view.house_rules : null;
  }

  // ---- layout, built once; regions are refreshed by render() ------------------------------
  build() {
    this.el = {};
    const e = this.el;
    e.scorebar = h("div", { class: "scorebar", dataset: { testid: "scorebar" } });
    e.status = h("p", { class: "status", role: "status", "aria-live": "polite", dataset: { testid: "status" } });
    // A refusal is shown beside the hand and the buttons, where the player is looking.
    e.alert = h("div", { class: "alert", role: "alert", dataset: { testid: "error" } });
    // After a refusal (no such game, a saved game that cannot be read...): the way out.
    e.back = h("button", {
      type: "button", class: "btn btn-primary", dataset: { testid: "back-to-games" },
      onclick: () => this.onExit(),
    });
    e.fatal = h("p", { class: "fatal", hidden: true }, e.back);
    e.caption = h("p", { class: "caption", "aria-live": "polite", dataset: { testid: "caption" } });
    e.tableTitle = h("h2", { class: "visually-hidden", id: "table-title" });
    e.felt = h("div", { class: "felt-wrap" });
    e.counter = h("p", { class: "lay-count", dataset: { testid: "meld-count" } });
    e.staged = h("div", { class: "staged", dataset: { testid: "staged" } });
    e.handTitle = h("h2", { class: "hand-title", id: "hand-title" });
    e.ownSeat = h("div", { class: "own-seat" });
    e.hand = h("div", { class: "hand", role: "group", "aria-labelledby": "hand-title", dataset: { testid: "hand" } });
    e.buttons = {};
    e.why = {};
    const buttons = ACTIONS.map((a) => {
      // Why the action is unavailable: its tooltip and its accessible description.
      e.why[a.id] = h("span", { class: "visually-hidden", id: `why-${a.id}` });
      const b = h("button", {
        type: "button", class: `btn action action--${a.id}`, "aria-keyshortcuts": a.key,
        dataset: { testid: a.id, focusKey: `act-${a.id}` },
        onclick: () => this.act(a.id),
      }, h("span", { class: "action-label" }), h("kbd", { class: "action-key", "aria-hidden": "true" }, a.key));
      e.buttons[a.id] = b;
      return b;
    });
    e.actions = h("div", { class: "actions", role: "group", "aria-labelledby": "actions-title" },
      h("h2", { class: "visually-hidden", id: "actions-title" }), buttons, Object.values(e.why));
    e.hintBox = h("div", { class: "hint-box", "aria-live": "polite", dataset: { testid: "hint-text" } });
    e.historyButton = h("button", {
      type: "button", class: "btn btn-ghost btn-small", "aria-haspopup": "dialog",
      dataset: { testid: "history" }, onclick: () => openDialog($("#history-dialog")),
    });
    e.history = $("#history-body");
    e.game = h("div", { class: "game game--play" },
      h("div", { class: "game-bar" },
        h("div", { class: "status-row" }, e.status, e.caption),
        e.scorebar),
      e.alert,
      e.fatal,
      e.tableSection = h("section", { class: "table-area", "aria-labelledby": "table-title" }, e.tableTitle, e.felt),
      e.playerArea = h("section", { class: "player-area", "aria-labelledby": "hand-title" },
        h("div", { class: "hand-head" }, e.handTitle, e.ownSeat, e.counter),
        e.staged,
        e.hand,
        e.actions,
        e.hintBox));
    fill(this.root, e.game);
    for (const part of [e.tableSection, e.playerArea]) part.hidden = true;
    // The hand fans out to the room it has: lay it out again whenever that room changes.
    this.resizer = new ResizeObserver(() => this.layoutHand());
    this.resizer.observe(e.hand);
  }

  // ---- connection ----------------------------------------------------------------------------
  onOpen() {
    this.conn = "open";
    this.immediateNext = true;
    this.pending = 0;
    this.hintPending = false;
    // The language may have changed while we were away (or the POST before connecting failed).
    if (lang() !== this.toldLang) this.tellLang();
    this.render();
  }

  /** Tell the server our language over the socket; it answers with a state (counted as pending). */
  tellLang() {
    const code = lang();
    if (this.socket && this.socket.send({ type: "lang", lang: code })) {
      this.toldLang = code;
      this.expectAnswer();
    }
  }

  onClose({ code, final }) {
    if (this.disposed) return;
    this.conn = final ? "refused" : "lost";
    // A request the server may not have seen: tell the language again after reconnecting.
    if (this.pending > 0) this.toldLang = null;
    this.pending = 0;
    this.hintPending = false;
    const reasons = { 4404: "errors.noSuchGame", 4403: "errors.notYourSeat", 4422: "errors.corruptGame" };
    if (final && reasons[code]) {
      this.fatalKey = reasons[code];
      this.error = t(this.fatalKey);
    }
    this.queue = [];
    if (final) this.closeDialogs();
    this.render();
    this.setBusy();
    if (final && !this.el.fatal.hidden) {
      // Offer the way back at once (the alert has announced why), unless the player is elsewhere.
      const active = document.activeElement;
      if (!active || active === document.body || this.root.contains(active)) this.el.back.focus();
    }
  }

  onMessage(msg) {
    if (this.disposed) return;
    if (msg.type === "state") {
      this.latestWaiting = !!msg.waiting;
      // The pause is news about now, not about the queued moves: shown at once.
      const resumed = this.paused && !msg.paused;
      this.paused = !!msg.paused;
      if (resumed) this.error = ""; // the error that paused the game is over
      if (this.view) this.el.status.textContent = this.statusText();
      this.renderAlert();
      // The answer to one of our requests: our move, or an undo / next hand / language (no
      // last move). A computer's move answers nothing. The state sent on connecting neither.
      const seat = this.view ? this.view.seat : 0;
      if (!this.immediateNext && (!msg.last || msg.last.seat === seat)) this.answered();
      if (this.immediateNext) {
        // After (re)connecting: drop anything queued and show the present at once.
        this.immediateNext = false;
        this.queue = [];
        this.apply(msg, true);
        this.setBusy();
        return;
      }
      this.queue.push(msg);
      this.pump();
    } else if (msg.type === "error") {
      this.answered();
      this.hintPending = false;
      this.error = msg.message || msg.english || t("errors.refused");
      this.renderAlert();
      this.setBusy();
    } else if (msg.type === "hint") {
      this.answered();
      this.hintPending = false;
      this.hint = { move: msg.move, reason: msg.reason };
      this.render();
    }
    this.setBusy();
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    this.setBusy();
    while (this.queue.length && !this.disposed) {
      const msg = this.queue[0];
      const bot = msg.last && msg.last.seat !== (this.view ? this.view.seat : 0);
      const delay = settings.delay();
      if (bot && delay > 0 && this.shown) await sleep(delay);
      if (this.disposed) break;
      this.queue.shift();
      this.apply(msg, false);
    }
    this.pumping = false;
    this.setBusy();
  }

  get busy() {
    return this.pumping || this.queue.length > 0 || this.latestWaiting || this.pending > 0;
  }

  /** A request went out: busy until the server answers it (a state, an error or a hint). */
  expectAnswer() {
    this.pending++;
    clearTimeout(this.pendingTimer);
    // Never stay busy for ever if an answer is lost.
    this.pendingTimer = setTimeout(() => { this.pending = 0; this.setBusy(); }, 20000);
    this.setBusy();
  }

  answered() {
    if (this.pending > 0) this.pending--;
    if (!this.pending) clearTimeout(this.pendingTimer);
  }

  setBusy() {
    const idle = !this.busy && this.conn === "open" && this.view !== null;
    if (this.wasIdle !== idle) {
      this.wasIdle = idle;
      // The controls depend on being idle: redraw them before telling the tests we are idle.
      if (this.view) this.render();
    }
    if (!this.disposed) document.body.dataset.busy = idle ? "false" : "true";
    this.updateDialogs();
  }

  // ---- applying a state --------------------------------------------------------------------
  apply(msg, fresh) {
    const old = this.view;
    const view = msg.view;
    const sameHand = old && old.hand_number === view.hand_number &&
      old.hand.length === view.hand.length && old.hand.every((c, i) => c.text === view.hand[i].text);
    if (!sameHand) {
      this.selected.clear();
      this.staged = [];
    }
    if (!sameHand || (old && old.turn !== view.turn) || (msg.last && msg.last.seat === view.seat)) this.hint = null;
    if (msg.last && msg.last.seat === view.seat) this.error = "";
    if (old && old.hand_number !== view.hand_number) this.scoreSeenFor = null;
    this.view = view;
    this.shown = msg;
    this.canUndo = !!msg.can_undo;
    if (msg.last) {
      const { seat, move } = msg.last;
      const points = this.penaltyPoints(old, view, seat);
      this.caption = () => (points ? this.penaltyCaption(seat, points) : this.describe(seat, move));
    } else if (!old || old.hand_number !== view.hand_number) {
      const n = view.hand_number;
      this.caption = fresh ? () => "" : () => t("caption.dealt", { n });
    } else if (view.history.length < old.history.length) {
      this.caption = () => t("caption.undone"); // the last meld was taken back
    }
    this.lastSeat = msg.last ? msg.last.seat : null;
    this.render();
  }

  /** The penalty a move just cost its side (table options: an initial meld below the minimum
   * is taken back for 100 points), told as such rather than as the meld it tried; or 0. */
  penaltyPoints(old, view, seat) {
    if (!old || old.hand_number !== view.hand_number || !view.penalties || !old.penalties) return 0;
    const side = seat % view.sides;
    return Math.max(0, (view.penalties[side] || 0) - (old.penalties[side] || 0));
  }

  penaltyCaption(seat, points) {
    const view = this.view;
    if (seat === view.seat) return t("caption.penaltyYou", { points: formatNumber(points) });
    const who = (view.names && view.names[seat]) || t("seat.computer", { n: seat });
    return t("caption.penalty", { who, points: formatNumber(points) });
  }

  describe(seat, move) {
    const v = this.view;
    const who = v && seat === v.seat ? null : (v && v.names && v.names[seat]) || t("seat.computer", { n: seat });
    return describeMove(move, t, who);
  }

  // ---- rendering -----------------------------------------------------------------------------
  render() {
    // Before the first state (or when the game is refused) there is no table to show yet.
    for (const part of [this.el.tableSection, this.el.playerArea]) part.hidden = !this.view;
    this.placeAlert();
    if (!this.view) {
      this.el.status.textContent = this.statusText();
      this.renderAlert();
      this.renderFatal();
      return;
    }
    this.renderScorebar();
    this.el.tableTitle.textContent = t("game.table");
    this.el.status.textContent = this.statusText();
    this.el.caption.textContent = this.caption();
    this.renderAlert();
    this.renderFatal();
    keepFocus(this.root, () => {
      this.renderFelt();
      this.renderHand();
    });
    this.renderCounter();
    this.renderActions();
    this.renderHint();
    this.renderHistory();
    this.updateDialogs();
  }

  renderAlert() {
    this.el.alert.textContent = this.error;
    this.el.alert.classList.toggle("alert--shown", !!this.error);
  }

  /** The refusal goes beside the hand and the buttons; before there is a table (a game that
   * cannot be played) it stands under the status line. */
  placeAlert() {
    const e = this.el;
    if (this.view) {
      if (e.alert.parentNode !== e.playerArea) e.playerArea.insertBefore(e.alert, e.actions);
    } else if (e.alert.parentNode !== e.game) {
      e.game.insertBefore(e.alert, e.fatal);
    }
  }

  renderFatal() {
    this.el.back.textContent = t("errors.backToGames");
    this.el.fatal.hidden = this.conn !== "refused";
  }

  renderScorebar() {
    const v = this.view;
    const match = v.match || {};
    const scores = match.scores || v.scores || [];
    const sides = sidesOf(v);
    const items = [];
    for (let s = 0; s < sides; s++) {
      items.push(h("li", { class: `score-chip${s === v.side ? " score-chip--own" : ""}`, dataset: { testid: `score-${s}` } },
        h("span", { class: "score-name" }, sideName(v, s)), " ",
        h("strong", {}, formatNumber(scores[s] ?? 0))));
    }
    fill(this.el.scorebar,
      h("p", { class: "scorebar-info" },
        h("span", { class: "variant-name" }, t(`variant.${v.variant}`)), " · ",
        h("span", { dataset: { testid: "hand-number" } }, t("game.handNumber", { n: v.hand_number })), " · ",
        h("span", { dataset: { testid: "match-target" } }, v.hand_limit
          ? t("game.targetOrHands", { target: formatNumber(v.target), hands: v.hand_limit })
          : t("game.target", { target: formatNumber(v.target) }))),
      h("ul", { class: "scores", "aria-label": t("game.scores") }, items),
      this.el.historyButton);
  }

  statusText() {
    const v = this.view;
    if (this.conn === "refused") return t("status.refused");
    if (this.conn === "lost") return t("status.reconnecting");
    if (!v) return t("status.connecting");
    if (this.paused) return t("status.paused");
    if (v.result) {
      if (v.match && v.match.over) return t("status.matchOver");
      return t("status.handOver");
    }
    const legal = v.legal || {};
    if (legal.yes || legal.no) {
      return t("status.answer", { name: seatName(v, v.asking ?? v.partner) });
    }
    if (v.turn === v.seat && v.to_act !== false) {
      if (v.asking === v.seat) return t("status.waitingAnswer", { name: seatName(v, v.partner) });
      let base;
      if (v.phase === "draw") base = legal.pass ? t("status.drawOrPass") : t("status.draw");
      else base = t("status.play");
      if (v.answer === "yes") base = `${t("status.answeredYes")} ${base}`;
      else if (v.answer === "no") base = `${t("status.answeredNo")} ${base}`;
      return base;
    }
    if (v.asking !== null && v.asking !== undefined && v.asking !== v.seat) {
      return t("status.waitingAnswerOf", { asker: seatName(v, v.asking) });
    }
    return t("status.waitingFor", { name: seatName(v, v.turn) });
  }

  renderFelt() {
    const v = this.view;
    const legal = v.legal || {};
    const interactive = !this.busy && this.conn === "open";
    fill(this.el.felt, renderFelt(v, {
      interactive,
      ownSeat: false,
      addRanks: new Set(legal.add || []),
      lastSeat: this.lastSeat,
      onMeld: (rank) => this.addTo(rank),
      onTake: () => this.act("take"),
      onDraw: () => this.act("draw"),
      onDropPile: (e) => this.dropOnPile(e),
      onDropMeld: (rank, e) => this.dropOnMeld(rank, e),
    }));
    fill(this.el.ownSeat, ownSeatBadge(v, { lastSeat: this.lastSeat }));
  }

  stagedSet() {
    return new Set(this.staged.flat());
  }

  hintIndices() {
    const result = new Set();
    if (!this.hint || !this.view) return result;
    const wanted = moveCards(this.hint.move).map(norm);
    const hand = this.view.hand;
    for (const text of wanted) {
      const i = hand.findIndex((c, j) => c.text === text && !result.has(j));
      if (i >= 0) result.add(i);
    }
    return result;
  }

  drawnIndices() {
    const v = this.view;
    const result = new Set();
    let drew = v.drew;
    if (!drew) return result;
    if (typeof drew === "string") drew = drew.split(/\s+/).filter(Boolean);
    for (const d of drew) {
      const text = norm(typeof d === "string" ? d : d.text);
      // The newest copy of the card: search from the end.
      for (let i = v.hand.length - 1; i >= 0; i--) {
        if (v.hand[i].text === text && !result.has(i)) {
          result.add(i);
          break;
        }
      }
    }
    return result;
  }

  renderHand() {
    const v = this.view;
    const order = sortOrder(v.hand, settings.sort());
    const staged = this.stagedSet();
    const hinted = this.hintIndices();
    const drawn = this.drawnIndices();
    // The drawn cards slide in once, not at every redraw.
    const drawKey = drawn.size ? `${v.hand_number}:${v.history ? v.history.length : 0}:${[...drawn].join(",")}` : "";
    const animate = drawKey !== "" && drawKey !== this.animatedDraw;
    if (drawKey) this.animatedDraw = drawKey;
    this.el.handTitle.textContent = t("hand.title", { n: tn("hand.cards", v.hand.length) });
    const buttons = order.filter((i) => !staged.has(i)).map((i) => {
      const c = v.hand[i];
      const described = [drawn.has(i) ? "drawn-note" : "", hinted.has(i) ? "hint-note" : ""]
        .filter(Boolean).join(" ");
      const extra = [hinted.has(i) ? "card--hinted" : "", drawn.has(i) ? "card--drawn" : "",
        drawn.has(i) && animate ? "card--arriving" : ""]
        .filter(Boolean).join(" ");
      return h("button", {
        type: "button",
        class: `${cardClasses(c, extra)} card--hand`,
        "aria-pressed": this.selected.has(i) ? "true" : "false",
        "aria-label": cardName(c, t),
        "aria-describedby": described || null,
        draggable: "true",
        dataset: { card: c.text, index: String(i), focusKey: `card-${i}` },
        onclick: () => this.toggle(i),
        onkeydown: (e) => this.handKey(e),
        ondragstart: (e) => {
          e.dataTransfer.setData("text/plain", String(i));
          e.dataTransfer.effectAllowed = "move";
        },
      }, cardInside(c));
    });
    fill(this.el.hand, buttons.length ? buttons : h("p", { class: "hand-empty" }, t("hand.empty")));
    this.layoutHand();
  }

  /**
   * Fan the hand into the room it has, the way card apps do: cards overlap just enough for one
   * row, down to a step that still shows each card's corner; past that the hand takes another
   * row. Written as CSS variables on the hand (its cards' margins use them).
   */
  layoutHand() {
    const hand = this.el.hand;
    const cards = hand.querySelectorAll(".card--hand");
    const n = cards.length;
    if (!n) return;
    const style = getComputedStyle(hand);
    const room = hand.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const cardW = cards[0].offsetWidth;
    if (!room || !cardW) return;
    const gap = cardW * 0.1;
    const least = cardW * 0.42; // the corner's rank and suit stay readable
    let rows = 1;
    const perRow = () => Math.ceil(n / rows);
    const stepFor = (k) => (k <= 1 ? cardW + gap : Math.min(cardW + gap, (room - cardW) / (k - 1)));
    while (rows < 4 && stepFor(perRow()) < least) rows++;
    const step = Math.max(1, Math.floor(stepFor(perRow()) * 10) / 10);
    hand.style.setProperty("--step", `${step}px`);
    hand.style.setProperty("--over", `${cardW - step}px`);
    hand.dataset.rows = String(rows);
  }

  renderCounter() {
    const v = this.view;
    const cards = [...this.selected, ...this.stagedSet()].map((i) => v.hand[i]).filter(Boolean);
    if (!cards.length || v.result) {
      this.el.counter.textContent = v.minimum ? t("counter.minimum", { minimum: formatNumber(v.minimum) }) : "";
      return;
    }
    // Before the draw, cards are chosen only to take the pile, which lays its top card too:
    // counted as the engine counts it (top_counts).
    const taking = v.phase === "draw" && v.pile_top;
    const points = formatNumber(sumValues(cards) + (taking ? v.top_counts || 0 : 0));
    this.el.counter.textContent = v.minimum
      ? t("counter.layingMinimum", { points, minimum: formatNumber(v.minimum) })
      : t("counter.laying", { points });
  }

  renderStaged() {
    const v = this.view;
    if (!this.staged.length) {
      fill(this.el.staged);
      this.el.staged.hidden = true;
      return;
    }
    this.el.staged.hidden = false;
    fill(this.el.staged,
      h("span", { class: "staged-title" }, t("staged.title")),
      h("ol", { class: "staged-list" }, this.staged.map((g, gi) => h("li", { class: "staged-group" },
        h("span", { class: "staged-cards", role: "img", "aria-label": g.map((i) => cardName(v.hand[i], t)).join(", ") },
          g.map((i) => cardFace(v.hand[i], { extra: "card--small" }))),
        h("button", {
          type: "button", class: "btn btn-small btn-ghost",
          "aria-label": t("staged.removeN", { n: gi + 1 }),
          dataset: { testid: `unstage-${gi}`, focusKey: `unstage-${gi}` },
          onclick: () => { this.staged.splice(gi, 1); this.refreshSelection(); },
        }, "✕")))));
  }

  enabled() {
    const v = this.view;
    const en = {};
    for (const a of ACTIONS) en[a.id] = false;
    en.sort = true;
    if (!v) return en;
    en["show-score"] = !!v.result;
    if (this.busy || this.conn !== "open" || v.result) return en;
    const legal = v.legal || {};
    const nSel = this.selected.size;
    const nStaged = this.staged.length;
    en.draw = !!legal.draw;
    en.take = !!legal.take;
    en.meld = !!legal.meld && (nSel > 0 || nStaged > 0);
    en["add-group"] = nSel > 0 && (!!legal.meld || !!legal.take);
    en["add-to"] = nSel > 0 && (legal.add || []).length > 0;
    const discards = new Set((legal.discard || []).map((c) => norm(typeof c === "string" ? c : c.text)));
    en.discard = nSel === 1 && nStaged === 0 && discards.has(v.hand[[...this.selected][0]].text);
    en.pass = !!legal.pass;
    en.ask = !!legal.ask;
    en.undo = this.canUndo;
    en.hint = (v.turn === v.seat && !!v.to_act) || !!legal.yes;
    en.clear = nSel > 0 || nStaged > 0;
    return en;
  }

  /** Why an action is unavailable now (null when it is available): the server's reason (the
   * engine's, in the player's language) where the rules decide, else what the client waits for. */
  whyNot(id, en) {
    if (en[id]) return null;
    const v = this.view;
    if (this.conn !== "open") return t("why.offline");
    if (!v) return t("why.busy");
    if (v.result) return t("why.handOver");
    if (this.busy) return t("why.busy");
    if (id === "undo") return t("why.noUndo");
    if (id === "clear") return t("why.nothingToClear");
    const legal = v.legal || {};
    if (!(v.turn === v.seat && v.to_act) && !legal.yes && !legal.no) {
      return t("why.notYourTurn", { name: seatName(v, v.asking ?? v.turn) });
    }
    if (id === "hint") return t("why.noHint");
    const server = v.unavailable || {};
    const nSel = this.selected.size;
    const nStaged = this.staged.length;
    const choose = t("why.chooseCards");
    switch (id) {
      case "draw": case "take": case "pass": case "ask":
        return server[id] || t("why.notNow");
      case "meld": return server.meld || choose;
      case "add-group": return legal.meld || legal.take ? choose : server.meld || t("why.notNow");
      case "add-to": return server.add || choose;
      case "discard": {
        if (server.discard) return server.discard;
        if (nStaged) return t("why.finishStaging");
        if (nSel !== 1) return nSel ? t("why.chooseOne") : choose;
        const card = v.hand[[...this.selected][0]];
        return (server.discard_cards && server.discard_cards[card.text]) || t("why.notNow");
      }
      default: return t("why.notNow");
    }
  }

  renderActions() {
    const en = this.enabled();
    this.el.actions.querySelector("#actions-title").textContent = t("actions.title");
    for (const a of ACTIONS) {
      const b = this.el.buttons[a.id];
      let label = t(a.label);
      let extra = "";
      if (a.id === "sort") {
        // "Order" and, where there is room for it, ": by rank, high to low".
        const full = t("actions.sortBy", { order: t(`sort.${settings.sort()}`) });
        if (full.startsWith(label)) extra = full.slice(label.length);
        else label = full;
      }
      const labelEl = b.querySelector(".action-label");
      if (extra) fill(labelEl, label, h("span", { class: "action-extra" }, extra));
      else labelEl.textContent = label;
      const hide = (a.id === "show-score" && !(this.view && this.view.result)) ||
        (a.id === "pass" && !en.pass) || (a.id === "ask" && !(this.view && this.view.partner !== null && this.view.partner !== undefined));
      b.hidden = !!hide;
      // Unavailable, not disabled: the button stays focusable and, pressed, says why.
      const why = this.whyNot(a.id, en);
      b.setAttribute("aria-disabled", why ? "true" : "false");
      if (why) {
        b.title = why;
        b.setAttribute("aria-describedby", `why-${a.id}`);
      } else {
        b.removeAttribute("title");
        b.removeAttribute("aria-describedby");
      }
      this.el.why[a.id].textContent = why || "";
    }
    this.renderStaged();
  }

  renderHint() {
    if (!this.hint) {
      fill(this.el.hintBox);
      this.el.hintBox.hidden = true;
      return;
    }
    this.el.hintBox.hidden = false;
    fill(this.el.hintBox,
      h("p", {}, h("strong", {}, t("hint.label")), " ", describeMove(this.hint.move, t, null, { hint: true })),
      this.hint.reason ? h("p", { class: "hint-reason" }, this.hint.reason) : null);
  }

  renderHistory() {
    const v = this.view;
    const n = (v.history || []).length;
    this.el.historyButton.textContent = t("history.open", { n });
    $("#history-title").textContent = t("history.title", { n });
    fill(this.el.history, n ? historyList(v, (seat, move) => this.describe(seat, move)) : h("p", {}, t("history.empty")));
  }

  // ---- dialogs: answer the partner, score sheet -----------------------------------------------
  updateDialogs() {
    const v = this.view;
    if (!v) return;
    const idle = !this.busy && this.conn === "open";
    const answer = $("#answer-dialog");
    const legal = v.legal || {};
    // The question opens once every queued state is on screen and nothing of ours is out.
    // Once open it stays while the question stands: nothing but our answer changes it, so a
    // hint or a language change asked from under it must not close it (and lose the focus).
    const asked = (legal.yes || legal.no) && !v.result;
    const settled = this.conn === "open" && !this.pumping && !this.queue.length && !this.latestWaiting;
    if (asked && this.conn === "open" && (answer.open || (settled && this.pending === 0))) {
      $("#answer-text").textContent = t("answer.text", { name: seatName(v, v.asking ?? v.partner) });
      $("#answer-yes").disabled = !legal.yes;
      $("#answer-no").disabled = !legal.no;
      $("#answer-yes").onclick = () => { answer.close(); this.sendMove("yes"); };
      $("#answer-no").onclick = () => { answer.close(); this.sendMove("no"); };
      const hintButton = $("#answer-hint-button");
      hintButton.onclick = () => this.answerHint();
      hintButton.setAttribute("aria-disabled", this.hintPending ? "true" : "false");
      $("#answer-rules").onclick = () => openRules(v.variant, v.house_rules);
      this.fillAnswerHint();
      answer.dataset.dismissable = "false";
      answer.oncancel = (e) => e.preventDefault();
      if (!answer.open) openDialog(answer);
    } else if (answer.open) {
      answer.close();
    }
    const score = $("#score-dialog");
    if (idle && v.result && this.scoreSeenFor !== v.hand_number) {
      this.fillScore();
      if (!score.open) openDialog(score);
    } else if (score.open && !v.result) {
      score.close();
    } else if (score.open) {
      this.fillScore();
    }
  }

  /** The hint inside the answer dialog: the suggested answer and why (or that it is coming). */
  fillAnswerHint() {
    const box = $("#answer-hint");
    let key = "";
    let parts = [];
    if (this.hint) {
      const advice = describeMove(this.hint.move, t, null, { hint: true });
      key = `hint:${lang()}:${this.hint.move}:${this.hint.reason || ""}`;
      parts = [
        h("p", {}, h("strong", {}, t("hint.label")), " ", advice),
        this.hint.reason ? h("p", { class: "hint-reason" }, this.hint.reason) : null,
      ];
    } else if (this.hintPending) {
      key = `pending:${lang()}`;
      parts = [h("p", {}, t("answer.hintPending"))];
    }
    // Only a change is written: the box is a live region, read out again at every rewrite.
    if (box.dataset.shown === key) return;
    box.dataset.shown = key;
    fill(box, ...parts);
  }

  /** "Hint" in the answer dialog: ask the server what an expert would answer, and why. */
  answerHint() {
    const v = this.view;
    const legal = (v && v.legal) || {};
    if (!v || this.hintPending || this.conn !== "open" || !(legal.yes || legal.no)) return;
    this.hintPending = true;
    this.hint = null;
    if (!this.send({ type: "hint" })) this.hintPending = false;
    this.updateDialogs();
  }

  fillScore() {
    const v = this.view;
    const score = $("#score-dialog");
    $("#score-title").textContent = v.match && v.match.over ? t("score.finalTitle") : t("score.title");
    const over = v.match && v.match.over;
    const body = $("#score-body");
    const actions = $("#score-actions");
    const active = document.activeElement;
    const focusKey = active && score.contains(active) ? active.dataset.testid : null;
    // The sheet scrolls between its title and its buttons, which stay in sight.
    fill(body, scoreSheet(v));
    fill(actions,
      over
        ? h("button", { type: "button", class: "btn btn-primary", autofocus: true, dataset: { testid: "new-game" }, onclick: () => { score.close(); this.onExit(); } }, t("actions.newGame"))
        : h("button", { type: "button", class: "btn btn-primary", "aria-keyshortcuts": "n", autofocus: true, dataset: { testid: "next-hand" }, onclick: () => this.nextHand() }, t("actions.nextHand")),
      h("button", { type: "button", class: "btn", dataset: { testid: "close-score" }, onclick: () => { this.scoreSeenFor = v.hand_number; score.close(); } }, t("actions.viewTable")));
    score.onclose = () => { this.scoreSeenFor = v.hand_number; };
    if (focusKey) {
      const again = score.querySelector(`[data-testid="${focusKey}"]`);
      if (again) again.focus();
    }
  }

  // ---- actions -----------------------------------------------------------------------------
  sendMove(text) {
    this.send({ type: "move", move: text });
  }

  send(obj) {
    this.error = "";
    this.renderAlert();
    if (this.socket && this.socket.send(obj)) {
      this.expectAnswer();
      return true;
    }
    this.error = t("errors.offline");
    this.renderAlert();
    return false;
  }

  texts(indices) {
    return [...indices].map((i) => this.view.hand[i].text);
  }

  /** The selected cards in display order. */
  selectedTexts() {
    const order = sortOrder(this.view.hand, settings.sort());
    return order.filter((i) => this.selected.has(i)).map((i) => this.view.hand[i].text);
  }

  act(id) {
    const en = this.enabled();
    if (!en[id]) {
      // Pressed anyway (a tap, a shortcut): the reason is shown where the refusals are.
      const why = this.whyNot(id, en);
      if (why && this.view) {
        this.error = why;
        this.renderAlert();
      }
      return;
    }
    const v = this.view;
    // The next action clears the last refusal.
    if (this.error && !this.fatalKey) {
      this.error = "";
      this.renderAlert();
    }
    switch (id) {
      case "draw": this.sendMove("draw"); break;
      case "take": this.sendMove(this.takeMove()); break;
      case "meld": {
        const groups = this.staged.map((g) => this.texts(g));
        if (this.selected.size) groups.push(this.selectedTexts());
        this.sendMove("meld " + groups.map((g) => g.join(" ")).join(" / "));
        break;
      }
      case "add-group":
        this.staged.push(sortOrder(v.hand, settings.sort()).filter((i) => this.selected.has(i)));
        this.selected.clear();
        this.refreshSelection();
        break;
      case "add-to": this.chooseMeld(); break;
      case "discard": this.sendMove(`discard ${this.selectedTexts()[0]}`); break;
      case "pass": this.sendMove("pass"); break;
      case "ask": this.sendMove("ask"); break;
      case "undo": this.send({ type: "undo" }); break;
      case "hint": this.send({ type: "hint" }); break;
      case "clear": this.selected.clear(); this.staged = []; this.refreshSelection(); break;
      case "sort": {
        const i = SORT_ORDERS.indexOf(settings.sort());
        settings.setSort(SORT_ORDERS[(i + 1) % SORT_ORDERS.length]);
        this.render();
        break;
      }
      case "show-score": this.scoreSeenFor = null; this.updateDialogs(); break;
      default: break;
    }
  }

  /** The move that takes the pile with the selected cards and the prepared groups. With nothing
   * selected, a prepared group of the top card's rank is the one that goes with the top card
   * (the player may have prepared it like the others). */
  takeMove() {
    const groups = this.staged.map((g) => this.texts(g));
    const top = this.view.pile_top;
    let withTop = this.selectedTexts();
    if (!withTop.length && top) {
      const rankOf = (text) => (text === "JK" ? "JK" : text.slice(0, -1));
      const i = groups.findIndex((g) => g.some((text) => rankOf(text) === top.rank));
      if (i >= 0) withTop = groups.splice(i, 1)[0];
    }
    return takeText(withTop, groups);
  }

  addTo(rank) {
    if (!this.selected.size) {
      this.error = t("errors.selectFirst");
      this.renderAlert();
      return;
    }
    this.sendMove(`add ${rank} ${this.selectedTexts().join(" ")}`);
  }

  chooseMeld() {
    const v = this.view;
    const ranks = (v.legal && v.legal.add) || [];
    const dialog = $("#addto-dialog");
    $("#addto-text").textContent = t("addto.text", { cards: this.selectedTexts().map(cardSymbol).join(" ") });
    fill($("#addto-body"), ranks.map((rank) => {
      const meld = (v.melds[v.side] || []).find((m) => m.rank === rank);
      const label = rank === "W" ? t("meld.rank.W") : rank === "T" ? "10" : rank;
      return h("button", {
        type: "button", class: "btn", dataset: { testid: `add-to-${rank}` },
        onclick: () => { dialog.close(); this.addTo(rank); },
      }, t("addto.option", { rank: label, n: meld ? meld.size ?? meld.cards.length : 0 }));
    }));
    openDialog(dialog);
  }

  nextHand() {
    $("#score-dialog").close();
    this.send({ type: "next_hand" });
  }

  toggle(i) {
    if (this.stagedSet().has(i)) return;
    if (this.selected.has(i)) this.selected.delete(i);
    else this.selected.add(i);
    this.refreshSelection();
  }

  /** Selection changed: update the pressed states, the counter and the buttons (no re-render). */
  refreshSelection() {
    const staged = this.stagedSet();
    const shown = new Set(Array.from(this.el.hand.querySelectorAll("button[data-index]"), (b) => Number(b.dataset.index)));
    const changed = this.view.hand.some((_, i) => shown.has(i) === staged.has(i));
    if (changed) {
      // Cards went into (or came back from) a staged group: draw the hand again.
      const active = document.activeElement;
      const wasInHand = active && this.el.hand.contains(active);
      const at = wasInHand ? Array.from(this.el.hand.children).indexOf(active) : -1;
      keepFocus(this.root, () => this.renderHand());
      if (wasInHand && !this.el.hand.contains(document.activeElement)) {
        const cards = this.el.hand.querySelectorAll("button[data-index]");
        const next = cards[Math.min(at, cards.length - 1)];
        if (next) next.focus({ preventScroll: true });
      }
    } else {
      for (const b of this.el.hand.querySelectorAll("button[data-index]")) {
        b.setAttribute("aria-pressed", this.selected.has(Number(b.dataset.index)) ? "true" : "false");
      }
    }
    this.renderCounter();
    this.renderActions();
  }

  dropOnPile(e) {
    const i = Number(e.dataTransfer.getData("text/plain"));
    if (!Number.isInteger(i) || !this.view || !this.view.hand[i]) return;
    this.sendMove(`discard ${this.view.hand[i].text}`);
  }

  dropOnMeld(rank, e) {
    const i = Number(e.dataTransfer.getData("text/plain"));
    if (Number.isInteger(i) && this.view.hand[i]) this.selected.add(i);
    this.addTo(rank);
  }

  // ---- keyboard ----------------------------------------------------------------------------
  handKey(e) {
    const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
    if (!keys.includes(e.key)) return;
    const cards = Array.from(this.el.hand.querySelectorAll("button[data-index]:not([disabled])"));
    const at = cards.indexOf(e.currentTarget);
    let next = at;
    if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = Math.max(0, at - 1);
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = Math.min(cards.length - 1, at + 1);
    if (e.key === "Home") next = 0;
    if (e.key === "End") next = cards.length - 1;
    e.preventDefault();
    if (cards[next]) cards[next].focus();
  }

  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target && (target.closest("input, select, textarea, [contenteditable='true']"))) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const answer = $("#answer-dialog");
    if (answer.open) {
      // The rules or the shortcuts opened over the question take the keys until they close.
      if (Array.from(document.querySelectorAll("dialog[open]")).some((d) => d !== answer)) return;
      if (key === "y" && !$("#answer-yes").disabled) { e.preventDefault(); $("#answer-yes").click(); }
      else if (key === "n" && !$("#answer-no").disabled) { e.preventDefault(); $("#answer-no").click(); }
      else if (key === "h") { e.preventDefault(); this.answerHint(); }
      else if (key === "r") { e.preventDefault(); openRules(this.view.variant, this.view.house_rules); }
      else if (key === "?") { e.preventDefault(); openHelp(); }
      return;
    }
    const score = $("#score-dialog");
    if (score.open) {
      if (key === "n") {
        const b = score.querySelector("[data-testid='next-hand']");
        if (b) { e.preventDefault(); b.click(); }
      }
      return;
    }
    if (anyDialogOpen()) return;
    if (key === "?") { e.preventDefault(); openHelp(); return; }
    if (key === "r") { e.preventDefault(); if (this.view) openRules(this.view.variant, this.view.house_rules); return; }
    if (key === "Escape") {
      if (this.selected.size || this.staged.length) { e.preventDefault(); this.act("clear"); }
      return;
    }
    if (key === "n") {
      if (this.view && this.view.result && !(this.view.match && this.view.match.over) && !this.busy) {
        e.preventDefault();
        this.nextHand();
      }
      return;
    }
    if (key === "y" || key === "n") return;
    const action = ACTIONS.find((a) => a.key === key);
    if (!action) return;
    e.preventDefault();
    this.act(action.id);
  }

  /** The language changed: redraw every text. */
  relabel() {
    if (this.socket && this.socket.open && lang() !== this.toldLang) {
      this.error = "";
      // The hint's reason was written in the old language: ask again for it in the new one.
      this.hint = null;
      this.tellLang();
    }
    if (this.fatalKey) this.error = t(this.fatalKey);
    this.render();
    const score = $("#score-dialog");
    if (score.open && this.view && this.view.result) this.fillScore();
  }
}
