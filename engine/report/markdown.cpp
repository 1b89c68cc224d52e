// markdown.cpp: libcmark-gfm behind two functions (see markdown.h). The parser and the document
// tree are owned by RAII holders so an exception thrown while rewriting an image frees them.
#include "report/markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace rlx::report {
namespace {

// Footnotes are parsed; raw HTML is rendered as written (CMARK_OPT_UNSAFE) once sanitize() has
// turned every piece of it that is not plainly harmless into text (see markdown.h).
constexpr int kParseOptions = CMARK_OPT_FOOTNOTES;
constexpr int kRenderOptions = CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES;
constexpr const char* kExtensions[] = {"table", "strikethrough", "autolink"};

struct ParserFree {
  void operator()(cmark_parser* p) const { cmark_parser_free(p); }
};
struct NodeFree {
  void operator()(cmark_node* n) const { cmark_node_free(n); }
};
struct IterFree {
  void operator()(cmark_iter* i) const { cmark_iter_free(i); }
};

std::unique_ptr<cmark_parser, ParserFree> make_parser() {
  cmark_gfm_core_extensions_ensure_registered();
  std::unique_ptr<cmark_parser, ParserFree> parser(cmark_parser_new(kParseOptions));
  if (!parser) throw Error("cannot create the cmark-gfm parser (out of memory)");
  for (const char* name : kExtensions) {
    cmark_syntax_extension* ext = cmark_find_syntax_extension(name);
    if (!ext) throw Error(std::string("libcmark-gfm has no '") + name + "' extension");
    cmark_parser_attach_syntax_extension(parser.get(), ext);
  }
  return parser;
}

// The tags raw HTML may use in a report: structure and emphasis, nothing that loads, links or
// runs anything (no a, img, script, style, iframe, object, form, svg, ...).
bool allowed_tag(std::string name) {
  static const std::set<std::string> kTags = {
      "abbr", "b",     "blockquote", "br",    "caption",    "center", "code",    "dd",   "del",   "details",
      "div",  "dl",    "dt",         "em",    "figcaption", "figure", "h1",      "h2",   "h3",    "h4",
      "h5",   "h6",    "hr",         "i",     "ins",        "kbd",    "li",      "mark", "ol",    "p",
      "pre",  "s",     "small",      "span",  "strong",     "sub",    "summary", "sup",  "table", "tbody",
      "td",   "tfoot", "th",         "thead", "tr",         "u",      "ul"};
  for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return kTags.count(name) > 0;
}

// One tag whose name is allowed and whose attributes are only class, id, title, align, colspan or
// rowspan with a quoted value without quotes or angle brackets: never an event handler (onerror=),
// a style, or an address.
bool allowed_tag_text(const std::string& tag) {
  static const std::regex kTag(R"(^<(/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[A-Za-z-]+="[^"<>]*")*)\s*/?>$)");
  static const std::regex kAttr(R"re(\s+([A-Za-z-]+)=")re");
  std::smatch m;
  if (!std::regex_match(tag, m, kTag) || !allowed_tag(m[2].str())) return false;
  const std::string attrs = m[3].str();
  for (std::sregex_iterator it(attrs.begin(), attrs.end(), kAttr), end; it != end; ++it) {
    std::string name = (*it)[1].str();
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name != "class" && name != "id" && name != "title" && name != "align" && name != "colspan" &&
        name != "rowspan")
      return false;
  }
  return true;
}

// Raw HTML that is only allowed tags, comments and text between them.
bool harmless_html(const std::string& html) {
  size_t i = 0;
  while (i < html.size()) {
    const size_t lt = html.find('<', i);
    if (lt == std::string::npos) return true;
    if (html.compare(lt, 4, "<!--") == 0) {
      const size_t end = html.find("-->", lt + 4);
      if (end == std::string::npos) return false;
      i = end + 3;
      continue;
    }
    const size_t gt = html.find('>', lt);
    if (gt == std::string::npos || !allowed_tag_text(html.substr(lt, gt - lt + 1))) return false;
    i = gt + 1;
  }
  return true;
}

