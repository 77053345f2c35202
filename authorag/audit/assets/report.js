"use strict";
// Sortable tables: a click on a header button sorts the rows by that column's data-sort
// values (numbers as numbers, text by locale); a second click reverses. Empty cells go last.
(function () {
  function key(cell) {
    var raw = cell ? cell.getAttribute("data-sort") : null;
    if (raw === null || raw === "") { return null; }
    var num = Number(raw);
    return isNaN(num) ? raw : num;
  }
  function compare(a, b) {
    if (typeof a === "number" && typeof b === "number") { return a - b; }
    return String(a).localeCompare(String(b), undefined, { numeric: true });
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      var button = th.querySelector("button");
      if (!button) { return; }
      button.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (r1, r2) {
          var a = key(r1.cells[col]), b = key(r2.cells[col]);
          if (a === null || b === null) { return (a === null) - (b === null); }
          return ascending ? compare(a, b) : compare(b, a);
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
  // A link to an answer in the batch index opens that answer's section.
  document.querySelectorAll("a.open-answer").forEach(function (link) {
    link.addEventListener("click", function () {
      var target = document.getElementById(link.getAttribute("href").slice(1));
      if (target && target.tagName === "DETAILS") { target.open = true; }
    });
  });
})();
