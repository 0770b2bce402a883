# SPDX-License-Identifier: Apache-2.0
# The variant of weft's Lace library that the lace package's targets link
# (docs/lace.md, "Profiling and tracing a Lace program"); included by
# laceConfig.cmake, Lace 1's and Lace 2's.  The program chooses it by
#   find_package(lace COMPONENTS profile)   (or profile_time, or trace)
# or, where its CMake files stay as they are (Sylvan's), by the cache
# variable WEFT_LACE_VARIANT=profile|profile_time|trace; a component
# asked for wins over the variable.
#   in:  _lace_lib    the plain library (weft::lace or weft::lace2)
#   out: _lace_link   the library the targets link: _lace_lib, or its
#                     variant <_lace_lib>_profile, _profile_time or _trace
#        _lace_how    what chose it, for the messages ("" for the plain one)
set(WEFT_LACE_VARIANT "" CACHE STRING
  "The lace package's library: empty (plain), profile, profile_time or trace")
set(_lace_accepted profile profile_time trace)
set(_lace_want "")
set(_lace_how "")
foreach(_lace_c IN LISTS lace_FIND_COMPONENTS)
  list(FIND _lace_accepted "${_lace_c}" _lace_i)
  if(_lace_i LESS 0)
    message(FATAL_ERROR "find_package(lace COMPONENTS ${_lace_c}): unknown component '${_lace_c}'; "
      "the lace package's components are profile, profile_time and trace")
  endif()
  if(_lace_want AND NOT _lace_want STREQUAL _lace_c)
    message(FATAL_ERROR "find_package(lace COMPONENTS ${_lace_want} ${_lace_c}): one variant at a "
      "time; choose one of profile, profile_time and trace")
  endif()
  set(_lace_want "${_lace_c}")
  set(_lace_how "find_package(lace COMPONENTS ${_lace_c})")
endforeach()
if(NOT _lace_want AND NOT "${WEFT_LACE_VARIANT}" STREQUAL "")
  list(FIND _lace_accepted "${WEFT_LACE_VARIANT}" _lace_i)
  if(_lace_i LESS 0)
    message(FATAL_ERROR "WEFT_LACE_VARIANT=${WEFT_LACE_VARIANT}: unknown variant of the lace package; "
      "it must be profile, profile_time, trace, or empty for the plain library")
  endif()
  set(_lace_want "${WEFT_LACE_VARIANT}")
  set(_lace_how "WEFT_LACE_VARIANT=${WEFT_LACE_VARIANT}")
endif()
set(_lace_link ${_lace_lib})
if(_lace_want)
  if(TARGET ${_lace_lib}_${_lace_want})
    set(_lace_link ${_lace_lib}_${_lace_want})
    set(lace_${_lace_want}_FOUND TRUE)
  elseif(_lace_how MATCHES "^find_package" AND NOT lace_FIND_REQUIRED_${_lace_want})
    set(lace_${_lace_want}_FOUND FALSE) # an optional component: the plain library
    set(_lace_how "")
  else()
    if(_lace_want STREQUAL "trace")
      set(_lace_what "tracing")
      set(_lace_opt WEFT_TRACE_LIBRARY)
    else()
      set(_lace_what "profiling")
      set(_lace_opt WEFT_PROFILE_LIBRARY)
    endif()
    get_filename_component(_lace_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
    message(FATAL_ERROR "${_lace_how}: the weft installed in ${_lace_prefix} has no ${_lace_what} "
      "variant of its Lace library (weft was configured with -D${_lace_opt}=OFF); install weft "
      "again with -D${_lace_opt}=ON (the default), or build this program without ${_lace_how}")
  endif()
endif()

# Defines `name` as the library `lib` (an imported interface target, with
# the properties that follow, if any), or checks that an earlier
# find_package(lace) in this directory chose the same variant: a program
# links one.
function(_weft_lace_define name lib)
  if(NOT TARGET ${name})
    add_library(${name} INTERFACE IMPORTED)
    set_target_properties(${name} PROPERTIES INTERFACE_LINK_LIBRARIES ${lib} ${ARGN})
    return()
  endif()
  get_target_property(_had ${name} INTERFACE_LINK_LIBRARIES)
  if(_had MATCHES "^weft::lace" AND NOT _had STREQUAL lib)
    message(FATAL_ERROR "find_package(lace): ${name} links ${_had} already, from an earlier "
      "find_package(lace) in this directory; a program links one variant of Lace (here ${lib})")
  endif()
endfunction()
unset(_lace_accepted)
unset(_lace_want)
unset(_lace_i)
unset(_lace_c)
