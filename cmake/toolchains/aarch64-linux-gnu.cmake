# Cross-compiles rlx for arm64 Linux with Debian's g++-aarch64-linux-gnu against a sysroot of
# Debian 12's :arm64 packages (scripts/arm64/sysroot.sh makes one; scripts/arm64/check.sh uses this
# file). The sysroot comes from -DRLX_SYSROOT=DIR or the environment's RLX_SYSROOT (the environment
# reaches CMake's try_compile projects too, which read this file again). Programs CMake runs while
# configuring (try_run: the LuaJIT unwinding check) run under qemu-aarch64-static with the sysroot
# as its library prefix.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

if(NOT RLX_SYSROOT)
  set(RLX_SYSROOT "$ENV{RLX_SYSROOT}")
endif()
if(NOT RLX_SYSROOT OR NOT EXISTS "${RLX_SYSROOT}/usr/include")
  message(FATAL_ERROR "rlx: no arm64 sysroot (pass -DRLX_SYSROOT=DIR or set RLX_SYSROOT; "
    "scripts/arm64/sysroot.sh makes one)")
endif()
set(ENV{RLX_SYSROOT} "${RLX_SYSROOT}")
set(CMAKE_SYSROOT "${RLX_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH "${RLX_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L "${RLX_SYSROOT}")

# pkg-config reads the sysroot's .pc files and prefixes their paths with it.
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${RLX_SYSROOT}")
set(ENV{PKG_CONFIG_LIBDIR}
  "${RLX_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${RLX_SYSROOT}/usr/lib/pkgconfig:${RLX_SYSROOT}/usr/share/pkgconfig")
