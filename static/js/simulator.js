// Statistics page: ask for a run, then poll its JSON every second until it ends.
const panel = document.getElementById("run-panel");
const form = document.getElementById("run-form");
const errorBox = document.getElementById("run-error");
const tbody = document.querySelector("#runs tbody");

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

function row(run) {
  let tr = tbody.querySelector(`tr[data-run="${run.id}"]`);
  if (!tr) {
    tr = document.createElement("tr");
    tr.dataset.run = run.id;
    tbody.prepend(tr);
  }
  tr.dataset.status = run.status;
  const gates = run.transpiled_two_qubit_gates ?? "";
  const depth = run.transpiled_depth ? ` / ${run.transpiled_depth}` : "";
  const secs = run.simulation_seconds != null ? run.simulation_seconds.toFixed(2) : "";
  tr.innerHTML = `<td>${run.id}</td><td>${run.backend} ${run.device}</td><td>${run.shots}</td>
    <td class="status">${run.status}</td><td class="progress"><progress max="1" value="${run.progress}"></progress> ${run.shots_done}/${run.shots}</td>
    <td>${gates}${depth}</td><td>${secs}</td><td class="error-text"></td>`;
  tr.querySelector(".error-text").textContent = run.error || "";
  if (run.status === "queued" || run.status === "running") {
    const cancel = document.createElement("button");
    cancel.className = "button small danger";
    cancel.textContent = "Cancel";
    cancel.onclick = () => api("POST", `${run.url}cancel/`).then(row).catch(showError);
    tr.querySelector(".error-text").append(cancel);
  }
  return run;
}

function showError(err) {
  errorBox.textContent = err.message;
  errorBox.classList.remove("hidden");
}

async function poll(url) {
  const run = row(await api("GET", url));
  if (run.status === "queued" || run.status === "running") setTimeout(() => poll(url), 1000);
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.classList.add("hidden");
  const data = new FormData(form);
  const body = {match: Number(panel.dataset.match), action_number: Number(panel.dataset.action),
                backend: data.get("backend"), shots: Number(data.get("shots")), device: data.get("device")};
  try {
    const run = row(await api("POST", panel.dataset.runsUrl, body));
    poll(run.url);
  } catch (err) { showError(err); }
});

for (const tr of tbody?.querySelectorAll("tr[data-run]") ?? []) {
  if (tr.dataset.status === "queued" || tr.dataset.status === "running") poll(`/api/runs/${tr.dataset.run}/`);
}
