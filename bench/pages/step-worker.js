// The step benchmark in the page's Python: bench/step_timing.py on the live-queue scenario of
// bench/core_scenarios.py, with the same simulations package the widgets load (the site's
// assets/py bundle). Posts the seconds per step.
addEventListener("message", async ({ data: { indexURL, bundleURL, scenariosURL, steps, rows } }) => {
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const pyodide = await loadPyodide({ indexURL });
  const { files } = await (await fetch(bundleURL)).json();
  for (const [path, text] of Object.entries(files)) {
    pyodide.FS.mkdirTree(`/app/${path}`.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile(`/app/${path}`, text);
  }
  pyodide.FS.mkdirTree("/app/bench");
  pyodide.FS.writeFile("/app/bench/core_scenarios.py", await (await fetch(scenariosURL)).text());
  pyodide.FS.writeFile("/app/bench/step_timing.py", await (await fetch(new URL("step_timing.py", scenariosURL))).text());
  // rows (JSON [[workers, jobs, speed], ...]): the cost of one frame of each, else seconds per step
  const answer = pyodide.runPython(`
import sys, statistics, json
sys.path[:0] = ["/app", "/app/bench"]
import core_scenarios
import step_timing
json.dumps(step_timing.frame_costs(core_scenarios.LiveQueue, json.loads(${JSON.stringify(rows || "null")}))
           if ${rows ? "True" : "False"} else step_timing.seconds_per_step(core_scenarios.LiveQueue, ${Number(steps)}))`);
  postMessage(answer);
});
