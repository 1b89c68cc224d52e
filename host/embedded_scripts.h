// embedded_scripts.h: the Lua modules of scripts/rlx/, compiled into the binary as source text.
// The table is generated at build time by cmake/embed_scripts_gen.cmake.
#pragma once
#include <cstddef>
#include <span>

namespace rlx::host {

struct EmbeddedScript {
  const char* module;  // "rlx.study"
  const char* path;    // "scripts/rlx/study/init.lua", relative to the source tree
  const char* source;
  std::size_t size;
};

std::span<const EmbeddedScript> embedded_scripts();

}  // namespace rlx::host
