#!/usr/bin/env bash
# message_text.sh: no exit status, and no other fact, is chosen by reading a message's text
# (docs/architecture.md, "Errors across the boundary"): an error says what kind it is as data, the
# error table's exit_code, usage and code fields (host/bindings/lua_bind.h), and C++ reads the
# exception's type and fields, not e.what(). Looked for:
#   Lua (scripts/rlx): match, find or gmatch on an error value (a name such as err, msg, message,
#     why or reason, errors.message(...), errors.text(...), tostring(err)), and any match, find,
#     gmatch or gsub whose pattern is prose (two words: "holds no study", "disk I/O error"), which
#     breaks silently when the text's owner rewords it;
#   C++ (engine/, host/, plotting/): find, rfind, starts_with or strstr of a text (not a single
#     character) in e.what(), or in a variable named what, msg, message, err, error or why.
# Scanning texts that are data is allowed (a CSV, a command's output parsed as a table); the
# allow list names each place where a message is read, with why no field can say it.
source "$(dirname "$0")/common.sh"
call='(:|string\.)(match|find|gmatch|gsub) *\('
names='([A-Za-z0-9_]*_)?(err|errs|error|msg|message|why|reason)(_[A-Za-z0-9_]*)?'
err_subject="(^|[^A-Za-z0-9_.])$names *(\\)|\\.message *)?:(match|find|gmatch) *\\("
err_call="(errors\\.(message|text) *\\([^)]*\\)\\)?|tostring *\\( *$names(\\.message)? *\\)) *:(match|find|gmatch) *\\("
prose="$call *(\"[^\"]*[A-Za-z]{2,} +[A-Za-z]{2,}[^\"]*\"|'[^']*[A-Za-z]{2,} +[A-Za-z]{2,}[^']*')"
prose_fn="string\.(match|find|gmatch|gsub) *\([^,]+, *(\"[^\"]*[A-Za-z]{2,} +[A-Za-z]{2,}[^\"]*\"|'[^']*[A-Za-z]{2,} +[A-Za-z]{2,}[^']*')"
lua_pattern="$err_subject|$err_call|$prose|$prose_fn"
cpp_pattern="(what\\(\\)\\)?|(^|[^A-Za-z0-9_])(what|msg|message|messages|err|error|why)\\)?)\\.(r?find|starts_with|ends_with) *\\( *[^' ]|strstr *\\("
catches "message-text (Lua)" "$lua_pattern" '  local function fail(message) rlx.fail(message:find("holds no study") and 1 or 2, message) end'
catches "message-text (Lua)" "$lua_pattern" '    local unknown_chip = text:find("does not know chip", 1, true) ~= nil'
catches "message-text (Lua)" "$lua_pattern" '  if rlx.errors.message(err):match("^cannot") then'
catches "message-text (C++)" "$cpp_pattern" '  if (std::string(e.what()).find("database is locked") != std::string::npos) return 2;'
catches "message-text (C++)" "$cpp_pattern" '  return message.find("out of memory") != std::string::npos;'
allow='
scripts/rlx/_repl.lua |<eof>| LuaJIT parser says an unfinished chunk only in its message (as lua.c reads it); no status chosen
scripts/rlx/_repl.lua |in function| debug.traceback is text only: the repl cuts its own frames below its xpcall
scripts/rlx/slurm/_array.lua |Invalid job id| squeue own stderr: it exits 1 for every error, and says a finished job only so
engine/train/torch_errors.cpp  LibTorch exceptions carry no code for a CPU out-of-memory or a batch-norm of one value: their text is made a fact once, at the boundary
engine/store/legacy_notes.cpp  the one reader of the prose notes stored before issue 47, turned into fields
'
hits=$( { code_lines $(lua_files scripts/rlx) | grep -E -- "$lua_pattern";
          code_lines $(cpp_files engine host plotting) | grep -E -- "$cpp_pattern"; } | allowed "$allow")
report "a fact read out of a message's text (give it a field: the error table's code or usage, a result field)" "$hits"
