// Keyboard triage of the pending queue (templates/review/pending.html), and its selection count.
//
// j/k move between proposals, x ticks one, a approves, r rejects, e edits, Esc cancels an edit or a second
// step, ? shows the keys. A key only clicks the card's own button (marked data-key), so it takes the same
// path as the mouse: a flagged proposal's "Approve…" opens its second step, and the decided card offers
// its Undo. A plain file loaded from this site, as the Content-Security-Policy asks: no inline script.
(function () {
  "use strict";

  // The keys that press a card's button, by the data-key of that button.
  const BUTTONS = { a: "approve", r: "reject", e: "edit" };
  let currentId = null;

  function queue() {
    return document.querySelector("[data-queue-keys]");
  }

  function cards() {
    const list = queue();
    return list ? Array.from(list.children).filter((child) => child.classList.contains("item")) : [];
  }

  function current() {
    const card = currentId && document.getElementById(currentId);
    return card && queue() && queue().contains(card) ? card : null;
  }

  // The card itself takes the focus (not the tab order), so the browser and a screen reader follow j and k.
  function focusCard(card) {
    if (!card.hasAttribute("tabindex")) card.tabIndex = -1;
    card.focus({ preventScroll: true });
  }

  function makeCurrent(card, focus) {
    const before = current();
    if (before) before.classList.remove("current");
    currentId = card.id;
    card.classList.add("current");
    if (focus) {
      focusCard(card);
      card.scrollIntoView({ block: "nearest" });
    }
  }

  // The next card that is still to decide (a decided one shows only its outcome), down or up the queue.
  function move(step) {
    const all = cards();
    const here = all.indexOf(current());
    let index = here === -1 ? (step > 0 ? 0 : all.length - 1) : here + step;
    while (index >= 0 && index < all.length && all[index].classList.contains("outcome")) index += step;
    if (index >= 0 && index < all.length) makeCurrent(all[index], true);
  }

  function press(name) {
    const card = current();
    // A card whose request is on its way is left alone: a second press would decide it twice.
    if (!card || card.querySelector(".htmx-request")) return false;
    const control = card.querySelector(`[data-key="${name}"]`);
    if (!control) return false;
    control.click();
    return true;
  }

  function toggleSelected() {
    const card = current();
    const box = card && card.querySelector('input[type="checkbox"][name="ids"]');
    if (!box) return false;
    box.click();
    return true;
  }

  function toggleHelp(open) {
    const help = document.getElementById("queue-keys");
    if (!help) return false;
    help.open = open === undefined ? !help.open : open;
    if (help.open) help.scrollIntoView({ block: "nearest" });
    return true;
  }

  function countSelected() {
    const output = document.getElementById("selected-count");
    if (output) output.textContent = document.querySelectorAll('input[name="ids"][form="bulk"]:checked').length;
  }

  // The help is shown and the ticks counted when the page loads, and again when htmx brings a new queue.
  function start() {
    const help = document.getElementById("queue-keys");
    if (help) help.hidden = false;
    countSelected();
  }

  function typing(target) {
    if (target.isContentEditable || target.matches("textarea, select")) return true;
    return target.matches("input") && !["checkbox", "radio", "button", "submit", "reset"].includes(target.type);
  }

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (!queue()) return;
    const help = document.getElementById("queue-keys");
    let done = false;
    if (event.key === "Escape") {
      // Esc also leaves an edit from inside its text fields; in a field elsewhere on the page, it is the field's.
      const inCard = current() && current().contains(event.target);
      if (help && help.open) done = toggleHelp(false);
      else if (inCard || !typing(event.target)) done = press("cancel");
    } else if (typing(event.target)) {
      return;
    } else if (event.key === "j" || event.key === "k") {
      move(event.key === "j" ? 1 : -1);
      done = true;
    } else if (event.key === "x") {
      done = toggleSelected();
    } else if (event.key === "?") {
      done = toggleHelp();
    } else if (BUTTONS[event.key]) {
      done = press(BUTTONS[event.key]);
    }
    if (done) event.preventDefault();
  });

  // A card clicked or tabbed into becomes the current one, so the keys go on from where the owner is.
  document.addEventListener("focusin", (event) => {
    const card = event.target.closest && event.target.closest("[data-queue-keys] > .item");
    if (card && card.id !== currentId) makeCurrent(card, false);
  });

  document.addEventListener("change", (event) => {
    if (event.target.matches('input[name="ids"]')) countSelected();
  });

  // htmx replaced a card (its outcome, second step or edit form keeps the card's id) or the whole queue.
  // A card the owner was on stays the current one, in view, with the focus in it (in the text of an edit).
  document.addEventListener("htmx:afterSettle", (event) => {
    start();
    const card = current();
    if (!card) return;
    card.classList.add("current");
    if (event.target !== card) return;
    const field = card.classList.contains("editing") && card.querySelector("textarea, input:not([type=hidden])");
    if (field) {
      field.focus({ preventScroll: true });
      // The caret after the text, where a correction usually goes.
      if (field.setSelectionRange) field.setSelectionRange(field.value.length, field.value.length);
    } else if (!card.contains(document.activeElement)) {
      focusCard(card);
    }
    card.scrollIntoView({ block: "nearest" });
  });

  document.addEventListener("DOMContentLoaded", start);
  // A page brought back by the browser's Back button keeps its ticks: count them again.
  window.addEventListener("pageshow", countSelected);
})();
