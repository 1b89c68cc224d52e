// roofline_draw.h: the parts of the roofline chart (roofline.cpp draws the data, roofline_labels.cpp
// places the labels), sharing one drawing context. Private to plotting/.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "axis.h"
#include "charts.h"
#include "label_obstacles.h"

namespace rlx::plot::roofline_parts {

inline const Color kRoof{0.13, 0.13, 0.13, 1};
inline const Color kSecondary{0.5, 0.5, 0.5, 1};
inline const Color kReference{0.58, 0.58, 0.58, 1};  // a reference line and its label
inline const Color kLabel{0.13, 0.13, 0.13, 1};

struct Ridge {
  double ai, gflops;
  std::string label;  // "DRAM ridge ", "FP32 FMA ridge ", "ridge "
};

// Everything the parts of one chart share: the spec, the canvas and frame, the obstacles every
// drawn thing adds to, and what the data drawing decides for the labels (orders, ridges, boxes).
struct Draw {
  const RooflineSpec& spec;
  Canvas& c;
  Frame& f;
  const Layout& L;
  Obstacles& obs;
  const Axis &x, &y;
  double pmax, bmax;
  double pt, r;  // a point, and a marker's radius
  std::map<std::string, size_t> cidx, sidx;
  std::vector<size_t> roof_order;  // memory roofs, slowest first
  std::vector<Ridge> ridges;       // in label order
  std::vector<Box> point_boxes;
};

std::string num3(double v);

// roofline_labels.cpp: ridge, ceiling, roof and point labels, in that order (each an obstacle for
// the next).
void label_ridges(Draw& d);
void label_ceilings(Draw& d);
void label_roofs(Draw& d);
void label_points(Draw& d);

}  // namespace rlx::plot::roofline_parts
