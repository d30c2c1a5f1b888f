// Every figure of a notebook page opens at full size when clicked (a plain link to the image file), except a lesson's
// player, whose image its slider changes; code cells longer than FOLD_LINES are folded (not inside a solution, which
// is folded already); the verdict table shows its id, figure, verdict and effect columns.
// Opened from disk (file://), search lists its pages without the snippets, which it would have to fetch.
(function () {
  "use strict";
  /* global DOCUMENTATION_OPTIONS */
  if (window.location.protocol === "file:" && typeof DOCUMENTATION_OPTIONS !== "undefined") {
    DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;  // a const object of Sphinx's, not on window
  }
  function ready(fn) {
    if (document.readyState !== "loading") { fn(); } else { document.addEventListener("DOMContentLoaded", fn); }
  }
  // A code cell longer than this many lines is folded under a summary that says how long it is.
  var FOLD_LINES = 15;
  // The columns of the verdict table a paper page shows; the scorecard shows them all.
  var VERDICT_COLUMNS = ["id", "figure", "verdict", "effect"];
  ready(function () {
    document.querySelectorAll("div.cell.verdict-table table").forEach(function (table) {
      var hidden = Array.from(table.querySelectorAll("thead th")).map(function (header) {
        return VERDICT_COLUMNS.indexOf(header.textContent.trim()) < 0;
      });
      table.querySelectorAll("tr").forEach(function (row) {
        Array.from(row.children).forEach(function (cell, index) {
          if (hidden[index]) { cell.style.display = "none"; }
        });
      });
    });
    document.querySelectorAll("div.cell > div.cell_input").forEach(function (input) {
      var code = input.querySelector("pre");
      if (!code || input.closest("details.solution")) { return; }
      var lines = code.textContent.replace(/\n$/, "").split("\n").length;
      if (lines <= FOLD_LINES) { return; }
      var details = document.createElement("details");
      details.className = "folded-code";
      var summary = document.createElement("summary");
      summary.textContent = "Show the code (" + lines + " lines)";
      details.appendChild(summary);
      input.parentNode.insertBefore(details, input);
      details.appendChild(input);
    });
    document.querySelectorAll("div.cell_output img").forEach(function (img) {
      if (img.closest("a") || img.closest("figure.lesson-player")) { return; }
      var link = document.createElement("a");
      link.href = img.getAttribute("src");
      link.title = "open the figure at full size";
      img.parentNode.insertBefore(link, img);
      link.appendChild(img);
    });
  });
})();
