// The participant's page of `ddalab serve`: creates or resumes the session (the token is kept in
// this browser's localStorage, so a refresh or a closed tab comes back to the same point), asks
// the server for the current screen and draws it: consent, demographics, instructions, each game
// (boards.js), its questionnaire, the debrief, the completion. Everything is a form control or a
// button: usable by keyboard. No inline script or style (the server's CSP forbids them).
import { renderScreen } from "./boards.js";

const API = "api/v1";
const TOKEN_KEY = "ddalab-token";
const page = document.getElementById("page");
const labelLine = document.getElementById("label");
const status = document.getElementById("status");

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

// A 503 means the server applied nothing (it cannot record right now, or this address has too
// many connections open): the same request is sent again after the Retry-After it gives.
async function call(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  for (;;) {
    response = await fetch(`${API}/${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status !== 503) break;
    const seconds = Number(response.headers.get("Retry-After"));
    status.textContent = "The study cannot record right now; trying again…";
    await new Promise((resolve) => { setTimeout(resolve, 1000 * Math.min(30, Math.max(0.5, seconds || 2))); });
  }
  if (status.textContent.startsWith("The study cannot record")) status.textContent = "";
  const json = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(json.error || `HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return json;
}

// The session: the one this browser has, or, when the page's URL carries a query (a recruitment
// platform's link with the participant's id), the session of that id (created or resumed: the
// server reads the id from the parameter it was told to).
async function ensureSession() {
  const query = window.location.search;
  if (localStorage.getItem(TOKEN_KEY) && !query) return;
  localStorage.removeItem(TOKEN_KEY);
  const { token } = await call("POST", `sessions${query}`);
  localStorage.setItem(TOKEN_KEY, token);
}

function button(text, onClick, primary = true) {
  const node = el("button", { type: "button", class: primary ? "action primary" : "action" }, [text]);
  node.addEventListener("click", onClick);
  return node;
}

function paragraphs(text) {
  return text.split(/\n\s*\n/).map((part) => el("p", { class: "text" }, [part]));
}

async function submit(kind, body) {
  status.textContent = "";
  try {
    await call("POST", `session/${kind}`, body);
  } catch (error) {
    status.textContent = `Not accepted: ${error.message}`;
    lastGame = "";  // the board takes a choice again
  }
  await show();
}

function drawText(screen, buttons) {
  page.replaceChildren(...paragraphs(screen.text), el("div", { class: "actions" }, buttons));
}

function drawDemographics(screen) {
  const form = el("form", { class: "questions" });
  for (const item of screen.items) {
    const set = el("fieldset", {}, [el("legend", {}, [item.text])]);
    item.options.forEach((option, i) => {
      const id = `${item.key}-${i}`;
      set.append(el("div", { class: "option" }, [
        el("input", { type: "radio", name: item.key, id, value: option, required: "" }),
        el("label", { for: id }, [option])]));
    });
    form.append(set);
  }
  form.append(el("button", { type: "submit", class: "action primary" }, ["Continue"]));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const answers = {};
    for (const item of screen.items) answers[item.key] = new FormData(form).get(item.key);
    submit("demographics", { answers });
  });
  page.replaceChildren(form);
}

function drawQuestionnaire(screen) {
  const shown = performance.now();
  const changed = {};
  const form = el("form", { class: "questions" });
  for (const item of screen.items) {
    const set = el("fieldset", {}, [el("legend", {}, [item.text])]);
    const mark = () => { changed[item.key] = Math.round(performance.now() - shown); };
    if (item.scale === "slider100") {
      const id = `${item.key}-slider`;
      const input = el("input", { type: "range", min: "0", max: "100", step: "1", value: "50", id, name: item.key });
      input.addEventListener("input", mark);
      set.append(el("div", { class: "option" }, [el("label", { for: id }, [item.low]), input, el("span", {}, [item.high])]));
    } else {
      for (let v = item.min; v <= item.max; ++v) {
        const id = `${item.key}-${v}`;
        const anchor = item.anchors[v - item.min] || (v === item.min ? item.low : v === item.max ? item.high : "");
        const input = el("input", { type: "radio", name: item.key, id, value: String(v), required: "" });
        input.addEventListener("change", mark);
        set.append(el("span", { class: "option" }, [input, el("label", { for: id }, [anchor ? `${v} (${anchor})` : String(v)])]));
      }
    }
    form.append(set);
  }
  if (screen.comment) {
    form.append(el("label", { for: "comment" }, ["A comment (optional)"]),
      el("textarea", { id: "comment", name: "comment", maxlength: "2000", rows: "3" }));
  }
  form.append(el("button", { type: "submit", class: "action primary" }, ["Continue"]));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const answers = {};
    const itemMs = {};
    for (const item of screen.items) {
      answers[item.key] = Number(data.get(item.key));
      itemMs[item.key] = changed[item.key] ?? Math.round(performance.now() - shown);
    }
    submit("answers", { answers, item_ms: itemMs, comment: screen.comment ? data.get("comment") || "" : "" });
  });
  page.replaceChildren(form);
}

function drawComplete(screen) {
  const parts = [el("h2", { class: "headline" }, ["Thank you: the study is complete."])];
  const completion = screen.completion || {};
  if (completion.code) parts.push(el("p", {}, ["Your completion code: ", el("strong", { id: "code" }, [completion.code])]));
  if (completion.redirect) {
    parts.push(el("p", {}, [el("a", { href: completion.redirect, id: "redirect" }, ["Return to the study platform"])]));
  }
  page.replaceChildren(...parts);
}

let timer = null;
let lastGame = "";

async function show() {
  clearTimeout(timer);
  let screen;
  try {
    screen = await call("GET", "session");
  } catch (error) {
    if (error.status === 401) {  // a token this server does not know: start again
      localStorage.removeItem(TOKEN_KEY);
      await ensureSession();
      return show();
    }
    status.textContent = `The server cannot be reached (${error.message}); trying again…`;
    timer = setTimeout(show, 2000);
    return;
  }
  labelLine.textContent = screen.label || "";
  window.ddalabScreen = screen;  // what is drawn: scripted browser tests read it
  switch (screen.kind) {
    case "consent":
      return drawText(screen, [button(screen.agree, () => submit("consent", { agree: true })),
        button(screen.decline, () => submit("consent", { agree: false }), false)]);
    case "demographics": return drawDemographics(screen);
    case "instructions":
    case "debrief":
      return drawText(screen, [button("Continue", () => submit("read", {}))]);
    case "game": {
      const key = JSON.stringify(screen.board);
      if (key !== lastGame) {  // redraw only what changed: the keyboard focus stays
        lastGame = key;
        renderScreen(page, screen.board, (action) => submit("action", { action }));
      }
      if (screen.waiting) timer = setTimeout(show, screen.poll_ms || 300);
      return;
    }
    case "questionnaire": return drawQuestionnaire(screen);
    case "complete": return drawComplete(screen);
    default:
      page.replaceChildren(el("p", {}, ["The session has ended. Thank you for your time."]));
  }
}

ensureSession().then(show).catch((error) => { status.textContent = `Could not start: ${error.message}`; });
