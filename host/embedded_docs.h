// embedded_docs.h: the Lua API reference (docs/lua-api.md, docs/lua-api/*.md) compiled into the
// binary as text, for help() at the REPL (scripts/rlx/help.lua). The table is generated at build
// time by cmake/embed_docs_gen.cmake.
#pragma once
#include <cstddef>
#include <span>

namespace rlx::host {

struct EmbeddedDoc {
  const char* path;  // "docs/lua-api/train.md", relative to the source tree
  const char* text;
  std::size_t size;
};

std::span<const EmbeddedDoc> embedded_docs();

}  // namespace rlx::host
