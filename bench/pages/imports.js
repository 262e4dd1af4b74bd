// Runs imports-worker.js with ?bundle= (the site's Python bundle) and ?message= (the first call, JSON
// text) and puts its answer, as JSON, in #result's data-profile.
const result = document.getElementById("result");
const query = new URLSearchParams(location.search);
const worker = new Worker(new URL("imports-worker.js", import.meta.url), { type: "module" });
worker.addEventListener("message", ({ data }) => {
  result.dataset.profile = JSON.stringify(data);
  result.dataset.state = "ready";
});
worker.postMessage({
  indexURL: new URL("../pyodide/", location.href).href,
  bundleURL: new URL(query.get("bundle"), location.href).href,
  message: query.get("message"),
});
