// The game screen: it joins the connection (connection.js: the socket, the numbered requests,
// the queue of states shown one by one), the player's selection (selection.js), what may be
// done (actions.js) and the render modules (table.js, hand.js, controls.js, playdialogs.js),
// and turns clicks, drops and keys into requests.
import { $, fill, h, keepFocus } from "../dom.js";
import { lang, t, tn } from "../i18n.js";
import { handSeat, setGameLang, socketUrl, tableSocketUrl } from "../net.js";
import { GameConnection } from "../connection.js";
import { deviceKey } from "../device.js";
import { Selection, dropOnPile, drawnIndices, hintIndices } from "../selection.js";
import { addTargets, availability, statusText, whyNot } from "../actions.js";
import { captionFor } from "../captions.js";
import { SORT_ORDERS } from "../cards.js";
import { ownSeatBadge, renderFelt } from "./table.js";
import {
  counterText, handButtons, layoutHand, moveAlongHand, refreshHand, stagedGroups,
} from "./hand.js";
import { hintContent, scorebar, updateActions, updateHistory } from "./controls.js";
import { gameKey } from "./keys.js";
import { fitNotes, gameLayout } from "./layout.js";
import { chooseMeld, closeGameDialogs, fillScore, updateAnswer, updateScore } from "./playdialogs.js";
import { settings } from "../settings.js";
import { QUICK } from "./lobby.js";
import { BUBBLE_MS, logSaid, placeBubbles, seatActions, watchArea, watching } from "./tableplay.js";

const SAID_KEPT = 50; // the quick messages of a match kept for its log
const REFUSALS = {
  4404: "errors.noSuchGame", 4403: "errors.notYourSeat", 4401: "errors.notYourSeat",
  4409: "errors.notStarted", 4422: "errors.corruptGame",
};

export class GameScreen {
  constructor(root, id, { onExit, table = null }) {
    this.root = root;
    this.id = id;
    // A table's match ({id, key}): its socket says the seat's key first; the language is the
    // person's own, told over the socket.
    this.tableLink = table;
    this.people = null; // who plays each seat, and who is here (a table's match)
    this.said = null; // the latest quick message
    this.saidLog = []; // this match's quick messages heard here: [{seat, say, time, hand, at}]
    this.onExit = onExit;
    this.view = null; // the view on screen
    this.shown = null; // the state message on screen
    this.canUndo = false;
    this.selection = new Selection();
    this.hint = null;
    this.error = "";
    this.caption = () => ""; // the line about the last move, written when shown (any language)
    this.connection = null;
    this.scoreSeenFor = null; // hand number whose score sheet the player closed
    this.disposed = false;
    this.toldLang = null; // the language the server was last told (its errors and hints)
    this.fatalKey = null; // the catalogue key of why the server refused the game, if it did
    this.build();
    this.keyHandler = (e) => gameKey(e, this);
    document.addEventListener("keydown", this.keyHandler);
    this.setBusy();
    this.start();
  }

  /** Tell the game our language (its errors and hints come in it), then connect. */
  async start() {
    if (!this.tableLink) {
      try {
        const code = lang();
        await setGameLang(this.id, code);
        this.toldLang = code;
      } catch {
        /* an unknown game: the socket will say so */
      }
    } else {
      this.toldLang = lang(); // (said in the socket's first message)
    }
    if (this.disposed) return;
    // Once the screen is gone, nothing the connection still reports may touch the page.
    const live = (fn) => (...args) => (this.disposed ? undefined : fn(...args));
    const url = this.tableLink ? tableSocketUrl(this.tableLink.id, true) : socketUrl(this.id, 0);
    // The socket says first whose it is: the table's key of a seat, or this device's own.
    const hello = this.tableLink
      ? { type: "hello", key: this.tableLink.key, lang: lang() }
      : { type: "hello", key: deviceKey() };
    this.connection = new GameConnection(url, {
      onSaid: live((msg) => this.hear(msg)),
      onOpen: live(() => this.onOpen()),
      onClose: live((info) => this.onClose(info)),
      onShow: live((msg, fresh) => this.apply(msg, fresh)),
      onError: live((msg) => this.onError(msg)),
      // (news from the server, such as a game repaired as it was read: shown where errors are)
      onNotice: live((msg) => this.onError(msg)),
      onHint: live((msg) => { this.hint = { move: msg.move, reason: msg.reason }; this.render(); }),
      onPause: live((paused) => this.onPause(paused)),
      onChange: live(() => this.setBusy()),
      delayFor: (msg) => {
        const computer = msg.last && msg.last.seat !== (this.view ? this.view.seat : 0);
        return computer && this.shown ? settings.delay() : 0;
      },
    }, { hello });
  }

