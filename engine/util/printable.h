// printable.h: the one escaping rule for a user's string that rlx prints or writes (issue 35
// item 4): the terminal (tables, progress lines, messages), report.md and its HTML. A string comes
// from a command line, a script or a database anyone could have written, and an escape sequence in
// it must not reach a terminal (it can retitle the window, clear the screen or, on some terminals,
// set the clipboard) nor a report as raw bytes.
#pragma once

#include <string>
#include <string_view>

namespace rlx::util {

// s with every control character written as \ddd (its byte in decimal: ESC is \027, BEL \007,
// NUL \000, DEL \127), the C1 controls U+0080..U+009F too (each of their two UTF-8 bytes). Line
// breaks and tabs become spaces, so the text stays on one line; with keep_lines they are kept (a
// message with a traceback).
std::string printable(std::string_view s, bool keep_lines = false);

// Whether s holds a character printable() would change (line breaks and tabs included).
bool has_control_characters(std::string_view s);

}  // namespace rlx::util
