# SPDX-License-Identifier: Apache-2.0
# The schedulers in this tree: every folder src/sched/<name>/ with a
# sources.cmake (src/sched/README.md says what a scheduler folder holds).
# Adding a scheduler is adding such a folder; nothing else lists them.
#
# Included by the top-level CMakeLists.txt, it sets WEFT_SCHEDULERS and
# defines weft_scheduler_load(<name>).  Run as a script it prints the names,
# one per line, for the scripts that need the list before any build:
#     cmake -P cmake/WeftSchedulers.cmake
if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.20)
endif()

get_filename_component(_weft_sched_root "${CMAKE_CURRENT_LIST_DIR}/../src/sched" ABSOLUTE)
file(GLOB _weft_sched_files RELATIVE "${_weft_sched_root}" "${_weft_sched_root}/*/sources.cmake")
set(WEFT_SCHEDULERS "")
foreach(_f IN LISTS _weft_sched_files)
  get_filename_component(_name "${_f}" DIRECTORY)
  list(APPEND WEFT_SCHEDULERS "${_name}")
endforeach()
list(SORT WEFT_SCHEDULERS)
# The default first: scripts run the list in this order.
if("split" IN_LIST WEFT_SCHEDULERS)
  list(REMOVE_ITEM WEFT_SCHEDULERS split)
  list(PREPEND WEFT_SCHEDULERS split)
endif()

if(CMAKE_SCRIPT_MODE_FILE AND CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  foreach(_name IN LISTS WEFT_SCHEDULERS)
    execute_process(COMMAND "${CMAKE_COMMAND}" -E echo "${_name}")
  endforeach()
  return()
endif()

# Reads src/sched/<name>/sources.cmake and sets, in the caller's scope:
#   WEFT_SCHED_DIR      the folder
#   WEFT_SCHED_SOURCES  the library sources (absolute)
#   WEFT_SCHED_TESTS    its white-box tests (absolute; may be empty)
#   WEFT_SCHED_RACE_TESTS  its forced-interleaving tests (perturb builds)
#   WEFT_SCHED_HEADERS  headers that state.h or owner.h include by a relative
#                       path (installed at the same place relative to them)
#   WEFT_SCHED_MACRO    the name as a C macro suffix (private-ri: PRIVATE_RI)
#   WEFT_SCHED_ROOT     src/sched
# A folder without state.h or owner.h, or naming a missing file, is an
# error that says which.
function(weft_scheduler_load name)
  set(dir "${_weft_sched_root}/${name}")
  set(WEFT_SCHED_SOURCES "")
  set(WEFT_SCHED_TESTS "")
  set(WEFT_SCHED_RACE_TESTS "")
  set(WEFT_SCHED_HEADERS "")
  include("${dir}/sources.cmake")
  foreach(h state.h owner.h)
    if(NOT EXISTS "${dir}/${h}")
      message(FATAL_ERROR "scheduler ${name}: ${dir}/${h} is missing (src/sched/README.md)")
    endif()
  endforeach()
  foreach(kind SOURCES TESTS RACE_TESTS HEADERS)
    set(abs "")
    foreach(f IN LISTS WEFT_SCHED_${kind})
      get_filename_component(p "${f}" ABSOLUTE BASE_DIR "${dir}")
      if(NOT EXISTS "${p}")
        message(FATAL_ERROR "scheduler ${name}: sources.cmake names ${f}, which does not exist")
      endif()
      list(APPEND abs "${p}")
    endforeach()
    set(WEFT_SCHED_${kind} "${abs}" PARENT_SCOPE)
  endforeach()
  if(NOT WEFT_SCHED_SOURCES)
    message(FATAL_ERROR "scheduler ${name}: sources.cmake sets no WEFT_SCHED_SOURCES")
  endif()
  string(TOUPPER "${name}" macro)
  string(MAKE_C_IDENTIFIER "${macro}" macro)
  set(WEFT_SCHED_MACRO "${macro}" PARENT_SCOPE)
  set(WEFT_SCHED_DIR "${dir}" PARENT_SCOPE)
  set(WEFT_SCHED_ROOT "${_weft_sched_root}" PARENT_SCOPE)
endfunction()