  dispose() {
    this.disposed = true;
    if (this.resizer) this.resizer.disconnect();
    if (this.connection) this.connection.close();
    document.removeEventListener("keydown", this.keyHandler);
    closeGameDialogs();
  }

  get variant() {
    return this.view ? this.view.variant : null;
  }

  get houseRules() {
    return this.view ? this.view.house_rules : null;
  }

  get conn() {
    return this.connection ? this.connection.status : "connecting";
  }

  get busy() {
    return !!this.connection && this.connection.busy;
  }

  get hintPending() {
    return !!this.connection && this.connection.awaiting("hint");
  }

  /** What actions.js judges from. */
  context() {
    return {
      view: this.view, selection: this.selection, busy: this.busy, conn: this.conn,
      canUndo: this.canUndo, paused: !!this.connection && this.connection.paused,
    };
  }

  build() {
    this.el = gameLayout({ onExit: () => this.onExit(), onAct: (id) => this.act(id) });
    fill(this.root, this.el.game);
    // The hand fans out to the room it has: lay it out again whenever that room changes (or its
    // cards' size does). Its height follows the rows it is given; the fan depends on its width
    // alone and writes nothing for the same width, so this settles after one call.
    // The notes' sheet (a phone's) follows the table's size.
    this.resizer = new ResizeObserver(() => { layoutHand(this.el.hand); fitNotes(this.el); });
    this.resizer.observe(this.el.hand);
    this.resizer.observe(this.el.felt);
  }

  // ---- what the connection reports ---------------------------------------------------------
  onOpen() {
    // The language may have changed while we were away (or the POST before connecting failed).
    if (lang() !== this.toldLang) this.tellLang();
    this.render();
  }

  /** Tell the server our language over the socket; it answers with a state. */
  tellLang() {
    const code = lang();
    if (this.connection && this.connection.request({ type: "lang", lang: code }) !== null) {
      this.toldLang = code;
    }
  }

  onClose({ code, final, lost }) {
    // The server may not have seen the language: tell it again after reconnecting.
    if (lost.some((r) => r.type === "lang")) this.toldLang = null;
    // (at a table, a key that opens nothing: the host may have made new links)
    const why = this.tableLink && code === 4403 ? "errors.tableLink" : REFUSALS[code];
    if (final && why) {
      this.fatalKey = why;
      this.error = t(this.fatalKey);
    }
    if (final) closeGameDialogs();
    this.render();
    this.setBusy();
    if (final && !this.el.fatal.hidden) {
      // Offer the way back at once (the alert has announced why), unless the player is elsewhere.
      const active = document.activeElement;
      if (!active || active === document.body || this.root.contains(active)) this.el.back.focus();
    }
  }

  onError(msg) {
    this.error = msg.message || msg.english || t("errors.refused");
    this.renderAlert();
  }

  onPause(paused) {
    if (!paused) this.error = ""; // the error that paused the game is over
    if (this.view) this.el.status.textContent = statusText(this.context());
    this.renderAlert();
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
    const mine = msg.last && msg.last.seat === view.seat;
    const handChanged = this.selection.follow(old, view);
    if (handChanged || (old && old.turn !== view.turn) || mine) this.hint = null;
    if (mine) this.error = "";
    if (old && old.hand_number !== view.hand_number) this.scoreSeenFor = null;
    this.view = view;
    this.shown = msg;
    this.canUndo = !!msg.can_undo;
    this.people = msg.people || null;
    this.caption = captionFor(old, msg, fresh) || this.caption;
    this.lastSeat = msg.last ? msg.last.seat : null;
    this.render();
  }

