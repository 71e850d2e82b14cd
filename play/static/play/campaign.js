// The campaign: its seats and stars, the captain, the chapters and every attempt at them (with
// their games), the cards in effect and those offered, and the choice asked of the player as
// buttons, one per option GET /decision lists. It knows no campaign rule either.
import { follow, get, post, waitingRoom as lobbyView } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";

function words(text) {
  return String(text).replaceAll("_", " ");
}

function seatName(seat) {
  return seat.username || t("bot_kind", { kind: seat.bot });
}

// An option in words: the card's title when it names one, else its action and fields.
function describe(option, names) {
  switch (option.action) {
    case "keep_chapter": return t("opt_keep_chapter", { chapter: option.chapter });
    case "replay_chapter": return t("opt_replay_chapter", { chapter: option.chapter });
    case "next_chapter": return t("opt_next_chapter", { chapter: option.chapter });
    case "choose_card": return t("opt_choose_card", { title: option.title || option.card });
    case "aim_card": return t("opt_aim_card", { title: option.title || option.card, seat: names[option.target] ?? option.target });
    case "choose_mission": return t("opt_choose_mission", { letter: option.letter, condition: option.condition || "" });
    default: return [words(option.action), option.title, option.card, option.chapter].filter(Boolean).join(" ");
  }
}

function waitingRoom(campaign, refresh) {
  const act = (path, body) => async () => {
    try { await post(path, body); await refresh(); } catch (error) { toast(error.message); }
  };
  const link = campaign.invite
    ? `${location.origin}${location.pathname}#/join-campaign/${campaign.id}/${encodeURIComponent(campaign.invite)}`
    : null;
  const full = campaign.seats.length >= campaign.max_players;
  return h("section", { class: "card lobby-table" },
    h("h2", {}, `${t("campaign")} #${campaign.id}`),
    h("p", {}, t("waiting_for_players", { taken: campaign.seats.length, seats: campaign.max_players })),
    h("ul", { class: "seats" }, campaign.seats.map((seat) => h("li", {}, `${seat.seat}. ${seatName(seat)}`))),
    link && h("p", {}, t("invite_link"), " ", h("input", { id: "invite-link", readonly: true, value: link, onclick: (e) => e.target.select() })),
    h("div", { class: "row" },
      !full && campaign.max_players > 1 && h("button", { type: "button", id: "add-bot", onclick: act(`/campaigns/${campaign.id}/bots`, { kind: "greedy" }) }, t("add_bot")),
      h("button", { type: "button", id: "start", onclick: act(`/campaigns/${campaign.id}/start`) }, t("start")),
      h("button", { type: "button", class: "quiet", onclick: async () => { await act(`/campaigns/${campaign.id}/leave`)(); location.hash = "#/lobby"; } }, t("leave"))));
}

function attemptLine(campaign, chapter, attempt, names) {
  const scores = (attempt.result?.scores || []).map((score) => `${names[score.seat]}: ${score.total}`);
  if (attempt.astra) scores.push(`ASTRA: ${attempt.astra.total}`);
  const stars = (attempt.stars || []).map((award) => `${names[award.seat]} +${award.stars}★`);
  const game = attempt.game && h("a", {
    href: attempt.status === "finished" ? `#/replay/${attempt.game}` : `#/game/${attempt.game}/campaign/${campaign.id}`,
    class: attempt.status === "finished" ? "replay-link" : "play-chapter",
  }, attempt.status === "finished" ? t("replay") : t("play_chapter", { chapter: chapter.chapter }));
  return h("li", { class: "attempt", "data-status": attempt.status },
    `${t("attempt_n", { attempt: attempt.attempt })}: ${t(`attempt_${attempt.status}`)}`,
    scores.length ? ` · ${scores.join(", ")}` : "",
    stars.length ? ` · ${stars.join(", ")}` : "",
    attempt.kept ? ` · ${t("kept")}` : "",
    attempt.cards.length ? ` · ${t("cards_applied", { cards: attempt.cards.join(", ") })}` : "",
    " ", game);
}

function chaptersPanel(campaign, names) {
  return h("section", { class: "card chapters", id: "chapters" },
    h("h3", {}, t("chapters")),
    h("ol", { class: "chapter-list" }, campaign.chapters.map((chapter) => h("li", {
      class: chapter.chapter === campaign.chapter ? "current" : "", "data-chapter": chapter.chapter,
    },
    h("strong", {}, chapter.name),
    !chapter.available && h("span", { class: "muted" }, ` (${chapter.unavailable || t("unavailable")})`),
    chapter.attempts.length > 0 && h("ul", {}, chapter.attempts.map((attempt) => attemptLine(campaign, chapter, attempt, names)))))));
}

