// The game screen's regions, built once (render() refreshes what is inside them): the status
// and score bars, the refusal, the table, the player's hand with its prepared groups, the
// action buttons and the hint.  The prepared groups, the refusal and the hint are the notes:
// they float over the other sides' part of the table (style.css, fitNotes), so that they never
// move the table nor cover what is played on.
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
  // (the refusal joins them once there is a table: the screen's placeAlert)
  e.notes = h("div", { class: "play-notes", dataset: { testid: "play-notes" } }, e.staged, e.hintBox);
  e.playerArea = h("section", { class: "player-area", "aria-labelledby": "hand-title" },
    h("div", { class: "hand-head" }, e.handTitle, e.ownSeat, e.counter),
    e.notes,
    e.hand,
    e.actions.element);
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

/** Where the notes float: in the column of the other sides' melds, their foot just above the
 * region under those melds (the player's melds; on a phone, the stock and the pile), their room
 * up to the top of the table (over the other seats and their melds, which only inform); what
 * does not fit scrolls inside them.  Written as CSS variables (style.css reads them where the
 * notes float: not on a landscape phone, whose player's column holds them). */
export function fitNotes(e) {
  const grid = e.felt.querySelector(".felt");
  const others = grid && grid.querySelector(".felt-others");
  if (!others || e.playerArea.hidden) return;
  const column = others.getBoundingClientRect();
  const under = [".felt-deck", ".felt-own"].map((sel) => grid.querySelector(sel).getBoundingClientRect())
    .filter((r) => r.top >= column.bottom - 1 && r.left < column.right && column.left < r.right);
  if (!under.length) return;
  const foot = Math.min(...under.map((r) => r.top)) - (parseFloat(getComputedStyle(grid).rowGap) || 0);
  const area = e.playerArea.getBoundingClientRect();
  const set = (name, px) => e.notes.style.setProperty(`--notes-${name}`, `${Math.round(px)}px`);
  set("below", area.top - foot);
  set("room", Math.max(0, foot - e.felt.getBoundingClientRect().top));
  set("left", column.left - area.left);
  set("width", column.width);
}
