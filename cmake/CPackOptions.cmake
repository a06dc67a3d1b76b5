# Per-generator CPack settings: the .deb installs under /opt/gpucheck, the tarball is relocatable (bin/,
# libexec/, share/ at its top level) because gpucheck finds everything relative to its own binary.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_PACKAGING_INSTALL_PREFIX "/opt/gpucheck")
else()
  set(CPACK_PACKAGING_INSTALL_PREFIX "")
endif()
