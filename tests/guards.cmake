# Ownership guards (docs/architecture.md, "Ownership guards", issue 53 point 3): each reads the
# source tree and fails, naming file:line, where a claim of one owner no longer holds. They need no
# build; each also checks that its own pattern still finds a known violation.
function(rlx_guard script claim)
  add_test(NAME "guard: ${claim}" COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/guards/${script})
endfunction()
rlx_guard(statistics.sh "statistics only in engine/train/stats.cpp and rlx.stats")
rlx_guard(user_files.sh "a user's file is read only through util::UserFile and rlx.fs.read")
rlx_guard(message_text.sh "no exit status or other fact read out of a message's text")
rlx_guard(vocabularies.sh "precisions, memory layouts and device kinds only from their owner")
rlx_guard(requires.sh "no require inside a function but architecture.md's lazy list")
rlx_guard(includes.sh "includes go down (engine below start-up, the LibTorch boundary, the host and Lua)")
