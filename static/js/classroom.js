// The class page: the open-session form's variant, table-size and bot choices follow the game.
const games = JSON.parse(document.getElementById("games-data").textContent);
const gameSel = document.getElementById("id_game");
// labels: the words shown for each value (the variants' names in the reader's language); the value otherwise
function fill(sel, values, chosen, labels = {}) { sel.innerHTML = ""; for (const v of values) { const o = document.createElement("option"); o.value = v; o.textContent = labels[v] ?? v; if (String(v) === String(chosen)) o.selected = true; sel.appendChild(o); } }
function refresh() {
  const g = games.find(x => x.slug === gameSel.value); if (!g) return;
  fill(document.getElementById("id_variant"), g.variants, g.variants[0], g.variant_names);
  const sizes = []; for (let n = g.min; n <= g.max; n++) sizes.push(n);
  fill(document.getElementById("id_table_size"), sizes, g.min);
  // options of a session extension (Ticket-to-Ride's map and mission level) show with the games declaring it
  document.querySelectorAll("[data-extension]").forEach((box) => box.classList.toggle("hidden", box.dataset.extension !== g.extension));
  fill(document.getElementById("id_bot_level"), g.bots.length ? g.bots : ["none"], g.bots.includes("strong") ? "strong" : g.bots[g.bots.length - 1], g.bot_names);  // the game's best bot (listed last)
}
gameSel.addEventListener("change", refresh); refresh();
