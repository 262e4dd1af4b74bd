// Printing: every folded answer is printed open, then folded again.
const opened = [];

addEventListener("beforeprint", () => {
  document.querySelectorAll("details:not([open])").forEach((details) => {
    details.open = true;
    opened.push(details);
  });
});

addEventListener("afterprint", () => {
  opened.splice(0).forEach((details) => {
    details.open = false;
  });
});
