// The API as a front end outside the project would call it: a token in localStorage, JSON in
// and out, errors as {code, detail}. Nothing else is read from the server.
import { language } from "./i18n.js";

const BASE = document.body.dataset.api;
const TOKEN = "moon.token";
const USER = "moon.username";

export class ApiError extends Error {
  constructor(status, code, detail) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

export function signedIn() {
  return localStorage.getItem(TOKEN) ? localStorage.getItem(USER) : null;
}

export function remember(username, token) {
  localStorage.setItem(TOKEN, token);
  localStorage.setItem(USER, username);
}

export function forget() {
  localStorage.removeItem(TOKEN);
  localStorage.removeItem(USER);
}

function headers(json) {
  const sent = { Accept: json ? "application/json" : "*/*", "Accept-Language": language() };
  const token = localStorage.getItem(TOKEN);
  if (token) sent.Authorization = `Token ${token}`;
  return sent;
}

async function send(method, path, body, json = true) {
  const init = { method, headers: headers(json) };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(BASE + path, init);
  if (!response.ok) {
    let error = { code: "http_" + response.status, detail: response.statusText };
    try { error = await response.json(); } catch { /* not JSON: keep the status */ }
    if (response.status === 401) forget();
    throw new ApiError(response.status, error.code, error.detail);
  }
  if (response.status === 204) return null;
  return json ? response.json() : response.text();
}

export const get = (path) => send("GET", path);
export const post = (path, body = {}) => send("POST", path, body);
export const svg = (path) => send("GET", path, undefined, false);

// A join or a bot added makes no event of a table's feed (its seats are not yet a game's): a
// waiting room reads its table again every few seconds until it starts (its stream says so).
const LOBBY_POLL_MS = 3000;

// The waiting room of a game's or a campaign's page: ``show(answer, room)`` draws ``room()``
// while the table is in the lobby (only when the answer changed: no redraw under a click) and
// reads it again through ``refresh`` a little later; false once the table has started.
export function waitingRoom(root, refresh) {
  let drawn = null;
  let poll = null;
  return {
    show(answer, room) {
      clearTimeout(poll);
      if (answer.status !== "lobby") {
        drawn = null;
        return false;
      }
      const seen = JSON.stringify(answer);
      if (seen !== drawn) root.replaceChildren(room());
      drawn = seen;
      poll = setTimeout(() => refresh().catch(() => {}), LOBBY_POLL_MS);
      return true;
    },
    stop() {
      clearTimeout(poll);
    },
  };
}

// An EventSource on a stream, opened with a one-use ticket; on an error it is closed and
// opened again with a new ticket after the last message read.
export function follow(path, onMessage) {
  let source = null;
  let after = 0;
  let closed = false;
  let retry = null;
  const open = async () => {
    if (closed) return;
    try {
      const { ticket } = await post(`${path}/stream-ticket`);
      if (closed) return;
      source = new EventSource(`${BASE}${path}/stream?ticket=${encodeURIComponent(ticket)}&after=${after}`);
    } catch {
      retry = setTimeout(open, 3000);
      return;
    }
    const read = (kind) => (message) => {
      if (message.lastEventId) after = Number(message.lastEventId);
      onMessage(kind, message.data ? JSON.parse(message.data) : null, message.lastEventId ? Number(message.lastEventId) : null);
    };
    source.onmessage = read("event");
    source.addEventListener("decision", read("decision"));
    source.addEventListener("end", (message) => { read("end")(message); stop(); });
    source.onerror = () => {
      source.close();
      if (!closed) retry = setTimeout(open, 1000);
    };
  };
  const stop = () => {
    closed = true;
    clearTimeout(retry);
    if (source) source.close();
  };
  open();
  return stop;
}
