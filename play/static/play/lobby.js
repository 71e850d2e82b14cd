// The lobby: public tables to join, your own games and campaigns, and forms to open a new
// game or a new campaign.
import { get, post } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";

export const ADVENTURES = [1, 2, 3, 4, 5, 6, 7, 8];

export function adventureName(number) {
  return number ? t(`adventure_${number}`) : t("campaign");
}

function numberSelect(name, from, to, chosen) {
  const select = h("select", { name });
  for (let value = from; value <= to; value += 1) {
    select.append(h("option", { value, selected: value === chosen }, value));
  }
  return select;
}

// A new table's form, a game's or a campaign's: its seats, bots, ASTRA level (solo only), turn
// deadline and visibility, and before them the fields only one of them has (``extra``). On
// submit: create the table with ``extraBody()`` added, fill the bots' seats, open it.
function tableForm({ path, page, formId, buttonId, buttonText, defaultBots, extra = [], extraBody = () => ({}) }) {
  const seats = numberSelect("seats", 1, 6, 2);
  const bots = numberSelect("bots", 0, 5, defaultBots);
  const astra = numberSelect("astra_level", 1, 8, 1);
  const deadline = h("input", { name: "turn_seconds", type: "number", min: 10, placeholder: t("no_deadline") });
  const visibility = h("select", { name: "visibility" },
    h("option", { value: "private" }, t("private")), h("option", { value: "public" }, t("public")));
  const astraLabel = h("label", { hidden: true }, t("astra_level"), astra);
  seats.addEventListener("change", () => { astraLabel.hidden = seats.value !== "1"; });
  const submit = async (event) => {
    event.preventDefault();
    const body = { ...extraBody(), max_players: Number(seats.value), visibility: visibility.value };
    if (body.max_players === 1) body.astra_level = Number(astra.value);
    if (deadline.value) body.turn_seconds = Number(deadline.value);
    try {
      const table = await post(path, body);
      for (let bot = 0; bot < Math.min(Number(bots.value), body.max_players - 1); bot += 1) {
        await post(`${path}/${table.id}/bots`, { kind: "greedy" });
      }
      location.hash = `#/${page}/${table.id}`;
    } catch (error) {
      toast(error.message);
    }
  };
  astraLabel.hidden = seats.value !== "1";
  return h("form", { class: "create", id: formId, onsubmit: submit },
    ...extra,
    h("label", {}, t("seats"), seats),
    h("label", {}, t("bots"), bots),
    astraLabel,
    h("label", {}, t("turn_deadline"), deadline),
    h("label", {}, t("visibility"), visibility),
    h("button", { type: "submit", id: buttonId }, buttonText));
}

function createForm() {
  const adventure = h("select", { name: "adventure" },
    ADVENTURES.map((number) => h("option", { value: number }, `${number}. ${adventureName(number)}`)));
  return tableForm({
    path: "/games", page: "game", buttonId: "create-game", buttonText: t("create_game"), defaultBots: 0,
    extra: [h("label", {}, t("adventure"), adventure)],
    extraBody: () => ({ adventure: Number(adventure.value) }),
  });
}

function campaignForm() {
  return tableForm({
    path: "/campaigns", page: "campaign", formId: "campaign-form", buttonId: "create-campaign",
    buttonText: t("create_campaign"), defaultBots: 1,
  });
}

function myCampaigns(page) {
  if (!page.results.length) return h("p", { class: "muted" }, t("no_campaigns_yet"));
  return h("ul", { class: "tables" }, page.results.map((campaign) =>
    h("li", { class: "my-campaign", "data-id": campaign.id },
      h("a", { href: `#/campaign/${campaign.id}` }, `${t("campaign")} #${campaign.id}`),
      h("span", { class: `status ${campaign.status}` }, t(`campaign_${campaign.status}`)),
      h("span", { class: "muted" }, campaign.seats.map((seat) => seat.username || t("bot")).join(", ")))));
}

function publicTables(page) {
  if (!page.results.length) return h("p", { class: "muted" }, t("no_public_tables"));
  return h("ul", { class: "tables" }, page.results.map((entry) => {
    const joinIt = async () => {
      try {
        if (entry.type === "game") {
          await post(`/games/${entry.id}/join`, {});
          location.hash = `#/game/${entry.id}`;
        } else {
          await post(`/campaigns/${entry.id}/join`, {});
          location.hash = `#/campaign/${entry.id}`;
        }
      } catch (error) {
        toast(error.message);
      }
    };
    return h("li", { class: "table-entry", "data-id": entry.id },
      h("span", {}, `${entry.type === "game" ? adventureName(entry.adventure) : t("campaign")} #${entry.id}`),
      h("span", { class: "muted" }, t("by_seats", { creator: entry.creator, taken: entry.seats_taken, seats: entry.max_players })),
      h("button", { type: "button", onclick: joinIt }, t("join")));
  }));
}

function myGames(page) {
  if (!page.results.length) return h("p", { class: "muted" }, t("no_games_yet"));
  return h("ul", { class: "tables" }, page.results.map((game) =>
    h("li", { class: "my-game", "data-id": game.id },
      h("a", { href: `#/game/${game.id}` }, `${adventureName(game.adventure)} #${game.id}`),
      h("span", { class: `status ${game.status}` }, t(`status_${game.status}`)),
      h("span", { class: "muted" }, game.seats.map((seat) => seat.username || t("bot")).join(", ")))));
}

export async function lobby(root) {
  const [tables, games, campaigns] = await Promise.all([get("/lobby"), get("/games"), get("/campaigns")]);
  root.replaceChildren(
    h("section", { class: "card" }, h("h2", {}, t("new_game")), createForm()),
    h("section", { class: "card" }, h("h2", {}, t("new_campaign")), campaignForm()),
    h("section", { class: "card" }, h("h2", {}, t("your_games")), myGames(games)),
    h("section", { class: "card" }, h("h2", {}, t("your_campaigns")), myCampaigns(campaigns)),
    h("section", { class: "card" }, h("h2", {}, t("public_tables")), publicTables(tables)));
}
