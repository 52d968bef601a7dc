// The game screen's controls: the action buttons (built once, relabelled and marked available
// or not at every render), the hint box and the score bar.  What is available, and why not,
// comes from actions.js; these functions only draw it.
import { $, fill, h } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { describeMove } from "../cards.js";
import { describeBy } from "../captions.js";
import { ACTIONS, hiddenAction } from "../actions.js";
import { historyList, sideName, sidesOf } from "./table.js";

/** The action buttons and, for each, the hidden text saying why it is unavailable:
 * {element, buttons: {id: button}, why: {id: span}}.  `onAct(id)` when one is pressed. */
export function actionButtons(onAct) {
  const buttons = {};
  const why = {};
  const list = ACTIONS.map((a) => {
    // Why the action is unavailable: its tooltip and its accessible description.
    why[a.id] = h("span", { class: "visually-hidden", id: `why-${a.id}` });
    const b = h("button", {
      type: "button", class: `btn action action--${a.id}`, "aria-keyshortcuts": a.key,
      dataset: { testid: a.id, focusKey: `act-${a.id}` },
      onclick: () => onAct(a.id),
    }, h("span", { class: "action-label" }), h("kbd", { class: "action-key", "aria-hidden": "true" }, a.key));
    buttons[a.id] = b;
    return b;
  });
  const element = h("div", { class: "actions", role: "group", "aria-labelledby": "actions-title" },
    h("h2", { class: "visually-hidden", id: "actions-title" }), list, Object.values(why));
  return { element, buttons, why };
}

/**
 * Relabel the buttons and mark them: `en` which are available, `reason(id)` why one is not
 * (null when it is), `sort` the hand's order (the sort button names it).
 */
export function updateActions(parts, { en, reason, view, sort }) {
  parts.element.querySelector("#actions-title").textContent = t("actions.title");
  for (const a of ACTIONS) {
    const b = parts.buttons[a.id];
    let label = t(a.label);
    let extra = "";
    if (a.id === "sort") {
      // "Order" and, where there is room for it, ": by rank, high to low".
      const full = t("actions.sortBy", { order: t(`sort.${sort}`) });
      if (full.startsWith(label)) extra = full.slice(label.length);
      else label = full;
    }
    const labelEl = b.querySelector(".action-label");
    if (extra) fill(labelEl, label, h("span", { class: "action-extra" }, extra));
    else labelEl.textContent = label;
    b.hidden = hiddenAction(a.id, en, view);
    // Unavailable, not disabled: the button stays focusable and, pressed, says why.
    const why = reason(a.id);
    b.setAttribute("aria-disabled", why ? "true" : "false");
    if (why) {
      b.title = why;
      b.setAttribute("aria-describedby", `why-${a.id}`);
    } else {
      b.removeAttribute("title");
      b.removeAttribute("aria-describedby");
    }
    parts.why[a.id].textContent = why || "";
  }
}

/** A hint's words: the advice and, when the server gave one, why. */
export function hintContent(hint) {
  return [
    h("p", {}, h("strong", {}, t("hint.label")), " ", describeMove(hint.move, t, null, { hint: true })),
    hint.reason ? h("p", { class: "hint-reason" }, hint.reason) : null,
  ];
}

/** The bar above the table: the variant, the hand, the target, each side's score and, last,
 * `extra` (the history's button). */
export function scorebar(view, extra) {
  const v = view;
  const match = v.match || {};
  const scores = match.scores || v.scores || [];
  const items = [];
  for (let s = 0; s < sidesOf(v); s++) {
    items.push(h("li", { class: `score-chip${s === v.side ? " score-chip--own" : ""}`, dataset: { testid: `score-${s}` } },
      h("span", { class: "score-name" }, sideName(v, s)), " ",
      h("strong", {}, formatNumber(scores[s] ?? 0))));
  }
  return [
    h("p", { class: "scorebar-info" },
      h("span", { class: "variant-name" }, t(`variant.${v.variant}`)), " · ",
      h("span", { dataset: { testid: "hand-number" } }, t("game.handNumber", { n: v.hand_number })), " · ",
      h("span", { dataset: { testid: "match-target" } }, v.hand_limit
        ? t("game.targetOrHands", { target: formatNumber(v.target), hands: v.hand_limit })
        : t("game.target", { target: formatNumber(v.target) }))),
    h("ul", { class: "scores", "aria-label": t("game.scores") }, items),
    extra,
  ];
}

/** The moves of this hand: the count on the bar's button, the list in its dialog. */
export function updateHistory(parts, view) {
  const n = (view.history || []).length;
  parts.historyButton.textContent = t("history.open", { n });
  $("#history-title").textContent = t("history.title", { n });
  fill(parts.history, n ? historyList(view, (seat, move) => describeBy(view, seat, move)) : h("p", {}, t("history.empty")));
}
