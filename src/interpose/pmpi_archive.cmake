# SPDX-License-Identifier: BSD-3-Clause
# The library's objects for libcartcoll_mpi: a copy of the cartcoll_internal archive in which every
# call to an MPI function that libcartcoll_mpi defines (found in its wrapper objects) is renamed to
# its PMPI_ twin, so that the library's own MPI calls never come back into the wrappers.
#   cmake -DNM=... -DOBJCOPY=... -DWRAPPER_LIST=objects.txt -DARCHIVE=in.a -DOUTPUT=out.a -DSYMBOLS=renames.txt
#         -P pmpi_archive.cmake
file(READ ${WRAPPER_LIST} WRAPPERS)
set(defined)
foreach(object IN LISTS WRAPPERS)
  execute_process(COMMAND ${NM} --defined-only --extern-only ${object} OUTPUT_VARIABLE listing COMMAND_ERROR_IS_FATAL ANY)
  string(REGEX MATCHALL "[ \t]T[ \t]+MPIX?_[A-Za-z_]+" found "${listing}")
  foreach(entry IN LISTS found)
    string(REGEX REPLACE ".*[ \t]" "" name "${entry}")
    list(APPEND defined ${name})
  endforeach()
endforeach()
list(REMOVE_DUPLICATES defined)
list(LENGTH defined count)
if(count EQUAL 0)
  message(FATAL_ERROR "no MPI_ function found in ${WRAPPERS}")
endif()
set(renames "")
foreach(name IN LISTS defined)
  string(APPEND renames "${name} P${name}\n")
endforeach()
file(WRITE ${SYMBOLS} "${renames}")
execute_process(COMMAND ${OBJCOPY} --redefine-syms=${SYMBOLS} ${ARCHIVE} ${OUTPUT} COMMAND_ERROR_IS_FATAL ANY)

# Check: the copy calls none of them any more.
execute_process(COMMAND ${NM} --undefined-only ${OUTPUT} OUTPUT_VARIABLE undefined COMMAND_ERROR_IS_FATAL ANY)
foreach(name IN LISTS defined)
  if(undefined MATCHES "[ \t]U[ \t]+${name}\n")
    message(FATAL_ERROR "${OUTPUT} still calls ${name}")
  endif()
endforeach()