function cardsPanel(campaign, names) {
  const card = (entry, held) => h("li", { class: "campaign-card", "data-card": entry.card },
    h("strong", {}, entry.title || entry.card),
    held && h("span", { class: "muted" }, ` · ${t("card_holders", { seats: entry.holders.map((seat) => names[seat]).join(", "), until: entry.until })}`),
    entry.story && h("p", { class: "story" }, entry.story));
  return h("section", { class: "card cards", id: "cards" },
    h("h3", {}, t("cards_in_effect")),
    campaign.cards.length ? h("ul", {}, campaign.cards.map((entry) => card(entry, true))) : h("p", { class: "muted" }, t("no_cards")),
    campaign.offered.length > 0 && h("h3", {}, t("cards_offered")),
    campaign.offered.length > 0 && h("ul", {}, campaign.offered.map((entry) => card(entry, false))));
}

export async function campaignPage(root, id) {
  let version = null;
  const lobby = lobbyView(root, refresh);

  const choose = (option) => async () => {
    root.classList.add("busy");
    try {
      await post(`/campaigns/${id}/moves`, { choice: option });
    } catch (error) {
      toast(error.message);
    }
    try { await refresh(); } finally { root.classList.remove("busy"); }
  };

  async function refresh() {
    const campaign = await get(`/campaigns/${id}`);
    version = campaign.version;
    if (lobby.show(campaign, () => waitingRoom(campaign, refresh))) return;
    const decision = campaign.seat === null ? { kind: "wait", options: [] } : await get(`/campaigns/${id}/decision`);
    const names = Object.fromEntries(campaign.seats.map((seat) => [seat.seat, seatName(seat)]));
    const playing = campaign.chapters.flatMap((chapter) => chapter.attempts).find((attempt) => attempt.status === "playing" && attempt.game);
    root.replaceChildren(
      h("section", { class: "card status-bar" },
        h("h2", {}, `${t("campaign")} #${campaign.id}`),
        h("span", {}, campaign.pack.title),
        h("span", { id: "campaign-status", "data-status": campaign.status }, t(`campaign_${campaign.status}`)),
        campaign.chapter && h("span", {}, t("chapter_n", { chapter: campaign.chapter }))),
      h("div", { class: "table-layout" },
        h("div", {},
          h("section", { class: "card", id: "campaign-decision" },
            h("p", { class: "decision", "data-kind": decision.kind }, t(`campaign_decision_${decision.kind}`)),
            playing && h("p", {}, h("a", { class: "play-chapter button", id: "play-chapter", "data-chapter": campaign.chapter, href: `#/game/${playing.game}/campaign/${id}` }, t("play_chapter", { chapter: campaign.chapter }))),
            decision.options.map((option) => h("div", { class: "campaign-option" },
              h("button", { type: "button", class: "option", onclick: choose(option) }, describe(option, names)),
              option.story && h("p", { class: "story muted" }, option.story),
              option.effects && option.effects.length > 0 && h("ul", { class: "effects" }, option.effects.map((effect) => h("li", {}, effect)))))),
          chaptersPanel(campaign, names),
          cardsPanel(campaign, names)),
        h("aside", { class: "side" },
          h("section", { class: "card" }, h("h3", {}, t("seats_title")),
            h("ul", { class: "seats" }, campaign.seats.map((seat) => h("li", { "data-seat": seat.seat },
              `${seatName(seat)}${seat.seat === campaign.seat ? ` (${t("you")})` : ""}: ${seat.stars}★`,
              seat.seat === campaign.captain ? ` · ${t("captain")}` : ""))),
            campaign.astra && h("p", {}, t("astra_stars", { stars: campaign.astra.stars, totals: campaign.astra.totals })),
            campaign.winners && h("p", { id: "campaign-winners" }, t("winners", { names: campaign.winners.map((seat) => names[seat] ?? "ASTRA").join(", ") }))),
          h("p", {}, h("a", { href: "#/lobby" }, t("back_to_lobby"))))));
  }

  let pending = null;
  const later = (kind, data, seq) => {
    if (kind === "event" && seq !== null && version !== null && seq <= version) return;
    clearTimeout(pending);
    pending = setTimeout(() => refresh().catch((error) => toast(error.message)), 150);
  };
  await refresh();
  const stop = follow(`/campaigns/${id}`, later);
  return () => { stop(); clearTimeout(pending); lobby.stop(); };
}