  // ---- rendering -----------------------------------------------------------------------------
  render() {
    const e = this.el;
    // Before the first state (or when the game is refused) there is no table to show yet.
    for (const part of [e.tableSection, e.playerArea]) part.hidden = !this.view;
    this.placeAlert();
    e.status.textContent = statusText(this.context());
    this.renderAlert();
    e.back.textContent = t("errors.backToGames");
    e.fatal.hidden = this.conn !== "refused";
    if (!this.view) return;
    const v = this.view;
    fill(e.scorebar, scorebar(v, e.historyButton));
    this.renderPeople();
    e.tableTitle.textContent = t("game.table");
    e.caption.textContent = this.caption();
    keepFocus(this.root, () => {
      this.renderFelt();
      this.renderHand();
    });
    fitNotes(e);
    this.renderControls();
    e.hintBox.hidden = !this.hint;
    fill(e.hintBox, this.hint ? hintContent(this.hint) : null);
    updateHistory(e, v);
    logSaid(e.history, this.saidLog, v);
    this.updateDialogs();
  }

  /** A quick message: at its sender's seat for a few seconds, and in the move log. */
  hear(msg) {
    const v = this.view;
    this.said = msg;
    this.saidLog = [...this.saidLog, {
      ...msg, time: Date.now(), hand: v ? v.hand_number : 0, at: v && v.history ? v.history.length : 0,
    }].slice(-SAID_KEPT);
    this.render();
    setTimeout(() => { if (!this.disposed) placeBubbles(this.root, this.saidLog); }, BUBBLE_MS + 50);
  }

  /** The host hands an absent friend's seat to its computer player, or gives it back. */
  async handSeat(seat, computer) {
    if (this.handing) return;
    this.handing = true;
    try {
      await handSeat(this.tableLink.id, this.tableLink.key, seat, computer);
      this.error = ""; // (the new state comes over the socket)
    } catch (err) {
      this.error = err.message;
    } finally {
      this.handing = false;
    }
    this.renderAlert();
  }

  /** At a table with friends: who is away, which seats a computer plays for a friend, the
   * latest quick message, and the quick messages to send. */
  renderPeople() {
    const e = this.el;
    if (!this.tableLink || !this.people) {
      if (e.people) e.people.hidden = true;
      return;
    }
    if (!e.people) {
      e.people = h("div", { class: "people-bar", dataset: { testid: "people" } });
      e.game.insertBefore(e.people, e.tableSection);
    }
    e.people.hidden = false;
    const notes = [];
    for (const p of this.people) {
      if (!p.person || p.seat === this.view.seat) continue;
      if (p.computer) notes.push(t("table.standIn", { name: p.name, level: t(`level.${(this.view.levels || [])[p.seat] || "expert"}`) }));
      else if (!p.present) notes.push(t("table.away", { name: p.name }));
    }
    const said = this.said
      ? t("quick.said", { name: (this.view.names || [])[this.said.seat] || "", text: t(`quick.${this.said.say}`) })
      : "";
    const seated = this.view.seat !== null && this.view.seat !== undefined;
    fill(e.people,
      h("p", { class: "people-notes", "aria-live": "polite", dataset: { testid: "away-notes" } }, notes.join(" · ")),
      // (read out here; shown as a bubble at the sender's seat)
      h("p", { class: "people-said visually-hidden", "aria-live": "polite", dataset: { testid: "said" } }, said),
      seated ? h("details", { class: "quick-menu" },
        h("summary", {}, t("quick.title")),
        h("div", { class: "quick-buttons" }, QUICK.map((id) => h("button", {
          type: "button", class: "btn btn-small", dataset: { testid: `quick-${id}` },
          onclick: () => this.connection && this.connection.socket.send({ type: "say", say: id }),
        }, t(`quick.${id}`))))) : null);
  }

  renderAlert() {
    this.el.alert.textContent = this.error;
    this.el.alert.classList.toggle("alert--shown", !!this.error);
  }

  /** The refusal goes among the notes beside the hand and the buttons; before there is a table
   * (a game that cannot be played) it stands under the status line. */
  placeAlert() {
    const e = this.el;
    if (this.view) {
      if (e.alert.parentNode !== e.notes) e.notes.insertBefore(e.alert, e.hintBox);
    } else if (e.alert.parentNode !== e.game) {
      e.game.insertBefore(e.alert, e.fatal);
    }
  }

