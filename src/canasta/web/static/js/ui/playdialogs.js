// The game's dialogs (their markup is in index.html): the partner's "may I go out?", the score
// sheet at the end of a hand, and the choice of the meld to add to.  Each is opened, refreshed
// or closed from the state on screen; what the player answers goes back through callbacks.
import { $, fill, h } from "../dom.js";
import { lang, t } from "../i18n.js";
import { cardSymbol, describeMove } from "../cards.js";
import { NEXT_HAND, openDialog, openRules } from "./dialogs.js";
import { outcome, outcomeTitle, scoreSheet } from "./scoresheet.js";
import { seatName } from "./table.js";

export const GAME_DIALOGS = ["#score-dialog", "#answer-dialog", "#addto-dialog", "#history-dialog"];

export function closeGameDialogs() {
  for (const id of GAME_DIALOGS) {
    const d = $(id);
    if (d.open) d.close();
  }
}

/**
 * The partner's question. It opens once every queued state is on screen and nothing of ours is
 * out (`ready`); once open it stays while the question stands: nothing but our answer changes
 * it, so a hint or a language change asked from under it must not close it (and lose the
 * focus).  opts: view, open (the connection is), ready, hint, hintPending, onAnswer("yes" or
 * "no"), onHint().
 */
export function updateAnswer({ view: v, open, ready, hint, hintPending, onAnswer, onHint }) {
  const answer = $("#answer-dialog");
  const legal = v.legal || {};
  const asked = (legal.yes || legal.no) && !v.result;
  if (asked && open && (answer.open || ready)) {
    $("#answer-text").textContent = t("answer.text", { name: seatName(v, v.asking ?? v.partner) });
    $("#answer-yes").disabled = !legal.yes;
    $("#answer-no").disabled = !legal.no;
    $("#answer-yes").onclick = () => { answer.close(); onAnswer("yes"); };
    $("#answer-no").onclick = () => { answer.close(); onAnswer("no"); };
    const hintButton = $("#answer-hint-button");
    hintButton.onclick = onHint;
    hintButton.setAttribute("aria-disabled", hintPending ? "true" : "false");
    $("#answer-rules").onclick = () => openRules(v.variant, v.house_rules);
    fillAnswerHint(hint, hintPending);
    answer.dataset.dismissable = "false";
    answer.oncancel = (e) => e.preventDefault();
    if (!answer.open) openDialog(answer);
  } else if (answer.open) {
    answer.close();
  }
}

/** The hint inside the answer dialog: the suggested answer and why (or that it is coming). */
function fillAnswerHint(hint, hintPending) {
  const box = $("#answer-hint");
  let key = "";
  let parts = [];
  if (hint) {
    const advice = describeMove(hint.move, t, null, { hint: true });
    key = `hint:${lang()}:${hint.move}:${hint.reason || ""}`;
    parts = [
      h("p", {}, h("strong", {}, t("hint.label")), " ", advice),
      hint.reason ? h("p", { class: "hint-reason" }, hint.reason) : null,
    ];
  } else if (hintPending) {
    key = `pending:${lang()}`;
    parts = [h("p", {}, t("answer.hintPending"))];
  }
  // Only a change is written: the box is a live region, read out again at every rewrite.
  if (box.dataset.shown === key) return;
  box.dataset.shown = key;
  fill(box, ...parts);
}

/**
 * The score sheet: opened when the hand is over and the player is idle, unless they closed it
 * for this hand (`seen`); refreshed while open; closed once a new hand is dealt.
 * opts: view, idle, seen, onSeen() (closed for this hand), onNext(), onNewGame().
 */
export function updateScore(opts) {
  const { view: v, idle, seen } = opts;
  const score = $("#score-dialog");
  if (idle && v.result && !seen) {
    fillScore(opts);
    if (!score.open) openDialog(score);
  } else if (score.open && !v.result) {
    score.close();
  } else if (score.open) {
    fillScore(opts);
  }
}

export function fillScore({ view: v, onSeen, onNext, onNewGame, waiting = null, onDealNow = null }) {
  const score = $("#score-dialog");
  const over = v.match && v.match.over;
  const title = $("#score-title");
  title.textContent = over ? outcomeTitle(v) : t("score.title");
  title.dataset.outcome = (over && outcome(v)) || "";
  const active = document.activeElement;
  const focusKey = active && score.contains(active) ? active.dataset.testid : null;
  // The sheet scrolls between its title and its buttons, which stay in sight.
  fill($("#score-body"), scoreSheet(v));
  // (at a table, once this person asked for the next hand: whom it waits for)
  const waitingText = !over && waiting ? t("table.waitingNext", { names: waiting.join(", ") }) : null;
  fill($("#score-actions"),
    waitingText ? h("p", { class: "score-waiting", role: "status", dataset: { testid: "waiting-next" } }, waitingText) : null,
    // (the host need not wait for somebody who left the sheet open and went away)
    waitingText && onDealNow ? h("button", { type: "button", class: "btn", dataset: { testid: "deal-now" }, onclick: onDealNow }, t("actions.dealNow")) : null,
    over
      ? h("button", { type: "button", class: "btn btn-primary", autofocus: true, dataset: { testid: "new-game" }, onclick: () => { score.close(); onNewGame(); } }, t("actions.newGame"))
      : h("button", { type: "button", class: "btn btn-primary", "aria-keyshortcuts": NEXT_HAND, autofocus: true, disabled: !!waitingText, dataset: { testid: "next-hand" }, onclick: onNext }, t("actions.nextHand")),
    h("button", { type: "button", class: "btn", dataset: { testid: "close-score" }, onclick: () => { onSeen(); score.close(); } }, t("actions.viewTable")));
  score.onclose = onSeen;
  if (focusKey) {
    const again = score.querySelector(`[data-testid="${focusKey}"]`);
    if (again) again.focus();
  }
}

/** "Add to which meld?": one button per meld of `ranks` (those that take the selected `cards`,
 * actions.js `addTargets`). */
export function chooseMeld(view, cards, ranks, onChoose) {
  const dialog = $("#addto-dialog");
  $("#addto-text").textContent = t("addto.text", { cards: cards.map((c) => cardSymbol(c, t)).join(" ") });
  fill($("#addto-body"), ranks.map((rank) => {
    const meld = (view.melds[view.side] || []).find((m) => m.rank === rank);
    const label = rank === "W" ? t("meld.rank.W") : rank === "T" ? "10" : rank;
    return h("button", {
      type: "button", class: "btn", dataset: { testid: `add-to-${rank}` },
      onclick: () => { dialog.close(); onChoose(rank); },
    }, t("addto.option", { rank: label, n: meld ? meld.size ?? meld.cards.length : 0 }));
  }));
  openDialog(dialog);
}
