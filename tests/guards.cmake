# Ownership guards (docs/architecture.md, "Ownership guards", issue 53 point 3): each reads the
# source tree and fails, naming file:line, where a claim of one owner no longer holds. They need no
# build; each also checks that its own pattern still finds a known violation.
set(G ${CMAKE_CURRENT_SOURCE_DIR}/guards)
add_test(NAME "guard: statistics only in engine/train/stats.cpp and rlx.stats"
  COMMAND bash ${G}/statistics.sh)
add_test(NAME "guard: a user's file is read only through util::UserFile and rlx.fs.read"
  COMMAND bash ${G}/user_files.sh)
add_test(NAME "guard: no exit status or other fact read out of a message's text"
  COMMAND bash ${G}/message_text.sh)
add_test(NAME "guard: precisions, memory layouts and device kinds only from their owner"
  COMMAND bash ${G}/vocabularies.sh)
add_test(NAME "guard: no require inside a function but architecture.md's lazy list"
  COMMAND bash ${G}/requires.sh)
add_test(NAME "guard: includes go down (engine below start-up, the LibTorch boundary, the host and Lua)"
  COMMAND bash ${G}/includes.sh)
