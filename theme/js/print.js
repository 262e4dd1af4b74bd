// Printing: every folded answer is printed open, then folded again. A chapter's "Print the
// student copy" marks <html> with `print-student` while it prints, so the answers and solutions
// are left out (90-print.css, the rule guide-student.html uses); "Print with answers" and the
// browser's own Print leave it off.
const opened = [];
const root = document.documentElement;

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
  root.classList.remove("print-student");
});

for (const button of document.querySelectorAll("button[data-print]")) {
  button.addEventListener("click", () => {
    root.classList.toggle("print-student", button.dataset.print === "student");
    window.print();
  });
}
