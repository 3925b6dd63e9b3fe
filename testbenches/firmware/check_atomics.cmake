# The firmware image uses AMOs only, no LR/SC (docs/multicore.md): ISS cores are separate
# instances that run in turns, so an LR reservation would not see another core's store.
# Usage: cmake -DOBJDUMP=... -DIMAGE=... -P check_atomics.cmake
execute_process(COMMAND ${OBJDUMP} -d ${IMAGE} OUTPUT_VARIABLE dis RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} -d ${IMAGE} failed (${rc})")
endif()
string(REGEX MATCHALL "[ \t](lr|sc)\\.w[^\n]*" lrsc "${dis}")
if(lrsc)
  message(FATAL_ERROR "LR/SC in ${IMAGE}: ${lrsc}")
endif()
# The check means something only if the lock's AMOs are there.
string(REGEX MATCHALL "amoswap\\.w" amo "${dis}")
list(LENGTH amo n)
if(n EQUAL 0)
  message(FATAL_ERROR "no amoswap.w in ${IMAGE}: the firmware lock is not in the image")
endif()
message(STATUS "${IMAGE}: ${n} amoswap.w, no LR/SC")
