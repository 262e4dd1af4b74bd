// The dark-theme button. A choice that differs from the system's is remembered in localStorage
// (applied early by theme-init.js); choosing what the system shows forgets it, so the page
// follows the system again.
const KEY = "theme";
const root = document.documentElement;
const button = document.getElementById("theme-toggle");
const systemDark = matchMedia("(prefers-color-scheme: dark)");

const systemTheme = () => (systemDark.matches ? "dark" : "light");
const currentTheme = () => root.getAttribute("data-theme") || systemTheme();

function remember(theme) {
  try {
    if (theme === systemTheme()) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
  } catch (error) {
    // Storage blocked: the choice lasts for this page only.
  }
}

function show() {
  button.setAttribute("aria-pressed", String(currentTheme() === "dark"));
}

if (button) {
  button.addEventListener("click", () => {
    const theme = currentTheme() === "dark" ? "light" : "dark";
    if (theme === systemTheme()) root.removeAttribute("data-theme");
    else root.setAttribute("data-theme", theme);
    remember(theme);
    show();
  });
  systemDark.addEventListener("change", show);
  show();
}
