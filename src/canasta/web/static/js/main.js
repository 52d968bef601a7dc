// The client's entry point: language, header controls, and which screen the URL asks for
// ("" start, "#game=<id>", "#replay=<id>&hand=N", a table's link "#table=<id>&k=<key>").
import { $, fill, h } from "./dom.js";
import {
  LANGS, applyStatic, detectLang, lang, langName, loadCatalogues, onLangChange, setLang, t,
} from "./i18n.js";
import { deviceKey } from "./device.js";
import { getOptions, getTableReplay } from "./net.js";
import { SPEEDS, settings } from "./settings.js";
import { StartScreen } from "./ui/start.js";
import { GameScreen } from "./ui/game.js";
import { ReplayScreen } from "./ui/replay.js";
import { TableScreen, parseTableHash } from "./ui/lobby.js";
import { anyDialogOpen, openHelp, openRules, refreshRules, wireDialogs } from "./ui/dialogs.js";

const SCREENS = ["start", "game", "replay", "table"];

const app = {
  options: null,
  screen: null, // the active screen object
  screenName: "",
};

function parseHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (params.get("table")) { // (first: a table's link may go on with "&play=1" or "&replay=N")
    const name = params.get("play") ? "play" : params.get("replay") ? "table-replay" : "table";
    return { name, hand: Number(params.get("replay")) || 1, ...parseTableHash(location.hash) };
  }
  if (params.get("game")) return { name: "game", id: params.get("game") };
  if (params.get("replay")) return { name: "replay", id: params.get("replay"), hand: Number(params.get("hand")) || 1 };
  return { name: "start" };
}

/** A table's link with "play=1" (the match, not the lobby), the parameter given once. */
function withPlay(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  params.set("play", "1");
  return params.toString();
}

function showSection(name) {
  for (const s of SCREENS) $(`#${s}-screen`).hidden = s !== name;
  // The game screen is laid out to the window's height (style.css: the table on one screen).
  document.body.dataset.screen = name;
  $("#home-button").hidden = name === "start";
  $("#speed-field").hidden = name !== "game";
}

function route() {
  if (app.screen && app.screen.dispose) app.screen.dispose();
  app.screen = null;
  // Only one screen's controls exist at a time (test ids and live regions stay unique).
  for (const s of SCREENS) fill($(`#${s}-screen`));
  const target = parseHash();
  // (a table's match and its replay are the game and replay screens)
  app.screenName = { play: "game", "table-replay": "replay" }[target.name] || target.name;
  showSection(app.screenName);
  document.body.dataset.busy = "true";
  if (target.name === "table-replay") { // a table's match as the reader's seat saw it
    document.title = `${t("replay.title")} · ${t("app.title")}`;
    const base = `table=${encodeURIComponent(target.id)}&k=${encodeURIComponent(target.key)}`;
    app.screen = new ReplayScreen($("#replay-screen"), target.id, target.hand, {
      onExit: goHome,
      onHand: (hand) => history.replaceState(null, "", `#${base}&replay=${hand}`),
      fetch: (id, hand) => getTableReplay(id, target.key, hand),
    });
  } else if (target.name === "play") { // a table's match: the game screen, on the table's socket
    document.title = `${t("game.title")} · ${t("app.title")}`;
    app.screen = new GameScreen($("#game-screen"), target.id, {
      onExit: goHome, table: { id: target.id, key: target.key },
    });
  } else if (target.name === "game") {
    document.title = `${t("game.title")} · ${t("app.title")}`;
    app.screen = new GameScreen($("#game-screen"), target.id, { onExit: goHome });
  } else if (target.name === "table") {
    document.title = `${t("table.title")} · ${t("app.title")}`;
    app.screen = new TableScreen($("#table-screen"), target.id, target.key, {
      // (the key the screen holds: a seat's own, once its friend sat down through the table link)
      // (once, however often it is called: the host's start and the table's news of it both
      // come before the hash's change reaches route())
      onGame: () => { location.hash = withPlay(location.hash); },
      onExit: goHome,
    });
    document.body.dataset.busy = "false";
  } else if (target.name === "replay") {
    document.title = `${t("replay.title")} · ${t("app.title")}`;
    app.screen = new ReplayScreen($("#replay-screen"), target.id, target.hand, {
      onExit: goHome,
      onHand: (hand) => history.replaceState(null, "", `#replay=${encodeURIComponent(target.id)}&hand=${hand}`),
    });
  } else {
    document.title = t("app.title");
    app.screen = new StartScreen($("#start-screen"), app.options, {
      onPlay: (id) => { location.hash = `game=${encodeURIComponent(id)}`; },
      onReplay: (id, hand) => { location.hash = `replay=${encodeURIComponent(id)}&hand=${hand}`; },
      onTable: (link) => { location.hash = new URL(link).hash; },
    });
    document.body.dataset.busy = "false";
  }
}

function goHome() {
  if (location.hash) location.hash = "";
  else route();
}

function fillHeaderControls() {
  const langSelect = $("#lang-select");
  fill(langSelect, LANGS.map((code) => h("option", { value: code, lang: code, selected: code === lang() }, langName(code))));
  const speedSelect = $("#speed-select");
  fill(speedSelect, Object.keys(SPEEDS).map((s) => h("option", { value: s, selected: s === settings.speed() }, t(`settings.speed.${s}`))));
}

function relabel() {
  applyStatic();
  fillHeaderControls();
  if (app.screen && app.screen.relabel) app.screen.relabel();
  refreshRules();
  const titles = { game: "game.title", replay: "replay.title", table: "table.title" };
  document.title = titles[app.screenName] ? `${t(titles[app.screenName])} · ${t("app.title")}` : t("app.title");
}

async function init() {
  deviceKey(); // made on the first visit, before anything is asked of the server
  setLang(detectLang(), { remember: false });
  try {
    await loadCatalogues();
  } catch (err) {
    $("#loading").textContent = `Error: ${err.message}`;
    return;
  }
  applyStatic();
  fillHeaderControls();
  wireDialogs();
  $("#lang-select").addEventListener("change", (e) => setLang(e.target.value));
  $("#speed-select").addEventListener("change", (e) => settings.setSpeed(e.target.value));
  $("#home-button").addEventListener("click", goHome);
  $("#help-button").addEventListener("click", openHelp);
  $("#rules-button").addEventListener("click", () => {
    const variant = (app.screen && app.screen.variant) || (app.options && app.options.defaults.variant);
    openRules(variant, (app.screen && app.screen.houseRules) || null);
  });
  onLangChange(relabel);
  // "?" opens the shortcuts everywhere (the game screen handles its own keys).
  document.addEventListener("keydown", (e) => {
    if (app.screenName === "game" || e.ctrlKey || e.metaKey || e.altKey || anyDialogOpen()) return;
    if (e.target && e.target.closest("input, select, textarea")) return;
    if (e.key === "?") { e.preventDefault(); openHelp(); }
  });
  try {
    app.options = await getOptions();
  } catch (err) {
    $("#loading").textContent = t("start.loadError", { error: err.message });
    return;
  }
  $("#loading").hidden = true;
  window.addEventListener("hashchange", route);
  route();
}

init();
