// Runs before the first paint, written inline into every page's <head> by the build (its SHA-256
// is in the page's Content-Security-Policy: builder/theme.py; this comment is left out): marks
// that scripts run (<html class="js">, which shows the buttons only scripts can work) and applies
// the theme the reader chose, so a dark page never flashes white. Without a choice the CSS
// follows the system (prefers-color-scheme). A page opened from disk (file://) cannot load the
// other scripts, which are modules: it is left as it reads without JavaScript.
(function () {
  var root = document.documentElement;
  if (location.protocol !== "file:") root.classList.add("js");
  try {
    var theme = localStorage.getItem("theme");
    if (theme === "light" || theme === "dark") root.setAttribute("data-theme", theme);
  } catch (error) {
    // Storage blocked (privacy settings): follow the system.
  }
})();
