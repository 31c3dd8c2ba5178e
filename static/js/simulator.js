// Statistics page: draw the board with the game's own module, ask for a run, poll its JSON
// every second until it ends, then put the new result into the chart and tables (no reload).
const panel = document.getElementById("run-panel");
const form = document.getElementById("run-form");
const errorBox = document.getElementById("run-error");
const tbody = document.querySelector("#runs tbody");
const results = document.getElementById("odds-results");
const T = JSON.parse(document.getElementById("simulator-strings")?.textContent || "{}");

function csrf() {
  const m = document.cookie.match(/csrftoken=([^;]+)/);
  return m ? m[1] : "";
}

async function api(method, url, body) {
  const response = await fetch(url, {
    method, credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || data.detail || JSON.stringify(data));
  return data;
}

function cell(tr, text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text;
  tr.append(td);
  return td;
}

function row(run) {
  let tr = tbody.querySelector(`tr[data-run="${run.id}"]`);
  if (!tr) {
    tr = document.createElement("tr");
    tr.dataset.run = run.id;
    tbody.prepend(tr);
  }
  tr.dataset.status = run.status;
  tr.replaceChildren();
  cell(tr, run.id);
  cell(tr, `${T.backends?.[run.backend] || run.backend} ${run.device}`);  // the API keeps its codes
  cell(tr, run.shots);
  cell(tr, T.statuses?.[run.status] || run.status, "status");
  const progress = cell(tr, ` ${run.shots_done}/${run.shots}`, "progress");
  const bar = document.createElement("progress");
  bar.max = 1;
  bar.value = run.progress;
  progress.prepend(bar);
  const depth = run.transpiled_depth ? ` / ${run.transpiled_depth}` : "";
  cell(tr, `${run.transpiled_two_qubit_gates ?? ""}${depth}`);
  cell(tr, run.simulation_seconds != null ? run.simulation_seconds.toFixed(2) : "");
  const last = cell(tr, run.error || "", "error-text");
  if (run.status === "queued" || run.status === "running") {
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "button small danger";
    cancel.textContent = T.cancel || "Cancel";
    cancel.onclick = () => api("POST", `${run.url}cancel/`).then(row).catch(showError);
    last.append(cancel);
  }
  return run;
}

function showError(err) {
  errorBox.textContent = err.message;
  errorBox.classList.remove("hidden");
}

// A run is done: fetch the page's result part again (chart, score table, verdict).
async function refreshResults() {
  if (!results) return;
  try {
    const response = await fetch(results.dataset.url, {credentials: "same-origin"});
    if (!response.ok) throw new Error(String(response.status));
    results.innerHTML = await response.text();
    results.dataset.refreshed = String(Number(results.dataset.refreshed || 0) + 1);
  } catch {
    showError(new Error(T.refresh_failed || "The chart could not be updated."));
  }
}

async function poll(url) {
  const run = row(await api("GET", url));
  if (run.status === "queued" || run.status === "running") setTimeout(() => poll(url), 1000);
  else if (run.status === "done") refreshResults();
}

// The device list only where a device applies: a noisy simulation imitates one; hardware names one.
function showDeviceFields() {
  const backend = form.elements.backend.value;
  for (const [id, on] of [["device-field", backend === panel.dataset.noisy], ["ibm-device-field", backend === "ibm"]]) {
    const field = document.getElementById(id);
    if (!field) continue;
    field.classList.toggle("hidden", !on);
    for (const input of field.querySelectorAll("select, input")) input.disabled = !on;
  }
}

if (form) {
  form.elements.backend.addEventListener("change", showDeviceFields);
  showDeviceFields();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.classList.add("hidden");
    const data = new FormData(form);
    const body = {match: Number(panel.dataset.match), action_number: Number(panel.dataset.action),
                  backend: data.get("backend"), shots: Number(data.get("shots")),
                  device: data.get("device") || data.get("ibm_device") || ""};
    try {
      const run = row(await api("POST", panel.dataset.runsUrl, body));
      poll(run.url);
    } catch (err) { showError(err); }
  });
}

for (const tr of tbody?.querySelectorAll("tr[data-run]") ?? []) {
  if (tr.dataset.status === "queued" || tr.dataset.status === "running") poll(`/api/runs/${tr.dataset.run}/`);
}

// The board, drawn by the game's own board module (the same drawing as play and replay).
const boardRoot = document.getElementById("stats-board");
if (boardRoot) {
  const data = JSON.parse(document.getElementById("stats-board-data").textContent);
  import(boardRoot.dataset.boardUrl).then(({ createBoard }) => {
    const board = createBoard(boardRoot, { act() {} });
    board.render({ view: data.view, legal: [], seat: null, to_act: [], events: [], outcome: data.outcome,
                   replay: true, seats: data.seats }, { animate: false });
  });
}
