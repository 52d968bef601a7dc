// Dialogs: the rules, the keyboard shortcuts, and the helpers the others use.
import { $, fill, h } from "../dom.js";
import { lang, t } from "../i18n.js";

/** Close buttons ([data-close]) and a click on the backdrop close a dialog. */
export function wireDialogs() {
  for (const dialog of document.querySelectorAll("dialog")) {
    for (const btn of dialog.querySelectorAll("[data-close]")) btn.addEventListener("click", () => dialog.close());
    dialog.addEventListener("click", (e) => {
      if (e.target === dialog && dialog.dataset.dismissable !== "false") dialog.close();
    });
  }
}

export function openDialog(dialog) {
  if (!dialog.open) dialog.showModal();
}

export function anyDialogOpen() {
  return Array.from(document.querySelectorAll("dialog")).some((d) => d.open);
}

let rulesRequest = 0;
let rulesHouse = null;

/** The house rules a game is played with, as a list of "rule: choice" lines. */
function houseRulesBox(houseRules) {
  const names = Object.keys(houseRules || {});
  if (!names.length) return null;
  return h("section", { class: "house-rules-box", dataset: { testid: "game-house-rules" } },
    h("h3", {}, t("rules.houseRules")),
    h("dl", { class: "house-rules-list" }, names.map((name) => h("div", {},
      h("dt", {}, t(`option.${name}`)),
      h("dd", {}, t(`option.${name}.${houseRules[name]}`))))));
}

/** Show a variant's rules (static/rules/<variant>.<lang>.html) in the rules dialog; from a
 * game, ``houseRules`` (the view's house_rules) are listed first. */
export async function openRules(variant, houseRules = null) {
  const dialog = $("#rules-dialog");
  const body = $("#rules-body");
  const title = $("#rules-title");
  title.textContent = t("rules.titleFor", { variant: t(`variant.${variant}`) });
  dialog.dataset.variant = variant;
  rulesHouse = houseRules;
  fill(body, h("p", { class: "muted" }, t("app.loading")));
  openDialog(dialog);
  const request = ++rulesRequest;
  try {
    const res = await fetch(`/static/rules/${encodeURIComponent(variant)}.${lang()}.html`);
    if (!res.ok) throw new Error(String(res.status));
    const html = await res.text();
    if (request !== rulesRequest) return;
    // A fragment of our own static files, written by the project: shown as it is.
    const doc = new DOMParser().parseFromString(html, "text/html");
    for (const bad of doc.querySelectorAll("script, link, style, iframe")) bad.remove();
    body.replaceChildren(...Array.from(doc.body.childNodes));
    const house = houseRulesBox(houseRules);
    if (house) body.prepend(house);
    // The fragment's headings sit under the dialog's h2.
    for (const h1 of body.querySelectorAll("h1")) {
      const h3 = document.createElement("h3");
      h3.append(...h1.childNodes);
      h1.replaceWith(h3);
    }
  } catch {
    if (request !== rulesRequest) return;
    fill(body, h("p", { role: "alert" }, t("rules.unavailable")));
  }
}

/** Re-open the rules in the new language when the language changes while they are open. */
export function refreshRules() {
  const dialog = $("#rules-dialog");
  if (dialog.open && dialog.dataset.variant) openRules(dialog.dataset.variant, rulesHouse);
}

/** The next hand's key (the score sheet's button says it too). */
export const NEXT_HAND = "o";

export const SHORTCUTS = [
  ["d", "draw"], ["t", "take"], ["m", "meld"], ["g", "addGroup"], ["a", "addTo"], ["x", "discard"],
  ["p", "pass"], ["q", "ask"], ["y", "yes"], ["n", "no"], ["u", "undo"], ["h", "hint"], ["c", "clear"],
  ["s", "sort"], [NEXT_HAND, "nextHand"], ["k", "scoreSheet"], ["r", "rules"], ["?", "help"],
];

/** The keys that move around, named in the player's language (keys.*), and what they do. */
const NAV_KEYS = [
  ["arrows", "navCards"], ["homeEnd", "navEnds"], ["spaceEnter", "toggle"], ["esc", "escape"],
  ["replayArrows", "replaySteps"],
];

export function openHelp() {
  const dialog = $("#help-dialog");
  const row = ([key, name]) => h("tr", {},
    h("th", { scope: "row" }, h("kbd", {}, key)), h("td", {}, t(`help.${name}`)));
  fill($("#help-body"),
    h("p", {}, t("help.intro")),
    h("table", { class: "keys-table" },
      h("caption", {}, t("help.actions")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("help.key")), h("th", { scope: "col" }, t("help.does")))),
      h("tbody", {}, SHORTCUTS.map(row))),
    h("table", { class: "keys-table" },
      h("caption", {}, t("help.navigation")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("help.key")), h("th", { scope: "col" }, t("help.does")))),
      h("tbody", {}, NAV_KEYS.map(([key, name]) => row([t(`keys.${key}`), name])))),
    h("p", { class: "muted" }, t("help.mouse")));
  openDialog(dialog);
}
