// terminal.h: what the REPL's printers need to know about the terminal on stdout: its width (the
// table printer cuts columns to it) and the answer to a query sequence (the inline-image code asks
// for the device attributes to learn whether sixel graphics are supported).
#pragma once

#include <optional>
#include <string>

namespace rlx::host {

// Columns of the terminal on stdout; nullopt when stdout is not a terminal or reports no size.
std::optional<int> terminal_width();

// Writes `query` to the terminal and reads its reply up to and including `end` within timeout_ms
// (stdin and stdout must both be terminals; the terminal is put in non-canonical mode without echo
// meanwhile and restored). nullopt when there is no terminal or no complete reply in time.
std::optional<std::string> terminal_query(const std::string& query, char end, int timeout_ms);

}  // namespace rlx::host
