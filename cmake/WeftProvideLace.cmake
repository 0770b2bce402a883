# SPDX-License-Identifier: Apache-2.0
# The Lace APIs on weft (docs/lace.md).
#
# The weft-lace library (weft::lace) implements Lace's v1 API; its header is
# installed under include/weft-lace, a folder only the lace package names.
# WEFT_PROVIDE_LACE chooses which `lace` package the install provides, so
# that Lace programs find weft where they look for Lace, unchanged:
#   OFF        none (the default: it would take the place of a real Lace)
#   1.4 or ON  Lace 1.4.2: find_package(lace) -> lace::lace, lace,
#              lace::lace14; lace.pc and lace14.pc (Version: 1.4.2)
#   1.6        Lace 1.6.3: find_package(lace) -> lace::lace, lace; lace.pc
#   2          Lace 2: nothing of v1 is installed; cmake/WeftLace2.cmake
#              (when present) defines and installs the v2 package
# A version file accepts requests for the releases whose programs the mode's
# lace.h builds (docs/lace.md): 1.0 to 1.5.4 for 1.4, 1.6.0 to 1.6.3 for 1.6.
set(WEFT_PROVIDE_LACE OFF CACHE STRING "Install a lace package: OFF, 1.4 (or ON), 1.6 or 2")
set_property(CACHE WEFT_PROVIDE_LACE PROPERTY STRINGS OFF ON 1.4 1.6 2)
string(TOUPPER "${WEFT_PROVIDE_LACE}" _lace_mode)
if(_lace_mode MATCHES "^(ON|TRUE|YES|Y|1|1\\.4)$")
  set(WEFT_LACE_MODE 1.4)
elseif(_lace_mode MATCHES "^(OFF|FALSE|NO|N|0|)$")
  set(WEFT_LACE_MODE OFF)
elseif(_lace_mode MATCHES "^(1\\.6|2)$")
  set(WEFT_LACE_MODE ${_lace_mode})
else()
  message(FATAL_ERROR "WEFT_PROVIDE_LACE=${WEFT_PROVIDE_LACE}: must be OFF, ON, 1.4, 1.6 or 2")
endif()
unset(_lace_mode)

# The API generation of the installed lace.h (and of the build tree's).
# The package's version file accepts requests for the Lace releases whose
# programs this API builds: Lace 1.0 to 1.5.4 kept 1.4's macros, and 1.6.0
# replaced TASK(f) (Lace's CHANGELOG), so 1.6 requests only the 1.6 mode.
if(WEFT_LACE_MODE STREQUAL "1.6")
  set(WEFT_LACE_API 16)
  set(WEFT_LACE_VERSION 1.6.3)
  set(WEFT_LACE_ACCEPTS_FROM 1.6.0)
  set(WEFT_LACE_ACCEPTS_UP_TO 1.6.3)
else()
  set(WEFT_LACE_API 14)
  set(WEFT_LACE_VERSION 1.4.2)
  set(WEFT_LACE_ACCEPTS_FROM 1.0)
  set(WEFT_LACE_ACCEPTS_UP_TO 1.5.4)
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/lace_config.h.in
  ${PROJECT_BINARY_DIR}/include/weft-lace/lace_config.h @ONLY)

