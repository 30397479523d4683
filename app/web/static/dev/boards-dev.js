// The boards' development page: draws the fixture screen at ?screen=URL and reports the action a
// click chooses in #status (the browser test reads data-action there). URLs must be same-origin.
import { renderScreen } from "../boards.js";

const params = new URLSearchParams(window.location.search);
const status = document.getElementById("status");

function sameOrigin(text) {
  const url = new URL(text, window.location.href);
  if (url.origin !== window.location.origin) throw new Error(`not same-origin: ${text}`);
  return url;
}

async function fetchJson(text) {
  const response = await fetch(sameOrigin(text), { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${text}: HTTP ${response.status}`);
  return response.json();
}

async function listFixtures(indexUrl) {
  const names = await fetchJson(indexUrl);
  const nav = document.getElementById("fixtures");
  const base = sameOrigin(indexUrl);
  for (const name of names) {
    const link = document.createElement("a");
    const screen = new URL(`${name}.json`, base);
    link.href = `?index=${encodeURIComponent(indexUrl)}&screen=${encodeURIComponent(screen.pathname)}`;
    link.textContent = name;
    nav.append(link, " ");
  }
}

async function main() {
  if (params.has("index")) await listFixtures(params.get("index"));
  if (!params.has("screen")) return;
  const screen = await fetchJson(params.get("screen"));
  renderScreen(document.getElementById("screen"), screen, (action, label) => {
    status.dataset.action = String(action);
    status.textContent = `chose action ${action}: ${label}`;
  });
  document.body.dataset.ready = "true";
}

main().catch((error) => {
  status.textContent = `error: ${error.message}`;
  console.error(error);
});
