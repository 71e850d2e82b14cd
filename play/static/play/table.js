// The table: your sheet(s) as the API draws them, the turn's combinations (solo: the hand and
// ASTRA), every option of your decision where it applies (a sheet element whose id an option
// names is clickable; the other options are buttons), undo and confirm, the other seats, the
// deadline, the result. It knows no rule: what may be done is what GET /decision lists.
import { follow, get, post, svg, waitingRoom as lobbyView } from "./api.js";
import { h, parseSvg, toast } from "./dom.js";
import { t } from "./i18n.js";
import { adventureName } from "./lobby.js";

// The fields under which an option names the sheet element it applies to, most precise first.
const TARGETS = [
  "space", "airlock", "arrow", "asteroid", "box", "column", "element", "greenhouse", "moon",
  "plant", "quarter", "reactor", "robot", "section", "symbol", "tank", "track", "tunnel",
  "walkway", "wall", "multiplier", "target", "planet",
];

function words(text) {
  return String(text).replaceAll("_", " ");
}

// An option in words: its own text when the server gives one, else its fields.
export function describe(option) {
  if (option.text) return option.text;
  switch (option.action) {
    case "write": {
      let text = t("opt_write", { number: option.number });
      if (option.modifier) text += ` (${option.modifier > 0 ? "+" : ""}${option.modifier})`;
      if (option.wild_action) text += ` · ${words(option.wild_action)}`;
      return text;
    }
    case "draw": return t("opt_draw", { number: option.number, planet: option.planet });
    case "system_error": return t("opt_system_error");
    case "skip": return t("opt_skip", { effect: words(option.effect) });
    case "claim_mission": return t("opt_claim", { letter: option.letter });
    case "give": return t("opt_give", { card: option.card });
    case "remove": return t("opt_remove", { card: option.card });
    default: {
      const named = TARGETS.filter((key) => typeof option[key] === "string").map((key) => option[key]);
      return [words(option.action), option.effect && option.effect !== option.action ? `(${words(option.effect)})` : "", ...named]
        .filter(Boolean).join(" ");
    }
  }
}

// The sheet element an option applies to, if the drawn sheet has it.
function elementOf(option, drawing) {
  for (const key of TARGETS) {
    const value = option[key];
    if (typeof value !== "string") continue;
    const cell = drawing.querySelector(`g.cell[data-element="${CSS.escape(value)}"]`);
    if (cell) return cell;
  }
  return null;
}

function seatName(seat) {
  return seat.username || t("bot_kind", { kind: seat.bot });
}

function scoreLines(breakdown, prefix = "") {
  const lines = [];
  for (const [key, value] of Object.entries(breakdown || {})) {
    const name = `${prefix}${words(key)}`;
    if (value && typeof value === "object") lines.push(...scoreLines(value, `${name} · `));
    else if (key !== "total" || prefix) lines.push([name, value]);
  }
  return lines;
}

function countdown(deadline) {
  const element = h("span", { class: "deadline", id: "deadline" });
  if (!deadline) return { element, stop: () => {} };
  const end = new Date(deadline).getTime();
  const tick = () => {
    const left = Math.max(0, Math.round((end - Date.now()) / 1000));
    element.textContent = t("time_left", { minutes: Math.floor(left / 60), seconds: String(left % 60).padStart(2, "0") });
    element.classList.toggle("urgent", left <= 10);
  };
  tick();
  const timer = setInterval(tick, 1000);
  return { element, stop: () => clearInterval(timer) };
}

function waitingRoom(game, refresh) {
  const act = (path, body) => async () => {
    try { await post(path, body); await refresh(); } catch (error) { toast(error.message); }
  };
  const link = game.invite ? `${location.origin}${location.pathname}#/join/${game.id}/${encodeURIComponent(game.invite)}` : null;
  const full = game.seats.length >= game.max_players;
  return h("section", { class: "card lobby-table" },
    h("h2", {}, `${adventureName(game.adventure)} #${game.id}`),
    h("p", {}, t("waiting_for_players", { taken: game.seats.length, seats: game.max_players })),
    h("ul", { class: "seats" }, game.seats.map((seat) => h("li", {}, `${seat.seat}. ${seatName(seat)}`))),
    link && h("p", {}, t("invite_link"), " ", h("input", { id: "invite-link", readonly: true, value: link, onclick: (e) => e.target.select() })),
    h("div", { class: "row" },
      !full && game.max_players > 1 && h("button", { type: "button", id: "add-bot", onclick: act(`/games/${game.id}/bots`, { kind: "greedy" }) }, t("add_bot")),
      h("button", { type: "button", id: "start", onclick: act(`/games/${game.id}/start`) }, t("start")),
      h("button", { type: "button", class: "quiet", onclick: async () => { await act(`/games/${game.id}/leave`)(); location.hash = "#/lobby"; } }, t("leave"))));
}

function turnCards(game, chosen, choose) {
  const cards = h("div", { class: "combinations" });
  (game.combinations || []).forEach((pair, index) => {
    cards.append(h("button", {
      type: "button",
      class: `combination${chosen === index ? " chosen" : ""}`,
      "data-combination": index,
      onclick: () => choose(chosen === index ? null : index),
    }, h("strong", {}, pair.number), h("span", {}, words(pair.action))));
  });
  return cards;
}

