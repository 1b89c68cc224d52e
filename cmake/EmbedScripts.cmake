# Embeds every Lua module under scripts/rlx/ into the binary as source text. The generator runs at
# build time, so editing a .lua file regenerates host/embedded_scripts.cpp. Each module keeps its
# real path as chunk name ("@scripts/rlx/study/init.lua") so tracebacks point at the file in the tree.
file(GLOB_RECURSE RLX_LUA_SCRIPTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/scripts/rlx/*.lua)
set(RLX_EMBEDDED_CPP ${CMAKE_BINARY_DIR}/generated/embedded_scripts.cpp)
add_custom_command(
  OUTPUT ${RLX_EMBEDDED_CPP}
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DOUTPUT=${RLX_EMBEDDED_CPP}
          -P ${CMAKE_SOURCE_DIR}/cmake/embed_scripts_gen.cmake
  DEPENDS ${RLX_LUA_SCRIPTS} ${CMAKE_SOURCE_DIR}/cmake/embed_scripts_gen.cmake
  COMMENT "Embedding Lua modules from scripts/rlx")
