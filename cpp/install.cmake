# Installs the core for C++ users:
#   <prefix>/include/attn/*.hpp
#   <prefix>/lib/libattn_core.a
#   <prefix>/lib/cmake/attn/attnConfig.cmake (+ version file, targets)
# A consumer then writes:
#   find_package(attn 0.1 CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE attn::core)
include(CMakePackageConfigHelpers)

install(TARGETS attn_core EXPORT attnTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/attn DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(ATTN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/attn)
install(EXPORT attnTargets NAMESPACE attn:: DESTINATION ${ATTN_CMAKE_DIR})
configure_package_config_file(attnConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/attnConfig.cmake
  INSTALL_DESTINATION ${ATTN_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/attnConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/attnConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/attnConfigVersion.cmake
  DESTINATION ${ATTN_CMAKE_DIR})
