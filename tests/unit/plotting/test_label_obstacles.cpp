// test_label_obstacles.cpp: plotting/label_obstacles.h, the costs by which a chart's labels choose
// their places. Boxes are in pixels; every cost below is worked out by hand from the weights.
#include <catch2/catch.hpp>

#include "label_obstacles.h"

using rlx::plot::Box;
using rlx::plot::kLineWeight;
using rlx::plot::kMarkerWeight;
using rlx::plot::kOutsideCost;
using rlx::plot::kTextWeight;
using rlx::plot::Obstacles;

TEST_CASE("a label over another label costs more than one across a dashed line") {
  Obstacles obs{{0, 0, 400, 300}, {}, {}};
  // A horizontal line at y = 100 from x = 0 to 200 in boxes of half-width 2: 200 / 4 = 50 steps,
  // 51 boxes, one every 4 px.
  obs.segment(0, 100, 200, 100, 2);
  CHECK(obs.boxes.size() == 51);
  // A ceiling label to the right of the line's end.
  obs.add({250, 90, 350, 110}, kTextWeight);
  // A 40 x 10 label across the line from x = 50 to 90 overlaps the boxes centred at 48 ... 92
  // (|x - centre| < 2 + 20 around x = 70, centres 4k: 52 ... 88, 10 boxes).
  const Box across{50, 95, 90, 105};
  CHECK(obs.cost(across) == 10 * kLineWeight);
  // The same label on the ceiling's text: one box, but text.
  const Box on_text{260, 95, 300, 105};
  CHECK(obs.cost(on_text) == kTextWeight);
  CHECK(obs.cost(on_text) > obs.cost(across));
}

TEST_CASE("a marker costs more than a few line pieces, and outside the plot most") {
  Obstacles obs{{0, 0, 400, 300}, {}, {}};
  obs.add({100, 100, 110, 110}, kMarkerWeight);
  obs.add({105, 100, 115, 110}, kLineWeight);
  CHECK(obs.cost(Box{102, 102, 108, 108}) == kMarkerWeight + kLineWeight);
  CHECK(obs.free(Box{200, 200, 220, 210}));
  CHECK(obs.cost(Box{390, 10, 410, 20}) == kOutsideCost);
  CHECK(kMarkerWeight > 5 * kLineWeight);
  CHECK(kTextWeight > kMarkerWeight);
}
