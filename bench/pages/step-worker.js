// The step benchmark in the page's Python: bench/core_scenarios.py's live_queue_step_times(),
// run on the same simulations package the widgets load (the site's assets/py bundle).
addEventListener("message", async ({ data: { indexURL, bundleURL, scenariosURL } }) => {
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const pyodide = await loadPyodide({ indexURL });
  const { files } = await (await fetch(bundleURL)).json();
  for (const [path, text] of Object.entries(files)) {
    pyodide.FS.mkdirTree(`/app/${path}`.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile(`/app/${path}`, text);
  }
  pyodide.FS.mkdirTree("/app/bench");
  pyodide.FS.writeFile("/app/bench/core_scenarios.py", await (await fetch(scenariosURL)).text());
  const seconds = pyodide.runPython(`
import sys, statistics
sys.path[:0] = ["/app", "/app/bench"]
import core_scenarios
times = core_scenarios.live_queue_step_times()
statistics.median(times)`);
  postMessage(seconds);
});