function astraPanel(game) {
  if (!game.astra) return null;
  const astra = game.astra;
  return h("section", { class: "card astra" },
    h("h3", {}, t("astra_title", { name: astra.name, level: astra.level })),
    h("p", {}, t("astra_score", { score: astra.score ?? "?" })),
    astra.pile && h("ul", { class: "pile" }, Object.entries(astra.pile).map(([action, cards]) => h("li", {}, `${words(action)}: ${cards}`))),
    game.hand?.length > 0 && h("p", {}, t("your_hand"), " ", game.hand.map((card) => `${card.number} ${words(card.action)}`).join(" · ")));
}

function seatsPanel(game) {
  return h("ul", { class: "seats" }, game.seats.map((seat) => h("li", {
    class: seat.confirmed ? "confirmed" : "choosing", "data-seat": seat.seat,
  }, `${seatName(seat)}${seat.seat === game.seat ? ` (${t("you")})` : ""}: `,
  h("em", {}, seat.resigned ? t("resigned") : seat.confirmed ? t("confirmed") : t("choosing")))));
}

function resultPanel(game, campaign) {
  const result = game.result;
  if (!result) return null;
  const names = Object.fromEntries(game.seats.map((seat) => [seat.seat, seatName(seat)]));
  return h("section", { class: "card result", id: "result" },
    h("h2", {}, t("result")),
    h("p", {}, t("winners", { names: result.winners.map((seat) => names[seat] ?? (seat === "astra" ? "ASTRA" : seat)).join(", ") })),
    result.scores.map((score) => h("details", { open: score.seat === game.seat },
      h("summary", {}, `${score.rank}. ${names[score.seat]}: ${score.total}`),
      h("table", {}, scoreLines(score.breakdown).map(([name, value]) => h("tr", {}, h("td", {}, name), h("td", {}, String(value))))))),
    result.astra && h("p", {}, t("astra_total", { total: result.astra.total })),
    h("p", { class: "row" },
      h("a", { id: "replay-link", href: `#/replay/${game.id}` }, t("replay_game")),
      campaign && h("a", { id: "campaign-link", href: `#/campaign/${campaign}` }, t("back_to_campaign"))));
}

// The sheets the player does not play on, each folded until opened (then drawn, as the API
// shows them to this player: as of the last resolved turn).
function otherSheets(game, opened, id) {
  const others = (game.sheets || []).filter((sheet) => !sheet.seats.includes(game.seat));
  if (!others.length) return null;
  const names = Object.fromEntries(game.seats.map((seat) => [seat.seat, seatName(seat)]));
  return h("section", { class: "card others", id: "other-sheets" },
    h("h3", {}, t("other_sheets")),
    others.map((sheet) => {
      const box = h("div", { class: "sheet-scroll small" });
      const fold = h("details", { class: "other-sheet", "data-sheet": sheet.sheet, open: opened.has(sheet.sheet) },
        h("summary", {}, t("sheet_of", { names: sheet.seats.map((seat) => names[seat] ?? seat).join(", ") })), box);
      const show = async () => {
        if (!fold.open) { opened.delete(sheet.sheet); return; }
        opened.add(sheet.sheet);
        box.replaceChildren(parseSvg(await svg(`/games/${id}/sheets/${sheet.sheet}.svg`)));
      };
      fold.addEventListener("toggle", () => show().catch((error) => toast(error.message)));
      return fold;
    }));
}