  renderFelt() {
    const v = this.view;
    const legal = v.legal || {};
    fill(this.el.felt, renderFelt(v, {
      interactive: !this.busy && this.conn === "open",
      ownSeat: false,
      addRanks: new Set(legal.add || []),
      lastSeat: this.lastSeat,
      onMeld: (rank) => this.addTo(rank),
      onTake: () => this.act("take"),
      onDraw: () => this.act("draw"),
      onDropPile: (e) => this.sendMove(dropOnPile(this.view.hand, Number(e.dataTransfer.getData("text/plain")))),
      onDropMeld: (rank, e) => this.addTo(rank, Number(e.dataTransfer.getData("text/plain"))),
    }));
    fill(this.el.ownSeat, ownSeatBadge(v, { lastSeat: this.lastSeat }));
    if (this.tableLink) {
      seatActions(this.root, { view: v, people: this.people, onHand: (seat, computer) => this.handSeat(seat, computer) });
      placeBubbles(this.root, this.saidLog);
    }
  }

  renderHand() {
    const v = this.view;
    if (watching(v)) {
      watchArea(this.el);
      return;
    }
    const drawn = drawnIndices(v);
    // The drawn cards slide in once, not at every redraw.
    const drawKey = drawn.size ? `${v.hand_number}:${v.history ? v.history.length : 0}:${[...drawn].join(",")}` : "";
    const animate = drawKey !== "" && drawKey !== this.animatedDraw;
    if (drawKey) this.animatedDraw = drawKey;
    this.el.handTitle.textContent = t("hand.title", { n: tn("hand.cards", v.hand.length) });
    const buttons = handButtons(v, {
      selection: this.selection, sort: settings.sort(), drawn, animate,
      hinted: hintIndices(v.hand, this.hint && this.hint.move),
      onToggle: (i) => { if (this.selection.toggle(i)) this.refreshSelection(); },
      onKey: (e) => moveAlongHand(e, this.el.hand),
    });
    fill(this.el.hand, buttons.length ? buttons : h("p", { class: "hand-empty" }, t("hand.empty")));
    layoutHand(this.el.hand);
  }

  /** The counter, the prepared groups and the buttons: what the selection changes. */
  renderControls() {
    const e = this.el;
    if (watching(this.view)) return; // (a spectator has no move buttons: watchArea)
    const ctx = this.context();
    const en = availability(ctx);
    e.counter.textContent = counterText(this.view, this.selection);
    updateActions(e.actions, { en, reason: (id) => whyNot(id, en, ctx), view: this.view, sort: settings.sort() });
    const groups = stagedGroups(this.view, this.selection, {
      onUnstage: (gi) => { if (this.selection.unstage(gi)) this.refreshSelection(); },
    });
    e.staged.hidden = !groups;
    fill(e.staged, groups);
  }

  /** Selection changed: update the pressed states, the counter and the buttons; the hand is
   * drawn again only when cards went into (or came back from) a prepared group. */
  refreshSelection() {
    refreshHand(this.root, this.el.hand, this.view, this.selection, () => this.renderHand());
    this.renderControls();
  }

  // ---- dialogs -------------------------------------------------------------------------------
  updateDialogs() {
    const v = this.view;
    if (!v || !this.connection) return;
    const c = this.connection;
    const open = this.conn === "open";
    updateAnswer({
      view: v, open, ready: c.settled && c.pending.size === 0, hint: this.hint,
      hintPending: this.hintPending, onAnswer: (word) => this.sendMove(word),
      onHint: () => this.answerHint(),
    });
    updateScore({ ...this.scoreCallbacks(), idle: !this.busy && open, seen: this.scoreSeenFor === v.hand_number });
  }

  scoreCallbacks() {
    const v = this.view;
    return {
      view: v, onSeen: () => { this.scoreSeenFor = v.hand_number; },
      onNext: () => this.nextHand(), onNewGame: () => this.onExit(), waiting: this.waitingNext(),
      onDealNow: this.tableLink && v && v.seat === 0 ? () => this.send({ type: "deal_now" }) : null,
    };
  }

  /** At a table, once this person has asked for the next hand: the names of the people there
   * it still waits for (the server deals it when none is left); otherwise null. */
  waitingNext() {
    if (!this.tableLink || !this.people || !this.view) return null;
    const me = this.people.find((p) => p.seat === this.view.seat);
    if (!me || !me.ready) return null;
    return this.people.filter((p) => p.person && p.present && !p.computer && !p.ready).map((p) => p.name);
  }

