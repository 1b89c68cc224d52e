// sixel.h: a PNG as a DEC sixel image, for terminals that draw sixel graphics (xterm -ti vt340,
// foot, mlterm, WezTerm, ...). The REPL shows a plot inline with it when the terminal says it can
// (scripts/rlx/termimg.lua). Colours are mapped to a fixed 6x6x6 cube (216 registers), which keeps
// the encoder small and is plenty for charts drawn from an 8-colour palette on white.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rlx::plot {

// Opaque 0xRRGGBB pixels, row-major.
struct Pixels {
  int width = 0, height = 0;
  std::vector<uint32_t> rgb;
};

// The register (0..215) of the cube colour nearest to 0xRRGGBB.
int sixel_register(uint32_t rgb);

// The sixel text of the pixels: DCS q, raster attributes, the registers used, six-pixel bands
// with run-length encoding, ST.
std::string sixel_encode(const Pixels& px);

// Reads a PNG (throws naming the file when it cannot), scales it down to at most max_width pixels
// wide (keeping its aspect ratio; never up), composites it on white and encodes it.
std::string sixel_from_png(const std::string& path, int max_width);

}  // namespace rlx::plot
