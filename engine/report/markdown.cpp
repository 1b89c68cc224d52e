// markdown.cpp: libcmark-gfm behind two functions (see markdown.h). The parser and the document
// tree are owned by RAII holders so an exception thrown while rewriting an image frees them.
#include "report/markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <cstdlib>
#include <memory>

namespace rlx::report {
namespace {

// Footnotes are parsed; raw HTML is rendered as written (CMARK_OPT_UNSAFE; see markdown.h).
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