# At install time, removes what the globs (relative to the prefix) match:
# the other Lace generation's files, when one mode is installed over
# another (both are weft's names; nothing else matches them).
function(weft_remove_installed)
  set(_globs "")
  foreach(_g IN LISTS ARGN)
    string(APPEND _globs " \"\${_p}/${_g}\"")
  endforeach()
  install(CODE "set(_p \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
file(GLOB _old LIST_DIRECTORIES true${_globs})
if(_old)
  message(STATUS \"Removing the other Lace generation's files: \${_old}\")
  file(REMOVE_RECURSE \${_old})
endif()")
endfunction()

# The pkg-config kinds of a Lace library (target `base`, output name
# `lib`), as "suffix:weft's .pc:library": the plain library, and each
# variant that is built (in a tree whose weft is already the profiling or
# tracing library, the variant is the library itself).  For the lace
# packages' .pc files, v1's here and v2's in WeftLace2.cmake.
function(weft_lace_pc_kinds base lib out)
  set(_profile_lib ${lib}-profile)
  set(_trace_lib ${lib}-trace)
  if(WEFT_PROFILE)
    set(_profile_lib ${lib})
  endif()
  if(WEFT_TRACE)
    set(_trace_lib ${lib})
  endif()
  set(_kinds ":weft:${lib}")
  if(TARGET ${base}_profile)
    list(APPEND _kinds "-profile:weft-profile:${_profile_lib}"
      "-profile-time:weft-profile-time:${_profile_lib}")
  endif()
  if(TARGET ${base}_trace)
    list(APPEND _kinds "-trace:weft-trace:${_trace_lib}")
  endif()
  set(${out} "${_kinds}" PARENT_SCOPE)
endfunction()

# The code both API generations share (src/lace/common), built into each
# Lace library: v1's here, v2's in WeftLace2.cmake.
set(WEFT_LACE_COMMON_SOURCES
  ${PROJECT_SOURCE_DIR}/src/lace/common/clock.c
  ${PROJECT_SOURCE_DIR}/src/lace/common/interrupts.c
  ${PROJECT_SOURCE_DIR}/src/lace/common/run.c
  ${PROJECT_SOURCE_DIR}/src/lace/common/suspend.c)

# The library: its functions in a library of their own, so that a program
# linking weft gets no lace_* symbols it did not ask for.
add_library(weft_lace ${WEFT_ON_REQUEST} src/lace/v1/lace1.c ${WEFT_LACE_COMMON_SOURCES})
weft_stays_loaded(weft_lace)
add_library(weft::lace ALIAS weft_lace)
target_include_directories(weft_lace PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include/weft-lace>
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include/weft-lace>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/weft-lace>)
target_include_directories(weft_lace PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(weft_lace PRIVATE _GNU_SOURCE)
target_compile_options(weft_lace PRIVATE ${WEFT_WARNINGS} ${WEFT_STACK_CLASH_CFLAGS})
target_link_libraries(weft_lace PUBLIC weft)
set_target_properties(weft_lace PROPERTIES OUTPUT_NAME weft-lace EXPORT_NAME lace
  VERSION ${PROJECT_VERSION} SOVERSION 0 POSITION_INDEPENDENT_CODE ON)

# The profiling and tracing variants of a Lace library (docs/lace.md,
# "Profiling and tracing a Lace program"): its sources compiled again
# against weft's profiling or tracing variant, where that one is built
# (WEFT_PROFILE_LIBRARY, WEFT_TRACE_LIBRARY), so that a Lace program
# profiles or traces itself from the same install:
#   <base>_profile_time  weft::<export>_profile_time: the library against
#                        weft::profile_time (strands timed)
#   <base>_profile       weft::<export>_profile: that, and the program's own
#                        code compiled to count basic blocks, as
#                        weft::weft_profile does
#   <base>_trace         weft::<export>_trace: the library against weft::trace
# In a tree configured with -DWEFT_PROFILE=ON (WEFT_TRACE=ON), where weft
# is that variant already, so is <base>: its variant names it.  `all` is
# "" or EXCLUDE_FROM_ALL; `output` the library's file name (weft-lace ->
# weft-lace-profile, weft-lace-trace); the sources follow.
function(weft_lace_variants base output export all)
  get_target_property(_incs ${base} INTERFACE_INCLUDE_DIRECTORIES)
  foreach(_v profile trace)
    if(NOT TARGET weft_${_v})
      continue()
    endif()
    set(_lib ${base}_${_v})
    set(_exp ${export}_${_v})
    if(_v STREQUAL "profile")
      set(_lib ${base}_profile_time)
      set(_exp ${export}_profile_time)
    endif()
    string(TOUPPER "WEFT_${_v}" _opt)
    if(${_opt})
      add_library(${_lib} INTERFACE)
      target_link_libraries(${_lib} INTERFACE ${base})
    else()
      add_library(${_lib} ${all} ${ARGN})
      target_include_directories(${_lib} PUBLIC ${_incs})
      target_include_directories(${_lib} PRIVATE ${PROJECT_SOURCE_DIR}/src)
      target_compile_definitions(${_lib} PRIVATE _GNU_SOURCE)
      target_compile_options(${_lib} PRIVATE ${WEFT_WARNINGS} ${WEFT_STACK_CLASH_CFLAGS})
      target_link_libraries(${_lib} PUBLIC weft_${_v})
      set_target_properties(${_lib} PROPERTIES OUTPUT_NAME ${output}-${_v}
        VERSION ${PROJECT_VERSION} SOVERSION 0 POSITION_INDEPENDENT_CODE ON)
      weft_stays_loaded(${_lib})
    endif()
    set_target_properties(${_lib} PROPERTIES EXPORT_NAME ${_exp})
    add_library(weft::${_exp} ALIAS ${_lib})
  endforeach()
  if(TARGET ${base}_profile_time)
    add_library(${base}_profile INTERFACE)
    target_link_libraries(${base}_profile INTERFACE ${base}_profile_time weft_profile_counted)
    set_target_properties(${base}_profile PROPERTIES EXPORT_NAME ${export}_profile)
    add_library(weft::${export}_profile ALIAS ${base}_profile)
  endif()
endfunction()

# The variants' targets of a Lace library that exist, for install(TARGETS).
function(weft_lace_variant_targets base out)
  set(_ts "")
  foreach(_t ${base}_profile_time ${base}_profile ${base}_trace)
    if(TARGET ${_t})
      list(APPEND _ts ${_t})
    endif()
  endforeach()
  set(${out} ${_ts} PARENT_SCOPE)
endfunction()

# With the switch, a parent project can build this tree in a Lace source's
# place (FetchContent with FETCHCONTENT_SOURCE_DIR_LACE, or
# add_subdirectory): it links, or looks for (`if(NOT TARGET lace)`), the
# plain names that Lace's own CMakeLists defines, so they name weft's
# library here too.  A parent that already has one builds a Lace of its
# own, and weft cannot stand in for it.
function(weft_lace_source_names target)
  foreach(_name ${ARGN})
    if(TARGET ${_name})
      message(FATAL_ERROR "WEFT_PROVIDE_LACE=${WEFT_PROVIDE_LACE}: this project already "
        "has a target named ${_name}, so it builds a Lace of its own; weft can take "
        "Lace's place only in a build that has no other Lace (drop the other Lace, or "
        "configure weft without WEFT_PROVIDE_LACE)")
    endif()
    add_library(${_name} ALIAS ${target})
  endforeach()
endfunction()

if(NOT WEFT_LACE_MODE STREQUAL "2")
  # The names Lace programs link in this build tree (Lace 2's are
  # WeftLace2.cmake's in mode 2).
  add_library(lace::lace ALIAS weft_lace)
  add_library(lace::lace14 ALIAS weft_lace)
  if(WEFT_LACE_MODE STREQUAL "1.4")
    weft_lace_source_names(weft_lace lace lace14)
  elseif(WEFT_LACE_MODE STREQUAL "1.6")
    weft_lace_source_names(weft_lace lace)
  endif()
  weft_lace_variants(weft_lace weft-lace lace "${WEFT_ON_REQUEST}"
    src/lace/v1/lace1.c ${WEFT_LACE_COMMON_SOURCES})
  weft_lace_variant_targets(weft_lace _lace_variant_targets)
  if(WEFT_INSTALL AND NOT WEFT_LACE_MODE STREQUAL "OFF")
    # A Lace 1 package installed over Lace 2's leaves nothing of it: its
    # headers, libraries, pkg-config files and targets file go first (the
    # lace package's own files are replaced).  And the variants' .pc
    # files, which this install puts back if it builds the variants.
    weft_remove_installed(
      "${CMAKE_INSTALL_INCLUDEDIR}/weft-lace2" "${CMAKE_INSTALL_INCLUDEDIR}/weft-lace2-128"
      "${CMAKE_INSTALL_LIBDIR}/libweft-lace2*" "${CMAKE_INSTALL_LIBDIR}/libweft-128*"
      "${CMAKE_INSTALL_LIBDIR}/pkgconfig/lace32*.pc" "${CMAKE_INSTALL_LIBDIR}/pkgconfig/lace128*.pc"
      "${CMAKE_INSTALL_LIBDIR}/pkgconfig/lace-profile*.pc"
      "${CMAKE_INSTALL_LIBDIR}/pkgconfig/lace-trace*.pc"
      "${CMAKE_INSTALL_LIBDIR}/cmake/lace/lace2Targets*.cmake")
  endif()
  if(WEFT_INSTALL)
    install(FILES include/weft-lace/lace.h include/weft-lace/lace14.h
      ${PROJECT_BINARY_DIR}/include/weft-lace/lace_config.h
      DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/weft-lace)
    install(TARGETS weft_lace ${_lace_variant_targets} EXPORT weftTargets
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  endif()
endif()

if(WEFT_INSTALL AND (WEFT_LACE_MODE STREQUAL "1.4" OR WEFT_LACE_MODE STREQUAL "1.6"))
  if(WEFT_LACE_MODE STREQUAL "1.4")
    set(WEFT_LACE_VARIANTS "lace14")
  else()
    set(WEFT_LACE_VARIANTS "")
  endif()
  configure_file(${CMAKE_CURRENT_LIST_DIR}/laceConfig.cmake.in
    ${PROJECT_BINARY_DIR}/laceConfig.cmake @ONLY)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/laceConfigVersion.cmake.in
    ${PROJECT_BINARY_DIR}/laceConfigVersion.cmake @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/laceConfig.cmake ${PROJECT_BINARY_DIR}/laceConfigVersion.cmake
    ${CMAKE_CURRENT_LIST_DIR}/laceVariant.cmake
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/lace)
  # lace.pc (lace14.pc), and for each variant of the library that is built
  # lace-profile.pc, lace-profile-time.pc and lace-trace.pc (lace14-...):
  # each requires weft's .pc of the same variant, which gives the program
  # its flags (-DWEFT_PROFILE=1 and the counting flag, -DWEFT_TRACE=1).
  weft_lace_pc_kinds(weft_lace weft-lace _lace_pc_kinds)
  foreach(v lace ${WEFT_LACE_VARIANTS})
    foreach(_kind IN LISTS _lace_pc_kinds)
      string(REPLACE ":" ";" _kind "${_kind}")
      list(GET _kind 0 _suffix)
      list(GET _kind 1 WEFT_LACE_PC_WEFT)
      list(GET _kind 2 WEFT_LACE_PC_LIB)
      set(WEFT_LACE_PC_NAME ${v}${_suffix})
      configure_file(${CMAKE_CURRENT_LIST_DIR}/lace.pc.in ${PROJECT_BINARY_DIR}/${v}${_suffix}.pc @ONLY)
      install(FILES ${PROJECT_BINARY_DIR}/${v}${_suffix}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
    endforeach()
  endforeach()
endif() # mode 2: cmake/WeftLace2.cmake, included after this file
