// Code blocks: a copy button on each (a transcript's copies only the commands typed).
const status = document.createElement("p");
status.className = "visually-hidden";
status.setAttribute("role", "status");
document.body.append(status);

function textOf(block) {
  if (block.dataset.copy === "commands") {
    return [...block.querySelectorAll("kbd:not(.interrupt)")].map((kbd) => kbd.textContent).join("\n");
  }
  return block.querySelector("code").textContent.replace(/\n$/, "");
}

function say(button, label) {
  button.textContent = label;
  status.textContent = label;
  clearTimeout(button.resetTimer);
  button.resetTimer = setTimeout(() => {
    button.textContent = "Copy";
    status.textContent = "";
  }, 2000);
}

function addCopyButton(block) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy-button";
  button.textContent = "Copy";
  button.setAttribute("aria-label", block.dataset.copy === "commands" ? "Copy the commands" : "Copy the code");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(textOf(block));
      say(button, "Copied");
    } catch (error) {
      say(button, "Select the text and press Ctrl-C");
    }
  });
  block.prepend(button);
}

// Plain text (a small drawing, a table) is read, not run: it gets no copy button.
document.querySelectorAll('.code-block:not([data-lang="text"])').forEach(addCopyButton);