// Whether an address may be a link's (or, with image, an image's) target: relative, or http,
// https, mailto (images also data:image/...). Browsers ignore spaces and control characters in a
// scheme ("java\tscript:"), so they are dropped before looking; cmark has already decoded entities.
bool safe_url(const char* url, bool image) {
  std::string s;
  for (const char* p = url; p && *p; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c > 0x20 && c != 0x7f) s += static_cast<char>(std::tolower(c));
  }
  const size_t colon = s.find(':');
  const size_t stop = s.find_first_of("/?#");
  if (colon == std::string::npos || (stop != std::string::npos && stop < colon)) return true;
  const std::string scheme = s.substr(0, colon);
  if (scheme == "http" || scheme == "https" || scheme == "mailto") return true;
  return image && s.rfind("data:image/", 0) == 0;
}

// report.md is a user's file (often edited by hand), and report.html opens in a browser: raw HTML
// that could run or load anything (<script>, onerror=, <iframe>) is shown as text instead, and a
// link or image whose address has another scheme (javascript:, vbscript:, data: for a link) gets
// an empty one (issue 48 item 10). The report's own HTML (kFootnotesHere) passes.
void sanitize(cmark_node* doc) {
  std::vector<cmark_node*> nodes;
  {
    std::unique_ptr<cmark_iter, IterFree> it(cmark_iter_new(doc));
    for (cmark_event_type ev; (ev = cmark_iter_next(it.get())) != CMARK_EVENT_DONE;)
      if (ev == CMARK_EVENT_ENTER) nodes.push_back(cmark_iter_get_node(it.get()));
  }
  for (cmark_node* node : nodes) {
    const cmark_node_type type = cmark_node_get_type(node);
    if (type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE) {
      if (!safe_url(cmark_node_get_url(node), type == CMARK_NODE_IMAGE)) cmark_node_set_url(node, "");
      continue;
    }
    if (type != CMARK_NODE_HTML_INLINE && type != CMARK_NODE_HTML_BLOCK) continue;
    const char* literal = cmark_node_get_literal(node);
    std::string html = literal ? literal : "";
    if (harmless_html(html)) continue;
    while (!html.empty() && (html.back() == '\n' || html.back() == '\r')) html.pop_back();
    cmark_node* text = cmark_node_new(CMARK_NODE_TEXT);
    cmark_node_set_literal(text, html.c_str());
    if (type == CMARK_NODE_HTML_INLINE) {
      cmark_node_replace(node, text);
    } else {
      cmark_node* para = cmark_node_new(CMARK_NODE_PARAGRAPH);
      cmark_node_append_child(para, text);
      cmark_node_replace(node, para);
    }
    cmark_node_free(node);
  }
}

void rewrite_images(cmark_node* doc, const std::function<std::string(const std::string&)>& image_url) {
  std::unique_ptr<cmark_iter, IterFree> it(cmark_iter_new(doc));
  for (cmark_event_type ev; (ev = cmark_iter_next(it.get())) != CMARK_EVENT_DONE;) {
    cmark_node* node = cmark_iter_get_node(it.get());
    if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(node) != CMARK_NODE_IMAGE) continue;
    const char* url = cmark_node_get_url(node);
    const std::string replaced = image_url(url ? url : "");
    cmark_node_set_url(node, replaced.c_str());
  }
}

}  // namespace

std::string markdown_to_html(std::string_view markdown,
                             const std::function<std::string(const std::string&)>& image_url) {
  auto parser = make_parser();
  cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
  std::unique_ptr<cmark_node, NodeFree> doc(cmark_parser_finish(parser.get()));
  if (!doc) throw Error("cmark-gfm could not parse the document");
  sanitize(doc.get());
  if (image_url) rewrite_images(doc.get(), image_url);
  char* html = cmark_render_html(doc.get(), kRenderOptions, cmark_parser_get_syntax_extensions(parser.get()));
  std::string out = html ? html : "";
  cmark_get_default_mem_allocator()->free(html);
  return out;
}

std::string markdown_to_html(std::string_view markdown) {
  return markdown_to_html(markdown, nullptr);
}

std::string cmark_gfm_version() {
  return cmark_version_string();
}

}  // namespace rlx::report
