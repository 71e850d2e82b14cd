// A finished game step by step, from the player's own feed: step n is the game as the player
// could see it once event n of their feed was readable (GET /replay?seq=n), with the player's
// sheets drawn as they were then (GET /sheets/{n}.svg?seq=n) and the event that made the step.
import { get, svg } from "./api.js";
import { h, parseSvg, toast } from "./dom.js";
import { t } from "./i18n.js";
import { adventureName } from "./lobby.js";

function words(text) {
  return String(text).replaceAll("_", " ");
}

export async function replayPage(root, id) {
  const game = await get(`/games/${id}`);
  const feed = [];
  for (let after = 0; after !== null;) {
    const page = await get(`/games/${id}/events?after=${after}&limit=500`);
    feed.push(...page.events);
    after = page.next;
  }
  const names = Object.fromEntries(game.seats.map((seat) => [seat.seat, seat.username || t("bot_kind", { kind: seat.bot })]));
  const mine = (game.sheets || []).filter((sheet) => sheet.seats.includes(game.seat));
  let step = 1;

  async function show() {
    root.classList.add("busy");
    try {
      const [replay, ...drawings] = await Promise.all([
        get(`/games/${id}/replay?seq=${step}`),
        ...mine.map((sheet) => svg(`/games/${id}/sheets/${sheet.sheet}.svg?seq=${step}`)),
      ]);
      const event = feed[step - 1];
      const go = (to) => () => { step = Math.min(feed.length, Math.max(1, to)); show().catch((error) => toast(error.message)); };
      root.replaceChildren(
        h("section", { class: "card status-bar" },
          h("h2", {}, `${t("replay")}: ${adventureName(game.adventure)} #${game.id}`),
          h("span", { id: "replay-step", "data-step": step }, t("step_n", { step, steps: feed.length })),
          h("span", {}, t("turn_n", { turn: replay.game.turn ?? "-" }))),
        h("section", { class: "card replay-controls" },
          h("div", { class: "row" },
            h("button", { type: "button", id: "replay-first", class: "quiet", disabled: step === 1, onclick: go(1), "aria-label": t("first_step") }, "«"),
            h("button", { type: "button", id: "replay-previous", disabled: step === 1, onclick: go(step - 1) }, t("previous")),
            h("button", { type: "button", id: "replay-next", disabled: step === feed.length, onclick: go(step + 1) }, t("next")),
            h("button", { type: "button", id: "replay-last", class: "quiet", disabled: step === feed.length, onclick: go(feed.length), "aria-label": t("last_step") }, "»"),
            h("a", { href: `#/game/${id}` }, t("back_to_table"))),
          h("p", { id: "replay-event" },
            event.seat === null ? "" : `${names[event.seat] ?? event.seat}: `,
            h("strong", {}, words(event.kind)))),
        h("div", { class: "sheets" }, mine.map((sheet, index) => h("figure", { class: "sheet-figure", "data-sheet": sheet.sheet },
          mine.length > 1 && h("figcaption", {}, t("sheet_n", { sheet: sheet.sheet })),
          h("div", { class: "sheet-scroll" }, parseSvg(drawings[index]))))));
    } finally {
      root.classList.remove("busy");
    }
  }
  await show();
  return () => {};
}
