# SPDX-License-Identifier: GPL-3.0-or-later
# cmake -DIN=<examples>/<dir>/<name>.wbproj -DDIR=<dir> -DOUT=<file> -P FlatProject.cmake
#
# Writes a copy of an example project meant to sit one folder up, next to the example folders
# (share/warpbench/examples/<name>.wbproj beside share/warpbench/examples/<dir>/): every relative
# path in it (kernel.file, reference.file, reference.files.*, buffers[].init.path,
# compileOptions.includeDirs[]) gains the prefix "<dir>/". A symbolic link would not do: a
# project's relative paths resolve against the folder of the path it was opened by.
cmake_minimum_required(VERSION 3.25)
foreach(v IN ITEMS IN DIR OUT)
    if(NOT DEFINED ${v})
        message(FATAL_ERROR "FlatProject.cmake: -D${v}= is required")
    endif()
endforeach()
file(READ "${IN}" json)

# prefix(<json-var> <member path>...): rewrites the string at that path when present and relative.
function(prefix var)
    string(JSON type ERROR_VARIABLE err TYPE "${${var}}" ${ARGN})
    if(err OR NOT type STREQUAL "STRING")
        return()
    endif()
    string(JSON value GET "${${var}}" ${ARGN})
    if(value STREQUAL "" OR IS_ABSOLUTE "${value}")
        return()
    endif()
    # Quote the new value as a JSON string (backslashes and quotes escaped).
    string(REPLACE "\\" "\\\\" quoted "${DIR}/${value}")
    string(REPLACE "\"" "\\\"" quoted "${quoted}")
    string(JSON ${var} SET "${${var}}" ${ARGN} "\"${quoted}\"")
    set(${var} "${${var}}" PARENT_SCOPE)
endfunction()

# length(<out> <json-var> <member path>...): element count of an array/object, 0 when absent.
function(length out var)
    string(JSON n ERROR_VARIABLE err LENGTH "${${var}}" ${ARGN})
    if(err)
        set(n 0)
    endif()
    set(${out} ${n} PARENT_SCOPE)
endfunction()

prefix(json kernel file)
prefix(json reference file)
length(nbuffers json buffers)
if(nbuffers GREATER 0)
    math(EXPR last "${nbuffers} - 1")
    foreach(i RANGE ${last})
        prefix(json buffers ${i} init path)
    endforeach()
endif()
length(nfiles json reference files)
if(nfiles GREATER 0)
    math(EXPR last "${nfiles} - 1")
    foreach(i RANGE ${last})
        string(JSON key MEMBER "${json}" reference files ${i})
        prefix(json reference files ${key})
    endforeach()
endif()
length(ndirs json compileOptions includeDirs)
if(ndirs GREATER 0)
    math(EXPR last "${ndirs} - 1")
    foreach(i RANGE ${last})
        prefix(json compileOptions includeDirs ${i})
    endforeach()
endif()
file(WRITE "${OUT}" "${json}\n")
