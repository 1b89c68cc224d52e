// markdown.h: GitHub-flavoured Markdown to HTML with libcmark-gfm, and the self-contained page a
// study report is published as (report.html: one file, figures embedded, opens anywhere).
//
// The Markdown is CommonMark plus GFM tables, strikethrough, autolinks and footnotes. report.md is
// a file anyone may edit and report.html opens in a browser, so the HTML is sanitized (issue 48
// item 10): raw HTML passes only when it is plainly harmless (allowed structural tags with class,
// id, title, align, colspan or rowspan attributes, and comments), else it is shown as text; a link
// or image address with a scheme other than http, https or mailto (images: also data:image/) is
// emptied, so <script>, onerror= and javascript: links never reach the page. rlx escapes every
// value it writes into report.md. No Lua here: host/bindings/bind_report.cpp exposes it as
// rlx.report.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rlx::report {

// A problem with the input (an image that cannot be read, an unknown image type); the message
// names the file and what to do.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The Markdown rendered as an HTML fragment (no <html>/<head>).
std::string markdown_to_html(std::string_view markdown);

// Same, with every image's address (as written in the Markdown) replaced by image_url(address).
std::string markdown_to_html(std::string_view markdown,
                             const std::function<std::string(const std::string&)>& image_url);

struct PageOptions {
  std::string title;           // the page's <title>
  std::string base_dir = ".";  // relative image paths are read from this directory
  bool embed_images = true;    // false: keep the image paths as links (the page needs its files)
};

struct Page {
  std::string html;                 // a complete HTML5 document
  std::vector<std::string> images;  // the local image paths embedded, in document order
};

// The raw HTML line a Markdown document writes where its footnotes belong (the report's Appendix
// A): cmark-gfm gathers every footnote at the end of the body, and render_page moves them here.
inline constexpr const char* kFootnotesHere = "<div class=\"rlx-footnotes-here\"></div>";

// A complete HTML page: a <head> with the title and an inline style sheet, and the Markdown's
// body (its footnotes moved to kFootnotesHere when the document has that line). With embed_images, every
// image whose address is a relative or absolute file path (not http:, https: or data:) is read from base_dir
// and replaced by a data: URI, so the page needs no other file. A missing or unreadable image, or one of an
// unknown type, throws Error.
Page render_page(std::string_view markdown, const PageOptions& opts);

// The version of the libcmark-gfm rlx runs with ("0.29.0.gfm.6").
std::string cmark_gfm_version();

// RFC 4648 base64 (with '=' padding) of bytes.
std::string base64(std::string_view bytes);

// The MIME type of an image file by its extension (png, jpg/jpeg, gif, svg, webp); throws Error
// for anything else.
std::string image_mime_type(const std::string& path);

}  // namespace rlx::report
