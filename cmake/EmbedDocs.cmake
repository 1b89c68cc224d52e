# Embeds the Lua API reference (docs/lua-api.md and docs/lua-api/*.md) into the binary, so that
# help(rlx.train) at the REPL prints the documentation of the build it runs in and cannot drift
# from it (scripts/rlx/help.lua cuts the pages into one entry per documented function). The
# generator runs at build time: editing a page regenerates host/embedded_docs.cpp.
file(GLOB RLX_LUA_API_DOCS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/lua-api/*.md)
list(APPEND RLX_LUA_API_DOCS ${CMAKE_SOURCE_DIR}/docs/lua-api.md)
set(RLX_EMBEDDED_DOCS_CPP ${CMAKE_BINARY_DIR}/generated/embedded_docs.cpp)
add_custom_command(
  OUTPUT ${RLX_EMBEDDED_DOCS_CPP}
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DOUTPUT=${RLX_EMBEDDED_DOCS_CPP}
          -P ${CMAKE_SOURCE_DIR}/cmake/embed_docs_gen.cmake
  DEPENDS ${RLX_LUA_API_DOCS} ${CMAKE_SOURCE_DIR}/cmake/embed_docs_gen.cmake
  COMMENT "Embedding the Lua API reference from docs/lua-api")
