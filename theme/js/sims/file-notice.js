// A classic script (it runs where module scripts cannot): a page opened from disk (file://)
// cannot run the simulations, whose Python loads in a module worker. Each widget then says so
// and how to serve the guide instead; the text of the page is unaffected.
(function () {
  if (location.protocol !== "file:") return;
  var page = location.pathname.split("/").pop() || "index.html";
  document.querySelectorAll(".sim[data-sim] .sim-widget").forEach(function (body) {
    var root = body.parentElement;
    var box = document.createElement("div");
    box.className = "sim-file-notice";
    box.setAttribute("role", "note");
    var what = document.createElement("p");
    what.textContent = "This simulation runs Python in your browser, which a page opened as a file cannot do.";
    var how = document.createElement("p");
    how.textContent = "To run it, serve the guide: in a terminal, in the guide's folder, run " +
      "python3 build.py --serve (or, in the folder holding this page, python3 -m http.server), " +
      "then open http://127.0.0.1:8000/" + page + " in your browser.";
    box.append(what, how);
    body.insertBefore(box, body.children[2] || null);
    root.setAttribute("data-state", "error");
  });
})();
