// Every figure of a notebook page opens at full size when clicked (a plain link to the image file).
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
  ready(function () {
    document.querySelectorAll("div.cell_output img").forEach(function (img) {
      if (img.closest("a")) { return; }
      var link = document.createElement("a");
      link.href = img.getAttribute("src");
      link.title = "open the figure at full size";
      img.parentNode.insertBefore(link, img);
      link.appendChild(img);
    });
  });
})();
