// Unit tests of engine/report: GFM rendering through libcmark-gfm (tables, footnotes), base64
// against RFC 4648's test vectors, and the self-contained page (a real PNG file embedded).
#include <sys/stat.h>

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

TEST_CASE("a page moves its footnotes to the document's footnotes line") {
  const std::string md = std::string("Row[^r1]\n\n## Appendix A\n\n[^r1]: runs a_run1\n\n") + kFootnotesHere +
                         "\n\n## Appendix B\n\nlast\n";
  const std::string html = render_page(md, {"t", ".", false}).html;
  const size_t a = html.find("Appendix A"), notes = html.find("<section class=\"footnotes\"");
  const size_t b = html.find("Appendix B"), run = html.find("runs a_run1");
  REQUIRE(notes != std::string::npos);
  CHECK(a < notes);
  CHECK(notes < run);
  CHECK(run < b);
  CHECK(html.find(kFootnotesHere) == std::string::npos);
  CHECK(html.find("<section class=\"footnotes\"", notes + 1) == std::string::npos);
  // Without the line, the footnotes stay where cmark-gfm puts them: after the last paragraph.
  const std::string plain = render_page("Row[^r1]\n\n[^r1]: x\n\nlast\n", {"t", ".", false}).html;
  CHECK(plain.find("last") < plain.find("<section class=\"footnotes\""));
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

TEST_CASE("a page embeds only regular image files of their type, with a size cap") {
  // Issue 35 item 7: a FIFO named .png hung the report, a .png link to /dev/zero was read until
  // memory ran out, and a .png link to a text file was embedded as base64.
  const auto dir = std::filesystem::path(RLX_TEST_TMP) / "report_unit_hostile";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  PageOptions opts;
  opts.base_dir = dir.string();
  REQUIRE(mkfifo((dir / "fifo.png").c_str(), 0600) == 0);
  CHECK_THROWS_WITH(render_page("![f](fifo.png)\n", opts),
                    "the image 'fifo.png' (" + (dir / "fifo.png").string() +
                        ") is a FIFO, not an image file: fix the path in the Markdown");
  std::filesystem::create_symlink("/dev/zero", dir / "zero.png");
  CHECK_THROWS_WITH(render_page("![z](zero.png)\n", opts), Catch::Contains("is a device, not an image file"));
  std::ofstream(dir / "secret") << "root:$6$salt$hash:19000:0:99999:7:::\n";
  std::filesystem::create_symlink(dir / "secret", dir / "secret.png");
  CHECK_THROWS_WITH(
      render_page("![s](secret.png)\n", opts),
      "the image 'secret.png' is not a PNG image: its first bytes do not match its extension; fix "
      "the path in the Markdown, or rename the file to its real type");
  std::ofstream(dir / "huge.png") << "\x89PNG\r\n\x1a\n";
  std::filesystem::resize_file(dir / "huge.png", (50 << 20) + 1);  // sparse: no disk used
  CHECK_THROWS_WITH(render_page("![h](huge.png)\n", opts),
                    Catch::Contains("larger than the 50 MiB an embedded image may have"));
  std::ofstream(dir / "f.svg") << "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n";
  CHECK(render_page("![v](f.svg)\n", opts).images == std::vector<std::string>{"f.svg"});
}

TEST_CASE("raw HTML that could run or load anything is shown as text; unsafe link schemes are emptied") {
  // Issue 48 item 10: a hand-edited report.md put <script>, onerror= and javascript: links into
  // report.html.
  const std::string html = markdown_to_html(
      "<script>alert(1)</script>\n\n"
      "x <img src=x onerror=\"alert(2)\"> y\n\n"
      "[click](javascript:alert(3)) [tab](java\tscript:alert(4)) [ok](https://example.org/a) "
      "[rel](figures/a.png)\n\n"
      "![i](javascript:alert(5)) <JAVASCRIPT:alert(6)> [data](data:text/html;base64,PHNjcmlwdD4=)\n\n"
      "<div class=\"rlx-footnotes-here\"></div>\n\n"
      "a <sup>2</sup> <span title=\"t\">b</span> <b onclick=\"x()\">c</b> <!-- note -->\n");
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(html.find("<img src=x") == std::string::npos);
  CHECK(html.find("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;") != std::string::npos);
  CHECK(html.find("javascript:") == std::string::npos);
  CHECK(html.find("JAVASCRIPT:alert(6)\"") == std::string::npos);
  CHECK(html.find("href=\"data:") == std::string::npos);
  CHECK(html.find("<a href=\"\">click</a>") != std::string::npos);
  CHECK(html.find("<a href=\"https://example.org/a\">ok</a>") != std::string::npos);
  CHECK(html.find("<a href=\"figures/a.png\">rel</a>") != std::string::npos);
  CHECK(html.find("<img src=\"\" alt=\"i\" />") != std::string::npos);
  // The report's own HTML and plainly harmless tags pass; an event handler does not.
  CHECK(html.find("<div class=\"rlx-footnotes-here\"></div>") != std::string::npos);
  CHECK(html.find("<sup>2</sup>") != std::string::npos);
  CHECK(html.find("<span title=\"t\">b</span>") != std::string::npos);
  CHECK(html.find("<b onclick") == std::string::npos);
  CHECK(html.find("<!-- note -->") != std::string::npos);
}
