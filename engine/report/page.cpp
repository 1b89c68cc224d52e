// page.cpp: the self-contained report page (see markdown.h): images read from disk and embedded
// as base64 data: URIs, an inline style sheet, and the HTML5 skeleton around cmark's body.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "report/markdown.h"
#include "util/text_file.h"

namespace rlx::report {
namespace {

// Readable on screen and on paper: narrow column, ruled tables with right-aligned numbers where
// the Markdown asks for it, figures no wider than the text, placeholders marked in yellow and
// drafts in blue. A table never runs off the page (issue 45: tables F.4 and F.7 did at 1200 px): it
// is at most the text's width, and a long unbroken word in a cell (a run label, a command) wraps.
constexpr const char* kStyle = R"css(
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; max-width: 68rem; margin: 2rem auto;
  padding: 0 1.5rem; line-height: 1.45; color: #1a1a1a; }
h1 { font-size: 1.7rem; border-bottom: 2px solid #333; padding-bottom: .3rem; }
h2 { font-size: 1.35rem; border-bottom: 1px solid #bbb; margin-top: 2.2rem; }
h3 { font-size: 1.1rem; margin-top: 1.6rem; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .86rem; max-width: 100%; }
th, td { border: 1px solid #bbb; padding: .25rem .5rem; vertical-align: top; }
td code, th code, td { overflow-wrap: anywhere; }
th { background: #eee; }
tr:nth-child(even) td { background: #fafafa; }
img { max-width: 100%; height: auto; display: block; margin: .8rem 0; border: 1px solid #ddd; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: .85em; background: #f3f3f3; padding: 0 .2em; }
pre { background: #f3f3f3; padding: .6rem; white-space: pre-wrap; overflow-wrap: anywhere; }
pre code { padding: 0; }
blockquote { margin: .8rem 0; padding: .4rem .8rem; background: #fff8d6; border-left: 4px solid #e0b400; }
blockquote.draft { background: #eaf2fa; border-left-color: #3b7dbf; }
.footnotes { font-size: .85rem; }
@media print { body { max-width: none; margin: 0; } img { page-break-inside: avoid; } }
)css";

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

bool is_remote(const std::string& url) {
  auto starts = [&](const char* p) { return url.rfind(p, 0) == 0; };
  return starts("http://") || starts("https://") || starts("data:") || starts("//");
}

// An embedded image is read whole into the page: a bound keeps a huge file (or /dev/zero behind a
// .png link) from taking the memory. Figures rlx draws are well under 1 MB.
constexpr uint64_t kMaxImageBytes = 50 << 20;

// Why the bytes do not start as a file of this MIME type does, or "" when they do. SVG is text:
// its root element must appear in the first 4 KB (after an XML declaration or comments).
std::string not_of_type(const std::string& bytes, const std::string& mime) {
  auto starts = [&](std::string_view magic) { return bytes.compare(0, magic.size(), magic) == 0; };
  if (mime == "image/png") return starts("\x89PNG\r\n\x1a\n") ? "" : "a PNG image";
  if (mime == "image/jpeg") return starts("\xff\xd8\xff") ? "" : "a JPEG image";
  if (mime == "image/gif") return starts("GIF87a") || starts("GIF89a") ? "" : "a GIF image";
  if (mime == "image/webp") return starts("RIFF") && bytes.compare(8, 4, "WEBP") == 0 ? "" : "a WebP image";
  return bytes.substr(0, 4096).find("<svg") != std::string::npos ? "" : "an SVG image";
}

// The image's bytes: a regular file (a FIFO would block the report forever, a device never end)
// of at most kMaxImageBytes whose first bytes are those of its type (issue 35 item 7: a .png link
// to /etc/shadow was embedded as base64). Read by the one rule for a user's files
// (util/text_file.h); the messages say what to change in the Markdown.
std::string read_image(const std::filesystem::path& path, const std::string& as_written,
                       const std::string& mime) {
  std::string bytes;
  try {
    bytes = util::read_user_file(path.string(), "the image", kMaxImageBytes);
  } catch (const util::UserFileError& e) {
    using P = util::UserFileProblem;
    if (e.problem == P::not_regular)
      throw Error(fmt::format("the image '{}' ({}) is {}, not an image file: fix the path in the Markdown",
                              as_written, path.string(), e.detail));
    if (e.problem == P::too_large)
      throw Error(
          fmt::format("the image '{}' is larger than the {} an embedded image may have: make it smaller "
                      "or link it instead",
                      as_written, e.detail));
    throw Error(
        fmt::format("cannot read the image '{}' ({}: {}): check that the file exists "
                    "(figures are drawn next to report.md) or fix the path in the Markdown",
                    as_written, path.string(), e.detail));
  }
  const std::string want = not_of_type(bytes, mime);
  if (!want.empty())
    throw Error(
        fmt::format("the image '{}' is not {}: its first bytes do not match its extension; fix the path "
                    "in the Markdown, or rename the file to its real type",
                    as_written, want));
  return bytes;
}

// cmark-gfm's footnote section (always the body's last element) moved to the document's
// kFootnotesHere line; the body as it is when either is missing.
std::string place_footnotes(std::string body) {
  const size_t marker = body.find(kFootnotesHere);
  const size_t start = body.find("<section class=\"footnotes\"");
  const size_t end = body.rfind("</section>");
  if (marker == std::string::npos || start == std::string::npos || end == std::string::npos || end < start ||
      marker > start)
    return body;
  const size_t stop = end + std::string_view("</section>").size();
  const std::string section = body.substr(start, stop - start);
  body.erase(start, stop - start);
  body.replace(marker, std::string_view(kFootnotesHere).size(), section);
  return body;
}

// Block quotes that open with the draft mark get the class the style sheet draws them with (cmark
// writes no classes; the mark is the Markdown's own, rlx.report.md's M.DRAFT).
std::string mark_drafts(std::string body) {
  static constexpr std::string_view kOpen = "<blockquote>\n<p><strong>[DRAFT]</strong>";
  static constexpr std::string_view kClass = "<blockquote class=\"draft\">";
  for (size_t at = body.find(kOpen); at != std::string::npos; at = body.find(kOpen, at + kClass.size()))
    body.replace(at, std::string_view("<blockquote>").size(), kClass);
  return body;
}

}  // namespace

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string image_mime_type(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".png") return "image/png";
  if (ext == ".jpg" || ext == ".jpeg") return "image/jpeg";
  if (ext == ".gif") return "image/gif";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".webp") return "image/webp";
  throw Error(
      fmt::format("cannot embed '{}': not an image type a browser shows inline "
                  "(use .png, .jpg, .gif, .svg or .webp; draw figures with format = \"png\")",
                  path));
}

Page render_page(std::string_view markdown, const PageOptions& opts) {
  Page page;
  auto embed = [&](const std::string& url) -> std::string {
    if (url.empty() || is_remote(url)) return url;
    std::filesystem::path path(url);
    if (path.is_relative()) path = std::filesystem::path(opts.base_dir) / path;
    const std::string mime = image_mime_type(url);
    page.images.push_back(url);
    return "data:" + mime + ";base64," + base64(read_image(path, url, mime));
  };
  const std::string body = mark_drafts(
      place_footnotes(opts.embed_images ? markdown_to_html(markdown, embed) : markdown_to_html(markdown)));
  page.html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"rlx report (libcmark-gfm {})\">\n<title>{}</title>\n"
      "<style>{}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
      cmark_gfm_version(), html_escape(opts.title), kStyle, body);
  return page;
}

}  // namespace rlx::report
