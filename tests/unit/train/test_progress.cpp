// test_progress.cpp: the text of the progress line (the bar itself is drawn only on a terminal).
#include <catch2/catch.hpp>

#include "train/progress.h"

using rlx::train::ProgressBar;

TEST_CASE("the progress line shows phase, iteration, a proportional bar, images/s and ETA") {
  const std::string l = ProgressBar::line("measure", 5, 20, 95.25, 3.14);
  CHECK(l == "measure     5/20    [=====               ]     95.2 img/s  ETA 3.1s");
  CHECK(ProgressBar::line("warmup", 0, 0, 0, 0).find("[                    ]") != std::string::npos);
}

TEST_CASE("a disabled bar draws nothing") {
  ProgressBar bar(false, 4);
  bar.phase("measure", 3);
  bar.update(1);
  bar.finish();
  SUCCEED("no output and no crash");
}
