// The web table's router: the URL's fragment names the screen (#/lobby, #/game/12,
// #/game/12/campaign/3, #/join/12/<invite>, #/campaign/3, #/join-campaign/3/<invite>,
// #/replay/12); each screen is drawn from the API's answers.
import { ApiError, forget, post, remember, signedIn } from "./api.js";
import { h, toast } from "./dom.js";
import { language, setLanguage, start, t } from "./i18n.js";
import { campaignPage } from "./campaign.js";
import { lobby } from "./lobby.js";
import { replayPage } from "./replay.js";
import { table } from "./table.js";

const page = document.getElementById("page");
let leave = null; // what the current screen stops when another replaces it (its stream)

function header() {
  const username = signedIn();
  document.getElementById("who").textContent = username ? t("signed_in_as", { username }) : "";
  const button = document.getElementById("sign-out");
  button.hidden = !username;
  button.textContent = t("sign_out");
  document.getElementById("language").value = language();
}

function authPage() {
  const username = h("input", { name: "username", autocomplete: "username", required: true });
  const password = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  const go = (path) => async (event) => {
    event.preventDefault();
    try {
      const { token } = await post(path, { username: username.value, password: password.value });
      remember(username.value, token);
      const wanted = sessionStorage.getItem("moon.after") || "#/lobby";
      sessionStorage.removeItem("moon.after");
      if (location.hash === wanted) route();
      else location.hash = wanted; // routed on hashchange
    } catch (error) {
      toast(error.message);
    }
  };
  return h("section", { class: "card auth" },
    h("h1", {}, t("welcome")),
    h("form", { onsubmit: go("/auth/token") },
      h("label", {}, t("username"), username),
      h("label", {}, t("password"), password),
      h("div", { class: "row" },
        h("button", { type: "submit", id: "sign-in" }, t("sign_in")),
        h("button", { type: "button", id: "register", onclick: go("/auth/register") }, t("register")))));
}

async function join(kind, id, invite) {
  await post(`/${kind}/${id}/join`, invite ? { invite } : {});
  location.hash = `#/${kind === "games" ? "game" : "campaign"}/${id}`;
}

export async function route() {
  if (leave) leave();
  leave = null;
  header();
  const [, screen, id, invite, campaign] = location.hash.split("/");
  if (!signedIn()) {
    if (screen && screen !== "auth") sessionStorage.setItem("moon.after", location.hash);
    page.replaceChildren(authPage());
    return;
  }
  try {
    if (screen === "game" && id) {
      leave = await table(page, Number(id), invite === "campaign" ? Number(campaign) : null);
    } else if (screen === "join" && id) {
      await join("games", Number(id), invite ? decodeURIComponent(invite) : "");
    } else if (screen === "campaign" && id) {
      leave = await campaignPage(page, Number(id));
    } else if (screen === "join-campaign" && id) {
      await join("campaigns", Number(id), invite ? decodeURIComponent(invite) : "");
    } else if (screen === "replay" && id) {
      leave = await replayPage(page, Number(id));
    } else {
      await lobby(page);
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      route();
      return;
    }
    page.replaceChildren(h("section", { class: "card" }, h("p", { class: "error" }, error.message),
      h("a", { href: "#/lobby" }, t("back_to_lobby"))));
  }
}

document.getElementById("language").addEventListener("change", async (event) => {
  await setLanguage(event.target.value);
  route();
});
document.getElementById("sign-out").addEventListener("click", async () => {
  try { await post("/auth/logout"); } catch { /* signed out here all the same */ }
  forget();
  location.hash = "#/auth";
});
window.addEventListener("hashchange", route);
await start();
route();
