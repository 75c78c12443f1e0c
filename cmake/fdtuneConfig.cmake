# fdtuneConfig.cmake: find_package(fdtune) for a `make install` of fdtune.
# It locates everything relative to itself (PREFIX/lib/cmake/fdtune), so an
# installed tree may be moved, and gives:
#
#   fdtune::fdtune          imported target: libfdtune.a, the directory of
#                           fdtune.h and its SQLite dependency
#                           (target_link_libraries(app PRIVATE fdtune::fdtune))
#   fdtune::online          fdtune::fdtune with what its online tuning
#                           (fdtune_online_*) links besides: the run-time
#                           compiler (NVRTC, or hiprtc in ROCm's amdhip64),
#                           zlib, OpenMP (the CPU references' loops),
#                           threads and libdl
#   fdtune_EXECUTABLE       the installed fdtune command
#   fdtune_FORTRAN_MODULE   the source of Fortran module fdtune (libfdtune's
#                           interface); add it to a Fortran target's sources
#   fdtune_FORTRAN_ONLINE_MODULE  the source of module fdtune_tuning (online
#                           tuning), after it; link fdtune::online
#   fdtune_add_kernels()    tuned kernels exported from a database at build
#                           time and compiled into a target:
#
#   fdtune_add_kernels(TARGET app DB tuned.db NAME lap8 FAMILY xyz RADIUS 8
#                      [PRECISION fp32|fp64] [SIZE N|XxYxZ] [DEVICE TEXT]
#                      [ALL_SIZES] [ALL_DEVICES] [FORTRAN] [LANGUAGE CUDA|HIP])
#
# runs `fdtune export --db DB --name NAME --family FAMILY --radius RADIUS`
# (with --precision, --size, --device, --all-sizes, --all-devices and
# --fortran as given) into CMAKE_CURRENT_BINARY_DIR/fdtune_NAME whenever DB
# or the fdtune command changes, adds NAME.cu (and with FORTRAN NAME.f90,
# module NAME_fdtune) to the target's sources and the directory of NAME.h to
# its include path. NAME.cu is compiled as CUDA, or as HIP in a project that
# enabled HIP and not CUDA (LANGUAGE chooses when both are). ALL_SIZES needs
# an fdtune whose export has --all-sizes. DB is relative to the current
# source directory. The target must be defined in the current directory.
if(CMAKE_VERSION VERSION_LESS 3.18)
  message(FATAL_ERROR "fdtune's CMake package needs CMake 3.18 or newer")
endif()

