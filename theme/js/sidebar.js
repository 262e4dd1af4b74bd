// The chapter list: a drawer behind the "Chapters" button on narrow screens, always shown on wide
// ones. Escape or a click outside closes the drawer.
const button = document.getElementById("menu-toggle");
const sidebar = document.getElementById("sidebar");
const narrow = matchMedia("(max-width: 55.99rem)");

const isOpen = () => button.getAttribute("aria-expanded") === "true";

function setOpen(open, { focus = false } = {}) {
  button.setAttribute("aria-expanded", String(open));
  document.body.classList.toggle("sidebar-open", open);
  if (open && focus) (sidebar.querySelector('[aria-current="page"]') || sidebar.querySelector("a"))?.focus();
}

if (button && sidebar) {
  button.addEventListener("click", () => setOpen(!isOpen(), { focus: true }));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) {
      setOpen(false);
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (isOpen() && !sidebar.contains(event.target) && !button.contains(event.target)) setOpen(false);
  });
  narrow.addEventListener("change", () => setOpen(false));

  // In a long list, start with the current chapter in view.
  // Measured in the first frame, with the layout the browser does anyway: measuring now, while
  // the page is still being set up, would lay a long page out twice.
  const current = sidebar.querySelector('[aria-current="page"]');
  requestAnimationFrame(() => {
    if (current && sidebar.scrollHeight > sidebar.clientHeight) {
      sidebar.scrollTop = current.offsetTop - sidebar.clientHeight / 3;
    }
  });
}
