# With -DWEFT_PROVIDE_LACE=ON: the `lace` packages, so that a Lace 1.4
# program finds weft where it looks for Lace, unchanged:
#   find_package(lace)   -> lib/cmake/lace: target lace::lace (weft::lace,
#                           which brings weft::weft and <lace.h>'s folder);
#                           a version file that accepts requests for 1.x up
#                           to 1.4.x
#   pkg-config lace      -> lib/pkgconfig/lace.pc (requires weft)
# docs/lace.md explains the choice of names.
set(WEFT_LACE_VERSION 1.4.2)
if(WEFT_PROVIDE_LACE)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/laceConfig.cmake.in
    ${PROJECT_BINARY_DIR}/laceConfig.cmake @ONLY)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/laceConfigVersion.cmake.in
    ${PROJECT_BINARY_DIR}/laceConfigVersion.cmake @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/laceConfig.cmake ${PROJECT_BINARY_DIR}/laceConfigVersion.cmake
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/lace)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/lace.pc.in ${PROJECT_BINARY_DIR}/lace.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/lace.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
