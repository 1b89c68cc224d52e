// Unit tests of engine/report: GFM rendering through libcmark-gfm (tables, footnotes), base64
// against RFC 4648's test vectors, and the self-contained page (a real PNG file embedded).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "report/markdown.h"

using namespace rlx::report;

TEST_CASE("base64 matches RFC 4648 section 10") {
  CHECK(base64("") == "");
  CHECK(base64("f") == "Zg==");
  CHECK(base64("fo") == "Zm8=");
  CHECK(base64("foo") == "Zm9v");
  CHECK(base64("foob") == "Zm9vYg==");
  CHECK(base64("fooba") == "Zm9vYmE=");
  CHECK(base64("foobar") == "Zm9vYmFy");
  CHECK(base64(std::string("\xff\x00\xfe", 3)) == "/wD+");
}

TEST_CASE("GFM tables render as HTML tables with their alignment") {
  const std::string html = markdown_to_html("| a | b |\n| --- | ---: |\n| 1 | 2.5 |\n");
  CHECK(html.find("<table>") != std::string::npos);
  CHECK(html.find("<th>a</th>") != std::string::npos);
  CHECK(html.find("<td align=\"right\">2.5</td>") != std::string::npos);
}

TEST_CASE("footnotes link to their definitions and escaped text stays text") {
  const std::string html = markdown_to_html("Row[^r1] and \\<b\\>\n\n[^r1]: runs a_run1, a_run2\n");
  CHECK(html.find("href=\"#fn-r1\"") != std::string::npos);
  CHECK(html.find("runs a_run1, a_run2") != std::string::npos);
  CHECK(html.find("&lt;b&gt;") != std::string::npos);
}

TEST_CASE("image addresses can be rewritten") {
  const std::string html =
      markdown_to_html("![fig](figures/a.png)\n", [](const std::string& url) { return "X/" + url; });
  CHECK(html.find("<img src=\"X/figures/a.png\" alt=\"fig\" />") != std::string::npos);
}

TEST_CASE("a page embeds local images as data URIs and names a missing one") {
  const auto dir = std::filesystem::path(RLX_TEST_TMP) / "report_unit";
  std::filesystem::create_directories(dir / "figures");
  // The 8-byte PNG signature and "IHDR": enough to check the bytes travel unchanged.
  const std::string bytes("\x89PNG\r\n\x1a\nIHDR", 12);
  std::ofstream(dir / "figures" / "a.png", std::ios::binary) << bytes;
  PageOptions opts;
  opts.title = "T <1>";
  opts.base_dir = dir.string();
  const Page page = render_page("# Hi\n\n![A](figures/a.png)\n\n![web](https://example.org/x.png)\n", opts);
  CHECK(page.images == std::vector<std::string>{"figures/a.png"});
  CHECK(page.html.find("<title>T &lt;1&gt;</title>") != std::string::npos);
  CHECK(page.html.find("<img src=\"data:image/png;base64," + base64(bytes) + "\" alt=\"A\" />") !=
        std::string::npos);
  CHECK(page.html.find("src=\"https://example.org/x.png\"") != std::string::npos);
  CHECK(page.html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK_THROWS_WITH(render_page("![B](figures/missing.png)\n", opts),
                    Catch::Contains("cannot read the image 'figures/missing.png'"));
  CHECK_THROWS_WITH(render_page("![C](figures/a.tiff)\n", opts),
                    Catch::Contains("cannot embed 'figures/a.tiff'"));
}
