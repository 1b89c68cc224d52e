# Fails the configure step when LuaJIT does not unwind Lua errors with the C++ ABI. rlx's bindings
# (host/bindings/lua_bind.h) call the Lua API while C++ objects with destructors are alive; a Lua
# error raised there must run those destructors, which LuaJIT does only with external unwinding
# (its default on x86-64 and arm64 Linux, Debian's build included). See docs/architecture.md,
# "Errors across the boundary". Cross-compiling runs it under the toolchain's emulator (qemu for
# arm64: cmake/toolchains/aarch64-linux-gnu.cmake) and skips it without one (nothing can run).
if(CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  message(STATUS "rlx: cross-compiling without an emulator, LuaJIT unwinding not checked")
  return()
endif()
try_run(RLX_LUAJIT_UNWIND_RUN RLX_LUAJIT_UNWIND_COMPILE
  ${CMAKE_BINARY_DIR}/luajit-unwinding-check ${CMAKE_SOURCE_DIR}/cmake/checks/luajit_unwinding.cpp
  LINK_LIBRARIES PkgConfig::LUAJIT
  COMPILE_OUTPUT_VARIABLE RLX_LUAJIT_UNWIND_LOG)
if(NOT RLX_LUAJIT_UNWIND_COMPILE)
  message(FATAL_ERROR "rlx: cannot compile the LuaJIT unwinding check:\n${RLX_LUAJIT_UNWIND_LOG}")
endif()
if(NOT RLX_LUAJIT_UNWIND_RUN EQUAL 0)
  message(FATAL_ERROR "rlx: this LuaJIT does not run C++ destructors when a Lua error unwinds through C++ "
    "frames (it was built without external unwinding). rlx's bindings need it: use a LuaJIT built with "
    "the default unwinding (Debian's libluajit-5.1-dev is).")
endif()
message(STATUS "rlx: LuaJIT unwinds through C++ frames (destructors run)")
