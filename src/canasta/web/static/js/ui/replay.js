// Replay: a finished (or running) hand move by move, as seat 0 saw it (a table's match: as the
// reader's own seat saw it, through the table's link).
import { fill, h } from "../dom.js";
import { formatNumber, t, tn } from "../i18n.js";
import { getReplay } from "../net.js";
import { cardName, describeMove, sortOrder } from "../cards.js";
import { cardFace } from "./cardview.js";
import { historyList, renderFelt } from "./table.js";
import { scoreSheet } from "./scoresheet.js";
import { anyDialogOpen } from "./dialogs.js";
import { settings } from "../settings.js";

export class ReplayScreen {
  constructor(root, id, hand, { onExit, onHand, fetch = getReplay }) {
    this.root = root;
    this.id = id;
    this.fetch = fetch;
    this.hand = hand || 1;
    this.onExit = onExit;
    this.onHand = onHand;
    this.data = null;
    this.frame = 0;
    this.error = "";
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keyHandler);
    this.build();
    this.load();
  }

  dispose() {
    document.removeEventListener("keydown", this.keyHandler);
  }

  get variant() {
    const f = this.current();
    return f ? f.view.variant : null;
  }

  get houseRules() {
    const f = this.current();
    return f ? f.view.house_rules : null;
  }

  current() {
    return this.data && this.data.frames ? this.data.frames[this.frame] : null;
  }

  async load() {
    document.body.dataset.busy = "true";
    try {
      this.data = await this.fetch(this.id, this.hand);
      this.frame = 0;
      this.error = "";
    } catch (err) {
      this.data = null;
      this.error = err.message;
    }
    this.render();
    document.body.dataset.busy = "false";
  }

  build() {
    this.el = {
      head: h("div", { class: "replay-head" }),
      status: h("p", { class: "status", role: "status", "aria-live": "polite", dataset: { testid: "status" } }),
      alert: h("div", { class: "alert", role: "alert", dataset: { testid: "error" } }),
      controls: h("div", { class: "replay-controls", role: "group" }),
      felt: h("div", { class: "felt-wrap" }),
      tableTitle: h("h2", { class: "visually-hidden", id: "replay-table-title" }),
      hand: h("div", { class: "hand hand--static", role: "list", dataset: { testid: "hand" } }),
      handTitle: h("h2", { class: "hand-title", id: "replay-hand-title" }),
      extra: h("div", { class: "replay-extra" }),
    };
    const e = this.el;
    fill(this.root, h("div", { class: "game replay" },
      e.head, e.controls, e.status, e.alert,
      h("section", { "aria-labelledby": "replay-table-title" }, e.tableTitle, e.felt),
      h("section", { class: "player-area", "aria-labelledby": "replay-hand-title" }, e.handTitle, e.hand),
      e.extra));
  }

  step(to) {
    if (!this.data) return;
    const n = this.data.frames.length;
    this.frame = Math.max(0, Math.min(n - 1, to));
    this.render();
  }

  render() {
    const e = this.el;
    const back = h("button", { type: "button", class: "btn", dataset: { testid: "replay-back" }, onclick: () => this.onExit() },
      "← ", t("replay.back"));
    if (!this.data) {
      fill(e.head, h("h2", {}, t("replay.title")), back);
      e.alert.textContent = this.error ? t("replay.error", { error: this.error }) : "";
      e.status.textContent = this.error ? "" : t("app.loading");
      return;
    }
    e.alert.textContent = "";
    const frames = this.data.frames || [];
    const hands = this.data.hands || 1;
    const handSelect = h("select", {
      id: "replay-hand", dataset: { testid: "replay-hand" },
      onchange: (ev) => { this.hand = Number(ev.target.value); this.onHand(this.hand); this.load(); },
    }, Array.from({ length: hands }, (_, i) => h("option", { value: i + 1, selected: i + 1 === this.hand }, formatNumber(i + 1))));
    fill(e.head,
      h("h2", {}, t("replay.title")),
      h("div", { class: "field field-inline" }, h("label", { for: "replay-hand" }, t("replay.hand")), handSelect),
      back);
    const last = frames.length - 1;
    const btn = (testid, label, to, disabled, keys) => h("button", {
      type: "button", class: "btn", dataset: { testid, focusKey: testid }, disabled, "aria-keyshortcuts": keys,
      onclick: () => this.step(to),
    }, label);
    const focused = document.activeElement && e.controls.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    fill(e.controls,
      btn("replay-first", `« ${t("replay.first")}`, 0, this.frame === 0, "Home"),
      btn("replay-prev", `◀ ${t("replay.prev")}`, this.frame - 1, this.frame === 0, "ArrowLeft"),
      h("span", { class: "replay-pos", dataset: { testid: "replay-pos" } }, t("replay.position", { n: this.frame, total: last })),
      btn("replay-next", `${t("replay.next")} ▶`, this.frame + 1, this.frame >= last, "ArrowRight"),
      btn("replay-last", `${t("replay.last")} »`, last, this.frame >= last, "End"));
    e.controls.setAttribute("aria-label", t("replay.controls"));
    if (focused) {
      const again = e.controls.querySelector(`[data-testid="${focused}"]`);
      if (again && !again.disabled) again.focus();
      else if (again) e.controls.querySelector("button:not([disabled])")?.focus();
    }
    e.tableTitle.textContent = t("game.table");
    const f = frames[this.frame];
    if (!f) return;
    const v = f.view;
    const who = f.seat === undefined || f.seat === null ? null : f.seat === v.seat ? null : (v.names && v.names[f.seat]);
    e.status.textContent = this.frame === 0 || !f.move
      ? t("replay.deal", { n: v.hand_number ?? this.hand })
      : describeMove(f.move, t, who) +
        ((v.penalized || []).includes((v.history || []).length - 1) ? ` ${t("history.takenBack")}` : "");
    fill(e.felt, renderFelt(v, { interactive: false, lastSeat: f.seat, idPrefix: "r" }));
    e.handTitle.textContent = t("hand.title", { n: tn("hand.cards", v.hand.length) });
    const order = sortOrder(v.hand, settings.sort());
    fill(e.hand, order.map((i) => h("span", { role: "listitem", class: "hand-slot" },
      cardFace(v.hand[i], { label: cardName(v.hand[i], t), extra: "card--hand" }))));
    fill(e.extra,
      v.result ? h("section", { class: "panel" }, h("h2", {}, t("score.title")), scoreSheet(v)) : null,
      h("details", { class: "history" }, h("summary", {}, t("history.title", { n: formatNumber((v.history || []).length) })),
        historyList(v, (seat, move) => describeMove(move, t, seat === v.seat ? null : v.names[seat]))));
  }

  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || anyDialogOpen()) return;
    if (e.target && e.target.closest("input, select, textarea")) return;
    if (!this.data) return;
    const map = { ArrowLeft: this.frame - 1, ArrowRight: this.frame + 1, Home: 0, End: this.data.frames.length - 1 };
    if (e.key in map) {
      e.preventDefault();
      this.step(map[e.key]);
    }
  }

  relabel() {
    this.render();
  }
}
