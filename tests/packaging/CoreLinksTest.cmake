# SPDX-License-Identifier: GPL-3.0-or-later
# libwarpbench-core links Qt6::Core only (docs/ARCHITECTURE.md): every shared library it loads,
# directly or through another, is resolved as ldd would, and any Qt module but QtCore fails.
#   cmake -DLIBRARY=<path to libwarpbench-core.so> -P CoreLinksTest.cmake
if(NOT EXISTS "${LIBRARY}")
    message(FATAL_ERROR "no library at '${LIBRARY}'")
endif()
file(GET_RUNTIME_DEPENDENCIES LIBRARIES "${LIBRARY}"
     RESOLVED_DEPENDENCIES_VAR resolved UNRESOLVED_DEPENDENCIES_VAR unresolved)
set(qt "")
foreach(dep ${resolved} ${unresolved})
    get_filename_component(name "${dep}" NAME)
    if(name MATCHES "^libQt6")
        list(APPEND qt ${name})
    endif()
endforeach()
list(LENGTH resolved count)
message(STATUS "${LIBRARY}: ${count} shared libraries; Qt: ${qt}")
if(NOT qt MATCHES "^libQt6Core\\.so")
    message(FATAL_ERROR "libwarpbench-core does not load QtCore: ${qt}")
endif()
list(FILTER qt EXCLUDE REGEX "^libQt6Core\\.so")
if(qt)
    message(FATAL_ERROR "libwarpbench-core loads Qt modules other than QtCore: ${qt}")
endif()
