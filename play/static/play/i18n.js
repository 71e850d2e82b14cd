// The web table's own words, in static JSON files (en, es, pt, ja): the browser's language
// first, then the one the player switches to (kept in localStorage).
const KEY = "moon.language";
export const LANGUAGES = ["en", "es", "pt", "ja"];
let words = {};
let fallback = {};
let current = "en";

export function language() {
  return current;
}

function preferred() {
  const kept = localStorage.getItem(KEY);
  if (LANGUAGES.includes(kept)) return kept;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = tag.toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

async function load(code) {
  const response = await fetch(`${document.body.dataset.static}i18n/${code}.json`);
  return response.json();
}

export async function setLanguage(code, keep = true) {
  current = LANGUAGES.includes(code) ? code : "en";
  if (keep) localStorage.setItem(KEY, current);
  if (!Object.keys(fallback).length) fallback = await load("en");
  words = current === "en" ? fallback : await load(current);
  document.documentElement.lang = current;
}

export async function start() {
  await setLanguage(preferred(), false);
}

// A phrase by its key, with {name} filled from vars; the English one when a file lacks it.
export function t(key, vars = {}) {
  const text = words[key] ?? fallback[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}
