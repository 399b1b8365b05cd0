// The recipe book's one script. Every page works without it; it adds:
// - live updates: the page follows changes saved elsewhere (server-sent events),
// - the ingredient rows' buttons (add, remove, move) in the recipe form,
// - a confirmation before deleting, the filters applied on change, a photo preview.
"use strict";

(function () {
  const maxPhotoBytes = 10 * 1000 * 1000;

  function bind(root) {
    root.querySelectorAll("select[data-autosubmit]").forEach((select) => {
      select.addEventListener("change", () => select.form.submit());
      const apply = select.form.querySelector(".apply");
      if (apply) apply.hidden = true;
    });
    root.querySelectorAll("form[data-confirm]").forEach((form) => {
      form.addEventListener("submit", (event) => {
        if (!window.confirm(form.dataset.confirm)) { event.preventDefault(); return; }
        const confirmed = document.createElement("input");
        confirmed.type = "hidden"; confirmed.name = "confirmed"; confirmed.value = "yes";
        form.appendChild(confirmed);
      });
    });
    root.querySelectorAll("form.recipe-form").forEach(bindRecipeForm);
  }

  function bindRecipeForm(form) {
    const rows = form.querySelector("[data-rows]");
    const addButton = form.querySelector("[data-add-row]");
    form.dataset.dirty = "";
    form.addEventListener("input", () => { form.dataset.dirty = "yes"; });
    form.addEventListener("submit", (event) => {
      if (form.dataset.sending) { event.preventDefault(); return; }
      form.dataset.sending = "yes";
    });
    if (rows) {
      rows.querySelectorAll(".row-tools").forEach((tools) => { tools.hidden = false; });
      if (addButton) {
        addButton.hidden = false;
        addButton.addEventListener("click", () => {
          const row = blankRow(rows);
          rows.appendChild(row);
          renumber(rows);
          row.querySelector("input.amount").focus();
        });
      }
      rows.addEventListener("click", (event) => {
        const button = event.target.closest("button");
        if (!button) return;
        const row = button.closest("li.row");
        if (button.dataset.move === "up" && row.previousElementSibling) {
          rows.insertBefore(row, row.previousElementSibling);
        } else if (button.dataset.move === "down" && row.nextElementSibling) {
          rows.insertBefore(row.nextElementSibling, row);
        } else if (button.hasAttribute("data-remove")) {
          if (rows.children.length > 1) row.remove();
          else row.querySelectorAll("input").forEach((input) => { input.value = ""; });
        } else {
          return;
        }
        form.dataset.dirty = "yes";
        renumber(rows);
        button.focus();
      });
    }
    const photo = form.querySelector("input[type=file]");
    if (photo) {
      photo.addEventListener("change", () => {
        const old = form.querySelector(".photo-preview");
        if (old) old.remove();
        const problem = form.querySelector("#photo-check");
        if (problem) problem.remove();
        const file = photo.files[0];
        if (!file) return;
        if (file.size > maxPhotoBytes) {
          const message = document.createElement("p");
          message.className = "error"; message.id = "photo-check";
          message.textContent = "This photo is " + file.size + " bytes; at most " + maxPhotoBytes + " are accepted. Choose a smaller one.";
          photo.insertAdjacentElement("afterend", message);
          photo.value = "";
          return;
        }
        const preview = document.createElement("img");
        preview.className = "photo-preview";
        preview.alt = "The chosen photo";
        preview.src = URL.createObjectURL(file);
        photo.insertAdjacentElement("afterend", preview);
      });
    }
  }

  function blankRow(rows) {
    const row = rows.querySelector("li.row").cloneNode(true);
    row.querySelectorAll("input").forEach((input) => { input.value = ""; input.removeAttribute("aria-invalid"); input.removeAttribute("aria-describedby"); });
    row.querySelectorAll("p.error").forEach((message) => message.remove());
    return row;
  }

  function renumber(rows) {
    Array.from(rows.children).forEach((row, index) => {
      const number = index + 1;
      const labels = row.querySelectorAll("label");
      const amount = row.querySelector("input.amount");
      const name = row.querySelector("input.ingredient");
      amount.id = "amount-" + number; name.id = "ingredient-" + number;
      labels[0].htmlFor = amount.id; labels[0].textContent = "Amount " + number;
      labels[1].htmlFor = name.id; labels[1].textContent = "Ingredient " + number;
    });
  }

  // Live updates: the server sends the book's version whenever it changes; the page then
  // fetches itself again and swaps its main part, unless a form is being filled in, which
  // is left alone (a save over the other change is shown as a conflict by the server).
  function live() {
    const source = document.body.dataset.live;
    if (!source || !window.EventSource) return;
    let seen = null;
    let refreshing = false;
    let again = false;
    const status = document.getElementById("live-status");
    const events = new EventSource(source);
    events.addEventListener("change", (event) => {
      if (seen === null) { seen = event.data; return; }
      if (event.data === seen) return;
      seen = event.data;
      refresh();
    });
    async function refresh() {
      if (refreshing) { again = true; return; }
      const form = document.querySelector("form.recipe-form");
      if (form) {
        if (status) status.textContent = "This book changed elsewhere while this form is open.";
        return;
      }
      refreshing = true;
      try {
        const response = await fetch(window.location.href, { headers: { "Accept": "text/html" }, credentials: "same-origin" });
        const text = await response.text();
        const page = new DOMParser().parseFromString(text, "text/html");
        const fresh = page.getElementById("main");
        const main = document.getElementById("main");
        if (fresh && main) {
          main.innerHTML = fresh.innerHTML;
          document.title = page.title;
          bind(main);
          if (response.status === 404 && status) status.textContent = "This recipe was deleted elsewhere.";
          document.body.dataset.version = seen;
        }
      } catch (error) {
        if (status) status.textContent = "Could not refresh the page: " + error.message;
      } finally {
        refreshing = false;
        if (again) { again = false; refresh(); }
      }
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    bind(document);
    live();
  });
})();
