// The scorecard's filters (paper, verdict, text) and column sorting. Self-contained, no library.
// Filters can be preset from the address: scorecard.html?paper=bo_pp&verdict=inconclusive
(function () {
  "use strict";
  function ready(fn) {
    if (document.readyState !== "loading") { fn(); } else { document.addEventListener("DOMContentLoaded", fn); }
  }
  ready(function () {
    var table = document.getElementById("scorecard-table");
    if (!table) { return; }
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var paper = document.getElementById("scorecard-paper");
    var verdict = document.getElementById("scorecard-verdict");
    var text = document.getElementById("scorecard-text");
    var count = document.getElementById("scorecard-count");
    var params = new URLSearchParams(window.location.search);
    function preset(select, value) {
      if (value && Array.prototype.some.call(select.options, function (o) { return o.value === value; })) {
        select.value = value;
      }
    }
    preset(paper, params.get("paper"));
    preset(verdict, params.get("verdict"));
    if (params.get("q")) { text.value = params.get("q"); }

    function apply() {
      var p = paper.value, v = verdict.value, q = text.value.trim().toLowerCase(), shown = 0;
      rows.forEach(function (row) {
        var visible = (!p || row.dataset.paper === p) && (!v || row.dataset.verdict === v) &&
          (!q || row.textContent.toLowerCase().indexOf(q) !== -1);
        row.hidden = !visible;
        if (visible) { shown += 1; }
      });
      count.textContent = shown === rows.length ? rows.length + " claims" : shown + " of " + rows.length + " claims";
    }
    [paper, verdict].forEach(function (el) { el.addEventListener("change", apply); });
    text.addEventListener("input", apply);

    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    headers.forEach(function (th, column) {
      if (!th.hasAttribute("data-sortable")) { return; }
      th.setAttribute("tabindex", "0");
      th.setAttribute("title", "sort by " + th.textContent.trim());
      function sort() {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        rows.sort(function (a, b) {
          var x = a.cells[column].dataset.sort || a.cells[column].textContent;
          var y = b.cells[column].dataset.sort || b.cells[column].textContent;
          var order = x < y ? -1 : x > y ? 1 : Number(a.dataset.order) - Number(b.dataset.order);
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (event) { if (event.key === "Enter") { sort(); } });
    });
    apply();
    if (params.get("paper") || params.get("verdict") || params.get("q")) {
      document.querySelector(".scorecard-controls").scrollIntoView();
    }
  });
})();
