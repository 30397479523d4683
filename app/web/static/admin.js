// The researcher's view of `ddalab serve` (/admin): progress per participant and condition,
// dropouts and last activity, refreshed every 5 s. The secret stays in this tab (sessionStorage).
const KEY = "ddalab-admin";
const progress = document.getElementById("progress");
const status = document.getElementById("status");

function cell(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

function table(head, rows) {
  const t = document.createElement("table");
  const header = document.createElement("tr");
  header.append(...head.map((h) => cell("th", h)));
  t.append(header);
  for (const row of rows) {
    const line = document.createElement("tr");
    line.append(...row.map((value) => cell("td", String(value))));
    t.append(line);
  }
  return t;
}

async function refresh() {
  const secret = sessionStorage.getItem(KEY);
  if (!secret) return;
  const response = await fetch("api/v1/admin/progress", { headers: { Authorization: `Bearer ${secret}` } });
  if (!response.ok) {
    status.textContent = response.status === 401 ? "Wrong secret." : `HTTP ${response.status}`;
    sessionStorage.removeItem(KEY);
    return;
  }
  const p = await response.json();
  progress.replaceChildren(
    cell("p", `${p.participants.length} participants, ${p.complete} complete, ${p.dropped_out} dropped out`),
    table(["condition", "games answered"], Object.entries(p.answered_by_condition)),
    table(["participant", "answered", "of", "complete", "dropout", "idle (s)"],
      p.participants.map((r) => [r.participant || r.error, r.answered ?? "", r.games ?? "", r.complete ? "yes" : "",
        r.dropout || "", r.idle_seconds ?? ""])));
  status.textContent = `Updated ${new Date().toLocaleTimeString()}`;
  setTimeout(refresh, 5000);
}

// The study folder as a tar archive (fetched with the secret, saved through a blob link).
async function download() {
  const response = await fetch("api/v1/admin/archive", {
    headers: { Authorization: `Bearer ${sessionStorage.getItem(KEY)}` } });
  if (!response.ok) {
    status.textContent = `Download: HTTP ${response.status}`;
    return;
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = "study.tar";
  link.click();
  URL.revokeObjectURL(link.href);
}
document.getElementById("download").addEventListener("click", download);

document.getElementById("login").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY, document.getElementById("secret").value.trim());
  refresh();
});
refresh();
