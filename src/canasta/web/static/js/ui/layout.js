// The game screen's regions, built once (render() refreshes what is inside them): the status
// and score bars, the refusal, the table, the player's hand with its prepared groups, the
// action buttons and the hint.
import { $, h } from "../dom.js";
import { actionButtons } from "./controls.js";
import { openDialog } from "./dialogs.js";

/** The regions by name; `onExit()`: the way back after a refusal, `onAct(id)`: a button. */
export function gameLayout({ onExit, onAct }) {
  const e = {};
  e.scorebar = h("div", { class: "scorebar", dataset: { testid: "scorebar" } });
  e.status = h("p", { class: "status", role: "status", "aria-live": "polite", dataset: { testid: "status" } });
  // A refusal is shown beside the hand and the buttons, where the player is looking.
  e.alert = h("div", { class: "alert", role: "alert", dataset: { testid: "error" } });
  // After a refusal (no such game, a saved game that cannot be read...): the way out.
  e.back = h("button", {
    type: "button", class: "btn btn-primary", dataset: { testid: "back-to-games" }, onclick: onExit,
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
  e.actions = actionButtons(onAct);
  e.hintBox = h("div", { class: "hint-box", "aria-live": "polite", dataset: { testid: "hint-text" } });
  e.historyButton = h("button", {
    type: "button", class: "btn btn-ghost btn-small", "aria-haspopup": "dialog",
    dataset: { testid: "history" }, onclick: () => openDialog($("#history-dialog")),
  });
  e.history = $("#history-body");
  e.tableSection = h("section", { class: "table-area", "aria-labelledby": "table-title" }, e.tableTitle, e.felt);
  e.playerArea = h("section", { class: "player-area", "aria-labelledby": "hand-title" },
    h("div", { class: "hand-head" }, e.handTitle, e.ownSeat, e.counter),
    e.staged,
    e.hand,
    e.actions.element,
    e.hintBox);
  e.game = h("div", { class: "game game--play" },
    h("div", { class: "game-bar" },
      h("div", { class: "status-row" }, e.status, e.caption),
      e.scorebar),
    e.alert,
    e.fatal,
    e.tableSection,
    e.playerArea);
  // Before the first state (or when the game is refused) there is no table to show yet.
  for (const part of [e.tableSection, e.playerArea]) part.hidden = true;
  return e;
}
