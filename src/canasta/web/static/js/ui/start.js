// The start screen: the new-game form, the past games and the statistics.  Every choice the
// form offers (variants, table sizes, sides, targets, house rules, levels) and every default
// comes from the server's /api/options, which reads them from the registries.
import { fill, h } from "../dom.js";
import { formatDateParts, formatNumber, formatPercent, has, lang, t, tn } from "../i18n.js";
import { createGame, getPersonStats, getStats, listGames, openTable } from "../net.js";
import { rememberLinks } from "./lobby.js";
import { openRules } from "./dialogs.js";

const FORM_KEY = "canasta.form";
const FRIEND = "friend"; // a seat's choice: a person, invited by link, instead of a level
const CLOCKS = [30, 60, 120, 300]; // a table's turn clock, seconds (canasta.web.tables.CLOCKS)
const PAGE = 20; // games asked for at a time: older ones come with "Older games"

function loadForm() {
  try {
    return JSON.parse(localStorage.getItem(FORM_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function saveForm(form) {
  try {
    localStorage.setItem(FORM_KEY, JSON.stringify(form));
  } catch {
    /* ignore */
  }
}

export class StartScreen {
  constructor(root, options, { onPlay, onReplay, onTable }) {
    this.root = root;
    this.options = options;
    this.onPlay = onPlay;
    this.onReplay = onReplay;
    this.onTable = onTable;
    const saved = loadForm();
    const d = options.defaults;
    // A remembered choice the server no longer offers falls back to the server's default.
    const variant = options.variants.some((v) => v.name === saved.variant) ? saved.variant : d.variant;
    this.form = {
      variant,
      players: saved.players ?? d.players,
      target: saved.target ?? d.target,
      levels: saved.levels || {},
      houseRules: saved.houseRules && typeof saved.houseRules === "object" ? saved.houseRules : {},
      clock: CLOCKS.includes(saved.clock) ? saved.clock : null,
      name: saved.name ?? d.name ?? "",
    };
    this.fixPlayers();
    this.games = null;
    this.next = null; // the cursor of the next page of games, or null
    this.unreadable = 0; // saved games the server skipped because it cannot read them
    this.moreError = "";
    this.stats = null;
    this.loadError = "";
    this.formError = "";
    this.render();
    this.refresh();
  }

  get variant() {
    return this.form.variant;
  }

  variantInfo() {
    return this.options.variants.find((v) => v.name === this.form.variant);
  }

  /** A variant's name in the player's language; a variant the catalogues do not know yet (one
   * registered since) is shown by the title its registry gives it. */
  variantTitle(name) {
    if (has(`variant.${name}`)) return t(`variant.${name}`);
    const info = this.options.variants.find((v) => v.name === name);
    return info ? info.title : name;
  }

  fixPlayers() {
    const info = this.variantInfo();
    this.form.players = Number(this.form.players);
    if (!info.players.includes(this.form.players)) this.form.players = info.default_players;
  }

  /** The targets the server offers for the chosen variant and table. */
  targets() {
    return this.variantInfo().targets[String(this.form.players)];
  }

  defaultTarget() {
    return this.variantInfo().default_targets[String(this.form.players)];
  }

  sides() {
    return this.variantInfo().sides[String(this.form.players)];
  }

  /** The house rules the server offers for the chosen variant and table. */
  houseRuleOptions() {
    return this.variantInfo().options[String(this.form.players)] || [];
  }

  /** The chosen value of a house rule (remembered per variant), or its default. */
  houseRuleValue(option) {
    const chosen = (this.form.houseRules[this.form.variant] || {})[option.name];
    return option.choices.some((c) => c === chosen) ? chosen : option.default;
  }

  setHouseRule(name, value) {
    const f = this.form;
    f.houseRules[f.variant] = { ...(f.houseRules[f.variant] || {}), [name]: value };
    this.persist();
  }

  levelFor(seat) {
    const chosen = this.form.levels[seat];
    return this.options.levels.includes(chosen) ? chosen : this.options.defaults.level;
  }

  /** "friend" or a computer level: what the form says of a seat. */
  seatChoice(seat) {
    return this.form.levels[seat] === FRIEND ? FRIEND : this.levelFor(seat);
  }

  friendSeats() {
    const out = [];
    for (let seat = 1; seat < this.form.players; seat++) if (this.seatChoice(seat) === FRIEND) out.push(seat);
    return out;
  }

  async refresh() {
    try {
      const [page, stats, own] = await Promise.all([
        listGames({ limit: PAGE }), getStats(), getPersonStats().catch(() => null)]);
      this.games = page.games || [];
      this.next = page.next || null;
      this.unreadable = page.unreadable || 0;
      this.stats = stats;
      this.personStats = own; // this device's person's seats at tables (docs/PROTOCOL.md)
      this.loadError = "";
    } catch (err) {
      this.loadError = err.message;
    }
    this.renderGames();
    this.renderStats();
  }

  /** The next page of games, added below the ones shown; focus goes to the first new one. */
  async more() {
    const button = this.gamesBox.querySelector("[data-testid='more-games']");
    if (button) button.disabled = true;
    const shown = this.games.length;
    try {
      const page = await listGames({ limit: PAGE, before: this.next });
      this.games = [...this.games, ...(page.games || [])];
      this.next = page.next || null;
      this.unreadable += page.unreadable || 0;
      this.moreError = "";
    } catch (err) {
      this.moreError = t("start.loadError", { error: err.message }); // the games shown stay
    }
    this.renderGames();
    const first = this.gamesBox.querySelectorAll("[data-testid='game-row']")[shown];
    const target = (first && first.querySelector("button")) || this.gamesBox.querySelector("[data-testid='more-games']");
    if (target) target.focus();
  }

  render() {
    this.gamesBox = h("div", { class: "games-box" });
    this.statsBox = h("div", { class: "stats-box" });
    this.formBox = h("div", { class: "form-box" });
    fill(this.root,
      h("div", { class: "start" },
        h("section", { class: "panel panel-new", "aria-labelledby": "new-title" },
          h("h2", { id: "new-title" }, t("start.newGame")),
          this.formBox),
        h("div", { class: "start-side" },
          h("section", { class: "panel", "aria-labelledby": "games-title" },
            h("h2", { id: "games-title" }, t("start.pastGames")),
            this.gamesBox),
          h("section", { class: "panel", "aria-labelledby": "stats-title" },
            h("h2", { id: "stats-title" }, t("start.stats")),
            this.statsBox))));
    this.renderForm();
    this.renderGames();
    this.renderStats();
  }

  renderForm() {
    const f = this.form;
    const info = this.variantInfo();
    const sides = this.sides();
    const variants = this.options.variants.map((v) => {
      const id = `variant-${v.name}`;
      return h("div", { class: "variant-option" },
        h("input", {
          type: "radio", name: "variant", id, value: v.name, checked: v.name === f.variant,
          dataset: { testid: id },
          onchange: () => { f.variant = v.name; this.fixPlayers(); f.target = this.defaultTarget(); this.persist(); this.renderForm(); this.focusId(id); },
        }),
        h("label", { for: id },
          h("span", { class: "variant-title" }, this.variantTitle(v.name)),
          h("span", { class: "variant-players" }, t("start.playersList", { list: v.players.join(" / ") }))),
        h("button", {
          type: "button", class: "btn btn-small btn-ghost", dataset: { testid: `rules-${v.name}` },
          "aria-label": t("start.rulesOf", { variant: this.variantTitle(v.name) }),
          onclick: () => openRules(v.name),
        }, t("nav.rules")));
    });
    const players = h("select", {
      id: "players", dataset: { testid: "players" },
      onchange: (e) => { f.players = Number(e.target.value); f.target = this.defaultTarget(); this.persist(); this.renderForm(); this.focusId("players"); },
    }, info.players.map((n) => h("option", { value: n, selected: n === f.players }, t("start.nPlayers", { n }))));
    const targets = this.targets();
    if (!targets.includes(Number(f.target))) f.target = this.defaultTarget();
    const target = h("select", {
      id: "target", dataset: { testid: "target" },
      onchange: (e) => { f.target = Number(e.target.value); this.persist(); },
    }, targets.map((n) => h("option", { value: n, selected: n === Number(f.target) }, formatNumber(n))));
    const levels = [];
    let opp = 0;
    let opponents = 0;
    for (let seat = 1; seat < f.players; seat++) if (seat % sides !== 0) opponents++;
    for (let seat = 1; seat < f.players; seat++) {
      const partner = seat % sides === 0;
      if (!partner) opp++;
      const id = `level-${seat}`;
      const role = partner ? t("start.partner") : opponents > 1 ? t("start.opponentN", { n: opp }) : t("start.opponent");
      levels.push(h("div", { class: "field" },
        h("label", { for: id }, role, h("span", { class: "muted" }, ` · ${t("start.seat", { n: seat })}`)),
        h("select", {
          id, dataset: { testid: id },
          onchange: (e) => { f.levels[seat] = e.target.value; this.persist(); this.renderForm(); this.focusId(id); },
        },
        h("option", { value: FRIEND, selected: this.seatChoice(seat) === FRIEND }, t("start.friend")),
        this.options.levels.map((l) => h("option", { value: l, selected: l === this.seatChoice(seat) }, t(`level.${l}`))))));
    }
    const withFriends = this.friendSeats().length > 0;
    const houseRules = this.houseRuleOptions().map((o) => {
      const id = `option-${o.name}`;
      const value = this.houseRuleValue(o);
      return h("div", { class: "field" },
        h("label", { for: id }, t(`option.${o.name}`)),
        h("select", {
          id, dataset: { testid: id },
          onchange: (e) => this.setHouseRule(o.name, o.choices[Number(e.target.value)]),
        }, o.choices.map((c, i) => h("option", { value: i, selected: c === value }, t(`option.${o.name}.${c}`)))));
    });
    this.formEl = h("form", { class: "new-game", novalidate: true, onsubmit: (e) => this.submit(e) },
      h("fieldset", { class: "variants" },
        h("legend", {}, t("start.variant")),
        variants),
      h("div", { class: "field-row" },
        h("div", { class: "field" }, h("label", { for: "players" }, t("start.players")), players),
        h("div", { class: "field" }, h("label", { for: "target" }, t("start.target")), target)),
      h("fieldset", { class: "levels" },
        h("legend", {}, t("start.seats")),
        h("p", { class: "muted field-note" }, t("start.friendsNote")),
        h("div", { class: "levels-grid" }, levels)),
      houseRules.length ? h("details", {
        class: "house-rules", dataset: { testid: "house-rules" },
        // Open when a rule differs from the default, so a changed table is never hidden.
        open: this.houseRuleOptions().some((o) => this.houseRuleValue(o) !== o.default),
      },
        h("summary", {}, t("start.houseRules")),
        h("p", { class: "muted field-note" }, t("start.houseRulesNote")),
        h("div", { class: "house-grid" }, houseRules)) : null,
      withFriends ? h("div", { class: "field" },
        h("label", { for: "clock" }, t("start.clock")),
        h("select", {
          id: "clock", dataset: { testid: "clock" },
          onchange: (e) => { f.clock = e.target.value ? Number(e.target.value) : null; this.persist(); },
        },
        h("option", { value: "", selected: f.clock === null }, t("start.clock.off")),
        CLOCKS.map((n) => h("option", { value: n, selected: n === f.clock }, t("start.clock.seconds", { n }))))) : null,
      h("div", { class: "field" },
        h("label", { for: "player-name" }, t("start.name")),
        h("input", {
          id: "player-name", type: "text", autocomplete: "nickname", maxlength: "30", value: f.name,
          placeholder: t("start.namePlaceholder"), dataset: { testid: "name" },
          oninput: (e) => { f.name = e.target.value; this.persist(); },
        })),
      h("p", { class: "form-error", role: "alert", dataset: { testid: "form-error" } }, this.formError),
      h("div", { class: "form-actions" },
        h("button", { type: "submit", class: "btn btn-primary btn-large", dataset: { testid: "start-game" } },
          withFriends ? t("start.openTable") : t("start.start"))));
    fill(this.formBox, this.formEl);
  }

  focusId(id) {
    const el = this.root.querySelector(`#${id}`);
    if (el) el.focus();
  }

  persist() {
    saveForm(this.form);
  }

  async submit(e) {
    e.preventDefault();
    const f = this.form;
    const levels = [];
    const seats = [];
    for (let seat = 1; seat < f.players; seat++) {
      levels.push(this.levelFor(seat));
      seats.push(this.seatChoice(seat) === FRIEND ? { friend: true } : { level: this.levelFor(seat) });
    }
    const body = {
      variant: f.variant, players: f.players, target: Number(f.target), levels,
      name: f.name.trim() || t("start.defaultName"), lang: lang(), options: {},
    };
    for (const o of this.houseRuleOptions()) body.options[o.name] = this.houseRuleValue(o);
    const button = this.formEl.querySelector("[type=submit]");
    button.disabled = true;
    try {
      if (this.friendSeats().length) {
        delete body.levels;
        const links = await openTable({ ...body, seats, clock: f.clock });
        // The server gives the links once: this device keeps them for the host's lobby.
        rememberLinks(links);
        this.onTable(links.host);
        return;
      }
      const { id } = await createGame(body);
      this.onPlay(id);
    } catch (err) {
      this.formError = err.message;
      this.formEl.querySelector(".form-error").textContent = err.message;
      button.disabled = false;
    }
  }

  renderGames() {
    if (!this.gamesBox) return;
    if (this.loadError) {
      fill(this.gamesBox, h("p", { role: "alert" }, t("start.loadError", { error: this.loadError })));
      return;
    }
    if (this.games === null) {
      fill(this.gamesBox, h("p", { class: "muted" }, t("app.loading")));
      return;
    }
    const unreadable = this.unreadable
      ? h("p", { class: "muted", dataset: { testid: "unreadable-games" } }, tn("start.unreadable", this.unreadable))
      : null;
    const more = this.next
      ? h("p", { class: "more-games" }, h("button", {
        type: "button", class: "btn btn-small", dataset: { testid: "more-games" }, onclick: () => this.more(),
      }, t("start.moreGames")), this.moreError ? h("span", { role: "alert" }, " ", this.moreError) : null)
      : null;
    if (!this.games.length) {
      fill(this.gamesBox, h("p", { class: "muted" }, t("start.noGames")), unreadable, more);
      return;
    }
    const rows = this.games.map((g) => {
      // Each side's score unbroken; a narrow column breaks the line after a dash, never inside a
      // number (the same for the date and its time).
      const scores = (g.scores || []).flatMap((s, i) => [i ? "\u00a0– " : null,
        h("span", { class: "nowrap" }, formatNumber(s))]);
      const when = formatDateParts(g.updated || g.created).flatMap((part, i) => [i ? " " : null,
        h("span", { class: "nowrap" }, part)]);
      let result;
      if (!g.over) result = h("span", { class: "tag tag--open" }, t("start.inProgress"));
      else if (g.winner === 0) result = h("span", { class: "tag tag--won" }, t("start.won"));
      else result = h("span", { class: "tag tag--lost" }, t("start.lost"));
      const desc = `${this.variantTitle(g.variant)}, ${t("start.nPlayers", { n: g.players })}`;
      // A table's match is played and replayed through the table's link this device keeps.
      const link = g.table ? tableLink(g.table) : null;
      const onPlay = link ? () => { location.hash = `${link}&play=1`; } : () => this.onPlay(g.id);
      return h("tr", { dataset: { gameId: g.id, testid: "game-row" } },
        h("td", {}, when),
        h("th", { scope: "row" }, h("span", { class: "game-variant" }, this.variantTitle(g.variant)),
          h("span", { class: "muted game-sub" }, `${t("start.nPlayers", { n: g.players })} · ${formatNumber(g.target)}`)),
        h("td", { dataset: { label: t("start.col.hands") } }, tnHands(g.hands)),
        h("td", { class: "num" }, scores),
        h("td", {}, result),
        h("td", {}, h("div", { class: "row-actions" },
          !g.over && (!g.table || link) ? h("button", {
            type: "button", class: "btn btn-small btn-primary", dataset: { testid: "continue" },
            "aria-label": t("start.continueGame", { game: desc }), onclick: onPlay,
          }, t("start.continue")) : null,
          g.table && !link ? null : h("button", {
            type: "button", class: "btn btn-small", dataset: { testid: "replay" },
            "aria-label": t("start.replayGame", { game: desc }),
            onclick: link ? () => { location.hash = `${link}&replay=1`; } : () => this.onReplay(g.id, 1),
          }, t("start.replay")))));
    });
    fill(this.gamesBox, h("div", { class: "table-scroll" }, h("table", { class: "games-table", dataset: { testid: "games" } },
      h("caption", { class: "visually-hidden" }, t("start.pastGames")),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("start.col.date")),
        h("th", { scope: "col" }, t("start.col.game")),
        h("th", { scope: "col" }, t("start.col.hands")),
        h("th", { scope: "col" }, t("start.col.scores")),
        h("th", { scope: "col" }, t("start.col.result")),
        h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("start.col.actions"))))),
      h("tbody", {}, rows))), unreadable, more);
  }

  renderStats() {
    if (!this.statsBox) return;
    const s = this.stats;
    if (!s) {
      fill(this.statsBox, this.loadError ? null : h("p", { class: "muted" }, t("app.loading")));
      return;
    }
    const own = this.personStats;
    fill(this.statsBox, statsList(s, "stats"),
      own && own.games ? [h("h3", { class: "stats-subtitle" }, t("start.tableStats")), statsList(own, "person-stats")] : null);
  }

  relabel() {
    this.render();
  }
}