// The table of game `id`; `campaign`: the campaign it is a chapter of (linked back to).
export async function table(root, id, campaign = null) {
  let chosen = null; // the combination the player filters the options by
  const opened = new Set(); // the other seats' sheets the player unfolded
  let stopClock = () => {};
  let pending = null;
  let game = null;
  let shownDecision = null;
  const lobby = lobbyView(root, refresh);

  // One move at a time: until its answer is drawn, the options on the page are no longer
  // the decision's (a second click would send a stale one).
  let busy = false;
  const move = async (path, body) => {
    if (busy) return;
    busy = true;
    root.classList.add("busy");
    try {
      await post(path, body);
    } catch (error) {
      toast(error.message);
    }
    try {
      await refresh();
    } finally {
      busy = false;
      root.classList.remove("busy");
    }
  };

  const chooser = h("div", { class: "chooser", id: "chooser", hidden: true });
  const showChoices = (options, title) => {
    chooser.replaceChildren(h("p", {}, title), ...options.map((option) =>
      h("button", { type: "button", class: "option", onclick: () => { chooser.hidden = true; move(`/games/${id}/moves`, { choice: option }); } }, describe(option))),
      h("button", { type: "button", class: "quiet", onclick: () => { chooser.hidden = true; } }, t("cancel")));
    chooser.hidden = false;
    chooser.scrollIntoView({ block: "nearest" });
  };

  async function drawSheets(decision) {
    const mine = (game.sheets || []).filter((sheet) => sheet.seats.includes(game.seat));
    const drawings = await Promise.all(mine.map((sheet) => svg(`/games/${id}/sheets/${sheet.sheet}.svg`)));
    return mine.map((sheet, index) => {
      const drawing = parseSvg(drawings[index]);
      const playing = decision.sheet === sheet.sheet;
      return h("figure", { class: `sheet-figure${playing ? " playing" : ""}`, "data-sheet": sheet.sheet },
        mine.length > 1 && h("figcaption", {}, playing ? t("sheet_played", { sheet: sheet.sheet }) : t("sheet_n", { sheet: sheet.sheet })),
        h("div", { class: "sheet-scroll" }, drawing));
    });
  }

  function offer(decision, figures) {
    const options = decision.options.filter((option) => chosen === null || !("combination" in option) || option.combination === chosen);
    const drawing = figures.find((figure) => figure.classList.contains("playing"))?.querySelector("svg") ?? figures[0]?.querySelector("svg");
    const byElement = new Map();
    const buttons = [];
    for (const option of options) {
      const cell = drawing ? elementOf(option, drawing) : null;
      if (!cell) { buttons.push(option); continue; }
      if (!byElement.has(cell)) byElement.set(cell, []);
      byElement.get(cell).push(option);
    }
    for (const [cell, here] of byElement) {
      cell.classList.add("choosable");
      cell.setAttribute("tabindex", "0");
      const pick = () => (here.length === 1 ? move(`/games/${id}/moves`, { choice: here[0] }) : showChoices(here, cell.dataset.element));
      cell.addEventListener("click", pick);
      cell.addEventListener("keydown", (event) => { if (event.key === "Enter") pick(); });
    }
    return buttons;
  }

  // One drawing at a time, from answers read after every move and message so far: a drawing
  // asked for while one is under way runs once more after it (never shows older options).
  let drawing = null;
  let again = false;
  async function refresh() {
    if (drawing) {
      again = true;
      return drawing;
    }
    drawing = (async () => {
      do {
        again = false;
        await draw();
      } while (again);
    })();
    try {
      await drawing;
    } finally {
      drawing = null;
    }
  }

  async function draw() {
    game = await get(`/games/${id}`);
    stopClock();
    if (lobby.show(game, () => waitingRoom(game, refresh))) return;
    const decision = game.seat === null ? { kind: "wait", options: [], can_undo: false, can_confirm: false, sheet: null } : await get(`/games/${id}/decision`);
    shownDecision = JSON.stringify(decision);
    const figures = await drawSheets(decision);
    const buttons = offer(decision, figures);
    const clock = countdown(game.status === "playing" ? game.deadline : null);
    stopClock = clock.stop;
    const actions = h("div", { class: "actions", id: "actions" },
      h("p", { class: "decision", id: "decision", "data-kind": decision.kind }, t(`decision_${decision.kind}`)),
      buttons.map((option) => h("button", { type: "button", class: "option", onclick: () => move(`/games/${id}/moves`, { choice: option }) }, describe(option))),
      h("div", { class: "row" },
        decision.can_undo && h("button", { type: "button", id: "undo", class: "quiet", onclick: () => move(`/games/${id}/undo`) }, t("undo")),
        decision.can_confirm && h("button", { type: "button", id: "confirm", onclick: () => move(`/games/${id}/confirm`) }, t("confirm"))));
    root.replaceChildren(...[
      h("section", { class: "card status-bar" },
        h("h2", {}, `${adventureName(game.adventure)} #${game.id}`),
        h("span", { id: "turn" }, game.status === "finished" ? t("status_finished") : t("turn_n", { turn: game.turn ?? "-" })),
        clock.element),
      resultPanel(game, campaign),
      h("div", { class: "table-layout" },
        h("div", { class: "sheets" }, figures),
        h("aside", { class: "side" },
          game.status === "playing" && h("section", { class: "card" }, h("h3", {}, t(game.astra ? "pairs_of_hand" : "combinations")), turnCards(game, chosen, (index) => { chosen = index; refresh(); })),
          game.status === "playing" && h("section", { class: "card" }, actions, chooser),
          astraPanel(game),
          h("section", { class: "card" }, h("h3", {}, t("seats_title")), seatsPanel(game)),
          otherSheets(game, opened, id),
          h("p", { class: "row" },
            campaign && h("a", { href: `#/campaign/${campaign}` }, t("back_to_campaign")),
            h("a", { href: "#/lobby" }, t("back_to_lobby"))))),
    ].filter(Boolean));
  }

  // A message tells what the page may not show yet: an event after the feed's end it drew, or a
  // decision other than the one drawn (the answer to the player's own move is drawn already).
  const later = (kind, data, seq) => {
    if (kind === "event" && seq !== null && game && seq <= game.version) return;
    if (kind === "decision" && JSON.stringify(data) === shownDecision) return;
    clearTimeout(pending);
    pending = setTimeout(() => refresh().catch((error) => toast(error.message)), 150);
  };
  await refresh();
  const stopStream = game.status === "lobby" || game.seat !== null ? follow(`/games/${id}`, later) : () => {};
  return () => { stopStream(); stopClock(); clearTimeout(pending); lobby.stop(); };
}
