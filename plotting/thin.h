// thin.h: a series of many points drawn in time proportional to its points (issue 48 item 6:
// rlx.plot.line with 20,000 zig-zag points took 7.9 s, 100,000 more than a minute).
//
// Two things made it slow: Cairo strokes a path as one polygon, and a zig-zag path crosses itself
// at every segment, so the stroke grew faster than the points; and every point drew its own
// marker, thousands on one pixel. The line is thinned to what a pixel column can show (per column
// the first, lowest, highest and last point, in their order: the drawn line is the same), stroked
// a bounded number of segments at a time, and a marker is drawn once per pixel.
#pragma once

#include <cairo.h>

#include <cstddef>
#include <string>
#include <vector>

namespace rlx::plot {

// Indices of the points worth drawing as a line, x and y in device pixels (a non-finite y is a
// break in the line and is kept): consecutive points in one pixel column keep their first,
// lowest, highest and last, in order; all others are kept.
std::vector<size_t> thin_line(const std::vector<double>& x, const std::vector<double>& y);

// For each point, whether its marker is the first on its pixel (x, y rounded); a non-finite y
// draws none.
std::vector<char> first_on_pixel(const std::vector<double>& x, const std::vector<double>& y);

// The most segments stroked as one path: Cairo's cost for a path grows with the crossings inside
// it (a zig-zag, or points out of x order, cross at almost every segment), so short paths keep
// any line linear in its points; each path overlaps the one before by a segment, so the line
// looks as one.
inline constexpr size_t kSegmentsPerStroke = 32;

// The most points a line keeps after thinning. Points in x order thin to about four per pixel
// column, so any number of them stays under it; points out of order cannot be thinned without
// changing the line (each segment may cross the whole plot, and drawing 100,000 such segments
// takes seconds), so beyond this bound the line is refused, not drawn for minutes.
inline constexpr size_t kMaxLinePoints = 100000;

// Strokes the line through the points (pixels; a non-finite y lifts the pen) with cr's current
// source and line settings, thinned and kSegmentsPerStroke segments at a time. Throws
// std::invalid_argument, before drawing anything, when more than kMaxLinePoints points are left
// after thinning; `series` names the series in that message ("series 1 ('a')").
void stroke_line(cairo_t* cr, const std::vector<double>& x, const std::vector<double>& y,
                 const std::string& series);

}  // namespace rlx::plot