get_filename_component(_fdtune_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

include(CMakeFindDependencyMacro)
find_dependency(SQLite3)

if(NOT TARGET fdtune::fdtune)
  add_library(fdtune::fdtune STATIC IMPORTED)
  set_target_properties(fdtune::fdtune PROPERTIES
    IMPORTED_LOCATION "${_fdtune_prefix}/lib/libfdtune.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES C
    INTERFACE_INCLUDE_DIRECTORIES "${_fdtune_prefix}/include"
    INTERFACE_LINK_LIBRARIES SQLite::SQLite3)
endif()

if(NOT TARGET fdtune::online)
  find_dependency(ZLIB)
  find_dependency(Threads)
  find_package(OpenMP QUIET COMPONENTS C)
  set(_fdtune_omp "")
  if(TARGET OpenMP::OpenMP_C)
    set(_fdtune_omp OpenMP::OpenMP_C)
  endif()
  find_package(CUDAToolkit QUIET)
  if(TARGET CUDA::nvrtc)
    set(_fdtune_rtc CUDA::nvrtc)
  else()
    find_library(_fdtune_rtc NAMES amdhip64 HINTS /opt/rocm/lib)
    if(NOT _fdtune_rtc)
      set(_fdtune_rtc "")
    endif()
  endif()
  add_library(fdtune::online INTERFACE IMPORTED)
  set_target_properties(fdtune::online PROPERTIES INTERFACE_LINK_LIBRARIES
    "fdtune::fdtune;${_fdtune_rtc};ZLIB::ZLIB;${_fdtune_omp};Threads::Threads;${CMAKE_DL_LIBS};m")
endif()

set(fdtune_EXECUTABLE "${_fdtune_prefix}/bin/fdtune")
set(fdtune_FORTRAN_MODULE "${_fdtune_prefix}/include/fdtune.f90")
set(fdtune_FORTRAN_ONLINE_MODULE "${_fdtune_prefix}/include/fdtune_tuning.f90")
foreach(_fdtune_file IN ITEMS "${fdtune_EXECUTABLE}" "${fdtune_FORTRAN_MODULE}"
        "${fdtune_FORTRAN_ONLINE_MODULE}"
        "${_fdtune_prefix}/lib/libfdtune.a")
  if(NOT EXISTS "${_fdtune_file}")
    set(fdtune_FOUND FALSE)
    set(fdtune_NOT_FOUND_MESSAGE "${_fdtune_file} is missing: run make install again")
  endif()
endforeach()

function(fdtune_add_kernels)
  cmake_parse_arguments(PARSE_ARGV 0 fa "ALL_SIZES;ALL_DEVICES;FORTRAN"
    "TARGET;DB;NAME;FAMILY;RADIUS;PRECISION;SIZE;DEVICE;LANGUAGE" "")
  if(fa_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "fdtune_add_kernels: unknown arguments: ${fa_UNPARSED_ARGUMENTS}")
  endif()
  foreach(arg IN ITEMS TARGET DB NAME FAMILY RADIUS)
    if(NOT fa_${arg})
      message(FATAL_ERROR "fdtune_add_kernels: ${arg} is required, as in fdtune_add_kernels("
        "TARGET app DB tuned.db NAME lap8 FAMILY xyz RADIUS 8)")
    endif()
  endforeach()
  if(NOT TARGET ${fa_TARGET})
    message(FATAL_ERROR "fdtune_add_kernels: no target ${fa_TARGET}; add_executable or "
      "add_library it first")
  endif()
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(fa_LANGUAGE)
    set(lang ${fa_LANGUAGE})
  elseif("CUDA" IN_LIST langs)
    set(lang CUDA)
  elseif("HIP" IN_LIST langs)
    set(lang HIP)
  else()
    message(FATAL_ERROR "fdtune_add_kernels: enable CUDA or HIP first, as in "
      "project(app LANGUAGES CXX CUDA) or enable_language(HIP)")
  endif()
  if(NOT lang STREQUAL "CUDA" AND NOT lang STREQUAL "HIP")
    message(FATAL_ERROR "fdtune_add_kernels: LANGUAGE ${lang}: expected CUDA or HIP")
  endif()

  # the prefix of the installation that defined this function
  get_filename_component(prefix "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../.." ABSOLUTE)
  set(exe "${prefix}/bin/fdtune")
  get_filename_component(db "${fa_DB}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/fdtune_${fa_NAME}")
  set(out "${dir}/${fa_NAME}.cu" "${dir}/${fa_NAME}.h")
  set(args export --db "${db}" --out "${dir}" --name "${fa_NAME}" --family "${fa_FAMILY}"
    --radius "${fa_RADIUS}")
  foreach(opt IN ITEMS PRECISION SIZE DEVICE)
    if(fa_${opt})
      string(TOLOWER "${opt}" o)
      list(APPEND args "--${o}" "${fa_${opt}}")
    endif()
  endforeach()
  if(fa_ALL_SIZES)
    list(APPEND args --all-sizes)
  endif()
  if(fa_ALL_DEVICES)
    list(APPEND args --all-devices)
  endif()
  if(fa_FORTRAN)
    list(APPEND args --fortran)
    list(APPEND out "${dir}/${fa_NAME}.f90")
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND "${exe}" ${args}
    DEPENDS "${db}" "${exe}"
    COMMENT "fdtune: exporting ${fa_NAME} (${fa_FAMILY}, R = ${fa_RADIUS}) from ${fa_DB}"
    VERBATIM)
  set_source_files_properties("${dir}/${fa_NAME}.cu" PROPERTIES LANGUAGE ${lang})
  target_sources(${fa_TARGET} PRIVATE ${out})
  target_include_directories(${fa_TARGET} PRIVATE "${dir}")
endfunction()
