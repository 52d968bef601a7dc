// The game screen's keyboard: the answer dialog's keys while the partner asks ("n" no), "o" for
// the next hand on the score sheet and after it (a key of its own: one key, one meaning in the
// list of shortcuts), and the action buttons' shortcuts (actions.js) everywhere else.
import { $ } from "../dom.js";
import { ACTIONS } from "../actions.js";
import { NEXT_HAND, anyDialogOpen, openHelp, openRules } from "./dialogs.js";

/**
 * A key pressed on the game screen.  `game`: view, busy, selection, act(id), nextHand(),
 * answerHint().
 */
export function gameKey(e, game) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target && (target.closest("input, select, textarea, [contenteditable='true']"))) return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const view = game.view;
  const rules = () => { if (view) openRules(view.variant, view.house_rules); };
  const answer = $("#answer-dialog");
  if (answer.open) {
    // The rules or the shortcuts opened over the question take the keys until they close.
    if (Array.from(document.querySelectorAll("dialog[open]")).some((d) => d !== answer)) return;
    if (key === "y" && !$("#answer-yes").disabled) { e.preventDefault(); $("#answer-yes").click(); }
    else if (key === "n" && !$("#answer-no").disabled) { e.preventDefault(); $("#answer-no").click(); }
    else if (key === "h") { e.preventDefault(); game.answerHint(); }
    else if (key === "r") { e.preventDefault(); rules(); }
    else if (key === "?") { e.preventDefault(); openHelp(); }
    return;
  }
  const score = $("#score-dialog");
  if (score.open) {
    if (key === NEXT_HAND) {
      const b = score.querySelector("[data-testid='next-hand']");
      if (b) { e.preventDefault(); b.click(); }
    }
    return;
  }
  if (anyDialogOpen()) return;
  if (key === "?") { e.preventDefault(); openHelp(); return; }
  if (key === "r") { e.preventDefault(); rules(); return; }
  if (key === "Escape") {
    if (!game.selection.empty) { e.preventDefault(); game.act("clear"); }
    return;
  }
  if (key === NEXT_HAND) {
    if (view && view.result && !(view.match && view.match.over) && !game.busy) {
      e.preventDefault();
      game.nextHand();
    }
    return;
  }
  if (key === "y") return;
  const action = ACTIONS.find((a) => a.key === key);
  if (!action) return;
  e.preventDefault();
  game.act(action.id);
}
