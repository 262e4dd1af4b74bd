// Run Python inside Pyodide (from node_modules, no network), with the simulations packed the
// way the page packs them: simulations/ plus tinyq.py beside it. Usage:
//   node tests/core/pyodide_run.mjs ROOT FILE.py  -> prints what the Python prints (stdout)
// Extra folders to pack: tests/core (so the golden scenarios can be imported) and bench.
import { loadPyodide } from "../../node_modules/pyodide/pyodide.mjs";
import fs from "node:fs";
import path from "node:path";

const [root, script] = process.argv.slice(2);
const py = await loadPyodide({
  indexURL: path.join(root, "node_modules", "pyodide") + "/",
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function pack(from, to) {
  py.FS.mkdirTree(to);
  for (const name of fs.readdirSync(from)) {
    if (name.endsWith(".py")) py.FS.writeFile(`${to}/${name}`, fs.readFileSync(path.join(from, name)));
  }
}
pack(path.join(root, "simulations"), "/app/simulations");
for (const name of ["tinyq.py", "tinyq_sql.py"]) {
  py.FS.writeFile(`/app/${name}`, fs.readFileSync(path.join(root, "code", "capstone", name)));
}
pack(path.join(root, "tests", "core"), "/app/core_tests");
pack(path.join(root, "bench"), "/app/bench");
py.runPython("import sys; sys.path[:0] = ['/app', '/app/bench']");
await py.runPythonAsync(fs.readFileSync(script, "utf8"));
