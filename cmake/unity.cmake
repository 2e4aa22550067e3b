# tbdse_unity_batches(<target> <max files>): with TBDSE_UNITY_BUILD, compiles
# <target>'s sources as unity batches (CMake's UNITY_BUILD_MODE GROUP): the
# files of one folder go together, split evenly into batches of at most
# <max files>, so a batch mixes no two models' helpers and an edit recompiles
# one batch.  Sources marked SKIP_UNITY_BUILD_INCLUSION (and, in GROUP mode,
# any left without a group) compile on their own.  Names a .cpp file keeps to
# itself (anonymous namespaces, statics, using-directives) must not collide
# within its folder.
function(tbdse_unity_batches target max_files)
  if(NOT TBDSE_UNITY_BUILD)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  get_target_property(sources ${target} SOURCES)
  get_target_property(target_dir ${target} SOURCE_DIR)
  set(folders "")
  foreach(src IN LISTS sources)
    get_source_file_property(skip "${src}" TARGET_DIRECTORY ${target} SKIP_UNITY_BUILD_INCLUSION)
    if(skip)
      continue()
    endif()
    cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY "${target_dir}" OUTPUT_VARIABLE abs)
    cmake_path(GET abs PARENT_PATH folder)
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${folder}")
    string(MAKE_C_IDENTIFIER "${rel}" id)
    list(APPEND folders ${id})
    list(APPEND files_${id} "${src}")
  endforeach()
  list(REMOVE_DUPLICATES folders)
  foreach(id IN LISTS folders)
    list(LENGTH files_${id} n)
    math(EXPR batches "(${n} + ${max_files} - 1) / ${max_files}")
    set(i 0)
    foreach(src IN LISTS files_${id})
      math(EXPR batch "${i} * ${batches} / ${n}")
      set_source_files_properties("${src}" TARGET_DIRECTORY ${target}
        PROPERTIES UNITY_GROUP "${id}_${batch}")
      math(EXPR i "${i} + 1")
    endforeach()
  endforeach()
endfunction()
