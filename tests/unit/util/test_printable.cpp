// test_printable.cpp: engine/util/printable, the one escaping rule for a user's string that rlx
// prints or writes (issue 35 item 4): escape sequences become visible text, never raw bytes.
#include <catch2/catch.hpp>

#include "util/printable.h"

using rlx::util::has_control_characters;
using rlx::util::printable;

TEST_CASE("printable: escape sequences and control characters are written as \\ddd") {
  CHECK(printable("us\x1b]0;PWN\x07") == "us\\027]0;PWN\\007");
  CHECK(printable("m\x1b[2J") == "m\\027[2J");
  CHECK(printable(std::string("a\0b", 3)) == "a\\000b");
  CHECK(printable("del\x7f") == "del\\127");
  // A C1 control in UTF-8 (U+009B, CSI) as its two bytes; other UTF-8 text unchanged.
  CHECK(printable("x\xc2\x9b"
                  "2J") == "x\\194\\1552J");
  CHECK(printable("±2 % é") == "±2 % é");
}

TEST_CASE("printable: line breaks and tabs are spaces, or kept for a message of several lines") {
  CHECK(printable("g2\nstandard\r\tx") == "g2 standard  x");
  CHECK(printable("line 1\n\tline 2\x1b", true) == "line 1\n\tline 2\\027");
  CHECK(printable("cr\r", true) == "cr ");
}

TEST_CASE("has_control_characters: what printable would change") {
  CHECK(has_control_characters("a\nb"));
  CHECK(has_control_characters("\x1b"));
  CHECK(has_control_characters("\xc2\x85"));
  CHECK_FALSE(has_control_characters("resnet50 ±2 %"));
}
