// Runs step-worker.js and puts the seconds per step (or, given ?rows=, the JSON of each row's
// frame cost) in #result's data-seconds.
const result = document.getElementById("result");
const worker = new Worker(new URL("step-worker.js", import.meta.url), { type: "module" });
worker.addEventListener("message", ({ data }) => {
  result.dataset.seconds = String(data);
  result.dataset.state = "ready";
});
worker.postMessage({
  indexURL: new URL("../pyodide/", location.href).href,
  bundleURL: new URL(new URLSearchParams(location.search).get("bundle"), location.href).href,
  scenariosURL: new URL("core_scenarios.py", location.href).href,
  steps: Number(new URLSearchParams(location.search).get("steps")) || 1000,
  rows: new URLSearchParams(location.search).get("rows"),   // JSON [[workers, jobs, speed], ...]: frame costs
});
