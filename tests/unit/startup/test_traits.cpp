// test_traits.cpp: engine/startup/traits: the one table of what each command needs at start.
#include <catch2/catch.hpp>

#include "startup/traits.h"

using rlx::startup::traits_of;

TEST_CASE("the commands that run sweeps train, are supervised and print line by line") {
  for (const char* c : {"run", "-e", "shard"}) {
    INFO(c);
    const auto t = traits_of(c);
    CHECK(t.trains);
    CHECK(t.supervised);
    CHECK(t.line_buffered);
  }
}

TEST_CASE("train, peaks and repl train without a supervising parent") {
  for (const char* c : {"train", "peaks", "repl"}) {
    INFO(c);
    const auto t = traits_of(c);
    CHECK(t.trains);
    CHECK_FALSE(t.supervised);
    CHECK(t.line_buffered);
  }
}

TEST_CASE("commands that never train have no traits") {
  for (const char* c : {"", "help", "--help", "version", "runs", "report", "env", "submit", "script.lua", "Run"}) {
    INFO(c);
    const auto t = traits_of(c);
    CHECK_FALSE(t.trains);
    CHECK_FALSE(t.supervised);
    CHECK_FALSE(t.line_buffered);
  }
}
