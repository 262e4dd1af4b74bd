// Load Pyodide from the site and import sqlite3: the least any simulation needs.
addEventListener("message", async ({ data: indexURL }) => {
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const pyodide = await loadPyodide({ indexURL });
  postMessage(pyodide.runPython("import sqlite3; sqlite3.sqlite_version"));
});