/** The statistics as the server counts them (GET /api/stats, /api/person/stats). */
function statsList(s, testid) {
  const pct = (a, b) => (b ? ` (${formatPercent(a, b)})` : "");
  const items = [
    ["games", formatNumber(s.games ?? 0)],
    ["games_finished", formatNumber(s.games_finished ?? 0)],
    ["games_won", formatNumber(s.games_won ?? 0) + pct(s.games_won ?? 0, s.games_finished ?? 0)],
    ["hands", formatNumber(s.hands ?? 0)],
    ["hands_won", formatNumber(s.hands_won ?? 0) + pct(s.hands_won ?? 0, s.hands ?? 0)],
    ["average_hand_score", formatNumber(Math.round(s.average_hand_score ?? 0))],
  ];
  return h("dl", { class: "stats", dataset: { testid } },
    items.map(([k, v]) => h("div", { class: "stat" }, h("dt", {}, t(`stats.${k}`)), h("dd", {}, v))));
}

/** The fragment of a table's link this device holds (the host's, or a seat's), or null. */
function tableLink(tableId) {
  try {
    const links = JSON.parse(localStorage.getItem(`canasta.table.${tableId}`) || "null");
    if (links && links.host) return new URL(links.host).hash.replace(/^#/, "");
    const seat = JSON.parse(localStorage.getItem(`canasta.seat.${tableId}`) || "null");
    if (typeof seat === "string") return `table=${encodeURIComponent(tableId)}&k=${encodeURIComponent(seat)}`;
  } catch {
    /* storage unavailable: no link */
  }
  return null;
}

function tnHands(n) {
  return formatNumber(n ?? 0);
}
