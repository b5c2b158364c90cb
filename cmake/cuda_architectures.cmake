# The CUDA architectures halfstep builds when the user names none (CMakeLists.txt calls this
# before enable_language(CUDA)). nvcc is CMAKE_CUDA_COMPILER as check_language(CUDA) found it.

# For a machine without a visible GPU (a CI runner, a build host): real code for the current
# data-centre GPUs, and PTX of the newest for GPUs newer than the toolkit. sm_80 code also runs
# on 8.6/8.7/8.9 (A10, A40, L4, L40) and sm_100 on 10.3 (B300), since a cubin runs on later
# minor versions of its major one; each entry costs one more device compile of the CUDA sources.
set(HALFSTEP_CUDA_ARCH_FALLBACK 80 90 100 120)

# out: the list for CMAKE_CUDA_ARCHITECTURES; why: one phrase saying how it was chosen.
function(halfstep_default_cuda_architectures out why)
  # What this nvcc can build for ("sm_75", "sm_80", ...); empty when it cannot say (CUDA < 11).
  set(supported "")
  execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --list-gpu-code OUTPUT_VARIABLE codes
                  RESULT_VARIABLE rc ERROR_QUIET TIMEOUT 30)
  if(rc EQUAL 0)
    string(REGEX MATCHALL "sm_[0-9]+" codes "${codes}")
    foreach(c IN LISTS codes)
      string(REPLACE "sm_" "" c "${c}")
      list(APPEND supported "${c}")
    endforeach()
  endif()

  # The GPUs of this machine: nvidia-smi rather than CMake's "native" (3.24+), which would run
  # a CUDA program at configure time and stop the configure where the driver is older than nvcc.
  find_program(smi nvidia-smi NO_CACHE)
  set(gpus "")
  set(names "")
  if(smi)
    execute_process(COMMAND "${smi}" --query-gpu=name,compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE rows RESULT_VARIABLE rc ERROR_QUIET TIMEOUT 30)
    if(rc EQUAL 0)
      string(REPLACE "\n" ";" rows "${rows}")
      foreach(row IN LISTS rows)
        if(row MATCHES "^(.+), *([0-9]+)\\.([0-9]+) *$")
          set(arch "${CMAKE_MATCH_2}${CMAKE_MATCH_3}")
          string(STRIP "${CMAKE_MATCH_1}" name)
          if(supported AND NOT arch IN_LIST supported)
            message(WARNING "halfstep: ${name} (compute capability ${CMAKE_MATCH_2}.${CMAKE_MATCH_3}) is not "
                            "supported by ${CMAKE_CUDA_COMPILER}; building the list for machines without a GPU")
            set(gpus "")
            break()
          endif()
          list(APPEND gpus "${arch}")
          list(APPEND names "${name}")
        endif()
      endforeach()
    endif()
  endif()
  if(gpus)
    list(REMOVE_DUPLICATES gpus)
    list(REMOVE_DUPLICATES names)
    list(SORT gpus COMPARE NATURAL)
    list(JOIN names ", " names)
    set(${out} "${gpus}" PARENT_SCOPE)
    set(${why} "the GPU of this machine, ${names}" PARENT_SCOPE)
    return()
  endif()

  # No GPU: the fallback entries this nvcc supports, real code only but for the newest, whose
  # PTX is JIT-compiled by drivers of GPUs newer than every entry.
  set(kept "")
  foreach(arch IN LISTS HALFSTEP_CUDA_ARCH_FALLBACK)
    if(NOT supported OR arch IN_LIST supported)
      list(APPEND kept "${arch}")
    endif()
  endforeach()
  if(NOT kept)  # an nvcc older than every entry: its own default
    set(${out} "" PARENT_SCOPE)
    set(${why} "nvcc's default (it supports none of ${HALFSTEP_CUDA_ARCH_FALLBACK})" PARENT_SCOPE)
    return()
  endif()
  list(POP_BACK kept newest)
  list(TRANSFORM kept APPEND "-real")
  list(APPEND kept "${newest}")
  set(${out} "${kept}" PARENT_SCOPE)
  set(${why} "no GPU visible at configure time: real code for the current data-centre GPUs, PTX of the newest" PARENT_SCOPE)
endfunction()
