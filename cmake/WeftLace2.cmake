# SPDX-License-Identifier: Apache-2.0
# Lace 2's API (the v2 line) on weft (docs/lace2.md): its libraries, and
# with -DWEFT_PROVIDE_LACE=2 the `lace` CMake and pkg-config packages for
# it.  Included by the top CMakeLists.txt after the weft target is complete.
#
#   weft_lace2        the v2 functions against weft (lace32.h and lace.h)
#   weft_lace2_32     lace32.h's target: the same library
#   weft_rt128        a second copy of weft's runtime with 128-byte task
#                     descriptors (its own weft/config.h says so)
#   weft_lace2_128    the v2 functions against weft_rt128 (lace128.h)
#   weft_lace2_profile, _profile_time, _trace   weft_lace2's profiling and
#                     tracing variants (lace.h, lace32.h)
#
# They are built only when something needs them: the tests, or the install
# of WEFT_PROVIDE_LACE=2.  The package's targets lace::lace, lace::lace32,
# lace::lace128 and lace are defined by its laceConfig.cmake.
set(WEFT_LACE2_VERSION 2.3.2)
set(_lace2_all EXCLUDE_FROM_ALL)
if(WEFT_BUILD_TESTS OR (WEFT_INSTALL AND WEFT_LACE_MODE STREQUAL "2"))
  set(_lace2_all "")
endif()

# weft/config.h for 128-byte descriptors: the build's config.h with the
# descriptor size changed, and without the work/span profiler (whose slot
# records are sized for 64-byte descriptors).  Code compiled for lace128
# finds this one first (the include directory comes BEFORE weft's).
function(weft_lace2_config128)
  set(WEFT_TASK_SIZE 128)
  set(WEFT_PROFILE_01 0)
  configure_file(${PROJECT_SOURCE_DIR}/include/weft/config.h.in
    ${PROJECT_BINARY_DIR}/lace2-128/include/weft/config.h @ONLY)
endfunction()
weft_lace2_config128()