  /** "Hint" in the answer dialog: ask the server what an expert would answer, and why. */
  answerHint() {
    const v = this.view;
    const legal = (v && v.legal) || {};
    if (!v || this.hintPending || this.conn !== "open" || !(legal.yes || legal.no)) return;
    this.hint = null;
    this.send({ type: "hint" });
    this.updateDialogs();
  }

  // ---- actions -----------------------------------------------------------------------------
  sendMove(text) {
    if (text) this.send({ type: "move", move: text });
  }

  send(msg) {
    this.error = "";
    this.renderAlert();
    if (this.connection && this.connection.request(msg) !== null) return true;
    this.error = t("errors.offline");
    this.renderAlert();
    return false;
  }

  act(id) {
    if (watching(this.view) && id !== "show-score") return; // (a spectator's shortcut)
    const ctx = this.context();
    const en = availability(ctx);
    if (!en[id]) {
      // Pressed anyway (a tap, a shortcut): the reason is shown where the refusals are.
      const why = whyNot(id, en, ctx);
      if (why && this.view) {
        this.error = why;
        this.renderAlert();
      }
      return;
    }
    const v = this.view;
    const sel = this.selection;
    const sort = settings.sort();
    // The next action clears the last refusal.
    if (this.error && !this.fatalKey) {
      this.error = "";
      this.renderAlert();
    }
    switch (id) {
      case "draw": this.sendMove("draw"); break;
      case "take": this.sendMove(sel.takeMove(v.hand, sort, v.pile_top)); break;
      case "meld": this.sendMove(sel.meldMove(v.hand, sort)); break;
      case "add-group": sel.stage(v.hand, sort); this.refreshSelection(); break;
      case "add-to": this.addToChosen(); break;
      case "discard": this.sendMove(sel.discardMove(v.hand)); break;
      case "pass": this.sendMove("pass"); break;
      case "ask": this.sendMove("ask"); break;
      case "undo": this.send({ type: "undo" }); break;
      case "hint": this.send({ type: "hint" }); break;
      case "clear": sel.clear(); this.refreshSelection(); break;
      case "sort": {
        const i = SORT_ORDERS.indexOf(sort);
        settings.setSort(SORT_ORDERS[(i + 1) % SORT_ORDERS.length]);
        this.render();
        break;
      }
      case "show-score": this.scoreSeenFor = null; this.updateDialogs(); break;
      default: break;
    }
  }

  /** "Add to…": straight to the one meld that takes the selected cards, a choice among several;
   * when none takes them, to the meld of their rank all the same, for the server to say why. */
  addToChosen() {
    const v = this.view;
    const texts = this.selection.selectedTexts(v.hand, settings.sort());
    const { melds, fallback } = addTargets(v, texts);
    if (melds.length > 1) {
      chooseMeld(v, texts, melds, (rank) => this.addTo(rank));
    } else if (melds.length || fallback) {
      this.addTo(melds[0] || fallback);
    } else {
      this.error = t("errors.noMeldTakes");
      this.renderAlert();
    }
  }

  /** Add the selected cards (and `dropped`, a card dragged there) to the side's meld `rank`. */
  addTo(rank, dropped = null) {
    const v = this.view;
    const move = this.selection.dropOnMeld(v.hand, settings.sort(), dropped, rank);
    if (move) {
      this.sendMove(move);
      return;
    }
    this.error = t("errors.selectFirst");
    this.renderAlert();
  }

  nextHand() {
    // At a table the sheet stays open, saying whom the next hand waits for, until it is dealt.
    if (!this.tableLink) $("#score-dialog").close();
    this.send({ type: "next_hand" });
  }

  /** The language changed: redraw every text. */
  relabel() {
    if (this.connection && this.connection.open && lang() !== this.toldLang) {
      this.error = "";
      // The hint's reason was written in the old language: ask again for it in the new one.
      this.hint = null;
      this.tellLang();
    }
    if (this.fatalKey) this.error = t(this.fatalKey);
    this.render();
    if ($("#score-dialog").open && this.view && this.view.result) fillScore(this.scoreCallbacks());
  }
}
