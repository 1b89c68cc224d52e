// test_sixel.cpp: the sixel encoder against images small enough to encode by hand.
#include <catch2/catch.hpp>
#include <string>

#include "sixel.h"

using namespace rlx::plot;

TEST_CASE("sixel registers: the nearest colour of the 6x6x6 cube") {
  CHECK(sixel_register(0x000000) == 0);
  CHECK(sixel_register(0xFFFFFF) == 215);
  CHECK(sixel_register(0xFF0000) == 180);            // 5 * 36
  CHECK(sixel_register(0x0072B2) == 0 + 2 * 6 + 3);  // 0x72 = 114 -> 2.24 -> 2; 0xB2 = 178 -> 3.49 -> 3
}

TEST_CASE("sixel: a 2x2 image, one band, three registers") {
  // white red
  // black white
  Pixels px{2, 2, {0xFFFFFF, 0xFF0000, 0x000000, 0xFFFFFF}};
  // Register 0 (black): column 0 has row 1 set (bit 1: 63 + 2 = 'A'), column 1 nothing ('?').
  // Register 180 (red): column 1 row 0 (bit 0: '@'). Register 215 (white): column 0 row 0 ('@'),
  // column 1 row 1 ('A').
  const std::string want =
      "\x1bPq\"1;1;2;2#0;2;0;0;0#180;2;100;0;0#215;2;100;100;100"
      "#0A?$#180?@$#215@A-\x1b\\";
  CHECK(sixel_encode(px) == want);
}

TEST_CASE("sixel: runs longer than three are compressed, bands of six rows") {
  Pixels px{5, 7, std::vector<uint32_t>(35, 0xFFFFFF)};
  // Band 1: rows 0-5, all six bits ('~' = 63 + 63), five times; band 2: row 6 only ('@').
  CHECK(sixel_encode(px) == "\x1bPq\"1;1;5;7#215;2;100;100;100#215!5~-#215!5@-\x1b\\");
}

TEST_CASE("sixel_from_png: a missing file is an error naming it") {
  CHECK_THROWS_WITH(sixel_from_png("/nonexistent/f.png", 100), "cannot read PNG '/nonexistent/f.png'");
}