add_library(weft_lace2 ${_lace2_all} src/lace/v2/lace2.c ${WEFT_LACE_COMMON_SOURCES})
weft_stays_loaded(weft_lace2)
add_library(weft::lace2 ALIAS weft_lace2)
target_include_directories(weft_lace2 PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include/weft-lace2>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/weft-lace2>)
target_include_directories(weft_lace2 PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(weft_lace2 PRIVATE _GNU_SOURCE)
target_compile_options(weft_lace2 PRIVATE ${WEFT_WARNINGS} ${WEFT_STACK_CLASH_CFLAGS})
target_link_libraries(weft_lace2 PUBLIC weft)
set_target_properties(weft_lace2 PROPERTIES OUTPUT_NAME weft-lace2 EXPORT_NAME lace2
  VERSION ${PROJECT_VERSION} SOVERSION 0 POSITION_INDEPENDENT_CODE ON)

# Its profiling and tracing variants (WeftProvideLace.cmake's
# weft_lace_variants): weft::lace2_profile, weft::lace2_profile_time and
# weft::lace2_trace, for lace.h and lace32.h alike; built only for the
# install of mode 2, or when something links them.  (lace128.h has none:
# weft_rt128 has no profiler.)
set(_lace2_variants_all EXCLUDE_FROM_ALL)
if(WEFT_INSTALL AND WEFT_LACE_MODE STREQUAL "2")
  set(_lace2_variants_all "")
endif()
weft_lace_variants(weft_lace2 weft-lace2 lace2 "${_lace2_variants_all}"
  src/lace/v2/lace2.c ${WEFT_LACE_COMMON_SOURCES})
weft_lace_variant_targets(weft_lace2 _lace2_variant_targets)

add_library(weft_lace2_32 INTERFACE)
target_link_libraries(weft_lace2_32 INTERFACE weft_lace2)
set_target_properties(weft_lace2_32 PROPERTIES EXPORT_NAME lace2_32)

# The runtime again, from the weft target's own sources and settings.
get_target_property(_lace2_srcs weft SOURCES)
get_target_property(_lace2_defs weft COMPILE_DEFINITIONS)
get_target_property(_lace2_opts weft COMPILE_OPTIONS)
get_target_property(_lace2_libs weft LINK_LIBRARIES)
add_library(weft_rt128 ${_lace2_all} ${_lace2_srcs})
weft_stays_loaded(weft_rt128)
target_include_directories(weft_rt128 BEFORE PUBLIC
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/lace2-128/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/weft-lace2-128>)
target_include_directories(weft_rt128 PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_include_directories(weft_rt128 PRIVATE ${PROJECT_SOURCE_DIR}/src)
if(_lace2_defs)
  target_compile_definitions(weft_rt128 PRIVATE ${_lace2_defs})
endif()
if(_lace2_opts)
  target_compile_options(weft_rt128 PRIVATE ${_lace2_opts})
endif()
target_link_libraries(weft_rt128 PRIVATE ${_lace2_libs} PUBLIC Threads::Threads)
target_compile_features(weft_rt128 PUBLIC c_std_11)
set_target_properties(weft_rt128 PROPERTIES OUTPUT_NAME weft-128 EXPORT_NAME rt128
  VERSION ${PROJECT_VERSION} SOVERSION 0 POSITION_INDEPENDENT_CODE ON)

add_library(weft_lace2_128 ${_lace2_all} src/lace/v2/lace2.c ${WEFT_LACE_COMMON_SOURCES})
weft_stays_loaded(weft_lace2_128)
target_include_directories(weft_lace2_128 PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include/weft-lace2>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/weft-lace2>)
target_include_directories(weft_lace2_128 PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(weft_lace2_128 PRIVATE _GNU_SOURCE)
target_compile_options(weft_lace2_128 PRIVATE ${WEFT_WARNINGS} ${WEFT_STACK_CLASH_CFLAGS})
target_link_libraries(weft_lace2_128 PUBLIC weft_rt128)
set_target_properties(weft_lace2_128 PROPERTIES OUTPUT_NAME weft-lace2-128 EXPORT_NAME lace2_128
  VERSION ${PROJECT_VERSION} SOVERSION 0 POSITION_INDEPENDENT_CODE ON)

# With WEFT_PROVIDE_LACE=2, the names of Lace 2's package name these in the
# build tree too, for a parent that builds weft in Lace's place
# (weft_lace_source_names, WeftProvideLace.cmake).
if(WEFT_LACE_MODE STREQUAL "2")
  weft_lace_source_names(weft_lace2 lace lace::lace)
  weft_lace_source_names(weft_lace2_32 lace::lace32)
  weft_lace_source_names(weft_lace2_128 lace::lace128)
endif()

if(WEFT_INSTALL AND WEFT_LACE_MODE STREQUAL "2")
  install(FILES include/weft-lace2/lace.h include/weft-lace2/lace32.h include/weft-lace2/lace128.h
    include/weft-lace2/lace2_bits.h include/weft-lace2/lace2_arity.h
    include/weft-lace2/lace_config.h
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/weft-lace2)
  install(FILES ${PROJECT_BINARY_DIR}/lace2-128/include/weft/config.h
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/weft-lace2-128/weft)
  install(TARGETS weft_lace2 weft_lace2_32 weft_rt128 weft_lace2_128 ${_lace2_variant_targets}
    EXPORT lace2Targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT lace2Targets NAMESPACE weft:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/lace)
  export(EXPORT lace2Targets NAMESPACE weft:: FILE ${PROJECT_BINARY_DIR}/export/lace2Targets.cmake)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/lace2Config.cmake.in
    ${PROJECT_BINARY_DIR}/lace2/laceConfig.cmake @ONLY)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/lace2ConfigVersion.cmake.in
    ${PROJECT_BINARY_DIR}/lace2/laceConfigVersion.cmake @ONLY)
  # The lace package a Lace 1 configuration of this prefix installed goes
  # first: same names, and file(INSTALL) would keep one whose time stamp
  # matches ours as up to date.
  install(CODE "file(REMOVE
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/cmake/lace/laceConfig.cmake\"
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/cmake/lace/laceConfigVersion.cmake\"
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/lace.pc\")")
  # Nothing of a Lace 1 package installed here before stays: its headers,
  # libraries (and their variants) and pkg-config files; the variants'
  # .pc files are put back below if this install builds the variants.
  weft_remove_installed(
    "${CMAKE_INSTALL_INCLUDEDIR}/weft-lace" "${CMAKE_INSTALL_LIBDIR}/libweft-lace.*"
    "${CMAKE_INSTALL_LIBDIR}/libweft-lace-*" "${CMAKE_INSTALL_LIBDIR}/pkgconfig/lace14*.pc"
    "${CMAKE_INSTALL_LIBDIR}/pkgconfig/lace-profile*.pc"
    "${CMAKE_INSTALL_LIBDIR}/pkgconfig/lace-trace*.pc")
  install(FILES ${PROJECT_BINARY_DIR}/lace2/laceConfig.cmake
    ${PROJECT_BINARY_DIR}/lace2/laceConfigVersion.cmake ${CMAKE_CURRENT_LIST_DIR}/laceVariant.cmake
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/lace)
  # lace.pc, lace32.pc, lace128.pc; and for lace and lace32, each variant
  # of the library that is built: lace-profile.pc, lace-profile-time.pc,
  # lace-trace.pc (lace32-...), each requiring weft's .pc of the same
  # variant, which gives the program its flags.
  weft_lace_pc_kinds(weft_lace2 weft-lace2 _lace2_pc_kinds)
  foreach(_v lace lace32 lace128)
    set(_kinds ${_lace2_pc_kinds})
    set(WEFT_LACE2_PC_HEADER ${_v})
    if(_v STREQUAL "lace128")
      set(WEFT_LACE2_PC_LIBS "-lweft-lace2-128 -lweft-128 -pthread")
      set(WEFT_LACE2_PC_CFLAGS
        "-isystem \${includedir}/weft-lace2-128 -isystem \${includedir}/weft-lace2 -isystem \${includedir} -pthread")
      set(WEFT_LACE2_PC_REQUIRES "${WEFT_PC_REQUIRES}")
      set(_kinds "")
      set(WEFT_LACE2_PC_NAME ${_v})
      configure_file(${CMAKE_CURRENT_LIST_DIR}/lace2.pc.in ${PROJECT_BINARY_DIR}/lace2/${_v}.pc @ONLY)
      install(FILES ${PROJECT_BINARY_DIR}/lace2/${_v}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
    endif()
    foreach(_kind IN LISTS _kinds)
      string(REPLACE ":" ";" _kind "${_kind}")
      list(GET _kind 0 _suffix)
      list(GET _kind 1 _weft_pc)
      list(GET _kind 2 _lib)
      set(WEFT_LACE2_PC_LIBS "-l${_lib}")
      set(WEFT_LACE2_PC_CFLAGS "-isystem \${includedir}/weft-lace2")
      set(WEFT_LACE2_PC_REQUIRES "${_weft_pc} = ${PROJECT_VERSION}")
      set(WEFT_LACE2_PC_NAME ${_v}${_suffix})
      configure_file(${CMAKE_CURRENT_LIST_DIR}/lace2.pc.in ${PROJECT_BINARY_DIR}/lace2/${_v}${_suffix}.pc @ONLY)
      install(FILES ${PROJECT_BINARY_DIR}/lace2/${_v}${_suffix}.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
    endforeach()
  endforeach()
endif()
