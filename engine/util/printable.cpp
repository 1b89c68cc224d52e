// printable.cpp: see printable.h.
#include "util/printable.h"

#include <fmt/format.h>

namespace rlx::util {
namespace {

bool is_c0_or_del(unsigned char c) {
  return c < 0x20 || c == 0x7f;
}

// A C1 control encoded in UTF-8: 0xC2 followed by 0x80..0x9F.
bool is_c1_at(std::string_view s, size_t i) {
  return i + 1 < s.size() && static_cast<unsigned char>(s[i]) == 0xc2 &&
         static_cast<unsigned char>(s[i + 1]) >= 0x80 && static_cast<unsigned char>(s[i + 1]) <= 0x9f;
}

void escape_byte(std::string& out, unsigned char c) {
  out += fmt::format("\\{:03d}", c);
}

}  // namespace

std::string printable(std::string_view s, bool keep_lines) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\n' || c == '\r' || c == '\t') {
      out += keep_lines && c != '\r' ? static_cast<char>(c) : ' ';
    } else if (is_c0_or_del(c)) {
      escape_byte(out, c);
    } else if (is_c1_at(s, i)) {
      escape_byte(out, c);
      escape_byte(out, static_cast<unsigned char>(s[++i]));
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

bool has_control_characters(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (is_c0_or_del(static_cast<unsigned char>(s[i])) || is_c1_at(s, i)) return true;
  return false;
}

}  // namespace rlx::util
